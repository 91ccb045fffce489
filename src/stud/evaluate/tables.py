"""Lookup tables for the evaluators, built once at import with vectorized NumPy.

Every rank gets a key from :data:`RANK_KEYS`, chosen (greedily, and checked
here) so that the key sums of two different multisets of exactly ``k`` ranks
(``k`` = 5, 6 or 7, at most four of a rank) never collide. A hand's rank-key
sum is then a perfect hash of its ranks, and one table lookup gives its
value. A suit key (:data:`SUIT_KEYS`) rides in the same per-card key, so the
same sum tells a flush; flushes are then read from a 13-bit rank mask, and
the ace-to-five lows from a 13-bit rank-presence mask whenever five ranks
differ (the common case).

Values (bigger is better, equal hands equal):

* high: ``1`` (7-5-4-3-2 offsuit) .. ``7462`` (royal flush), the 7,462 classes;
* ace-to-five low: ``1`` (K-K-K-K-Q) .. ``6175`` (5-4-3-2-A), the 6,175 classes;
* eight-or-better: the ace-to-five value of the qualifying low, or ``0``.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Final

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]

#: Rank keys (deuce..ace): sums over multisets of exactly k <= 7 ranks are unique.
RANK_KEYS: Final = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
#: Bits taken by a rank-key sum of up to seven cards (the largest is 7,825,759).
RANK_BITS: Final = 23
RANK_MASK: Final = (1 << RANK_BITS) - 1
#: Suit keys: a sum over 5, 6 or 7 cards (at most 224) tells whether five or
#: more share a suit, and which (the smallest such keys, searched; checked by
#: :func:`flush_suits`).
SUIT_KEYS: Final = (0, 1, 25, 32)


def card_key(card: int) -> int:
    """A card's 31-bit key: its rank key below bit 23, its suit key above.

    One sum over a hand gives the rank-key sum (``& RANK_MASK``) and the
    suit-key sum (``>> RANK_BITS``) at once.
    """
    return RANK_KEYS[card >> 2] + (SUIT_KEYS[card & 3] << RANK_BITS)


def flush_suits(k: int) -> npt.NDArray[np.int8]:
    """For k cards, the suit with five or more cards by the suit-key sum, else -1."""
    table = np.full(256, -1, dtype=np.int8)
    seen = np.zeros(256, dtype=bool)
    for counts in combinations_with_replacement(range(4), k):
        total = sum(SUIT_KEYS[s] for s in counts)
        suit = next((s for s in range(4) if counts.count(s) >= 5), -1)
        if seen[total] and table[total] != suit:
            raise AssertionError(f"suit keys do not tell flushes apart on {k} cards")
        seen[total] = True
        table[total] = suit
    return table


# Categories of the high value, worst to best (index = category number).
HIGH_CATEGORIES: Final = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
# Categories of the ace-to-five value, best to worst; "low" has no pair.
LOW_CATEGORIES: Final = (
    "low",
    "pair",
    "two pair",
    "three of a kind",
    "full house",
    "four of a kind",
)
HIGH_CLASSES: Final = 7462
LOW_CLASSES: Final = 6175


def ace_low_bit(card: int) -> int:
    """The card's bit in an ace-low rank mask: ace bit 0, deuce bit 1 .. king bit 12."""
    return 1 << ((card >> 2) + 1) % 13


def _multisets(size: int) -> npt.NDArray[np.int8]:
    """All multisets of ``size`` ranks (at most four of each), as sorted rows, high first.

    Stars and bars, vectorized: a ``size``-combination c of range(12 + size),
    in increasing order, is the multiset of ranks ``c[i] - i``.
    """
    n = 13 + size - 1
    # table[j]: the j-combinations of range(m), grown one m at a time.
    table = [np.zeros((1, 0), dtype=np.int8)] + [
        np.zeros((0, j), dtype=np.int8) for j in range(1, size + 1)
    ]
    for m in range(n):
        for j in range(size, 0, -1):
            grown = np.full((len(table[j - 1]), j), m, dtype=np.int8)
            grown[:, :-1] = table[j - 1]
            table[j] = np.concatenate([table[j], grown])
    ranks = table[size] - np.arange(size, dtype=np.int8)
    rows = ranks[:, ::-1]
    ok = np.ones(len(rows), dtype=bool)
    for i in range(size - 4):
        ok &= rows[:, i] != rows[:, i + 4]
    out: npt.NDArray[np.int8] = np.ascontiguousarray(rows[ok])
    return out


