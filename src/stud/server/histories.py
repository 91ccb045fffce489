"""A finished hand's history as one caller may download it: no card they may not see.

The stored PHH is the house's copy and knows every card. A download shows the
up cards, the cards shown at the showdown, and (to a player of that hand) the
player's own down cards; every other down card, mucked or folded, is unknown
(PHH ``??``), and so are burnt cards.
"""

from __future__ import annotations

from dataclasses import replace

from stud.history import HandRecord, Show, read_phh, write_phh, write_pokerstars_hand
from stud.history.model import is_up


def for_viewer(record: HandRecord, viewer: int | None) -> HandRecord:
    """``record`` with every card ``viewer`` (None: anyone) may not see made unknown."""
    shown = {event.seat for event in record.shows if isinstance(event, Show)}
    cards = tuple(
        held
        if seat == viewer or seat in shown
        else tuple(card if is_up(position) else None for position, card in enumerate(held))
        for seat, held in enumerate(record.cards)
    )
    return replace(record, cards=cards, burns=tuple(None for _ in record.burns), hero=viewer)


def texts_for(phh: str, viewer: int | None) -> tuple[str, str]:
    """(PHH, PokerStars text) of a stored hand as ``viewer`` may see it."""
    record = for_viewer(read_phh(phh), viewer)
    return write_phh(record), write_pokerstars_hand(record)
