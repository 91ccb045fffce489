"""A database that stops for a while loses nothing and corrupts nothing (issue 34).

A real PostgreSQL of the test's own (stud.testing.postgres) is stopped (a fast shutdown:
every session ended) while bots play on the room's six tables, then started again, in
one process and in a shared room of two processes; an SQLite file is locked by another
process past the busy timeout. Meanwhile each table holds the step it could not book
and pauses (stud.server.actors.booking); ``/api/health`` says the database is away and
``/api/health/ready`` answers 503; a person who leaves meanwhile is cashed out once,
when the table can book again. After each fault every seat's stack equals the ledger's,
no hand row is left ``running`` behind its table, no hand was voided, and every table
deals and finishes hands again by itself (tests/outage_checks.py measures each trial).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, func, select

from outage_checks import (
    ARGS,
    Leaver,
    Trial,
    check_books,
    health,
    ready_status,
    table_ids,
    voided_hands,
)
from stud.server.storage import Database
from stud.server.storage import schema as s
from stud.testing.cluster import Cluster
from stud.testing.postgres import NoPostgres, PrivatePostgres
from stud.testing.server import (
    ServerProcess,
    ServerSpec,
    check_log,
    hand_factory_args,
    require,
)
from stud.testing.wait import wait_until

SPEC = ServerSpec(ARGS + hand_factory_args("tests.test_table_double:start_double"))
SQLITE_BUSY_SECONDS = 10.0
"""The busy timeout the room sets on SQLite (stud.server.storage.database): a lock held
longer makes its writes fail."""


@pytest.fixture
def postgres() -> Iterator[PrivatePostgres]:
    """A PostgreSQL server of this test's own, which it may stop (never the shared one)."""
    try:
        server = PrivatePostgres()
    except NoPostgres as missing:
        require(f"PostgreSQL's server binaries ({missing})", False)
        raise
    with server:
        yield server


def new_hands_since(db: Database, wall: float) -> dict[int, int]:
    """Hands per table both dealt and finished after ``wall`` (the clock's time)."""

    def read(conn: Connection) -> dict[int, int]:
        rows = conn.execute(
            select(s.hands.c.table_id, func.count())
            .where((s.hands.c.status == "finished") & (s.hands.c.started_at >= wall))
            .group_by(s.hands.c.table_id)
        ).all()
        return {int(t): int(n) for t, n in rows}

    return db.read_sync(read)


def all_waiting(bases: list[str], tables: int) -> list[dict[str, Any]] | None:
    """Each process's health once ``tables`` tables wait for their records among them."""
    answers = [health(base) for base in bases]
    waiting = sum(int(h["tables_waiting_for_records"]) for h in answers)
    return answers if waiting == tables else None


async def one_fault(
    bases: list[str],
    db: Database,
    tables: list[int],
    fault: str,
    seconds: float,
    stop: Callable[[], None],
    start: Callable[[], None],
    leaver: Leaver | None,
) -> Trial:
    """Inject a fault of ``seconds``, then measure what the room did (a :class:`Trial`).

    ``bases``: the room's processes (the first answers for the tables); each says how many
    of the tables it runs wait for their records, and whether it is ready.
    """
    thread = asyncio.to_thread
    base = bases[0]
    trial = Trial(fault, seconds, len(tables))
    voided = await thread(voided_hands, db)
    began = time.monotonic()
    await thread(stop)
    leaving = None if leaver is None else asyncio.create_task(leaver.leave_during_outage())
    # Every table stops at its next booking and says so; the process is not ready.
    answers = await thread(
        wait_until,
        lambda: all_waiting(bases, len(tables)),
        "every table waiting for its records",
        seconds + 20,
    )
    trial.waiting = sum(h["tables_waiting_for_records"] for h in answers)
    assert all(h["ready"] is False for h in answers)
    assert [await thread(ready_status, b) for b in bases] == [503] * len(bases)
    if leaving is not None:
        assert (await leaving)["type"] == "ok"  # kept for when the table can book
    await thread(wait_until, lambda: time.monotonic() - began >= seconds, "the fault's end", 300)
    await thread(start)
    back, wall = time.monotonic(), time.time()
    # Every table deals and finishes a hand again, by itself; the process is ready.
    await thread(
        wait_until,
        lambda: all(new_hands_since(db, wall).get(t, 0) for t in tables),
        "playing again on every table",
        120,
    )
    trial.recovered_after = time.monotonic() - back
    assert [await thread(ready_status, b) for b in bases] == [200] * len(bases)
    for after in [await thread(health, b) for b in bases]:
        assert after["database_reachable"] and after["tables_waiting_for_records"] == 0
    books = await thread(check_books, base, db, tables)
    trial.mismatches, trial.stale_running = books.mismatches, books.stale_running
    trial.voided = await thread(voided_hands, db) - voided
    if leaver is not None:
        # (an ante, if a hand was dealt between sitting down and sitting out)
        stack = int((await leaver.left())["event"]["stack"])
        assert 0 < stack <= leaver.buy_in
        assert await thread(leaver.cash_outs, db) == [stack]  # once, all of it
    return trial


