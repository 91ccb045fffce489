"""The table service on a real server (issue 14): chat, chips (top-up, automatic rebuy,
leaving) with the ledger's books checked, the waiting list, a guest registering in place,
one number for a hand, and the lobby's lively tables.
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

from stud.server.storage import Database
from stud.testing.server import Client, ServerProcess, ServerSpec, hand_factory_args

ARGS = (
    "--turn-seconds", "30", "--time-bank", "30", "--pause", "0.3", "--grace", "30",
    "--bot-delay", "0.01", "0.05", "--no-default-tables", "--seed", "14",
)  # fmt: skip
START = 10_000  # the room's starting balance
HTTP = SimpleNamespace(
    get=functools.partial(httpx.get, timeout=60), post=functools.partial(httpx.post, timeout=60)
)
"""Generous timeouts: registering hashes a password (Argon2), slow on a loaded machine."""


SERVER = ServerSpec(
    ARGS + hand_factory_args("tests.test_table_double:start_double"), clean_log=True
)


def make_table(server: ServerProcess, client: Client, **spec: Any) -> int:
    body = {"name": "svc", "game": "stud", "ante": 1, "bring_in": 2, "small_bet": 4,
            "big_bet": 8, "seats": 6, "bots": 0, "min_buy_in": 40, "max_buy_in": 400,
            "bot_kind": "station", **spec}  # fmt: skip
    response = HTTP.post(
        server.base + "/api/tables", json=body, cookies={"stud_session": client.cookie or ""}
    )
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def me(server: ServerProcess, client: Client) -> dict[str, Any]:
    response = HTTP.get(server.base + "/api/me", cookies={"stud_session": client.cookie or ""})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


async def reply(client: Client, ref: str) -> dict[str, Any]:
    return await client.until(lambda m: m.get("id") == ref, timeout=30)


async def seen(
    client: Client, predicate: Callable[[dict[str, Any]], bool], timeout: float = 150
) -> dict[str, Any]:
    """The first message so far that satisfies ``predicate``, else the next one to come.

    Generous: six bots finish their hand before a newcomer is dealt in, and on a loaded
    2-core machine that took over a minute.
    """
    for message in client.messages:
        if predicate(message):
            return message
    return await client.until(predicate, timeout=timeout)


async def play_passively(client: Client, table: int, hands: int) -> list[dict[str, Any]]:
    """Check or call whenever it is our turn until ``hands`` hands finish; their events."""
    finished: list[dict[str, Any]] = []
    acted: set[int] = set()
    while len(finished) < hands:
        message = await client.recv(timeout=60)
        if message.get("type") == "event" and message["event"]["type"] == "hand_finished":
            finished.append(message["event"])
        if message.get("type") != "state":
            continue
        state = message["state"]
        turn = state["turn"]
        if turn and turn["seat"] == state["you"] and turn["turn"] not in acted and state["legal"]:
            acted.add(turn["turn"])
            legal = {a["action"]: a["to"] for a in state["legal"]}
            action = next(a for a in ("check", "call", "bring-in", "complete") if a in legal)
            await client.send(
                {"type": "act", "table": table, "action": action, "to": legal[action],
                 "turn": turn["turn"]}
            )  # fmt: skip
    return finished


def test_chat_is_text_rate_limited_and_length_capped(server: ServerProcess) -> None:
    alice, bob, anonymous = (
        Client.guest(server.base),
        Client.guest(server.base),
        Client(server.base),
    )
    table = make_table(server, alice, name="chat")
    payload = '<img src=x onerror="alert(1)"><script>alert("hi")</script> & “quotes”'

    async def run() -> None:
        for client in (alice, bob, anonymous):
            await client.connect()
            await client.send({"type": "watch", "table": table})
        await alice.send({"type": "chat", "table": table, "text": payload, "id": "c1"})
        assert (await reply(alice, "c1"))["type"] == "ok"
        seen = await bob.until(lambda m: m.get("event", {}).get("type") == "chat")
        event = seen["event"]
        assert event["text"] == payload  # kept and sent as text, as written
        assert event["name"] == alice.account["name"]  # type: ignore[index]
        assert event["account_id"] == alice.account["id"] and event["seat"] is None  # type: ignore[index]
        # Whitespace is tidied, control characters dropped.
        await alice.send({"type": "chat", "table": table, "text": "  gl\u0007  hf \n", "id": "c2"})
        await reply(alice, "c2")
        tidy = await bob.until(lambda m: m.get("event", {}).get("type") == "chat")
        assert tidy["event"]["text"] == "gl hf"
        refusals = {
            "long": ("x" * 201, "chat_too_long"),
            "empty": (" \t ", "chat_empty"),
        }
        for ref, (text, code) in refusals.items():
            await bob.send({"type": "chat", "table": table, "text": text, "id": ref})
            answer = await reply(bob, ref)
            assert (answer["type"], answer["code"]) == ("error", code), answer
        # A lone surrogate is not Unicode text.
        await bob.send(
            '{"type": "chat", "table": TABLE, "text": "\\ud800", "id": "s"}'.replace(
                "TABLE", str(table)
            )
        )
        answer = await bob.until(lambda m: m.get("type") == "error", timeout=30)
        assert answer["code"] == "bad_message" and "Unicode" in answer["message"], answer
        # A mistyped field is named with what it must be.
        await bob.send({"type": "chat", "table": table, "text": 7, "id": "t"})
        answer = await reply(bob, "t")
        assert answer["code"] == "bad_message" and "at most 1000 characters" in answer["message"]
        await anonymous.send({"type": "chat", "table": table, "text": "hi", "id": "a"})
        assert (await reply(anonymous, "a"))["code"] == "login_required"
        # Five lines at once, then one every two seconds: the sixth in a row is refused.
        codes = []
        for i in range(6):
            await bob.send({"type": "chat", "table": table, "text": f"line {i}", "id": f"r{i}"})
            codes.append((await reply(bob, f"r{i}")).get("code"))
        assert codes == [None] * 5 + ["chat_rate_limited"], codes
        for client in (alice, bob, anonymous):
            await client.close()

    asyncio.run(run())
    # Chat lines are numbered events: a client catching up gets them again.
    chats = [m for m in bob.messages if m.get("event", {}).get("type") == "chat"]
    assert len(chats) == 2 + 5 + 1 or len(chats) >= 7
    assert all(isinstance(m["n"], int) for m in chats)


def test_chips_are_conserved_through_buy_in_top_up_rebuy_and_leaving(
    server: ServerProcess,
) -> None:
    url = server.database_url
    alice = Client.guest(server.base)
    table = make_table(server, alice, name="chips", bots=2, max_buy_in=200)
    assert me(server, alice)["balance"] == START

    async def run() -> None:
        await alice.connect()
        await alice.send(
            {"type": "sit", "table": table, "buy_in": 60, "auto_rebuy": True, "id": "s"}
        )
        assert (await reply(alice, "s"))["type"] == "ok"
        account = me(server, alice)
        assert (account["balance"], account["at_tables"]) == (START - 60, 60)
        # Too many chips for the table's maximum, or a top-up of nothing: refused.
        for ref, amount in (("big", 200), ("zero", 0)):
            await alice.send({"type": "top_up", "table": table, "amount": amount, "id": ref})
            assert (await reply(alice, ref))["code"] == "bad_top_up"
        await alice.send({"type": "top_up", "table": table, "amount": 40, "id": "t"})
        assert (await reply(alice, "t"))["type"] == "ok"
        added = await seen(alice, lambda m: m.get("event", {}).get("type") == "topped_up")
        assert added["event"]["amount"] == 40
        account = me(server, alice)
        assert (account["balance"], account["at_tables"]) == (START - 100, 100)
        state = await seen(
            alice, lambda m: m.get("type") == "state" and m["state"]["you"] is not None
        )
        assert state["state"]["mine"]["auto_rebuy"] is True
        await play_passively(alice, table, 3)
        await alice.send({"type": "leave", "table": table, "id": "l"})
        await reply(alice, "l")
        await alice.close()

    asyncio.run(run())
    account = me(server, alice)
    assert account["at_tables"] == 0
    hands = HTTP.get(
        server.base + "/api/me/hands", cookies={"stud_session": alice.cookie or ""}
    ).json()
    assert len(hands) >= 2 and all("net" in h for h in hands)
    # Whatever was bought, topped up, rebought and cashed out: the balance is the start plus
    # what the hands won or lost, and the ledger's books still sum to zero.
    assert account["balance"] == START + sum(h["net"] for h in hands)
    db = Database(url)
    try:
        assert db.read_sync(db.store.ledger_total) == 0
    finally:
        db.close()


def test_showdown_and_bring_in_choices_are_kept_and_reach_the_table(
    server: ServerProcess,
) -> None:
    """The muck choice is kept with the account (GET/PUT /api/me/preferences) and told to a
    table at the sit or later; "sit out next bring-in" is the table's; both only in the
    player's own state."""
    alice, bob = Client.guest(server.base), Client.guest(server.base)
    url = server.base + "/api/me/preferences"

    def prefs(client: Client | None, body: Any = None) -> httpx.Response:
        cookies = {"stud_session": client.cookie or ""} if client else {}
        if body is None:
            return httpx.get(url, cookies=cookies, timeout=60)
        return httpx.put(url, json=body, cookies=cookies, timeout=60)

    assert prefs(alice).json() == {"muck_losing_hands": True}  # the room's default
    assert prefs(alice, {"muck_losing_hands": False}).json() == {"muck_losing_hands": False}
    for bad in ({"muck_losing_hands": "no"}, {"muck_losing_hands": None}, {}):
        assert prefs(alice, bad).status_code == 422, bad
    assert prefs(None, {"muck_losing_hands": True}).status_code == 401
    assert prefs(alice).json() == {"muck_losing_hands": False}  # refusals changed nothing
    assert prefs(bob).json() == {"muck_losing_hands": True}  # another account's untouched
    table = make_table(server, alice, name="choices", bots=1)

    async def mine(client: Client, key: str, value: bool) -> None:
        await seen(
            client,
            lambda m: m.get("type") == "state" and m["table"] == table
            and (m["state"].get("mine") or {}).get(key) is value,
            timeout=60,
        )  # fmt: skip

    async def run() -> None:
        await alice.connect()
        await bob.connect()
        await bob.send({"type": "watch", "table": table})
        sit = {"type": "sit", "table": table, "buy_in": 60, "muck_losing_hands": False}
        await alice.send({**sit, "id": "s"})
        assert (await reply(alice, "s"))["type"] == "ok"
        await mine(alice, "muck_losing_hands", False)
        for kind, key, on in (
            ("muck_losing_hands", "muck_losing_hands", True),
            ("sit_out_bring_in", "sit_out_after_bring_in", True),
        ):
            await alice.send({"type": kind, "table": table, "on": on, "id": kind})
            assert (await reply(alice, kind))["type"] == "ok"
            await mine(alice, key, on)
        await bob.send({"type": "muck_losing_hands", "table": table, "on": False, "id": "b"})
        assert (await reply(bob, "b"))["type"] == "error"  # not seated there
        assert all(m["state"].get("mine") is None for m in bob.messages if m.get("type") == "state")
        await alice.close()
        await bob.close()

    asyncio.run(run())


