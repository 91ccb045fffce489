"""Every 5- and 7-card hand through the batch evaluators, against the exact counts of rules.md.

The hands are enumerated in colex order, vectorized: a 7-card hand is its two
highest cards ``a < b`` plus five cards below ``a``, and the colex 5-combinations
of ``range(a)`` are a prefix of those of ``range(50)``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt
import pytest

from stud.evaluate import (
    HIGH_CLASSES,
    LOW_CLASSES,
    eight_low_values,
    high_category,
    high_values,
    low_category,
    low_description,
    razz_values,
)

Batch = Callable[..., npt.NDArray[np.int32]]

pytestmark = pytest.mark.slow


@cache
def colex(k: int, n: int) -> npt.NDArray[np.int8]:
    """All k-combinations of range(n) in colex order (those of range(m) come first); read-only."""
    table = [np.zeros((1, 0), dtype=np.int8)] + [
        np.zeros((0, j), dtype=np.int8) for j in range(1, k + 1)
    ]
    for m in range(n):
        for j in range(k, 0, -1):
            grown = np.hstack([table[j - 1], np.full((len(table[j - 1]), 1), m, dtype=np.int8)])
            table[j] = np.vstack([table[j], grown])
    table[k].flags.writeable = False
    return table[k]


def seven_card_hands(deck: int = 52) -> Iterator[npt.NDArray[np.int8]]:
    """All 133,784,560 seven-card hands, a block per (a, b) pair of top cards."""
    fives = colex(5, deck - 2)
    for b in range(6, deck):
        for a in range(5, b):
            m = comb(a, 5)
            block = np.empty((m, 7), dtype=np.int8)
            block[:, :5] = fives[:m]
            block[:, 5] = a
            block[:, 6] = b
            yield block


def histogram(
    evaluate: Batch, size: int, hands: Iterator[npt.NDArray[np.int8]]
) -> npt.NDArray[np.int64]:
    """How many hands got each value."""
    counts = np.zeros(size, dtype=np.int64)
    for block in hands:
        counts += np.bincount(evaluate(block, check=False), minlength=size)
    return counts


def test_colex_enumeration() -> None:
    fives = colex(5, 12)
    assert len(fives) == comb(12, 5)
    assert len({tuple(r) for r in fives.tolist()}) == len(fives)
    # The prefix property the 7-card enumeration relies on.
    assert (fives[: comb(9, 5)] < 9).all()
    hands = np.vstack(list(seven_card_hands(deck=13)))
    assert len(hands) == comb(13, 7)
    assert len({tuple(sorted(r)) for r in hands.tolist()}) == comb(13, 7)
    assert hands.max() == 12


def by_category(
    hist: npt.NDArray[np.int64], name: Callable[[int], str]
) -> tuple[Counter[str], Counter[str]]:
    hands: Counter[str] = Counter()
    classes: Counter[str] = Counter()
    for value in np.nonzero(hist)[0].tolist():
        hands[name(value)] += int(hist[value])
        classes[name(value)] += 1
    return hands, classes


def test_five_card_high() -> None:
    hist = histogram(high_values, HIGH_CLASSES + 1, iter([colex(5, 52)]))
    assert hist.sum() == 2_598_960
    assert np.count_nonzero(hist) == 7_462
    hands, classes = by_category(hist, high_category)
    assert hands == {
        "straight flush": 40,
        "four of a kind": 624,
        "full house": 3_744,
        "flush": 5_108,
        "straight": 10_200,
        "three of a kind": 54_912,
        "two pair": 123_552,
        "pair": 1_098_240,
        "high card": 1_302_540,
    }
    assert classes == {
        "straight flush": 10,
        "four of a kind": 156,
        "full house": 156,
        "flush": 1_277,
        "straight": 10,
        "three of a kind": 858,
        "two pair": 858,
        "pair": 2_860,
        "high card": 1_277,
    }


def test_five_card_lows() -> None:
    fives = colex(5, 52)
    razz = histogram(razz_values, LOW_CLASSES + 1, iter([fives]))
    assert np.count_nonzero(razz) == 6_175
    eight = histogram(eight_low_values, LOW_CLASSES + 1, iter([fives]))
    assert np.count_nonzero(eight[1:]) == 56
    # A qualifying low is the same hand's ace-to-five value.
    assert (eight[1:] <= razz[1:]).all()
    assert eight[0] == 2_598_960 - eight[1:].sum()
    assert eight[1:].sum() == 56 * 4**5


def test_seven_card_high() -> None:
    hist = histogram(high_values, HIGH_CLASSES + 1, seven_card_hands())
    assert hist.sum() == 133_784_560
    assert np.count_nonzero(hist) == 4_824
    hands, _ = by_category(hist, high_category)
    assert hands == {
        "straight flush": 41_584,
        "four of a kind": 224_848,
        "full house": 3_473_184,
        "flush": 4_047_644,
        "straight": 6_180_020,
        "three of a kind": 6_461_620,
        "two pair": 31_433_400,
        "pair": 58_627_800,
        "high card": 23_294_460,
    }


def test_seven_card_razz() -> None:
    hist = histogram(razz_values, LOW_CLASSES + 1, seven_card_hands())
    assert hist.sum() == 133_784_560
    assert np.count_nonzero(hist) == 5_083
    top: Counter[str] = Counter()
    paired = 0
    for value in np.nonzero(hist)[0].tolist():
        if low_category(value) == "low":
            top[low_description(value)[0]] += int(hist[value])
        else:
            paired += int(hist[value])
    assert paired == 6_169_072
    assert top == {
        "5": 781_824,
        "6": 3_151_360,
        "7": 7_426_560,
        "8": 13_171_200,
        "9": 19_174_400,
        "T": 23_675_904,
        "J": 24_837_120,
        "Q": 21_457_920,
        "K": 13_939_200,
    }


def test_seven_card_eight_or_better() -> None:
    hist = histogram(eight_low_values, LOW_CLASSES + 1, seven_card_hands())
    assert hist[1:].sum() == 24_530_944
    assert np.count_nonzero(hist[1:]) == 56
    assert all(low_description(v)[0] in "5678" for v in np.nonzero(hist[1:])[0] + 1)
