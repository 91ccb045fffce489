"""The room's bot accounts, shared by its processes: each bot plays for one process at a time.

A single process keeps its idle bots in a list and reuses them; a room on
several processes keeps one Redis hash, ``<room>bots``, of every bot account
and the process it plays for (empty: idle). A process takes idle bots with one
script (atomic: two processes never take the same bot), and makes new accounts
only when none is idle, so restarting processes, or running many, does not pile
up bot accounts. A bot held by a process that died (its heartbeat key lapsed)
counts as idle: the tables it sat at are taken over and cashed out, and a
tournament it plays in reserves it again in the process that takes it over.

Redis may restart empty (:mod:`.epoch`): each process then puts back the bots
it holds, every bot account of the database as idle, and the name counter
above every bot name the database has. A name is never given twice meanwhile:
each process knows the highest bot number it has seen, and a counter found
below it is raised before the name is taken.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from stud.server.cluster.outage import log_failure
from stud.server.storage import Account, Database
from stud.server.tasks import finish

log = logging.getLogger("stud.server.cluster")

BOTS_KEY = "{}bots"
NAMES_KEY = "{}botnames"
"""The counter of bot names (``Bot <n>``), one for the room."""
BOT_NAME = re.compile(r"Bot (\d+)")


def highest_number(names: Iterable[str]) -> int:
    """The highest ``n`` of the names ``Bot <n>`` among ``names`` (0: none)."""
    return max((int(m.group(1)) for n in names if (m := BOT_NAME.fullmatch(n))), default=0)


# Raise the bot-name counter to at least the names the database already has.
RAISE_FLOOR = """
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if now < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
"""

# Take up to ARGV[2] idle bots for ARGV[1]; a holder whose heartbeat (ARGV[3] .. holder) is
# gone is dead and its bots idle.
TAKE = """
local out = {}
local want = tonumber(ARGV[2])
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  if #out >= want then break end
  local holder = all[i + 1]
  if holder == '' or (holder ~= ARGV[1] and redis.call('EXISTS', ARGV[3] .. holder) == 0) then
    redis.call('HSET', KEYS[1], all[i], ARGV[1])
    table.insert(out, all[i])
  end
end
return out
"""

# Give a bot back: only if this process still holds it.
RELEASE = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('HSET', KEYS[1], ARGV[1], '') end
return 1
"""


class BotPool:
    """This process's side of the shared pool (``redis``: a redis.asyncio client).

    ``release`` and ``reserve`` are called from actors' synchronous code: they are
    queued and sent in order by one task; ``take`` waits for them first.
    """

    def __init__(self, redis: Any, prefix: str, node: str, heartbeat: Callable[[str], str]) -> None:
        self.redis = redis
        self.key = BOTS_KEY.format(prefix)
        self.names_key = NAMES_KEY.format(prefix)
        self.node = node
        self.heartbeat_prefix = heartbeat("")
        self._take = redis.register_script(TAKE)
        self._release = redis.register_script(RELEASE)
        self._raise_floor = redis.register_script(RAISE_FLOOR)
        self._ops: asyncio.Queue[tuple[str, int]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.held: set[int] = set()
        """The bots this process plays for (put back in the pool if Redis loses it)."""
        self.floor = 0
        """The highest bot number this process has seen: no new name at or below it."""

    async def start(self, known: dict[int, str]) -> None:
        """Every bot account the database has (id -> name) is in the pool (idle unless
        already held), and new bots' names come after theirs."""
        await self.seed(known)
        self._task = asyncio.create_task(self._send(), name="cluster-bots")

    async def seed(self, known: dict[int, str]) -> None:
        """The pool as the database and this process know it: the bots held here held, every
        other bot account idle unless another process holds it; the name counter above every
        bot name. Run at start, and again when Redis restarted empty."""
        self.floor = max(self.floor, highest_number(known.values()))
        await self._raise_floor(keys=[self.names_key], args=[self.floor])
        async with self.redis.pipeline(transaction=False) as pipe:
            if self.held:
                pipe.hset(self.key, mapping={str(a): self.node for a in self.held})
            for account_id in known:
                pipe.hsetnx(self.key, str(account_id), "")
            await pipe.execute()

    async def stop(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._ops.join(), 2.0)
        if self._task is not None:
            await finish([self._task])

    async def take(self, count: int) -> list[int]:
        """Up to ``count`` idle bots, now held by this process."""
        await self._ops.join()
        ids = await self._take(keys=[self.key], args=[self.node, count, self.heartbeat_prefix])
        taken = [int(i) for i in ids]
        self.held.update(taken)
        return taken

    async def accounts(self, count: int, db: Database, names: dict[int, str]) -> list[Account]:
        """``count`` of the room's bots, idle ones first, new accounts only for the rest;
        ``names`` (account -> name) learns theirs."""
        taken = []
        for account_id in await self.take(count):
            if account_id not in names:
                account = await db.read(partial(db.store.account, account_id=account_id))
                names[account_id] = account.name if account else f"Bot #{account_id}"
            taken.append(Account(account_id, names[account_id], "bot"))
        new_names = [await self.new_name() for _ in range(count - len(taken))]
        if new_names:
            store = db.store
            made = await db.write(
                lambda c: [store.create_account(c, name, "bot") for name in new_names]
            )
            await self.add([a.id for a in made])
            names.update({a.id: a.name for a in made})
            taken += made
        return taken

    async def new_name(self) -> str:
        """A bot name unique across the room's processes (one counter in Redis; one found
        below a name this process has seen, Redis having lost it, is raised first)."""
        number = int(await self.redis.incr(self.names_key))
        if number <= self.floor:
            await self._raise_floor(keys=[self.names_key], args=[self.floor])
            number = int(await self.redis.incr(self.names_key))
        self.floor = max(self.floor, number)
        return f"Bot {number}"

    async def add(self, account_ids: list[int]) -> None:
        """New bot accounts, held by this process."""
        self.held.update(account_ids)
        if account_ids:
            await self.redis.hset(self.key, mapping={str(a): self.node for a in account_ids})

    def release(self, account_id: int) -> None:
        self.held.discard(account_id)
        self._ops.put_nowait(("release", account_id))

    def reserve(self, account_id: int) -> None:
        """A bot this process plays for whoever held it (a tournament taken over)."""
        self.held.add(account_id)
        self._ops.put_nowait(("reserve", account_id))

    async def _send(self) -> None:
        while True:
            op, account_id = await self._ops.get()
            try:
                if op == "release":
                    await self._release(keys=[self.key], args=[account_id, self.node])
                else:
                    await self.redis.hset(self.key, str(account_id), self.node)
            except (
                Exception
            ) as error:  # Redis away: the bot stays marked (freed if its holder dies)
                log_failure(log, error, "bot pool: %s of bot %s failed", op, account_id)
            finally:
                self._ops.task_done()