async def faults(
    bases: list[str],
    leave_via: str,
    db: Database,
    fault: str,
    seconds: float,
    trials: int,
    stop: Callable[[], None],
    start: Callable[[], None],
) -> list[Trial]:
    """``trials`` faults in a row on a room playing on its default tables (bots), with a
    person sitting out at the first table who leaves during the first fault."""
    tables = await asyncio.to_thread(table_ids, bases[0])
    assert len(tables) == 6
    await asyncio.to_thread(
        wait_until, lambda: all(new_hands_since(db, 0.0).get(t, 0) >= 2 for t in tables),
        "hands finished on every table", 120,
    )  # fmt: skip
    leaver = Leaver(leave_via, tables[0], buy_in=100)
    await leaver.sit()
    results = []
    for number in range(trials):
        who = leaver if number == 0 else None
        results.append(await one_fault(bases, db, tables, fault, seconds, stop, start, who))
    await leaver.client.close()
    return results


def report(trials: list[Trial]) -> None:
    for trial in trials:
        print(trial.line())
    for trial in trials:
        assert trial.waiting == trial.tables
        assert trial.mismatches == [], trial.mismatches
        assert trial.stale_running == [], trial.stale_running
        assert trial.voided == 0


def single_process(
    postgres: PrivatePostgres,
    server_factory: Callable[..., ServerProcess],
    tmp_path: Path,
    seconds: float,
    trials: int,
) -> None:
    server = server_factory(SPEC, postgres.url, tmp_path)
    db = Database(postgres.url)
    try:
        fault = f"PostgreSQL stopped {seconds:.0f} s, one process"
        work = faults([server.base], server.base, db, fault, seconds, trials, postgres.stop,
                      postgres.start)  # fmt: skip
        report(asyncio.run(work))
    finally:
        db.close()
    check_log(server)


def shared_room(
    postgres: PrivatePostgres, redis_url: str, tmp_path: Path, seconds: float, trials: int
) -> None:
    extra = SPEC.args
    with Cluster(postgres.url, redis_url, tmp_path, extra_args=extra, lease_seconds=3.0,
                 env=SPEC.environment()) as room:  # fmt: skip
        first, second = room.add_together(2)
        db = Database(postgres.url)
        try:
            fault = f"PostgreSQL stopped {seconds:.0f} s, shared room of 2"
            # The person plays through the second process (relayed to the table's own).
            bases = [first.base, second.base]
            work = faults(bases, second.base, db, fault, seconds, trials, postgres.stop,
                          postgres.start)  # fmt: skip
            report(asyncio.run(work))
        finally:
            db.close()
        for server in room.servers:
            check_log(server)


@pytest.mark.slow
def test_postgres_stopped_10_s_one_process(
    postgres: PrivatePostgres, server_factory: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    single_process(postgres, server_factory, tmp_path, seconds=10.0, trials=3)


@pytest.mark.slow
def test_postgres_stopped_10_s_shared_room(
    postgres: PrivatePostgres, redis_url: str, tmp_path: Path
) -> None:
    shared_room(postgres, redis_url, tmp_path, seconds=10.0, trials=3)


@pytest.mark.slow
def test_postgres_stopped_60_s_one_process(
    postgres: PrivatePostgres, server_factory: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    single_process(postgres, server_factory, tmp_path, seconds=60.0, trials=1)


@pytest.mark.slow
def test_postgres_stopped_60_s_shared_room(
    postgres: PrivatePostgres, redis_url: str, tmp_path: Path
) -> None:
    shared_room(postgres, redis_url, tmp_path, seconds=60.0, trials=1)


class SqliteLock:
    """Another process's write lock on the room's SQLite file, held past the busy timeout."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.conn: sqlite3.Connection | None = None

    def take(self) -> None:
        # Taken and let go from the test's worker threads.
        self.conn = sqlite3.connect(
            self.path, timeout=30, isolation_level=None, check_same_thread=False
        )
        self.conn.execute("BEGIN IMMEDIATE")  # the write lock; readers go on (WAL)

    def release(self) -> None:
        assert self.conn is not None
        self.conn.execute("ROLLBACK")
        self.conn.close()
        self.conn = None


@pytest.mark.slow
def test_sqlite_locked_past_the_busy_timeout(
    server_factory: Callable[..., ServerProcess], tmp_path: Path
) -> None:
    folder = tmp_path / "room"
    folder.mkdir()
    path = folder / "stud.sqlite3"
    url = f"sqlite:///{path}"
    server = server_factory(SPEC, url, folder)
    lock = SqliteLock(path)
    db = Database(url)
    try:
        fault = "SQLite locked by another process"
        work = faults([server.base], server.base, db, fault, SQLITE_BUSY_SECONDS + 4, 2,
                      lock.take, lock.release)  # fmt: skip
        report(asyncio.run(work))
    finally:
        db.close()
    check_log(server)
