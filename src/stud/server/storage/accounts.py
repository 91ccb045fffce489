"""Accounts in storage: people, guests, bots and the house; their sessions and language.

Names are unique by their key (:func:`stud.server.trust.names.name_key`: without case,
width or look-alike characters), stored beside them; a session is stored as its token's hash.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, insert, select, update

from stud.server.storage import schema as s
from stud.server.trust.names import name_key

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

        Names are unique by their key: ``ALICE`` and ``Аlice`` (Cyrillic) are ``alice``'s name.
        """
        if self.account_by_name(conn, name) is not None:
            raise ValueError(f"the name {name!r} is taken")
        result = conn.execute(
            insert(s.accounts).values(
                name=name,
                name_key=name_key(name),
                kind=kind,
                password_hash=password_hash,
                created_at=time.time(),
            )
        )
        pk = result.inserted_primary_key
        assert pk is not None
        return Account(id=int(pk[0]), name=name, kind=kind)

    def account(self, conn: Connection, account_id: int) -> Account | None:
        row = conn.execute(select(s.accounts).where(s.accounts.c.id == account_id)).first()
        return None if row is None else _row_account(row)

    def account_by_name(self, conn: Connection, name: str) -> tuple[Account, str | None] | None:
        """The account and its password hash, for logging in; matched by the name's key.

        A database made before keys were skeletons may hold two accounts with one key
        (``bob1`` and ``bobl``): the one spelled exactly as given wins, else the oldest.
        """
        row = conn.execute(
            select(s.accounts)
            .where(s.accounts.c.name_key == name_key(name))
            .order_by((s.accounts.c.name == name).desc(), s.accounts.c.id)
        ).first()
        return None if row is None else (_row_account(row), row.password_hash)

    def fill_name_keys(self, conn: Connection) -> None:
        """Key the accounts stored without one (made before the key was kept, or under an
        older rule): what the schema's upgrade runs, so their owners still log in."""
        rows = conn.execute(select(s.accounts.c.id, s.accounts.c.name, s.accounts.c.name_key)).all()
        for row in rows:
            key = name_key(str(row.name))
            if row.name_key != key:
                conn.execute(
                    update(s.accounts).where(s.accounts.c.id == row.id).values(name_key=key)
                )

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
            .values(name=name, name_key=name_key(name), password_hash=password_hash, kind="user")
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

    def session(self, conn: Connection, token: str) -> tuple[Account, float, float] | None:
        """The account of a live session, when it began and when it ends (unless used)."""
        row = conn.execute(
            select(s.accounts, s.sessions.c.created_at, s.sessions.c.expires_at)
            .join(s.sessions, s.sessions.c.account_id == s.accounts.c.id)
            .where(
                and_(
                    s.sessions.c.token_hash == token_hash(token),
                    s.sessions.c.expires_at > time.time(),
                )
            )
        ).first()
        if row is None:
            return None
        return _row_account(row), float(row.created_at), float(row.expires_at)

    def session_account(self, conn: Connection, token: str) -> Account | None:
        found = self.session(conn, token)
        return None if found is None else found[0]

    def extend_session(self, conn: Connection, token: str, expires_at: float) -> None:
        """A session in use: it now ends at ``expires_at`` (its idle deadline)."""
        conn.execute(
            update(s.sessions)
            .where(s.sessions.c.token_hash == token_hash(token))
            .values(expires_at=expires_at)
        )

    def delete_session(self, conn: Connection, token: str) -> None:
        conn.execute(s.sessions.delete().where(s.sessions.c.token_hash == token_hash(token)))

    def delete_sessions(self, conn: Connection, account_id: int) -> int:
        """End every session of an account (log out everywhere); how many there were."""
        result = conn.execute(s.sessions.delete().where(s.sessions.c.account_id == account_id))
        return int(result.rowcount or 0)


# -- the language an account chose for the browser client (stud.server.http.language) -----


def account_language(conn: Connection, account_id: int) -> str | None:
    """The language stored for an account, if any."""
    return conn.execute(
        select(s.accounts.c.language).where(s.accounts.c.id == account_id)
    ).scalar_one_or_none()


def mucks_losing_hands(conn: Connection, account_id: int) -> bool:
    """Whether the account mucks a hand that cannot win at a showdown (the default)."""
    value = conn.execute(
        select(s.accounts.c.muck_losing_hands).where(s.accounts.c.id == account_id)
    ).scalar_one_or_none()
    return value is None or bool(value)


def set_mucks_losing_hands(conn: Connection, account_id: int, on: bool) -> None:
    table = s.accounts
    conn.execute(update(table).where(table.c.id == account_id).values(muck_losing_hands=on))


def set_account_language(conn: Connection, account_id: int, language: str) -> None:
    conn.execute(update(s.accounts).where(s.accounts.c.id == account_id).values(language=language))
