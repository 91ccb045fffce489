"""Long CPU work of a request (reading an upload of hand histories, a hand's equities) in a
worker process of its own, so the event loop that runs the tables never waits for it.

A thread would not do: the reader and the equity engine are Python (or hold the
interpreter's lock), and a thread running them takes the lock from the event loop for its
switch interval, again and again, which shows in every table's latency (bench/bench_imports.py
measures it). Each :class:`Offload` is one process started on first use (``forkserver``:
never a fork of the running server's threads), at the lowest CPU priority, with a bounded
queue: past it the caller is told to come back (``server_busy``) rather than queued
without end.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")

IN_THREAD = "STUD_OFFLOAD_IN_THREAD"
"""Set to 1, the work runs in a thread of the server instead: only for bench/bench_imports.py
to show what a thread costs the tables."""


class Busy(Exception):
    """Too many requests already waiting for this worker."""


def _lowest_priority() -> None:
    """The worker runs after the server on a busy machine."""
    with contextlib.suppress(AttributeError, OSError):
        os.nice(19)


class Offload:
    """One worker process and a bounded queue in front of it."""

    def __init__(self, name: str, queue: int = 4) -> None:
        self.name = name
        self.queue = queue
        self._pool: Executor | None = None
        self._waiting = 0

    def _executor(self) -> Executor:
        if self._pool is None and os.environ.get(IN_THREAD) == "1":
            self._pool = ThreadPoolExecutor(1, thread_name_prefix=f"stud-{self.name}")
        if self._pool is None:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context(
                "forkserver" if "forkserver" in methods else "spawn"
            )
            self._pool = ProcessPoolExecutor(1, mp_context=context, initializer=_lowest_priority)
        return self._pool

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the worker (both picklable); Busy if ``queue`` calls wait already."""
        if self._waiting >= self.queue:
            raise Busy(f"the {self.name} worker is busy")
        self._waiting += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._executor(), fn, *args)
        except BrokenProcessPool:
            self.close()  # the worker died (killed, out of memory): the next call starts one
            raise
        finally:
            self._waiting -= 1

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class Workers:
    """A room's workers (one reading uploads; one replaying imported hands and counting
    equities, apart so a big upload never delays a replayer) and the equities already
    counted: a finished hand's never change. Held by the app (``app.state.workers``),
    closed with it."""

    CACHED = 512

    def __init__(self) -> None:
        self.imports = Offload("import", queue=4)
        self.hands = Offload("replay and equity", queue=16)
        self._cache: OrderedDict[tuple[Any, ...], Any] = OrderedDict()

    def cached(self, key: tuple[Any, ...]) -> Any:
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        return None

    def keep(self, key: tuple[Any, ...], value: Any) -> None:
        self._cache[key] = value
        while len(self._cache) > self.CACHED:
            self._cache.popitem(last=False)

    def close(self) -> None:
        self.imports.close()
        self.hands.close()