def _group_order(ranks: npt.NDArray[np.int8]) -> IntArray:
    """Each row's ranks sorted by (count, rank), highest first: K K 4 4 2 -> K K 4 4 2."""
    r = ranks.astype(np.int64)
    counts = (r[:, :, None] == r[:, None, :]).sum(axis=2)
    key = counts * 16 + r
    return -np.sort(-key, axis=1) & 15


def _pack(category: IntArray, ordered: IntArray) -> IntArray:
    """An ordering key: category then the five ranks in group order, four bits each."""
    key = category.copy()
    for i in range(ordered.shape[1]):
        key = key * 16 + ordered[:, i]
    return key


def _pairing_category(ordered: IntArray) -> IntArray:
    """0 no pair, 1 pair, 2 two pair, 3 trips, 4 full house, 5 quads (from group order)."""
    equal = (ordered[:, :-1] == ordered[:, 1:]).astype(np.int64)
    pairs = equal.sum(axis=1)
    quads = (ordered[:, 0] == ordered[:, 3]).astype(np.int64)
    trips = (ordered[:, 0] == ordered[:, 2]).astype(np.int64)
    # pairs (adjacent equalities) is 0, 1, 2 (two pair or trips), 3 (full house or quads).
    cat = np.where(pairs == 2, 2 + trips, pairs)
    out: IntArray = np.where(pairs == 3, 4 + quads, cat)
    return out


def _straight_top(ranks: npt.NDArray[np.int8]) -> IntArray:
    """Top rank of the straight made by five distinct sorted ranks, else -1 (wheel: 3)."""
    r = ranks.astype(np.int64)
    distinct = (r[:, :-1] != r[:, 1:]).all(axis=1)
    run = distinct & (r[:, 0] - r[:, 4] == 4)
    wheel = distinct & (r[:, 0] == 12) & (r[:, 1] == 3)
    return np.where(run, r[:, 0], np.where(wheel, 3, -1))


def _high_keys5(ranks: npt.NDArray[np.int8], flush: bool) -> IntArray:
    """Ordering keys of five-card high hands given as sorted rank rows."""
    ordered = _group_order(ranks)
    pairing = _pairing_category(ordered)
    # pairing 0..5 -> high category 0,1,2,3,6,7
    category = np.array([0, 1, 2, 3, 6, 7], dtype=np.int64)[pairing]
    top = _straight_top(ranks)
    straight = top >= 0
    category = np.where(straight, 8, 5) if flush else np.where(straight, 4, category)
    # A straight is ordered by its top card alone (the wheel's ace plays low).
    ordered = np.where(straight[:, None], np.stack([top] * 5, axis=1), ordered)
    return _pack(category, ordered)


def _low_keys5(ranks: npt.NDArray[np.int8]) -> IntArray:
    """Ordering keys of five-card ace-to-five hands (smaller key = better low)."""
    low = (ranks.astype(np.int64) + 1) % 13
    low = -np.sort(-low, axis=1)
    ordered = _group_order(low.astype(np.int8))
    return _pack(_pairing_category(ordered), ordered)


def _sums(rows: npt.NDArray[np.int8]) -> IntArray:
    keys = np.array(RANK_KEYS, dtype=np.int64)
    out: IntArray = keys[rows.astype(np.int64)].sum(axis=1)
    return out


def _best_of_parent(
    rows: npt.NDArray[np.int8], child_sums: IntArray, child_values: IntArray
) -> IntArray:
    """Best value over the sub-multisets that drop one rank (children sorted by sum)."""
    keys = np.array(RANK_KEYS, dtype=np.int64)
    total = _sums(rows)
    best = np.zeros(len(rows), dtype=np.int64)
    for i in range(rows.shape[1]):
        sub = total - keys[rows[:, i].astype(np.int64)]
        pos = np.searchsorted(child_sums, sub)
        best = np.maximum(best, child_values[pos])
    return best


