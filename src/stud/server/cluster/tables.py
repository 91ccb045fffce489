"""The tables of a room shared by several processes: each runs in one, any serves any client.

The tables are rows in PostgreSQL; each is run by the process holding its
lease (:mod:`.lease`), whose durable writes are fenced by the lease's token
(:mod:`stud.server.storage.fences`). A command for a table another process
runs travels to it, and the table's messages for that client come back,
through Redis (:mod:`.bus`, :mod:`.relay`). Every process publishes its
tables' lobby entries to one Redis hash, so each serves the whole lobby.

When a process dies its leases lapse and the others take its tables, each
after voiding the hand in progress and cashing the bots' stacks out (the
recovery a single process runs at its restart, for that table only); the
people's stacks stay and they are seated again (:mod:`.seats`). The least
loaded process takes a free table first (:mod:`.claims`). Connections that were
watching a table through the dead process reconnect elsewhere; those watching
from a live process are re-attached to the new owner, which sends each a full
``state``.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import orjson
from sqlalchemy import Connection

from stud.server.actors.table import TableActor
from stud.server.cluster.claims import Claims, always, fewer_loaded
from stud.server.cluster.handover import Handovers
from stud.server.cluster.lease import EVENT_EPOCH, LeaseBook, Leases
from stud.server.cluster.links import Links, every
from stud.server.cluster.relay import Relay
from stud.server.cluster.remote import TABLES, Remote
from stud.server.cluster.seats import Seats
from stud.server.observe.logs import at
from stud.server.room.coordination import RoomCore
from stud.server.room.drain import ask_to_leave
from stud.server.storage import TableSpec, fences, stale
from stud.server.tasks import finish

log = logging.getLogger("stud.server.cluster")

LOBBY_KEY = "{}lobby"
SPEC_REFRESH = 2.0
"""How often the list of open tables is read again from PostgreSQL."""
LOBBY_REWRITE = 20
"""Every this many lease renewals, every lobby entry is written, changed or not."""
LOBBY_SLICE = 50
"""Lobby entries made between two turns of the event loop (one takes some 10 µs: 250
tables' entries at once held the loop for a few milliseconds every renewal)."""


class TableShare:
    """Which process runs each of the room's tables; this process's leases on its own.

    ``watcher_nodes`` names the processes whose connections watch a tournament run
    here (with those watching a table here, they are looked up as live).
    """

    def __init__(self, room: RoomCore, links: Links, watcher_nodes: Callable[[], set[str]]) -> None:
        self.room = room
        self.links = links
        self.book = LeaseBook(links.node, links.times)
        self.leases = Leases(links.redis, self.book, links.prefix)
        self.specs: dict[int, TableSpec] = {}
        """Every open table of the room (from PostgreSQL and the processes' news)."""
        self.owners: dict[int, tuple[str, int]] = {}
        """Who runs each table, as last read from the leases."""
        self._first_seen: dict[int, float] = {}
        self.relay = Relay(links, TABLES, self.book, room.actors, self.owns, self.owners)
        """Commands for tables other processes run, and theirs for the tables run here."""
        self.claims = Claims("table", lambda: self.leases)
        self.handovers = Handovers("table", self.claims, lambda: self.leases)
        self.seats = Seats(links.redis, links.prefix)
        self._watcher_nodes = watcher_nodes
        self._loads: dict[str, int] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._lobby_written: dict[int, bytes] = {}
        """Each table's lobby entry as this process last wrote it to Redis."""
        self._lobby_round = 0
        self.may_claim: Callable[[], Awaitable[bool]] = always
        """Asked before free tables are claimed (not right after Redis restarted empty)."""

    @property
    def _lobby_key(self) -> str:
        return LOBBY_KEY.format(self.links.prefix)

    def use_prefix(self) -> None:
        """The room's prefix is known: the leases and seats use it."""
        self.leases = Leases(self.links.redis, self.book, self.links.prefix)
        self.seats = Seats(self.links.redis, self.links.prefix)

    # -- life cycle --------------------------------------------------------------------------

    async def start(self, specs: list[TableSpec]) -> None:
        """Learn the room's open tables, take the free ones, then keep at it."""
        for spec in specs:
            self.specs[spec.id] = spec
            self._first_seen[spec.id] = 0.0
        await self.links.nodes.beat(len(self.room.actors))
        await self._scan()
        self._tasks = [
            asyncio.create_task(every(self.links.times.renew, self._renew), name="cluster-renew"),
            asyncio.create_task(every(self.links.times.scan, self._scan), name="cluster-scan"),
            asyncio.create_task(every(SPEC_REFRESH, self._refresh), name="cluster-tables"),
            asyncio.create_task(
                every(stale.SWEEP_SECONDS, self._end_stale_writes), name="cluster-stale"
            ),
        ]

    async def stop_loops(self) -> None:
        """Cancel the loops and wait until each has ended (none is left mid-command when the
        Redis client closes)."""
        await finish(self._tasks)

    async def give_up(self) -> None:
        """A clean stop: the tables are given up at once, so others take them without waiting."""
        for table_id in list(self.book.tokens):
            await self.leases.release(table_id)

    # -- leases ------------------------------------------------------------------------------

    def owns(self, table_id: int) -> bool:
        return self.book.holds(table_id)

    def seated(self, actor: TableActor, account_id: int) -> None:
        self.seats.note(actor, account_id)

    def lost(self, actor: TableActor) -> None:
        """The actor stopped (lease lapsed): its local watchers follow the table elsewhere."""
        table_id = actor.id
        handed = self.handovers.value_if_handed(table_id, self.book, actor.leave_at_boundary)
        if handed is None:
            log.warning("table %s: lease lost, no longer run here", table_id, extra=at(table_id))
        actors = self.room.actors
        if actors.get(table_id) is actor:
            del actors[table_id]
        self.book.drop(table_id)
        self.relay.lost(table_id, [(watcher, None) for watcher in actor.watchers])
        self.owners.pop(table_id, None)
        for bot in actor.bots:
            self.room.release_bot(bot)
        if handed is not None:
            self.handovers.give(table_id, handed)

    async def _renew(self) -> None:
        actors = self.room.actors
        await self.claims.renew(actors)
        # Tables whose actor finished (closed): give the lease up, leave the lobby.
        closed = [t for t in self.book.tokens if t not in actors and t not in self.claims.claiming]
        for table_id in closed:
            await self.leases.release(table_id)
            self.specs.pop(table_id, None)
            await self.links.redis.hdel(self._lobby_key, str(table_id))
            self.links.bus.broadcast({"k": "closed", "t": table_id, "from": self.links.node})
        await self.links.nodes.beat(len(actors))
        await self._publish_lobby()

    async def _end_stale_writes(self) -> None:
        """End the room's writes stopped mid-pipeline past the idle bound (any process's):
        they hold the fences a takeover must lock."""
        await self.room.db.read(stale.end_stale_writes)

    def forget_lobby(self) -> None:
        """Redis lost the lobby: every entry is written again at the next renewal."""
        self._lobby_written.clear()

    async def _publish_lobby(self) -> None:
        """This process's tables' lobby entries into the room's hash: those that changed since
        they were last written, and every entry every :data:`LOBBY_REWRITE` renewals (what
        Redis lost, had it restarted, is written again)."""
        self._lobby_round = (self._lobby_round + 1) % LOBBY_REWRITE
        if self._lobby_round == 0:
            self._lobby_written.clear()
        written, actors = self._lobby_written, self.room.actors
        entries = {}
        for n, (table_id, actor) in enumerate(list(actors.items()), 1):
            entry = orjson.dumps(actor.lobby())
            if written.get(table_id) != entry:
                entries[str(table_id)] = written[table_id] = entry
            if n % LOBBY_SLICE == 0:
                await asyncio.sleep(0)  # the tables' steps go first: no burst of hundreds
        for table_id in [t for t in written if t not in actors]:
            del written[table_id]
        # A table lost or closed while the loop ran others is not this process's to list.
        entries = {t: e for t, e in entries.items() if int(t) in actors}
        if entries:
            await self.links.redis.hset(self._lobby_key, mapping=entries)

    def loads(self) -> dict[str, int]:
        """Each live process and how many tables it runs (as of the last scan)."""
        return dict(self._loads) or {self.links.node: len(self.room.actors)}

    async def _scan(self) -> None:
        """Who runs what; take free tables (least loaded first); follow tables that moved.

        The leases this process holds are not read: each renewal tells whether it still
        holds them (a lost one stops its table and is read again from the next scan on).
        """
        actors, node = self.room.actors, self.links.node
        tables = sorted(t for t in self.specs if t not in self.book.tokens)
        owners = await self.leases.owners(tables)
        known = self.relay.watcher_nodes() | self._watcher_nodes()
        self._loads = await self.links.nodes.live(len(actors), known)
        now = time.monotonic()
        free = self.claims.free(owners, self.owners, actors)
        if free and not await self.may_claim():
            free = []
        for table_id in free:
            fewer = fewer_loaded(self._loads, node, len(actors))
            seen, spec = self._first_seen.get(table_id, 0.0), self.specs.get(table_id)
            if self.claims.due(table_id, seen, now, fewer) and spec is not None:
                await self._claim(spec)
        self.relay.follow_moves()
        self.relay.sweep_dead_watchers(set(self._loads))
        self._share_load()

    def _share_load(self) -> None:
        """Running more than a fair share of the room's tables (and two more than the least
        loaded process): the excess is handed over, each at its next hand boundary, to the
        others (the least loaded takes a free table first). So a process that joins gets its
        share, and none is moved back and forth."""
        draining = self.links.nodes.draining
        loads = {node: n for node, n in self._loads.items() if node not in draining}
        actors = self.room.actors
        if self.claims.stopped or len(loads) < 2 or len(actors) - min(loads.values()) < 2:
            return
        staying = [a for a in actors.values() if not a.leave_at_boundary]
        fair = math.ceil(len(self.specs) / len(loads))
        # The tables with the fewest people move first (a move re-seats people, bots anew).
        staying.sort(key=lambda a: (sum(1 for _, p in a.table.players() if not p.bot), -a.id))
        for actor in staying[: max(0, len(staying) - fair)]:
            ask_to_leave(actor)

    async def _claim(self, spec: TableSpec) -> TableActor | None:
        """Take a free table: lease, fence token and recovery in PostgreSQL, then run it."""
        return await self.claims.once(spec.id, lambda: self._take(spec))

    async def _take(self, spec: TableSpec) -> TableActor | None:
        room, table_id = self.room, spec.id
        token = await self.claims.acquire(table_id)
        if token is None:
            return None
        db, node = room.db, self.links.node
        store = db.store
        try:
            recovered = await db.write(
                lambda c: fences.claim(c, store, table_id, token, node, time.time())
            )
        except fences.TableGone:
            await self.leases.release(table_id)
            self.specs.pop(table_id, None)
            return None
        except Exception as error:  # a stale token (Redis lost its counters), or a fault
            stored = partial(db.read, lambda c: fences.stored_token(c, table_id))
            await self.claims.refused(table_id, error, stored)
            return None
        if recovered["voided"] or recovered["cashed_out"] or recovered["kept"]:
            log.warning("table %s taken over: %s", table_id, recovered, extra=at(table_id))
        else:
            log.info("table run here now (lease token %s)", token, extra=at(table_id))
        for key in ("voided", "refunded", "cashed_out", "kept"):
            room.recovered[key] = room.recovered.get(key, 0) + int(recovered[key])
        room.hand_numbers[table_id] = int(recovered["last_hand"])
        actor = room.run_table(spec)
        actor.n = token * EVENT_EPOCH
        people = recovered["seated"]
        room.names.update({int(p["account_id"]): str(p["name"]) for p in people})
        await self.seats.seat_again(actor, people, room.config.grace_seconds)
        self.owners[table_id] = (node, token)
        self.relay.took(table_id, token, actor)
        entry = self._lobby_written[table_id] = orjson.dumps(actor.lobby())
        await self.links.redis.hset(self._lobby_key, str(table_id), entry)
        return actor

    # -- tables ------------------------------------------------------------------------------

    async def _refresh(self) -> None:
        """The open tables, read again from PostgreSQL (what the news may have missed): their
        ids, and the settings of those not known yet (a table's settings never change)."""
        db, known, actors = self.room.db, dict(self.specs), self.room.actors
        store = db.store

        def read(conn: Connection) -> dict[int, TableSpec]:
            ids = store.open_table_ids(conn)
            new = [t for t in ids if t not in known]
            found = {spec.id: spec for spec in store.open_tables(conn, new)} if new else {}
            found.update({t: known[t] for t in ids if t in known})
            return found

        fresh = await db.read(read)
        now = time.monotonic()
        for table_id in fresh.keys() - self.specs.keys():
            self._first_seen.setdefault(table_id, now)
        for table_id in self.specs.keys() - fresh.keys():
            if table_id not in actors:
                self._first_seen.pop(table_id, None)
        self.specs = {**fresh, **{t: a.spec for t, a in actors.items()}}

    async def open_new(self, spec: TableSpec) -> TableActor:
        """Run a table just stored, here: its lease taken first; the others are told."""
        self.specs[spec.id] = spec
        self._first_seen[spec.id] = time.monotonic()
        actor = await self._claim(spec)
        if actor is None:
            raise RuntimeError(f"table {spec.id} was made but could not be opened here")
        # Its token: the actor numbers its events from it (the table may already be moving
        # to a less loaded process, its owner here forgotten).
        token = actor.n // EVENT_EPOCH
        self.links.bus.broadcast(
            {"k": "opened", "from": self.links.node, "spec": {**spec.public(),
             "created_by": spec.created_by}, "tok": token}
        )  # fmt: skip
        return actor

    def remote(self, table_id: int) -> Remote | None:
        """The stand-in for a table of the room another process runs (None: no such table)."""
        if table_id not in self.specs:
            return None
        return self.relay.remote(table_id)

    def spec(self, table_id: int) -> TableSpec | None:
        return self.specs.get(table_id)

    async def lobby(self) -> dict[int, dict[str, Any]]:
        """The lobby entries in the room's hash, of the tables known open."""
        raw = await self.links.redis.hgetall(self._lobby_key)
        entries: dict[int, dict[str, Any]] = {}
        for key, value in raw.items():
            table_id = int(key)
            if table_id in self.specs:
                entries[table_id] = orjson.loads(value)
        return entries

    def runs(self) -> list[int]:
        """The tables this process runs now."""
        return sorted(t for t in self.room.actors if self.owns(t))

    # -- messages from the other processes ---------------------------------------------------

    def on_message(self, item: dict[str, Any]) -> bool:
        """A table opened or closed by another process; False if the message is not one."""
        kind = item.get("k")
        if kind not in ("opened", "closed"):
            return False
        if item.get("from") == self.links.node:
            return True
        if kind == "opened":
            spec = TableSpec(**item["spec"])
            self.specs[spec.id] = spec
            self._first_seen.setdefault(spec.id, time.monotonic())
            self.owners[spec.id] = (str(item["from"]), int(item["tok"]))
        else:
            table_id = int(item["t"])
            if table_id not in self.room.actors:
                self.specs.pop(table_id, None)
                self.owners.pop(table_id, None)
        return True
