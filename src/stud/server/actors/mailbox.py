"""An actor's mailbox and timer loop, written once for the cash-table and tournament actors.

Commands arrive on a queue read by the actor's one task, which alone changes
what the actor runs. Between commands the task sleeps until the actor's next
deadline (a turn's clock, a bot's think time, a level), when a timer of its own
queues :data:`ALARM`; then it runs the actor's timer pass. Nothing a client
sends can raise out of the loop: a refused command gets its error back, an
unexpected fault is logged and the actor goes on. In a room shared by several
processes the actor asks before each step whether this process still runs what
it runs; once it does not, it refuses what is queued and stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from stud.server.actors.channel import Watcher
from stud.server.observe.logs import at
from stud.table import TableError

log = logging.getLogger("stud.server")

FAULT_BACKOFF = 0.25
"""Seconds an actor waits after a failed timer step before it tries again."""


@dataclass(slots=True)
class Command:
    """A request to an actor; ``done`` carries the reply (or a TableError)."""

    kind: str
    account_id: int | None = None
    args: dict[str, Any] = field(default_factory=dict)
    watcher: Watcher | None = None
    done: asyncio.Future[Any] | None = None


ALARM = Command("alarm")
"""Queued by an actor's own timer when something it runs by the clock is due (never handled
as a command)."""


class Mailbox(ABC):
    """An actor's way in and its loop: commands queued for its one task, a timer pass when
    something is due. A subclass says what it runs (``noun``), what is due when, how it
    takes a command and what its timer pass does."""

    noun = "actor"
    """How logs name what the actor runs (``table``, ``tournament``)."""
    moving = "this is moving to another server: try again"
    """The refusal of a command once this process no longer runs it (a shared room)."""

    _alarm: asyncio.TimerHandle | None = None
    _alarm_at = 0.0

    def __init__(self, item_id: int) -> None:
        self.id = item_id
        self.queue: asyncio.Queue[Command] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.closed = False
        """Set by the actor when what it runs is over for good: the loop ends."""
        self._clock: Callable[[], float] = time.time

    # -- what a subclass says --------------------------------------------------------------

    def log_place(self) -> dict[str, Any]:
        """Where this actor's log lines say they happened (stud.server.observe.logs.at)."""
        return at(table=self.id) if self.noun == "table" else at(tournament=self.id)

    @abstractmethod
    def _owned(self) -> bool:
        """Whether this process may run it now (a shared room: it holds the lease)."""

    @abstractmethod
    def _lost(self) -> None:
        """The loop stopped because this process no longer runs it."""

    @abstractmethod
    def _wakeup(self) -> float | None:
        """When (the clock's time) the timer pass has something to do next; None: never."""

    @abstractmethod
    async def _dispatch(self, command: Command) -> Any:
        """Apply one command; its reply (TableError: refused)."""

    @abstractmethod
    async def _timers(self, now: float) -> None:
        """The timer pass: whatever is due by ``now``."""

    def _nothing_due(self, now: float, wake: float | None) -> bool:
        """Whether a timer pass now would surely find nothing to do, so it is skipped
        (``wake``: :meth:`_wakeup` now). By default it always runs."""
        return False

    async def _opening(self) -> None:
        """What the actor does first, before any command (by default, nothing)."""
        return None

    # -- the mailbox -----------------------------------------------------------------------

    def start(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"{self.noun}-{self.id}")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def call(self, command: Command) -> Any:
        """Queue a command and wait for the actor's reply."""
        command.done = asyncio.get_running_loop().create_future()
        self.queue.put_nowait(command)
        return await command.done

    def tell(self, command: Command) -> None:
        self.queue.put_nowait(command)

    # -- the loop --------------------------------------------------------------------------

    async def _run(self) -> None:
        try:
            await self._opening()
            await self._loop()
        finally:
            self._disarm()

    async def _loop(self) -> None:
        stepped = False  # the last round ran the timers (a round that will not wait yields first)
        queue = self.queue
        wake: float | None = None
        known = False  # ``wake`` is the actor's as it is now (nothing ran since it was found)
        while not self.closed:
            if not self._owned():
                # A shared room's lease lapsed: another process may run it now.
                while not queue.empty():
                    command = queue.get_nowait()
                    if command is not ALARM:
                        await self._handle(command)  # each refused: unavailable
                self._lost()
                return
            now = self._clock()
            if not known:
                wake = self._wakeup()
            known = False
            if queue.empty() and (wake is None or wake > now):
                self._arm(wake, now)
                command = await queue.get()
                if command is not ALARM:
                    await self._handle(command)
            elif stepped:
                await asyncio.sleep(0)  # more to do at once: let the other actors run first
            # Take whatever queued up before looking at the clock again.
            while not queue.empty():
                command = queue.get_nowait()
                if command is not ALARM:
                    await self._handle(command)
            if not self._owned():
                continue
            wake = self._wakeup()
            if self._nothing_due(self._clock(), wake):
                stepped = True  # what the timer pass would have found: nothing to do
                known = True
                continue
            stepped = await self._step(self._timers)
            if not stepped:
                # A step that keeps failing must not spin: back off, let the others run.
                await asyncio.sleep(FAULT_BACKOFF)

    def _arm(self, wake: float | None, now: float) -> None:
        """Have the queue woken (:data:`ALARM`) by ``wake`` (the clock's time), if it is set.

        One timer per actor, kept while it rings no later than needed: a turn's new
        deadline is later than the last one, and a timer that rings early only wakes
        the loop to find nothing due and set the timer again. (A deadline on every wait
        made and cancelled a timer per command.)
        """
        if wake is None or (self._alarm is not None and self._alarm_at <= wake):
            return
        self._disarm()
        self._alarm_at = wake
        self._alarm = asyncio.get_running_loop().call_later(wake - now, self._ring)

    def _ring(self) -> None:
        self._alarm = None
        self.queue.put_nowait(ALARM)

    def _disarm(self) -> None:
        if self._alarm is not None:
            self._alarm.cancel()
            self._alarm = None

    async def _handle(self, command: Command) -> None:
        done = command.done
        try:
            if not self._owned():
                raise TableError("unavailable", self.moving)
            result = await self._dispatch(command)
        except TableError as error:
            if done is not None and not done.done():
                done.set_exception(error)
            return
        except Exception as error:  # a fault must not take the actor down
            if self._owned():
                log.exception(
                    "%s %s: %s failed", self.noun, self.id, command.kind, extra=self.log_place()
                )
            else:
                log.warning("%s %s: %s failed: it moved", self.noun, self.id, command.kind)
            if done is not None and not done.done():
                done.set_exception(TableError("internal", f"server fault: {error}"))
            return
        if done is not None and not done.done():
            done.set_result(result)

    async def _step(self, fn: Callable[[float], Any]) -> bool:
        """Run a timer step; False (logged) if it failed."""
        try:
            result = fn(self._clock())
            if asyncio.iscoroutine(result):
                await result
        except Exception:
            if self._owned():
                log.exception(
                    "%s %s: timer step failed", self.noun, self.id, extra=self.log_place()
                )
            else:  # expected: a shared room's lease lapsed and its writes are refused
                log.warning("%s %s: a step failed after it moved", self.noun, self.id)
            return False
        return True
