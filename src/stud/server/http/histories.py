"""A finished hand's history as one caller may download it: no card they may not see.

A hand is stored as played (:mod:`stud.history.played`: the house's copy, which
knows every card); a row stored by an earlier version holds the house's PHH text
instead, and reads back to the same record. A download shows the up cards, the
cards shown at the showdown, and (to a player of that hand) the player's own
down cards; every other down card, mucked or folded, is unknown (PHH ``??``),
and so are burnt cards. The texts are written when asked for, off the event loop
(these functions run in the database read's worker thread).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from stud.history import HandRecord, Show, read_phh, write_phh, write_pokerstars_hand
from stud.history.model import is_up
from stud.history.played import load_played
from stud.server.actors.audience import hand_player


def house_record(row: Mapping[str, Any]) -> HandRecord | None:
    """The stored hand's whole record (every card), or None for a hand without one (void).

    HistoryError if what is stored cannot be read.
    """
    if row.get("played"):
        return load_played(row["played"])
    if row.get("phh"):  # stored by an earlier version: its PHH reads back to the same record
        return read_phh(row["phh"])
    return None


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


def texts_for(record: HandRecord, viewer: int | None) -> tuple[str, str]:
    """(PHH, PokerStars text) of a stored hand's record as ``viewer`` may see it."""
    seen = for_viewer(record, viewer)
    return write_phh(seen), write_pokerstars_hand(seen)


def hand_as_seen(row: dict[str, Any] | None, account_id: int | None) -> dict[str, Any] | None:
    """A stored hand (:meth:`stud.server.storage.Store.hand`) as ``account_id`` (None: a
    spectator) may download it: its texts cut to what it may see, ``you`` its seat if it
    played the hand; the hand as played is not part of it."""
    if row is None:
        return None
    record = house_record(row)
    del row["played"]
    viewer = hand_player(row["players"], account_id)
    if record is not None:
        row["phh"], row["pokerstars"] = texts_for(record, viewer)
    row["you"] = None if viewer is None else row["players"][viewer]["seat"]
    return row
