"""The replayer's equities street by street, against stud.equity called directly, and only
ever from the cards the caller may see.

An imported hand written here by hand gives the expected numbers in plain notation; room
hands played to their end by random actions give the privacy check: a spot where a folded
player's down cards, if they were used, would change the number, and the number served to a
spectator is the one without them, to that player the one with them.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stud.cards import Card
from stud.equity import equity
from stud.history import HandRecord, Show
from stud.history.played import load_played
from stud.server.app import create_app
from stud.server.http.deps import COOKIE
from stud.server.http.street_equity import EXACT_LIMIT, SAMPLES
from stud.server.room.room import RoomConfig
from stud.server.storage import Database, TableSpec
from stud.table.engine import start_engine_hand
from test_history_stored import play_hand

HAND = """PokerStars Hand #900000000001:  7 Card Stud Limit ($0.04/$0.08 USD) - \
2020/01/02 10:00:00 ET
Table 'Equity I' 8-max
Seat 1: Hero ($2.00 in chips)
Seat 2: Folder ($2.00 in chips)
Seat 3: Shower ($2.00 in chips)
Hero: posts the ante $0.01
Folder: posts the ante $0.01
Shower: posts the ante $0.01
*** 3rd STREET ***
Dealt to Hero [Ah Ad 7c]
Dealt to Folder [2s]
Dealt to Shower [Kc]
Folder: brings in for $0.02
Shower: raises $0.02 to $0.04
Hero: calls $0.04
Folder: calls $0.02
*** 4th STREET ***
Dealt to Hero [Ah Ad 7c] [5d]
Dealt to Folder [2s] [9h]
Dealt to Shower [Kc] [Kd]
Shower: bets $0.04
Hero: calls $0.04
Folder: folds
*** 5th STREET ***
Dealt to Hero [Ah Ad 7c 5d] [3s]
Dealt to Shower [Kc Kd] [4h]
Shower: bets $0.08
Hero: calls $0.08
*** 6th STREET ***
Dealt to Hero [Ah Ad 7c 5d 3s] [Jd]
Dealt to Shower [Kc Kd 4h] [8c]
Shower: bets $0.08
Hero: calls $0.08
*** RIVER ***
Dealt to Hero [Ah Ad 7c 5d 3s Jd] [2c]
Shower: checks
Hero: checks
*** SHOW DOWN ***
Shower: shows [Ks 6d Kc Kd 4h 8c Qs] (three of a kind, Kings)
Hero: mucks hand
Shower collected $0.55 from pot
*** SUMMARY ***
Total pot $0.55 | Rake $0
Seat 1: Hero mucked [Ah Ad 7c 5d 3s Jd 2c]
Seat 2: Folder folded on the 4th Street
Seat 3: Shower showed [Ks 6d Kc Kd 4h 8c Qs] and won ($0.55) with three of a kind, Kings
"""
"""Hero (seat 1) holds two aces; Folder's down cards never show; Shower shows three kings."""

EXPECTED_SPOTS = {
    3: (["Ah Ad | 7c", "?? ?? | 2s", "Ks 6d | Kc"], None),
    4: (["Ah Ad | 7c 5d", "?? ?? | 2s 9h", "Ks 6d | Kc Kd"], None),
    5: (["Ah Ad | 7c 5d 3s", "Ks 6d | Kc Kd 4h"], "?? ?? 2s 9h"),
    6: (["Ah Ad | 7c 5d 3s Jd", "Ks 6d | Kc Kd 4h 8c"], "?? ?? 2s 9h"),
    7: (["Ah Ad | 7c 5d 3s Jd | 2c", "Ks 6d | Kc Kd 4h 8c | Qs"], "?? ?? 2s 9h"),
}
"""What the replay's viewer (Hero) sees on each street, written out: the players still in,
and the folded player's cards as dead (his down cards unseen)."""


def expected(game: str, players: list[str], dead: str | None, seed: int) -> Any:
    return equity(game, players, dead, exact_limit=EXACT_LIMIT, samples=SAMPLES, seed=seed)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, Database]]:
    url = f"sqlite:///{tmp_path_factory.mktemp('equity') / 'room.sqlite3'}"
    db = Database(url)
    db.start()

    def fill(conn: Any) -> None:
        for name in ("hero", "other"):
            account = db.store.create_account(conn, name, "user").id
            db.store.create_session(conn, account, f"token-{name}", 3600)

    db.write_sync(fill)
    db.close()
    config = RoomConfig(default_tables=(), default_tournaments=())
    app_db = Database(url)
    with TestClient(create_app(app_db, config, start_engine_hand)) as test_client:
        yield test_client, app_db


def as_(client: TestClient, token: str | None) -> TestClient:
    client.cookies.clear()
    if token:
        client.cookies.set(COOKIE, token)
    return client


