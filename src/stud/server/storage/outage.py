"""Which write failures mean "the database cannot take a write now" (and will again).

A stopped or restarting PostgreSQL, a connection it ended, a network cut, or an SQLite
file another process keeps locked past the busy timeout: the write did not happen (or,
for a commit whose reply was lost, may have), and the same write can be tried again
later. Anything else (a refused chip movement, a fenced write, a bug) is not an
outage and is not retried. The table's actor holds what it cannot book while this
says so (stud.server.actors.booking).
"""

from __future__ import annotations

import sqlite3

import psycopg
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError

SQLITE_TRANSIENT = ("locked", "busy", "disk i/o error", "unable to open database file")
"""Words of an SQLite error that passes: another process holds the file, or the disk hiccups."""


def unavailable(error: BaseException) -> bool:
    """Whether ``error`` (raised by a read or write) means the database is out of reach for
    now: the same operation may succeed once it is back."""
    if isinstance(error, DBAPIError):
        if error.connection_invalidated:
            return True
        error = error.orig if error.orig is not None else error
    if isinstance(error, sqlite3.OperationalError):
        message = str(error).lower()
        return any(words in message for words in SQLITE_TRANSIENT)
    if isinstance(error, psycopg.OperationalError | psycopg.InterfaceError):
        return True
    return isinstance(error, OperationalError | InterfaceError | ConnectionError | TimeoutError)
