"""Messages between the processes of a room, over Redis pub/sub.

Each process subscribes to its own inbox channel, ``<room>node:<id>``, and to the
room's channel, ``<room>room`` (``<room>``: the room's prefix, see
:func:`stud.server.storage.fences.room_prefix`). Intents (a client's ``sit``, ``act``, ``watch``…)
go to the inbox of the process that runs the table, replies and each watcher's
own messages come back to the inbox of the process the client is connected to.

Why pub/sub and not streams: a table's state lives in one process's memory,
and every client resynchronises from a full ``state`` whenever it (re)watches,
so nothing needs replaying from Redis; pub/sub costs one ``PUBLISH`` per batch
and keeps nothing in Redis's memory, where a stream would need an ``XADD``,
trimming and a read cursor per process for the same delivery. The price is
at-most-once delivery, handled thus: an intent lost with a dying process gets
no reply and the client's request fails after :data:`REPLY_SECONDS` with
``unavailable`` (an ``act`` carries its turn id, so a retry cannot act twice);
events lost with a dying owner belong to a hand that is voided anyway, and the
process that takes the table over sends every watcher a full ``state``; if this
process's subscription drops, it re-watches every remote table when it is back.

Everything a process sends goes out through one task, in order, a batch per
destination per turn of the event loop (one ``PUBLISH`` carries all of a
table step's messages for that process).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from stud.server.cluster.outage import log_failure
from stud.server.tasks import finish

log = logging.getLogger("stud.server.cluster")

NODE_CHANNEL = "{}node:{}"
ROOM_CHANNEL = "{}room"

Handler = Callable[[dict[str, Any]], Awaitable[None] | None]


class Bus:
    """One process's inbox and outbox."""

    def __init__(self, redis: Any, prefix: str, node: str, handler: Handler) -> None:
        self.redis = redis
        self.prefix = prefix
        self.node = node
        self.handler = handler
        self.inbox = NODE_CHANNEL.format(prefix, node)
        self.room = ROOM_CHANNEL.format(prefix)
        self._pending: dict[str, list[Any]] = {}
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self.published = 0
        """PUBLISH calls made (for the bench's per-action figures)."""
        self.on_reconnect: Callable[[], None] | None = None

    def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._sender(), name="cluster-send"),
            asyncio.create_task(self._receiver(), name="cluster-receive"),
        ]

    async def stop(self) -> None:
        await self.flush()
        await finish(self._tasks)

    def send(self, node: str, item: Any) -> None:
        """Queue one item for ``node``'s inbox (in order with everything else sent to it)."""
        self._pending.setdefault(NODE_CHANNEL.format(self.prefix, node), []).append(item)
        self._wake.set()

    def last_for(self, node: str) -> Any:
        """The last item queued for ``node`` and not sent yet (None if there is none): an item
        may still be added to it in place, and will leave in its turn."""
        items = self._pending.get(NODE_CHANNEL.format(self.prefix, node))
        return items[-1] if items else None

    def broadcast(self, item: Any) -> None:
        """Queue one item for every process (the room's channel; this one hears it too)."""
        self._pending.setdefault(self.room, []).append(item)
        self._wake.set()

    async def flush(self) -> None:
        pending, self._pending = self._pending, {}
        if not pending:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for channel, items in pending.items():
                pipe.publish(channel, orjson.dumps(items))
            await pipe.execute()
        self.published += len(pending)

    async def _sender(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                await self.flush()
            except Exception as error:  # Redis away: these messages are lost (module's doc)
                log_failure(log, error, "publishing to Redis failed")
                await asyncio.sleep(0.2)

    async def _receiver(self) -> None:
        first = True
        while True:
            try:
                async with self.redis.pubsub() as pubsub:
                    await pubsub.subscribe(self.inbox, self.room)
                    if not first and self.on_reconnect is not None:
                        self.on_reconnect()
                    first = False
                    async for message in pubsub.listen():
                        if message.get("type") != "message":
                            continue
                        for item in orjson.loads(message["data"]):
                            try:
                                result = self.handler(item)
                                if result is not None:
                                    await result
                            except Exception:
                                log.exception("cluster message %r failed", item.get("k"))
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log_failure(log, error, "the Redis subscription dropped: subscribing again")
                await asyncio.sleep(0.5)
