"""A finished engine hand as PHH and PokerStars text, through :mod:`stud.history`.

The history package owns both formats and the conversion from the engine's
events; this module only names the table's players and seats for it. The text
is the house's copy: it knows every card. What a caller may download is cut
from it by :mod:`stud.server.http.histories`. The room stores a hand as played
(:func:`played_hand`) and writes its texts only when they are asked for.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from stud.fairness import Shuffle
from stud.game import Hand
from stud.history import Tournament, record_from_hand, write_phh, write_pokerstars_hand
from stud.history.played import dump_played


def _headings(
    hand_id: int,
    table_name: str,
    names: list[str],
    seats: list[int],
    max_seats: int | None,
    time: datetime | None,
    tournament: Tournament | None,
) -> dict[str, Any]:
    """What the record says besides the play: names, table seats (1-based), id, table, time."""
    return {
        "names": names,
        "seat_numbers": [s + 1 for s in seats],
        "hand_id": str(hand_id),
        "table": table_name,
        "max_seats": max_seats,
        "time": time,
        "time_zone": None if time is None else "UTC",
        "tournament": tournament,
    }


def write_histories(
    hand: Hand,
    hand_id: int,
    table_name: str,
    names: list[str],
    seats: list[int],
    *,
    max_seats: int | None = None,
    time: datetime | None = None,
    shuffle: Shuffle | None = None,
    tournament: Tournament | None = None,
) -> tuple[str, str]:
    """(PHH, PokerStars text) of the finished ``hand``; ``seats`` are the table's (0-based).

    ``shuffle`` is the committed shuffle the hand was dealt from, seeds and all;
    ``tournament`` (id, buy-in, level) makes it a tournament hand, in chips.
    """
    headings = _headings(hand_id, table_name, names, seats, max_seats, time, tournament)
    record = record_from_hand(hand, **headings)
    if shuffle is not None:
        record = replace(record, shuffle=shuffle)
    return write_phh(record), write_pokerstars_hand(record)


def played_hand(
    hand: Hand,
    hand_id: int,
    table_name: str,
    names: list[str],
    seats: list[int],
    *,
    max_seats: int | None = None,
    time: datetime | None = None,
    shuffle: Shuffle | None = None,
    tournament: Tournament | None = None,
) -> str:
    """The finished ``hand`` as :func:`stud.history.played.dump_played` keeps it: what
    :func:`write_histories` would write, made when asked for (``load_played``)."""
    if not hand.is_over:
        raise ValueError("the hand is not over yet")
    headings = _headings(hand_id, table_name, names, seats, max_seats, time, tournament)
    return dump_played(hand.events, burn_cards=hand.config.burn_cards, shuffle=shuffle, **headings)