class Tables:
    """Everything the evaluators look up, as NumPy arrays (built in tens of milliseconds)."""

    def __init__(self) -> None:
        rows = {k: _multisets(k) for k in (5, 6, 7)}
        # Dense high classes: the non-flush hands plus every five-rank set as a flush.
        distinct5 = rows[5][(rows[5][:, :-1] != rows[5][:, 1:]).all(axis=1)]
        plain = _high_keys5(rows[5], flush=False)
        flush = _high_keys5(distinct5, flush=True)
        high_order = np.unique(np.concatenate([plain, flush]))
        low_order = np.unique(_low_keys5(rows[5]))
        if len(high_order) != HIGH_CLASSES or len(low_order) != LOW_CLASSES:
            raise AssertionError("hand classes miscounted")
        self.high_keys: IntArray = high_order
        self.low_keys: IntArray = low_order
        self.sums: dict[int, IntArray] = {}
        self.high: dict[int, IntArray] = {}
        self.low: dict[int, IntArray] = {}
        self.distinct: dict[int, IntArray] = {}
        for k in (5, 6, 7):
            s = _sums(rows[k])
            order = np.argsort(s)
            r, s = rows[k][order], s[order]
            if np.any(s[1:] == s[:-1]):
                raise AssertionError(f"rank keys collide on {k} cards")
            if k == 5:
                hv = np.searchsorted(high_order, _high_keys5(r, flush=False)) + 1
                lv = LOW_CLASSES - np.searchsorted(low_order, _low_keys5(r))
            else:
                hv = _best_of_parent(r, self.sums[k - 1], self.high[k - 1])
                lv = _best_of_parent(r, self.sums[k - 1], self.low[k - 1])
            self.sums[k] = s
            self.high[k] = hv.astype(np.int64)
            self.low[k] = lv.astype(np.int64)
            self.distinct[k] = 1 + (r[:, :-1] != r[:, 1:]).sum(axis=1).astype(np.int64)
        self.flush = self._flush_table(high_order)
        self.low_mask = self._low_mask_table(low_order)
        # Eight or better: the same low, from the ace..eight bits alone.
        self.eight_mask: IntArray = self.low_mask[np.arange(8192) & 0xFF]

    @staticmethod
    def _popcounts() -> IntArray:
        masks = np.arange(8192, dtype=np.int64)
        out: IntArray = ((masks[:, None] >> np.arange(13)) & 1).sum(axis=1)
        return out

    def _flush_table(self, high_order: IntArray) -> IntArray:
        """Best flush or straight flush of a 13-bit rank mask (0 below five ranks)."""
        pop = self._popcounts()
        table = np.zeros(8192, dtype=np.int64)
        five = np.nonzero(pop == 5)[0]
        bits = ((five[:, None] >> np.arange(12, -1, -1)) & 1).astype(bool)
        ranks = np.array([np.arange(12, -1, -1)[b] for b in bits], dtype=np.int8)
        table[five] = np.searchsorted(high_order, _high_keys5(ranks, flush=True)) + 1
        return self._spread(table, pop)

    def _low_mask_table(self, low_order: IntArray) -> IntArray:
        """Ace-to-five value of an ace-low rank mask's five lowest ranks (0 below five)."""
        pop = self._popcounts()
        table = np.zeros(8192, dtype=np.int64)
        five = np.nonzero(pop == 5)[0]
        # Ace-low bit b is rank (b - 1) % 13 in the deuce..ace numbering.
        bits = ((five[:, None] >> np.arange(13)) & 1).astype(bool)
        ranks = np.array([(np.arange(13)[b] - 1) % 13 for b in bits], dtype=np.int8)
        ranks = -np.sort(-ranks, axis=1)
        table[five] = LOW_CLASSES - np.searchsorted(low_order, _low_keys5(ranks))
        return self._spread(table, pop)

    @staticmethod
    def _spread(table: IntArray, pop: IntArray) -> IntArray:
        """Fill masks of six or more bits with the best of their one-bit-smaller subsets."""
        for p in range(6, 14):
            at = np.nonzero(pop == p)[0]
            best = np.zeros(len(at), dtype=np.int64)
            for b in range(13):
                best = np.maximum(best, table[at & ~(1 << b)])
            table[at] = best
        return table


TABLES: Final = Tables()
