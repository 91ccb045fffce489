"""A planned stop (SIGTERM): no new hand, the hands in progress finish, then the process goes.

Every table and tournament of this process is marked to leave at its next hand
boundary (``leave_at_boundary`` on its actor): a table stops once its hand is
over, a tournament once none of its tables is in a hand. In a shared room the
process first stops taking tables and tournaments, and gives up each lease as
its actor stops, so another process takes it over at once with no hand to
void; its connections' clients, closed by the web server first, reconnect to
another process and resume by event number. Whatever is still running at the
deadline is stopped as a crash would stop it (its hand is voided by the next
owner). One process alone stops the same way: its restart voids nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable
from typing import Protocol

from stud.server.actors.mailbox import Command

log = logging.getLogger("stud.server")

POLL_SECONDS = 0.05


class Leaving(Protocol):
    """An actor that can be asked to stop at its next hand boundary."""

    id: int
    noun: str
    leave_at_boundary: bool
    task: asyncio.Task[None] | None

    def tell(self, command: Command) -> None: ...


def ask_to_leave(actor: Leaving) -> None:
    """Stop at the next hand boundary (now, if between hands: the actor is woken to see it)."""
    actor.leave_at_boundary = True
    actor.tell(Command("wake"))


def running(actor: Leaving) -> bool:
    return actor.task is not None and not actor.task.done()


async def drain(actors: Iterable[Leaving], seconds: float) -> list[Leaving]:
    """Ask every actor to leave at its next hand boundary and wait up to ``seconds`` for all
    to stop; the ones still running then (their hands outlived the deadline)."""
    actors = [a for a in actors if running(a)]
    for actor in actors:
        ask_to_leave(actor)
    deadline = time.monotonic() + seconds
    while (left := [a for a in actors if running(a)]) and time.monotonic() < deadline:
        await asyncio.sleep(POLL_SECONDS)
    for actor in left:
        log.warning("%s %s: its hand outlived the drain's %s s", actor.noun, actor.id, seconds)
    return left
