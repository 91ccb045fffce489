"""The chip ledger: every chip movement, and every balance as a sum over it.

Chips move only through :meth:`Ledger.post`, whose entries sum to zero: the
ledger's total never changes. Wallets are an account's ``cash`` (its balance),
``table`` (its stack at a table), ``pot`` (what it put into a hand) and, for the
house, ``pool`` (the tournaments' prize pools).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, func, insert, select, text

from stud.server.storage import schema as s
from stud.server.storage.accounts import Accounts
from stud.server.storage.writes import UNREAD, FencedWrites, insert_rows

# Built once: a statement made per call (``.values(...)``) costs more than running it, and a
# busy room stores two hands a second per hundred tables (bench/bench_server.py).
_INSERT_LEDGER = insert(s.ledger)
_LEDGER_COLUMNS = (
    "txn", "at", "account_id", "wallet", "table_id", "hand_id", "kind", "amount", "tournament_id"
)  # fmt: skip
_INSERT_LEDGER_ARRAYS = text(
    f"INSERT INTO ledger ({', '.join(_LEDGER_COLUMNS)}) SELECT * FROM unnest("
    "CAST(:txn AS TEXT[]), CAST(:at AS FLOAT8[]), CAST(:account_id AS BIGINT[]), "
    "CAST(:wallet AS TEXT[]), CAST(:table_id AS BIGINT[]), CAST(:hand_id AS BIGINT[]), "
    "CAST(:kind AS TEXT[]), CAST(:amount AS BIGINT[]), CAST(:tournament_id AS BIGINT[]))"
).execution_options(**{UNREAD: True})
"""A movement's ledger rows in one statement, a column per array (PostgreSQL)."""


class LedgerError(ValueError):
    """A chip movement that would break the books (unbalanced, or more than a wallet holds)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One leg of a chip movement: ``amount`` into (or, negative, out of) one wallet."""

    account_id: int
    wallet: str
    amount: int
    table_id: int | None = None
    hand_id: int | None = None
    tournament_id: int | None = None


