"""Levels of a stud tournament: ante, bring-in, small and big bet, rising together on a clock.

The ratios are those of PokerStars' stud tournaments (the corpus in
``shared/corpus/pokerstars/tour``: Level IV 50/100 with a 10 ante and a 15
bring-in, Level XXXI 250/500 with 50 and 75): the big bet is twice the small
bet, the ante a fifth of the small bet and the bring-in three tenths of it.
The small bets climb a ladder of round numbers, about a third more each level
(see docs/tournaments.md for the whole table).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

SMALL_BETS: Final = (
    20, 30, 40, 50, 60, 80, 100, 120, 150, 200, 250, 300, 400, 500, 600, 800,
    1000, 1200, 1500, 2000, 2500, 3000, 4000, 5000, 6000, 8000, 10000, 12000,
    15000, 20000, 25000, 30000, 40000, 50000, 60000, 80000, 100000,
)  # fmt: skip
"""The small bet of each level from the first; past the last the stakes double each level."""

ANTE_FIFTHS: Final = 1
"""The ante is this many fifths of the small bet."""

BRING_IN_TENTHS: Final = 3
"""The bring-in is this many tenths of the small bet."""


@dataclass(frozen=True, slots=True)
class Level:
    """One level: its number (1 for the first) and the four amounts it sets."""

    number: int
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int

    def __post_init__(self) -> None:
        if self.number < 1:
            raise ValueError("levels are numbered from 1")
        if not (self.ante >= 0 and 0 < self.bring_in <= self.small_bet <= self.big_bet):
            raise ValueError("a level needs 0 <= ante, 0 < bring-in <= small bet <= big bet")

    @property
    def stakes(self) -> tuple[int, int, int, int]:
        return self.ante, self.bring_in, self.small_bet, self.big_bet

    def public(self) -> dict[str, int]:
        return {
            "level": self.number,
            "ante": self.ante,
            "bring_in": self.bring_in,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
        }


def level_from_small_bet(number: int, small_bet: int) -> Level:
    """The level with this small bet, the other amounts in the house ratios."""
    ante = max(1, round(small_bet * ANTE_FIFTHS / 5))
    bring_in = max(ante + 1, round(small_bet * BRING_IN_TENTHS / 10))
    return Level(number, ante, min(bring_in, small_bet), small_bet, 2 * small_bet)


@dataclass(frozen=True, slots=True)
class Structure:
    """Starting chips, level length, and the levels (the last one doubles on past the list)."""

    starting_chips: int = 1500
    level_seconds: float = 600.0
    levels: tuple[Level, ...] = ()

    def __post_init__(self) -> None:
        if self.starting_chips <= 0:
            raise ValueError("starting chips must be positive")
        if self.level_seconds <= 0:
            raise ValueError("a level must last some time")
        if not self.levels:
            ladder = tuple(level_from_small_bet(i + 1, b) for i, b in enumerate(SMALL_BETS))
            object.__setattr__(self, "levels", ladder)
        for index, level in enumerate(self.levels):
            if level.number != index + 1:
                raise ValueError("levels must be numbered 1, 2, 3, ... in order")

    def level(self, number: int) -> Level:
        """Level ``number`` (1-based); past the list each level doubles the one before."""
        if number < 1:
            raise ValueError("levels are numbered from 1")
        if number <= len(self.levels):
            return self.levels[number - 1]
        last = self.levels[-1]
        factor = 2 ** (number - len(self.levels))
        return Level(
            number, last.ante * factor, last.bring_in * factor,
            last.small_bet * factor, last.big_bet * factor,
        )  # fmt: skip

    def number_at(self, elapsed: float) -> int:
        """The level in force ``elapsed`` seconds after the start."""
        return 1 + max(0, int(elapsed // self.level_seconds))

    def level_at(self, elapsed: float) -> Level:
        return self.level(self.number_at(elapsed))

    def ends_at(self, number: int) -> float:
        """Seconds after the start at which level ``number`` ends."""
        return number * self.level_seconds

    def to_dict(self) -> dict[str, Any]:
        return {
            "starting_chips": self.starting_chips,
            "level_seconds": self.level_seconds,
            "levels": [list(level.stakes) for level in self.levels],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Structure:
        levels = tuple(
            Level(i + 1, *(int(v) for v in stakes)) for i, stakes in enumerate(data["levels"])
        )
        return cls(int(data["starting_chips"]), float(data["level_seconds"]), levels)
