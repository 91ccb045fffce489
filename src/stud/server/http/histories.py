"""A finished hand's history as one caller may download or replay it: no card they may not see.

A hand is stored as played (:mod:`stud.history.played`: the house's copy, which
knows every card); a row stored by an earlier version holds the house's PHH text
instead, and reads back to the same record. A download shows the up cards, the
cards shown at the showdown, and (to a player of that hand) the player's own
down cards; every other down card, mucked or folded, is unknown (PHH ``??``),
and so are burnt cards. The texts are written when asked for, off the event loop
(these functions run in the database read's worker thread).

A replay (:func:`replay_data`) runs the record through the engine and keeps the events
the caller may see: a spectator's view (no down card of anyone until shown) or, for a
player of that hand, also that player's own down cards. Seats are the table's, as in the
live events (docs/protocol.md), so the browser replays them with the reducer it uses live.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from stud.game import visible_events
from stud.history import (
    HandRecord,
    HistoryError,
    Show,
    read_phh,
    replay,
    write_phh,
    write_pokerstars_hand,
)
from stud.history.model import is_up
from stud.history.played import load_played
from stud.server.actors.audience import hand_player
from stud.server.http.errors import RestError
from stud.table.engine import table_seats


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


def replay_data(record: dict[str, Any], viewer_account: int | None) -> dict[str, Any]:
    """The replay of one stored, finished hand as ``viewer_account`` may see it."""
    players: list[dict[str, Any]] = record["players"]
    seats = [int(p["seat"]) for p in players]
    try:
        played = house_record(record)
        if played is None:
            raise HistoryError("the hand has no history")
        report = replay(played)
    except (HistoryError, ValueError) as error:
        raise RestError(
            "replay_failed", f"the hand's history cannot be replayed: {error}"
        ) from None
    viewer = hand_player(players, viewer_account)
    events = [table_seats(e.to_dict(), seats) for e in visible_events(report.events, viewer)]
    started = events[0] if events else {}
    return {
        "id": record["id"],
        "table_id": record["table_id"],
        "number": record["number"],
        "game": record["game"],
        **{k: started.get(k) for k in ("ante", "bring_in", "small_bet", "big_bet")},
        "players": [{"seat": p["seat"], "name": p["name"], "stack": p["stack"]} for p in players],
        "you": None if viewer is None else seats[viewer],
        "events": events,
        # Published with the finished hand: the seeds redo every card (docs/fairness.md).
        "shuffle": None if report.record.shuffle is None else report.record.shuffle.revealed(),
    }