def insert_ledger(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert ledger rows (:meth:`Ledger.rows`)."""
    insert_rows(conn, rows, _LEDGER_COLUMNS, _INSERT_LEDGER_ARRAYS, _INSERT_LEDGER)


def commit_entries(table_id: int, hand_id: int, commits: Mapping[int, int]) -> list[Entry]:
    """The entries that move chips from players' stacks into a hand's pot."""
    entries: list[Entry] = []
    for account_id, amount in commits.items():
        if amount:
            entries.append(Entry(account_id, "table", -amount, table_id, hand_id))
            entries.append(Entry(account_id, "pot", amount, table_id, hand_id))
    return entries


class Ledger(Accounts, FencedWrites):
    """The store's chip movements and balances (a part of :class:`stud.server.storage.Store`):
    the house's account is one side of grants and rake, and a movement at a table passes
    the table's fence."""

    def post(self, conn: Connection, kind: str, entries: Sequence[Entry]) -> str:
        """Record one chip movement; its entries must sum to zero. Returns the txn id."""
        txn, rows = self.rows(kind, entries)
        insert_ledger(conn, rows)
        return txn

    @staticmethod
    def rows(kind: str, entries: Sequence[Entry]) -> tuple[str, list[dict[str, Any]]]:
        """One chip movement's ledger rows (LedgerError unless its entries sum to zero)."""
        if sum(e.amount for e in entries) != 0:
            raise LedgerError(f"unbalanced {kind}: {entries!r}")
        txn = uuid.uuid4().hex
        now = time.time()
        rows = [
            {
                "txn": txn,
                "at": now,
                "account_id": e.account_id,
                "wallet": e.wallet,
                "table_id": e.table_id,
                "hand_id": e.hand_id,
                "kind": kind,
                "amount": e.amount,
                "tournament_id": e.tournament_id,
            }
            for e in entries
            if e.amount != 0
        ]
        return txn, rows

    def wallet(
        self, conn: Connection, account_id: int, wallet: str = "cash", table_id: int | None = None
    ) -> int:
        """The chips in one wallet: the sum of its ledger entries."""
        query = select(func.coalesce(func.sum(s.ledger.c.amount), 0)).where(
            and_(s.ledger.c.account_id == account_id, s.ledger.c.wallet == wallet)
        )
        if table_id is not None:
            query = query.where(s.ledger.c.table_id == table_id)
        return int(conn.execute(query).scalar_one())

    def balance(self, conn: Connection, account_id: int) -> int:
        return self.wallet(conn, account_id, "cash")

    def ledger_total(self, conn: Connection) -> int:
        """The sum of every entry: zero in a sound ledger, whatever happened."""
        return int(conn.execute(select(func.coalesce(func.sum(s.ledger.c.amount), 0))).scalar_one())

    def holdings(self, conn: Connection) -> dict[str, int]:
        """Chips by wallet kind across the room, for checks: cash, table, pot, house, and the
        tournaments' prize pools (``pool``, held by the house)."""
        house = self.house(conn)
        rows = conn.execute(
            select(s.ledger.c.wallet, func.sum(s.ledger.c.amount))
            .where(s.ledger.c.account_id != house)
            .group_by(s.ledger.c.wallet)
        ).all()
        out = {"cash": 0, "table": 0, "pot": 0, "house": self.wallet(conn, house, "cash")}
        out["pool"] = self.wallet(conn, house, "pool")
        for wallet, amount in rows:
            out[str(wallet)] += int(amount)
        return out

    def grant(self, conn: Connection, account_id: int, amount: int) -> None:
        """Play money from the house into an account's balance."""
        house = self.house(conn)
        self.post(
            conn,
            "grant",
            [Entry(house, "cash", -amount), Entry(account_id, "cash", amount)],
        )

    def buy_in(self, conn: Connection, account_id: int, table_id: int, amount: int) -> None:
        """Move chips from the balance to the table; LedgerError if the balance is short."""
        if amount <= 0:
            raise LedgerError("a buy-in is a positive amount")
        self._fenced(conn, table_id)
        self.lock_account(conn, account_id)
        if self.balance(conn, account_id) < amount:
            raise LedgerError("the balance is too small for that buy-in")
        self.post(
            conn,
            "buy_in",
            [
                Entry(account_id, "cash", -amount),
                Entry(account_id, "table", amount, table_id=table_id),
            ],
        )

    def cash_out(self, conn: Connection, account_id: int, table_id: int, amount: int) -> None:
        """Move a stack from the table back to the balance."""
        self._fenced(conn, table_id)
        held = self.wallet(conn, account_id, "table", table_id)
        if amount < 0 or amount > held:
            raise LedgerError(f"cash-out of {amount} but {held} at table {table_id}")
        self.post(
            conn,
            "cash_out",
            [
                Entry(account_id, "table", -amount, table_id=table_id),
                Entry(account_id, "cash", amount),
            ],
        )

    def table_stacks(
        self, conn: Connection, table_id: int | None = None
    ) -> dict[tuple[int, int], int]:
        """Chips in front of players: {(table_id, account_id): amount}, non-zero only."""
        query = select(
            s.ledger.c.table_id, s.ledger.c.account_id, func.sum(s.ledger.c.amount)
        ).where(s.ledger.c.wallet == "table")
        if table_id is not None:
            query = query.where(s.ledger.c.table_id == table_id)
        rows = conn.execute(query.group_by(s.ledger.c.table_id, s.ledger.c.account_id)).all()
        return {(int(t), int(a)): int(v) for t, a, v in rows if int(v) != 0}

    def pot_contributions(self, conn: Connection, hand_id: int) -> dict[int, int]:
        """What each account put into a hand's pot and is still there: {account_id: chips}."""
        rows = conn.execute(
            select(s.ledger.c.account_id, func.sum(s.ledger.c.amount))
            .where(and_(s.ledger.c.hand_id == hand_id, s.ledger.c.wallet == "pot"))
            .group_by(s.ledger.c.account_id)
        ).all()
        return {int(a): int(v) for a, v in rows if int(v) != 0}
