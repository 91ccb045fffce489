"""A table's game, stakes, size and clock: checked once, when the table is made.

Its own module, interpreted: :mod:`stud.table.table` is compiled with mypyc
(stud._compiled), which would check these fields' types before
``__post_init__`` could refuse a bad value with a clear error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PUBLIC_SETTINGS = (
    "name", "game", "ante", "bring_in", "small_bet", "big_bet", "seats", "min_buy_in",
    "max_buy_in", "turn_seconds", "time_bank", "rake_percent", "rake_cap", "tournament",
)  # fmt: skip


def fields_of(record: object, names: tuple[str, ...]) -> dict[str, Any]:
    """``record``'s fields named in ``names``, in that order (a JSON object's keys keep it)."""
    return {name: getattr(record, name) for name in names}


@dataclass(frozen=True, slots=True)
class TableSettings:
    """Game, stakes, size and clock of one table."""

    name: str
    game: str
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    seats: int = 6
    min_buy_in: int = 0
    max_buy_in: int = 0
    bots: int = 0
    """The players the table aims for with bots (0: no bots); see :mod:`stud.table.crowd`."""
    turn_seconds: float = 20.0
    time_bank: float = 30.0
    bank_refill: float = 2.0
    timeouts_to_sit_out: int = 2
    pause_between_hands: float = 2.0
    rake_percent: float = 0.0
    """The house takes this percent of each pot (rounded down), 0 for none."""
    rake_cap: int | None = None
    """At most this much rake per hand; None for no cap."""
    tournament: bool = False
    """A tournament table: players who are away are still dealt in (they ante, and their
    turns pass at once: anteing off), bots stay seated, and no buy-in limits apply."""

    def __post_init__(self) -> None:
        # One rule book for what a table may be: the engine's TableConfig checks the
        # game, stakes, size and rake (a table it refuses could never deal a hand),
        # here with a chip for each seat; only the buy-in range is the table's own.
        from stud.game import TableConfig  # the engine, imported when a table is made

        TableConfig(
            game=self.game, ante=self.ante, bring_in=self.bring_in, small_bet=self.small_bet,
            big_bet=self.big_bet, stacks=(1,) * self.seats, rake_percent=self.rake_percent,
            rake_cap=self.rake_cap,
        )  # fmt: skip
        if self.min_buy_in < 0 or self.max_buy_in < 0:
            raise ValueError("buy-ins cannot be negative")
        if self.max_buy_in and self.min_buy_in > self.max_buy_in:
            raise ValueError(
                f"min_buy_in ({self.min_buy_in}) cannot be above max_buy_in ({self.max_buy_in})"
            )

    def public(self) -> dict[str, Any]:
        """What every client is shown of the table's settings (bots and clocks' refills not)."""
        return fields_of(self, PUBLIC_SETTINGS)
