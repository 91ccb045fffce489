"""Tournaments in a real room: a Sit & Go played to the end over the websocket, and refusals.

Two people register over REST, ask for bots to fill the Sit & Go, and play it out
over the websocket with a spectator watching; nobody ever sees a down card that is
not theirs, the prizes land in the winners' balances, the ledger still sums to zero
and the hands download with the tournament header and replay cleanly. Every
refusal (twice, too poor, too late, a cash message at a tournament table, acting at
a table that is not yours) has a clear code and changes nothing.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import Connection, func, select

from stud.cli import main as cli_main
from stud.server.storage import Database, tourneys
from stud.server.storage import schema as s
from stud.testing.server import (
    Client,
    ServerProcess,
    ServerSpec,
    check_no_foreign_down_cards,
    hand_factory_args,
)
from stud.testing.wait import until

ARGS = (
    "--turn-seconds", "30", "--time-bank", "30", "--pause", "0.05",
    "--bot-delay", "0.002", "0.01", "--bots", "random", "--no-default-tables",
    "--no-default-tournaments", "--seed", "7",
)  # fmt: skip
START_BALANCE = 10_000


SERVER = ServerSpec(
    ARGS + hand_factory_args("tests.test_table_double:start_double"), clean_log=True
)


def cookies(client: Client) -> dict[str, str]:
    return {"stud_session": client.cookie or ""}


def balance(server: ServerProcess, client: Client) -> int:
    response = httpx.get(server.base + "/api/me", cookies=cookies(client), timeout=10)
    return int(response.json()["balance"])


def open_sng(server: ServerProcess, client: Client, **extra: Any) -> int:
    body = {"game": "razz", "seats": 4, "buy_in": 100, "fee": 10, "starting_chips": 300,
            "level_seconds": 20, **extra}  # fmt: skip
    response = httpx.post(
        server.base + "/api/tournaments", json=body, cookies=cookies(client), timeout=10
    )
    assert response.status_code == 201, response.text
    summary = response.json()
    assert summary["state"] == "registering" and summary["entrants"] == 0
    return int(summary["id"])


def call(server: ServerProcess, method: str, path: str, client: Client | None) -> httpx.Response:
    jar = cookies(client) if client is not None else {}
    return httpx.request(method, server.base + path, cookies=jar, timeout=30)


def ledger(db: Database) -> tuple[int, int]:
    """(rows, total) of the ledger: a refusal adds no row; every step keeps the total 0."""

    def read(conn: Connection) -> tuple[int, int]:
        rows = int(conn.execute(select(func.count()).select_from(s.ledger)).scalar_one())
        return rows, db.store.ledger_total(conn)

    return db.read_sync(read)


async def play_out(client: Client, tournament: int, rng: random.Random) -> None:
    """Watch the tournament, sit where told, bet hard, until the tournament is finished."""
    await client.send({"type": "watch_tournament", "tournament": tournament})
    acted: set[int] = set()
    table: str | None = None
    while True:
        message = await client.recv(timeout=120)
        if message["type"] == "tournament_seat":
            assert message["tournament"] == tournament
            table = message["table"]
            await client.send({"type": "watch", "table": table})
        elif message["type"] == "tournament" and message["view"]["state"] == "finished":
            return
        elif message["type"] == "state" and message["table"] == table:
            state = message["state"]
            turn = state["turn"]
            mine = turn and state["you"] is not None and turn["seat"] == state["you"]
            if mine and state["legal"] and turn["turn"] not in acted:
                acted.add(turn["turn"])
                legal = state["legal"]
                strong = [a for a in legal if a["action"] in ("raise", "bet", "complete")]
                passive = [a for a in legal if a["action"] in ("call", "check", "bring-in")]
                choice = (strong or passive or legal)[0] if rng.random() < 0.8 else legal[-1]
                if choice["action"] == "fold" and passive:
                    choice = passive[0]
                await client.send({"type": "act", "table": table, "action": choice["action"],
                                   "to": choice["to"], "turn": turn["turn"]})  # fmt: skip


async def spectate(client: Client, tournament: int) -> None:
    """Follow the tournament's page; watch its table once it runs (there is none before)."""
    await client.send({"type": "watch_tournament", "tournament": tournament})
    watching = False
    while True:
        message = await client.recv(timeout=120)
        if message["type"] != "tournament":
            continue
        view = message["view"]
        if view["tables"] and not watching:
            watching = True
            await client.send(
                {"type": "watch", "table": f"t{tournament}.{view['tables'][0]['id']}"}
            )
        if view["state"] == "finished":
            return


