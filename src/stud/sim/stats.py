"""Win rates in big bets per 100 hands, with 95% confidence intervals.

Hands are independent (fresh deck, fresh stacks), but a player's seat turns
with every hand, so the interval comes from batch means over whole rotations
(one hand in every seat per batch): each batch is an independent draw of the
same distribution, which makes the normal interval honest.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from stud.sim.run import SimResult

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Rate:
    """One player's (or one bot kind's) result over the run."""

    label: str
    bot: str
    hands: int
    bb_per_100: float
    ci95: float
    """Half-width of the 95% confidence interval, in big bets per 100 hands."""
    total_bb: float

    @property
    def low(self) -> float:
        return self.bb_per_100 - self.ci95

    @property
    def high(self) -> float:
        return self.bb_per_100 + self.ci95

    @property
    def significant(self) -> bool:
        """Whether the interval excludes zero (a win or a loss at 95%)."""
        return self.low > 0 or self.high < 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "bot": self.bot,
            "hands": self.hands,
            "bb_per_100": round(self.bb_per_100, 3),
            "ci95": round(self.ci95, 3),
            "low": round(self.low, 3),
            "high": round(self.high, 3),
            "total_bb": round(self.total_bb, 2),
            "significant": self.significant,
        }


def rate_cell(rate: Rate, hands: bool = False) -> str:
    """A table cell: the rate and its interval, ``*`` where significant, the hands if asked."""
    mark = "*" if rate.significant else " "
    count = f" ({rate.hands:,} h)" if hands else ""
    return f"{rate.bb_per_100:+7.2f} ± {rate.ci95:5.2f}{mark}{count}"


def rate(label: str, bot: str, per_hand_bb: npt.NDArray[np.float64], block: int) -> Rate:
    """The rate and interval of a per-hand series, batch means over ``block`` hands."""
    n = len(per_hand_bb)
    mean = float(per_hand_bb.mean()) if n else 0.0
    batches = n // block
    if batches >= 2:
        means = per_hand_bb[: batches * block].reshape(batches, block).mean(axis=1)
        se = float(means.std(ddof=1)) / math.sqrt(batches)
    elif n >= 2:
        se = float(per_hand_bb.std(ddof=1)) / math.sqrt(n)
    else:
        se = math.inf
    return Rate(label, bot, n, 100.0 * mean, 100.0 * Z95 * se, float(per_hand_bb.sum()))


def variance_reduction(raw: Rate, adjusted: Rate | None) -> float | None:
    """How many times smaller the adjusted estimate's variance is than the raw one's.

    Both over the same hands, so it is also how many times fewer hands the
    adjusted estimate needs for the same interval. None without an adjusted one.
    """
    if adjusted is None or adjusted.ci95 == 0:
        return None
    return (raw.ci95 / adjusted.ci95) ** 2


@dataclass(frozen=True, slots=True)
class Moments:
    """Count, sum and sum of squares of independent draws: what an interval needs, addable.

    Results kept this way can be split across runs and merged later (the sum
    of two sessions' moments is the moments of both).
    """

    count: int = 0
    total: float = 0.0
    squares: float = 0.0

    @classmethod
    def of(cls, values: npt.NDArray[np.float64]) -> Moments:
        return cls(len(values), float(values.sum()), float(np.square(values).sum()))

    def __add__(self, other: Moments) -> Moments:
        return Moments(
            self.count + other.count, self.total + other.total, self.squares + other.squares
        )

    @property
    def mean(self) -> float:
        return self.total / self.count if self.count else 0.0

    @property
    def variance(self) -> float:
        """The sample variance (n - 1 in the denominator); infinite below two draws."""
        if self.count < 2:
            return math.inf
        return max(0.0, (self.squares - self.count * self.mean**2) / (self.count - 1))

    def rate(self, label: str, bot: str, hands: int, total_bb: float) -> Rate:
        """The draws' mean per 100 (draws in big bets per hand) with its 95% interval."""
        half = 100.0 * Z95 * math.sqrt(self.variance / self.count) if self.count else math.inf
        return Rate(label, bot, hands, 100.0 * self.mean, half, total_bb)

    def to_list(self) -> list[float]:
        return [self.count, self.total, self.squares]

    @classmethod
    def from_list(cls, data: Any) -> Moments:
        """From ``[count, sum, sum of squares]``; ValueError for anything else."""
        if not isinstance(data, list) or len(data) != 3:
            raise ValueError(f"moments must be [count, sum, sum of squares], not {data!r}")
        count, total, squares = data
        if not isinstance(count, int) or isinstance(count, bool) or count < 0:
            raise ValueError(f"a count must be a whole number >= 0, not {count!r}")
        if not all(isinstance(x, int | float) and math.isfinite(x) for x in (total, squares)):
            raise ValueError(f"moments must be finite numbers, not {data!r}")
        return cls(count, float(total), float(squares))


def labels(bots: tuple[str, ...]) -> list[str]:
    """``strong, random, strong`` as ``strong#1, random, strong#2``: each player named once."""
    out: list[str] = []
    for i, name in enumerate(bots):
        if bots.count(name) > 1:
            out.append(f"{name}#{bots[: i + 1].count(name)}")
        else:
            out.append(name)
    return out


def player_rates(result: SimResult) -> list[Rate]:
    """Each player's rate, in the order of the ``--bots`` list."""
    bots = result.config.bots
    bb = result.net / result.config.stakes.big_bet
    block = len(bots)
    return [rate(label, bots[p], bb[:, p], block) for p, label in enumerate(labels(bots))]


def bot_rates(result: SimResult) -> list[Rate]:
    """Each bot kind's rate per player seat it holds (players of one kind averaged per hand)."""
    bots = result.config.bots
    bb = result.net / result.config.stakes.big_bet
    out: list[Rate] = []
    for name in dict.fromkeys(bots):
        columns = [p for p, b in enumerate(bots) if b == name]
        series = bb[:, columns].mean(axis=1)
        out.append(rate(name, name, series, len(bots)))
    return out


def summary(result: SimResult) -> dict[str, Any]:
    """The run as a JSON-friendly dict: settings, each player's and each bot's rate."""
    config = result.config
    return {
        "game": config.game,
        "bots": list(config.bots),
        "hands": int(result.net.shape[0]),
        "seed": config.seed,
        "stakes": str(config.stakes),
        "big_bet": config.stakes.big_bet,
        "players": [r.to_dict() for r in player_rates(result)],
        "by_bot": [r.to_dict() for r in bot_rates(result)],
    }
