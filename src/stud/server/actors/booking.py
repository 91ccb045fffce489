"""How a table books its steps while the database may be out of reach (issue 34).

A step's effects (a hand dealt, a hand's result with the chips put into it, a stack
cashed out) are booked in one transaction before its events are numbered and sent.
When that write fails because the database cannot take writes for now (PostgreSQL
stopped or restarting, an SQLite file locked past its busy timeout:
:func:`stud.server.storage.outage.unavailable`), the table does not move on from a
step it could not book: it keeps the step (:class:`Step`), tells its watchers the
room is reconnecting to its records (a ``records`` message), refuses what would
change it (``records_unavailable``), keeps the wish of a player who leaves, and
books the step again with backoff (:class:`Records`) until it is taken. Then it
sends the step's events, as if the outage had been a long pause, and goes on. The
clocks of the hand it holds are moved on by the time it waited, so nobody times out
for the outage.

A retried step may have been committed before (a commit whose reply was lost when the
server went away): the booking asks first (``again``), so it is booked exactly once.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from stud.table import Effect, Event, Out

FIRST_RETRY_SECONDS = 0.25
"""The wait before a held step is booked again; it doubles at each failure..."""
LAST_RETRY_SECONDS = 4.0
"""...up to this (so a table resumes within about this long of the database's return)."""


class RecordsUnavailable(Exception):
    """The database cannot take the table's write now: the table holds (see the module)."""


@dataclass(slots=True)
class Step:
    """What one call of the table made: its effects (each with the pot it closes) to book,
    its events to send once they are, and whether bots are to be shown it."""

    outs: list[Out]
    effects: list[tuple[Effect, dict[int, int]]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    shows: bool = False
    tries: int = 0
    """Failed attempts to book it so far (a retry asks first whether it was booked)."""

    def move_clocks(self, seconds: float) -> None:
        """The turn clocks its events announce, ``seconds`` later (the table waited)."""
        for event in self.events:
            if event.kind == "turn":
                for key in ("clock_ends", "deadline"):
                    if event.data.get(key) is not None:
                        event.data[key] = float(event.data[key]) + seconds


@dataclass(slots=True)
class Records:
    """A table's standing with the database: reachable, or down since when, and when to try
    again; the step it holds; the players who asked to leave meanwhile."""

    held: Step | None = None
    down_since: float | None = None
    retry_at: float | None = None
    delay: float = FIRST_RETRY_SECONDS
    leaving: list[int] = field(default_factory=list)
    rng: random.Random = field(default_factory=random.Random)

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def failed(self, now: float) -> bool:
        """A write failed for want of the database: try again later. True if the table was
        up until now (its watchers are to be told)."""
        first = self.down_since is None
        if first:
            self.down_since = now
            self.delay = FIRST_RETRY_SECONDS
        # Jittered, so the tables of a room do not all knock at once.
        self.retry_at = now + self.delay * (0.5 + self.rng.random())
        self.delay = min(self.delay * 2, LAST_RETRY_SECONDS)
        return first

    def due(self, now: float) -> bool:
        return self.retry_at is not None and now >= self.retry_at

    def back(self, now: float) -> float:
        """The database took the table's write again: how long the table waited."""
        waited = 0.0 if self.down_since is None else max(0.0, now - self.down_since)
        self.down_since = None
        self.retry_at = None
        self.delay = FIRST_RETRY_SECONDS
        return waited
