"""Hands in storage: each hand of a cash table, from dealt (``running``) to ``finished`` or
``void``; its players, its result and the hand as played; and recovery after a stop.

A hand is recorded as running before any chip goes in, so a restart finds it and gives
every chip back (:meth:`Hands.recover`); its chips reach the ledger with its result.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Select, and_, bindparam, func, insert, select, text, update

from stud.server.storage import schema as s
from stud.server.storage.ledger import Entry, Ledger, LedgerError, commit_entries, insert_ledger
from stud.server.storage.writes import UNREAD, insert_rows, json_text

# Built once: a statement made per call (``.values(...)``) costs more than running it, and a
# busy room stores two hands a second per hundred tables (bench/bench_server.py).
_INSERT_HAND = insert(s.hands)
_INSERT_HAND_PLAYERS = insert(s.hand_players)
_UPDATE_HAND = update(s.hands).where(s.hands.c.id == bindparam("hand_row"))
_INSERT_HAND_PLAYERS_ARRAYS = text(
    "INSERT INTO hand_players (hand_id, account_id) "
    "SELECT * FROM unnest(CAST(:hand_id AS BIGINT[]), CAST(:account_id AS BIGINT[]))"
).execution_options(**{UNREAD: True})
"""A hand's players in one statement, a column per array (PostgreSQL)."""


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


class Hands(Ledger):
    """The store's hands (a part of :class:`stud.server.storage.Store`): a hand's chips move
    through the ledger, and every write for a table's hand passes the table's fence."""

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
            insert_rows(conn, rows, columns, _INSERT_HAND_PLAYERS_ARRAYS, _INSERT_HAND_PLAYERS)
        return hand_id

    def hand_numbered(self, conn: Connection, table_id: int, number: int) -> int | None:
        """The id of the table's hand of that number, if it is stored."""
        found = conn.execute(
            select(s.hands.c.id)
            .where(and_(s.hands.c.table_id == table_id, s.hands.c.number == number))
            .order_by(s.hands.c.id.desc())
            .limit(1)
        ).scalar()
        return None if found is None else int(found)

    def booked(
        self,
        conn: Connection,
        table_id: int,
        kind: str,
        data: Mapping[str, Any],
        hand_id: int | None,
    ) -> bool:
        """Whether a table's effect (``hand_started``, ``hand_finished``, ``cash_out``) is
        stored already: asked before a write that failed is tried again, since a commit whose
        reply was lost with its connection may have gone through (the table's actor books
        each step in one transaction: all of it is stored, or none)."""
        if kind == "hand_started":
            return self.hand_numbered(conn, table_id, int(data["number"])) is not None
        if kind == "hand_finished":
            status = conn.execute(select(s.hands.c.status).where(s.hands.c.id == hand_id)).scalar()
            return status == "finished"
        if kind == "cash_out":
            # The stack held at the table is the amount until it is cashed out, then nothing
            # (no chip reaches that table's wallet while the step waits to be booked).
            held = self.wallet(conn, int(data["account_id"]), "table", table_id)
            return held == 0 and int(data["amount"]) > 0
        return False

    def commit_chips(
        self, conn: Connection, table_id: int, hand_id: int, commits: Mapping[int, int]
    ) -> None:
        """Chips go from players' stacks into the hand's pot: {account_id: amount}."""
        self._fenced(conn, table_id)
        entries = commit_entries(table_id, hand_id, commits)
        if entries:
            self.post(conn, "commit", entries)

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
            rows += self.rows("commit", commit_entries(table_id, hand_id, contributions))[1]
        pot = sum(contributions.values())
        if pot != sum(payouts.values()) + rake:
            raise LedgerError(
                f"hand {hand_id}: pot {pot} but payouts {dict(payouts)} + rake {rake}"
            )
        entries = [Entry(a, "pot", -v, table_id, hand_id) for a, v in contributions.items()]
        entries += [Entry(a, "table", v, table_id, hand_id) for a, v in payouts.items()]
        if rake:
            entries.append(Entry(self.house(conn), "cash", rake, table_id, hand_id))
        rows += self.rows("pot_won", entries)[1]
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
            bots = self.bots_among(conn, {account for _, account in stacks})
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
