"""Words for a stud hand still being dealt: 1 to 7 cards, as a player reads them at the table.

Five cards or more read exactly as the showdown does (the evaluators' own
descriptions); fewer read by their pairs and sets (no straight or flush can be
made yet): ``a pair of Kings``, ``two pair, Kings and Fives``, ``high card Ace``.
Lows read as the lowest distinct ranks so far (``7,4,2``); an eight-or-better
low that is not made yet is a *draw* while enough cards are still to come.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from stud.cards import RANK_NAMES, RANK_PLURALS, RANKS
from stud.evaluate.describe import high_description, low_description
from stud.evaluate.high import high_value
from stud.evaluate.low import eight_low_value, razz_value
from stud.evaluate.validate import checked_cards

_SIZES = (1, 2, 3, 4, 5, 6, 7)


@dataclass(frozen=True, slots=True)
class LowSoFar:
    """A low as far as it goes: the ranks read (``7,5,3,2,A``), whether it is made, or a draw.

    ``made`` means five cards make the low (in Stud Hi/Lo: an eight or better).
    A draw (``made`` False) lists the qualifying ranks so far; ``possible`` says
    whether the cards still to come can complete it.
    """

    ranks: str
    made: bool
    possible: bool


def high_so_far(cards: Sequence[int]) -> str:
    """The high hand of 1 to 7 cards in PokerStars words (``two pair, Kings and Fives``)."""
    return high_words(checked_cards(cards, _SIZES))


def razz_so_far(cards: Sequence[int]) -> LowSoFar:
    """The ace-to-five low of 1 to 7 cards: exact from five cards on, else the cards read low.

    Fewer than five cards read pairs first, then the rest from the highest down
    (``2,2,7``; ``7,4,2``), as PokerStars writes a paired low.
    """
    return razz_words(checked_cards(cards, _SIZES))


def eight_low_so_far(cards: Sequence[int], to_come: int) -> LowSoFar | None:
    """The eight-or-better low of 1 to 7 cards, or the draw to one; None with no card of 8 or lower.

    ``to_come`` is how many more cards the player will be dealt (7th street's
    community card counts): a draw of k ranks is ``possible`` when 5 - k <= to_come.
    """
    hand = checked_cards(cards, _SIZES)
    if to_come < 0:
        raise ValueError(f"cards to come must be 0 or more, got {to_come}")
    return eight_low_words(hand, to_come)


# The same words for cards already known to be 1 to 7 distinct cards (a hand the engine
# dealt): each step of a table reads new cards, so these skip the checks and read fewer
# than five cards from a table of their ranks, filled as rank multisets turn up.


def high_words(hand: Sequence[int]) -> str:
    """:func:`high_so_far` of checked cards."""
    if len(hand) >= 5:
        # The words only (the checked cards need no second check, nor the five in order).
        return high_description(high_value(hand))
    key = _rank_key(hand)
    words = _FEW_HIGH.get(key)
    if words is None:
        words = _FEW_HIGH[key] = _high_few_words(hand)
    return words


def razz_words(hand: Sequence[int]) -> LowSoFar:
    """:func:`razz_so_far` of checked cards."""
    if len(hand) >= 5:
        return _made_low(razz_value(hand))
    key = _rank_key(hand)
    low = _FEW_RAZZ.get(key)
    if low is None:
        low = _FEW_RAZZ[key] = _razz_few_words(hand)
    return low


def eight_low_words(hand: Sequence[int], to_come: int) -> LowSoFar | None:
    """:func:`eight_low_so_far` of checked cards and a count to come of 0 or more."""
    made = eight_low_value(hand) if len(hand) >= 5 else 0
    if made:
        return _made_low(made)
    mask = 0
    for card in hand:
        mask |= _EIGHT_BIT[card]
    return _eight_draw(mask, 5 - _BITS[mask] <= to_come)


def _rank_key(hand: Sequence[int]) -> int:
    """The cards' ranks as one int, the same for any suits and order (:data:`_RANK_KEY`)."""
    key = 0
    for card in hand:
        key += _RANK_KEY[card]
    return key


_RANK_KEY = tuple(5 ** (card >> 2) for card in range(52))
"""Each card's part of its hand's rank key: the sum over up to four cards tells their ranks
(a base-5 digit per rank counts its cards), the same for any suits and order."""
_FEW_HIGH: dict[int, str] = {}
"""High words of 1 to 4 cards by rank key (at most 2,379 rank multisets)."""
_FEW_RAZZ: dict[int, LowSoFar] = {}
"""Razz lows of 1 to 4 cards by rank key (the LowSoFar is frozen: one shared by all)."""


def _high_few_words(hand: Sequence[int]) -> str:
    """The words of 1 to 4 cards, worked out by their pairs and sets."""
    counts = Counter(c >> 2 for c in hand)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    (top, size), rest = groups[0], groups[1:]
    if size == 4:
        return f"four of a kind, {RANK_PLURALS[top]}"
    if size == 3:
        return f"three of a kind, {RANK_PLURALS[top]}"
    if size == 2 and rest and rest[0][1] == 2:
        return f"two pair, {RANK_PLURALS[top]} and {RANK_PLURALS[rest[0][0]]}"
    if size == 2:
        return f"a pair of {RANK_PLURALS[top]}"
    return f"high card {RANK_NAMES[top]}"


def _ace_low(card: int) -> int:
    """A card's ace-to-five rank: 1 (ace) .. 13 (king)."""
    return (card >> 2) + 2 if card >> 2 != 12 else 1


def _rank_text(low_rank: int) -> str:
    return "A" if low_rank == 1 else RANKS[low_rank - 2]


def _razz_few_words(hand: Sequence[int]) -> LowSoFar:
    """1 to 4 cards' low: the pairs first, then the rest from the highest down."""
    counts = Counter(_ace_low(c) for c in hand)
    order = sorted(counts.elements(), key=lambda r: (counts[r], r), reverse=True)
    return LowSoFar(",".join(_rank_text(r) for r in order), made=False, possible=True)


@cache
def _made_low(value: int) -> LowSoFar:
    return LowSoFar(low_description(value), made=True, possible=True)


@cache
def _eight_draw(mask: int, possible: bool) -> LowSoFar | None:
    """The draw of the distinct ranks of 8 or lower in ``mask`` (bit r - 1 for ace-to-five
    rank r): at most 512 of them, each worked out once."""
    ranks = [r for r in range(8, 0, -1) if mask >> (r - 1) & 1]
    if not ranks:
        return None
    text = ",".join(_rank_text(r) for r in ranks)
    return LowSoFar(text, made=False, possible=possible)


_EIGHT_BIT = tuple(1 << (_ace_low(c) - 1) if _ace_low(c) <= 8 else 0 for c in range(52))
"""Each card's bit in a mask of ace-to-five ranks of 8 or lower (0 above 8)."""
_BITS = tuple(bin(mask).count("1") for mask in range(256))
