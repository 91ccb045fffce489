"""The connection to SQLite or PostgreSQL, and a single writer thread with group commit.

All writes go through one thread: SQLite allows one writer anyway, and batching
the writes that arrive together into one transaction (each still atomic on its
own: a batch that fails is retried write by write) keeps up with a hundred
tables without blocking the event loop. A write's future resolves only after
its transaction committed, so the caller knows it is durable.

On PostgreSQL a write transaction is sent as one pipeline (:func:`pipelined`):
``BEGIN``, the statements whose replies nobody reads, the fence's check and
``COMMIT`` go out without waiting for each other, and the writer waits once, for
the commit's reply. A hand's end, which its events wait for, is one round trip.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

import psycopg
from psycopg import pq
from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import ExecutionContext, make_url
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from stud.server.observe.metrics import DB_WRITE_FAILURES, DB_WRITE_SECONDS
from stud.server.storage import upgrades
from stud.server.storage.outage import unavailable
from stud.server.storage.schema import accounts_by_name_key, metadata
from stud.server.storage.store import Store
from stud.server.storage.writes import UNREAD

log = logging.getLogger("stud.server")

CHECKPOINT_SECONDS = 1.0
"""How often the SQLite WAL is checkpointed (off the writer thread)."""
WAL_LIMIT_BYTES = 32 * 1024 * 1024
"""The SQLite WAL is truncated back to this size once checkpointed (it grew without bound)."""

T = TypeVar("T")
Op = Callable[[Connection], Any]

DEFAULT_DATA_DIR = "var"


def resolve_url(url: str | None = None, data_dir: str | os.PathLike[str] | None = None) -> str:
    """The database URL: ``url``, else ``$STUD_DATABASE_URL``, else SQLite in the data dir.

    The data dir is ``data_dir``, else ``$STUD_DATA_DIR``, else ``./var``. A plain
    ``postgresql://`` URL is pointed at the psycopg 3 driver.
    """
    url = url or os.environ.get("STUD_DATABASE_URL") or None
    if url is None:
        folder = Path(data_dir or os.environ.get("STUD_DATA_DIR") or DEFAULT_DATA_DIR)
        folder.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{(folder / 'stud.sqlite3').resolve()}"
    if url.startswith(("postgres://", "postgresql://")):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers run beside the writer; NORMAL sync survives a killed process
    # (the WAL is in the OS cache) and the busy timeout rides out checkpoints.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    # Checkpoints (the only step that syncs to disk) run on their own thread, not in a
    # commit that a table is waiting for: see Database._checkpointer.
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    # A checkpoint that completes leaves the WAL file at most this long: without it the
    # file keeps its largest size for ever (188 MB after 14 minutes of a busy room).
    cursor.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
    cursor.close()


IDLE_IN_TRANSACTION_SECONDS = 5.0
"""How long PostgreSQL lets a write transaction wait for its client before it ends it.

A process paused or cut off in the middle of a write (a stop signal, a network
partition) keeps its transaction open, and with it the row locks it took: in a
shared room, the lock on a table's or tournament's lease token (its fence), which
the process taking it over must lock to store its own token; without this bound
that takeover, and every write queued behind it on the new owner's writer thread,
would wait for as long as the pause lasts. Ended here, the paused write is
rolled back; when the process wakes, its write is run again and refused by the
fence. A writer does not wait that long between two statements of a transaction
unless its process is starved (then its batch is run again, as after any
failure). Reads have no such bound: nothing waits on their locks.

PostgreSQL arms this timeout only when it has answered a whole request: a write
stopped in the middle of a pipeline (every write transaction is sent as one,
:func:`pipelined`) waits for its client unbounded. :mod:`stud.server.storage.stale`
ends those, by the same bound, from any live process of the room.
"""
CONNECT_TIMEOUT_SECONDS = 5
"""How long opening a PostgreSQL connection may take: a server cut off by the network
fails the write (and the table holds it, stud.server.actors.booking) rather than
keeping the writer thread waiting for the operating system's own timeout."""
PROBE_SECONDS = 3.0
"""How long a health check waits for the database (or Redis) to answer before it says no."""
WRITER_APPLICATION = "stud-writer"
"""The ``application_name`` of the write connections (what the stale-write sweep may end)."""


