"""Waits on a condition with a deadline, for tests: never a fixed sleep a loaded machine outruns.

The deadline bounds a hang; it is no measure of speed (a test never asserts a time).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_until(
    condition: Callable[[], T | None], what: str, timeout: float = 60.0, interval: float = 0.05
) -> T:
    """``condition()``'s first true value, polled every ``interval`` seconds; TimeoutError
    naming ``what`` once ``timeout`` seconds passed without one."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {timeout} s")
        time.sleep(interval)


async def until(
    condition: Callable[[], T | None], what: str, timeout: float = 60.0, interval: float = 0.02
) -> T:
    """:func:`wait_until` for a coroutine: the event loop runs on between the polls."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        value = condition()
        if value:
            return value
        if loop.time() > deadline:
            raise TimeoutError(f"{what}: not within {timeout} s")
        await asyncio.sleep(interval)
