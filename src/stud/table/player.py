"""Someone in a table's seat: an account, a name, the chips in front of them, their clock.

Compiled with the table (see :mod:`stud.game.compiled`): the table reads and
writes its players at every step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(slots=True)
class Player:
    """Someone in a seat: an account id, a name and the chips in front of them."""

    id: int
    name: str
    stack: int
    bot: bool
    bank: float
    sitting_out: bool = False
    leaving: bool = False
    timeouts: int = 0
    index: int | None = None  # position in the hand in progress
    start_stack: int = 0
    away: bool = False
    """Sat out by time-outs, or dealt in while sitting out (a tournament): their turns in the
    hand in progress are passed at once."""
    buy_in: int = 0
    """The chips the player last brought to the table (an automatic rebuy tops up to it)."""
    auto_rebuy: bool = False
    pending: int = 0
    """Chips bought during a hand the player is in, added to the stack when it ends."""
    show_losing: bool = False
    """Show a hand that cannot win at the showdown (from the next hand dealt); the room's
    default, off, mucks it."""
    sit_out_after_bring_in: bool = False
    """Sit out once the player has posted a bring-in: from the hand after it."""

    def public(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "id": self.id,
            "name": self.name,
            "stack": self.stack,
            "bot": self.bot,
            "sitting_out": self.sitting_out,
            "leaving": self.leaving,
            "in_hand": self.index is not None,
            "time_bank": round(self.bank, 3),
        }

    def own(self) -> dict[str, Any]:
        """What only the player in the seat is shown of their own settings."""
        return {
            "auto_rebuy": self.auto_rebuy,
            "pending": self.pending,
            "buy_in": self.buy_in,
            "muck_losing_hands": not self.show_losing,
            "sit_out_after_bring_in": self.sit_out_after_bring_in,
        }
