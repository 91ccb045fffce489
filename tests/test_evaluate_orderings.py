"""The seed orderings of rules.md and hand-picked values, as written."""

from __future__ import annotations

import pytest

from stud.cards import RANKS, parse_cards
from stud.evaluate import (
    HIGH_CLASSES,
    LOW_CLASSES,
    eight_low_value,
    evaluate_eight_low,
    evaluate_high,
    evaluate_razz,
    high_value,
    razz_value,
)

SUITS = "cdhs"


def lay_out(ranks: str) -> list[int]:
    """Cards for a comma list such as ``3,3,3,5,5``: repeated ranks in different suits,
    suits rotated so that five distinct ranks never make a flush."""
    cards: list[int] = []
    first: dict[str, int] = {}
    for i, r in enumerate(ranks.split(",")):
        start = first.setdefault(r, i)
        copies = sum(1 for c in cards if c >> 2 == RANKS.index(r))
        cards.append(RANKS.index(r) * 4 + (start + copies) % 4)
    return cards


RAZZ_WORST_TO_BEST = [
    "3,3,3,5,5",
    "K,K,4,3,2",
    "2,2,7,6,5",
    "A,A,T,9,8",
    "K,Q,J,T,9",
    "K,Q,J,T,7",
    "9,8,7,6,5",
    "9,7,6,5,3",
    "9,7,6,5,A",
    "6,5,4,3,2",
    "6,4,3,2,A",
    "5,4,3,2,A",
]
EIGHT_WORST_TO_BEST = [
    "8,7,6,5,4",
    "8,7,6,5,3",
    "8,6,4,2,A",
    "8,4,3,2,A",
    "7,6,5,4,2",
    "7,6,5,2,A",
    "7,5,4,3,2",
    "6,5,4,3,2",
    "6,4,3,2,A",
    "5,4,3,2,A",
]


def test_razz_seed_order() -> None:
    values = [razz_value(lay_out(h)) for h in RAZZ_WORST_TO_BEST]
    assert values == sorted(values)
    assert len(set(values)) == len(values)
    assert values[-1] == LOW_CLASSES


def test_razz_seed_descriptions() -> None:
    for hand in RAZZ_WORST_TO_BEST:
        assert evaluate_razz(lay_out(hand)).description == hand


def test_eight_or_better_seed_order() -> None:
    values = [eight_low_value(lay_out(h)) for h in EIGHT_WORST_TO_BEST]
    assert all(values)
    assert values == sorted(values)
    assert len(set(values)) == len(values)
    for hand, value in zip(EIGHT_WORST_TO_BEST, values, strict=True):
        result = evaluate_eight_low(lay_out(hand))
        assert result is not None
        assert result.value == value == razz_value(lay_out(hand))
        assert result.description == hand


@pytest.mark.parametrize("hand", ["9,7,6,5,A", "8,8,4,3,2", "K,Q,J,T,9", "8,7,6,5,5"])
def test_no_eight_low(hand: str) -> None:
    assert eight_low_value(lay_out(hand)) == 0
    assert evaluate_eight_low(lay_out(hand)) is None


def test_high_extremes() -> None:
    assert high_value(parse_cards("As Ks Qs Js Ts")) == HIGH_CLASSES
    assert high_value(parse_cards("7c 5d 4h 3s 2c")) == 1
    assert evaluate_high(parse_cards("As Ks Qs Js Ts 2c 2d")).description == "a Royal Flush"


def test_eight_or_better_values_are_the_top_56_lows() -> None:
    assert eight_low_value(lay_out("8,7,6,5,4")) == LOW_CLASSES - 55
    assert eight_low_value(lay_out("5,4,3,2,A")) == LOW_CLASSES
    assert razz_value(lay_out("9,4,3,2,A")) == LOW_CLASSES - 56
