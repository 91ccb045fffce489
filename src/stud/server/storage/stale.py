"""End the write transactions of the room that wait on a stopped client past the bound.

PostgreSQL ends a write transaction left waiting for its client longer than
:data:`~stud.server.storage.database.IDLE_IN_TRANSACTION_SECONDS`, but only once it
has answered a whole request. A process stopped in the middle of a pipeline (a
SIGSTOP, a network pause, while the writer sends a transaction: each is one pipeline,
:func:`stud.server.storage.database.pipelined`) leaves a transaction waiting for the
pipeline's next message, which the timeout does not cover: it keeps its row locks
for as long as the pause lasts, among them the fence of a table or tournament
another process must lock to take it over. Measured: a tournament's takeover waited
on such a transaction for over a minute.

Each process of a shared room runs :func:`end_stale_writes` every
:data:`SWEEP_SECONDS` on a connection of its own (not the writer's: that one may be
the takeover waiting for the lock). It ends, with ``pg_terminate_backend``, the
room's write connections (by their ``application_name``) in a transaction and
waiting for their client for longer than the same bound. PostgreSQL rolls their
transactions back, as its own timeout would; a process that wakes finds its
connection closed and runs its write again, refused by the fence.
"""

from __future__ import annotations

import logging

from sqlalchemy import Connection, text

from stud.server.storage.database import IDLE_IN_TRANSACTION_SECONDS, WRITER_APPLICATION

log = logging.getLogger("stud.server")

SWEEP_SECONDS = 1.0
"""How often each process of a shared room looks for stale writes."""

_END_STALE = text(
    """
    SELECT pid, pg_terminate_backend(pid) AS ended
    FROM pg_stat_activity
    WHERE datname = current_database()
      AND pid <> pg_backend_pid()
      AND application_name = :application
      AND xact_start IS NOT NULL
      AND state <> 'idle'
      AND wait_event_type = 'Client'
      AND clock_timestamp() - state_change > make_interval(secs => :seconds)
    """
)


def end_stale_writes(
    conn: Connection,
    seconds: float = IDLE_IN_TRANSACTION_SECONDS,
    application: str = WRITER_APPLICATION,
) -> list[int]:
    """End the write transactions waiting on their client for more than ``seconds``; the
    server process ids ended (PostgreSQL only)."""
    rows = conn.execute(_END_STALE, {"application": application, "seconds": seconds}).all()
    ended = [int(row.pid) for row in rows if row.ended]
    if ended:
        log.warning(
            "ended %d write transaction(s) waiting on a stopped client for over %.0f s: %s",
            len(ended),
            seconds,
            ended,
        )
    return ended