def test_a_full_table_has_a_waiting_list_and_a_bot_makes_room(
    server: ServerProcess,
) -> None:
    alice = Client.guest(server.base)
    table = make_table(server, alice, name="full", seats=3, bots=3)

    async def run() -> None:
        await alice.connect()
        await alice.send({"type": "watch", "table": table})
        await alice.until(lambda m: m.get("type") == "state" and all(m["state"]["seats"]))
        await alice.send({"type": "sit", "table": table, "buy_in": 100, "id": "s"})
        assert (await reply(alice, "s"))["code"] == "table_full"
        await alice.send({"type": "wait", "table": table, "buy_in": 90000, "id": "w0"})
        assert (await reply(alice, "w0"))["code"] == "bad_buy_in"
        await alice.send({"type": "wait", "table": table, "buy_in": 100, "id": "w"})
        ok = await reply(alice, "w")
        assert (ok["type"], ok["place"]) == ("ok", 1)
        listed = await seen(
            alice, lambda m: m.get("type") == "state" and bool(m["state"]["waiting"])
        )
        assert listed["state"]["waiting"] == [
            {"id": alice.account["id"], "name": alice.account["name"]}  # type: ignore[index]
        ]
        lobby = HTTP.get(f"{server.base}/api/tables/{table}").json()
        assert lobby["waiting"] == 1 and lobby["target_players"] == 3
        # After the hand a bot leaves and the seat is hers, with the buy-in she chose.
        seated = await alice.until(
            lambda m: m.get("type") == "state" and m["state"]["you"] is not None, timeout=90
        )
        state = seated["state"]
        assert state["seats"][state["you"]]["stack"] == 100 and state["waiting"] == []
        await alice.send({"type": "leave", "table": table, "id": "l"})
        await reply(alice, "l")
        await alice.close()

    asyncio.run(run())
    assert me(server, alice)["balance"] == START + sum(
        h["net"]
        for h in HTTP.get(
            server.base + "/api/me/hands", cookies={"stud_session": alice.cookie or ""}
        ).json()
    )


