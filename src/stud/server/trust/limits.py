"""How much of the room one account may take: open tables, bots, and how long a table idles.

A table costs the server a task, a clock and (with bots) a thinking thread for
as long as it is open, so an account may open only a few, with a few bots in
all; its creator may close it; and a table an account made closes itself when
no person has sat at it for a while (bots alone do not keep it open).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stud.server.errors import Refusal
from stud.server.storage import TableSpec
from stud.server.trust.ratelimit import BucketsFactory, Throttled, local_buckets


@dataclass(frozen=True, slots=True)
class Limits:
    """Per-account quotas; the room's defaults suit a public server."""

    tables_per_user: int = 3
    """Open tables a registered account may have made."""
    tables_per_guest: int = 1
    """Open tables a guest may have made."""
    bots_per_account: int = 8
    """Bots, over all the open tables an account made."""
    idle_seconds: float = 900.0
    """A table an account made closes after this long with no person seated."""
    signups_per_address: float = 30
    """New accounts (guests and registrations) one client address may make in a burst ..."""
    signup_refill_seconds: float = 10.0
    """... and one more every this many seconds (else one guest per table evades the quota)."""


class LimitError(Refusal):
    """A request over an account's quota (code ``table_limit`` or ``bot_limit``); the message
    names the quota."""


def check_new_table(limits: Limits, kind: str, mine: Sequence[TableSpec], bots: int) -> None:
    """LimitError if a ``kind`` account with tables ``mine`` may not open one with ``bots``."""
    allowed = limits.tables_per_guest if kind == "guest" else limits.tables_per_user
    if len(mine) >= allowed:
        raise LimitError(
            "table_limit",
            f"you have {len(mine)} open table(s), the most a {kind} account may have: "
            "close one first (DELETE /api/tables/{id})",
            {"tables": len(mine)},
        )
    total = sum(spec.bots for spec in mine) + bots
    if total > limits.bots_per_account:
        raise LimitError(
            "bot_limit",
            f"that makes {total} bots at your tables; an account may keep at most "
            f"{limits.bots_per_account} bots playing",
            {"bots": total, "most": limits.bots_per_account},
        )


class SignupLimit:
    """New accounts per client address: a farm of guests would sidestep the per-account quota."""

    def __init__(self, limits: Limits, buckets: BucketsFactory = local_buckets) -> None:
        self.buckets = buckets(
            "signups", limits.signups_per_address, limits.signup_refill_seconds, 100_000
        )

    async def admit(self, address: str) -> None:
        """Throttled if ``address`` made too many accounts lately."""
        wait = await self.buckets.wait(address)
        if wait > 0:
            raise Throttled(wait, "too many new accounts from this address: try again later")

    async def made(self, address: str) -> None:
        """Count an account ``address`` made."""
        await self.buckets.spend(address)
