"""Fencing tokens in PostgreSQL: only the newest lease holder of a table may write for it.

A lease in Redis says which process runs a table, but a process can be paused
(a stop signal, a long collector pause, a network partition) past its lease's
end without knowing it. So each lease carries a token that only grows (Redis
``INCR``), and the process that takes a table first stores its token here, in
the transaction that voids the hand it finds running and cashes the stacks out.
Every later write for the table (hand started or finished, buy-in, cash-out,
close) checks, in its own transaction and under the same row lock, that the
stored token is still the writer's: a paused owner that wakes up finds a newer
token and its write is refused (:class:`Fenced`), so it cannot book anything
for a table someone else now runs.

No Redis here: this is plain SQLAlchemy, used by :mod:`stud.server.cluster.tables` and
:mod:`stud.server.cluster.tourneys`.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Float,
    String,
    Table,
    bindparam,
    func,
    select,
    text,
    update,
)
from sqlalchemy import insert as sql_insert
from sqlalchemy.exc import DBAPIError

from stud.server.storage import schema as s
from stud.server.storage import tourneys
from stud.server.storage.store import Store
from stud.server.storage.writes import UNREAD

table_leases = Table(
    "table_leases",
    s.metadata,
    Column("table_id", BigInteger, primary_key=True),
    Column("token", BigInteger, nullable=False),
    Column("node", String(64), nullable=False),
    Column("claimed_at", Float, nullable=False),
)
"""The token of the process that last took each table (the highest it has seen)."""

tourney_leases = Table(
    "tourney_leases",
    s.metadata,
    Column("tournament_id", BigInteger, primary_key=True),
    Column("token", BigInteger, nullable=False),
    Column("node", String(64), nullable=False),
    Column("claimed_at", Float, nullable=False),
)
"""The same for tournaments: the token of the process that last took each one."""

cluster_room = Table(
    "cluster_room",
    s.metadata,
    Column("id", BigInteger, primary_key=True),
    Column("room", String(32), nullable=False),
)
"""One row: the room's name in Redis, made by its first process."""


def room_prefix(conn: Connection) -> str:
    """The prefix of every Redis key and channel of the room kept in this database.

    Processes on one database share a room whatever host name they reach it by;
    rooms on other databases may share the Redis without meeting.
    """
    room = conn.execute(select(cluster_room.c.room).where(cluster_room.c.id == 1)).scalar()
    if room is None:
        room = uuid.uuid4().hex[:12]
        conn.execute(sql_insert(cluster_room).values(id=1, room=room))
    return f"stud:{room}:"


class Fenced(Exception):
    """A write for a table this process no longer holds: a newer lease took it."""


class TableGone(Exception):
    """A table closed (or never made): nobody is to run it."""


# Built once: every hand's start and end is fenced, and building a statement costs more
# than running it.
_TABLE_TOKEN = (
    select(table_leases.c.token)
    .where(table_leases.c.table_id == bindparam("item_id"))
    .with_for_update()
)
_TOURNEY_TOKEN = (
    select(tourney_leases.c.token)
    .where(tourney_leases.c.tournament_id == bindparam("item_id"))
    .with_for_update()
)
_TABLE_TOURNAMENT = select(s.room_tables.c.tournament_id).where(
    s.room_tables.c.id == bindparam("table_id")
)


def _check(conn: Connection, statement: Any, item_id: int, what: str, token: int | None) -> None:
    """Fenced unless ``token`` is the one stored for ``item_id`` (the locking ``statement``
    reads it); locks the row."""
    row = conn.execute(statement, {"item_id": item_id}).first()
    if token is None or row is None or int(row.token) != token:
        stored = None if row is None else int(row.token)
        raise Fenced(f"{what}: lease token {token} is not the current one ({stored})")


def _store_token(
    conn: Connection,
    leases: Table,
    key: Any,
    ids: dict[str, int],
    token: int,
    node: str,
    now: float,
    what: str,
) -> None:
    """Store a new owner's token (Fenced unless it is above the stored one)."""
    row = conn.execute(select(leases.c.token).where(key).with_for_update()).first()
    if row is not None and int(row.token) >= token:
        raise Fenced(f"{what}: token {token} is not newer than {int(row.token)}")
    values = {"token": token, "node": node, "claimed_at": now}
    if row is None:
        conn.execute(sql_insert(leases).values(**ids, **values))
    else:
        conn.execute(update(leases).where(key).values(**values))


def check(conn: Connection, table_id: int, token: int | None) -> None:
    """Fenced unless ``token`` is the table's stored token; locks its row until commit.

    The row lock orders this write against a takeover: one commits first, and
    the other sees what it did.
    """
    _check(conn, _TABLE_TOKEN, table_id, f"table {table_id}", token)


