"""Accounts in storage: people, guests, bots and the house; their sessions and language.

Names are unique without regard to case; a session is stored as its token's hash.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, func, insert, select, update

from stud.server.storage import schema as s

HOUSE = "house"


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    kind: str  # user, guest, bot, house

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "kind": self.kind}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _row_account(row: Any) -> Account:
    return Account(id=int(row.id), name=str(row.name), kind=str(row.kind))


class Accounts:
    """The store's accounts and sessions (a part of :class:`stud.server.storage.Store`);
    stateless apart from the cached house account id."""

    _house_id: int | None = None

    def create_account(
        self, conn: Connection, name: str, kind: str, password_hash: str | None = None
    ) -> Account:
        """Insert an account; a taken name raises ValueError.

        Names are unique without regard to case: ``ALICE`` is ``alice``'s name.
        """
        if self.account_by_name(conn, name) is not None:
            raise ValueError(f"the name {name!r} is taken")
        result = conn.execute(
            insert(s.accounts).values(
                name=name, kind=kind, password_hash=password_hash, created_at=time.time()
            )
        )
        pk = result.inserted_primary_key
        assert pk is not None
        return Account(id=int(pk[0]), name=name, kind=kind)

    def account(self, conn: Connection, account_id: int) -> Account | None:
        row = conn.execute(select(s.accounts).where(s.accounts.c.id == account_id)).first()
        return None if row is None else _row_account(row)

    def account_by_name(self, conn: Connection, name: str) -> tuple[Account, str | None] | None:
        """The account and its password hash, for logging in; the name matched without case.

        Names are ASCII (see stud.server.trust.names), so SQL's ``lower`` folds them as
        Python does, on SQLite and PostgreSQL alike; the oldest account wins in a
        database made before names were unique without case.
        """
        row = conn.execute(
            select(s.accounts)
            .where(func.lower(s.accounts.c.name) == name.lower())
            .order_by(s.accounts.c.id)
        ).first()
        return None if row is None else (_row_account(row), row.password_hash)

    def accounts_of_kind(self, conn: Connection, kind: str) -> list[Account]:
        rows = conn.execute(
            select(s.accounts).where(s.accounts.c.kind == kind).order_by(s.accounts.c.id)
        ).all()
        return [_row_account(row) for row in rows]

    def bots_among(self, conn: Connection, account_ids: Iterable[int]) -> set[int]:
        """Which of ``account_ids`` are bots' accounts."""
        return set(
            conn.execute(
                select(s.accounts.c.id).where(
                    s.accounts.c.id.in_(list(account_ids)), s.accounts.c.kind == "bot"
                )
            ).scalars()
        )

    def lock_account(self, conn: Connection, account_id: int) -> None:
        """Lock the account's row until this transaction ends: another process moving the
        same account's chips at once waits, then sees the balance this one leaves
        (PostgreSQL; SQLite has a single writer anyway)."""
        conn.execute(select(s.accounts.c.id).where(s.accounts.c.id == account_id).with_for_update())

    def house(self, conn: Connection) -> int:
        """The house account's id, created on first use."""
        if self._house_id is not None:
            return self._house_id
        found = self.account_by_name(conn, HOUSE)
        if found is None:
            # Not cached: this transaction may yet roll back (Database.start makes it first).
            return self.create_account(conn, HOUSE, "house").id
        self._house_id = found[0].id
        return self._house_id

    def upgrade_guest(
        self, conn: Connection, account_id: int, name: str, password_hash: str
    ) -> Account:
        """A guest becomes a registered user in place: same id, so same chips and hands.

        ValueError if the account is not a guest or the name is taken.
        """
        found = self.account(conn, account_id)
        if found is None or found.kind != "guest":
            raise ValueError("only a guest account can be registered in place")
        if self.account_by_name(conn, name) is not None:
            raise ValueError(f"the name {name!r} is taken")
        conn.execute(
            update(s.accounts)
            .where(s.accounts.c.id == account_id)
            .values(name=name, password_hash=password_hash, kind="user")
        )
        return Account(id=account_id, name=name, kind="user")

    # -- sessions --------------------------------------------------------------------------

    def create_session(self, conn: Connection, account_id: int, token: str, ttl: float) -> None:
        now = time.time()
        conn.execute(
            insert(s.sessions).values(
                token_hash=token_hash(token),
                account_id=account_id,
                created_at=now,
                expires_at=now + ttl,
            )
        )

    def session_account(self, conn: Connection, token: str) -> Account | None:
        row = conn.execute(
            select(s.accounts)
            .join(s.sessions, s.sessions.c.account_id == s.accounts.c.id)
            .where(
                and_(
                    s.sessions.c.token_hash == token_hash(token),
                    s.sessions.c.expires_at > time.time(),
                )
            )
        ).first()
        return None if row is None else _row_account(row)

    def delete_session(self, conn: Connection, token: str) -> None:
        conn.execute(s.sessions.delete().where(s.sessions.c.token_hash == token_hash(token)))


# -- the language an account chose for the browser client (stud.server.http.language) -----


def account_language(conn: Connection, account_id: int) -> str | None:
    """The language stored for an account, if any."""
    return conn.execute(
        select(s.accounts.c.language).where(s.accounts.c.id == account_id)
    ).scalar_one_or_none()


def set_account_language(conn: Connection, account_id: int, language: str) -> None:
    conn.execute(update(s.accounts).where(s.accounts.c.id == account_id).values(language=language))
