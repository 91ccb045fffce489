"""A room shared by several processes: each table runs in one of them, any serves any client.

Every process started with the same PostgreSQL database and Redis joins the
room (docs/deploy.md). The tables are rows in PostgreSQL; each is run by the
process holding its lease (:mod:`.lease`), whose durable writes are fenced by
the lease's token (:mod:`.fence`). A client may connect to any process: a
command for a table another process runs travels to it, and the table's
messages for that client come back, through Redis (:mod:`.bus`,
:mod:`.remote`). Every process publishes its tables' lobby entries to one
Redis hash, so each serves the whole lobby.

When a process dies its leases lapse and the others take its tables, each
after voiding the hand in progress and cashing the stacks out (the recovery a
single process runs at its restart, for that table only); the least loaded
process takes a free table first. Connections that were watching a table
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
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

import orjson
import redis.asyncio as aioredis

from stud.server.actor import Command, TableActor
from stud.server.bots import make_bot
from stud.server.channel import Watcher
from stud.server.cluster import fence
from stud.server.cluster.bots import BotPool
from stud.server.cluster.bus import Bus
from stud.server.cluster.lease import EVENT_EPOCH, LeaseBook, Leases, LeaseTimes
from stud.server.cluster.limits import SharedBuckets
from stud.server.cluster.remote import RemoteTable, RemoteWatcher, Replies, reply_message
from stud.server.cluster.tourneys import KINDS as TOURNEY_KINDS
from stud.server.cluster.tourneys import ClusterDesk
from stud.server.limits import check_new_table
from stud.server.ratelimit import Buckets
from stud.server.room import Room, RoomConfig, TableHandle
from stud.server.storage import Account, Database, TableSpec
from stud.table import HandFactory, TableError

log = logging.getLogger("stud.server.cluster")

LOBBY_KEY = "{}lobby"
NODE_KEY = "{}nodeinfo:{}"
BOT_NAMES_KEY = "{}botnames"
SEATS_KEY = "{}seats:{}"
"""A Redis hash per table: the seat each person took there (to seat them again after a takeover)."""
NEW_TABLE_GRACE = 2.0
"""Seconds a table nobody holds must wait before others take it: its creator goes first."""
CLAIM_STEP = 0.3
"""A free table waits this long per live process running fewer tables than this one."""
SPEC_REFRESH = 2.0
"""How often the list of open tables is read again from PostgreSQL."""

# Raise the bot-name counter to at least the names the database already has.
RAISE_FLOOR = """
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if now < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
"""


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
        self._free_since: dict[int, float] = {}
        self._floors: dict[int, int] = {}
        self._connections: dict[int, Watcher] = {}
        self._following: dict[int, dict[int, Watcher]] = {}
        """Local connections watching a table another process runs: table -> key -> conn."""
        self._followed: dict[int, tuple[str, int] | None] = {}
        """The owner each followed table's watches were last sent to."""
        self._remote_watchers: dict[tuple[str, int, int], RemoteWatcher] = {}
        self._newest_token: dict[int, int] = {}
        self._loads: dict[str, int] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._claiming: set[int] = set()
        self._missing: set[str] = set()
        self._raise_floor = self.redis.register_script(RAISE_FLOOR)
        self._background: set[asyncio.Task[Any]] = set()
        self.bot_pool = BotPool(self.redis, self.prefix, self.node, self._node_key)
        self.new_table_grace = NEW_TABLE_GRACE
        self.claim_step = CLAIM_STEP
        self.desk = ClusterDesk(self)
        """The room's tournaments, each run by one process (``tournaments`` is the same)."""
        self.tournaments = self.desk

    @property
    def _lobby_key(self) -> str:
        return LOBBY_KEY.format(self.prefix)

    # -- life cycle ------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def lock(self, name: str, seconds: float = 30.0) -> AsyncIterator[None]:
        """A Redis lock across the room's processes (waits up to ``seconds`` for it)."""
        key, value = f"{self.prefix}lock:{name}", uuid.uuid4().hex
        deadline = time.monotonic() + seconds
        while not await self.redis.set(key, value, nx=True, px=int(seconds * 1000)):
            if time.monotonic() > deadline:
                raise TimeoutError(f"the room's {name} lock is held too long")
            await asyncio.sleep(0.05)
        try:
            yield
        finally:
            if await self.redis.get(key) == value.encode():
                await self.redis.delete(key)

    async def open_database(self) -> None:
        await self.redis.ping()
        async with self.lock("schema"):  # two processes must not both create the schema
            await asyncio.to_thread(self.db.start)
            self.prefix = await self.db.write(fence.room_prefix)
        self.leases = Leases(self.redis, self.book, self.prefix)
        self.bus = Bus(self.redis, self.prefix, self.node, self._on_message)
        self.bus.on_reconnect = self._rewatch_all
        self.bot_pool = BotPool(self.redis, self.prefix, self.node, self._node_key)
        self.db.store.fence = fence.TokenFence(self.book.tokens, self.desk.book.tokens)

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
        await self._raise_floor(keys=[BOT_NAMES_KEY.format(self.prefix)], args=[len(bots)])
        self._names.update({bot.id: bot.name for bot in bots})
        await self._heartbeat()  # before taking bots: a holder without one counts as dead
        await self.bot_pool.start([bot.id for bot in bots])
        for spec in specs:
            self.specs[spec.id] = spec
            self._first_seen[spec.id] = 0.0
        await self._heartbeat()
        await self._scan()
        self._tasks = [
            asyncio.create_task(self.every(self.times.renew, self._renew), name="cluster-renew"),
            asyncio.create_task(self.every(self.times.scan, self._scan), name="cluster-scan"),
            asyncio.create_task(self.every(SPEC_REFRESH, self._refresh), name="cluster-tables"),
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
            await self.redis.delete(NODE_KEY.format(self.prefix, self.node))
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
        seat = actor.table.seat_of(account_id)
        if seat is None:
            return
        task = asyncio.create_task(self._note_seat(actor.id, account_id, seat))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _note_seat(self, table_id: int, account_id: int, seat: int) -> None:
        try:
            await self.redis.hset(SEATS_KEY.format(self.prefix, table_id), str(account_id), seat)
        except Exception:  # Redis away: a takeover seats them as the last hand did
            log.warning("table %s: the seat of account %s not noted", table_id, account_id)

    def lost(self, actor: TableActor) -> None:
        """The actor stopped (lease lapsed): its local watchers follow the table elsewhere."""
        table_id = actor.id
        log.warning("table %s: lease lost, no longer run here", table_id)
        if self.actors.get(table_id) is actor:
            del self.actors[table_id]
        self.book.drop(table_id)
        for watcher in list(actor.watchers):
            if isinstance(watcher, RemoteWatcher):
                self._remote_watchers.pop((watcher.node, watcher.key, table_id), None)
            else:
                self._follow(table_id, watcher)
        self._followed[table_id] = None
        self.owners.pop(table_id, None)
        for bot in actor.bots:
            self.release_bot(bot)

    async def _renew(self) -> None:
        lost = await self.leases.renew()
        if lost:
            log.warning("leases lost (not renewed in time): tables %s", lost)
        for table_id in lost:
            actor = self.actors.get(table_id)
            if actor is not None:
                actor.tell(Command("wake"))  # it sees the lease is gone and stops
        now = time.monotonic()
        for table_id, actor in list(self.actors.items()):
            if not self.book.holds(table_id, now):
                actor.tell(Command("wake"))
        # Tables whose actor finished (closed): give the lease up, leave the lobby.
        closed = [t for t in self.book.tokens if t not in self.actors and t not in self._claiming]
        for table_id in closed:
            await self.leases.release(table_id)
            self.specs.pop(table_id, None)
            await self.redis.hdel(self._lobby_key, str(table_id))
            self.bus.broadcast({"k": "closed", "t": table_id, "from": self.node})
        await self._heartbeat()
        await self._publish_lobby()

    def _node_key(self, node: str) -> str:
        return NODE_KEY.format(self.prefix, node)

    async def _heartbeat(self) -> None:
        info = orjson.dumps({"tables": len(self.actors)})
        await self.redis.set(self._node_key(self.node), info, px=int(self.times.ttl * 1000))

    async def _publish_lobby(self) -> None:
        entries = {str(t): orjson.dumps(a.lobby()) for t, a in self.actors.items()}
        if entries:
            await self.redis.hset(self._lobby_key, mapping=entries)

    def loads(self) -> dict[str, int]:
        """Each live process and how many tables it runs (as of the last scan)."""
        return dict(self._loads) or {self.node: len(self.actors)}

    async def _live_nodes(self) -> dict[str, int]:
        """Each live process and how many tables it runs."""
        pattern = NODE_KEY.format(self.prefix, "*")
        keys = [k async for k in self.redis.scan_iter(match=pattern, count=1000)]
        values = await self.redis.mget(keys) if keys else []
        loads: dict[str, int] = {}
        prefix = len(NODE_KEY.format(self.prefix, ""))
        for key, value in zip(keys, values, strict=True):
            if value is not None:
                name = key.decode() if isinstance(key, bytes) else str(key)
                loads[name[prefix:]] = int(orjson.loads(value).get("tables", 0))
        loads[self.node] = len(self.actors)
        return loads

    async def _scan(self) -> None:
        """Who runs what; take free tables (least loaded first); follow tables that moved."""
        tables = sorted(self.specs)
        owners = await self.leases.owners(tables)
        self._loads = await self._live_nodes()
        mine = self._loads[self.node]
        fewer = sum(1 for node, n in self._loads.items() if node != self.node and n < mine)
        now = time.monotonic()
        for table_id, owner in owners.items():
            if owner is not None:
                self.owners[table_id] = owner
                self._free_since.pop(table_id, None)
                continue
            self.owners.pop(table_id, None)
            if table_id in self.actors:
                continue
            free_since = self._free_since.setdefault(table_id, now)
            if now - self._first_seen.get(table_id, 0.0) < NEW_TABLE_GRACE:
                continue
            if now - free_since < CLAIM_STEP * fewer:
                continue
            spec = self.specs.get(table_id)
            if spec is not None and await self._claim(spec) is not None:
                mine += 1
                fewer = sum(1 for node, n in self._loads.items() if node != self.node and n < mine)
        self._follow_moves()
        await self._sweep_dead_watchers()

    async def _claim(self, spec: TableSpec) -> TableActor | None:
        """Take a free table: lease, fence token and recovery in PostgreSQL, then run it."""
        table_id = spec.id
        if table_id in self._claiming:
            return None
        self._claiming.add(table_id)
        try:
            return await self._take(spec)
        finally:
            self._claiming.discard(table_id)

    async def _take(self, spec: TableSpec) -> TableActor | None:
        table_id = spec.id
        token = await self.leases.acquire(table_id, self._floors.get(table_id, 0))
        if token is None:
            return None
        store, node = self.db.store, self.node
        try:
            recovered = await self.db.write(
                lambda c: fence.claim(c, store, table_id, token, node, time.time())
            )
        except fence.TableGone:
            await self.leases.release(table_id)
            self.specs.pop(table_id, None)
            return None
        except Exception as error:
            # A stale token (Redis lost its counters): start the next one above the stored.
            await self.leases.release(table_id)
            if isinstance(error, fence.Fenced):
                self._floors[table_id] = await self.db.read(
                    lambda c: fence.stored_token(c, table_id)
                )
            else:
                log.exception("table %s: taking it over failed", table_id)
            return None
        if recovered["voided"] or recovered["cashed_out"] or recovered["kept"]:
            log.warning("table %s taken over: %s", table_id, recovered)
        for key in ("voided", "refunded", "cashed_out", "kept"):
            self.recovered[key] = self.recovered.get(key, 0) + int(recovered[key])
        self._hand_numbers[table_id] = int(recovered["last_hand"])
        actor = self._open(spec)
        actor.n = token * EVENT_EPOCH
        taken = await self.redis.hgetall(SEATS_KEY.format(self.prefix, table_id))
        self._seat_again(actor, recovered["seated"], {int(a): int(s) for a, s in taken.items()})
        self.owners[table_id] = (node, token)
        self._newest_token[table_id] = token
        # Connections here that watched it elsewhere now watch it here.
        for conn_key, watcher in list(self._following.get(table_id, {}).items()):
            self._unfollow(table_id, conn_key)
            actor.tell(Command("watch", watcher.account_id, args={}, watcher=watcher))
        self._following.pop(table_id, None)
        self._followed.pop(table_id, None)
        await self.redis.hset(self._lobby_key, str(table_id), orjson.dumps(actor.lobby()))
        return actor

    def _seat_again(
        self, actor: TableActor, people: list[dict[str, Any]], taken: dict[int, int]
    ) -> None:
        """The people of a table taken over, in their seats with their stacks (before its
        actor's first step), each away for the grace period until a connection watches.

        Their seat is the one they took (``taken``, noted when they sat), else the one of
        the table's last hand.
        """
        now = time.time()
        for person in people:
            account = int(person["account_id"])
            seat = taken.get(account, person["seat"])
            if seat is not None and actor.table.seats[seat] is not None:
                seat = None
            self._names[account] = str(person["name"])
            try:
                actor.resumed += actor.table.sit(
                    account, str(person["name"]), int(person["stack"]), now, seat=seat, kept=True
                )
            except TableError:  # never (the same seats): the stack waits for a restart
                log.exception("table %s: account %s could not be seated again", actor.id, account)
                continue
            actor.gone[account] = now + self.config.grace_seconds

    # -- tables ----------------------------------------------------------------------------

    async def _refresh(self) -> None:
        """The open tables, read again from PostgreSQL (what the news may have missed)."""
        specs = await self.db.read(self.db.store.open_tables)
        now = time.monotonic()
        fresh = {spec.id: spec for spec in specs}
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
        owner = self.owners.get(table_id)
        return RemoteTable(self, table_id, None if owner is None else owner[0])

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
        return f"Bot {int(await self.redis.incr(BOT_NAMES_KEY.format(self.prefix)))}"

    async def bot_accounts(self, count: int) -> list[Account]:
        """``count`` of the room's bots idle on every process (new ones only if none is)."""
        taken = []
        for account_id in await self.bot_pool.take(count):
            if account_id not in self._names:
                account = await self.db.read(partial(self.db.store.account, account_id=account_id))
                self._names[account_id] = account.name if account else f"Bot #{account_id}"
            taken.append(Account(account_id, self._names[account_id], "bot"))
        names = [await self.new_bot_name() for _ in range(count - len(taken))]
        if names:
            store = self.db.store
            made = await self.db.write(
                lambda c: [store.create_account(c, name, "bot") for name in names]
            )
            await self.bot_pool.add([a.id for a in made])
            self._names.update({a.id: a.name for a in made})
            taken += made
        return taken

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

    def _follow(self, table_id: int, watcher: Watcher) -> None:
        """A local connection watches a table run elsewhere: deliver its messages, re-watch."""
        key = self.connection_key(watcher)
        self._connections[key] = watcher
        self._following.setdefault(table_id, {})[key] = watcher

    def before_remote(self, table_id: int, command: Command) -> None:
        """Note which local connection follows which remote table (to re-watch if it moves)."""
        watcher = command.watcher
        if watcher is None:
            return
        key = self.connection_key(watcher)
        if command.kind == "watch":
            self._follow(table_id, watcher)
            self._followed[table_id] = self.owners.get(table_id)
        elif command.kind in ("unwatch", "disconnect"):
            self._unfollow(table_id, key)

    def _unfollow(self, table_id: int, key: int) -> None:
        self._following.get(table_id, {}).pop(key, None)
        if not any(key in conns for conns in self._following.values()):
            self._connections.pop(key, None)

    def _follow_moves(self) -> None:
        """Re-watch, with its new owner, each followed table that changed hands."""
        for table_id, conns in list(self._following.items()):
            if not conns:
                del self._following[table_id]
                continue
            owner = self.owners.get(table_id)
            if owner is None or owner == self._followed.get(table_id):
                continue
            self._followed[table_id] = owner
            if owner[0] == self.node:
                continue  # _claim attached them
            for key, watcher in conns.items():
                account = watcher.account_id
                message: dict[str, Any] = {
                    "k": "cmd", "from": self.node, "req": None, "t": table_id,
                    "c": "watch", "a": account, "args": {}, "w": key, "wa": account,
                }  # fmt: skip
                self.bus.send(owner[0], message)

    def _rewatch_all(self) -> None:
        """The subscription dropped (messages may be lost): every followed table re-watched."""
        self._followed.clear()

    async def _sweep_dead_watchers(self) -> None:
        """Connections of a process that died: disconnected (their seats get the grace).

        A process missing from two scans in a row counts as dead; if it was only slow, it
        is told, and its connections watch again.
        """
        nodes = {node for node, _, _ in self._remote_watchers}
        missing = nodes - self._loads.keys()
        dead, self._missing = missing & self._missing, missing
        for node in dead:
            tables: set[int] = set()
            for key in [k for k in self._remote_watchers if k[0] == node]:
                watcher = self._remote_watchers.pop(key)
                tables.add(watcher.table_id)
                actor = self.actors.get(watcher.table_id)
                if actor is not None:
                    actor.tell(Command("disconnect", watcher.account_id, watcher=watcher))
            for table_id in tables:
                self.bus.send(node, {"k": "dropped", "t": table_id})

    # -- messages from the other processes -------------------------------------------------

    def _on_message(self, item: dict[str, Any]) -> None:
        kind = item.get("k")
        if kind in TOURNEY_KINDS:
            self.desk.on_message(item)
        elif kind == "out":
            self._deliver(item)
        elif kind == "cmd":
            self._command(item)
        elif kind == "reply":
            self.replies.resolve(item)
        elif kind == "dropped":  # the owner took this process for dead: watch again
            self._followed[int(item["t"])] = None
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

    def _deliver(self, item: dict[str, Any]) -> None:
        """A table's message for one local connection (none from a superseded owner)."""
        table_id, token = int(item["t"]), int(item["tok"])
        newest = self._newest_token.get(table_id, 0)
        if token < newest:
            return
        self._newest_token[table_id] = token
        watcher = self._connections.get(int(item["c"]))
        if watcher is not None:
            watcher.send(str(item["m"]))

    def _command(self, item: dict[str, Any]) -> None:
        """A command from a connection of another process, for a table this one runs."""
        sender, request, table_id = str(item["from"]), item.get("req"), int(item["t"])
        actor = self.actors.get(table_id)
        if actor is None or not self.owns(table_id):
            if item.get("c") == "watch":  # taken but not open yet: the sender watches again
                self.bus.send(sender, {"k": "dropped", "t": table_id})
                if request is not None:
                    self.bus.send(sender, {"k": "reply", "req": request, "ok": None})
            elif request is not None:
                refusal = ["unavailable", "the table is moving: try again"]
                self.bus.send(sender, {"k": "reply", "req": request, "err": refusal})
            return
        kind = str(item["c"])
        if kind == "spectate":
            if request is not None:
                self.bus.send(sender, {"k": "reply", "req": request, "ok": actor.entry()})
            return
        watcher: RemoteWatcher | None = None
        if item.get("w") is not None:
            key = (sender, int(item["w"]), table_id)
            watcher = self._remote_watchers.get(key)
            if watcher is None:
                account = None if item.get("wa") is None else int(item["wa"])
                watcher = RemoteWatcher(self, sender, int(item["w"]), account, table_id)
                if kind == "watch":  # only a watcher is kept (by the actor, and here)
                    self._remote_watchers[key] = watcher
            if kind in ("unwatch", "disconnect"):
                self._remote_watchers.pop(key, None)
        account_id = None if item.get("a") is None else int(item["a"])
        args = dict(item.get("args") or {})
        command = Command(kind, account_id, args=args, watcher=watcher)
        if request is not None:
            done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            command.done = done
            done.add_done_callback(lambda f: self.bus.send(sender, reply_message(int(request), f)))
        actor.tell(command)
