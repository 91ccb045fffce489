"""Rough 0..1 strengths of partial hands, in batches: what a player's play is read against.

A bet narrows a range to the hands that look strong to the player who made
it, so the bots rank a batch of partial hands (N, c) per game: high hands by
made hands first, then draws; ace-to-five lows by their distinct low cards,
as made hands or, while cards are to come, as draws. Coarse on purpose: a
player acts on how his hand looks, and hands that look alike tie.
"""

from __future__ import annotations

import numpy as np

from stud.bots.arrays import FloatArray, IntArray


def _counts(values: IntArray, size: int = 13) -> IntArray:
    """Per row, how many of each value 0..size-1 it holds: (N, c) -> (N, size), one bincount."""
    n = values.shape[0]
    offsets = (np.arange(n, dtype=np.int64) * size)[:, None]
    return np.bincount((values + offsets).ravel(), minlength=n * size).reshape(n, size)


def high_strength(cards: IntArray) -> FloatArray:
    """A rough 0..1 strength of partial high hands (N, c): made hands first, then draws."""
    ranks = cards >> 2
    counts = _counts(ranks)
    most = counts.max(axis=1)
    paired = counts >= 2
    pairs = paired.sum(axis=1)
    top_pair = 12 - np.argmax(paired[:, ::-1], axis=1)
    top = ranks.max(axis=1)
    flush = _counts(cards & 3, 4).max(axis=1)
    out = 0.05 + 0.012 * top
    out = np.where(pairs == 1, 0.3 + 0.02 * top_pair, out)
    out = np.where(pairs >= 2, 0.6 + 0.015 * top_pair, out)
    out = np.where(most == 3, 0.8 + 0.01 * top_pair, out)
    out = np.where((most >= 3) & (pairs >= 2), 0.96, out)
    out = np.where(most == 4, 1.0, out)
    if cards.shape[1] < 7:
        out = np.where(flush == 4, np.maximum(out, 0.5), out)
    out = np.where(flush >= 5, np.maximum(out, 0.9), out)
    return np.asarray(out, dtype=np.float64)


def low_strength(cards: IntArray, *, eight: bool) -> FloatArray:
    """A rough 0..1 strength of partial ace-to-five lows (N, c); ``eight``: only 8-or-better."""
    lows = ((cards >> 2) + 1) % 13
    present = _counts(lows) > 0
    distinct = present.sum(axis=1)
    k = min(cards.shape[1], 5)
    kth = np.argmax(present.cumsum(axis=1) >= k, axis=1)
    span = 8 - k if eight else 13 - k
    smooth = 1.0 - (kth - (k - 1)) / span
    out = np.where(distinct >= k, smooth, 0.1 * distinct / k)
    if eight:
        out = np.where((distinct >= k) & (kth > 7), 0.05, out)
    return np.asarray(np.clip(out, 0.0, 1.0), dtype=np.float64)


def low_draw_strength(cards: IntArray, *, eight: bool) -> FloatArray:
    """A 0..1 strength of partial ace-to-five lows (N, c) by their best distinct low cards;
    ``eight``: only 8-or-better counts (Stud8's low half).

    While cards are to come (4th to 6th street) a hand is ranked by its best
    ``c - 1`` distinct lows (five at most), the highest of them first and
    the lower ones breaking ties; a low it lacks (a pair, or with ``eight``
    a nine or more) counts as worse than a king. On 5th street, 2-3 down
    under K-4-6 is a four-card 6-low draw. :func:`low_strength` ranks it by
    its fifth card, the king, as it ranks every hand with a high up card:
    there a player's bets cannot tell his good down cards from his bad
    ones, and a range narrowed by them stays as wide as it was. With
    ``eight``, a hand that has no 8-or-better draw stays below 0.05 (the
    bottom of :func:`low_strength`'s scale), ranked by how many low cards
    it has.
    """
    c = cards.shape[1]
    k = min(5, c) if c <= 3 or c >= 7 else c - 1
    present = _counts(((cards >> 2) + 1) % 13) > 0
    if eight:
        present[:, 8:] = False
    distinct = present.sum(axis=1)
    reached = present.cumsum(axis=1)
    # The j-th lowest distinct card (ace 0 .. king 12), 13 where the hand has fewer.
    lows = [np.where(distinct >= j, np.argmax(reached >= j, axis=1), 13) for j in range(1, k + 1)]
    # Lexicographic, the highest of the k first: each lower card a digit below (base 15).
    key = (lows[-1] - (k - 1)).astype(np.float64)
    digit = 1.0
    for j in range(k - 2, -1, -1):
        digit /= 15.0
        key += digit * (lows[j] - j)
    if not eight:
        return np.asarray(1.0 - key / (15 - k), dtype=np.float64)
    drawn = 0.1 + 0.9 * (1.0 - key / (9 - k))
    out = np.where(distinct >= k, drawn, 0.05 * distinct / k)
    return np.asarray(out, dtype=np.float64)


def strength(game: str, cards: IntArray, *, draws: bool = False) -> FloatArray:
    """Rough strength of the partial hands (N, c) in ``game``, 0 (nothing) to 1 (the nuts);
    ``draws``: lows ranked as draws while cards are to come (:func:`low_draw_strength`)."""
    lows = low_draw_strength if draws else low_strength
    if game == "razz":
        return lows(cards, eight=False)
    high = high_strength(cards)
    if game == "stud":
        return high
    low = lows(cards, eight=True)
    return np.asarray(np.minimum(1.0, np.maximum(high, low) + 0.3 * np.minimum(high, low)))
