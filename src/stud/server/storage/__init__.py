"""Storage for the card room: every SQL statement of the room, one code path for SQLite
(the default) and PostgreSQL.

``schema`` declares the tables; ``database`` holds the engine and the one writer thread;
``store`` is the object callers hold, made of ``accounts`` (and sessions), ``ledger``,
``tables`` and ``hands``; ``imports`` holds an account's own imported hands, ``tourneys``
tournaments, ``fences`` a shared room's fencing tokens; ``stale`` ends a dead writer's
transactions; ``passwords`` hashes them; ``topups`` gives free play chips to an account that
ran low.
"""

from __future__ import annotations

from stud.server.storage.accounts import Account
from stud.server.storage.database import Database, make_engine, resolve_url
from stud.server.storage.ledger import Entry, LedgerError
from stud.server.storage.passwords import hash_password, verify_password
from stud.server.storage.store import Store
from stud.server.storage.tables import TableSpec

__all__ = [
    "Account",
    "Database",
    "Entry",
    "LedgerError",
    "Store",
    "TableSpec",
    "hash_password",
    "make_engine",
    "resolve_url",
    "verify_password",
]
