"""What every part of the store shares to write: the fence a table's writes pass, rows
inserted in bulk, statements whose reply nobody waits for, and JSON text columns."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import orjson
from sqlalchemy import Connection

UNREAD = "stud_unread"
"""The execution option of a statement whose reply is not read (it fails the transaction or
is done): in a pipelined transaction (stud.server.storage.database) nothing waits for it."""


class Fence(Protocol):
    """Checks, inside a write's transaction, that this process still runs a table (else
    raises): at once, or when :meth:`settle` is called, just before the transaction commits
    (stud.server.storage.fences). The check :meth:`settle` sends may fail the transaction
    only when it commits (its reply is not waited for): :meth:`refusal` says what such a
    failure means."""

    def __call__(self, conn: Connection, table_id: int) -> None: ...

    def settle(self, conn: Connection) -> None: ...

    def refusal(self, error: BaseException) -> Exception | None: ...


class FencedWrites:
    """The store's hook for a :class:`Fence`.

    ``fence``, when set (several processes share the room: stud.server.cluster),
    is called with the table's id at the start of every write that moves chips at
    a table or records its hands, and settled (:meth:`settle`) before the
    transaction commits: a process that lost the table's lease cannot write for
    it any more.
    """

    fence: Fence | None = None

    def _fenced(self, conn: Connection, table_id: int) -> None:
        if self.fence is not None:
            self.fence(conn, table_id)

    def settle(self, conn: Connection) -> None:
        """What the fence left to check before a write's transaction commits (the database's
        writer calls it last in every write transaction)."""
        if self.fence is not None:
            self.fence.settle(conn)

    def refusal(self, error: BaseException) -> Exception | None:
        """The error to raise for a write transaction that failed with ``error`` if the fence
        refused it (a newer lease holds a table it wrote for), else None."""
        return None if self.fence is None else self.fence.refusal(error)


def insert_rows(
    conn: Connection,
    rows: Sequence[Mapping[str, Any]],
    columns: Sequence[str],
    arrays: Any,
    each: Any,
) -> None:
    """Insert ``rows``: on PostgreSQL in one statement of a column per array (``arrays``),
    elsewhere row by row (``each``).

    psycopg's ``executemany`` sends a message, and the writer gives up the interpreter's
    lock, per row; an ``unnest`` of arrays sends one.
    """
    if rows and conn.dialect.name == "postgresql":
        conn.execute(arrays, {c: [row[c] for row in rows] for c in columns})
    elif rows:
        conn.execute(each, list(rows))


def json_text(value: Any) -> str:
    """``value`` as JSON text for a column read back with :func:`json.loads`: orjson's compact
    text (a hand's summary and players, stored with every hand, took a sixth of the database
    writer's work through :func:`json.dumps`), or :func:`json.dumps`'s for what orjson
    refuses (an integer past 64 bits, a lone surrogate). Integer keys become strings in both.
    """
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(value)
