"""Tournaments in a room shared by several processes: each run by one process at a time.

A tournament (registering or running) has a lease like a table's
(:mod:`.lease`, keys under ``<room>tourney:``) whose token is stored in
PostgreSQL (``tourney_leases``) and checked in every write the tournament
makes: its snapshot, its money, and the hands of its tables ``t<id>.<n>``,
which run in the process that holds the tournament. A process that takes a
tournament over (its owner died, or paused past its lease) stores its token,
voids the hands its tables left running and restores it from its last
snapshot, exactly as a single process does after a restart (the clock where it
stood, paid prizes paid, a buy-in whose registration was lost refunded).

Any process serves any client: a registration, a watch of the tournament's page
or of one of its tables, an action at one, travels to the owner over the bus
(:mod:`.bus`) like a table's command, and the owner's messages for that client
come back to its process (each watcher sees its own account's view). The
lobby's list is a Redis hash of each running tournament's line, kept by its
owner; finished tournaments are read from PostgreSQL by every process and kept
there to show (they never write again). The default tournaments are opened
once per room, under a Redis lock, from what PostgreSQL says is open (the
room's desk, :mod:`stud.server.room.desk`, decides which).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import orjson
from sqlalchemy import Connection

from stud.server.actors.channel import Watcher
from stud.server.actors.tournament import TournamentActor
from stud.server.cluster.claims import Claims, always, fewer_loaded
from stud.server.cluster.handover import Handovers
from stud.server.cluster.lease import EVENT_EPOCH, LeaseBook, Leases
from stud.server.cluster.links import Links, every
from stud.server.cluster.relay import Relay
from stud.server.cluster.remote import TOURNAMENTS, Remote
from stud.server.observe.logs import at
from stud.server.room.config import KEEP_FINISHED
from stud.server.room.coordination import RoomCore
from stud.server.storage import fences
from stud.server.storage import tourneys as db_tourneys
from stud.server.tasks import finish

log = logging.getLogger("stud.server.cluster")

LIST_KEY = "{}tourneys"
"""A Redis hash: each running or registering tournament's lobby line, kept by its owner."""
REFRESH = 2.0
"""How often the room's tournaments are read again from PostgreSQL (and the defaults checked)."""