def test_sit_and_go_played_to_the_end(room: tuple[ServerProcess, Database], tmp_path: Path) -> None:
    server, db = room
    alice, bob, watcher = (Client.guest(server.base) for _ in range(3))
    rows_before, total_before = ledger(db)
    tournament = open_sng(server, alice)
    for client in (alice, bob):
        response = call(server, "POST", f"/api/tournaments/{tournament}/register", client)
        assert response.status_code == 200, response.text
        assert response.json()["me"] == {"registered": True, "table": None}
        assert balance(server, client) == START_BALANCE - 110
    assert ledger(db)[1] == total_before == 0

    async def run() -> None:
        for client in (alice, bob, watcher):
            await client.connect()
        players = [
            asyncio.create_task(play_out(c, tournament, random.Random(k)))
            for k, c in enumerate((alice, bob))
        ]
        spectator = asyncio.create_task(spectate(watcher, tournament))
        # Both players and the spectator watch the tournament before it starts.
        await until(
            lambda: all(
                any(m["type"] == "tournament" for m in c.messages) for c in (alice, bob, watcher)
            ),
            "each watches the tournament",
        )
        filled = await asyncio.to_thread(
            call, server, "POST", f"/api/tournaments/{tournament}/fill", alice
        )
        assert filled.status_code == 200, filled.text
        assert filled.json()["state"] == "running"
        await asyncio.wait_for(asyncio.gather(*players, spectator), 240)
        for client in (alice, bob, watcher):
            await client.close()

    asyncio.run(run())
    view = call(server, "GET", f"/api/tournaments/{tournament}", alice).json()
    assert view["state"] == "finished"
    places = sorted(e["place"] for e in view["entrants"])
    assert places == [1, 2, 3, 4]
    prizes = {e["id"]: e["prize"] or 0 for e in view["entrants"]}
    assert sorted(prizes.values()) == [0, 0, 140, 260]  # 4 entrants: 65/35 of 400
    for client in (alice, bob):
        assert client.account is not None
        assert balance(server, client) == START_BALANCE - 110 + prizes[client.account["id"]]
    # Nobody saw a down card that was not theirs: the spectator none at all.
    for client in (alice, bob):
        seats = {m["state"]["you"] for m in client.messages if m["type"] == "state"} - {None}
        assert len(seats) == 1  # a Sit & Go has no moves: one seat until out
        check_no_foreign_down_cards(client, seats.pop())
    assert check_no_foreign_down_cards(watcher, None) > 0
    # The books: still zero in all, and the prize pool is empty (every prize paid).
    rows_after, total_after = ledger(db)
    assert total_after == 0 and rows_after > rows_before
    assert db.read_sync(lambda c: tourneys.pool(db.store, c, tournament)) == 0
    # The hands: stored, downloadable with the tournament header, and they replay.
    hands = call(server, "GET", "/api/me/hands", alice).json()
    assert hands, "alice's hands are listed"
    stars = call(server, "GET", f"/api/hands/{hands[-1]['id']}/pokerstars", alice)
    assert stars.status_code == 200
    assert f"Tournament #{tournament}, 100+10 Razz Limit - Level I" in stars.text
    phh = call(server, "GET", f"/api/hands/{hands[0]['id']}/phh", alice)
    assert "_tournament" in phh.text and "_placings" in phh.text  # the last hand placed someone
    (tmp_path / "hand.txt").write_text(stars.text)
    (tmp_path / "hand.phh").write_text(phh.text)
    assert cli_main(["replay", str(tmp_path / "hand.txt"), str(tmp_path / "hand.phh")]) == 0


