"""A shared room's background work meets Redis out of reach (stud.server.cluster.outage).

A Redis restart, a cut, or the process closing its own client as it stops while a
command is on the wire: each is expected in operation, so it is logged in one line, never
as a traceback (the tests fail on a traceback in a server's log). A fault keeps its
traceback.
"""

from __future__ import annotations

import asyncio
import logging
import uuid

import pytest
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeout

from stud.server.cluster.links import every
from stud.server.cluster.outage import first_line, out_of_reach
from stud.server.tasks import finish
from stud.testing.wait import until


def test_redis_and_database_outages_are_out_of_reach_and_faults_are_not() -> None:
    assert out_of_reach(RedisConnectionError("Connection closed by server."))
    assert out_of_reach(RedisTimeout("Timeout reading from socket"))
    assert out_of_reach(ConnectionRefusedError(111, "refused"))
    assert not out_of_reach(ResponseError("WRONGTYPE Operation against a key"))
    assert not out_of_reach(KeyError("table"))
    assert first_line(RedisConnectionError("one\ntwo")) == "one"
    assert first_line(RedisTimeout()) == "TimeoutError"


def test_a_loop_whose_command_the_closing_client_cuts_logs_one_line(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The case a stopping process meets: a step blocked in a command when ``aclose`` runs."""
    key = f"test-outage:{uuid.uuid4().hex}"

    async def scenario() -> None:
        client = aioredis.from_url(redis_url)
        started = asyncio.Event()

        async def step() -> None:
            started.set()
            await client.blpop([key], timeout=30)

        loop = asyncio.create_task(every(0.01, step))
        await until(started.is_set, "the step never started")
        await until(lambda: bool(client.connection_pool._in_use_connections), "no command sent")
        await client.aclose()
        await until(lambda: "out of reach" in caplog.text, "the cut command was not logged")
        await finish([loop])
        assert loop.done()
        await client.aclose()

    with caplog.at_level(logging.WARNING, logger="stud.server.cluster"):
        asyncio.run(scenario())
    cut = [r for r in caplog.records if "out of reach" in r.getMessage()]
    assert cut and all(r.levelno == logging.WARNING and r.exc_info is None for r in cut)
    # Redis's client words it as a connection closed (before the write or after) or a read
    # that timed out, depending on where the command was cut: each is an outage.


def test_a_fault_in_a_loop_keeps_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        async def step() -> None:
            raise ValueError("a bug")

        loop = asyncio.create_task(every(0.01, step))
        await until(lambda: "failed" in caplog.text, "the fault was not logged")
        await finish([loop])

    with caplog.at_level(logging.WARNING, logger="stud.server.cluster"):
        asyncio.run(scenario())
    fault = next(r for r in caplog.records if "failed" in r.getMessage())
    assert fault.levelno == logging.ERROR and fault.exc_info is not None


def test_finish_waits_for_each_task_to_end_whatever_it_raised() -> None:
    async def scenario() -> None:
        ended: list[str] = []

        started = asyncio.Event()

        async def stubborn() -> None:
            started.set()
            try:
                await asyncio.Event().wait()  # until cancelled
            finally:
                # Cleanup that awaits work of its own (in a thread): finish must wait for it.
                await asyncio.to_thread(ended.append, "stubborn")

        async def broken() -> None:
            raise RuntimeError("already failed")

        tasks = [asyncio.create_task(stubborn()), asyncio.create_task(broken())]
        await until(started.is_set, "the task never started")
        await finish(tasks)
        assert all(t.done() for t in tasks) and ended == ["stubborn"]

    asyncio.run(scenario())


def test_finish_cancels_again_a_task_that_swallowed_its_cancellation() -> None:
    """As Python 3.11's ``wait_for`` does when its inner call ends as it is cancelled."""

    async def scenario() -> None:
        swallowed = 0
        started = asyncio.Event()

        async def deaf() -> None:
            nonlocal swallowed
            started.set()
            while True:
                try:
                    await asyncio.Event().wait()  # until cancelled
                except asyncio.CancelledError:
                    swallowed += 1
                    if swallowed == 1:
                        continue  # the first cancellation is lost
                    raise

        task = asyncio.create_task(deaf())
        await until(started.is_set, "the task never started")
        await finish([task])
        assert task.cancelled() and swallowed == 2

    asyncio.run(scenario())
