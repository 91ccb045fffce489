"""Hand values per game and pot shares per run-out, counted exactly in integers.

Shares are kept in *units* of ``1 / pot_units(n)`` of the pot, where
``pot_units(n) = 2 * lcm(1..n)``: every split among up to n players, of the
whole pot or of a Stud8 half, is then a whole number of units, so sums over
billions of run-outs stay exact (no odd chips in equity).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache, reduce
from math import lcm
from typing import Protocol

import numpy as np
import numpy.typing as npt

from stud.evaluate import eight_low_values, high_values, razz_values

GAMES = ("stud", "stud8", "razz")
GAME_NAMES = {"stud": "Seven Card Stud", "stud8": "Stud Hi/Lo", "razz": "Razz"}

IntArray = npt.NDArray[np.int64]
Values = npt.NDArray[np.integer]


class Evaluator(Protocol):
    """A batch evaluator: (N, k) cards in, N values out; ``check=False`` trusts the cards."""

    def __call__(self, hands: npt.NDArray[np.integer], *, check: bool = True) -> Values: ...


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


def hand_values(game: str, hands: npt.NDArray[np.integer], *, check: bool = True) -> list[IntArray]:
    """Values of 7-card hands (N, 7), one array per evaluator; bigger is better.

    ``check=False`` skips the repeated-card test, for hands known to be sound.
    """
    return [np.asarray(f(hands, check=check), dtype=np.int64) for f in evaluators(game)]


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


Columns = list[IntArray]  # one value array per player, a row per run-out


def settle(game: str, values: list[Columns]) -> Tally:
    """Pot shares of a block of run-outs, given each kind of value per player.

    Each player's outcome on a run-out is summed up in a small code (how many
    share what they win), counted with one ``bincount``; the code's share and
    win/tie/scoop come from a table. That keeps the work to a few vector
    operations per player.
    """
    if game == "stud8":
        return _settle_hilo(values[0], values[1])
    return _settle_one(values[0])


def _top(columns: Columns) -> tuple[list[npt.NDArray[np.bool_]], IntArray]:
    """Which players hold the best value on each row, and how many do."""
    best = columns[0].copy()
    for column in columns[1:]:
        np.maximum(best, column, out=best)
    top = [column == best for column in columns]
    count = np.zeros(len(best), dtype=np.int64)
    for mine in top:
        count += mine
    return top, count


@dataclass(frozen=True)
class Outcomes:
    """Per outcome code: the pot units won (all, high, low) and whether a win, tie, scoop."""

    units: IntArray
    high: IntArray
    low: IntArray
    win: IntArray
    tie: IntArray
    scoop: IntArray

    def add_to(self, tally: Tally, player: int, codes: IntArray) -> None:
        counts = np.bincount(codes, minlength=len(self.units))
        tally.units[player] += counts @ self.units
        tally.units_sq[player] += counts @ (self.units * self.units)
        tally.high_units[player] += counts @ self.high
        tally.low_units[player] += counts @ self.low
        tally.wins[player] += counts @ self.win
        tally.ties[player] += counts @ self.tie
        tally.scoops[player] += counts @ self.scoop


@cache
def outcomes(players: int, hilo: bool) -> Outcomes:
    """The table of outcome codes for a table of ``players``.

    One pot: code ``c`` = the player shares the pot c ways (0: lost). Stud8:
    code ``has_low * S * S + a * S + b`` with S = players + 1: the player shares
    the high half a ways and the low half b ways (0: not in it); with no
    qualifying low the high hand's share is the whole pot (R15).
    """
    pot = pot_units(players)
    size = players + 1
    rows: list[tuple[int, int, bool]] = []  # (high units, low units, won something alone)
    if not hilo:
        for c in range(size):
            rows.append((pot // c if c else 0, 0, c == 1))
    else:
        for has_low in (0, 1):
            for a in range(size):
                for b in range(size):
                    high_units = (pot // a // (2 if has_low else 1)) if a else 0
                    low_units = pot // b // 2 if b and has_low else 0
                    rows.append((high_units, low_units, a == 1 or (b == 1 and bool(has_low))))
    high: IntArray = np.array([r[0] for r in rows], dtype=np.int64)
    low: IntArray = np.array([r[1] for r in rows], dtype=np.int64)
    units = high + low
    win: IntArray = np.array([r[2] for r in rows], dtype=np.int64)
    tie = ((units > 0) & (win == 0)).astype(np.int64)
    scoop = (units == pot).astype(np.int64)
    return Outcomes(units, high, low, win, tie, scoop)


def share_units(game: str, values: list[Columns]) -> list[IntArray]:
    """Each player's pot share on every run-out, in ``pot_units(players)``: row by row.

    The same outcome codes as :func:`settle`, looked up per run-out instead of
    counted: for callers that need the shares of groups of rows apart.
    """
    hilo = game == "stud8"
    codes, _ = _codes_hilo(values[0], values[1]) if hilo else (_codes_one(values[0]), None)
    table = outcomes(len(values[0]), hilo).units
    return [table[c] for c in codes]


def _codes_one(values: Columns) -> list[IntArray]:
    """Per player and row: how many share the pot with them (0: not in it)."""
    top, count = _top(values)
    return [count * mine for mine in top]


def _codes_hilo(high: Columns, low: Columns) -> tuple[list[IntArray], npt.NDArray[np.bool_]]:
    """Per player and row, the Stud8 outcome code (:func:`outcomes`); the rows with a low."""
    size = len(high) + 1
    high_top, high_count = _top(high)
    low_top, low_count = _top(low)
    best_low = low[0].copy()
    for column in low[1:]:
        np.maximum(best_low, column, out=best_low)
    has_low = best_low > 0  # 0 = no qualifying low (R15)
    base = has_low * (size * size)
    low_count *= has_low
    codes = [
        base + high_count * high_top[player] * size + low_count * low_top[player]
        for player in range(len(high))
    ]
    return codes, has_low


def _settle_one(values: Columns) -> Tally:
    n = len(values)
    table = outcomes(n, False)
    codes = _codes_one(values)
    tally = Tally(n, runouts=len(codes[0]))
    for player, code in enumerate(codes):
        table.add_to(tally, player, code)
    return tally


def _settle_hilo(high: Columns, low: Columns) -> Tally:
    n = len(high)
    codes, has_low = _codes_hilo(high, low)
    table = outcomes(n, True)
    tally = Tally(n, runouts=len(has_low), low_runouts=int(np.count_nonzero(has_low)))
    for player, code in enumerate(codes):
        table.add_to(tally, player, code)
    return tally
