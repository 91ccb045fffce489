"""A shared room's Redis client counts its round trips and its failures (the room's metrics)."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError

from stud.server.cluster.links import CountedConnection
from stud.server.observe.metrics import REDIS_FAILURES, REDIS_ROUND_TRIPS
from stud.testing.server import free_port


def count(metric: object) -> float:
    value = metric._value.get()  # type: ignore[attr-defined]
    return float(value)


def test_round_trips_are_counted(redis_url: str) -> None:
    async def run() -> None:
        client = aioredis.from_url(redis_url, connection_class=CountedConnection)
        try:
            await client.ping()  # connects: the handshake's requests count too
            before = count(REDIS_ROUND_TRIPS)
            await client.ping()
            async with client.pipeline(transaction=False) as pipe:
                for _ in range(3):
                    pipe.ping()
                await pipe.execute()
            assert count(REDIS_ROUND_TRIPS) - before == 2  # a command, a pipeline of three
        finally:
            await client.aclose()

    asyncio.run(run())


def test_a_lost_redis_is_a_failure() -> None:
    async def run() -> None:
        client = aioredis.from_url(
            f"redis://127.0.0.1:{free_port()}/0", connection_class=CountedConnection
        )
        try:
            with pytest.raises(RedisConnectionError):
                await client.ping()
        finally:
            await client.aclose()

    before = count(REDIS_FAILURES)
    asyncio.run(run())
    assert count(REDIS_FAILURES) > before
