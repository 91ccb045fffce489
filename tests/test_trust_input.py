"""Issue 13, defects 3-7 against a real server: settings, names, cross-site requests, bad Unicode.

Each test sends what an attacker sent and checks the refusal says what is wrong
and changes nothing.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import httpx
import pytest

from stud.cli import main as stud_main
from stud.history import read_phh, read_pokerstars, write_phh, write_pokerstars_hand
from stud.history.samples import sample_hands
from stud.testing.server import Client, ServerProcess, ServerSpec

ARGS = ("--no-default-tables", "--pause", "0.05", "--bot-delay", "0.01", "0.02", "--seed", "5")
RAZZ = {"game": "razz", "ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8}


SERVER = ServerSpec(ARGS, clean_log=True)


def post(server: ServerProcess, path: str, body: Any = None, **kw: Any) -> httpx.Response:
    content = body if isinstance(body, str) else None
    return httpx.post(
        server.base + path,
        content=content,
        json=None if content is not None else body,
        headers={"content-type": "application/json", **kw.pop("headers", {})},
        timeout=30,
        **kw,
    )


def lobby(server: ServerProcess) -> list[dict[str, Any]]:
    return list(httpx.get(server.base + "/api/tables", timeout=30).json())


# -- defect 3: a table that can never deal ---------------------------------------------------


def test_a_table_that_could_never_deal_is_refused_in_the_engine_s_words(
    server: ServerProcess,
) -> None:
    guest = Client.guest(server.base)
    cookies = {"stud_session": guest.cookie or ""}
    before = lobby(server)
    cases: list[tuple[dict[str, Any], str]] = [
        ({"ante": 0, "bring_in": 5, "small_bet": 5, "big_bet": 5}, "must be above the small bet"),
        ({"bring_in": 10, "small_bet": 5, "big_bet": 10}, "cannot be above the small bet"),
        ({"ante": -1}, "ante cannot be negative"),
        ({"bring_in": 0}, "bring_in cannot be below 1"),
        ({"seats": 9}, "seats 2 to 8 players"),
        ({"game": "holdem"}, "holdem"),
        ({"rake_percent": 100}, "rake_percent"),
        ({"min_buy_in": 500, "max_buy_in": 100}, "cannot be above max_buy_in"),
    ]
    for change, words in cases:
        body = {"name": "never", **RAZZ, **change}
        response = post(server, "/api/tables", body, cookies=cookies)
        assert response.status_code == 422, (change, response.text)
        assert words in response.json()["detail"], (change, response.text)
    assert lobby(server) == before


def test_the_cli_and_the_table_layer_use_the_same_rule(capsys: pytest.CaptureFixture[str]) -> None:
    from stud.table import TableSettings

    with pytest.raises(ValueError, match="must be above the small bet"):
        TableSettings("x", "razz", 0, 5, 5, 5)
    assert stud_main(["deal", "razz", "--ante", "0", "--bring-in", "5", "--small-bet", "5",
                      "--big-bet", "5"]) != 0  # fmt: skip
    assert "must be above the small bet" in capsys.readouterr().err
    # ``stud play`` refused such a table only once its first hand was dealt, in the TUI.
    assert stud_main(["play", "razz", "--stakes", "0/5/5/5", "--bots", "random"]) == 2
    assert "must be above the small bet" in capsys.readouterr().err


# -- defect 4: names that inject lines into histories ----------------------------------------

HOSTILE = [
    "x'\nDealt to Mallory [As Ah]\n'",
    "a\rb",
    "a\x0bb\x0cc",
    "a\x1cb\x1dc\x1e",
    "a\x85b",
    "a\u2028b\u2029c",
    'quote"back\\slash',
    "tab\there",
]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_table_name_with_a_line_break_or_control_character_is_refused(
    server: ServerProcess, name: str
) -> None:
    guest = Client.guest(server.base)
    response = post(server, "/api/tables", {"name": name, **RAZZ}, cookies={
        "stud_session": guest.cookie or ""})  # fmt: skip
    if name == 'quote"back\\slash':
        assert response.status_code == 201  # printable: a fine name
        return
    assert response.status_code == 422, response.text
    assert "line break or control character" in response.json()["detail"]
    assert all(t["name"] != name for t in lobby(server))


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_round_trip_through_both_formats_without_an_extra_line(name: str) -> None:
    """The writers escape what a line-based format cannot carry; the readers get the name back."""
    base = next(sample_hands(1, seed=4))
    seats = tuple(replace(s, name=name if i == 0 else s.name) for i, s in enumerate(base.seats))
    record = replace(base, seats=seats, table=name)
    phh = write_phh(record)
    assert len(phh.splitlines()) == len(write_phh(base).splitlines()), phh
    again = read_phh(phh)
    assert again.seats[0].name == name and again.table == name
    stars = write_pokerstars_hand(record)
    assert len(stars.splitlines()) == len(write_pokerstars_hand(base).splitlines()), stars
    assert not any(line.startswith("Dealt to Mallory") for line in stars.splitlines())
    read = read_pokerstars(stars)
    assert len(read.hands) == 1 and not read.errors, read.errors
    assert read.hands[0].cards == read_pokerstars(write_pokerstars_hand(base)).hands[0].cards


# -- defect 5: look-alike accounts -------------------------------------------------------------


def test_look_alike_and_reserved_names_are_refused_with_the_reason(server: ServerProcess) -> None:
    good = post(server, "/api/register", {"name": "alice", "password": "secret-1"})
    assert good.status_code == 200, good.text
    for twin in ("ALICE", "Alice", "ａｌｉｃｅ"):
        response = post(server, "/api/register", {"name": twin, "password": "secret-1"})
        assert response.status_code == 409, (twin, response.text)
        assert "taken" in response.json()["detail"]
    response = post(server, "/api/register", {"name": "alice\n", "password": "secret-1"})
    assert response.status_code == 422 and "only the letters" in response.json()["detail"]
    for name, words in (
        ("House", "reserved for the room"),
        ("Bottle_Joe", "reserved for the room's bots"),
        ("guest-1a2b3c", "reserved for the room's guests"),
    ):
        response = post(server, "/api/register", {"name": name, "password": "secret-1"})
        assert response.status_code == 422, (name, response.text)
        assert words in response.json()["detail"], (name, response.text)
    # The one account answers to its name in any case.
    login = post(server, "/api/login", {"name": "ALICE", "password": "secret-1"})
    assert login.status_code == 200 and login.json()["name"] == "alice"


# -- defect 6: login CSRF ----------------------------------------------------------------------


def test_a_foreign_page_cannot_swap_or_end_a_session(server: ServerProcess) -> None:
    guest = Client.guest(server.base)
    cookies = {"stud_session": guest.cookie or ""}
    for path in ("/api/guest", "/api/logout", "/api/login", "/api/register", "/api/tables"):
        for headers in (
            {"Origin": "https://evil.example"},
            {"Origin": "null"},
            {"Referer": "https://evil.example/page"},
            {"Sec-Fetch-Site": "cross-site"},
        ):
            response = post(server, path, "{}", cookies=cookies, headers=headers)
            assert response.status_code == 403, (path, headers, response.text)
            assert "cross-site" in response.json()["detail"]
            assert "set-cookie" not in response.headers
    me = httpx.get(server.base + "/api/me", cookies=cookies, timeout=30)
    assert me.status_code == 200 and me.json()["id"] == guest.account["id"]  # type: ignore[index]
    same = post(server, "/api/guest", None, headers={"Origin": server.base})
    assert same.status_code == 200


# -- defect 7: invalid Unicode -----------------------------------------------------------------


def test_invalid_unicode_gets_the_documented_error(server: ServerProcess) -> None:
    guest = Client.guest(server.base)
    cookies = {"stud_session": guest.cookie or ""}
    raw = '{"name": "x\\ud800", "game": "razz", "ante": 1, "bring_in": 2, "small_bet": 4, '
    raw += '"big_bet": 8}'
    response = post(server, "/api/tables", raw, cookies=cookies)
    assert response.status_code == 422, response.text
    for path, body in (
        ("/api/register", '{"name": "bob\\udfff", "password": "secret-1"}'),
        ("/api/register", '{"name": "bob", "password": "pw\\ud800pw"}'),
        ("/api/login", '{"name": "\\ud800ob", "password": "secret-1"}'),
    ):
        response = post(server, path, body)
        assert response.status_code == 422, (path, response.text)
        assert isinstance(response.json()["detail"], list | str)
    bad_bytes = httpx.post(
        server.base + "/api/login", content=b'{"name": "\xff\xfe", "password": "x"}',
        headers={"content-type": "application/json"}, timeout=30,
    )  # fmt: skip
    assert bad_bytes.status_code in (400, 422), bad_bytes.text

    async def socket() -> None:
        client = Client(server.base)
        await client.connect()
        for text in (
            '{"type": "ping", "id": "\\ud800"}',
            '{"type": "watch", "table": 1, "\\udc00": 1}',
            '{"type": "act", "table": 1, "action": "\\ud83d", "turn": 1}',
        ):
            await client.send(text)
            reply = await client.recv()
            assert reply["type"] == "error" and reply["code"] == "bad_message", reply
            assert "not valid Unicode" in reply["message"]
        await client.send({"type": "ping", "id": "still-here"})
        assert (await client.recv())["type"] == "pong"
        await client.close()

    asyncio.run(socket())
