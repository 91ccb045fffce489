"""A hand as played, kept compactly until its history is asked for: events and headings, JSON.

Writing a finished hand's PHH and PokerStars text costs about a millisecond of
CPU, for texts few hands are ever asked for. :func:`dump_played` keeps what
they are made from instead, the engine's events (every card: the house's
copy) and the headings :func:`~stud.history.record_from_events` takes, for a
tenth of that; :func:`load_played` gives the record back when a history is
wanted. It is the very record that reading back the PHH text written from the
hand gives (``read_phh(write_phh(record))``: the time kept to the second and
without its zone, as PHH keeps it), so every text written from it is the one
the PHH would have given, byte for byte.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

import orjson

from stud.fairness import Shuffle
from stud.game import Event, event_from_dict
from stud.history.errors import HistoryError
from stud.history.from_engine import record_from_events
from stud.history.model import HandRecord, Placing, Tournament

FORMAT = 1
"""The layout's version, stored in it; :func:`load_played` refuses others."""

_TIME = "%Y-%m-%dT%H:%M:%S"


def dump_played(
    events: Sequence[Event],
    *,
    names: Sequence[str],
    seat_numbers: Sequence[int],
    hand_id: str,
    table: str | None = None,
    max_seats: int | None = None,
    time: datetime | None = None,
    time_zone: str | None = None,
    tournament: Tournament | None = None,
    burn_cards: bool = False,
    shuffle: Shuffle | None = None,
) -> str:
    """A complete hand's events and its record's headings, as JSON text (see the module)."""
    data = {
        "format": FORMAT,
        # The events' fields (orjson writes the dataclasses themselves) and their types.
        "types": [event.TYPE for event in events],
        "events": events,
        "names": names,
        "seat_numbers": seat_numbers,
        "hand_id": hand_id,
        "table": table,
        "max_seats": max_seats,
        "time": None if time is None else time.strftime(_TIME),
        "time_zone": time_zone,
        "tournament": tournament,
        "burn_cards": burn_cards,
        "shuffle": None if shuffle is None else shuffle.revealed(),
    }
    return orjson.dumps(data).decode()


def load_played(text: str) -> HandRecord:
    """The record of a hand :func:`dump_played` kept; HistoryError if the text is not one."""
    try:
        data = orjson.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a stored hand of format {FORMAT}")
        pairs = zip(data["types"], data["events"], strict=True)
        events = [event_from_dict({**fields, "type": kind}) for kind, fields in pairs]
        record = record_from_events(
            events,
            names=[str(name) for name in data["names"]],
            seat_numbers=[int(number) for number in data["seat_numbers"]],
            hand_id=str(data["hand_id"]),
            table=_optional_str(data["table"]),
            max_seats=None if data["max_seats"] is None else int(data["max_seats"]),
            time=None if data["time"] is None else datetime.strptime(data["time"], _TIME),
            time_zone=_optional_str(data["time_zone"]),
            tournament=_tournament(data["tournament"]),
            burn_cards=bool(data["burn_cards"]),
        )
        if data["shuffle"] is not None:
            record = replace(record, shuffle=Shuffle.from_dict(data["shuffle"]))
    except (KeyError, TypeError, ValueError) as error:  # JSON, events, cards, seeds
        if isinstance(error, HistoryError):
            raise
        raise HistoryError(f"the stored hand cannot be read: {error}") from None
    return record


def _optional_str(value: Any) -> str | None:
    return None if value is None else str(value)


def _tournament(data: Any) -> Tournament | None:
    if data is None:
        return None
    placings = tuple(
        Placing(int(p["seat"]), int(p["place"]), None if p["prize"] is None else int(p["prize"]))
        for p in data["placings"]
    )
    return Tournament(
        str(data["id"]),
        _optional_str(data["buy_in"]),
        _optional_str(data["currency"]),
        _optional_str(data["level"]),
        placings,
    )
