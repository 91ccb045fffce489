"""kill -9 a real server during a multi-table tournament, at several moments, on SQLite and
PostgreSQL: it resumes where it was and the books still balance.

The room's scheduled tournament (13 bots and three people, two 8-seat tables) is
killed while registering (its start comes while the server is down), in the middle
of hands, just after a level change, and after some players are out. After each
restart: the same entrants, the prizes already paid still paid, the prize pool
holding the buy-ins less those prizes, the level clock as it stood (no time passed
while the server was down), the hands in progress void, and the ledger's total
zero. A buy-in taken by a registration that a crash kept from being stored is
refunded. Then the tournament plays on to its winner and every prize lands in its
winner's balance.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Connection, select

from stud.server.storage import Database, tourneys
from stud.server.storage import schema as s
from stud.testing import wait
from stud.testing.server import (
    Client,
    ServerProcess,
    ServerSpec,
    hand_factory_args,
)

BOTS = 13
BUY_IN, FEE = 200, 20
START_BALANCE = 10_000
ARGS = (
    "--turn-seconds", "1", "--time-bank", "0.5", "--pause", "0.05",
    "--bot-delay", "0.002", "0.01", "--bots", "random", "--no-default-tables", "--seed", "5",
    "--tournament-levels", "4", "--mtt-every", "3600", "--mtt-lead", "3600",
    "--mtt-bots", str(BOTS),
)  # fmt: skip

State = dict[str, Any]


def read_state(db: Database, tournament: int) -> State:
    """The tournament's stored snapshot, its money in the ledger, and its hands' statuses."""

    def read(conn: Connection) -> State:
        row = conn.execute(select(s.tournaments.c.snapshot).where(s.tournaments.c.id == tournament))
        data = json.loads(row.scalar_one())
        tables = select(s.room_tables.c.id).where(s.room_tables.c.tournament_id == tournament)
        hands = conn.execute(
            select(s.hands.c.id, s.hands.c.status).where(s.hands.c.table_id.in_(tables))
        ).all()
        return {
            "snapshot": data,
            "total": db.store.ledger_total(conn),
            "holdings": db.store.holdings(conn),
            "pool": tourneys.pool(db.store, conn, tournament),
            "prizes": tourneys.prizes_paid(conn, tournament),
            "paid_in": tourneys.paid_in(conn, tournament),
            "hands": {int(h.id): str(h.status) for h in hands},
        }

    return db.read_sync(read)


def busted(state: State) -> set[int]:
    return {int(b[0]) for g in state["snapshot"]["standings"]["groups"] for b in g}


def elapsed(state: State) -> float:
    """How long the tournament has run by its own clock, as its snapshot says."""
    data = state["snapshot"]
    return float(data["taken_at"]) - float(data["started_at"] or data["taken_at"])


def wait_until(
    db: Database, tournament: int, done: Callable[[State], bool], what: str, limit: float = 240
) -> State:
    last: list[State] = []

    def reached() -> State | None:
        last[:] = [read_state(db, tournament)]
        return last[0] if done(last[0]) else None

    try:
        # A light poll: the server under test needs the machine more.
        return wait.wait_until(reached, f"never {what}", limit, 0.1)
    except TimeoutError as error:
        raise TimeoutError(f"never {what}: {last[0]['snapshot']['state']}") from error


def start_now(conn: Connection, tournament: int) -> None:
    """Move a stored tournament's start to now (as if the server had been down till then)."""
    row = conn.execute(select(s.tournaments.c.snapshot).where(s.tournaments.c.id == tournament))
    data = json.loads(row.scalar_one())
    data["settings"]["start_at"] = time.time()
    tourneys.save(conn, tournament, data)


def since(moment: Callable[[State, State], bool], last: State) -> Callable[[State], bool]:
    """``moment`` reached since ``last`` (the state the server resumed from)."""
    return lambda state: moment(state, last)


def check_books(state: State) -> None:
    """The ledger sums to zero and the pool holds the buy-ins less the prizes paid."""
    assert state["total"] == 0
    assert sum(state["holdings"].values()) == 0
    entrants = state["snapshot"]["entrants"]
    assert state["pool"] == BUY_IN * len(entrants) - sum(state["prizes"].values())
    assert set(state["paid_in"]) == {int(e["id"]) for e in entrants}


