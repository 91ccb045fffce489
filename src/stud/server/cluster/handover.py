"""Tables and tournaments given up at a hand boundary: their leases released at once.

An actor asked to leave (a process draining, or one running more than its share,
:mod:`stud.server.room.drain`) stops when no hand is in progress; its lease is
then given up at once, and left to the other processes for
:data:`LEFT_TO_OTHERS` seconds, so one of them takes it over with nothing to void
(a takeover voids only the hands stored ``running``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from stud.server.cluster.claims import Claims
from stud.server.cluster.lease import LeaseBook, Leases

log = logging.getLogger("stud.server.cluster")

LEFT_TO_OTHERS = 10.0
"""Seconds a process leaves what it handed over to the others (then takes it back if free)."""


class Handovers:
    """The leases of one kind (tables or tournaments) this process hands over."""

    def __init__(self, noun: str, claims: Claims, leases: Callable[[], Leases]) -> None:
        self.noun = noun
        self.claims = claims
        self.leases = leases
        self._releasing: set[asyncio.Task[None]] = set()

    def value_if_handed(self, item_id: int, book: LeaseBook, leaving: bool) -> str | None:
        """The lease's value, if its actor stopped to be handed over and this process still
        holds it (read before the book drops it); None: lost the usual way."""
        if not leaving or item_id not in book.tokens:
            return None
        log.info("%s %s handed over at a hand boundary", self.noun, item_id)
        return book.value(item_id)

    def give(self, item_id: int, value: str) -> None:
        """Release the lease now (in the background); the others take it first."""
        self.claims.handed_off(item_id, LEFT_TO_OTHERS)
        task = asyncio.create_task(self._release(item_id, value))
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)

    async def _release(self, item_id: int, value: str) -> None:
        try:
            await self.leases().release_value(item_id, value)
        except Exception as error:  # Redis away: the lease lapses by itself after its TTL
            log.warning("%s %s: giving its lease up failed: %s", self.noun, item_id, error)

    async def flush(self) -> None:
        """Until every release sent is done (a stopping process waits for them)."""
        if self._releasing:
            await asyncio.wait(set(self._releasing), timeout=5.0)
