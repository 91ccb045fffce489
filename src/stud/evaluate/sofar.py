"""Words for a stud hand still being dealt: 1 to 7 cards, as a player reads them at the table.

Five cards or more read exactly as the showdown does (the evaluators' own
descriptions); fewer read by their pairs and sets (no straight or flush can be
made yet): ``a pair of Kings``, ``two pair, Kings and Fives``, ``high card Ace``.
Lows read as the lowest distinct ranks so far (``7,4,2``); an eight-or-better
low that is not made yet is a *draw* while enough cards are still to come.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from stud.cards import RANK_NAMES, RANK_PLURALS, RANKS
from stud.evaluate.describe import high_description, low_description
from stud.evaluate.high import FLUSH_VALUES, PLAIN_VALUES
from stud.evaluate.low import EIGHT_VALUES, LOW_VALUES, PAIRED_VALUES
from stud.evaluate.tables import (
    HIGH_CLASSES,
    LOW_CLASSES,
    RANK_BITS,
    RANK_MASK,
    ace_low_bit,
    card_key,
    flush_suits,
)
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
# dealt), read from the cards' running sums (:class:`Running`): a table adds each seat's new
# cards to the sums it had rather than reading the hand again.


def high_words(hand: Sequence[int]) -> str:
    """:func:`high_so_far` of checked cards."""
    return running_high(NOTHING.plus(hand))


def razz_words(hand: Sequence[int]) -> LowSoFar:
    """:func:`razz_so_far` of checked cards."""
    low = low_of_code(razz_code(NOTHING.plus(hand)))
    assert low is not None  # a Razz hand always reads low
    return low


def eight_low_words(hand: Sequence[int], to_come: int) -> LowSoFar | None:
    """:func:`eight_low_so_far` of checked cards and a count to come of 0 or more."""
    return low_of_code(eight_code(NOTHING.plus(hand), to_come))


class Running:
    """A hand's cards so far as the sums its words are read from (:func:`running_high`,
    :func:`razz_code`, :func:`eight_code`); :meth:`plus` adds new cards to them."""

    def __init__(
        self, count: int = 0, key: int = 0, ranks: int = 0, low: int = 0, suits: int = 0
    ) -> None:
        self.count = count
        """How many cards (1 to 7 are read: a stud hand holds no more)."""
        self.key = key
        """The sum of the cards' keys (:func:`~stud.evaluate.tables.card_key`): the rank-key
        sum below bit 23, the suit-key sum above."""
        self.ranks = ranks
        """The sum of 5 ** rank: each rank's count as a base-5 digit, the same for any suits
        and order (the words of fewer than five cards are read from it)."""
        self.low = low
        """The ace-low rank bits present (:func:`~stud.evaluate.tables.ace_low_bit`)."""
        self.suits = suits
        """Each suit's rank mask, suit s at bit 13 * s."""

    def plus(self, cards: Iterable[int | None]) -> Running:
        """These sums with ``cards`` added (cards not counted yet: a hand's cards are only
        ever added to); None, a card not known, is left out as the words leave it out."""
        count, key, ranks, low, suits = self.count, self.key, self.ranks, self.low, self.suits
        for card in cards:
            if card is None:
                continue
            count += 1
            key += _CARD_KEY[card]
            ranks += _RANK_KEY[card]
            low |= _LOW_BIT[card]
            suits |= 1 << ((card & 3) * 13 + (card >> 2))
        return Running(count, key, ranks, low, suits)


if RANK_BITS != 23 or RANK_MASK != 0x7FFFFF:  # spelled out below
    raise AssertionError("the running words' constants are out of date")

NOTHING: Final = Running()
"""No card yet: what a seat's sums start from."""

_CARD_KEY: Final = tuple(card_key(card) for card in range(52))
_RANK_KEY: Final = tuple(5 ** (card >> 2) for card in range(52))
_LOW_BIT: Final = tuple(ace_low_bit(card) for card in range(52))
_FLUSH_SUIT: Final = tuple(tuple(int(s) for s in flush_suits(k).tolist()) for k in (5, 6, 7))
"""By count (5, 6, 7) and suit-key sum: the suit of a flush, else -1."""
_FIVE, _SIX, _SEVEN = PLAIN_VALUES
_PAIRED5, _PAIRED6, _PAIRED7 = PAIRED_VALUES
_BITS: Final = tuple(bin(mask).count("1") for mask in range(256))
_HIGH_TEXT: dict[int, str] = {}
"""The words of each high value (7,462) and of 1 to 4 cards by :attr:`Running.ranks` plus
:data:`_FEW_CODE` (2,379 rank multisets): all made when the module loads (:func:`_words`)."""
_LOW_WORDS: dict[int, tuple[str, bool, bool] | None] = {}
"""Each low code's ranks, whether made, whether possible (:class:`LowSoFar`'s fields; None: no
low), likewise all made when the module loads."""
_LOWS: dict[int, LowSoFar | None] = {}
"""Each low code's :class:`LowSoFar` once asked for (frozen: one shared by all)."""
_DRAW_CODE: Final = 1 << 13
_FEW_CODE: Final = 1 << 14
"""Low codes (:func:`razz_code`, :func:`eight_code`): a made low's value is below
:data:`_DRAW_CODE`, an eight-or-better draw is ``_DRAW_CODE + mask * 2 + possible``, a low of
fewer than five cards ``_FEW_CODE + ranks`` (:attr:`Running.ranks`), no low 0."""


