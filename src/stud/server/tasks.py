"""Ending a background task: cancelled, then waited for, so nothing it holds (a socket, a
Redis command on the wire) is closed under it while it still runs."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("stud.server")


async def finish(tasks: Iterable[asyncio.Task[Any]], patience: float = 10.0) -> None:
    """Cancel ``tasks`` and wait until each has ended (whatever it raised).

    A cancellation can be swallowed (Python 3.11's ``wait_for`` returns the result of an
    inner call that finished as it was cancelled), so a task still running is cancelled
    again every half second; after ``patience`` seconds it is left, and logged.
    """
    pending = {task for task in tasks if not task.done()}
    deadline = time.monotonic() + patience
    while pending:
        for task in pending:
            task.cancel()
        _done, pending = await asyncio.wait(pending, timeout=0.5)
        if pending and time.monotonic() > deadline:
            log.warning("tasks still running after being cancelled: %s",
                        ", ".join(sorted(t.get_name() for t in pending)))  # fmt: skip
            return
    for task in tasks:
        if task.done() and not task.cancelled():
            task.exception()  # retrieved: what it raised as it ended is no news
