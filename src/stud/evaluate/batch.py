"""Batch evaluation with NumPy: an (N, k) array of card ints in, N values out.

The same values as the one-hand calls. Work goes in chunks of rows so the
intermediate arrays stay in cache; the per-card keys are gathered column by
column and summed (high) or OR-ed (lows), then one table gather gives the
values. High tables are indexed by the rank-key sum (one per hand size).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from stud.evaluate.tables import (
    FLUSH_BITS,
    RANK_BITS,
    RANK_KEYS,
    RANK_MASK,
    SUIT_BIAS,
    TABLES,
    ace_low_bit,
    card_key,
)

Values = npt.NDArray[np.int32]
Hands = npt.NDArray[np.integer]

CHUNK = 1 << 15
_KEY = np.array([card_key(c) + SUIT_BIAS for c in range(52)], dtype=np.int64)
_KEY_NO_BIAS = np.array([card_key(c) for c in range(52)], dtype=np.int64)
_RANK = np.array([RANK_KEYS[c >> 2] for c in range(52)], dtype=np.int64)
_BIT = np.array([ace_low_bit(c) for c in range(52)], dtype=np.int16)
_FLUSH = TABLES.flush.astype(np.uint16)
_LOW = TABLES.low_mask.astype(np.uint16)
_EIGHT = TABLES.eight_mask.astype(np.uint16)
_FLUSH_TOP = np.int64(FLUSH_BITS)
_RANK_MASK = np.int64(RANK_MASK)


@cache
def _high_table(k: int) -> npt.NDArray[np.uint16]:
    """Non-flush high values indexed by the rank-key sum of k cards (about 15 MB for k=7)."""
    sums = TABLES.sums[k]
    table = np.zeros(int(sums[-1]) + 1, dtype=np.uint16)
    table[sums] = TABLES.high[k]
    return table


def _checked(hands: Hands) -> npt.NDArray[np.integer]:
    """The hands as a 2-D integer array, or ValueError naming what is wrong."""
    array = np.asarray(hands)
    if array.ndim != 2 or not 5 <= array.shape[1] <= 7:
        raise ValueError(
            f"expected an (N, k) array of cards with k in 5..7, got shape {array.shape}"
        )
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"expected integer card ints, got dtype {array.dtype}")
    if array.size and (array.min() < 0 or array.max() > 51):
        bad = array[(array < 0) | (array > 51)][0]
        raise ValueError(f"not a card: {int(bad)} (cards are ints 0..51)")
    if array.size:
        bits = np.zeros(len(array), dtype=np.uint64)
        one = np.uint64(1)
        for j in range(array.shape[1]):
            bits |= one << array[:, j].astype(np.uint64)
        repeated = np.bitwise_count(bits) != array.shape[1]
        if repeated.any():
            row = int(np.argmax(repeated))
            raise ValueError(f"hand {row} repeats a card: {array[row].tolist()}")
    return array


def _flush_values(rows: npt.NDArray[np.integer], total: npt.NDArray[np.int64]) -> Values:
    """Values of the rows whose suit counters overflowed (a flush)."""
    top = (total & _FLUSH_TOP) >> (RANK_BITS + 3)
    suit = np.zeros(len(rows), dtype=np.int64)
    for s in range(1, 4):
        suit[(top >> (4 * s)) & 1 == 1] = s
    mask = np.zeros(len(rows), dtype=np.int64)
    for j in range(rows.shape[1]):
        col = rows[:, j].astype(np.int64)
        mask |= ((col & 3) == suit).astype(np.int64) << (col >> 2)
    return _FLUSH[mask].astype(np.int32)


def high_values(hands: Hands) -> Values:
    """High values (as :func:`stud.evaluate.high_value`) of every row of an (N, k) card array."""
    array = _checked(hands)
    n, k = array.shape
    table = _high_table(k)
    out = np.empty(n, dtype=np.int32)
    for start in range(0, n, CHUNK):
        rows = array[start : start + CHUNK]
        total = _KEY[rows[:, 0]]
        for j in range(1, k):
            total += _KEY_NO_BIAS[rows[:, j]]
        out[start : start + len(rows)] = table[total & _RANK_MASK]
        flush = np.nonzero(total & _FLUSH_TOP)[0]
        if len(flush):
            out[start + flush] = _flush_values(rows[flush], total[flush])
    return out


def _low_masks(rows: npt.NDArray[np.integer]) -> npt.NDArray[np.int16]:
    mask: npt.NDArray[np.int16] = _BIT[rows[:, 0]]
    for j in range(1, rows.shape[1]):
        mask |= _BIT[rows[:, j]]
    return mask


def razz_values(hands: Hands) -> Values:
    """Ace-to-five values (as :func:`stud.evaluate.razz_value`) of every row of an (N, k) array."""
    array = _checked(hands)
    n, k = array.shape
    sums, lows = TABLES.sums[k], TABLES.low[k]
    out = np.empty(n, dtype=np.int32)
    for start in range(0, n, CHUNK):
        rows = array[start : start + CHUNK]
        values = _LOW[_low_masks(rows)]
        out[start : start + len(rows)] = values
        paired = np.nonzero(values == 0)[0]
        if len(paired):
            total = _RANK[rows[paired]].sum(axis=1)
            out[start + paired] = lows[np.searchsorted(sums, total)]
    return out


def eight_low_values(hands: Hands) -> Values:
    """Eight-or-better values (0 = no qualifying low) of every row of an (N, k) array."""
    array = _checked(hands)
    out = np.empty(len(array), dtype=np.int32)
    for start in range(0, len(array), CHUNK):
        rows = array[start : start + CHUNK]
        out[start : start + len(rows)] = _EIGHT[_low_masks(rows)]
    return out
