"""Batch evaluation with NumPy: an (N, k) array of card ints in, N values out.

The same values as the one-hand calls. Work goes in chunks of rows so the
intermediate arrays stay in cache. Each chunk is copied once, transposed, to
int8 (k contiguous rows of cards): the repeated-card check is then
k(k-1)/2 byte compares, and the cards are paired up (first with second, third
with fourth, ...; an odd last card with a no-card) into indices of 53×53
pair tables, so a 7-card hand takes four gathers, not seven. The gathered
32-bit keys are summed (high: rank-key sum plus a suit-key sum that tells a
flush) or OR-ed (lows: ace-low rank bits), then one table gather gives the
values. Gathers use ``mode="clip"``, NumPy's fast path; the cards are
range-checked first. The rare Razz hands with fewer than five ranks are
looked up by rank-key sum chunk by chunk; the rare flushes in one pass at the end.
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
Cards = npt.NDArray[np.int8]
Indices = npt.NDArray[np.int16]

CHUNK = 1 << 15  # rows evaluated at a time: the temporaries stay in cache (L2)
BLOCK = 1 << 16  # rows range-checked at a time
NO_CARD = 52  # pairs with an odd hand's last card: no key, no bits
_PAIR = NO_CARD + 1  # pair index: first * 53 + second
_KEY = np.array([card_key(c) for c in range(52)] + [0], dtype=np.int32)
_PAIR_KEY = (_KEY[:, None] + _KEY[None, :]).ravel()
_FLUSH_SUIT = {k: flush_suits(k) for k in (5, 6, 7)}
# Each card's rank bit within its suit's 13 bits: the sum holds every suit's rank mask.
_SUIT_RANK_BIT = np.array([1 << (13 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64)
_RANK = np.array([RANK_KEYS[c >> 2] for c in range(52)] + [0], dtype=np.int32)
_PAIR_RANK = (_RANK[:, None] + _RANK[None, :]).ravel()
_BIT = np.array([ace_low_bit(c) for c in range(52)] + [0], dtype=np.int16)
_PAIR_BIT = (_BIT[:, None] | _BIT[None, :]).ravel()
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
def _paired_low_table(k: int) -> npt.NDArray[np.uint16]:
    """Ace-to-five values of the k-rank multisets with fewer than five ranks, by rank-key sum.

    Dense like the high table (about 15 MB for k=7): one gather, where a binary
    search of the sorted sums took five times as long.
    """
    sums = TABLES.sums[k]
    few = TABLES.distinct[k] < 5
    table = np.zeros(int(sums[-1]) + 1, dtype=np.uint16)
    table[sums[few]] = TABLES.low[k][few]
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


def _unsigned(rows: npt.NDArray[np.integer]) -> npt.NDArray[np.integer]:
    """The same ints read as unsigned: a negative one becomes huge, so one max() finds both."""
    return rows if rows.dtype.kind == "u" else rows.view(rows.dtype.str.replace("i", "u"))


def _first_repeat(same: npt.NDArray[np.bool_]) -> int:
    """The first hand (column) with a repeated card, or -1; ``same`` holds each pair's equality."""
    if not same.any():
        return -1
    return int(np.argmax(same.any(axis=0)))


