"""A hand in words while it is played: the viewer's own cards, and every seat's up cards.

The words come from :mod:`stud.evaluate.sofar` (the evaluators the showdown uses),
so the table, the showdown and the log read a hand the same way; the browser
only prints them. A seat's readout is built from what that viewer's hand view
already holds, so it says nothing the viewer could not see: the own readout
goes only into the view of the account seated there, the up-card readouts are
public.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stud.cards import DECK_SIZE, Card
from stud.evaluate.sofar import (
    NOTHING,
    Running,
    eight_code,
    high_so_far,
    low_words,
    razz_code,
    running_high,
)

CARD_INDEX = {str(Card(index)): index for index in range(DECK_SIZE)}
"""Each card's index by its text (``"As"``), as views name them."""

CARDS_PER_PLAYER = 7
"""A stud player's cards at the river (the R12 community card counts as the seventh)."""


def _low(code: int) -> dict[str, Any] | None:
    """The readout's ``low`` of a low code (:func:`~stud.evaluate.sofar.low_words`)."""
    if code in _LOWS:
        return _LOWS[code]
    low = low_words(code)
    words = None  # a few thousand lows in all: each one's dict made once, never changed
    if low is not None:
        words = {"ranks": low[0], "made": low[1], "possible": low[2]}
    _LOWS[code] = words
    return words


_LOWS: dict[int, dict[str, Any] | None] = {}


def readout(game: str, cards: Sequence[str], to_come: int) -> dict[str, Any] | None:
    """``{"high", "low"}`` words for ``cards`` in ``game`` (None for no card).

    ``high`` is None in Razz; ``low`` is None in Seven Card Stud, and in Stud Hi/Lo
    when no card is eight or lower. ``low`` is ``{"ranks", "made", "possible"}``.
    """
    if not cards:
        return None
    ints = tuple([CARD_INDEX[c] if c in CARD_INDEX else int(Card.parse(c)) for c in cards])
    return readout_of(game, ints, to_come)


def readout_of(game: str, cards: tuple[int, ...], to_come: int) -> dict[str, Any] | None:
    """:func:`readout` of cards given by index (``int(Card)``), as the engine holds them: a
    table's hand reads its new cards without naming them first."""
    if not cards:
        return None
    refused = len(set(cards)) != len(cards) or len(cards) > CARDS_PER_PLAYER
    if refused or min(cards) < 0 or max(cards) >= DECK_SIZE:  # refused, named
        high_so_far(cards)
    return readout_running(game, NOTHING.plus(cards), to_come)


def readout_running(game: str, hand: Running, to_come: int) -> dict[str, Any] | None:
    """:func:`readout` of a hand's cards kept as running sums (:class:`Running`): a table
    adds each seat's new cards to the sums it had and reads the words from them.

    The dict is shared by every view that shows these words (kept by the words, a few
    thousand of them): it is never changed, and the same words give the same dict.
    """
    if not hand.count:
        return None
    if game == "razz":
        high, low = None, razz_code(hand)
    else:
        high = running_high(hand)
        # Only Stud Hi/Lo's low reads the cards still to come (a draw or not).
        low = eight_code(hand, max(0, to_come)) if game == "stud8" else 0
    key = (game, high, low)
    words = _WORDS.get(key)
    if words is None:
        if len(_WORDS) >= _WORDS_KEPT:  # Stud Hi/Lo's highs and lows over a long life
            _WORDS.clear()
        words = _WORDS[key] = {"high": high, "low": _low(low)}
    return words


_WORDS: dict[tuple[str, str | None, int], dict[str, Any]] = {}
_WORDS_KEPT = 1 << 16


def cards_to_come(*, over: bool, live: bool, held: int, community: bool) -> int:
    """How many cards a seat holding ``held`` of its own may still get (none once it folded
    or the hand is over; R12's community card counts as one of the seven)."""
    if over or not live:
        return 0
    return CARDS_PER_PLAYER - held - (1 if community else 0)


def _cards_to_come(hand: dict[str, Any], seat: dict[str, Any]) -> int:
    held = len(seat.get("down") or []) + len(seat.get("up") or [])
    return cards_to_come(
        over=bool(hand.get("is_over")), live=bool(seat.get("live", True)), held=held,
        community=bool(hand.get("community")),
    )  # fmt: skip


def own_readout(hand: dict[str, Any] | None, seat: int | None) -> dict[str, Any] | None:
    """The words for ``seat``'s whole hand (down, up and community cards) in its own hand view."""
    if hand is None or seat is None:
        return None
    for entry in hand.get("seats", []):
        if entry.get("seat") != seat:
            continue
        cards = [c for c in (*(entry.get("down") or []), *(entry.get("up") or [])) if c]
        if hand.get("community"):
            cards.append(hand["community"])
        return readout(str(hand["game"]), cards, _cards_to_come(hand, entry))
    return None


def board_readouts(hand: dict[str, Any] | None) -> dict[str, dict[str, Any]]:
    """Words for each seat's up cards, by table seat (JSON keys): what every watcher can read."""
    if hand is None:
        return {}
    boards: dict[str, dict[str, Any]] = {}
    for entry in hand.get("seats", []):
        up = [c for c in entry.get("up") or [] if c]
        words = readout(str(hand["game"]), up, _cards_to_come(hand, entry))
        if words is not None:
            boards[str(entry["seat"])] = words
    return boards
