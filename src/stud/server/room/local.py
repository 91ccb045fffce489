"""The coordination of a room run by one process: everything is here, nothing to share.

At start the process recovers what a crash or a stop left in the database, for
every table at once (hands in progress voided, stacks cashed out), opens every
open table and restores every unfinished tournament from its last snapshot. It
runs them all for as long as it lives; the lobby is its own tables, the bots
its own accounts, the throttles count in its memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from typing import Any

from sqlalchemy import Connection

from stud.server.actors.table import TableActor
from stud.server.actors.tournament import TournamentActor
from stud.server.room.config import KEEP_FINISHED
from stud.server.room.coordination import Handle, RoomCore
from stud.server.storage import Account, TableSpec
from stud.server.storage import tourneys as db_tourneys
from stud.server.trust.ratelimit import Buckets, local_buckets

log = logging.getLogger("stud.server")


class LocalCoordination:
    """The room of one process (:class:`stud.server.room.coordination.Coordination`)."""

    def __init__(self, room: RoomCore) -> None:
        self.room = room
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}
        """Each lock held or waited for, with how many hold it or wait."""
        self._idle_bots: list[Account] = []
        self._bot_names = itertools.count(1)

    # -- life cycle --------------------------------------------------------------------------

    async def open_database(self) -> None:
        self.room.db.start()

    async def start(self) -> None:
        """Void what a crash left running, cash stacks out, then open the tables with bots
        and restore the unfinished tournaments (and list the last finished ones)."""
        room = self.room
        db, store = room.db, room.db.store
        room.recovered.update(await db.write(store.recover))
        if room.recovered["voided"] or room.recovered["cashed_out"]:
            log.warning("recovered after a stop: %s", room.recovered)
        self._idle_bots = await db.read(lambda c: store.accounts_of_kind(c, "bot"))
        self._bot_names = itertools.count(len(self._idle_bots) + 1)
        specs = await room.first_tables()
        room.hand_numbers.update(await db.read(store.last_hand_numbers))
        for spec in specs:
            room.run_table(spec)
        desk = room.tournaments
        rows = await db.read(lambda c: db_tourneys.stored(c, unfinished=True))
        done = await db.read(lambda c: db_tourneys.stored(c, unfinished=False, limit=KEEP_FINISHED))
        for row in [*done, *rows]:
            try:
                await desk.restore(row)
            except Exception:  # one damaged tournament must not keep the room closed
                log.exception("tournament %s could not be restored", row["id"])
        await desk.ensure_defaults()

    def draining(self) -> None:
        """Nothing to do: no other process takes what this one stops."""

    async def stop(self) -> None:
        await self.room.tournaments.stop()
        await self.room.stop_tables()

    def lock(self, name: str, seconds: float = 30.0) -> AbstractAsyncContextManager[None]:
        """One holder at a time in this process (no holder dies holding it: no ``seconds``)."""
        return self._held(name)

    @contextlib.asynccontextmanager
    async def _held(self, name: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(name) or (asyncio.Lock(), 0)
        self._locks[name] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[name]
            if users == 1:
                del self._locks[name]  # nobody holds it or waits for it
            else:
                self._locks[name] = (lock, users - 1)

    # -- tables ------------------------------------------------------------------------------

    def owns(self, table_id: int) -> bool:
        return True

    def seated(self, actor: TableActor, account_id: int) -> None:
        """Nothing to note: the table never moves."""

    def lost(self, actor: TableActor) -> None:
        """Never: this process runs every table."""

    async def open_table(self, spec: TableSpec) -> TableActor:
        return self.room.run_table(spec)

    def remote_table(self, table_id: int) -> Handle | None:
        return None

    def spec(self, table_id: int) -> TableSpec | None:
        return None

    async def lobby(self) -> dict[int, dict[str, Any]]:
        return {}

    # -- tournaments -------------------------------------------------------------------------

    def owns_tournament(self, tournament_id: int) -> bool:
        return True

    def fence(self, conn: Connection, tournament_id: int) -> None:
        """Nothing to check: no other process writes."""

    def event_floor(self, tournament_id: int) -> int:
        return 0

    def tournament_lost(self, actor: TournamentActor) -> None:
        """Never: this process runs every tournament."""

    def tournament_changed(self, tournament_id: int) -> None:
        """Nothing to publish: the lobby's list is read from the actors."""

    def tournament_dropped(self, tournament_id: int) -> None:
        """Nothing kept about it."""

    async def open_tournament(
        self,
        tournament_id: int,
        data: dict[str, Any],
        *,
        template: str | None,
        created_by: int | None,
    ) -> TournamentActor:
        return self.room.tournaments.run_new(data, template=template, created_by=created_by)

    def remote_tournament(self, tournament_id: int) -> Handle | None:
        return None

    async def find_tournament(self, tournament_id: int) -> None:
        """Nothing to look for: every tournament is here."""

    async def tournament_lines(self) -> dict[int, dict[str, Any]]:
        return {}

    # -- accounts, bots, throttles -----------------------------------------------------------

    def renamed(self, account_id: int, name: str) -> None:
        """No other process to tell."""

    def tell_account(self, account_id: int, text: str) -> None:
        """No other process to tell."""

    async def take_bots(self, count: int) -> list[Account]:
        """Idle bots first; the missing ones made in one write."""
        taken = [self._idle_bots.pop() for _ in range(min(count, len(self._idle_bots)))]
        names = [f"Bot {next(self._bot_names)}" for _ in range(count - len(taken))]
        if names:
            db = self.room.db
            store = db.store
            taken += await db.write(
                lambda c: [store.create_account(c, name, "bot") for name in names]
            )
        return taken

    def reserve_bot(self, account_id: int) -> None:
        self._idle_bots = [a for a in self._idle_bots if a.id != account_id]

    def release_bot(self, account_id: int, name: str) -> None:
        self._idle_bots.append(Account(account_id, name, "bot"))

    def buckets(self, name: str, burst: float, refill_seconds: float, limit: int) -> Buckets:
        return local_buckets(name, burst, refill_seconds, limit)

    def health(self) -> dict[str, Any]:
        return {}

    async def redis_reachable(self) -> bool | None:
        return None
