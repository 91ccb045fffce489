"""Free play chips: an account that ran low tops up to the starting balance, from the house.

What it holds is what the ledger says: its balance plus its chips at tables (a
stack in front of it counts, so sitting down to empty the balance earns nothing).
Below the threshold, and no top-up within the period, it gets the starting
balance's difference in one ledger movement (kind ``top_up``, from the house), and
a ``top_ups`` row with the reason. The account's row is locked first, so two
top-ups at once (two requests, two processes of a shared room) give one.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import Connection, func, insert, select, update

from stud.server.storage import schema as s
from stud.server.storage.ledger import Entry, Ledger


@dataclass(frozen=True, slots=True)
class TopUpRules:
    """When an account may top up, and to how much."""

    to: int = 10_000
    """What a top-up brings an account's chips to (the room's starting balance)."""
    threshold: int = 1_000
    """An account holding less than this may top up (a tenth of the starting balance)."""
    period_seconds: float = 4 * 3600.0
    """A registered account tops up at most once per this long ..."""
    guest_period_seconds: float = 4 * 3600.0
    """... and a guest at most once per this long."""

    def period(self, kind: str) -> float:
        return self.guest_period_seconds if kind == "guest" else self.period_seconds


@dataclass(frozen=True, slots=True)
class TopUpState:
    """Where an account stands: what it holds, whether it may top up now, and when next."""

    held: int
    threshold: int
    to: int
    last_at: float | None
    next_at: float | None
    """When the period since the last top-up ends (None: no top-up yet, or it has ended)."""

    @property
    def low(self) -> bool:
        return self.held < self.threshold

    def available(self, now: float) -> bool:
        return self.low and (self.next_at is None or self.next_at <= now)

    def public(self, now: float) -> dict[str, object]:
        return {
            "available": self.available(now),
            "held": self.held,
            "threshold": self.threshold,
            "to": self.to,
            "amount": max(0, self.to - self.held) if self.low else 0,
            "next_at": self.next_at if self.next_at is not None and self.next_at > now else None,
        }


@dataclass(frozen=True, slots=True)
class TopUpResult:
    """A top-up given (``amount`` > 0), or refused with a code: ``free_chips_not_low`` or
    ``free_chips_too_soon``; ``state`` is the account's after it."""

    amount: int
    state: TopUpState
    refusal: str | None = None


def held_chips(conn: Connection, account_id: int) -> int:
    """An account's chips as the ledger has them: balance, stacks at tables, chips in pots."""
    return int(
        conn.execute(
            select(func.coalesce(func.sum(s.ledger.c.amount), 0)).where(
                s.ledger.c.account_id == account_id,
                s.ledger.c.wallet.in_(("cash", "table", "pot")),
            )
        ).scalar_one()
    )


def top_up_state(conn: Connection, account_id: int, kind: str, rules: TopUpRules) -> TopUpState:
    last = conn.execute(
        select(func.max(s.top_ups.c.at)).where(s.top_ups.c.account_id == account_id)
    ).scalar_one_or_none()
    last_at = None if last is None else float(last)
    return TopUpState(
        held=held_chips(conn, account_id),
        threshold=rules.threshold,
        to=rules.to,
        last_at=last_at,
        next_at=None if last_at is None else last_at + rules.period(kind),
    )


def lock_for_write(conn: Connection, account_id: int) -> None:
    """Lock the account's row before reading what it holds: a write to it, which takes
    SQLite's write lock too (its driver begins a transaction at the first write, so a plain
    read before it would see the database before another writer's top-up)."""
    conn.execute(
        update(s.accounts).where(s.accounts.c.id == account_id).values(kind=s.accounts.c.kind)
    )


def top_up(
    ledger: Ledger, conn: Connection, account_id: int, kind: str, rules: TopUpRules,
    now: float | None = None,
) -> TopUpResult:  # fmt: skip
    """Top ``account_id`` up to ``rules.to`` if it may; a refusal is returned, not raised
    (the writer would run the batch it was in again)."""
    now = time.time() if now is None else now
    lock_for_write(conn, account_id)  # a second top-up at once waits, then sees this one
    state = top_up_state(conn, account_id, kind, rules)
    if not state.low or state.held >= rules.to:
        return TopUpResult(0, state, "free_chips_not_low")
    if not state.available(now):
        return TopUpResult(0, state, "free_chips_too_soon")
    amount = rules.to - state.held
    house = ledger.house(conn)
    txn = ledger.post(
        conn, "top_up", [Entry(house, "cash", -amount), Entry(account_id, "cash", amount)]
    )
    reason = f"free play chips: held {state.held} < {rules.threshold}, topped up to {rules.to}"
    conn.execute(
        insert(s.top_ups).values(
            account_id=account_id, txn=txn, at=now, amount=amount, held=state.held, reason=reason
        )
    )
    after = TopUpState(
        held=rules.to, threshold=rules.threshold, to=rules.to, last_at=now,
        next_at=now + rules.period(kind),
    )  # fmt: skip
    return TopUpResult(amount, after)
