"""What a finished hand's record is headed with, besides the play: one value for the writers.

The room names a hand (its id, the table, the players' names, the time, a
tournament's tag); the hand itself knows its seats and its shuffle. A
:class:`Heading` carries the room's part through the table's hand port
(:meth:`stud.table.port.HandPort.histories`, ``played``) to the history
writers (:mod:`stud.table.histories`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from stud.history import Tournament


@dataclass(frozen=True, slots=True)
class Heading:
    """A hand's id, its table's name and the players' names (in the hand's order), with
    the table's size, the time it finished and a tournament's tag when there are any.

    >>> Heading(12, "Razz 1", ["ann", "bob"], max_seats=8).table_name
    'Razz 1'
    """

    hand_id: int
    table_name: str
    names: Sequence[str]
    max_seats: int | None = None
    time: datetime | None = None
    tournament: Tournament | None = None
    """The tournament's number, buy-in and level (:class:`stud.history.Tournament`)."""
