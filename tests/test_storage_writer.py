"""The database writer keeps one connection between its transactions, and loses nothing by it.

A write whose connection breaks under it (a restarted server, a session the
server ended) fails alone, with nothing of it stored; the writer's next
transactions run on a fresh connection, and every write that succeeded is there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, func, select

from stud.server.storage import schema as s
from stud.server.storage.database import Database


def _accounts(db: Database) -> list[str]:
    return db.read_sync(lambda c: [r.name for r in c.execute(select(s.accounts.c.name))])


def test_a_broken_connection_fails_its_write_alone_and_the_next_ones_run(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'stud.sqlite3'}")
    db.start()
    try:
        store = db.store
        db.submit(lambda c: store.create_account(c, "first", "guest")).result(10)
        kept = db._connection
        assert kept is not None
        assert db.submit(lambda c: c is kept).result(10)  # the same connection, kept

        broken: list[Any] = []

        def breaks(conn: Connection) -> None:
            store.create_account(conn, "lost", "guest")
            raw = conn.connection.dbapi_connection
            assert raw is not None
            broken.append(raw)
            raw.close()  # the connection dies under the write: its commit cannot happen

        with pytest.raises(Exception, match="closed"):
            db.submit(breaks).result(10)
        assert len(broken) == 2  # the batch, then the write alone: each on its connection
        assert broken[0] is not broken[1]
        db.submit(lambda c: store.create_account(c, "second", "guest")).result(10)
        assert db._connection is not None and db._connection is not kept
        assert sorted(_accounts(db)) == ["first", "house", "second"]
        # A write the database refuses (a name taken) fails alone too; the others commit.
        futures = [
            db.submit(lambda c: store.create_account(c, "third", "guest")),
            db.submit(lambda c: store.create_account(c, "first", "guest")),
            db.submit(lambda c: store.create_account(c, "fourth", "guest")),
        ]
        futures[0].result(10)
        with pytest.raises(ValueError, match="taken"):
            futures[1].result(10)
        futures[2].result(10)
        assert sorted(_accounts(db)) == ["first", "fourth", "house", "second", "third"]
        ledger = db.read_sync(
            lambda c: c.execute(select(func.count()).select_from(s.ledger)).scalar_one()
        )
        assert ledger == 0  # no chip moved by any of it
    finally:
        db.close()
    assert db._connection is None  # given back when the writer stops