def test_a_guest_registers_in_place_keeping_chips_seat_and_hands(
    server: ServerProcess,
) -> None:
    guest = Client.guest(server.base)
    cookies = {"stud_session": guest.cookie or ""}
    table = make_table(server, guest, name="upgrade", bots=1)

    async def run() -> list[dict[str, Any]]:
        await guest.connect()
        await guest.send({"type": "sit", "table": table, "buy_in": 100, "id": "s"})
        await reply(guest, "s")
        finished = await play_passively(guest, table, 1)
        before = me(server, guest)
        response = HTTP.post(
            server.base + "/api/register-guest",
            json={"name": "upgraded", "password": "secret-pass"},
            cookies=cookies,
        )
        assert response.status_code == 200, response.text
        after = response.json()
        assert (after["id"], after["kind"], after["name"]) == (before["id"], "user", "upgraded")
        assert (after["balance"], after["at_tables"]) == (before["balance"], before["at_tables"])
        renamed = await guest.until(lambda m: m.get("event", {}).get("type") == "renamed")
        assert renamed["event"]["name"] == "upgraded"
        await guest.close()
        return finished

    finished = asyncio.run(run())
    # Registered: the same account logs in by name, with its hands.
    login = HTTP.post(
        server.base + "/api/login", json={"name": "upgraded", "password": "secret-pass"}
    )
    assert login.status_code == 200 and login.json()["id"] == guest.account["id"]  # type: ignore[index]
    hands = HTTP.get(server.base + "/api/me/hands", cookies=login.cookies).json()
    assert finished[0]["hand_id"] in {h["id"] for h in hands}
    # The guest's token ended with the upgrade; only a guest registers in place; a taken
    # name is refused.
    stale = HTTP.post(
        server.base + "/api/register-guest",
        json={"name": "another", "password": "secret-pass"},
        cookies=cookies,
    )
    assert stale.status_code == 401
    again = HTTP.post(
        server.base + "/api/register-guest",
        json={"name": "another", "password": "secret-pass"},
        cookies=login.cookies,
    )
    assert again.status_code == 409
    other = Client.guest(server.base)
    taken = HTTP.post(
        server.base + "/api/register-guest",
        json={"name": "upgraded", "password": "secret-pass"},
        cookies={"stud_session": other.cookie or ""},
    )
    assert taken.status_code == 409 and "taken" in taken.text
    assert me(server, other)["kind"] == "guest"


