"""The high evaluator: best five of 5, 6 or 7 cards, as one int (bigger is better).

One sum of per-card keys gives both the rank-key sum (a perfect hash of the
ranks) and the suit-key sum (which tells a flush); a flush is rare and takes
a slower path through a 13-bit rank-mask table. The first card's key is
shifted down by half the suit range so that every sum stays within CPython's
one-digit ints (|s| < 2**30), whose arithmetic is quickest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from stud.evaluate.describe import high_category, high_description, high_display, high_five
from stud.evaluate.handvalue import HandValue
from stud.evaluate.tables import RANK_BITS, RANK_MASK, TABLES, card_key, flush_suits
from stud.evaluate.validate import checked_cards

if RANK_BITS != 23 or RANK_MASK != 0x7FFFFF:  # the seven-card path spells them out
    raise AssertionError("high_value's constants are out of date")
_OFFSET = 112  # suit-key sums run 0..224; minus 112 they fit one CPython digit
_KEY = tuple(card_key(c) for c in range(52))
_KEY0 = tuple(k - (_OFFSET << RANK_BITS) for k in _KEY)


def _flush_of(k: int) -> list[int]:
    """(suit-key sum - 112) -> flush suit + 1 (0: no flush); negative sums index from the end."""
    table = [0] * 256
    for total, suit in enumerate(flush_suits(k)[: 2 * _OFFSET + 1].tolist()):
        table[total - _OFFSET] = suit + 1
    return table


_FLUSH_OF7, _FLUSH_OF6, _FLUSH_OF5 = _flush_of(7), _flush_of(6), _flush_of(5)
# Lookup tables are tuples, not lists: the garbage collector stops tracking a
# tuple that holds only ints, while it would walk a 7.8M-slot list at every
# full collection (a fifth of the time of a program that plays many hands).
_FLUSH = tuple(int(v) for v in TABLES.flush.tolist())
# One int object per value, shared by every slot that holds it: fewer cache lines.
_VALUES = tuple(range(TABLES.flush.max() + 1))


def _seven_table() -> tuple[int, ...]:
    """Seven-card value by rank-key sum (0 where no seven ranks sum to it)."""
    table = [0] * (int(TABLES.sums[7][-1]) + 1)
    for total, value in zip(TABLES.sums[7].tolist(), TABLES.high[7].tolist(), strict=True):
        table[total] = _VALUES[value]
    return tuple(table)


_SEVEN = _seven_table()
_SIX: dict[int, int] = dict(zip(TABLES.sums[6].tolist(), TABLES.high[6].tolist(), strict=True))
_FIVE: dict[int, int] = dict(zip(TABLES.sums[5].tolist(), TABLES.high[5].tolist(), strict=True))

PLAIN_VALUES: Final = (_FIVE, _SIX, _SEVEN)
"""The values of 5, 6 and 7 cards with no flush by their rank-key sum, and of every flush by its
rank mask (:data:`FLUSH_VALUES`): for :class:`stud.evaluate.sofar.Running`, which keeps a
hand's sums as its cards come rather than reading the cards again."""
FLUSH_VALUES: Final = _FLUSH


def _flush_value(cards: Sequence[int], suit: int) -> int:
    """The best flush (or straight flush) in ``suit``."""
    mask = 0
    for c in cards:
        if c & 3 == suit:
            mask |= 1 << (c >> 2)
    return _FLUSH[mask]


def high_value(cards: Sequence[int]) -> int:
    """The best five-card high value of 5, 6 or 7 distinct cards: 1 (7-5-4-3-2) .. 7462 (royal).

    The fast path: only the count is checked; use :func:`evaluate_high` for
    untrusted input.
    """
    try:
        a, b, c, d, e, f, g = cards
    except ValueError:
        return _high_few(cards)
    s = _KEY0[a] + _KEY[b] + _KEY[c] + _KEY[d] + _KEY[e] + _KEY[f] + _KEY[g]
    suit = _FLUSH_OF7[s >> 23]  # RANK_BITS, written as a constant: quicker to load
    if suit:
        return _flush_value(cards, suit - 1)
    return _SEVEN[s & 0x7FFFFF]  # RANK_MASK


def _high_few(cards: Sequence[int]) -> int:
    """Five or six cards (seven take the inline path)."""
    n = len(cards)
    if n == 6:
        a, b, c, d, e, f = cards
        s = _KEY0[a] + _KEY[b] + _KEY[c] + _KEY[d] + _KEY[e] + _KEY[f]
        suit = _FLUSH_OF6[s >> RANK_BITS]
        if suit:
            return _flush_value(cards, suit - 1)
        return _SIX[s & RANK_MASK]
    if n == 5:
        a, b, c, d, e = cards
        s = _KEY0[a] + _KEY[b] + _KEY[c] + _KEY[d] + _KEY[e]
        suit = _FLUSH_OF5[s >> RANK_BITS]
        if suit:
            return _flush_value(cards, suit - 1)
        return _FIVE[s & RANK_MASK]
    raise ValueError(f"expected 5, 6 or 7 cards, got {n}")


def evaluate_high(cards: Sequence[int]) -> HandValue:
    """The best high hand with its five cards and PokerStars words (input fully checked)."""
    hand = checked_cards(cards)
    value = high_value(hand)
    five = high_five(hand, value)
    return HandValue(
        value, high_display(five, value), high_description(value), high_category(value)
    )
