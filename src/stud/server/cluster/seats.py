"""The seats of a table's people, kept across a takeover.

When someone sits at a table of the shared room, its owner notes the seat in a
Redis hash per table, ``<room>seats:<table>``. The process that takes the table
over finds the people's stacks still at the table (:func:`stud.server.storage.fences.claim` keeps
them) and seats each again before the table's first step: in the seat they took,
else the one of the table's last hand, else any free one; each is away for the
grace period until a connection of theirs watches the table.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from stud.server.actors.table import TableActor
from stud.table import TableError

log = logging.getLogger("stud.server.cluster")

SEATS_KEY = "{}seats:{}"


class Seats:
    """The seats noted for the room's tables (``redis``: a redis.asyncio client)."""

    def __init__(self, redis: Any, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self._background: set[asyncio.Task[None]] = set()

    def note(self, actor: TableActor, account_id: int) -> None:
        """``account_id`` sat at ``actor``'s table: its seat is noted (in the background)."""
        seat = actor.table.seat_of(account_id)
        if seat is None:
            return
        task = asyncio.create_task(self._note(actor.id, account_id, seat))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _note(self, table_id: int, account_id: int, seat: int) -> None:
        try:
            await self.redis.hset(SEATS_KEY.format(self.prefix, table_id), str(account_id), seat)
        except Exception:  # Redis away: a takeover seats them as the last hand did
            log.warning("table %s: the seat of account %s not noted", table_id, account_id)

    async def seat_again(
        self, actor: TableActor, people: list[dict[str, Any]], grace_seconds: float
    ) -> None:
        """The people of a table taken over (``account_id``, ``name``, ``stack`` and the
        ``seat`` of its last hand), in their seats with their stacks, each away for
        ``grace_seconds`` until a connection watches."""
        noted = await self.redis.hgetall(SEATS_KEY.format(self.prefix, actor.id))
        taken = {int(a): int(s) for a, s in noted.items()}
        now = time.time()
        for person in people:
            account = int(person["account_id"])
            seat = taken.get(account, person["seat"])
            if seat is not None and actor.table.seats[seat] is not None:
                seat = None
            try:
                actor.resumed += actor.table.sit(
                    account, str(person["name"]), int(person["stack"]), now, seat=seat, kept=True
                )
            except TableError:  # never (the same seats): the stack waits for a restart
                log.exception("table %s: account %s could not be seated again", actor.id, account)
                continue
            actor.gone[account] = now + grace_seconds
