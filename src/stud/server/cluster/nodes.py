"""The room's live processes, and a lock across them, in Redis.

Each process sets its key, ``<room>nodeinfo:<node>`` (how many tables it runs),
at every lease renewal, with the lease's TTL: a process whose key lapsed is dead
(its bots count as idle, its connections' watchers are dropped), and the least
loaded live process takes a free table first (:mod:`.claims`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import orjson

NODE_KEY = "{}nodeinfo:{}"


class Nodes:
    """This process's heartbeat, the others' as last read, and the room's locks."""

    def __init__(self, redis: Any, prefix: str, node: str, ttl: float) -> None:
        self.redis = redis
        self.prefix = prefix
        self.node = node
        self.ttl = ttl

    def key(self, node: str) -> str:
        """A process's heartbeat key (``key("")``: the prefix of them all)."""
        return NODE_KEY.format(self.prefix, node)

    async def beat(self, tables: int) -> None:
        """This process is alive for another TTL, running ``tables`` tables."""
        info = orjson.dumps({"tables": tables})
        await self.redis.set(self.key(self.node), info, px=int(self.ttl * 1000))

    async def live(self, tables: int) -> dict[str, int]:
        """Each live process and how many tables it runs (this one: ``tables``)."""
        keys = [k async for k in self.redis.scan_iter(match=self.key("*"), count=1000)]
        values = await self.redis.mget(keys) if keys else []
        loads: dict[str, int] = {}
        prefix = len(self.key(""))
        for key, value in zip(keys, values, strict=True):
            if value is not None:
                name = key.decode() if isinstance(key, bytes) else str(key)
                loads[name[prefix:]] = int(orjson.loads(value).get("tables", 0))
        loads[self.node] = tables
        return loads

    async def leave(self) -> None:
        """A clean stop: this process is gone at once, not after its TTL."""
        await self.redis.delete(self.key(self.node))

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