def check_tournament(conn: Connection, tournament_id: int, token: int | None) -> None:
    """Fenced unless ``token`` is the tournament's stored token (a tournament's writes, and
    its tables' hands, are its owner's alone)."""
    _check(conn, _TOURNEY_TOKEN, tournament_id, f"tournament {tournament_id}", token)


def claim(
    conn: Connection, store: Store, table_id: int, token: int, node: str, now: float
) -> dict[str, Any]:
    """Take ``table_id`` with ``token``: store it, void the hand left running, cash the bots out.

    Fenced if a token as new or newer is stored (a stale lease, or Redis lost
    its counters: the caller starts its next token above ``stored``). The same
    recovery as a single process's restart (:meth:`Store.recover`), for one table,
    except that the people's stacks stay at the table: the new owner seats them
    again (``seated``), as if the table had paused. Returns what it recovered,
    the last hand number and who is to be seated.
    """
    closed = conn.execute(
        select(s.room_tables.c.closed).where(s.room_tables.c.id == table_id)
    ).scalar()
    if closed is None or closed:
        raise TableGone(f"table {table_id} is closed")
    key = table_leases.c.table_id == table_id
    ids = {"table_id": table_id}
    _store_token(conn, table_leases, key, ids, token, node, now, f"table {table_id}")
    recovered = store.recover(conn, table_id, keep_people=True)
    last = conn.execute(
        select(func.coalesce(func.max(s.hands.c.number), 0)).where(s.hands.c.table_id == table_id)
    ).scalar_one()
    return {**recovered, "last_hand": int(last), "seated": _kept_seats(conn, store, table_id)}


def _kept_seats(conn: Connection, store: Store, table_id: int) -> list[dict[str, Any]]:
    """The people whose stacks stay at a table taken over: account, name, stack, and the seat
    of the table's last hand (None if they sat down after it: any free seat)."""
    stacks = {a: v for (_, a), v in store.table_stacks(conn, table_id).items() if v > 0}
    if not stacks:
        return []
    last = conn.execute(
        select(s.hands.c.players)
        .where(s.hands.c.table_id == table_id)
        .order_by(s.hands.c.number.desc())
        .limit(1)
    ).scalar()
    seats = {int(p["account_id"]): int(p["seat"]) for p in json.loads(last or "[]")}
    names = dict(
        conn.execute(
            select(s.accounts.c.id, s.accounts.c.name).where(s.accounts.c.id.in_(stacks))
        ).all()
    )
    return [
        {"account_id": a, "name": str(names.get(a, f"#{a}")), "stack": v, "seat": seats.get(a)}
        for a, v in sorted(stacks.items())
    ]


def claim_tournament(
    conn: Connection, tournament_id: int, token: int, node: str, now: float
) -> dict[str, Any] | None:
    """Take a tournament with ``token``: store it, void the hands its tables left running.

    Then its stored row (``{"id", "template", "created_by", "snapshot"}``) to restore it
    from, read after the token is stored: a former owner can write nothing after this
    commits, so the snapshot is its last. None if the tournament is over (nothing to run).
    Fenced if a token as new or newer is stored.
    """
    row = tourneys.stored_one(conn, tournament_id)
    if row is None or row["snapshot"].get("state") not in ("registering", "running"):
        return None
    key = tourney_leases.c.tournament_id == tournament_id
    ids = {"tournament_id": tournament_id}
    _store_token(conn, tourney_leases, key, ids, token, node, now, f"tournament {tournament_id}")
    tables = select(s.room_tables.c.id).where(s.room_tables.c.tournament_id == tournament_id)
    running = conn.execute(
        select(s.hands.c.id).where(s.hands.c.status == "running", s.hands.c.table_id.in_(tables))
    ).all()
    for (hand_id,) in running:  # tournament chips are not in the ledger: nothing to refund
        conn.execute(
            update(s.hands).where(s.hands.c.id == hand_id).values(status="void", finished_at=now)
        )
    return tourneys.stored_one(conn, tournament_id)


def stored_token(conn: Connection, table_id: int, *, tournament: bool = False) -> int:
    """The token stored for a table or tournament (0 if none): a new lease's token starts
    above it."""
    leases, column = (
        (tourney_leases, tourney_leases.c.tournament_id)
        if tournament
        else (table_leases, table_leases.c.table_id)
    )
    value = conn.execute(select(leases.c.token).where(column == table_id)).scalar()
    return 0 if value is None else int(value)


DUE = "stud.fence.due"
"""Where a connection keeps, for its transaction, the tokens each table was written under."""


def _due(conn: Connection) -> dict[int, set[int]]:
    """The tables written for in ``conn``'s transaction so far, and their tokens (what a
    transaction that failed before settling left is dropped: it was rolled back)."""
    transaction = conn.get_transaction()
    kept = conn.info.get(DUE)
    if kept is None or kept[0] is not transaction:
        kept = conn.info[DUE] = (transaction, {})
    due: dict[int, set[int]] = kept[1]
    return due