def test_one_number_for_a_hand_and_bots_keep_the_table_lively(
    server: ServerProcess,
) -> None:
    alice = Client.guest(server.base)
    table = make_table(server, alice, name="lively", seats=8, bots=6)

    account = alice.account
    assert account is not None

    async def run() -> None:
        await alice.connect()
        await alice.send({"type": "sit", "table": table, "buy_in": 100, "id": "s"})
        await reply(alice, "s")
        started = await seen(
            alice,
            lambda m: (
                m.get("event", {}).get("type") == "new_hand"
                and account["id"] in {p["account_id"] for p in m["event"]["players"]}
            ),
        )
        # Sitting down sent no bot away: seven players, and the hand goes by its id.
        assert len(started["event"]["players"]) == 7
        hand_id = started["event"]["hand_id"]
        state = await alice.until(lambda m: m.get("type") == "state" and m["state"]["hand"])
        assert state["state"]["hand_id"] == hand_id
        finished = await play_passively(alice, table, 1)
        assert finished[0]["hand_id"] == hand_id
        record = HTTP.get(f"{server.base}/api/hands/{hand_id}").json()
        assert record["table_id"] == table
        await alice.close()

    asyncio.run(run())
    assert json.dumps(alice.messages)  # every message was JSON


def test_bot_think_times_are_varied_and_easy_spots_are_quicker() -> None:
    import random
    import statistics

    from stud.server.actors.thinking import think_seconds
    from stud.table import Legal

    rng = random.Random(1)
    free = [Legal("check"), Legal("bet", 4)]
    facing = [Legal("fold"), Legal("call", 8), Legal("raise", 16)]
    easy = [think_seconds(rng, {"street": 4}, free, (0.7, 7.0)) for _ in range(400)]
    hard = [think_seconds(rng, {"street": 7}, facing, (0.7, 7.0)) for _ in range(400)]
    assert statistics.median(easy) < statistics.median(hard)
    assert len({round(t, 2) for t in easy}) > 100  # varied, not one fixed delay
    assert min(easy + hard) >= 0.7 and max(easy + hard) <= 7.0
    quick = [think_seconds(rng, {"street": 7}, facing, (0.01, 0.05)) for _ in range(50)]
    assert max(quick) <= 0.05


def test_a_chat_line_is_tidied_text() -> None:
    from stud.server.actors.chat import MAX_CHARS, clean_text
    from stud.table import TableError

    assert clean_text("  gl\u0007  hf \n") == "gl hf"
    assert clean_text("a\nb\tc") == "a b c"  # line breaks and tabs become spaces
    assert clean_text("<script>x</script> &amp;") == "<script>x</script> &amp;"  # text, kept
    assert clean_text("zero\u200bwidth") == "zerowidth"  # format characters dropped
    assert clean_text("é" * MAX_CHARS) == "é" * MAX_CHARS
    for bad, code in (("\u0007\u0008", "chat_empty"), ("x" * (MAX_CHARS + 1), "chat_too_long")):
        with pytest.raises(TableError) as refused:
            clean_text(bad)
        assert refused.value.code == code