def test_refusals_change_nothing(room: tuple[ServerProcess, Database]) -> None:
    server, db = room
    alice, bob, carol = (Client.guest(server.base) for _ in range(3))
    tournament = open_sng(server, alice, seats=2)
    other = open_sng(server, carol, seats=3)
    path = f"/api/tournaments/{tournament}"

    def refused(method: str, where: str, client: Client | None, code: str, status: int) -> None:
        before = (ledger(db), call(server, "GET", path, None).json()["entrants"])
        balances = [balance(server, c) for c in (alice, bob, carol)]
        response = call(server, method, where, client)
        assert response.status_code == status, response.text
        assert response.json()["code"] == code, response.text
        assert response.json()["detail"]
        assert (ledger(db), call(server, "GET", path, None).json()["entrants"]) == before
        assert [balance(server, c) for c in (alice, bob, carol)] == balances

    refused("POST", f"{path}/register", None, "login_required", 401)
    refused("POST", "/api/tournaments/999999/register", alice, "no_tournament", 404)
    refused("DELETE", f"{path}/register", alice, "not_registered", 409)
    refused("POST", f"{path}/fill", alice, "not_registered", 409)
    assert call(server, "POST", f"{path}/register", alice).status_code == 200
    refused("POST", f"{path}/register", alice, "already_registered", 409)
    # Too poor: a buy-in over the balance.
    rich = open_sng(server, bob, buy_in=START_BALANCE * 2)
    path_rich = f"/api/tournaments/{rich}/register"
    refused("POST", path_rich, carol, "insufficient_balance", 409)
    assert call(server, "GET", f"/api/tournaments/{rich}", None).json()["entrants"] == []
    # Bad settings are refused with the setting's words.
    response = httpx.post(
        server.base + "/api/tournaments", cookies=cookies(alice), timeout=10,
        json={"game": "holdem", "seats": 4, "buy_in": 1, "fee": 0},
    )  # fmt: skip
    assert response.status_code == 422 and response.json()["code"] == "bad_settings"
    # Bob's registration fills the two seats: it starts, and nobody else gets in or out.
    assert call(server, "POST", f"{path}/register", bob).status_code == 200
    assert call(server, "GET", path, None).json()["state"] == "running"
    refused("POST", f"{path}/register", carol, "registration_closed", 409)
    refused("DELETE", f"{path}/register", alice, "already_started", 409)
    refused("POST", f"{path}/fill", alice, "no_bot_fill", 409)
    assert call(server, "POST", f"/api/tournaments/{other}/register", carol).status_code == 200

    async def reply_to(client: Client, message: dict[str, Any]) -> dict[str, Any]:
        await client.send(message)
        ref = message["id"]
        return await client.until(lambda m: m.get("id") == ref)

    async def messages() -> None:
        for client in (alice, carol):
            await client.connect()
        key = f"t{tournament}.1"
        cash_only: tuple[tuple[str, dict[str, Any]], ...] = (
            ("sit", {"buy_in": 100}), ("leave", {}), ("top_up", {"amount": 5}),
            ("wait", {"buy_in": 100}), ("unwait", {}), ("auto_rebuy", {"on": True}),
        )  # fmt: skip
        for kind, extra in cash_only:
            reply = await reply_to(alice, {"type": kind, "table": key, "id": kind, **extra})
            assert reply["type"] == "error" and reply["code"] == "tournament_table", reply
        # Carol plays in another tournament: she may watch this table, never act at it.
        await carol.send({"type": "watch", "table": key})
        state = await carol.until(lambda m: m["type"] == "state")
        assert state["table"] == key and state["state"]["tournament"]["id"] == tournament
        players_only: tuple[tuple[str, dict[str, Any]], ...] = (
            ("act", {"action": "fold", "turn": 1}), ("sit_out", {}), ("sit_in", {}),
            ("seed", {"commitment": "ab", "seed": "cd"}),
        )  # fmt: skip
        for kind, extra in players_only:
            reply = await reply_to(carol, {"type": kind, "table": key, "id": kind, **extra})
            assert reply["type"] == "error" and reply["code"] == "not_seated", reply
        for bad in ("t1", "t.1", "7.1", "t1.1.1", "x1.1"):
            reply = await reply_to(carol, {"type": "watch", "table": bad, "id": bad})
            assert reply["type"] == "error" and reply["code"] == "bad_message", reply
        await carol.send({"type": "watch", "table": f"t{tournament}.9", "id": "nine"})
        reply = await carol.until(lambda m: m.get("id") == "nine")
        assert reply["code"] == "no_table"
        await carol.send({"type": "watch_tournament", "tournament": 999999, "id": "none"})
        reply = await carol.until(lambda m: m.get("id") == "none")
        assert reply["code"] == "no_tournament"
        for client in (alice, carol):
            await client.close()

    before = ledger(db)
    asyncio.run(messages())
    entrants = call(server, "GET", f"/api/tournaments/{other}", None).json()["entrants"]
    assert [e["name"] for e in entrants] == [carol.account["name"]]  # type: ignore[index]
    assert ledger(db)[1] == before[1] == 0