LOCK_NOT_AVAILABLE = "55P03"
"""PostgreSQL's error for ``FOR UPDATE NOWAIT`` on a row another transaction has locked."""
NOT_AN_INTEGER = "22P02"
"""PostgreSQL's error for a text cast to an integer that is not one: how :data:`_SETTLE`
fails (plain SQL has no ``RAISE``), with :data:`STALE` and the reason as the text."""
STALE = "stud fence: "

_SETTLE = text(
    f"""
    SELECT CAST(
        CASE WHEN held.token = written.token THEN '0'
        ELSE '{STALE}table ' || written.id || ': lease token ' || written.token
            || ' is not the current one (' || COALESCE(CAST(held.token AS TEXT), 'none') || ')'
        END AS INTEGER)
    FROM unnest(CAST(:ids AS BIGINT[]), CAST(:tokens AS BIGINT[])) AS written (id, token)
    LEFT JOIN (
        SELECT table_id, token FROM table_leases
        WHERE table_id = ANY(CAST(:ids AS BIGINT[]))
        FOR UPDATE NOWAIT
    ) AS held ON held.table_id = written.id
    """
).execution_options(**{UNREAD: True})
"""The fence's check, one statement for every (table, token) a transaction wrote under:
locks the tables' lease rows (NOWAIT) and fails unless each stored token is the one
written under. It answers nothing that is read: in a pipelined transaction it is sent with
the ``COMMIT`` (:func:`stud.server.storage.database.pipelined`), which it fails when stale,
so no reply is waited for before the commit and nothing is kept of a refused write."""


class TokenFence:
    """The store's fence for this process: the token it holds for each table it runs; a
    tournament's table is fenced by its tournament's token.

    A table's check is made once per transaction, just before it commits, for every
    table the transaction wrote for (one statement however many tables: the writer
    joins the writes that arrive together into one transaction, and a statement
    apiece made it wait on PostgreSQL and the interpreter's lock once more for every
    write). Checked that late, under the same row lock, it orders the write against
    a takeover as before: a takeover that stored its token first is seen and the
    write refused; one that comes after waits for the commit and sees what it did.
    The lock is taken ``NOWAIT``: another process holds it only while taking the
    table over (this process's lease in Redis is then over), so the write is refused
    at once rather than wait for the lease row while holding rows it wrote, which the
    takeover's recovery may be waiting for (it updates the hand this write may be
    finishing). The check fails the transaction itself when a token is stale, rather
    than answer the tokens for this process to compare: sent with the ``COMMIT``, it
    costs the write no round trip of its own, and a stale owner's transaction is
    rolled back whole, by PostgreSQL. A tournament's table is checked at once, as before.
    """

    def __init__(
        self, tokens: Mapping[int, int], tournaments: Mapping[int, int] | None = None
    ) -> None:
        self.tokens = tokens
        self.tournaments: Mapping[int, int] = {} if tournaments is None else tournaments

    def __call__(self, conn: Connection, table_id: int) -> None:
        token = self.tokens.get(table_id)
        if token is None:
            tournament = conn.execute(_TABLE_TOURNAMENT, {"table_id": table_id}).scalar()
            if tournament is not None:
                check_tournament(conn, int(tournament), self.tournaments.get(int(tournament)))
                return
            check(conn, table_id, token)  # raises: this process does not run the table
            return
        due = _due(conn)
        tokens = due.get(table_id)
        if tokens is None:
            due[table_id] = {token}
        else:
            tokens.add(token)

    def settle(self, conn: Connection) -> None:
        """Send the check that every table this transaction wrote for still has the token it
        was written under (:data:`_SETTLE`); it locks their rows until the commit. The
        database's writer calls it just before each write transaction commits
        (:meth:`Store.settle`): a write for a table made on a connection of one's own must
        call it too. Fenced at once if the statement is answered here; in a pipeline its
        failure comes with the commit's reply, which :meth:`refusal` turns into Fenced."""
        due = _due(conn)
        if not due:
            return
        written = sorted((table, token) for table, tokens in due.items() for token in tokens)
        due.clear()
        try:
            conn.execute(
                _SETTLE, {"ids": [t for t, _ in written], "tokens": [k for _, k in written]}
            )
        except DBAPIError as error:
            refused = self.refusal(error)
            if refused is None:
                raise
            raise refused from None

    def refusal(self, error: BaseException) -> Exception | None:
        """Fenced if ``error`` is the fence's check failing (a stale token, or a table being
        taken over: its row locked by another process), else None."""
        orig = getattr(error, "orig", None) or error
        state = getattr(orig, "sqlstate", None)
        if state == LOCK_NOT_AVAILABLE:
            return Fenced("a table written for is being taken over by another process")
        message = str(orig)
        if state == NOT_AN_INTEGER and STALE in message:
            return Fenced(message[message.index(STALE) + len(STALE) :].split('"')[0])
        return None
