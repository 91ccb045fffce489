"""When and how this process takes a free lease, and keeps it: one piece for tables and
tournaments.

A table or tournament nobody holds (its owner died, paused past its lease, or
gave it up) is taken by one of the live processes. A new one waits
:data:`NEW_GRACE` first, for the process that made it; then each process waits
:data:`CLAIM_STEP` more per live process running fewer tables than itself, so
the least loaded takes it first. A process takes one at a time; if PostgreSQL
refuses its token (Redis lost its counters: the stored token is newer), its next
lease's token starts above the stored one. Each renewal wakes the actors whose
lease is lost or no longer surely held: each sees it and stops.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Container, Mapping
from typing import TypeVar

from stud.server.actors.mailbox import Command
from stud.server.cluster.lease import Leases
from stud.server.cluster.outage import first_line, out_of_reach
from stud.server.cluster.remote import Actor, Owner
from stud.server.storage import fences

log = logging.getLogger("stud.server.cluster")

NEW_GRACE = 2.0
"""Seconds a new table or tournament nobody holds waits before others take it."""
CLAIM_STEP = 0.3
"""A free one waits this long per live process running fewer tables than this one."""

T = TypeVar("T")


async def always() -> bool:
    """Free leases may be claimed (until the coordination says when not)."""
    return True


def fewer_loaded(loads: Mapping[str, int], node: str, mine: int) -> int:
    """How many live processes other than ``node`` run fewer than its ``mine`` tables."""
    return sum(1 for other, n in loads.items() if other != node and n < mine)


class Claims:
    """The free leases of one kind this process may take, its claims in progress, and the
    renewal of those it holds."""

    def __init__(self, noun: str, leases: Callable[[], Leases]) -> None:
        self.noun = noun
        self.leases = leases
        """The Redis side, looked up at each use (it is made again once the room is known)."""
        self.grace = NEW_GRACE
        self.step = CLAIM_STEP
        self._free_since: dict[int, float] = {}
        self._floors: dict[int, int] = {}
        self.claiming: set[int] = set()
        """What is being taken now (its lease held, its actor not open yet)."""
        self.stopped = False
        """This process is draining: it takes nothing more."""
        self._handed_off: dict[int, float] = {}
        """What this process handed over at a hand boundary, and until when (monotonic) it
        leaves it to the others."""

    def free(
        self,
        found: Mapping[int, Owner | None],
        owners: dict[int, Owner],
        here: Container[int],
    ) -> list[int]:
        """What nobody holds, of the leases ``found`` in Redis, and no actor ``here`` runs
        still; ``owners`` learns who holds the others (a held one's wait for being free
        starts again when it is).

        An actor whose lease was lost stops at its next step (its renewal wakes it). Taken
        again before it has, the new lease's token would be in the book while the old actor
        still runs: two actors of one item in this process, the old one's failing step
        judged by the new lease, and its next write made with the new token.
        """
        free = []
        for item_id, owner in found.items():
            if owner is None:
                owners.pop(item_id, None)
                if item_id not in here:
                    free.append(item_id)
            else:
                owners[item_id] = owner
                self._free_since.pop(item_id, None)
        return free

    def due(self, item_id: int, seen_at: float, now: float, fewer: int) -> bool:
        """Whether this process may take it now: free since when, first seen when, with
        ``fewer`` live processes running fewer tables than this one."""
        free_since = self._free_since.setdefault(item_id, now)
        if self.stopped or self._handed_off.get(item_id, 0.0) > now:
            return False
        if now - seen_at < self.grace:
            return False
        return now - free_since >= self.step * fewer

    def handed_off(self, item_id: int, seconds: float) -> None:
        """Given up at a hand boundary: left to the other processes for ``seconds``."""
        now = time.monotonic()
        self._handed_off = {i: t for i, t in self._handed_off.items() if t > now}
        self._handed_off[item_id] = now + seconds

    async def once(self, item_id: int, take: Callable[[], Awaitable[T | None]]) -> T | None:
        """``take()``, unless a claim of ``item_id`` is already in progress (then None)."""
        if item_id in self.claiming:
            return None
        self.claiming.add(item_id)
        try:
            return await take()
        finally:
            self.claiming.discard(item_id)

    async def acquire(self, item_id: int) -> int | None:
        """The lease with a new token (above the stored one, if it was refused), or None."""
        return await self.leases().acquire(item_id, self._floors.get(item_id, 0))

    async def renew(self, actors: Mapping[int, Actor]) -> list[int]:
        """Renew every lease held; wake each actor whose lease is lost, or no longer surely
        held (it sees that and stops). The ids whose lease was lost."""
        leases = self.leases()
        lost = await leases.renew()
        if lost:
            log.warning("leases lost (not renewed in time): %ss %s", self.noun, lost)
        book, now = leases.book, time.monotonic()
        for item_id, actor in list(actors.items()):
            if item_id in lost or (item_id in book.tokens and not book.holds(item_id, now)):
                actor.tell(Command("wake"))
        return lost

    async def refused(
        self, item_id: int, error: Exception, stored: Callable[[], Awaitable[int]]
    ) -> None:
        """Taking it failed after its lease was acquired: the lease is given up; if the
        token was stale, the next starts above the ``stored()`` one."""
        await self.leases().release(item_id)
        if isinstance(error, fences.Fenced):
            self._floors[item_id] = await stored()
        elif out_of_reach(error):
            log.warning("%s %s: taking it over failed: %s", self.noun, item_id, first_line(error))
        else:
            log.error("%s %s: taking it over failed", self.noun, item_id, exc_info=error)