def running_high(hand: Running) -> str:
    """:func:`high_so_far` of the hand's cards (1 to 7), read from its sums."""
    count = hand.count
    _check_count(count)
    if count < 5:  # pairs and sets only (no straight or flush yet): by the ranks
        value = _FEW_CODE + hand.ranks
    else:
        key = hand.key
        suit = _FLUSH_SUIT[count - 5][key >> 23]  # RANK_BITS, RANK_MASK: constants, quicker
        if suit >= 0:
            value = FLUSH_VALUES[(hand.suits >> (13 * suit)) & 0x1FFF]
        elif count == 7:
            value = _SEVEN[key & 0x7FFFFF]
        elif count == 6:
            value = _SIX[key & 0x7FFFFF]
        else:
            value = _FIVE[key & 0x7FFFFF]
    return _HIGH_TEXT[value]


def razz_code(hand: Running) -> int:
    """:func:`razz_so_far` of the hand's cards (1 to 7) as a low code (:func:`low_of_code`)."""
    count = hand.count
    _check_count(count)
    if count < 5:
        return _FEW_CODE + hand.ranks
    value = LOW_VALUES[hand.low]
    if value:
        return value
    paired = _PAIRED7 if count == 7 else _PAIRED6 if count == 6 else _PAIRED5
    return paired[hand.key & 0x7FFFFF]


def eight_code(hand: Running, to_come: int) -> int:
    """:func:`eight_low_so_far` of the hand's cards (1 to 7) and ``to_come`` (0 or more) as
    a low code (:func:`low_of_code`)."""
    count = hand.count
    _check_count(count)
    if count >= 5:
        value = EIGHT_VALUES[hand.low]
        if value:
            return value
    mask = hand.low & 0xFF  # the ace-low bits of ace to eight
    if not mask:
        return 0
    return _DRAW_CODE + mask * 2 + (1 if 5 - _BITS[mask] <= to_come else 0)


def low_of_code(code: int) -> LowSoFar | None:
    """The low a code of :func:`razz_code` or :func:`eight_code` stands for."""
    if code in _LOWS:
        return _LOWS[code]
    words = low_words(code)
    low = None if words is None else LowSoFar(*words)
    _LOWS[code] = low
    return low


def low_words(code: int) -> tuple[str, bool, bool] | None:
    """A low code's ranks, whether it is made and whether it is possible (None: no low)."""
    return _LOW_WORDS[code]


def _check_count(count: int) -> None:
    if not 1 <= count <= 7:
        raise ValueError(f"words are read of 1 to 7 cards, not {count}")


def _groups(ranks: int) -> list[tuple[int, int]]:
    """(count, rank) of each rank a rank key (:attr:`Running.ranks`) holds, rank 0 = deuce."""
    groups: list[tuple[int, int]] = []
    for rank in range(13):
        ranks, count = divmod(ranks, 5)
        if count:
            groups.append((count, rank))
    return groups


def _few_high(ranks: int) -> str:
    """The words of 1 to 4 cards by their ranks: the biggest group first, then the higher."""
    groups = sorted(_groups(ranks), reverse=True)
    (size, top), rest = groups[0], groups[1:]
    if size == 4:
        return f"four of a kind, {RANK_PLURALS[top]}"
    if size == 3:
        return f"three of a kind, {RANK_PLURALS[top]}"
    if size == 2 and rest and rest[0][0] == 2:
        return f"two pair, {RANK_PLURALS[top]} and {RANK_PLURALS[rest[0][1]]}"
    if size == 2:
        return f"a pair of {RANK_PLURALS[top]}"
    return f"high card {RANK_NAMES[top]}"


def _few_razz(ranks: int) -> str:
    """1 to 4 cards' low by their ranks: the pairs first, then the rest from the highest down
    (ace-to-five ranks: 1 for the ace .. 13 for the king)."""
    low = sorted(((count, rank + 2 if rank != 12 else 1) for count, rank in _groups(ranks)),
                 reverse=True)  # fmt: skip
    return ",".join(_rank_text(r) for count, r in low for _ in range(count))


def _rank_text(low_rank: int) -> str:
    return "A" if low_rank == 1 else RANKS[low_rank - 2]


def _words() -> None:
    """Every high's words and every low's, made once when the module loads (about 30 ms):
    a running server's words are then table lookups, never worked out on first sight in
    the middle of a step."""
    few = {0}
    for _ in range(4):  # the rank keys of 1 to 4 cards (at most four of a rank: digits < 5)
        few |= {key + 5**rank for key in few for rank in range(13) if key // 5**rank % 5 < 4}
    few.discard(0)
    for value in range(1, HIGH_CLASSES + 1):
        _HIGH_TEXT[value] = high_description(value)
    for ranks in few:
        _HIGH_TEXT[_FEW_CODE + ranks] = _few_high(ranks)
        _LOW_WORDS[_FEW_CODE + ranks] = (_few_razz(ranks), False, True)
    _LOW_WORDS[0] = None
    for value in range(1, LOW_CLASSES + 1):
        _LOW_WORDS[value] = (low_description(value), True, True)
    for mask in range(1, 256):  # a draw: its ranks of eight or lower, from the highest down
        text = ",".join(_rank_text(r) for r in range(8, 0, -1) if mask >> (r - 1) & 1)
        _LOW_WORDS[_DRAW_CODE + mask * 2] = (text, False, False)
        _LOW_WORDS[_DRAW_CODE + mask * 2 + 1] = (text, False, True)


_words()