def make_engine(url: str, *, idle_in_transaction: float | None = None) -> Engine:
    """An engine for ``url`` with SQLite set up for WAL; on PostgreSQL, the server ends a
    transaction left waiting ``idle_in_transaction`` seconds for its client, if given."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        # Pooled connections: opening one (and setting its pragmas) costs more than a write.
        engine = create_engine(
            url,
            pool_size=4,
            max_overflow=8,
            connect_args={"timeout": 10, "check_same_thread": False},
        )
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if idle_in_transaction is None:
        # Reads: one snapshot per transaction (see Database.read_sync).
        return create_engine(
            url,
            pool_size=4,
            max_overflow=4,
            pool_pre_ping=True,
            isolation_level="REPEATABLE READ",
            connect_args={"connect_timeout": CONNECT_TIMEOUT_SECONDS},
        )
    idle = f"-c idle_in_transaction_session_timeout={int(idle_in_transaction * 1000)}"
    engine = create_engine(
        url,
        pool_size=2,
        max_overflow=4,
        pool_pre_ping=True,
        connect_args={
            "options": idle,
            "application_name": WRITER_APPLICATION,
            "connect_timeout": CONNECT_TIMEOUT_SECONDS,
        },
    )
    event.listen(engine, "after_cursor_execute", _read_replies)
    return engine


PIPELINE = "stud.pipeline"
"""Where a write connection keeps its psycopg pipeline while a transaction is sent as one."""


def _reads_reply(context: ExecutionContext | None) -> bool:
    """Whether the caller reads what a statement returns: rows, or the key of a row it
    inserted. An ``INSERT``, ``UPDATE`` or ``DELETE`` without ``RETURNING`` answers only
    its row count, which no write of the room reads (in a pipeline it is -1: a write that
    needs it must read a ``RETURNING`` instead); their failures end the transaction."""
    if context is None or context.execution_options.get(UNREAD):
        return False
    compiled: Any = context.compiled
    if compiled is None or not (compiled.isinsert or compiled.isupdate or compiled.isdelete):
        return True
    return bool(compiled.effective_returning)


def _read_replies(
    conn: Connection, _cursor: Any, _statement: str, _params: Any, context: Any, _many: bool
) -> None:
    """In a pipelined transaction, wait for the replies so far when a statement's own is
    read (SQLAlchemy looks at its rows as soon as it is sent); else send on."""
    pipeline = conn.info.get(PIPELINE)
    if pipeline is not None and _reads_reply(context):
        pipeline.sync()  # inside BEGIN: a Sync ends no transaction, it only brings the replies


Refusal = Callable[[BaseException], "Exception | None"]
"""What a failed commit means to the fence: the error to raise instead (Fenced), or None."""


@contextlib.contextmanager
def _plain(connection: Connection) -> Iterator[Connection]:
    with connection.begin():
        yield connection


def _unusable(raw: psycopg.Connection[Any], error: psycopg.Error) -> bool:
    """Whether a connection whose pipeline failed can take no further statement.

    A session PostgreSQL ended (a fast shutdown: ``AdminShutdown``) may still look open
    when its FATAL was read before the close: libpq then keeps it in pipeline mode with
    replies unread. An error that says the database is away (:func:`unavailable`), or a
    pipeline left on, counts; an error of the statements themselves (a key taken, the
    fence's refusal) leaves it usable."""
    return (
        raw.closed
        or raw.broken
        or unavailable(error)
        or raw.pgconn.pipeline_status != pq.PipelineStatus.OFF
    )


@contextlib.contextmanager
def pipelined(connection: Connection, refusal: Refusal | None = None) -> Iterator[Connection]:
    """One write transaction on PostgreSQL sent as a psycopg pipeline: one round trip.

    ``BEGIN``, each statement and ``COMMIT`` go out as they are made; the writer waits
    for replies only where it reads one (a ``SELECT``, an ``INSERT``'s new key) and at
    the end, when leaving the pipeline sends its Sync: the commit's reply, or the first
    error, after which PostgreSQL skipped the rest (``COMMIT`` included: nothing of the
    transaction is kept). So a write is durable exactly when this returns, as before;
    only the waits between its statements are gone. psycopg's own transaction would
    send its ``BEGIN`` and wait for it: the connection runs in autocommit and the
    transaction is spelled out. ``refusal`` turns the error of a refused commit into
    the one to raise (the fence's check fails the transaction, :meth:`Store.refusal`).
    """
    if connection.get_execution_options().get("isolation_level") != "AUTOCOMMIT":
        connection.execution_options(isolation_level="AUTOCOMMIT")  # reset on return to pool
    raw = connection.connection.driver_connection
    assert raw is not None
    try:
        with connection.begin():
            # Held here: once a lost connection invalidated the transaction, reading
            # ``connection.info`` raises PendingRollbackError, which would replace the error
            # that says the database is away.
            info = connection.info
            try:
                with raw.pipeline() as pipeline:
                    info[PIPELINE] = pipeline
                    raw.execute("BEGIN", prepare=False)
                    yield connection
                    raw.execute("COMMIT", prepare=False)
                # (the pipeline's exit read every reply, the commit's last)
            except psycopg.Error as error:
                if _unusable(raw, error):
                    # A ROLLBACK on it would fail ("cannot exit pipeline mode while busy"),
                    # and so would the pool's reset, which logs that with a traceback.
                    # Invalidated, it is neither: it is dropped.
                    connection.invalidate()
                raise
            finally:
                info.pop(PIPELINE, None)
    except psycopg.Error as error:  # from the pipeline's exit: SQLAlchemy never saw it
        refused = None if refusal is None else refusal(error)
        if refused is not None:
            raise refused from None
        raise DBAPIError.instance(None, None, error, psycopg.Error) from None


class Database:
    """The engine, the store's operations, and the writer thread that runs every write."""

    def __init__(self, url: str, *, batch_limit: int = 256) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.store = Store()
        self.backend = self.engine.dialect.name
        self.write_engine = (
            self.engine
            if self.backend == "sqlite"
            else make_engine(url, idle_in_transaction=IDLE_IN_TRANSACTION_SECONDS)
        )
        """What writes go through: on PostgreSQL, its own connections, whose transactions
        the server ends if they wait too long for this process (IDLE_IN_TRANSACTION_SECONDS)."""
        self._batch_limit = batch_limit
        self._queue: queue.SimpleQueue[tuple[Op, Future[Any]] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._stop = threading.Event()
        self._checkpoints: threading.Thread | None = None

    # -- life cycle ------------------------------------------------------------------------

    def create_schema(self) -> None:
        """Create what is missing: tables, and columns added since a database was made;
        then what an older database needs besides (:mod:`.upgrades`)."""
        rebuild_rollups = upgrades.before_create(self.engine)
        metadata.create_all(self.engine)
        known = inspect(self.engine)
        with self.engine.begin() as conn:
            for table in metadata.sorted_tables:
                have = {c["name"] for c in known.get_columns(table.name)}
                for column in table.columns:
                    if column.name not in have:
                        kind = column.type.compile(self.engine.dialect)
                        default = column.server_default
                        extra = f" DEFAULT '{default.arg}'" if default is not None else ""  # type: ignore[attr-defined]
                        conn.execute(
                            text(f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}{extra}")
                        )
            accounts_by_name_key.create(conn, checkfirst=True)
            self.store.fill_name_keys(conn)
            upgrades.after_create(conn, rebuild_rollups)

    def start(self) -> None:
        """Create the schema if needed and start the writer thread."""
        self.create_schema()
        self.write_sync(self.store.house)
        self._thread = threading.Thread(target=self._writer, name="stud-db-writer", daemon=True)
        self._thread.start()
        if self.backend == "sqlite":
            self._checkpoints = threading.Thread(
                target=self._checkpointer, name="stud-db-checkpoint", daemon=True
            )
            self._checkpoints.start()

    def close(self) -> None:
        if self._thread is not None and not self._closed:
            self._closed = True
            self._queue.put(None)
            self._thread.join(timeout=10)
        self._stop.set()
        if self._checkpoints is not None:
            self._checkpoints.join(timeout=10)
        self.engine.dispose()
        self.write_engine.dispose()

    def _checkpointer(self) -> None:
        """Copy the SQLite WAL into the database now and then, beside the writer (PASSIVE).

        A passive checkpoint never waits, so readers that always overlap it can keep
        the WAL from being reused and it grows; past :data:`WAL_LIMIT_BYTES` a
        TRUNCATE checkpoint (which waits for them, within the busy timeout) empties it.
        """
        wal = self.wal_path()
        while not self._stop.wait(CHECKPOINT_SECONDS):
            try:
                big = wal is not None and wal.is_file() and wal.stat().st_size > WAL_LIMIT_BYTES
                mode = "TRUNCATE" if big else "PASSIVE"
                with self.engine.connect() as conn:
                    conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")
            except Exception:  # the next round tries again; the WAL keeps every commit
                log.exception("WAL checkpoint failed")

    def wal_path(self) -> Path | None:
        """The SQLite write-ahead log's file (None for PostgreSQL or an in-memory database)."""
        database = make_url(self.url).database if self.backend == "sqlite" else None
        if not database or database == ":memory:":
            return None
        return Path(database + "-wal")

    # -- running operations ----------------------------------------------------------------

    def write_sync(self, op: Callable[[Connection], T]) -> T:
        """Run ``op`` in its own transaction on the calling thread (startup, tests), as the
        writer thread runs a write (:meth:`_atomic`)."""
        with self.write_engine.connect() as connection, self._atomic(connection) as conn:
            result = op(conn)
            self.store.settle(conn)
        return result

    def _atomic(self, connection: Connection) -> contextlib.AbstractContextManager[Connection]:
        """A write transaction on ``connection``: on PostgreSQL sent as one pipeline
        (:func:`pipelined`), on SQLite a plain one."""
        if self.backend == "sqlite":
            return _plain(connection)
        return pipelined(connection, self.store.refusal)

    def read_sync(self, op: Callable[[Connection], T]) -> T:
        """Run ``op`` on one snapshot: every statement it makes sees the same commits.

        Without it each statement sees the database as it is when that statement
        runs, so a read of several (a balance and its history, the ledger by wallet
        and the house's own wallets) can mix two moments while the writer commits
        between them. SQLite (WAL) keeps the snapshot of a transaction's first read
        to its end; PostgreSQL's read connections run REPEATABLE READ.
        """
        with self.engine.connect() as conn:
            if self.backend == "sqlite":
                conn.exec_driver_sql("BEGIN")
            return op(conn)

    async def reachable(self) -> bool:
        """Whether the database answers a query now, within :data:`PROBE_SECONDS` (a health
        check's). An SQLite file locked by another process still answers reads: the tables
        waiting for their records tell that (``/api/health``)."""
        try:
            await asyncio.wait_for(
                self.read(lambda conn: conn.exec_driver_sql("SELECT 1")), PROBE_SECONDS
            )
        except Exception as error:
            if unavailable(error) or isinstance(error, asyncio.TimeoutError):
                return False
            raise
        return True

    def submit(self, op: Callable[[Connection], T]) -> Future[T]:
        """Queue a write for the writer thread; the future resolves once it committed."""
        future: Future[T] = Future()
        if self._thread is None or self._closed:
            future.set_exception(RuntimeError("the database writer is not running"))
            return future
        self._queue.put((op, future))
        return future

    async def write(self, op: Callable[[Connection], T]) -> T:
        """Run a write on the writer thread and wait until it is committed."""
        return await asyncio.wrap_future(self.submit(op))

    async def read(self, op: Callable[[Connection], T]) -> T:
        """Run a read on a worker thread so the event loop never waits on the disk."""
        return await asyncio.to_thread(self.read_sync, op)

    def _writer(self) -> None:
        try:
            while True:
                item = self._queue.get()
                if item is None:
                    return
                batch = [item]
                while len(batch) < self._batch_limit:
                    try:
                        more = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        self._run_batch(batch)
                        return
                    batch.append(more)
                self._run_batch(batch)
        finally:
            self._drop_connection()

    _connection: Connection | None = None
    """The writer thread's own connection, kept between transactions (None: open one)."""

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[Connection]:
        """A write transaction on the writer's kept connection.

        Taking a pooled connection and giving it back around every transaction (the
        pool's checks and its rollback on return) is work the writer, one thread, need
        not do per transaction: it keeps one (a hand's writes measured alone with
        cProfile, 1.13 ms of the writer's CPU before, 0.99 ms after). A transaction
        that fails drops it (it may be the connection that failed: a server restart, a
        session PostgreSQL ended) and the next opens a fresh one from the pool.
        """
        if self._connection is None:
            self._connection = self.write_engine.connect()
        connection = self._connection
        try:
            with self._atomic(connection):
                yield connection
        except BaseException:
            # Back to the pool, which checks it (SQLAlchemy already invalidated a connection
            # that was lost); the next transaction takes one from there.
            self._drop_connection()
            raise

    def _drop_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection.close()

    def _run_batch(self, batch: list[tuple[Op, Future[Any]]]) -> None:
        live = [(op, fut) for op, fut in batch if fut.set_running_or_notify_cancel()]
        if not live:
            return
        began = time.perf_counter()
        try:
            with self._transaction() as conn:
                results = [op(conn) for op, _ in live]
                self.store.settle(conn)
        except Exception as failure:
            # Something in the batch failed: run each write alone so only it fails (on a
            # fresh connection, if the kept one broke). Once the database itself is away
            # (it refused a connection, or a file stays locked past the busy timeout), the
            # rest fail at once with that error rather than each waiting as long again,
            # and every table holds its write and tries again later
            # (stud.server.actors.booking).
            lost = isinstance(failure, DBAPIError) and failure.connection_invalidated
            away: Exception | None = failure if unavailable(failure) and not lost else None
            for op, fut in live:
                if away is not None:
                    DB_WRITE_FAILURES.inc()
                    fut.set_exception(away)
                    continue
                began = time.perf_counter()
                try:
                    with self._transaction() as conn:
                        result = op(conn)
                        self.store.settle(conn)
                except Exception as error:
                    if isinstance(error, SQLAlchemyError | psycopg.Error | OSError):
                        DB_WRITE_FAILURES.inc()  # not a refusal (a fence, a short balance)
                    fut.set_exception(error)
                    away = error if unavailable(error) else None
                else:
                    DB_WRITE_SECONDS.observe(time.perf_counter() - began)
                    fut.set_result(result)
            return
        DB_WRITE_SECONDS.observe(time.perf_counter() - began)
        for (_, fut), result in zip(live, results, strict=True):
            fut.set_result(result)
