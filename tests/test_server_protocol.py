"""Bad input sent to a real server: each gets an error reply and changes nothing."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets

from stud.testing.server import Client, ServerProcess, ServerSpec, hand_factory_args
from stud.testing.wait import wait_until

ARGS = (
    "--turn-seconds", "20", "--time-bank", "5", "--pause", "0.1",
    "--bot-delay", "0.01", "0.03", "--no-default-tables", "--seed", "3",
)  # fmt: skip


def factory_args() -> tuple[str, ...]:
    """The engine when it imports; else the test double (these checks are the server's own)."""
    return hand_factory_args("tests.test_table_double:start_double")


SERVER = ServerSpec(ARGS + factory_args(), fresh=True)


def new_table(server: ServerProcess, client: Client) -> int:
    response = httpx.post(
        server.base + "/api/tables",
        json={"name": "bad", "game": "stud", "ante": 1, "bring_in": 2, "small_bet": 4,
              "big_bet": 8, "seats": 4, "bots": 2},
        cookies={"stud_session": client.cookie or ""},
        timeout=10,
    )  # fmt: skip
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def my_turn(message: dict[str, Any]) -> bool:
    if message["type"] != "state":
        return False
    state = message["state"]
    turn = state["turn"]
    return bool(
        turn and state["you"] is not None and turn["seat"] == state["you"] and state["legal"]
    )


async def quiet_errors(client: Client, sends: list[str | dict[str, Any]]) -> list[dict[str, Any]]:
    """Send each bad message; collect the replies up to a pong; nothing else may arrive."""
    for message in sends:
        await client.send(message)
    await client.send({"type": "ping", "id": "end"})
    replies: list[dict[str, Any]] = []
    while True:
        reply = await client.recv()
        if reply.get("id") == "end":
            return replies
        replies.append(reply)


def test_bad_input_gets_an_error_and_changes_nothing(server: ServerProcess) -> None:
    me = Client.guest(server.base)
    table = new_table(server, me)

    async def run() -> None:
        await me.connect()
        await me.send({"type": "sit", "table": table, "buy_in": 100, "id": "s"})
        assert (await me.until(lambda m: m.get("id") == "s"))["type"] == "ok"
        state = (await me.until(my_turn, timeout=30))["state"]
        turn = state["turn"]["turn"]
        legal = state["legal"]
        big = {"type": "ping", "pad": "x" * 10_000}
        replies = await quiet_errors(
            me,
            [
                "{not json",
                "[1, 2]",
                {"type": "dance", "table": table},
                {"type": "act", "table": table, "action": "raise", "to": 10**6, "turn": turn},
                {"type": "act", "table": table, "action": "call", "to": -5, "turn": turn},
                {"type": "act", "table": table, "action": "shove", "turn": turn},
                {"type": "act", "table": table, "action": legal[0]["action"], "to": legal[0]["to"],
                 "turn": turn - 1},  # a replay of an earlier turn
                {"type": "act", "table": 999, "action": "fold", "turn": turn},
                {"type": "sit", "table": table, "buy_in": 100},
                {"type": "sit", "table": table, "buy_in": "lots"},
                json.dumps(big),
            ],
        )  # fmt: skip
        codes = [r["code"] for r in replies if r["type"] == "error"]
        assert codes == [
            "bad_json", "bad_message", "unknown_type", "illegal_action", "illegal_action",
            "illegal_action", "stale_turn", "no_table", "already_seated", "bad_message",
            "too_large",
        ], replies  # fmt: skip
        assert all(r["type"] == "error" for r in replies)  # no event, no state: nothing changed
        # The turn is still ours, with the same id: act now, legally.
        choice = next(a for a in legal if a["action"] != "fold")
        act = {"type": "act", "table": table, "action": choice["action"], "to": choice["to"],
               "turn": turn}  # fmt: skip
        await me.send(act)
        await me.until(lambda m: m["type"] == "event" and m["event"].get("seat") == state["you"])
        # The same action again is a replay: refused.
        await me.send({**act, "id": "again"})
        error = await me.until(lambda m: m.get("id") == "again")
        assert error["type"] == "error" and error["code"] in ("stale_turn", "not_your_turn")
        await me.close()

    asyncio.run(run())
    assert httpx.get(server.base + "/api/health", timeout=5).json()["ok"]


def test_a_flood_is_slowed_then_disconnected_and_the_table_goes_on(server: ServerProcess) -> None:
    flooder = Client.guest(server.base)
    table = new_table(server, flooder)

    async def run() -> list[dict[str, Any]]:
        await flooder.connect()
        await flooder.send({"type": "watch", "table": table})
        closed = False
        try:
            for i in range(400):
                await flooder.send({"type": "ping", "id": i})
        except Exception:
            closed = True
        try:
            while True:
                await flooder.recv(timeout=20)
        except Exception:
            closed = True
        assert closed
        return flooder.messages

    messages = asyncio.run(run())
    codes = [m["code"] for m in messages if m["type"] == "error"]
    assert "rate_limited" in codes and codes[-1] == "flood"
    pongs = [m for m in messages if m["type"] == "pong"]
    assert 0 < len(pongs) < 400
    # The room is fine and the table keeps dealing.
    before = int(httpx.get(f"{server.base}/api/tables/{table}", timeout=30).json()["hands"])

    def hands() -> int:
        return int(httpx.get(f"{server.base}/api/tables/{table}", timeout=30).json()["hands"])

    # The table's hand count grows (the bound only catches a hang).
    assert wait_until(lambda: hands() > before, "the table deals on", 120, 0.2)


def test_an_oversized_frame_closes_only_that_connection(server: ServerProcess) -> None:
    client = Client.guest(server.base)

    async def run() -> None:
        await client.connect()
        await client.send("x" * 200_000)
        with pytest.raises(websockets.ConnectionClosed):  # the server closes it (1009)
            await client.recv(timeout=120)
        other = Client.guest(server.base)
        assert (await other.connect())["type"] == "welcome"
        await other.send({"type": "ping", "id": 1})
        assert (await other.recv())["type"] == "pong"
        await other.close()

    asyncio.run(run())


def test_anonymous_clients_may_watch_but_not_act(server: ServerProcess) -> None:
    owner = Client.guest(server.base)
    table = new_table(server, owner)
    anon = Client(server.base)

    async def run() -> None:
        await anon.connect()
        await anon.send({"type": "sit", "table": table, "buy_in": 100, "id": 1})
        assert (await anon.until(lambda m: m.get("id") == 1))["code"] == "login_required"
        await anon.send({"type": "watch", "table": table})
        state = await anon.until(lambda m: m["type"] == "state")
        assert state["state"]["you"] is None
        await anon.close()

    asyncio.run(run())


def test_bad_tables_are_refused_and_a_raked_one_is_listed(server: ServerProcess) -> None:
    owner = Client.guest(server.base)
    cookies = {"stud_session": owner.cookie or ""}
    good = {"name": "r", "game": "stud", "ante": 1, "bring_in": 2, "small_bet": 4, "big_bet": 8,
            "seats": 6, "bots": 1}  # fmt: skip
    for bad in (
        {"rake_percent": 100},
        {"rake_percent": -1},
        {"rake_cap": -5},
        {"bot_kind": "shark"},
        {"bring_in": 9},  # above the small bet
        {"game": "holdem"},
    ):
        response = httpx.post(
            server.base + "/api/tables", json={**good, **bad}, cookies=cookies, timeout=10
        )
        assert response.status_code == 422, (bad, response.text)
    response = httpx.post(
        server.base + "/api/tables",
        json={**good, "rake_percent": 5, "rake_cap": 3, "bot_kind": "station"},
        cookies=cookies,
        timeout=10,
    )
    assert response.status_code == 201, response.text
    listed = {t["id"]: t for t in httpx.get(server.base + "/api/tables", timeout=10).json()}
    table = listed[response.json()["id"]]
    assert (table["rake_percent"], table["rake_cap"], table["bot_kind"]) == (5, 3, "station")
