"""A room shared by several processes: each table runs in one of them, any serves any client.

Every process started with the same PostgreSQL database and Redis joins the
room (docs/deploy.md). The tables are rows in PostgreSQL; each is run by the
process holding its lease (:mod:`.lease`), whose durable writes are fenced by
the lease's token (:mod:`stud.server.storage.fences`). A client may connect to any process: a
command for a table another process runs travels to it, and the table's
messages for that client come back, through Redis (:mod:`.bus`,
:mod:`.relay`, the same for tournaments). Every process publishes its tables'
lobby entries to one Redis hash, so each serves the whole lobby, and its
heartbeat to another (:mod:`.nodes`).

When a process dies its leases lapse and the others take its tables, each
after voiding the hand in progress and cashing the bots' stacks out (the
recovery a single process runs at its restart, for that table only); the
people's stacks stay and they are seated again (:mod:`.seats`). The least
loaded process takes a free table first (:mod:`.claims`). Connections that were watching a table
through the dead process reconnect elsewhere; those watching from a live
process are re-attached to the new owner, which sends each a full ``state``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
import uuid
from contextlib import AbstractAsyncContextManager
from functools import partial
from typing import Any

import orjson
import redis.asyncio as aioredis
from sqlalchemy import Connection

from stud.server.actors.bots import make_bot
from stud.server.actors.channel import Watcher
from stud.server.actors.mailbox import Command
from stud.server.actors.table import TableActor
from stud.server.cluster.bots import BotPool
from stud.server.cluster.bus import Bus
from stud.server.cluster.claims import Claims, fewer_loaded
from stud.server.cluster.lease import EVENT_EPOCH, LeaseBook, Leases, LeaseTimes
from stud.server.cluster.limits import SharedBuckets
from stud.server.cluster.nodes import Nodes
from stud.server.cluster.relay import Relay
from stud.server.cluster.remote import TABLES, Replies
from stud.server.cluster.seats import Seats
from stud.server.cluster.tourneys import ClusterDesk
from stud.server.room.room import Room, RoomConfig, TableHandle
from stud.server.storage import Account, Database, TableSpec, fences, stale
from stud.server.trust.limits import check_new_table
from stud.server.trust.ratelimit import Buckets
from stud.table import HandFactory

log = logging.getLogger("stud.server.cluster")

LOBBY_KEY = "{}lobby"
SPEC_REFRESH = 2.0
"""How often the list of open tables is read again from PostgreSQL."""
LOBBY_REWRITE = 20
"""Every this many lease renewals, every lobby entry is written, changed or not."""
LOBBY_SLICE = 50
"""Lobby entries made between two turns of the event loop (one takes some 10 µs: 250
tables' entries at once held the loop for a few milliseconds every renewal)."""


def lease_times_from_env() -> LeaseTimes:
    """``$STUD_LEASE_SECONDS`` sets the lease's TTL (renewals at a quarter of it)."""
    ttl = float(os.environ.get("STUD_LEASE_SECONDS") or LeaseTimes().ttl)
    return LeaseTimes(ttl=ttl, renew=ttl / 4, scan=min(0.5, ttl / 6), margin=min(0.25, ttl / 10))


class ClusterRoom(Room):
    """This process's share of a room run by several."""

    def __init__(
        self,
        *,
        db: Database,
        config: RoomConfig,
        hand_factory: HandFactory,
        redis_url: str,
        times: LeaseTimes | None = None,
    ) -> None:
        super().__init__(db=db, config=config, hand_factory=hand_factory)
        self.node = uuid.uuid4().hex[:12]
        self.times = times or lease_times_from_env()
        self.redis: Any = aioredis.from_url(redis_url)
        self.book = LeaseBook(self.node, self.times)
        self.prefix = "stud:"
        """Every Redis key and channel of this room starts with it (set from the database)."""
        self.leases = Leases(self.redis, self.book, self.prefix)
        self.bus = Bus(self.redis, self.prefix, self.node, self._on_message)
        self.replies = Replies()
        self.specs: dict[int, TableSpec] = {}
        """Every open table of the room (from PostgreSQL and the processes' news)."""
        self.owners: dict[int, tuple[str, int]] = {}
        """Who runs each table, as last read from the leases."""
        self._first_seen: dict[int, float] = {}
        self.relay = Relay(self, TABLES, self.book, self.actors, self.owns, self.owners)
        """Commands for tables other processes run, and theirs for the tables run here."""
        self.claims = Claims("table", lambda: self.leases)
        self._loads: dict[str, int] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self.seats = Seats(self.redis, self.prefix)
        self.nodes = Nodes(self.redis, self.prefix, self.node, self.times.ttl)
        self.bot_pool = BotPool(self.redis, self.prefix, self.node, self.nodes.key)
        self.desk = ClusterDesk(self)
        """The room's tournaments, each run by one process (``tournaments`` is the same)."""
        self.tournaments = self.desk
        self._lobby_written: dict[int, bytes] = {}
        """Each table's lobby entry as this process last wrote it to Redis."""
        self._lobby_round = 0

    @property
    def _lobby_key(self) -> str:
        return LOBBY_KEY.format(self.prefix)

    # -- life cycle ------------------------------------------------------------------------

    def lock(self, name: str, seconds: float = 30.0) -> AbstractAsyncContextManager[None]:
        """A Redis lock across the room's processes (waits up to ``seconds`` for it)."""
        return self.nodes.lock(name, seconds)

    async def open_database(self) -> None:
        await self.redis.ping()
        async with self.lock("schema"):  # two processes must not both create the schema
            await asyncio.to_thread(self.db.start)
            self.prefix = await self.db.write(fences.room_prefix)
        self.nodes = Nodes(self.redis, self.prefix, self.node, self.times.ttl)
        self.leases = Leases(self.redis, self.book, self.prefix)
        self.bus = Bus(self.redis, self.prefix, self.node, self._on_message)
        self.bus.on_reconnect = self._rewatch_all
        self.bot_pool = BotPool(self.redis, self.prefix, self.node, self.nodes.key)
        self.seats = Seats(self.redis, self.prefix)
        self.db.store.fence = fences.TokenFence(self.book.tokens, self.desk.book.tokens)

    async def start(self) -> None:
        """Join the room: listen, create the first tables if there are none, take free ones;
        the same for tournaments (stud.server.cluster.tourneys)."""
        self.bus.start()
        store = self.db.store
        async with self.lock("defaults"):
            specs = await self.db.read(store.open_tables)
            if not specs:
                for default in self.config.default_tables:
                    specs.append(await self._save_table(default, None))
        bots = await self.db.read(lambda c: store.accounts_of_kind(c, "bot"))
        self._names.update({bot.id: bot.name for bot in bots})
        await self.nodes.beat(len(self.actors))  # before taking bots: or counted as dead
        await self.bot_pool.start([bot.id for bot in bots])
        for spec in specs:
            self.specs[spec.id] = spec
            self._first_seen[spec.id] = 0.0
        await self.nodes.beat(len(self.actors))
        await self._scan()
        self._tasks = [
            asyncio.create_task(self.every(self.times.renew, self._renew), name="cluster-renew"),
            asyncio.create_task(self.every(self.times.scan, self._scan), name="cluster-scan"),
            asyncio.create_task(self.every(SPEC_REFRESH, self._refresh), name="cluster-tables"),
            asyncio.create_task(
                self.every(stale.SWEEP_SECONDS, self._end_stale_writes), name="cluster-stale"
            ),
        ]
        await self.desk.start()

    async def stop(self) -> None:
        """A clean stop: the tables are given up at once, so others take them without waiting."""
        for task in self._tasks:
            task.cancel()
        await super().stop()
        await self.bot_pool.stop()
        with contextlib.suppress(Exception):
            for table_id in list(self.book.tokens):
                await self.leases.release(table_id)
            await self.nodes.leave()
        with contextlib.suppress(Exception):
            await self.bus.stop()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def every(self, seconds: float, step: Any) -> None:
        """Run ``step`` every ``seconds`` until cancelled (a failed round is logged)."""
        while True:
            await asyncio.sleep(seconds)
            try:
                await step()
            except Exception:  # Redis or PostgreSQL away: the next round tries again
                log.exception("cluster step %s failed", getattr(step, "__name__", step))

    # -- leases ----------------------------------------------------------------------------

    def owns(self, table_id: int) -> bool:
        return self.book.holds(table_id)

    def seated(self, actor: TableActor, account_id: int) -> None:
        self.seats.note(actor, account_id)

    def lost(self, actor: TableActor) -> None:
        """The actor stopped (lease lapsed): its local watchers follow the table elsewhere."""
        table_id = actor.id
        log.warning("table %s: lease lost, no longer run here", table_id)
        if self.actors.get(table_id) is actor:
            del self.actors[table_id]
        self.book.drop(table_id)
        self.relay.lost(table_id, [(watcher, None) for watcher in actor.watchers])
        self.owners.pop(table_id, None)
        for bot in actor.bots:
            self.release_bot(bot)

    async def _renew(self) -> None:
        await self.claims.renew(self.actors)
        # Tables whose actor finished (closed): give the lease up, leave the lobby.
        closed = [
            t for t in self.book.tokens if t not in self.actors and t not in self.claims.claiming
        ]
        for table_id in closed:
            await self.leases.release(table_id)
            self.specs.pop(table_id, None)
            await self.redis.hdel(self._lobby_key, str(table_id))
            self.bus.broadcast({"k": "closed", "t": table_id, "from": self.node})
        await self.nodes.beat(len(self.actors))
        await self._publish_lobby()

    async def _end_stale_writes(self) -> None:
        """End the room's writes stopped mid-pipeline past the idle bound (any process's):
        they hold the fences a takeover must lock."""
        await self.db.read(stale.end_stale_writes)

    async def _publish_lobby(self) -> None:
        """This process's tables' lobby entries into the room's hash: those that changed since
        they were last written, and every entry every :data:`LOBBY_REWRITE` renewals (what
        Redis lost, had it restarted, is written again)."""
        self._lobby_round = (self._lobby_round + 1) % LOBBY_REWRITE
        if self._lobby_round == 0:
            self._lobby_written.clear()
        written = self._lobby_written
        entries = {}
        for n, (table_id, actor) in enumerate(list(self.actors.items()), 1):
            entry = orjson.dumps(actor.lobby())
            if written.get(table_id) != entry:
                entries[str(table_id)] = written[table_id] = entry
            if n % LOBBY_SLICE == 0:
                await asyncio.sleep(0)  # the tables' steps go first: no burst of hundreds
        for table_id in [t for t in written if t not in self.actors]:
            del written[table_id]
        # A table lost or closed while the loop ran others is not this process's to list.
        entries = {t: e for t, e in entries.items() if int(t) in self.actors}
        if entries:
            await self.redis.hset(self._lobby_key, mapping=entries)

    def loads(self) -> dict[str, int]:
        """Each live process and how many tables it runs (as of the last scan)."""
        return dict(self._loads) or {self.node: len(self.actors)}

    async def _scan(self) -> None:
        """Who runs what; take free tables (least loaded first); follow tables that moved.

        The leases this process holds are not read: each renewal tells whether it still
        holds them (a lost one stops its table and is read again from the next scan on).
        """
        tables = sorted(t for t in self.specs if t not in self.book.tokens)
        owners = await self.leases.owners(tables)
        known = self.relay.watcher_nodes() | self.desk.relay.watcher_nodes()
        self._loads = await self.nodes.live(len(self.actors), known)
        now = time.monotonic()
        for table_id in self.claims.free(owners, self.owners, self.actors):
            fewer = fewer_loaded(self._loads, self.node, len(self.actors))
            seen, spec = self._first_seen.get(table_id, 0.0), self.specs.get(table_id)
            if self.claims.due(table_id, seen, now, fewer) and spec is not None:
                await self._claim(spec)
        self.relay.follow_moves()
        self.relay.sweep_dead_watchers(set(self._loads))

    async def _claim(self, spec: TableSpec) -> TableActor | None:
        """Take a free table: lease, fence token and recovery in PostgreSQL, then run it."""
        return await self.claims.once(spec.id, lambda: self._take(spec))

    async def _take(self, spec: TableSpec) -> TableActor | None:
        table_id = spec.id
        token = await self.claims.acquire(table_id)
        if token is None:
            return None
        store, node = self.db.store, self.node
        try:
            recovered = await self.db.write(
                lambda c: fences.claim(c, store, table_id, token, node, time.time())
            )
        except fences.TableGone:
            await self.leases.release(table_id)
            self.specs.pop(table_id, None)
            return None
        except Exception as error:  # a stale token (Redis lost its counters), or a fault
            stored = partial(self.db.read, lambda c: fences.stored_token(c, table_id))
            await self.claims.refused(table_id, error, stored)
            return None
        if recovered["voided"] or recovered["cashed_out"] or recovered["kept"]:
            log.warning("table %s taken over: %s", table_id, recovered)
        for key in ("voided", "refunded", "cashed_out", "kept"):
            self.recovered[key] = self.recovered.get(key, 0) + int(recovered[key])
        self._hand_numbers[table_id] = int(recovered["last_hand"])
        actor = self._open(spec)
        actor.n = token * EVENT_EPOCH
        people = recovered["seated"]
        self._names.update({int(p["account_id"]): str(p["name"]) for p in people})
        await self.seats.seat_again(actor, people, self.config.grace_seconds)
        self.owners[table_id] = (node, token)
        self.relay.took(table_id, token, actor)
        entry = self._lobby_written[table_id] = orjson.dumps(actor.lobby())
        await self.redis.hset(self._lobby_key, str(table_id), entry)
        return actor

    # -- tables ----------------------------------------------------------------------------

    async def _refresh(self) -> None:
        """The open tables, read again from PostgreSQL (what the news may have missed): their
        ids, and the settings of those not known yet (a table's settings never change)."""
        store, known = self.db.store, dict(self.specs)

        def read(conn: Connection) -> dict[int, TableSpec]:
            ids = store.open_table_ids(conn)
            new = [t for t in ids if t not in known]
            found = {spec.id: spec for spec in store.open_tables(conn, new)} if new else {}
            found.update({t: known[t] for t in ids if t in known})
            return found

        fresh = await self.db.read(read)
        now = time.monotonic()
        for table_id in fresh.keys() - self.specs.keys():
            self._first_seen.setdefault(table_id, now)
        for table_id in self.specs.keys() - fresh.keys():
            if table_id not in self.actors:
                self._first_seen.pop(table_id, None)
        self.specs = {**fresh, **{t: a.spec for t, a in self.actors.items()}}

    async def create_table(self, spec: TableSpec, creator: Account | None) -> TableActor:
        """Open a table here; the creator's quota counts its tables on every process."""
        self.settings_for(spec)
        make_bot(spec.bot_kind)
        lock = f"create:{None if creator is None else creator.id}"
        async with self.lock(lock, 10.0):
            if creator is not None:
                specs = await self.db.read(self.db.store.open_tables)
                mine = [s for s in specs if s.created_by == creator.id]
                check_new_table(self.config.limits, creator.kind, mine, spec.bots)
            saved = await self._save_table(spec, None if creator is None else creator.id)
            self.specs[saved.id] = saved
            self._first_seen[saved.id] = time.monotonic()
            actor = await self._claim(saved)
        if actor is None:
            raise RuntimeError(f"table {saved.id} was made but could not be opened here")
        self.bus.broadcast(
            {"k": "opened", "from": self.node, "spec": {**saved.public(),
             "created_by": saved.created_by}, "tok": self.owners[saved.id][1]}
        )  # fmt: skip
        return actor

    def table(self, table_id: int) -> TableHandle | None:
        actor = self.actors.get(table_id)
        if actor is not None and self.owns(table_id):
            return actor
        if table_id not in self.specs:
            return None
        return self.relay.remote(table_id)

    def spec(self, table_id: int) -> TableSpec | None:
        actor = self.actors.get(table_id)
        return actor.spec if actor is not None else self.specs.get(table_id)

    async def lobby_all(self) -> list[dict[str, Any]]:
        raw = await self.redis.hgetall(self._lobby_key)
        entries: dict[int, dict[str, Any]] = {}
        for key, value in raw.items():
            table_id = int(key)
            if table_id in self.specs:
                entries[table_id] = orjson.loads(value)
        for table_id, actor in self.actors.items():
            entries[table_id] = actor.lobby()
        return [entries[t] for t in sorted(entries)]

    async def table_entry(self, table_id: int) -> dict[str, Any] | None:
        handle = self.table(table_id)
        if handle is None:
            return None
        if isinstance(handle, TableActor):
            return handle.entry()
        entry: dict[str, Any] = await handle.call(Command("spectate"))  # TableError: moving
        return entry

    def rename(self, account_id: int, name: str) -> None:
        super().rename(account_id, name)
        self.bus.broadcast({"k": "rename", "from": self.node, "a": account_id, "name": name})

    async def new_bot_name(self) -> str:
        """Bot names unique across the room's processes (one counter in Redis)."""
        return await self.bot_pool.new_name()

    async def bot_accounts(self, count: int) -> list[Account]:
        """``count`` of the room's bots idle on every process (new ones only if none is)."""
        return await self.bot_pool.accounts(count, self.db, self._names)

    def reserve_bot(self, account_id: int, name: str) -> None:
        self._names[account_id] = name
        self.bot_pool.reserve(account_id)

    def release_bot(self, account_id: int) -> None:
        self.bot_pool.release(account_id)

    def buckets(self, name: str, burst: float, refill_seconds: float, limit: int) -> Buckets:
        """The room's login and signup throttles count in Redis, for every process at once."""
        return SharedBuckets(self, name, burst, refill_seconds)

    def health(self) -> dict[str, Any]:
        runs = sorted(t for t in self.actors if self.owns(t))
        tournaments = sorted(t for t in self.desk.book.tokens if self.desk.book.holds(t))
        return {"node": self.node, "runs": runs, "room_tables": len(self.specs),
                "tournaments": tournaments}  # fmt: skip

    # -- connections that watch tables of other processes -----------------------------------

    @staticmethod
    def connection_key(watcher: Watcher) -> int:
        """How a local connection is named to other processes (unique while it lives)."""
        return id(watcher)

    def _rewatch_all(self) -> None:
        """The subscription dropped (messages may be lost): every remote table and tournament
        a connection here follows is watched again."""
        self.relay.rewatch_all()
        self.desk.relay.rewatch_all()

    # -- messages from the other processes -------------------------------------------------

    def _on_message(self, item: dict[str, Any]) -> None:
        if self.relay.on_message(item) or self.desk.on_message(item):
            return
        kind = item.get("k")
        if kind == "reply":
            self.replies.resolve(item)
        elif kind == "opened" and item.get("from") != self.node:
            spec = TableSpec(**item["spec"])
            self.specs[spec.id] = spec
            self._first_seen.setdefault(spec.id, time.monotonic())
            self.owners[spec.id] = (str(item["from"]), int(item["tok"]))
        elif kind == "closed" and item.get("from") != self.node:
            table_id = int(item["t"])
            if table_id not in self.actors:
                self.specs.pop(table_id, None)
                self.owners.pop(table_id, None)
        elif kind == "rename" and item.get("from") != self.node:
            Room.rename(self, int(item["a"]), str(item["name"]))
