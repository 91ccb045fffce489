"""Storage for the card room: one code path for SQLite (the default) and PostgreSQL."""

from __future__ import annotations

from stud.server.storage.database import Database, make_engine, resolve_url
from stud.server.storage.passwords import hash_password, verify_password
from stud.server.storage.store import Account, Entry, LedgerError, Store, TableSpec

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
