"""The room's storage: accounts, sessions, tables, hands and the chip ledger.

Every method takes an open connection inside a transaction, so the caller (the
:class:`~stud.server.storage.database.Database` writer) decides what commits
together. Chips move only through :meth:`Store.post`, whose entries sum to
zero: the ledger's total never changes, and every balance is a sum over it.
"""

from __future__ import annotations

import hashlib
import json
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import orjson
from sqlalchemy import Connection, Select, and_, bindparam, func, insert, select, text, update

from stud.server.storage import schema as s
from stud.table.settings import fields_of

HOUSE = "house"

# Built once: a statement made per call (``.values(...)``) costs more than running it, and a
# busy room stores two hands a second per hundred tables (bench/bench_server.py).
_INSERT_HAND = insert(s.hands)
_INSERT_HAND_PLAYERS = insert(s.hand_players)
_INSERT_LEDGER = insert(s.ledger)
_UPDATE_HAND = update(s.hands).where(s.hands.c.id == bindparam("hand_row"))

UNREAD = "stud_unread"
"""The execution option of a statement whose reply is not read (it fails the transaction or
is done): in a pipelined transaction (stud.server.storage.database) nothing waits for it."""
_LEDGER_COLUMNS = (
    "txn", "at", "account_id", "wallet", "table_id", "hand_id", "kind", "amount", "tournament_id"
)  # fmt: skip
_INSERT_LEDGER_ARRAYS = text(
    f"INSERT INTO ledger ({', '.join(_LEDGER_COLUMNS)}) SELECT * FROM unnest("
    "CAST(:txn AS TEXT[]), CAST(:at AS FLOAT8[]), CAST(:account_id AS BIGINT[]), "
    "CAST(:wallet AS TEXT[]), CAST(:table_id AS BIGINT[]), CAST(:hand_id AS BIGINT[]), "
    "CAST(:kind AS TEXT[]), CAST(:amount AS BIGINT[]), CAST(:tournament_id AS BIGINT[]))"
).execution_options(**{UNREAD: True})
"""A movement's ledger rows in one statement, a column per array (PostgreSQL): psycopg's
``executemany`` sends a message, and the writer gives up the interpreter's lock, per row."""
_INSERT_HAND_PLAYERS_ARRAYS = text(
    "INSERT INTO hand_players (hand_id, account_id) "
    "SELECT * FROM unnest(CAST(:hand_id AS BIGINT[]), CAST(:account_id AS BIGINT[]))"
).execution_options(**{UNREAD: True})
"""A hand's players in one statement, the same way."""


def _insert(
    conn: Connection,
    rows: Sequence[Mapping[str, Any]],
    columns: Sequence[str],
    arrays: Any,
    each: Any,
) -> None:
    """Insert ``rows``: on PostgreSQL in one statement of a column per array (``arrays``),
    elsewhere row by row (``each``)."""
    if rows and conn.dialect.name == "postgresql":
        conn.execute(arrays, {c: [row[c] for row in rows] for c in columns})
    elif rows:
        conn.execute(each, list(rows))


