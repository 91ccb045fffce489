"""Third-street hand strength per game, as percentiles over every three-card start.

One table per game maps any three cards (two down and the door card, in any
order) to the share of starting hands it beats, from 0 to 1. The strong bot
uses it twice: for its own starting-hand discipline, and to weigh which
hidden cards an opponent holds given how it played 3rd street. Scores follow
the games' standard advice (Razz: three low unpaired cards, the lower the
better; Stud8: three cards to an eight-low, aces, scooping starts; Stud:
trips, pairs by rank, three to a flush or straight); the percentile makes the
three games' tables comparable.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from stud.bots.arrays import FloatArray, IntArray


def _sorted3(a: IntArray, b: IntArray, c: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """Three arrays sorted element-wise, largest first."""
    hi = np.maximum(np.maximum(a, b), c)
    lo = np.minimum(np.minimum(a, b), c)
    return hi, a + b + c - hi - lo, lo


def _razz_score(r: list[IntArray], s: list[IntArray]) -> FloatArray:
    low = [(x + 1) % 13 for x in r]  # ace 0 .. king 12
    h, m, lo = _sorted3(*low)
    distinct = (h != m) & (m != lo)
    trips = h == lo
    three = 100.0 - 6.0 * h - 2.0 * m - 1.0 * lo
    # A paired start plays like two cards and a brick: score it off its two distinct ranks.
    top = np.where(h == m, np.maximum(h, lo), h)
    paired = 40.0 - 5.0 * top - 1.0 * np.where(h == m, lo, m)
    return np.where(distinct, three, np.where(trips, -60.0, paired))


def _stud8_score(r: list[IntArray], s: list[IntArray]) -> FloatArray:
    low = [(x + 1) % 13 for x in r]
    h, m, lo = _sorted3(*low)  # ace-low ranks
    hr, mr, lr = _sorted3(*r)  # ace-high ranks
    aces = sum((x == 12).astype(np.int64) for x in r)
    suited = (s[0] == s[1]) & (s[1] == s[2])
    distinct = (h != m) & (m != lo)
    trips = hr == lr
    pair = ~distinct & ~trips
    pair_rank = np.where(hr == mr, hr, mr)
    third = np.where(hr == mr, lr, hr)
    third_low = (third + 1) % 13
    lows = (low[0] <= 7).astype(np.int64) + (low[1] <= 7) + (low[2] <= 7)
    score = 8.0 + 9.0 * aces + 4.0 * suited + 1.5 * (hr >= 9)
    three_low = distinct & (h <= 7)
    score = np.where(
        three_low,
        46.0 + 3.0 * (7 - h) + 1.0 * (7 - m) + 7.0 * aces + 5.0 * suited + 2.0 * (h - lo <= 4),
        score,
    )
    two_low = distinct & ~three_low & (lows == 2)
    score = np.where(two_low, 18.0 + 9.0 * aces + 4.0 * suited + 0.5 * (7 - m), score)
    pair_score = np.where(
        pair_rank == 12,
        58.0 + 4.0 * (third_low <= 7),
        np.where(
            pair_rank >= 8,
            26.0 + 1.5 * (pair_rank - 8) + 8.0 * (third == 12),
            np.where(pair_rank <= 6, 22.0 + 6.0 * (third_low <= 7) + 5.0 * (third == 12), 16.0),
        ),
    )
    score = np.where(pair, pair_score, score)
    return np.where(trips, 80.0 + hr, score)


def _stud_score(r: list[IntArray], s: list[IntArray]) -> FloatArray:
    hr, mr, lr = _sorted3(*r)
    suited = (s[0] == s[1]) & (s[1] == s[2])
    distinct = (hr != mr) & (mr != lr)
    trips = hr == lr
    pair = ~distinct & ~trips
    pair_rank = np.where(hr == mr, hr, mr)
    kicker = np.where(hr == mr, lr, hr)
    wheelish = (hr == 12) & (mr <= 2)
    straight = distinct & ((hr - lr <= 4) | wheelish)
    score = 4.0 + 1.6 * hr + 0.6 * mr
    score = np.where(straight, 22.0 + 1.2 * hr + 3.0 * (hr - lr == 2), score)
    score = np.where(suited, 28.0 + 1.3 * hr + 8.0 * straight, score)
    score = np.where(pair, 38.0 + 3.6 * pair_rank + 0.5 * kicker, score)
    return np.where(trips, 100.0 + hr, score)


_SCORERS = {"razz": _razz_score, "stud8": _stud8_score, "stud": _stud_score}


@cache
def start_table(game: str) -> npt.NDArray[np.float32]:
    """Percentile of every ordered triple of distinct cards, shape (52, 52, 52); 0 if repeated."""
    grid = np.indices((52, 52, 52)).reshape(3, -1).astype(np.int64)
    a, b, c = grid
    valid = (a != b) & (b != c) & (a != c)
    ranks = [a >> 2, b >> 2, c >> 2]
    suits = [a & 3, b & 3, c & 3]
    score = _SCORERS[game](ranks, suits)
    values = score[valid]
    order = np.sort(values)
    below = np.searchsorted(order, values, side="left")
    upto = np.searchsorted(order, values, side="right")
    pct = np.zeros(a.shape, dtype=np.float32)
    pct[valid] = ((below + upto) / (2.0 * len(values))).astype(np.float32)
    return pct.reshape(52, 52, 52)


def start_percentile(game: str, cards: list[int]) -> float:
    """The share of three-card starts that ``cards`` (the first three dealt) beats."""
    a, b, c = cards[:3]
    return float(start_table(game)[a, b, c])
