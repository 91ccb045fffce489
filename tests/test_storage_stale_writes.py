"""A write stopped in the middle of a pipeline, holding a row lock, is ended by the sweep.

PostgreSQL's ``idle_in_transaction_session_timeout`` (set on every write connection)
does not cover a client stopped between the messages of one pipeline: shown here,
then ended by :func:`stud.server.storage.stale.end_stale_writes`, which frees the lock
a takeover waits for, and leaves alone what is not a stale write of the room.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from sqlalchemy import Connection, text

from stud.server.storage import Database
from stud.server.storage.database import IDLE_IN_TRANSACTION_SECONDS
from stud.server.storage.stale import end_stale_writes


@pytest.fixture
def probed_db(pg_url: str) -> Iterator[Database]:
    """A PostgreSQL database of the test's own with a one-row table to lock (probe)."""
    database = Database(pg_url)
    database.start()
    database.write_sync(lambda c: c.execute(text("CREATE TABLE probe (id INT PRIMARY KEY)")))
    database.write_sync(lambda c: c.execute(text("INSERT INTO probe VALUES (1)")))
    yield database
    database.close()


def lock_probe(conn: Connection) -> Any:
    return conn.execute(text("SELECT id FROM probe WHERE id = 1 FOR UPDATE")).scalar()


def backend_alive(db: Database, pid: int) -> bool:
    return bool(
        db.read_sync(
            lambda c: c.execute(
                text("SELECT count(*) FROM pg_stat_activity WHERE pid = :pid"), {"pid": pid}
            ).scalar()
        )
    )


def test_a_write_stopped_mid_pipeline_is_ended_and_frees_its_locks(probed_db: Database) -> None:
    raw = probed_db.write_engine.raw_connection()  # a write connection, as the writer thread has
    stopped: psycopg.Connection[Any] = raw.driver_connection  # type: ignore[assignment]
    pid = stopped.info.backend_pid
    # Someone else's session, waiting on its client in a pipeline too: not the room's.
    url = probed_db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
    other = psycopg.connect(url, application_name="someone-else")
    other.execute("SELECT 1")
    waiter_done = threading.Event()

    def wait_for_lock() -> None:
        probed_db.write_sync(lock_probe)
        waiter_done.set()

    try:
        stopped.execute("SELECT id FROM probe WHERE id = 1 FOR UPDATE")  # holds the lock
        with pytest.raises(psycopg.OperationalError), stopped.pipeline():
            stopped.cursor().execute("SELECT 2")  # ... and stops in the middle of a pipeline
            with other.pipeline():
                other.cursor().execute("SELECT 3")
                waiter = threading.Thread(target=wait_for_lock, daemon=True)
                waiter.start()
                # Past PostgreSQL's own idle bound (5 s), the lock is still held: the gap.
                time.sleep(IDLE_IN_TRANSACTION_SECONDS + 1)
                assert not waiter_done.is_set()
                assert probed_db.read_sync(lambda c: end_stale_writes(c, seconds=60)) == []
                ended = probed_db.read_sync(end_stale_writes)  # the same bound
                assert ended == [pid]
                assert waiter_done.wait(10), "the lock was not freed"
                assert not backend_alive(probed_db, pid)
                assert backend_alive(probed_db, other.info.backend_pid)  # not a write of the room
                stopped.cursor().execute("SELECT 4")  # the process wakes: its connection is gone
    finally:
        waiter_done.wait(10)
        other.close()
        raw.invalidate()
    # The writer goes on with fresh connections.
    assert probed_db.write_sync(lock_probe) == 1


def test_the_write_connections_are_bounded_by_postgresql_outside_a_pipeline(
    probed_db: Database,
) -> None:
    """The sweep covers only the gap: a plain idle write transaction is PostgreSQL's own."""
    with probed_db.write_engine.connect() as conn:
        bound = conn.execute(text("SHOW idle_in_transaction_session_timeout")).scalar()
        name = conn.execute(text("SHOW application_name")).scalar()
    assert bound == f"{IDLE_IN_TRANSACTION_SECONDS:.0f}s"
    assert name == "stud-writer"