def _chunks(array: npt.NDArray[np.integer], check: bool) -> Iterator[tuple[int, Cards, Indices]]:
    """(first row, the (k, n) cards, their (ceil(k/2), n) pair-table indices) per chunk of rows.

    ValueError for a non-card (one ``max`` per block of rows, the ints read as
    unsigned), and with ``check`` for a repeated card too: the cards' k rows
    are contiguous bytes, so each pair of columns is one quick compare. The
    buffers are reused from chunk to chunk: use what is yielded before the next.
    """
    k = array.shape[1]
    half = (k + 1) // 2
    width = min(CHUNK, len(array))  # small calls get small buffers
    buffer = np.full((2 * half, width), NO_CARD, dtype=np.int8)  # an odd k pads with a no-card
    pairs = np.empty((half, width), dtype=np.int16)
    same = np.empty((k * (k - 1) // 2, width if check else 0), dtype=bool)  # pairs' equalities
    for block_start in range(0, len(array), BLOCK):
        rows = array[block_start : block_start + BLOCK]
        if _unsigned(rows).max() > 51:
            bad = rows[(rows < 0) | (rows > 51)][0]
            raise ValueError(f"not a card: {int(bad)} (cards are ints 0..51)")
        for offset in range(0, len(rows), CHUNK):
            part = rows[offset : offset + CHUNK]
            start, n = block_start + offset, len(part)
            cards = buffer[:k, :n]
            np.copyto(cards, part.T, casting="unsafe")
            if check:
                equal = same[:, :n]
                done = 0
                for j in range(1, k):
                    np.equal(cards[:j], cards[j], out=equal[done : done + j])
                    done += j
                row = _first_repeat(equal)
                if row >= 0:
                    raise ValueError(
                        f"hand {start + row} repeats a card: {array[start + row].tolist()}"
                    )
            index = pairs[:, :n]
            np.multiply(buffer[0::2, :n], _PAIR, out=index, dtype=np.int16)
            np.add(index, buffer[1::2, :n], out=index)
            yield start, cards, index


def _flush_values(cards: Cards, suit: npt.NDArray[np.int8]) -> Values:
    """Values of hands (the columns of ``cards``) with five or more cards of ``suit``."""
    per_suit = np.take(_SUIT_RANK_BIT, cards, mode="clip").sum(axis=0)
    mask = (per_suit >> (13 * suit.astype(np.int64))) & 0x1FFF
    values: Values = _FLUSH[mask].astype(np.int32)
    return values


def high_values(hands: Hands, *, check: bool = True) -> Values:
    """High values (as :func:`stud.evaluate.high_value`) of every row of an (N, k) card array.

    Non-cards raise ValueError; so do repeated cards unless ``check=False``, which
    skips that test for deals known to be sound.
    """
    array = _hands(hands)
    table = _high_table(array.shape[1])
    flush_suit = _FLUSH_SUIT[array.shape[1]]
    out = np.empty(len(array), dtype=np.int32)
    flush_rows: list[npt.NDArray[np.intp]] = []
    flush_suits: list[npt.NDArray[np.int8]] = []
    flush_cards: list[Cards] = []
    for start, cards, index in _chunks(array, check):
        total = np.take(_PAIR_KEY, index, mode="clip").sum(axis=0, dtype=np.int32)
        out[start : start + len(total)] = np.take(table, total & _RANK_MASK, mode="clip")
        suit = np.take(flush_suit, total >> RANK_BITS, mode="clip")
        flush = np.flatnonzero(suit >= 0)
        if len(flush):
            flush_rows.append(flush + start)
            flush_suits.append(suit[flush])
            flush_cards.append(cards[:, flush])
    if flush_rows:
        out[np.concatenate(flush_rows)] = _flush_values(
            np.concatenate(flush_cards, axis=1), np.concatenate(flush_suits)
        )
    return out


def _low_masks(index: Indices) -> npt.NDArray[np.int16]:
    """The OR of the cards' ace-low rank bits, per hand (column of pair indices)."""
    pairs = np.take(_PAIR_BIT, index, mode="clip")
    masks: npt.NDArray[np.int16] = np.bitwise_or.reduce(pairs, axis=0)
    return masks


def razz_values(hands: Hands, *, check: bool = True) -> Values:
    """Ace-to-five values (as :func:`stud.evaluate.razz_value`) of every row of an (N, k) array."""
    array = _hands(hands)
    paired_lows = _paired_low_table(array.shape[1])
    out = np.empty(len(array), dtype=np.int32)
    for start, _, index in _chunks(array, check):
        values = np.take(_LOW, _low_masks(index), mode="clip")
        # Fewer than five ranks (about one hand in twenty): look the rank multiset up.
        paired = np.flatnonzero(values == 0)
        if len(paired):
            total = np.take(_PAIR_RANK, index[:, paired], mode="clip").sum(axis=0)
            values[paired] = np.take(paired_lows, total, mode="clip")
        out[start : start + len(values)] = values
    return out


def eight_low_values(hands: Hands, *, check: bool = True) -> Values:
    """Eight-or-better values (0 = no qualifying low) of every row of an (N, k) array."""
    array = _hands(hands)
    out = np.empty(len(array), dtype=np.int32)
    for start, _, index in _chunks(array, check):
        masks = _low_masks(index)
        out[start : start + len(masks)] = np.take(_EIGHT, masks, mode="clip")
    return out
