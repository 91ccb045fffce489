"""The partial-hand words (stud.evaluate.sofar) read exactly as their first, plain version did.

The fast versions work the words of fewer than five cards out once per rank
multiset; this holds them to the straightforward implementation they replaced
(kept here as the reference) over every hand of one to three cards and many
random hands of four to seven, in all three games, every count of cards to come.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest

from stud.cards import RANK_NAMES, RANK_PLURALS, RANKS
from stud.evaluate.describe import high_description, low_description
from stud.evaluate.high import high_value
from stud.evaluate.low import eight_low_value, razz_value
from stud.evaluate.sofar import LowSoFar, eight_low_so_far, high_so_far, razz_so_far


def reference_high(hand: Sequence[int]) -> str:
    if len(hand) >= 5:
        return high_description(high_value(hand))
    counts = Counter(c >> 2 for c in hand)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    (top, size), rest = groups[0], groups[1:]
    if size == 4:
        return f"four of a kind, {RANK_PLURALS[top]}"
    if size == 3:
        return f"three of a kind, {RANK_PLURALS[top]}"
    if size == 2 and rest and rest[0][1] == 2:
        return f"two pair, {RANK_PLURALS[top]} and {RANK_PLURALS[rest[0][0]]}"
    if size == 2:
        return f"a pair of {RANK_PLURALS[top]}"
    return f"high card {RANK_NAMES[top]}"


def _ace_low(card: int) -> int:
    return (card >> 2) + 2 if card >> 2 != 12 else 1


def _rank_text(low_rank: int) -> str:
    return "A" if low_rank == 1 else RANKS[low_rank - 2]


def reference_razz(hand: Sequence[int]) -> LowSoFar:
    if len(hand) >= 5:
        return LowSoFar(low_description(razz_value(hand)), made=True, possible=True)
    counts = Counter(_ace_low(c) for c in hand)
    order = sorted(counts.elements(), key=lambda r: (counts[r], r), reverse=True)
    return LowSoFar(",".join(_rank_text(r) for r in order), made=False, possible=True)


def reference_eight(hand: Sequence[int], to_come: int) -> LowSoFar | None:
    made = eight_low_value(hand) if len(hand) >= 5 else 0
    if made:
        return LowSoFar(low_description(made), made=True, possible=True)
    ranks = sorted({_ace_low(c) for c in hand if _ace_low(c) <= 8}, reverse=True)
    if not ranks:
        return None
    text = ",".join(_rank_text(r) for r in ranks)
    return LowSoFar(text, made=False, possible=5 - len(ranks) <= to_come)


def _same(hand: tuple[int, ...]) -> None:
    assert high_so_far(hand) == reference_high(hand), hand
    assert razz_so_far(hand) == reference_razz(hand), hand
    for to_come in range(max(0, 4 - len(hand)), 7 - len(hand) + 1):
        assert eight_low_so_far(hand, to_come) == reference_eight(hand, to_come), (hand, to_come)
    # A list or any order of the same cards reads the same.
    assert high_so_far(list(reversed(hand))) == reference_high(hand)


@pytest.mark.slow
@pytest.mark.parametrize("size", [1, 2, 3])
def test_every_hand_of_one_to_three_cards_reads_as_before(size: int) -> None:
    for hand in combinations(range(52), size):
        _same(hand)


@pytest.mark.slow
@pytest.mark.parametrize("size", [4, 5, 6, 7])
def test_many_hands_of_four_to_seven_cards_read_as_before(size: int) -> None:
    rng = random.Random(size)
    for _ in range(15000):
        _same(tuple(rng.sample(range(52), size)))


def test_bad_input_is_still_refused() -> None:
    with pytest.raises(ValueError, match="appears more than once"):
        high_so_far([4, 4])
    with pytest.raises(ValueError, match="not a card"):
        razz_so_far([52])
    with pytest.raises(ValueError, match="cards to come"):
        eight_low_so_far([1, 2], -1)
