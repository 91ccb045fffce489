"""The room's live processes, and a lock across them, in Redis.

Each process sets its key, ``<room>nodeinfo:<node>`` (how many tables it runs),
at every lease renewal, with the lease's TTL: a process whose key lapsed is dead
(its bots count as idle, its connections' watchers are dropped), and the least
loaded live process takes a free table first (:mod:`.claims`).

The names of the processes that beat are kept in a set, ``<room>nodes``, so the
live ones are read in one step whatever else Redis holds (a ``SCAN`` for the
keys walked every key of the room, three or so per table, twice a second in
every process); a name whose key lapsed leaves the set in that same step.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator, Iterable
from typing import Any

import orjson

NODE_KEY = "{}nodeinfo:{}"
NODES_KEY = "{}nodes"

# The live processes' names and heartbeats, in one step; the names whose key lapsed leave
# the set (a process that beats again is added again: it sets its key and its name at once).
# The names in ARGV after the prefix are looked up by their key whether in the set or not.
LIVE = """
local out, seen = {}, {}
for _, name in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  seen[name] = true
  local info = redis.call('GET', ARGV[1] .. name)
  if info then
    out[#out + 1] = name
    out[#out + 1] = info
  else
    redis.call('SREM', KEYS[1], name)
  end
end
for i = 2, #ARGV do
  local name = ARGV[i]
  if not seen[name] then
    local info = redis.call('GET', ARGV[1] .. name)
    if info then
      out[#out + 1] = name
      out[#out + 1] = info
    end
  end
end
return out
"""


class Nodes:
    """This process's heartbeat, the others' as last read, and the room's locks."""

    def __init__(self, redis: Any, prefix: str, node: str, ttl: float) -> None:
        self.redis = redis
        self.prefix = prefix
        self.node = node
        self.ttl = ttl
        self.members = NODES_KEY.format(prefix)
        self._live = redis.register_script(LIVE)
        self.stopping = False
        """This process is draining (:mod:`stud.server.room.drain`)."""
        self.draining: set[str] = set()
        """The live processes that said, at their last beat, that they are draining."""

    def key(self, node: str) -> str:
        """A process's heartbeat key (``key("")``: the prefix of them all)."""
        return NODE_KEY.format(self.prefix, node)

    async def beat(self, tables: int) -> None:
        """This process is alive for another TTL, running ``tables`` tables (and draining,
        if it is: the others then share the room's tables without it)."""
        info = orjson.dumps({"tables": tables, "draining": self.stopping})
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(self.key(self.node), info, px=int(self.ttl * 1000))
            pipe.sadd(self.members, self.node)
            await pipe.execute()

    async def live(self, tables: int, known: Iterable[str] = ()) -> dict[str, int]:
        """Each live process and how many tables it runs (this one: ``tables``).

        The processes named in ``known`` (those this one has watchers from) are looked up
        by their heartbeat whether in the set or not: one of an earlier version, which
        beats without joining the set, is not taken for dead while a room is upgraded.
        """
        args = [self.key(""), *sorted(set(known) - {self.node})]
        found = await self._live(keys=[self.members], args=args)
        loads: dict[str, int] = {}
        draining = set()
        for name, info in zip(found[::2], found[1::2], strict=True):
            text = name.decode() if isinstance(name, bytes) else str(name)
            data = orjson.loads(info)
            loads[text] = int(data.get("tables", 0))
            if data.get("draining"):
                draining.add(text)
        self.draining = draining
        loads[self.node] = tables
        return loads

    async def leave(self) -> None:
        """A clean stop: this process is gone at once, not after its TTL."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.delete(self.key(self.node))
            pipe.srem(self.members, self.node)
            await pipe.execute()

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
