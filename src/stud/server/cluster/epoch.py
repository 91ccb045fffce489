"""Noticing that Redis lost the room's keys (restarted empty), so each process rebuilds its part.

The room keeps one key, ``<room>epoch``, set only if absent to a random value.
Each process reads it at every scan: a value other than the one it saw last
means Redis lost everything since (an empty restart, a flush). Every process
then, within one scan:

* holds its claims of free tables and tournaments for one lease TTL: the owners
  set their leases again at their next renewal (:mod:`.lease`), so a table
  whose owner lives is not taken over (nor its hand voided) for want of a key;
* puts the bots it plays for back in the pool as held, every other bot account
  of the database as idle, and the bot-name counter above every name the
  database has (:mod:`.bots`);
* writes its lobby entries again.

The heartbeats, the live processes' set and the tournaments' lobby lines are
written again at every renewal anyway; the login throttles start afresh; the
seats noted for a takeover fall back to each person's seat of the last hand.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

EPOCH_KEY = "{}epoch"


class Epoch:
    """This process's view of the room's Redis epoch (``redis``: a redis.asyncio client)."""

    def __init__(self, redis: Any, prefix: str, hold_seconds: float) -> None:
        self.redis = redis
        self.key = EPOCH_KEY.format(prefix)
        self.hold_seconds = hold_seconds
        self.seen: bytes | None = None
        self.held_until = 0.0
        """Until when (monotonic) no free lease is claimed: the owners restore theirs first."""

    async def changed(self) -> bool:
        """Whether Redis lost the room's keys since the last look (the first look: no)."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(self.key, uuid.uuid4().hex, nx=True)
            pipe.get(self.key)
            _, value = await pipe.execute()
        lost = self.seen is not None and value != self.seen
        self.seen = value
        if lost:
            self.held_until = time.monotonic() + self.hold_seconds
        return lost

    def holding(self) -> bool:
        """Whether claims wait now (Redis restarted empty less than a lease TTL ago)."""
        return time.monotonic() < self.held_until
