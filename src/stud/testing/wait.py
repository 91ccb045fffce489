"""Waits on a condition with a deadline, for tests: never a fixed sleep a loaded machine outruns.

The deadline bounds a hang; it is no measure of speed (a test never asserts a time).
``what`` names the condition in the TimeoutError; it may be a function, called only then,
when the message should say how far things got. Exceptions listed in ``retry`` (a
service answering nothing for a moment) count as "not yet".
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar, overload

T = TypeVar("T")

Message = str | Callable[[], str]
Retry = tuple[type[BaseException], ...]


def _timeout(what: Message, timeout: float) -> TimeoutError:
    text = what() if callable(what) else what
    return TimeoutError(f"{text}: not within {timeout} s")


def wait_until(
    condition: Callable[[], T | None],
    what: Message,
    timeout: float = 60.0,
    interval: float = 0.05,
    retry: Retry = (),
) -> T:
    """``condition()``'s first true value, polled every ``interval`` seconds; TimeoutError
    naming ``what`` once ``timeout`` seconds passed without one."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            value = condition()
        except retry:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise _timeout(what, timeout)
        time.sleep(interval)


@overload
async def until(
    condition: Callable[[], Awaitable[T | None]],
    what: Message,
    timeout: float = ...,
    interval: float = ...,
    retry: Retry = ...,
) -> T: ...


@overload
async def until(
    condition: Callable[[], T | None],
    what: Message,
    timeout: float = ...,
    interval: float = ...,
    retry: Retry = ...,
) -> T: ...


async def until(
    condition: Callable[[], object],
    what: Message,
    timeout: float = 60.0,
    interval: float = 0.02,
    retry: Retry = (),
) -> T:
    """:func:`wait_until` for a coroutine: the event loop runs on between the polls, and
    ``condition`` may itself be a coroutine function."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        try:
            value = condition()
            if inspect.isawaitable(value):
                value = await value
        except retry:
            value = None
        if value:
            return value  # type: ignore[return-value]  # T, by the overloads
        if loop.time() > deadline:
            raise _timeout(what, timeout)
        await asyncio.sleep(interval)


def read_until(
    read: Callable[[], T], ok: Callable[[T], bool], what: str, timeout: float = 30.0
) -> T:
    """``read()``'s first value that ``ok`` accepts; TimeoutError with the last value read."""
    last: list[T] = []

    def accepted() -> bool:
        last[:] = [read()]
        return ok(last[0])

    wait_until(accepted, lambda: f"{what}; last read {last[0] if last else None!r}", timeout, 0.1)
    return last[0]
