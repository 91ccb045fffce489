"""Batch evaluation with NumPy: an (N, k) array of card ints in, N values out.

The same values as the one-hand calls. Work goes in chunks of rows so the
intermediate arrays stay in cache; the per-card keys are gathered column by
column and summed (high) or OR-ed (lows), then one table gather gives the
values. High tables are indexed by the rank-key sum (one per hand size).
"""

from __future__ import annotations

from collections.abc import Iterator
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
Columns = npt.NDArray[np.intp]

CHUNK = 1 << 14  # rows evaluated at a time: the int64 temporaries stay in cache
BLOCK = 1 << 16  # rows checked at a time, as bytes
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


def _hands(hands: Hands) -> npt.NDArray[np.integer]:
    """The hands as a 2-D integer array, or ValueError naming what is wrong with the shape."""
    array = np.asarray(hands)
    if array.ndim != 2 or not 5 <= array.shape[1] <= 7:
        raise ValueError(
            f"expected an (N, k) array of cards with k in 5..7, got shape {array.shape}"
        )
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"expected integer card ints, got dtype {array.dtype}")
    return array


def _chunks(array: npt.NDArray[np.integer], check: bool) -> Iterator[tuple[int, Columns]]:
    """(first row, k contiguous index columns) per chunk; ValueError for non-cards and repeats.

    The checks run on blocks of bytes, larger than the chunks, where NumPy is quickest.
    """
    for block_start in range(0, len(array), BLOCK):
        rows = array[block_start : block_start + BLOCK]
        if not check:
            for start in range(0, len(rows), CHUNK):
                yield block_start + start, rows[start : start + CHUNK].T.astype(np.intp)
            continue
        if rows.min() < 0 or rows.max() > 51:
            bad = rows[(rows < 0) | (rows > 51)][0]
            raise ValueError(f"not a card: {int(bad)} (cards are ints 0..51)")
        small = rows.T.astype(np.int8)
        repeated = np.zeros(small.shape[1], dtype=bool)
        equal = np.empty_like(repeated)
        for i in range(len(small)):
            for j in range(i + 1, len(small)):
                np.equal(small[i], small[j], out=equal)
                repeated |= equal
        if repeated.any():
            row = block_start + int(np.argmax(repeated))
            raise ValueError(f"hand {row} repeats a card: {array[row].tolist()}")
        for start in range(0, small.shape[1], CHUNK):
            yield block_start + start, small[:, start : start + CHUNK].astype(np.intp)


def _flush_values(cols: Columns, total: npt.NDArray[np.int64]) -> Values:
    """Values of the hands (columns) whose suit counters overflowed: a flush."""
    top = (total & _FLUSH_TOP) >> (RANK_BITS + 3)
    suit = np.zeros(len(total), dtype=np.int64)
    for s in range(1, 4):
        suit[(top >> (4 * s)) & 1 == 1] = s
    mask = np.zeros(len(total), dtype=np.int64)
    for col in cols:
        mask |= ((col & 3) == suit).astype(np.int64) << (col >> 2)
    return _FLUSH[mask].astype(np.int32)


def high_values(hands: Hands, *, check: bool = True) -> Values:
    """High values (as :func:`stud.evaluate.high_value`) of every row of an (N, k) card array.

    ``check=False`` skips the non-card and repeated-card checks (for trusted deals).
    """
    array = _hands(hands)
    n, k = array.shape
    table = _high_table(k)
    out = np.empty(n, dtype=np.int32)
    for start, cols in _chunks(array, check):
        total = _KEY[cols[0]]
        for col in cols[1:]:
            total += _KEY_NO_BIAS[col]
        out[start : start + cols.shape[1]] = table[total & _RANK_MASK]
        flush = np.nonzero(total & _FLUSH_TOP)[0]
        if len(flush):
            out[start + flush] = _flush_values(cols[:, flush], total[flush])
    return out


def _low_masks(cols: Columns) -> npt.NDArray[np.int16]:
    mask: npt.NDArray[np.int16] = _BIT[cols[0]]
    for col in cols[1:]:
        mask |= _BIT[col]
    return mask


def razz_values(hands: Hands, *, check: bool = True) -> Values:
    """Ace-to-five values (as :func:`stud.evaluate.razz_value`) of every row of an (N, k) array."""
    array = _hands(hands)
    n, k = array.shape
    sums, lows = TABLES.sums[k], TABLES.low[k]
    out = np.empty(n, dtype=np.int32)
    for start, cols in _chunks(array, check):
        values = _LOW[_low_masks(cols)]
        out[start : start + cols.shape[1]] = values
        paired = np.nonzero(values == 0)[0]
        if len(paired):
            total = _RANK[cols[:, paired]].sum(axis=0)
            out[start + paired] = lows[np.searchsorted(sums, total)]
    return out


def eight_low_values(hands: Hands, *, check: bool = True) -> Values:
    """Eight-or-better values (0 = no qualifying low) of every row of an (N, k) array."""
    array = _hands(hands)
    out = np.empty(len(array), dtype=np.int32)
    for start, cols in _chunks(array, check):
        out[start : start + cols.shape[1]] = _EIGHT[_low_masks(cols)]
    return out
