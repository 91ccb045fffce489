"""How many players a table with bots keeps, and how bots come and go.

A table's ``bots`` setting is the number of players it aims for (6 at the
room's 8-seat tables, 4 at its 6-seat ones). It keeps between one fewer and
one more than that (5 to 7 at 8 seats): people who sit down push the count up
and bots leave, one after each hand, until the table is back in that band;
people who leave make room, and bots come back, one between two hands, until
it reaches its aim. A table that cannot deal (fewer than two players) is
filled at once. Seats that people on the waiting list are owed are never
taken by a bot, and a full table with people waiting sends a bot away.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Crowd:
    """The players a table aims for: ``target``, kept within ``low``..``high``."""

    target: int
    seats: int

    @property
    def low(self) -> int:
        return max(2, self.target - 1) if self.target else 0

    @property
    def high(self) -> int:
        return min(self.seats, self.target + 1) if self.target else self.seats

    def bots_to_add(self, seated: int, free: int, waiting: int, *, playable: bool) -> int:
        """Bots to seat now, between hands: all the table lacks if it cannot deal, else one."""
        if not self.target or seated >= self.target:
            return 0
        room = max(0, free - waiting)
        wanted = self.target - seated if not playable else 1
        return min(wanted, room)

    def bot_should_leave(self, seated: int, free: int, waiting: int) -> bool:
        """Whether one bot gives up its seat after a hand: too many players, or people waiting."""
        return seated > self.high or waiting > free
