"""Hand values per game and pot shares per run-out, counted exactly in integers.

Shares are kept in *units* of ``1 / pot_units(n)`` of the pot, where
``pot_units(n) = 2 * lcm(1..n)``: every split among up to n players, of the
whole pot or of a Stud8 half, is then a whole number of units, so sums over
billions of run-outs stay exact (no odd chips in equity).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import reduce
from math import lcm

import numpy as np
import numpy.typing as npt

from stud.evaluate import eight_low_values, high_values, razz_values

GAMES = ("stud", "stud8", "razz")
GAME_NAMES = {"stud": "Seven Card Stud", "stud8": "Stud Hi/Lo", "razz": "Razz"}

IntArray = npt.NDArray[np.int64]
Values = npt.NDArray[np.integer]
Evaluator = Callable[[npt.NDArray[np.integer]], Values]


def check_game(game: str) -> str:
    """The game's canonical name; ValueError for anything else."""
    name = game.strip().lower()
    if name not in GAMES:
        raise ValueError(f"unknown game {game!r}: use one of {', '.join(GAMES)}")
    return name


def evaluators(game: str) -> tuple[Evaluator, ...]:
    """The batch evaluators whose values decide the pot: (high,), (razz,) or (high, low)."""
    if game == "stud":
        return (high_values,)
    if game == "razz":
        return (razz_values,)
    return (high_values, eight_low_values)


def hand_values(game: str, hands: npt.NDArray[np.integer]) -> list[IntArray]:
    """Values of 7-card hands (N, 7), one array per evaluator; bigger is better."""
    return [np.asarray(f(hands), dtype=np.int64) for f in evaluators(game)]


def pot_units(players: int) -> int:
    """Units in one pot: every share of a split among ``players`` is a whole number."""
    return 2 * reduce(lcm, range(1, players + 1), 1)


def _zeros(players: int) -> IntArray:
    return np.zeros(players, dtype=np.int64)


@dataclass
class Tally:
    """Sums over run-outs, per player: exact integers, added up across tasks."""

    players: int
    runouts: int = 0
    low_runouts: int = 0  # Stud8: run-outs with a qualifying low
    wins: IntArray = field(init=False)  # took the pot, or a Stud8 half, alone
    ties: IntArray = field(init=False)  # got something, but only by tying
    scoops: IntArray = field(init=False)  # took the whole pot alone
    units: IntArray = field(init=False)  # pot share, in pot_units
    units_sq: IntArray = field(init=False)  # sum of squared per-run-out shares (for sampling)
    high_units: IntArray = field(init=False)  # Stud8: share won with the high hand
    low_units: IntArray = field(init=False)  # Stud8: share won with the low hand

    def __post_init__(self) -> None:
        for name in (
            "wins",
            "ties",
            "scoops",
            "units",
            "units_sq",
            "high_units",
            "low_units",
        ):
            setattr(self, name, _zeros(self.players))

    def add(self, other: Tally) -> None:
        self.runouts += other.runouts
        self.low_runouts += other.low_runouts
        for name in ("wins", "ties", "scoops", "units", "units_sq", "high_units", "low_units"):
            getattr(self, name)[:] += getattr(other, name)


def settle(game: str, values: list[IntArray]) -> Tally:
    """Pot shares of each run-out, given each kind of value as an (R, n) matrix."""
    if game == "stud8":
        return _settle_hilo(values[0], values[1])
    return _settle_one(values[0])


def _best(values: IntArray) -> tuple[npt.NDArray[np.bool_], IntArray]:
    best = values.max(axis=1)
    top = values == best[:, None]
    return top, top.sum(axis=1)


def _settle_one(values: IntArray) -> Tally:
    rows, n = values.shape
    pot = pot_units(n)
    top, count = _best(values)
    each = (pot // np.arange(1, n + 1, dtype=np.int64))[count - 1]
    units = top * each[:, None]
    alone = top & (count == 1)[:, None]
    tally = Tally(n, runouts=rows)
    tally.units[:] = units.sum(axis=0)
    tally.units_sq[:] = (units * units).sum(axis=0)
    tally.wins[:] = alone.sum(axis=0)
    tally.ties[:] = (top & ~alone).sum(axis=0)
    tally.scoops[:] = tally.wins
    tally.high_units[:] = tally.units
    return tally


def _settle_hilo(high: IntArray, low: IntArray) -> Tally:
    rows, n = high.shape
    pot = pot_units(n)
    per = np.zeros(n + 1, dtype=np.int64)
    per[1:] = pot // np.arange(1, n + 1)
    high_top, high_count = _best(high)
    low_top, low_count = _best(low)
    has_low = low.max(axis=1) > 0  # 0 = no qualifying low (R15)
    low_top &= has_low[:, None]
    low_count = np.where(has_low, low_count, 0)
    # The high hand gets half the pot when a low qualifies, else all of it.
    high_each = np.where(has_low, per[high_count] // 2, per[high_count])
    low_each = per[low_count] // 2
    high_units = high_top * high_each[:, None]
    low_units = low_top * low_each[:, None]
    units = high_units + low_units
    alone = (high_top & (high_count == 1)[:, None]) | (low_top & (low_count == 1)[:, None])
    tally = Tally(n, runouts=rows, low_runouts=int(has_low.sum()))
    tally.units[:] = units.sum(axis=0)
    tally.units_sq[:] = (units * units).sum(axis=0)
    tally.high_units[:] = high_units.sum(axis=0)
    tally.low_units[:] = low_units.sum(axis=0)
    tally.wins[:] = alone.sum(axis=0)
    tally.ties[:] = ((units > 0) & ~alone).sum(axis=0)
    tally.scoops[:] = (units == pot).sum(axis=0)
    return tally