class TourneyShare:
    """Which process runs each of the room's tournaments; this process's leases on its own.

    ``loads`` gives each live process and how many tables it runs (the least loaded
    takes a free tournament first, as a free table).
    """

    def __init__(self, room: RoomCore, links: Links, loads: Callable[[], dict[str, int]]) -> None:
        self.room = room
        self.desk = room.tournaments
        self.links = links
        self.book = LeaseBook(links.node, links.times)
        self.leases = Leases(links.redis, self.book, links.prefix + "tourney:")
        self.known: dict[int, float] = {}
        """Every unfinished tournament of the room, and when this process first saw it."""
        self.owners: dict[int, tuple[str, int]] = {}
        self.archived: set[int] = set()
        """Finished tournaments shown here (read from PostgreSQL; they never write again)."""
        actors = self.desk.actors
        self.relay = Relay(links, TOURNAMENTS, self.book, actors, self.owns, self.owners)
        """Commands for tournaments other processes run, and theirs for those run here."""
        self.claims = Claims("tournament", lambda: self.leases)
        self.handovers = Handovers("tournament", self.claims, lambda: self.leases)
        self.may_claim: Callable[[], Awaitable[bool]] = always
        """Asked before free tournaments are claimed (not right after Redis restarted empty)."""
        self._loads = loads
        self._changed: set[int] = set()
        self._loops: list[asyncio.Task[None]] = []
        self._refreshing = asyncio.Lock()

    @property
    def _list_key(self) -> str:
        return LIST_KEY.format(self.links.prefix)

    def use_prefix(self) -> None:
        """The room's prefix is known: the leases use it."""
        self.leases = Leases(self.links.redis, self.book, self.links.prefix + "tourney:")

    # -- life cycle --------------------------------------------------------------------------

    async def start(self) -> None:
        """Learn the room's tournaments, open the defaults (once per room), take free ones."""
        await self._refresh(first=True)
        await self.desk.ensure_defaults()
        await self._scan()
        times = self.links.times
        self._loops = [
            asyncio.create_task(every(times.renew, self._renew), name="tourney-renew"),
            asyncio.create_task(every(times.scan, self._scan), name="tourney-scan"),
            asyncio.create_task(every(REFRESH, self._refresh_and_defaults), name="tourney-list"),
        ]

    async def stop_loops(self) -> None:
        """Cancel the loops and wait until each has ended (none is left mid-command when the
        Redis client closes)."""
        await finish(self._loops)

    async def give_up(self) -> None:
        """A clean stop: the tournaments are given up at once, others take them in a scan."""
        with contextlib.suppress(Exception):
            for tournament_id in list(self.book.tokens):
                await self.leases.release(tournament_id)

    async def _refresh_and_defaults(self) -> None:
        await self._refresh()
        try:
            await self.desk.ensure_defaults()
        except TimeoutError:  # another process holds the lock (or died holding it): next round
            log.warning("the default tournaments' lock is busy: looked at next round")

    async def _refresh(self, *, first: bool = False) -> None:
        """The room's unfinished tournaments, and the latest finished ones to show here."""
        async with self._refreshing:  # one at a time: a finished one is restored here once
            await self._read_list(first=first)

    async def _read_list(self, *, first: bool) -> None:
        db = self.room.db
        unfinished = set(await db.read(db_tourneys.unfinished_ids))
        now = 0.0 if first else time.monotonic()
        for tournament_id in unfinished:
            self.known.setdefault(tournament_id, now)
        for tournament_id in set(self.known) - unfinished:
            if tournament_id not in self.book.tokens:
                self.known.pop(tournament_id, None)
                self.owners.pop(tournament_id, None)
        done = await db.read(lambda c: db_tourneys.finished_ids(c, KEEP_FINISHED))
        for tournament_id in done:
            if tournament_id in self.desk.actors:
                continue
            row = await db.read(partial(db_tourneys.stored_one, tournament_id=tournament_id))
            if row is not None:
                self.archived.add(tournament_id)
                await self.desk.restore(row)
        self.desk.prune()

    # -- leases ------------------------------------------------------------------------------

    def owns(self, tournament_id: int) -> bool:
        return tournament_id in self.archived or self.book.holds(tournament_id)

    def fence(self, conn: Connection, tournament_id: int) -> None:
        fences.check_tournament(conn, tournament_id, self.book.tokens.get(tournament_id))

    def event_floor(self, tournament_id: int) -> int:
        return self.book.tokens.get(tournament_id, 0) * EVENT_EPOCH

    def lost(self, actor: TournamentActor) -> None:
        """The lease lapsed: local watchers follow the tournament to its next owner. Its bots
        stay reserved: they play on in the tournament wherever it runs."""
        tournament_id = actor.id
        handed = self.handovers.value_if_handed(tournament_id, self.book, actor.leave_at_boundary)
        if handed is None:
            log.warning(
                "tournament %s: lease lost, no longer run here",
                tournament_id,
                extra=at(tournament=tournament_id),
            )
        if self.desk.actors.get(tournament_id) is actor:
            del self.desk.actors[tournament_id]
        self.book.drop(tournament_id)
        watching: list[tuple[Watcher, int | None]] = [(w, None) for w in actor.watchers]
        for number, channel in actor.channels.items():
            watching += [(watcher, number) for watcher in channel.watchers]
        self.relay.lost(tournament_id, watching)
        self.owners.pop(tournament_id, None)
        if handed is not None:
            self.handovers.give(tournament_id, handed)

    async def _renew(self) -> None:
        actors = self.desk.actors
        await self.claims.renew(actors)
        # Tournaments over: nothing more to run; shown here, and read by the others.
        for tournament_id, actor in list(actors.items()):
            if actor.over and tournament_id in self.book.tokens:
                self.archived.add(tournament_id)
                await self.leases.release(tournament_id)
                await self.links.redis.hdel(self._list_key, str(tournament_id))
        await self._publish_lines(list(self.book.tokens))

    async def _publish_lines(self, tournaments: list[int]) -> None:
        actors = self.desk.actors
        lines = {
            str(t): orjson.dumps(actors[t].summary())
            for t in tournaments
            if t in actors and t in self.book.tokens
        }
        if lines:
            await self.links.redis.hset(self._list_key, mapping=lines)

    def changed(self, tournament_id: int) -> None:
        """Its page changed: its lobby line is published at the next scan."""
        self._changed.add(tournament_id)

    def dropped(self, tournament_id: int) -> None:
        self.archived.discard(tournament_id)

    async def _scan(self) -> None:
        """Who runs which tournament; take the free ones; follow those that moved."""
        changed, self._changed = self._changed, set()
        await self._publish_lines(sorted(changed))
        owners = await self.leases.owners(sorted(self.known))
        loads, node = self._loads(), self.links.node
        fewer = fewer_loaded(loads, node, loads.get(node, 0))
        now = time.monotonic()
        free = self.claims.free(owners, self.owners, self.desk.actors)
        if free and not await self.may_claim():
            free = []
        for tournament_id in free:
            if tournament_id in self.book.tokens:
                continue
            if self.claims.due(tournament_id, self.known.get(tournament_id, 0.0), now, fewer):
                await self._claim(tournament_id)
        self.relay.follow_moves()
        self.relay.sweep_dead_watchers(set(loads))

    async def _claim(self, tournament_id: int) -> TournamentActor | None:
        """Take a free tournament: lease, token and voided hands in PostgreSQL, then restore it
        from its last snapshot (as a restarted single process does) and run it here."""
        return await self.claims.once(tournament_id, lambda: self._take(tournament_id))

    async def _take(self, tournament_id: int) -> TournamentActor | None:
        db, node, actors = self.room.db, self.links.node, self.desk.actors
        token = await self.claims.acquire(tournament_id)
        if token is None:
            return None
        try:
            row = await db.write(
                lambda c: fences.claim_tournament(c, tournament_id, token, node, time.time())
            )
        except Exception as error:  # a stale token (Redis lost its counters), or a fault
            stored = partial(
                db.read, lambda c: fences.stored_token(c, tournament_id, tournament=True)
            )
            await self.claims.refused(tournament_id, error, stored)
            return None
        if row is None:  # over meanwhile: shown from PostgreSQL, nothing to run
            await self.leases.release(tournament_id)
            self.known.pop(tournament_id, None)
            return None
        stale = actors.pop(tournament_id, None)
        if stale is not None:
            await stale.stop()
        self.archived.discard(tournament_id)
        await self.desk.restore(row)
        actor = actors[tournament_id]
        self.owners[tournament_id] = (node, token)
        self.relay.took(tournament_id, token, actor)
        log.info(
            "tournament run here now (lease token %s)", token, extra=at(tournament=tournament_id)
        )
        await self._publish_lines([tournament_id])
        return actor

    async def open_new(self, tournament_id: int) -> TournamentActor:
        """Run a tournament just stored, here: its lease taken (and it restored from its
        stored snapshot) before its first step; the others are told."""
        self.known[tournament_id] = time.monotonic()
        actor = await self._claim(tournament_id)
        if actor is None:
            raise RuntimeError(f"tournament {tournament_id} was made but could not be run here")
        token = self.book.tokens[tournament_id]
        self.links.bus.broadcast(
            {"k": "topened", "from": self.links.node, "T": tournament_id, "tok": token}
        )
        return actor

    # -- what connections and requests reach -------------------------------------------------

    def remote(self, tournament_id: int) -> Remote | None:
        """The stand-in for a tournament another process runs (None: no such tournament)."""
        if tournament_id not in self.known:
            return None
        return self.relay.remote(tournament_id)

    async def find(self, tournament_id: int) -> None:
        """Asked for and run by nobody: it may have just finished (then it is shown here)."""
        if tournament_id not in self.owners:
            await self._refresh()

    async def lines(self) -> dict[int, dict[str, Any]]:
        """The owners' lobby lines in Redis, of the tournaments known unfinished."""
        raw = await self.links.redis.hgetall(self._list_key)
        lines: dict[int, dict[str, Any]] = {}
        for key, value in raw.items():
            tournament_id = int(key)
            if tournament_id in self.known:
                lines[tournament_id] = orjson.loads(value)
        return lines

    def runs(self) -> list[int]:
        """The tournaments this process runs now."""
        return sorted(t for t in self.book.tokens if self.book.holds(t))

    def tell_account(self, account_id: int, text: str) -> None:
        """A message for the account's connections to the other processes."""
        self.links.bus.broadcast(
            {"k": "tseat", "from": self.links.node, "a": account_id, "m": text}
        )

    # -- messages from the other processes ---------------------------------------------------

    def on_message(self, item: dict[str, Any]) -> bool:
        """Handle a tournament's bus message; False if it is not one."""
        if self.relay.on_message(item):
            return True
        kind, mine = item.get("k"), item.get("from") == self.links.node
        if kind == "tseat" and not mine:
            self.room.tell(int(item["a"]), str(item["m"]))
        elif kind == "topened" and not mine:
            tournament_id = int(item["T"])
            self.known.setdefault(tournament_id, time.monotonic())
            self.owners[tournament_id] = (str(item["from"]), int(item["tok"]))
        return kind in ("tseat", "topened")