@pytest.mark.slow
def test_an_imported_hands_equities_are_stud_equitys(
    client: tuple[TestClient, Database],
) -> None:
    http, _ = client
    upload = as_(http, "token-hero").post(
        "/api/me/imports", files=[("files", ("hand.txt", HAND.encode(), "text/plain"))]
    )
    assert upload.status_code == 200 and upload.json()["imported"] == 1, upload.text
    hand_id = upload.json()["ids"][0]
    answer = as_(http, "token-hero").get(f"/api/me/imports/{hand_id}/equity")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["you"] == 0 and data["game"] == "stud"
    streets = {s["street"]: s for s in data["streets"]}
    assert sorted(streets) == [3, 4, 5, 6, 7]
    for street, (players, dead) in EXPECTED_SPOTS.items():
        want = expected("stud", players, dead, data["seed"])
        got = streets[street]
        assert got["method"] == want.method and got["runouts"] == want.runouts, street
        seats = [0, 1, 2] if street < 5 else [0, 2]
        assert [s["seat"] for s in got["shares"]] == seats
        assert [s["equity"] for s in got["shares"]] == [p.equity for p in want.players], street
    # Heads-up from 5th street on, exactly; three-way before it, sampled.
    assert [streets[s]["method"] for s in (3, 4, 5, 6, 7)] == ["sampled"] * 2 + ["exact"] * 3
    assert streets[7]["shares"] == [{"seat": 0, "equity": 0.0}, {"seat": 2, "equity": 1.0}]
    # Asked again: the same numbers (a seed fixed by the hand; and kept).
    assert as_(http, "token-hero").get(f"/api/me/imports/{hand_id}/equity").json() == data


def notation(cards: tuple[Card | None, ...]) -> str:
    words = ["??" if c is None else str(c) for c in cards]
    text = " ".join(words[:2]) + " | " + " ".join(words[2:6])
    return text + " | " + words[6] if len(words) == 7 else text


SPEC = TableSpec(
    name="Equity", game="stud", ante=2, bring_in=5, small_bet=10, big_bet=20, seats=8,
    bots=0, min_buy_in=10, max_buy_in=1000,
)  # fmt: skip


def telling_spot(record: HandRecord) -> tuple[int, int, list[int]] | None:
    """(street, folded seat, players still in) where the folded seat's down cards, if used,
    change an exact equity; None if the hand has no such street."""
    folded = record.folded_on()
    shown = {e.seat for e in record.shows if isinstance(e, Show)}
    for street in (5, 6, 7):
        live = [s for s in range(len(record.seats)) if folded.get(s, 8) >= street]
        if len(live) != 2 or any(len(record.cards[s]) < street or s not in shown for s in live):
            continue
        for seat, when in folded.items():
            if when >= street or when < 3 or seat in shown:
                continue
            players = [notation(record.cards[s][:street]) for s in live]
            hidden = " ".join(["??", "??", *(str(c) for c in record.cards[seat][2:when])])
            seen = " ".join(str(c) for c in record.cards[seat][:when])
            others = [
                " ".join(str(c) for c in record.cards[f][:w])
                for f, w in folded.items()
                if f != seat and w < street
            ]
            for dead_a, dead_b in ((hidden, seen),):
                a = equity("stud", players, " ".join([dead_a, *others]), method="exact")
                b = equity("stud", players, " ".join([dead_b, *others]), method="exact")
                if a[0].equity != b[0].equity and a.runouts <= EXACT_LIMIT:
                    return street, seat, live
    return None


@pytest.mark.slow
def test_a_room_hands_equity_never_uses_a_card_the_caller_may_not_see(
    client: tuple[TestClient, Database],
) -> None:
    http, db = client
    rng = random.Random(38)
    for attempt in range(400):
        played = play_hand("stud", rng, 5000 + attempt)
        record = load_played(played.played())
        spot = telling_spot(record)
        if spot is not None:
            break
    else:
        pytest.fail("no hand with a telling spot in 400")
    street, folded_seat, live = spot

    def store(conn: Any) -> tuple[int, dict[int, int]]:
        table = db.store.create_table(conn, SPEC, None).id
        accounts = {}
        for i in range(len(played.names)):
            accounts[i] = db.store.create_account(conn, f"eq{attempt}p{i}", "user").id
            db.store.create_session(conn, accounts[i], f"token-eq-{i}", 3600)
        players = [
            {"seat": seat, "account_id": accounts[i], "name": played.names[i], "stack": stack}
            for i, (seat, stack) in enumerate(
                zip(played.hand.seats, played.hand.hand.config.stacks, strict=True)
            )
        ]
        hand_id = db.store.start_hand(conn, table, 1, "stud", players)
        db.store.finish_hand(conn, table, hand_id, {}, 0, {"results": []}, played.played(),
                             committed={})  # fmt: skip
        return hand_id, accounts

    hand_id, _ = db.write_sync(store)
    folded = record.folded_on()
    players = [notation(record.cards[s][:street]) for s in live]

    def dead(seen_by: int | None) -> str:
        cards = []
        for seat, when in folded.items():
            if when < street:
                held = record.cards[seat][:when]
                cards += [
                    str(c) if (i >= 2 or seat == seen_by) else "??" for i, c in enumerate(held)
                ]
        return " ".join(cards)

    for viewer, token in ((None, None), (folded_seat, f"token-eq-{folded_seat}")):
        answer = as_(http, token).get(f"/api/hands/{hand_id}/equity")
        assert answer.status_code == 200, answer.text
        data = answer.json()
        got = next(s for s in data["streets"] if s["street"] == street)
        assert got["method"] == "exact"
        want = equity("stud", players, dead(viewer), method="exact")
        other = equity("stud", players, dead(folded_seat if viewer is None else None),
                       method="exact")  # fmt: skip
        seats = [played.hand.seats[s] for s in live]
        assert got["shares"] == [
            {"seat": seat, "equity": p.equity} for seat, p in zip(seats, want.players, strict=True)
        ]
        assert [s["equity"] for s in got["shares"]] != [p.equity for p in other.players]
    # A running or unknown hand has no equity.
    assert as_(http, None).get(f"/api/hands/{hand_id + 999}/equity").status_code == 404
