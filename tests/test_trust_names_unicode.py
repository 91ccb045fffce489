"""Account names in any script (issue 36): Han, kana, Hangul and Latin names are taken,
look-alikes, mixed scripts and invisible characters are refused each with its own
code, an account stored before keys were skeletons still logs in, and a Han name
goes through a stored hand's downloads, ``stud convert`` and the replayer.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, text

from stud.cli import main as stud_main
from stud.history import read_phh, read_pokerstars
from stud.history.phh import read_phhs
from stud.server.app import create_app
from stud.server.errors import Refusal
from stud.server.http.deps import COOKIE
from stud.server.room.room import RoomConfig
from stud.server.storage import Database, TableSpec
from stud.server.trust.names import account_name, name_key
from stud.table.engine import EngineHand, start_engine_hand
from stud.table.heading import Heading
from stud.testing.server import fresh_database

HAN = "玩家小明"
PASSWORD = "secret-1"


@pytest.mark.parametrize(
    "raw",
    [HAN, "小明", "Ada", "はなこ", "김민수", "Mary Ann", "田中Taro", "José", "li.wei_2", "Алёша"],
)
def test_names_of_any_script_are_taken(raw: str) -> None:
    assert account_name(raw) == raw


def test_a_name_is_stored_normalised() -> None:
    assert account_name("Ａｄａ") == "Ada"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("A", "name_length"),
        ("小" * 21, "name_length"),
        ("Ada\u200b", "name_invisible"),  # zero-width space
        ("\u202eAda", "name_invisible"),  # right-to-left override
        ("Ad\u200da", "name_invisible"),  # zero-width joiner
        ("\u0410da", "name_mixed_script"),  # a Cyrillic А in a Latin name
        ("Pаypal", "name_mixed_script"),  # a Cyrillic а inside
        ("Ada!", "name_characters"),
        ("Ada\n", "name_characters"),
        (" Ada", "name_characters"),
        ("Ada  Lovelace", "name_characters"),
        ("House", "name_reserved"),
        ("ＨＯＵＳＥ", "name_reserved"),  # full width
        ("ВОТ7", "name_reserved"),  # Cyrillic capitals that spell Bot
        ("Guest-1a2b3c", "name_reserved"),
    ],
)
def test_refused_names_say_why_by_code(raw: str, code: str) -> None:
    with pytest.raises(Refusal) as refused:
        account_name(raw)
    assert refused.value.code == code, refused.value


def test_look_alikes_share_one_key() -> None:
    assert name_key("Ada") == name_key("ADA") == name_key("Ａｄａ") == name_key("\u0410da")
    assert name_key("Coco") == name_key("Сосо")  # all Cyrillic
    assert name_key("B0B") == name_key("bob")
    assert name_key("小明") != name_key("小朋")
    assert name_key("ВОТ") == name_key("bot")  # Cyrillic capitals
    assert name_key("Ana") != name_key("Ann")


@pytest.fixture
def database_url(tmp_path: Path) -> Iterator[str]:
    with fresh_database("sqlite", tmp_path) as url:
        yield url


def client_for(url: str) -> TestClient:
    config = RoomConfig(default_tables=(), default_tournaments=())
    return TestClient(create_app(Database(url), config, start_engine_hand))


def register(client: TestClient, name: str) -> tuple[int, dict[str, object]]:
    response = client.post("/api/register", json={"name": name, "password": PASSWORD})
    client.cookies.clear()
    return response.status_code, response.json()


@pytest.mark.slow
def test_the_room_takes_a_han_name_and_refuses_its_look_alikes(database_url: str) -> None:
    with client_for(database_url) as client:
        for name in (HAN, "Ada"):
            status, body = register(client, name)
            assert (status, body["name"]) == (200, name), body
        for twin in ("ADA", "Ａｄａ"):
            status, body = register(client, twin)
            assert (status, body["code"]) == (409, "name_taken"), body
        for raw, code in (("\u0410da", "name_mixed_script"), ("Ada\u200b", "name_invisible")):
            status, body = register(client, raw)
            assert (status, body["code"]) == (422, code), body
        login = client.post("/api/login", json={"name": HAN, "password": PASSWORD})
        assert login.status_code == 200 and login.json()["name"] == HAN


@pytest.mark.slow
def test_an_account_stored_before_name_keys_still_logs_in(database_url: str) -> None:
    with client_for(database_url) as client:
        assert register(client, "Old_Timer")[0] == 200
    # The database as an earlier version left it: no key column.
    db = Database(database_url)
    with db.engine.begin() as conn:
        conn.execute(text("DROP INDEX accounts_by_name_key"))
        conn.execute(text("ALTER TABLE accounts DROP COLUMN name_key"))
    db.engine.dispose()
    with client_for(database_url) as client:
        for typed in ("Old_Timer", "OLD_TIMER"):
            login = client.post("/api/login", json={"name": typed, "password": PASSWORD})
            assert login.status_code == 200 and login.json()["name"] == "Old_Timer", login.text
            client.cookies.clear()
        status, body = register(client, "old_timer")
        assert (status, body["code"]) == (409, "name_taken")


SPEC = TableSpec(
    name="牌桌", game="stud", ante=2, bring_in=5, small_bet=10, big_bet=20, seats=8,
    bots=0, min_buy_in=10, max_buy_in=1000,
)  # fmt: skip


def played_hand(names: list[str]) -> EngineHand:
    """A hand of Stud played to its end by seeded random legal actions."""
    rng = random.Random(36)
    hand, _ = start_engine_hand("stud", 2, 5, 10, 20, [400] * len(names), [0, 3, 5], 36)
    assert isinstance(hand, EngineHand)
    while not hand.over:
        legal = [o for o in hand.legal() if o.action != "fold"]
        pick = rng.choice(legal)
        assert hand.actor is not None
        hand.act(hand.actor, pick.action, pick.to)
    return hand


def test_a_han_name_goes_through_downloads_convert_and_replay(
    database_url: str, tmp_path: Path
) -> None:
    names = [HAN, "はなこ", "Ada"]
    hand = played_hand(names)
    db = Database(database_url)
    db.start()
    store = db.store

    def fill(conn: Connection) -> int:
        table_id = store.create_table(conn, SPEC, None).id
        accounts = [store.create_account(conn, name, "user").id for name in names]
        store.create_session(conn, accounts[0], "token-han", 3600)
        players = [
            {"seat": seat, "account_id": account, "name": name, "stack": 400}
            for seat, account, name in zip(hand.seats, accounts, names, strict=True)
        ]
        hand_id = store.start_hand(conn, table_id, 1, "stud", players)
        played = hand.played(Heading(hand_id, SPEC.name, names, max_seats=8))
        store.finish_hand(conn, table_id, hand_id, {}, 0, {"results": []}, played, committed={})
        return hand_id

    hand_id = db.write_sync(fill)
    db.close()
    with client_for(database_url) as client:
        client.cookies.set(COOKIE, "token-han")
        phh = client.get(f"/api/hands/{hand_id}/phh")
        stars = client.get(f"/api/hands/{hand_id}/pokerstars")
        replay = client.get(f"/api/hands/{hand_id}/replay")
    assert phh.status_code == stars.status_code == replay.status_code == 200
    assert HAN in replay.text
    assert [seat.name for seat in read_phh(phh.text).seats] == names
    assert [seat.name for seat in read_pokerstars(stars.text).hands[0].seats] == names
    phh_path, stars_path = tmp_path / "hand.phh", tmp_path / "hand.txt"
    phh_path.write_text(phh.text, "utf-8")
    stars_path.write_text(stars.text, "utf-8")
    to_stars, to_phh = tmp_path / "converted.txt", tmp_path / "converted.phh"
    assert stud_main(["convert", str(phh_path), "--to", "pokerstars", "-o", str(to_stars)]) == 0
    assert stud_main(["convert", str(stars_path), "--to", "phh", "-o", str(to_phh)]) == 0
    again_stars = read_pokerstars(to_stars.read_text("utf-8")).hands[0]
    again_phh = read_phhs(to_phh.read_text("utf-8")).hands[0]
    assert [seat.name for seat in again_stars.seats] == names
    assert [seat.name for seat in again_phh.seats] == names
    assert again_phh.actions == read_phh(phh.text).actions


def test_look_alikes_are_joined_one_step_only() -> None:
    """Digits that look like no letter stay themselves: p0…p9 are ten names but for p0/po
    and p1/pl, which do look alike; chains of look-alikes do not join 6 and o."""
    from stud.server.trust.names import name_key

    keys = [name_key(f"p{digit}") for digit in range(10)]
    assert keys[0] == name_key("po") and keys[1] == name_key("pl")
    assert len(set(keys[2:])) == 8 and name_key("p6") != name_key("po")