def check_resumed(before: State, after: State, wall: float) -> None:
    """After a restart: nothing of ``before`` is lost, and its clock stood still."""
    check_books(after)
    b, a = before["snapshot"], after["snapshot"]
    assert [e["id"] for e in a["entrants"]] == [e["id"] for e in b["entrants"]]
    for account, prize in before["prizes"].items():
        assert after["prizes"][account] == prize
    assert busted(before) <= busted(after)
    assert a["level_shown"] >= b["level_shown"]
    if b["state"] == "running":
        # The clock went on from where it stood: at most the time the new server ran.
        assert elapsed(before) <= elapsed(after) <= elapsed(before) + wall
    for hand_id, status in before["hands"].items():
        if status == "running":
            assert after["hands"][hand_id] == "void"
        else:
            assert after["hands"][hand_id] == status


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_kill_9_during_a_tournament_loses_nothing(
    backend: str,
    tmp_path: Path,
    database_factory: Callable[[str], str],
    server_factory: Callable[..., ServerProcess],
) -> None:
    spec = ServerSpec(ARGS + hand_factory_args("tests.test_table_double:start_double"))
    url = database_factory(backend)
    db = Database(url)
    try:
        play_and_crash(db, lambda: server_factory(spec, url, tmp_path))
    finally:
        db.close()


def play_and_crash(db: Database, server: Callable[[], ServerProcess]) -> None:
    """Register, kill at each moment and restart, then play to the end (see the docstring)."""
    room = server()
    listing = httpx.get(room.base + "/api/tournaments", timeout=10).json()["tournaments"]
    tournament = next(int(t["id"]) for t in listing if t["kind"] == "mtt")
    people = [Client.guest(room.base) for _ in range(3)]
    for person in people:
        response = httpx.post(
            f"{room.base}/api/tournaments/{tournament}/register",
            cookies={"stud_session": person.cookie or ""}, timeout=10,
        )  # fmt: skip
        assert response.status_code == 200, response.text
    # 1. Killed while registering.
    wait_until(db, tournament, lambda st: len(st["snapshot"]["entrants"]) == BOTS + 3, "registered")
    room.kill()
    before = read_state(db, tournament)
    assert before["snapshot"]["state"] == "registering"
    # Its start time comes while the server is down: it starts as soon as it is back.
    db.write_sync(partial(start_now, tournament=tournament))
    # A buy-in whose registration a crash kept from being stored: refunded at the restart.
    store = db.store

    def lost_registration(conn: Connection) -> int:
        account = store.create_account(conn, "lost-one", "user")
        store.grant(conn, account.id, START_BALANCE)
        tourneys.pay_buy_in(store, conn, account.id, tournament, BUY_IN, FEE)
        return account.id

    lost_id = db.write_sync(lost_registration)
    moments: list[tuple[str, Callable[[State, State], bool]]] = [
        ("in the middle of hands", lambda st, _: "running" in st["hands"].values()
         and "finished" in st["hands"].values()),
        ("at a level change", lambda st, last: st["snapshot"]["level_shown"]
         > last["snapshot"]["level_shown"]),
        ("after some busts", lambda st, last: len(busted(st)) >= len(busted(last)) + 3),
    ]  # fmt: skip
    for what, moment in moments:
        began = time.monotonic()
        room = server()
        after = read_state(db, tournament)
        check_resumed(before, after, time.monotonic() - began)
        assert db.read_sync(lambda c: store.balance(c, lost_id)) == START_BALANCE
        wait_until(db, tournament, since(moment, after), what)
        room.kill()
        before = read_state(db, tournament)  # what the crash left
    # The last restart: it plays on to a winner.
    began = time.monotonic()
    room = server()
    check_resumed(before, read_state(db, tournament), time.monotonic() - began)
    final = wait_until(db, tournament, lambda st: st["snapshot"]["state"] == "finished", "won")
    room.stop()
    check_won(db, final, people)


def check_won(db: Database, final: State, people: list[Client]) -> None:
    """The books of a finished tournament of the bots and ``people``: every prize paid, each
    person's balance its start less the buy-in and fee plus its prize."""
    check_books(final)
    assert final["pool"] == 0
    assert sum(final["prizes"].values()) == BUY_IN * (BOTS + len(people))
    for person in people:
        assert person.account is not None
        account = int(person.account["id"])
        balance = db.read_sync(partial(db.store.balance, account_id=account))
        assert balance == START_BALANCE - BUY_IN - FEE + final["prizes"].get(account, 0)
