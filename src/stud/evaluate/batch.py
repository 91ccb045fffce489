"""Batch evaluation with NumPy: an (N, k) array of card ints in, N values out.

The same values as the one-hand calls. Work goes in chunks of rows so the
intermediate arrays stay in cache: the cards' 32-bit keys are gathered as a
(k, n) block and summed (high: rank-key sum plus a suit-key sum that tells a
flush) or OR-ed (lows: ace-low rank bits), then one table gather gives the
values. Gathers use ``mode="clip"``, NumPy's fast path; the indices are
checked first. The rare flushes and
paired lows are finished in one pass at the end.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import numpy as np
import numpy.typing as npt

from stud.evaluate.tables import (
    RANK_BITS,
    RANK_KEYS,
    RANK_MASK,
    TABLES,
    ace_low_bit,
    card_key,
    flush_suits,
)

Values = npt.NDArray[np.int32]
Hands = npt.NDArray[np.integer]
Indices = npt.NDArray[np.integer]

CHUNK = 1 << 14  # rows evaluated at a time: the int64 temporaries stay in cache
BLOCK = 1 << 16  # rows checked at a time, as bytes
_KEY = np.array([card_key(c) for c in range(52)], dtype=np.int32)
_FLUSH_SUIT = {k: flush_suits(k) for k in (5, 6, 7)}
# Each card's rank bit within its suit's 13 bits: the sum holds every suit's rank mask.
_SUIT_RANK_BIT = np.array([1 << (13 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64)
_RANK = np.array([RANK_KEYS[c >> 2] for c in range(52)], dtype=np.int64)
_BIT = np.array([ace_low_bit(c) for c in range(52)], dtype=np.int16)
_FLUSH = TABLES.flush.astype(np.uint16)
_LOW = TABLES.low_mask.astype(np.uint16)
_EIGHT = TABLES.eight_mask.astype(np.uint16)
_RANK_MASK = np.int32(RANK_MASK)


@cache
def _high_table(k: int) -> npt.NDArray[np.uint16]:
    """Non-flush high values indexed by the rank-key sum of k cards (about 15 MB for k=7)."""
    sums = TABLES.sums[k]
    table = np.zeros(int(sums[-1]) + 1, dtype=np.uint16)
    table[sums] = TABLES.high[k]
    return table


@cache
def _paired_lows(k: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Rank-key sums (sorted) and low values of the k-rank multisets with fewer than five ranks."""
    few = TABLES.distinct[k] < 5
    return TABLES.sums[k][few], TABLES.low[k][few]


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


def _chunks(array: npt.NDArray[np.integer], check: bool) -> Iterator[tuple[int, Indices]]:
    """(first row, a (k, n) array of card indices) per chunk of rows.

    ValueError for a non-card, and with ``check`` for a repeated card too; the
    checks run on blocks of bytes, larger than the chunks, where NumPy is quickest.
    """
    for block_start in range(0, len(array), BLOCK):
        rows = array[block_start : block_start + BLOCK]
        if rows.min() < 0 or rows.max() > 51:
            bad = rows[(rows < 0) | (rows > 51)][0]
            raise ValueError(f"not a card: {int(bad)} (cards are ints 0..51)")
        if not check:
            for start in range(0, len(rows), CHUNK):
                yield block_start + start, rows[start : start + CHUNK].T
            continue
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
            yield block_start + start, small[:, start : start + CHUNK]


def _flush_values(rows: npt.NDArray[np.integer], suit: npt.NDArray[np.int8]) -> Values:
    """Values of hands (rows) with five or more cards of ``suit``: their best flush."""
    per_suit = np.take(_SUIT_RANK_BIT, rows).sum(axis=1)
    mask = (per_suit >> (13 * suit.astype(np.int64))) & 0x1FFF
    values: Values = _FLUSH[mask].astype(np.int32)
    return values


def high_values(hands: Hands, *, check: bool = True) -> Values:
    """High values (as :func:`stud.evaluate.high_value`) of every row of an (N, k) card array.

    Non-cards raise ValueError; so do repeated cards unless ``check=False``, which
    skips that test (a large saving) for deals known to be sound.
    """
    array = _hands(hands)
    table = _high_table(array.shape[1])
    flush_suit = _FLUSH_SUIT[array.shape[1]]
    out = np.empty(len(array), dtype=np.int32)
    flush_rows: list[npt.NDArray[np.intp]] = []
    flush_suits: list[npt.NDArray[np.int8]] = []
    for start, idx in _chunks(array, check):
        total = np.take(_KEY, idx, mode="clip").sum(axis=0, dtype=np.int32)
        out[start : start + len(total)] = np.take(table, total & _RANK_MASK, mode="clip")
        suit = np.take(flush_suit, total >> RANK_BITS, mode="clip")
        flush = np.flatnonzero(suit >= 0)
        if len(flush):
            flush_rows.append(flush + start)
            flush_suits.append(suit[flush])
    if flush_rows:
        where = np.concatenate(flush_rows)
        out[where] = _flush_values(array[where], np.concatenate(flush_suits))
    return out


def _low_masks(idx: Indices) -> npt.NDArray[np.int16]:
    """The OR of the cards' ace-low rank bits, per hand."""
    masks: npt.NDArray[np.int16] = np.bitwise_or.reduce(np.take(_BIT, idx, mode="clip"), axis=0)
    return masks


def razz_values(hands: Hands, *, check: bool = True) -> Values:
    """Ace-to-five values (as :func:`stud.evaluate.razz_value`) of every row of an (N, k) array."""
    array = _hands(hands)
    sums, lows = _paired_lows(array.shape[1])
    out = np.empty(len(array), dtype=np.int32)
    for start, idx in _chunks(array, check):
        values = np.take(_LOW, _low_masks(idx), mode="clip")
        out[start : start + len(values)] = values
    # Fewer than five ranks (about one hand in twenty): look the rank multiset up.
    paired = np.flatnonzero(out == 0)
    if len(paired):
        total = np.take(_RANK, array[paired].T, mode="clip").sum(axis=0)
        out[paired] = lows[np.searchsorted(sums, total)]
    return out


def eight_low_values(hands: Hands, *, check: bool = True) -> Values:
    """Eight-or-better values (0 = no qualifying low) of every row of an (N, k) array."""
    array = _hands(hands)
    out = np.empty(len(array), dtype=np.int32)
    for start, idx in _chunks(array, check):
        masks = _low_masks(idx)
        out[start : start + len(masks)] = np.take(_EIGHT, masks, mode="clip")
    return out
