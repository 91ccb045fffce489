"""What every part of this process's share of a room reaches the others by: the Redis client,
the room's key prefix, this process's name, the bus, the heartbeats and locks, the replies.

The prefix is read from PostgreSQL once the database is open
(:func:`stud.server.storage.fences.room_prefix`); the parts made before look it
up here at each use.
"""

from __future__ import annotations

import asyncio
import logging
import os
import uuid
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.connection import Connection as RedisConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeout

from stud.server.actors.channel import Watcher
from stud.server.cluster.bus import Bus, Handler
from stud.server.cluster.lease import LeaseTimes
from stud.server.cluster.nodes import Nodes
from stud.server.cluster.outage import first_line, out_of_reach
from stud.server.cluster.remote import Replies
from stud.server.observe.metrics import REDIS_FAILURES, REDIS_ROUND_TRIPS

log = logging.getLogger("stud.server.cluster")


class CountedConnection(RedisConnection):
    """A Redis connection that counts its round trips and failures (the room's metrics): a
    request sent is one (a pipeline's commands go as one; a new connection's handshake
    too), a connection refused or lost a failure."""

    async def send_packed_command(self, command: Any, check_health: bool = True) -> None:
        REDIS_ROUND_TRIPS.inc()
        try:
            await super().send_packed_command(command, check_health)
        except (RedisConnectionError, RedisTimeout, OSError):
            REDIS_FAILURES.inc()
            raise

    async def connect(self) -> None:
        try:
            await super().connect()  # type: ignore[no-untyped-call]
        except (RedisConnectionError, RedisTimeout, OSError):
            REDIS_FAILURES.inc()
            raise

    async def read_response(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return await super().read_response(*args, **kwargs)
        except (RedisConnectionError, RedisTimeout, OSError):
            REDIS_FAILURES.inc()
            raise


def lease_times_from_env() -> LeaseTimes:
    """``$STUD_LEASE_SECONDS`` sets the lease's TTL (renewals at a quarter of it)."""
    ttl = float(os.environ.get("STUD_LEASE_SECONDS") or LeaseTimes().ttl)
    return LeaseTimes(ttl=ttl, renew=ttl / 4, scan=min(0.5, ttl / 6), margin=min(0.25, ttl / 10))


async def every(seconds: float, step: Callable[[], Awaitable[None]]) -> None:
    """Run ``step`` every ``seconds`` until cancelled (a failed round is logged)."""
    while True:
        await asyncio.sleep(seconds)
        try:
            await step()
        except Exception as error:  # Redis or PostgreSQL away: the next round tries again
            name = getattr(step, "__name__", step)
            if out_of_reach(error):  # (expected while a service restarts: no traceback)
                log.warning("cluster step %s: out of reach: %s", name, first_line(error))
            else:
                log.exception("cluster step %s failed", name)


class Links:
    """This process's links to the others (``handler`` takes each bus message)."""

    def __init__(self, redis_url: str, times: LeaseTimes | None, handler: Handler) -> None:
        self.node = uuid.uuid4().hex[:12]
        self.times = times or lease_times_from_env()
        self.redis: Any = aioredis.from_url(redis_url, connection_class=CountedConnection)
        self.prefix = "stud:"
        """Every Redis key and channel of this room starts with it (set from the database)."""
        self.handler = handler
        self.bus = Bus(self.redis, self.prefix, self.node, handler)
        self.nodes = Nodes(self.redis, self.prefix, self.node, self.times.ttl)
        self.replies = Replies()
        """The futures of commands sent to other processes."""

    def use_prefix(self, prefix: str, on_reconnect: Callable[[], None]) -> None:
        """The room's own prefix, read from the database: the bus and heartbeats use it."""
        self.prefix = prefix
        self.nodes = Nodes(self.redis, prefix, self.node, self.times.ttl)
        self.bus = Bus(self.redis, prefix, self.node, self.handler)
        self.bus.on_reconnect = on_reconnect

    def lock(self, name: str, seconds: float = 30.0) -> AbstractAsyncContextManager[None]:
        """A Redis lock across the room's processes (waits up to ``seconds`` for it)."""
        return self.nodes.lock(name, seconds)

    @staticmethod
    def connection_key(watcher: Watcher) -> int:
        """How a local connection is named to other processes (unique while it lives)."""
        return id(watcher)
