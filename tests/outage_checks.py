"""What the outage tests check after each fault, and how they measure it (issue 34).

A fault (PostgreSQL stopped, an SQLite file locked) is injected while bots play on every
table and one person sits out; during it that person leaves. After it: every seat's
stack, with what it put into the hand in play, equals the ledger's; no hand row is left
``running`` behind its table; the person was cashed out exactly once; every table plays
on; no hand was voided. :class:`Trial` is what one fault measured.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from sqlalchemy import Connection, func, select

from stud.server.storage import Database
from stud.server.storage import schema as s
from stud.testing.server import Client

ARGS = (
    "--turn-seconds", "5", "--time-bank", "1", "--pause", "0.2", "--bot-delay", "0.01", "0.05",
    "--no-default-tournaments", "--seed", "11",
)  # fmt: skip
"""Six default tables of bots, playing fast; no tournament."""


@dataclass
class Trial:
    """One fault as a test measured it."""

    fault: str
    seconds: float
    tables: int
    waiting: int = 0
    """Tables that reported waiting for their records during the fault."""
    mismatches: list[str] = field(default_factory=list)
    stale_running: list[str] = field(default_factory=list)
    voided: int = 0
    recovered_after: float = 0.0
    """Seconds from the database's return to every table having finished a hand again."""

    def line(self) -> str:
        return (
            f"{self.fault}: {self.tables} tables, {self.waiting} waited; "
            f"{len(self.mismatches)} seat mismatches, {len(self.stale_running)} stale running "
            f"hands, {self.voided} voided; every table played again "
            f"{self.recovered_after:.1f} s after the database came back"
        )


def health(base: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(base + "/api/health", timeout=15).json()
    return data


def ready_status(base: str) -> int:
    return httpx.get(base + "/api/health/ready", timeout=15).status_code


def table_ids(base: str) -> list[int]:
    return sorted(int(t["id"]) for t in httpx.get(base + "/api/tables", timeout=15).json())


def finished_hands(db: Database) -> dict[int, int]:
    """Finished hands per table."""

    def read(conn: Connection) -> dict[int, int]:
        rows = conn.execute(
            select(s.hands.c.table_id, func.count())
            .where(s.hands.c.status == "finished")
            .group_by(s.hands.c.table_id)
        ).all()
        return {int(t): int(n) for t, n in rows}

    return db.read_sync(read)


def voided_hands(db: Database) -> int:
    def read(conn: Connection) -> int:
        query = select(func.count()).select_from(s.hands).where(s.hands.c.status == "void")
        return int(conn.execute(query).scalar_one())

    return db.read_sync(read)


def _books(db: Database) -> tuple[dict[tuple[int, int], int], list[tuple[int, int]]]:
    def read(conn: Connection) -> tuple[dict[tuple[int, int], int], list[tuple[int, int]]]:
        running = conn.execute(
            select(s.hands.c.table_id, s.hands.c.number).where(s.hands.c.status == "running")
        ).all()
        return db.store.table_stacks(conn), [(int(t), int(n)) for t, n in running]

    return db.read_sync(read)


def _differences(
    states: dict[int, dict[str, Any]],
    stacks: dict[tuple[int, int], int],
    running: list[tuple[int, int]],
) -> tuple[list[str], list[str]]:
    """Seats whose stack (plus what they put into the hand in play) is not the ledger's, and
    running hand rows that are not their table's hand in play."""
    mismatches: list[str] = []
    for table, state in states.items():
        committed: dict[int, int] = {}
        hand = state.get("hand")
        if hand is not None:
            for index, seat in enumerate(state["hand_seats"]):
                committed[int(seat)] = int(hand["seats"][index]["committed"])
        seen = {
            int(p["id"]): int(p["stack"]) + committed.get(int(p["seat"]), 0)
            for p in state["seats"]
            if p is not None
        }
        booked = {a: v for (t, a), v in stacks.items() if t == table}
        for account in sorted(seen.keys() | booked.keys()):
            if seen.get(account, 0) != booked.get(account, 0):
                mismatches.append(
                    f"table {table} account {account}: {seen.get(account, 0)} at the table, "
                    f"{booked.get(account, 0)} in the ledger"
                )
    stale = [
        f"table {t} hand {n}"
        for t, n in running
        if t in states
        and not (states[t].get("hand") is not None and int(states[t]["hand_number"]) == n)
    ]
    return mismatches, stale


def check_books(base: str, db: Database, tables: list[int], timeout: float = 30.0) -> Trial:
    """Every seat against the ledger, and the running hand rows against the tables.

    The tables play on while this reads, so it reads the ledger, the tables, the ledger
    again, and judges only a reading where the ledger did not move meanwhile; a
    difference that a hand ending between the reads explains is read again. Only what
    stays wrong until ``timeout`` is reported (in a Trial's fields).
    """
    deadline = time.monotonic() + timeout
    result = Trial("check", 0.0, len(tables))
    while True:
        before = _books(db)
        states = {
            t: httpx.get(f"{base}/api/tables/{t}", timeout=15).json()["state"] for t in tables
        }
        after = _books(db)
        if before == after:
            mismatches, stale = _differences(states, *after)
            result.mismatches, result.stale_running = mismatches, stale
            if not mismatches and not stale:
                return result
        if time.monotonic() > deadline:
            return result
        time.sleep(0.05)


class Leaver:
    """A person seated at a table, sitting out, who leaves while the database is away."""

    def __init__(self, base: str, table: int, buy_in: int) -> None:
        self.client = Client.guest(base)
        assert self.client.account is not None
        self.account = int(self.client.account["id"])
        self.table = table
        self.buy_in = buy_in

    async def sit(self) -> None:
        client = self.client
        await client.connect()
        await client.send({"type": "watch", "table": self.table})
        await client.send({"type": "sit", "table": self.table, "buy_in": self.buy_in, "id": "s"})
        reply = await client.until(lambda m: m.get("id") == "s")
        assert reply["type"] == "ok", reply
        await client.send({"type": "sit_out", "table": self.table, "id": "o"})
        assert (await client.until(lambda m: m.get("id") == "o"))["type"] == "ok"

    async def leave_during_outage(self) -> dict[str, Any]:
        """Ask to leave while the table waits for its records: accepted, kept for later."""
        client = self.client
        await client.until(lambda m: m.get("type") == "records" and m["reconnecting"], 60)
        await client.send({"type": "leave", "table": self.table, "id": "l"})
        return await client.until(lambda m: m.get("id") == "l", 60)

    async def left(self) -> dict[str, Any]:
        """The ``left`` event of this person's seat, once the table booked again."""

        def is_left(m: dict[str, Any]) -> bool:
            return m.get("type") == "event" and m["event"]["type"] == "left"

        return await self.client.until(is_left, 120)

    def cash_outs(self, db: Database) -> list[int]:
        """The person's cash-outs at the table, as the ledger has them."""

        def read(conn: Connection) -> list[int]:
            rows = conn.execute(
                select(s.ledger.c.amount).where(
                    (s.ledger.c.account_id == self.account)
                    & (s.ledger.c.kind == "cash_out")
                    & (s.ledger.c.wallet == "cash")
                )
            ).all()
            return [int(r.amount) for r in rows]

        return db.read_sync(read)


def run(coroutine: Any) -> Any:
    return asyncio.run(coroutine)
