"""What an outage means to storage (issue 34): which failures are the database being away,
and how a step retried after one is booked once (stud.server.actors.booking)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
from collections.abc import Callable, Mapping

import psycopg
import pytest
from sqlalchemy import Connection, text
from sqlalchemy.exc import IntegrityError, OperationalError

from stud.server.actors.booking import FIRST_RETRY_SECONDS, LAST_RETRY_SECONDS, Records, Step
from stud.server.storage import Database, LedgerError, TableSpec
from stud.server.storage.fences import Fenced
from stud.server.storage.outage import unavailable
from stud.table import Event

SPEC = TableSpec(
    name="t", game="stud", ante=1, bring_in=2, small_bet=5, big_bet=10, seats=6, bots=0,
    min_buy_in=50, max_buy_in=500,
)  # fmt: skip


def wrapped(error: Exception) -> OperationalError:
    return OperationalError("INSERT ...", {}, error)


def test_the_database_being_away_is_told_from_other_failures() -> None:
    assert unavailable(sqlite3.OperationalError("database is locked"))
    assert unavailable(wrapped(sqlite3.OperationalError("database is locked")))
    assert unavailable(psycopg.OperationalError("connection refused"))
    assert unavailable(wrapped(psycopg.OperationalError("server closed the connection")))
    assert unavailable(ConnectionRefusedError())
    # Not an outage: retrying would not help, or must not happen.
    assert not unavailable(wrapped(sqlite3.OperationalError("no such table: hands")))
    assert not unavailable(LedgerError("cash-out of 264 but 260 at table 10"))
    assert not unavailable(Fenced("a newer lease holds table 3"))
    assert not unavailable(IntegrityError("INSERT ...", {}, sqlite3.IntegrityError("UNIQUE")))
    assert not unavailable(ValueError("a bug"))


def test_retries_back_off_to_a_bound_and_the_first_failure_is_told_once() -> None:
    records = Records()
    assert not records.down
    assert records.failed(100.0)  # the first: the table's watchers are told
    assert records.down and records.retry_at is not None
    assert (
        100.0 + FIRST_RETRY_SECONDS * 0.5 <= records.retry_at <= 100.0 + FIRST_RETRY_SECONDS * 1.5
    )
    assert not records.due(100.0)
    waits = []
    for _ in range(12):
        assert not records.failed(200.0)
        assert records.retry_at is not None
        waits.append(records.retry_at - 200.0)
    assert max(waits) <= LAST_RETRY_SECONDS * 1.5 and waits[-1] >= LAST_RETRY_SECONDS * 0.5
    assert records.due(200.0 + LAST_RETRY_SECONDS * 1.5)
    assert records.back(230.0) == 130.0
    assert not records.down and records.retry_at is None


def test_a_held_step_s_turn_clocks_move_on_by_the_wait() -> None:
    turn = Event("turn", {"seat": 1, "turn": 4, "clock_ends": 50.0, "deadline": 60.0})
    other = Event("action", {"seat": 0, "kind": "call"})
    step = Step([turn, other], events=[turn, other])
    step.move_clocks(12.5)
    assert turn.data["clock_ends"] == 62.5 and turn.data["deadline"] == 72.5
    assert other.data == {"seat": 0, "kind": "call"}


def test_a_step_retried_after_its_commit_was_lost_is_booked_once(db: Database) -> None:
    """What the table asks before it books a step again: is each effect stored already?"""
    store = db.store
    account = db.write_sync(lambda c: store.create_account(c, "Ann", "guest"))
    db.write_sync(lambda c: store.grant(c, account.id, 1000))
    table = db.write_sync(lambda c: store.create_table(c, SPEC, None)).id
    db.write_sync(lambda c: store.buy_in(c, account.id, table, 200))
    players = [{"seat": 0, "account_id": account.id, "name": "Ann", "stack": 200}]
    started = {"number": 7, "players": players}

    def booked(kind: str, data: Mapping[str, object], hand: int | None) -> bool:
        return db.read_sync(lambda c: store.booked(c, table, kind, data, hand))

    assert not booked("hand_started", started, None)
    hand = db.write_sync(lambda c: store.start_hand(c, table, 7, "stud", players))
    assert booked("hand_started", started, None)
    assert db.read_sync(lambda c: store.hand_numbered(c, table, 7)) == hand
    assert not booked("hand_finished", {}, hand)

    def finish(conn: Connection) -> None:
        store.finish_hand(conn, table, hand, {account.id: 10}, 0, {}, None,
                          committed={account.id: 10})  # fmt: skip

    db.write_sync(finish)
    assert booked("hand_finished", {}, hand)
    cash_out = {"account_id": account.id, "amount": 200}
    assert not booked("cash_out", cash_out, None)
    db.write_sync(lambda c: store.cash_out(c, account.id, table, 200))
    assert booked("cash_out", cash_out, None)


def test_a_write_whose_session_postgresql_ends_fails_as_the_database_being_away(
    database_factory: Callable[[str], str], caplog: pytest.LogCaptureFixture
) -> None:
    """PostgreSQL ends the session while a pipelined write waits on it (as a fast shutdown
    does): the write fails with an error that says the database is away, so the table holds
    the step, and the next write gets a fresh connection. Nothing is logged as an error:
    the lost connection is dropped, not rolled back or reset. (A lost connection once
    surfaced as SQLAlchemy's PendingRollbackError, which read as a fault.)"""
    db = Database(database_factory("postgres"))
    db.start()
    try:
        ended = threading.Event()

        def end_session(pid: int) -> None:
            db.read_sync(lambda c: c.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid}))
            ended.set()

        def long_write(conn: Connection) -> None:
            pid = int(conn.execute(text("SELECT pg_backend_pid()")).scalar_one())
            threading.Thread(target=end_session, args=(pid,)).start()
            conn.execute(text("SELECT pg_sleep(30)")).all()

        with caplog.at_level(logging.WARNING), pytest.raises(Exception) as failure:
            db.write_sync(long_write)  # (which exception is what the test checks)
        assert ended.wait(30)
        assert unavailable(failure.value), repr(failure.value)
        assert db.write_sync(lambda c: c.execute(text("SELECT 1")).scalar_one()) == 1
        assert asyncio.run(_batched_write(db)) == 2
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    finally:
        db.close()


async def _batched_write(db: Database) -> int:
    """A write through the writer thread (the tables' path) after the lost session."""
    return int(await db.write(lambda c: c.execute(text("SELECT 2")).scalar_one()))
