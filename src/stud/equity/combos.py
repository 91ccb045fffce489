"""k-subsets of the unseen cards in colex order, their bit masks and ranks.

A player's missing cards are one k-subset of the unseen pool, whatever order
they come in, so each player's hand values are computed once per subset and
looked up by the subset's colex rank ``sum(C(c_j, j + 1))`` (sorted c_j).
"""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np
import numpy.typing as npt

IntArray = npt.NDArray[np.int64]
MaskArray = npt.NDArray[np.uint64]


@cache
def _subsets(m: int, k: int) -> npt.NDArray[np.uint8]:
    if k > m:
        return np.zeros((0, k), dtype=np.uint8)
    if k == 0:
        return np.zeros((1, 0), dtype=np.uint8)
    # Colex order: by largest element ``top``; below it, the (k - 1)-subsets of
    # range(top), which are a prefix of the (k - 1)-subsets of range(m - 1).
    smaller = _subsets(m - 1, k - 1)
    out = np.empty((comb(m, k), k), dtype=np.uint8)
    pos = 0
    for top in range(k - 1, m):
        count = comb(top, k - 1)
        out[pos : pos + count, : k - 1] = smaller[:count]
        out[pos : pos + count, k - 1] = top
        pos += count
    out.flags.writeable = False
    return out


def subsets(m: int, k: int) -> npt.NDArray[np.uint8]:
    """All k-subsets of ``range(m)``, shape (C(m, k), k), rows sorted, colex order."""
    return _subsets(m, k)


def masks(table: npt.NDArray[np.uint8]) -> MaskArray:
    """One uint64 bit mask per subset row (bit c set for pool index c)."""
    out = np.zeros(len(table), dtype=np.uint64)
    one = np.uint64(1)
    for col in range(table.shape[1]):
        out |= one << table[:, col].astype(np.uint64)
    return out


@cache
def binomials(m: int, k: int) -> IntArray:
    """``binomials(m, k)[c, j] == C(c, j)`` for c <= m, j <= k."""
    return np.array([[comb(c, j) for j in range(k + 1)] for c in range(m + 1)], dtype=np.int64)


def ranks(sorted_rows: npt.NDArray[np.integer], m: int) -> IntArray:
    """The colex rank of each row of sorted pool indices (the row of ``subsets``)."""
    k = sorted_rows.shape[1]
    table = binomials(m, k)
    out = np.zeros(len(sorted_rows), dtype=np.int64)
    for j in range(k):
        out += table[sorted_rows[:, j], j + 1]
    return out
