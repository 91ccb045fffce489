"""Hand descriptions as PokerStars prints them at the showdown, from :mod:`stud.evaluate`."""

from __future__ import annotations

from stud.history.from_engine import description
from stud.history.model import HandRecord, Show


def pokerstars_description(record: HandRecord, show: Show) -> str | None:
    """``two pair, Queens and Sevens``, ``HI: ...; LO: 7,6,5,4,3`` or ``Lo: 8,6,4,3,2``.

    None when the shown cards (with the community card) are too few to make
    a five-card hand or some are unknown.
    """
    from stud.evaluate import evaluate_eight_low, evaluate_high, evaluate_razz

    cards = [int(c) for c in show.cards if c is not None]
    if len(cards) != len(show.cards):
        return None
    cards += [int(c) for c in record.community if c is not None]
    if len(cards) < 5:
        return None
    if record.game == "razz":
        return description("razz", None, evaluate_razz(cards).description)
    high = evaluate_high(cards).description
    if record.game == "stud8":
        low = evaluate_eight_low(cards)
        return description("stud8", high, None if low is None else low.description)
    return description("stud", high, None)
