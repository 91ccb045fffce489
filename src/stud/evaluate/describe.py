"""PokerStars-style words for hand values, and the five cards in display order.

High hands read ``a full house, Kings full of Fours``; lows read ``8,6,4,3,2``
(paired lows ``3,3,5,4``-style: the pairs first, as PokerStars writes them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache

from stud.cards import RANK_NAMES, RANK_PLURALS, RANKS, Card
from stud.evaluate.tables import HIGH_CATEGORIES, LOW_CATEGORIES, LOW_CLASSES, TABLES


@cache
def _high_ranks(value: int) -> tuple[int, tuple[int, ...]]:
    """The category and the five ranks (group order) of a high value 1..7462."""
    key = int(TABLES.high_keys[value - 1])
    return key >> 20, tuple((key >> (4 * i)) & 15 for i in range(4, -1, -1))


@cache
def _low_ranks(value: int) -> tuple[int, tuple[int, ...]]:
    """The category and the five ace-low ranks (0 = ace, group order) of a low value."""
    key = int(TABLES.low_keys[LOW_CLASSES - value])
    return key >> 20, tuple((key >> (4 * i)) & 15 for i in range(4, -1, -1))


@cache
def high_category(value: int) -> str:
    """``"full house"``, ``"straight flush"``, ... for a high value."""
    return HIGH_CATEGORIES[_high_ranks(value)[0]]


@cache
def high_description(value: int) -> str:
    """The PokerStars words for a high value, e.g. ``two pair, Queens and Sevens``."""
    category, r = _high_ranks(value)
    name, plural = RANK_NAMES, RANK_PLURALS
    if category == 0:
        return f"high card {name[r[0]]}"
    if category == 1:
        return f"a pair of {plural[r[0]]}"
    if category == 2:
        return f"two pair, {plural[r[0]]} and {plural[r[2]]}"
    if category == 3:
        return f"three of a kind, {plural[r[0]]}"
    if category == 5:
        return f"a flush, {name[r[0]]} high"
    if category == 6:
        return f"a full house, {plural[r[0]]} full of {plural[r[3]]}"
    if category == 7:
        return f"four of a kind, {plural[r[0]]}"
    top = r[0]
    span = f"{name[top - 4] if top > 3 else 'Ace'} to {name[top]}"
    if category == 4:
        return f"a straight, {span}"
    return "a Royal Flush" if top == 12 else f"a straight flush, {span}"


@cache
def low_category(value: int) -> str:
    """``"low"`` for an unpaired ace-to-five low, else ``"pair"``, ``"two pair"``, ..."""
    return LOW_CATEGORIES[_low_ranks(value)[0]]


@cache
def low_description(value: int) -> str:
    """PokerStars words for an ace-to-five value: ``8,6,4,3,2``, ``5,4,3,2,A``, ``K,K,4,3,2``."""
    return ",".join("A" if r == 0 else RANKS[r - 1] for r in _low_ranks(value)[1])


def _take(pool: Sequence[int], ranks: Sequence[int]) -> tuple[int, ...]:
    """One card per wanted rank (repeats wanted twice), the highest suit first."""
    by_rank: dict[int, list[int]] = {}
    for card in sorted(pool, reverse=True):
        by_rank.setdefault(card >> 2, []).append(card)
    return tuple(by_rank[rank].pop(0) for rank in ranks)


def high_five(hand: Sequence[int], value: int) -> tuple[int, ...]:
    """The five cards of ``hand`` that make high ``value``; of equal choices, the highest suits.

    The value fixes the five ranks (and, for a flush, the suit), so only suits are chosen.
    """
    category, ranks = _high_ranks(value)
    pool = hand
    if category in (5, 8):
        suit = max(range(4), key=lambda s: sum(1 for c in hand if c & 3 == s))
        pool = [c for c in hand if c & 3 == suit]
    if category in (4, 8):
        ranks = tuple((ranks[0] - i) % 13 for i in range(5))  # a wheel ends with the ace
    return _take(pool, ranks)


def low_five(hand: Sequence[int], value: int) -> tuple[int, ...]:
    """The five cards of ``hand`` that make ace-to-five ``value``, the highest suits first."""
    return _take(hand, [(r - 1) % 13 for r in _low_ranks(value)[1]])


def high_display(five: Sequence[int], value: int) -> tuple[Card, ...]:
    """The five cards of a high hand in reading order: groups first, a wheel's ace last."""
    category, ranks = _high_ranks(value)
    counts = Counter(c >> 2 for c in five)
    if category in (4, 8) and ranks[0] == 3:
        order = sorted(five, key=lambda c: ((c >> 2) + 1) % 13 * 4 + (c & 3), reverse=True)
    else:
        order = sorted(five, key=lambda c: (counts[c >> 2], c), reverse=True)
    return tuple(Card(c) for c in order)


def low_display(five: Sequence[int]) -> tuple[Card, ...]:
    """The five cards of an ace-to-five hand in reading order: pairs first, the ace last."""
    counts = Counter(c >> 2 for c in five)
    order = sorted(five, key=lambda c: (counts[c >> 2], ((c >> 2) + 1) % 13, c & 3), reverse=True)
    return tuple(Card(c) for c in order)
