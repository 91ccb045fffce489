"""The coordination of a room shared by several processes: PostgreSQL for what lasts, Redis for
what moves (:class:`stud.server.room.coordination.Coordination`).

Every process started with the same PostgreSQL database and Redis joins the
room (docs/deploy.md). Each table and tournament runs in the process that holds
its lease (:mod:`.tables`, :mod:`.tourneys`); a client may connect to any
process, and its commands and views travel through Redis (:mod:`.bus`,
:mod:`.relay`). The room's bot accounts are one pool (:mod:`.bots`), the login
and signup throttles count in Redis (:mod:`.limits`), each process's heartbeat
says it lives (:mod:`.nodes`). Anything kept in Redis can be rebuilt from
PostgreSQL or re-seeded, so Redis may restart empty (:mod:`.epoch`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from contextlib import AbstractAsyncContextManager
from typing import Any

from sqlalchemy import Connection

from stud.server.actors.table import TableActor
from stud.server.actors.tournament import TournamentActor
from stud.server.cluster.bots import BotPool
from stud.server.cluster.epoch import Epoch
from stud.server.cluster.lease import LeaseTimes
from stud.server.cluster.limits import SharedBuckets
from stud.server.cluster.links import Links
from stud.server.cluster.outage import first_line, redis_away
from stud.server.cluster.remote import Remote
from stud.server.cluster.tables import TableShare
from stud.server.cluster.tourneys import TourneyShare
from stud.server.room.coordination import BotsOutOfReach, RoomCore
from stud.server.storage import Account, TableSpec, fences
from stud.server.storage.database import PROBE_SECONDS
from stud.server.trust.ratelimit import Buckets

log = logging.getLogger("stud.server.cluster")


class RedisCoordination:
    """This process's share of a room run by several."""

    def __init__(self, room: RoomCore, *, redis_url: str, times: LeaseTimes | None = None) -> None:
        self.room = room
        self.links = Links(redis_url, times, self._on_message)
        self.tables = TableShare(room, self.links, lambda: self.tourneys.relay.watcher_nodes())
        self.tourneys = TourneyShare(room, self.links, self.tables.loads)
        self.tables.may_claim = self.tourneys.may_claim = self.may_claim
        links = self.links
        self.pool = BotPool(links.redis, links.prefix, links.node, links.nodes.key)
        self.epoch = Epoch(links.redis, links.prefix, links.times.ttl)

    @property
    def node(self) -> str:
        return self.links.node

    # -- life cycle --------------------------------------------------------------------------

    async def open_database(self) -> None:
        links, db = self.links, self.room.db
        await links.redis.ping()
        async with links.lock("schema"):  # two processes must not both create the schema
            await asyncio.to_thread(db.start)
            prefix = await db.write(fences.room_prefix)
        links.use_prefix(prefix, self._rewatch_all)
        self.tables.use_prefix()
        self.tourneys.use_prefix()
        self.pool = BotPool(links.redis, prefix, links.node, links.nodes.key)
        self.epoch = Epoch(links.redis, prefix, links.times.ttl)
        db.store.fence = fences.TokenFence(self.tables.book.tokens, self.tourneys.book.tokens)

    async def start(self) -> None:
        """Join the room: listen, create the first tables if there are none, take free ones;
        the same for tournaments."""
        links, room = self.links, self.room
        links.bus.start()
        specs = await room.first_tables()
        store = room.db.store
        bots = await room.db.read(lambda c: store.accounts_of_kind(c, "bot"))
        room.names.update({bot.id: bot.name for bot in bots})
        await links.nodes.beat(len(room.actors))  # before taking bots: or counted as dead
        await self.epoch.changed()
        await self.pool.start({bot.id: bot.name for bot in bots})
        await self.tables.start(specs)
        await self.tourneys.start()

    def draining(self) -> None:
        """Take nothing more: what stops here at a hand boundary is handed to the others."""
        self.tables.claims.stopped = self.tourneys.claims.stopped = True
        self.links.nodes.stopping = True

    async def stop(self) -> None:
        """A clean stop (after the drain): what still runs is given up at once, so others
        take it without waiting."""
        await self.tables.handovers.flush()
        await self.tourneys.handovers.flush()
        await self.tables.stop_loops()
        await self.tourneys.stop_loops()
        await self.room.tournaments.stop()
        await self.tourneys.give_up()
        await self.room.stop_tables()
        await self.pool.stop()
        with contextlib.suppress(Exception):
            await self.tables.give_up()
            await self.links.nodes.leave()
        with contextlib.suppress(Exception):
            await self.links.bus.stop()
        with contextlib.suppress(Exception):
            await self.links.redis.aclose()

    def lock(self, name: str, seconds: float = 30.0) -> AbstractAsyncContextManager[None]:
        return self.links.lock(name, seconds)

    # -- tables ------------------------------------------------------------------------------

    def owns(self, table_id: int) -> bool:
        return self.tables.owns(table_id)

    def seated(self, actor: TableActor, account_id: int) -> None:
        self.tables.seated(actor, account_id)

    def lost(self, actor: TableActor) -> None:
        self.tables.lost(actor)

    async def open_table(self, spec: TableSpec) -> TableActor:
        return await self.tables.open_new(spec)

    def remote_table(self, table_id: int) -> Remote | None:
        return self.tables.remote(table_id)

    def spec(self, table_id: int) -> TableSpec | None:
        return self.tables.spec(table_id)

    async def lobby(self) -> dict[int, dict[str, Any]]:
        return await self.tables.lobby()

    # -- tournaments -------------------------------------------------------------------------

    def owns_tournament(self, tournament_id: int) -> bool:
        return self.tourneys.owns(tournament_id)

    def fence(self, conn: Connection, tournament_id: int) -> None:
        self.tourneys.fence(conn, tournament_id)

    def event_floor(self, tournament_id: int) -> int:
        return self.tourneys.event_floor(tournament_id)

    def tournament_lost(self, actor: TournamentActor) -> None:
        self.tourneys.lost(actor)

    def tournament_changed(self, tournament_id: int) -> None:
        self.tourneys.changed(tournament_id)

    def tournament_dropped(self, tournament_id: int) -> None:
        self.tourneys.dropped(tournament_id)

    async def open_tournament(
        self,
        tournament_id: int,
        data: dict[str, Any],
        *,
        template: str | None,
        created_by: int | None,
    ) -> TournamentActor:
        """Run a tournament just stored, here: restored from its stored row once its lease is
        taken (``data`` is not needed)."""
        return await self.tourneys.open_new(tournament_id)

    def remote_tournament(self, tournament_id: int) -> Remote | None:
        return self.tourneys.remote(tournament_id)

    async def find_tournament(self, tournament_id: int) -> None:
        await self.tourneys.find(tournament_id)

    async def tournament_lines(self) -> dict[int, dict[str, Any]]:
        return await self.tourneys.lines()

    # -- accounts, bots, throttles -----------------------------------------------------------

    def renamed(self, account_id: int, name: str) -> None:
        self.links.bus.broadcast({"k": "rename", "from": self.node, "a": account_id, "name": name})

    def tell_account(self, account_id: int, text: str) -> None:
        self.tourneys.tell_account(account_id, text)

    async def take_bots(self, count: int) -> list[Account]:
        """``count`` of the room's bots idle on every process (new ones only if none is).

        Right after Redis restarted empty it waits until the other processes have had a
        scan to put their bots back (or it might take one another process plays for)."""
        try:
            await self.may_claim()
            while self.epoch.holding():
                await asyncio.sleep(self.links.times.scan)
            return await self.pool.accounts(count, self.room.db, self.room.names)
        except Exception as error:  # (the database away is the table's booking's to handle)
            if not redis_away(error):
                raise
            raise BotsOutOfReach(first_line(error)) from None

    def reserve_bot(self, account_id: int) -> None:
        self.pool.reserve(account_id)

    def release_bot(self, account_id: int, name: str) -> None:
        self.pool.release(account_id)

    def buckets(self, name: str, burst: float, refill_seconds: float, limit: int) -> Buckets:
        """The room's login and signup throttles count in Redis, for every process at once."""
        return SharedBuckets(self.links, name, burst, refill_seconds)

    def health(self) -> dict[str, Any]:
        return {"node": self.node, "runs": self.tables.runs(),
                "room_tables": len(self.tables.specs),
                "tournaments": self.tourneys.runs()}  # fmt: skip

    async def redis_reachable(self) -> bool | None:
        """Whether Redis answers a ping within a health check's bound."""
        try:
            return bool(await asyncio.wait_for(self.links.redis.ping(), PROBE_SECONDS))
        except Exception:  # refused, timed out, or a reply that is no answer: not reachable
            return False

    # -- Redis restarted empty ---------------------------------------------------------------

    async def may_claim(self) -> bool:
        """Whether free leases may be claimed now: not for a lease TTL after Redis lost the
        room's keys (their owners set them again first); what Redis lost is rebuilt at once."""
        if await self.epoch.changed():
            log.warning("Redis lost the room's keys (restarted empty?): they are written again")
            await self._rebuild()
        return not self.epoch.holding()

    async def _rebuild(self) -> None:
        """This process's part of what Redis lost: its bots and the others idle, the name
        counter, its lobby entries (its leases: at the next renewal, :mod:`.lease`)."""
        store = self.room.db.store
        bots = await self.room.db.read(lambda c: store.accounts_of_kind(c, "bot"))
        await self.pool.seed({bot.id: bot.name for bot in bots})
        self.tables.forget_lobby()
        await self.links.nodes.beat(len(self.room.actors))

    # -- messages from the other processes ---------------------------------------------------

    def _rewatch_all(self) -> None:
        """The subscription dropped (messages may be lost): every remote table and tournament
        a connection here follows is watched again."""
        self.tables.relay.rewatch_all()
        self.tourneys.relay.rewatch_all()

    def _on_message(self, item: dict[str, Any]) -> None:
        if self.tables.relay.on_message(item) or self.tourneys.on_message(item):
            return
        kind = item.get("k")
        if kind == "reply":
            self.links.replies.resolve(item)
        elif self.tables.on_message(item):
            return
        elif kind == "rename" and item.get("from") != self.node:
            self.room.rename_here(int(item["a"]), str(item["name"]))
