"""Ace-to-five lows: Razz (pairs count against, no qualifier) and eight or better.

Both are rank-only. When five ranks differ, the low is the five lowest of them,
read from a table indexed by the OR of per-card ace-low rank bits; only hands
with fewer than five ranks (paired lows) need the rank-key sum.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from stud.evaluate.describe import low_category, low_description, low_display, low_five
from stud.evaluate.handvalue import HandValue
from stud.evaluate.tables import RANK_KEYS, TABLES, ace_low_bit
from stud.evaluate.validate import checked_cards

# Tuples, not lists: the garbage collector stops tracking tuples of ints.
_BIT = tuple(ace_low_bit(c) for c in range(52))
_RANK = tuple(RANK_KEYS[c >> 2] for c in range(52))
_LOW = tuple(int(v) for v in TABLES.low_mask.tolist())
_EIGHT = tuple(int(v) for v in TABLES.eight_mask.tolist())


def _paired(k: int) -> dict[int, int]:
    """Rank-key sum -> low value for the k-rank multisets with fewer than five ranks."""
    few = TABLES.distinct[k] < 5
    return dict(zip(TABLES.sums[k][few].tolist(), TABLES.low[k][few].tolist(), strict=True))


_PAIRED7, _PAIRED6, _PAIRED5 = _paired(7), _paired(6), _paired(5)

LOW_VALUES: Final = _LOW
"""Razz values by ace-low rank mask (0 below five ranks), the paired ones of 5, 6 and 7 cards
by rank-key sum (:data:`PAIRED_VALUES`), the eight-or-better lows by mask
(:data:`EIGHT_VALUES`): for :class:`stud.evaluate.sofar.Running`, which keeps a hand's
sums as its cards come."""
PAIRED_VALUES: Final = (_PAIRED5, _PAIRED6, _PAIRED7)
EIGHT_VALUES: Final = _EIGHT


def razz_value(cards: Sequence[int]) -> int:
    """The best ace-to-five low of 5, 6 or 7 cards: 1 (K-K-K-K-Q) .. 6175 (5-4-3-2-A).

    Straights and flushes do not count, pairs count against. Only the count is
    checked; use :func:`evaluate_razz` for untrusted input.
    """
    try:
        a, b, c, d, e, f, g = cards
    except ValueError:
        return _razz_few(cards)
    v = _LOW[_BIT[a] | _BIT[b] | _BIT[c] | _BIT[d] | _BIT[e] | _BIT[f] | _BIT[g]]
    if v:
        return v
    return _PAIRED7[_RANK[a] + _RANK[b] + _RANK[c] + _RANK[d] + _RANK[e] + _RANK[f] + _RANK[g]]


def _razz_few(cards: Sequence[int]) -> int:
    """Five or six cards (seven take the inline path)."""
    n = len(cards)
    if n == 6:
        a, b, c, d, e, f = cards
        v = _LOW[_BIT[a] | _BIT[b] | _BIT[c] | _BIT[d] | _BIT[e] | _BIT[f]]
        if v:
            return v
        return _PAIRED6[_RANK[a] + _RANK[b] + _RANK[c] + _RANK[d] + _RANK[e] + _RANK[f]]
    if n == 5:
        a, b, c, d, e = cards
        v = _LOW[_BIT[a] | _BIT[b] | _BIT[c] | _BIT[d] | _BIT[e]]
        if v:
            return v
        return _PAIRED5[_RANK[a] + _RANK[b] + _RANK[c] + _RANK[d] + _RANK[e]]
    raise ValueError(f"expected 5, 6 or 7 cards, got {n}")


def eight_low_value(cards: Sequence[int]) -> int:
    """The eight-or-better low of 5, 6 or 7 cards (its ace-to-five value), or 0 if none qualifies.

    Only the count is checked; use :func:`evaluate_eight_low` for untrusted input.
    """
    try:
        a, b, c, d, e, f, g = cards
    except ValueError:
        return _eight_few(cards)
    return _EIGHT[_BIT[a] | _BIT[b] | _BIT[c] | _BIT[d] | _BIT[e] | _BIT[f] | _BIT[g]]


def _eight_few(cards: Sequence[int]) -> int:
    """Five or six cards (seven take the inline path)."""
    n = len(cards)
    if n == 6:
        a, b, c, d, e, f = cards
        return _EIGHT[_BIT[a] | _BIT[b] | _BIT[c] | _BIT[d] | _BIT[e] | _BIT[f]]
    if n == 5:
        a, b, c, d, e = cards
        return _EIGHT[_BIT[a] | _BIT[b] | _BIT[c] | _BIT[d] | _BIT[e]]
    raise ValueError(f"expected 5, 6 or 7 cards, got {n}")


def _low_result(hand: tuple[int, ...], value: int) -> HandValue:
    five = low_five(hand, value)
    return HandValue(value, low_display(five), low_description(value), low_category(value))


def evaluate_razz(cards: Sequence[int]) -> HandValue:
    """The best ace-to-five low with its five cards and words (input fully checked)."""
    hand = checked_cards(cards)
    return _low_result(hand, razz_value(hand))


def evaluate_eight_low(cards: Sequence[int]) -> HandValue | None:
    """The qualifying eight-or-better low with its cards and words, or None (input checked)."""
    hand = checked_cards(cards)
    value = eight_low_value(hand)
    return _low_result(hand, value) if value else None