def insert_ledger(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert ledger rows (:meth:`Store._rows`)."""
    _insert(conn, rows, _LEDGER_COLUMNS, _INSERT_LEDGER_ARRAYS, _INSERT_LEDGER)


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


class LedgerError(ValueError):
    """A chip movement that would break the books (unbalanced, or more than a wallet holds)."""


@dataclass(frozen=True, slots=True)
class Account:
    id: int
    name: str
    kind: str  # user, guest, bot, house

    def public(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "kind": self.kind}


@dataclass(frozen=True, slots=True)
class Entry:
    """One leg of a chip movement: ``amount`` into (or, negative, out of) one wallet."""

    account_id: int
    wallet: str
    amount: int
    table_id: int | None = None
    hand_id: int | None = None
    tournament_id: int | None = None


PUBLIC_SPEC = (
    "id", "name", "game", "ante", "bring_in", "small_bet", "big_bet", "seats", "bots",
    "min_buy_in", "max_buy_in", "rake_percent", "rake_cap", "bot_kind",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A table of the room as stored: its game, stakes, size and how many seats bots may fill."""

    name: str
    game: str
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    seats: int
    bots: int
    min_buy_in: int
    max_buy_in: int
    id: int = 0
    rake_percent: float = 0.0
    """The house's cut of each pot, in percent (rounded down to a chip)."""
    rake_cap: int | None = None
    """At most this much rake per hand (None: no cap)."""
    bot_kind: str = "strong"
    """Which of :mod:`stud.bots` fills the table's empty seats."""
    created_by: int | None = None
    """The account that opened the table (None: the room's own); it may close it."""

    def public(self) -> dict[str, Any]:
        """The table as the lobby lists it."""
        return fields_of(self, PUBLIC_SPEC)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _row_account(row: Any) -> Account:
    return Account(id=int(row.id), name=str(row.name), kind=str(row.kind))


def _hand_list_select() -> Select[Any]:
    """The columns of a hand in a list (no players, no summary): newest first."""
    return select(
        s.hands.c.id,
        s.hands.c.table_id,
        s.hands.c.number,
        s.hands.c.game,
        s.hands.c.status,
        s.hands.c.started_at,
        s.hands.c.finished_at,
        s.hands.c.pot,
    ).order_by(s.hands.c.id.desc())


class Fence(Protocol):
    """Checks, inside a write's transaction, that this process still runs a table (else
    raises): at once, or when :meth:`settle` is called, just before the transaction commits
    (stud.server.storage.fences). The check :meth:`settle` sends may fail the transaction
    only when it commits (its reply is not waited for): :meth:`refusal` says what such a
    failure means."""

    def __call__(self, conn: Connection, table_id: int) -> None: ...

    def settle(self, conn: Connection) -> None: ...

    def refusal(self, error: BaseException) -> Exception | None: ...


class Store:
    """Storage operations; stateless apart from the cached house account id.

    ``fence``, when set (several processes share the room: stud.server.cluster),
    is called with the table's id at the start of every write that moves chips at
    a table or records its hands, and settled (:meth:`settle`) before the
    transaction commits: a process that lost the table's lease cannot write for
    it any more.
    """

    def __init__(self) -> None:
        self._house_id: int | None = None
        self.fence: Fence | None = None

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

    # -- accounts and sessions -------------------------------------------------------------

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

    # -- the ledger ------------------------------------------------------------------------

    def post(self, conn: Connection, kind: str, entries: Sequence[Entry]) -> str:
        """Record one chip movement; its entries must sum to zero. Returns the txn id."""
        txn, rows = self._rows(kind, entries)
        insert_ledger(conn, rows)
        return txn

    @staticmethod
    def _rows(kind: str, entries: Sequence[Entry]) -> tuple[str, list[dict[str, Any]]]:
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
        # Lock the account's row until this transaction ends: another process buying
        # the same account in at once waits, then sees the balance this one leaves
        # (PostgreSQL; SQLite has a single writer anyway).
        conn.execute(select(s.accounts.c.id).where(s.accounts.c.id == account_id).with_for_update())
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

    # -- tables ----------------------------------------------------------------------------

    def create_table(self, conn: Connection, spec: TableSpec, created_by: int | None) -> TableSpec:
        values = spec.public()
        del values["id"]
        result = conn.execute(
            insert(s.room_tables).values(
                **values, created_by=created_by, created_at=time.time(), closed=False
            )
        )
        pk = result.inserted_primary_key
        assert pk is not None
        return TableSpec(**{**values, "id": int(pk[0]), "created_by": created_by})

    def close_table(self, conn: Connection, table_id: int) -> None:
        """Mark a table closed: it is not opened again at the next start."""
        self._fenced(conn, table_id)
        conn.execute(
            update(s.room_tables).where(s.room_tables.c.id == table_id).values(closed=True)
        )

    def open_tables(self, conn: Connection, only: Iterable[int] | None = None) -> list[TableSpec]:
        """The tables not closed (``only``: those of them with these ids), by id."""
        query = select(s.room_tables).where(s.room_tables.c.closed.is_(False))
        if only is not None:
            query = query.where(s.room_tables.c.id.in_(list(only)))
        rows = conn.execute(query.order_by(s.room_tables.c.id)).all()
        fields = TableSpec.__dataclass_fields__
        return [TableSpec(**{k: row._mapping[k] for k in fields}) for row in rows]

    def open_table_ids(self, conn: Connection) -> list[int]:
        """The ids of the tables not closed, in order."""
        query = select(s.room_tables.c.id).where(s.room_tables.c.closed.is_(False))
        return [int(t) for t in conn.execute(query.order_by(s.room_tables.c.id)).scalars()]

    # -- hands -----------------------------------------------------------------------------

    def last_hand_numbers(self, conn: Connection) -> dict[int, int]:
        """Each table's highest hand number so far, so a restarted table numbers on from it."""
        rows = conn.execute(
            select(s.hands.c.table_id, func.max(s.hands.c.number)).group_by(s.hands.c.table_id)
        ).all()
        return {int(table): int(number) for table, number in rows}

    def start_hand(
        self,
        conn: Connection,
        table_id: int,
        number: int,
        game: str,
        players: Sequence[Mapping[str, Any]],
    ) -> int:
        """Record a hand as running before any chip goes in, so a restart can void it."""
        self._fenced(conn, table_id)
        result = conn.execute(
            _INSERT_HAND,
            {
                "table_id": table_id,
                "number": number,
                "game": game,
                "status": "running",
                "started_at": time.time(),
                "pot": 0,
                "players": json_text(list(players)),
            },
        )
        pk = result.inserted_primary_key
        assert pk is not None
        hand_id = int(pk[0])
        ids = sorted({int(p["account_id"]) for p in players})
        if ids:
            rows = [{"hand_id": hand_id, "account_id": a} for a in ids]
            columns = ("hand_id", "account_id")
            _insert(conn, rows, columns, _INSERT_HAND_PLAYERS_ARRAYS, _INSERT_HAND_PLAYERS)
        return hand_id

    def commit_chips(
        self, conn: Connection, table_id: int, hand_id: int, commits: Mapping[int, int]
    ) -> None:
        """Chips go from players' stacks into the hand's pot: {account_id: amount}."""
        self._fenced(conn, table_id)
        entries = _commit_entries(table_id, hand_id, commits)
        if entries:
            self.post(conn, "commit", entries)

    def pot_contributions(self, conn: Connection, hand_id: int) -> dict[int, int]:
        rows = conn.execute(
            select(s.ledger.c.account_id, func.sum(s.ledger.c.amount))
            .where(and_(s.ledger.c.hand_id == hand_id, s.ledger.c.wallet == "pot"))
            .group_by(s.ledger.c.account_id)
        ).all()
        return {int(a): int(v) for a, v in rows if int(v) != 0}

    def finish_hand(
        self,
        conn: Connection,
        table_id: int,
        hand_id: int,
        payouts: Mapping[int, int],
        rake: int,
        summary: Mapping[str, Any],
        played: str | None,
        *,
        committed: Mapping[int, int] | None = None,
    ) -> None:
        """Pay the pot out (winners' stacks, rake to the house) and store the hand's record.

        ``played`` is the hand as played (:mod:`stud.history.played`): its histories are
        written from it when asked for (:mod:`stud.server.http.histories`).

        The pot held in the ledger must equal what is paid out, so a result that
        does not add up is refused rather than minting or losing chips.
        ``committed`` ({account_id: chips}) is the pot when its chips are not in
        the ledger yet: they are posted here, as :meth:`commit_chips` would post
        them, in the same statement as the payout (the table's actor keeps a
        hand's chips in memory until it ends, then stores it all at once).
        """
        self._fenced(conn, table_id)
        rows: list[dict[str, Any]] = []
        if committed is None:
            contributions = self.pot_contributions(conn, hand_id)
        else:
            contributions = {a: v for a, v in committed.items() if v}
            rows += self._rows("commit", _commit_entries(table_id, hand_id, contributions))[1]
        pot = sum(contributions.values())
        if pot != sum(payouts.values()) + rake:
            raise LedgerError(
                f"hand {hand_id}: pot {pot} but payouts {dict(payouts)} + rake {rake}"
            )
        entries = [Entry(a, "pot", -v, table_id, hand_id) for a, v in contributions.items()]
        entries += [Entry(a, "table", v, table_id, hand_id) for a, v in payouts.items()]
        if rake:
            entries.append(Entry(self.house(conn), "cash", rake, table_id, hand_id))
        rows += self._rows("pot_won", entries)[1]
        insert_ledger(conn, rows)
        record = {
            "hand_row": hand_id,
            "status": "finished",
            "finished_at": time.time(),
            "pot": pot,
            "summary": json_text(summary),
            "played": played,
        }
        conn.execute(_UPDATE_HAND, record)

    def void_hand(self, conn: Connection, hand_id: int) -> dict[int, int]:
        """Give every chip back to whoever put it in, and mark the hand void."""
        row = conn.execute(select(s.hands.c.table_id).where(s.hands.c.id == hand_id)).first()
        if row is None:
            raise ValueError(f"no hand {hand_id}")
        table_id = int(row.table_id)
        contributions = self.pot_contributions(conn, hand_id)
        entries = [Entry(a, "pot", -v, table_id, hand_id) for a, v in contributions.items()]
        entries += [Entry(a, "table", v, table_id, hand_id) for a, v in contributions.items()]
        self.post(conn, "void_refund", entries)
        conn.execute(
            update(s.hands)
            .where(s.hands.c.id == hand_id)
            .values(status="void", finished_at=time.time())
        )
        return contributions

    def recover(
        self, conn: Connection, table_id: int | None = None, *, keep_people: bool = False
    ) -> dict[str, int]:
        """After a crash or stop: void running hands, then cash every table stack out.

        Tables start empty after a restart, so the chips in front of each player
        go back to their balance; what went into a voided pot goes back first.
        With ``table_id``, only that table's (a table another process takes over);
        with ``keep_people`` too, only the bots' stacks are cashed out: the people's
        stay at the table, where the new owner seats them again.
        """
        query = select(s.hands.c.id).where(s.hands.c.status == "running")
        if table_id is not None:
            query = query.where(s.hands.c.table_id == table_id)
        running = conn.execute(query).all()
        refunded = 0
        for (hand_id,) in running:
            refunded += sum(self.void_hand(conn, int(hand_id)).values())
        cashed = kept = 0
        stacks = self.table_stacks(conn, table_id)
        bots: set[int] = set()
        if keep_people and stacks:
            holders = {account for _, account in stacks}
            bots = set(
                conn.execute(
                    select(s.accounts.c.id).where(
                        s.accounts.c.id.in_(holders), s.accounts.c.kind == "bot"
                    )
                ).scalars()
            )
        for (table, account_id), amount in stacks.items():
            if amount > 0 and keep_people and account_id not in bots:
                kept += amount
            elif amount > 0:
                self.cash_out(conn, account_id, table, amount)
                cashed += amount
        done = {"voided": len(running), "refunded": refunded, "cashed_out": cashed}
        return {**done, "kept": kept} if keep_people else done

    def hands_for_table(
        self, conn: Connection, table_id: int, limit: int = 50
    ) -> list[dict[str, Any]]:
        rows = conn.execute(
            _hand_list_select().where(s.hands.c.table_id == table_id).limit(limit)
        ).all()
        return [dict(r._mapping) for r in rows]

    def hands_for_account(
        self, conn: Connection, account_id: int, limit: int = 50
    ) -> list[dict[str, Any]]:
        """The account's hands, newest first, each with ``net``: the chips it won (or lost).

        ``net`` is the sum of the hand's ledger entries on the account's table
        stack: what it put in (negative), what it took from the pot, a void
        hand's refund; and ``table_name``.
        """
        ledger = s.ledger.c
        net = (
            select(func.coalesce(func.sum(ledger.amount), 0))
            .where(
                and_(
                    ledger.hand_id == s.hands.c.id,
                    ledger.account_id == account_id,
                    ledger.wallet == "table",
                )
            )
            .scalar_subquery()
        )
        rows = conn.execute(
            _hand_list_select()
            .add_columns(net.label("net"), s.room_tables.c.name.label("table_name"))
            .join(s.hand_players, s.hand_players.c.hand_id == s.hands.c.id)
            .join(s.room_tables, s.room_tables.c.id == s.hands.c.table_id)
            .where(s.hand_players.c.account_id == account_id)
            .limit(limit)
        ).all()
        return [{**r._mapping, "net": int(r.net)} for r in rows]

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

    def hand(self, conn: Connection, hand_id: int) -> dict[str, Any] | None:
        row = conn.execute(select(s.hands).where(s.hands.c.id == hand_id)).first()
        if row is None:
            return None
        out = dict(row._mapping)
        out["players"] = json.loads(out["players"])
        out["summary"] = json.loads(out["summary"]) if out["summary"] else None
        return out

    def table_stats(
        self, conn: Connection, table_ids: Iterable[int], since: float
    ) -> dict[int, dict[str, float]]:
        """Average pot and hands per hour over finished hands since ``since``, for the lobby."""
        ids = list(table_ids)
        if not ids:
            return {}
        rows = conn.execute(
            select(
                s.hands.c.table_id,
                func.count(),
                func.avg(s.hands.c.pot),
                func.min(s.hands.c.started_at),
            )
            .where(
                and_(
                    s.hands.c.table_id.in_(ids),
                    s.hands.c.status == "finished",
                    s.hands.c.started_at >= since,
                )
            )
            .group_by(s.hands.c.table_id)
        ).all()
        now = time.time()
        out: dict[int, dict[str, float]] = {}
        for table_id, count, avg_pot, first in rows:
            hours = max((now - float(first)) / 3600.0, 1 / 60)
            out[int(table_id)] = {
                "hands": float(count),
                "average_pot": float(avg_pot or 0),
                "hands_per_hour": float(count) / hours,
            }
        return out


def _commit_entries(table_id: int, hand_id: int, commits: Mapping[int, int]) -> list[Entry]:
    """The entries that move chips from players' stacks into a hand's pot."""
    entries: list[Entry] = []
    for account_id, amount in commits.items():
        if amount:
            entries.append(Entry(account_id, "table", -amount, table_id, hand_id))
            entries.append(Entry(account_id, "pot", amount, table_id, hand_id))
    return entries
