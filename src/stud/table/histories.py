"""A finished engine hand as PHH and PokerStars text, through :mod:`stud.history`.

The history package owns both formats and the conversion from the engine's
events; this module only names the table's players and seats for it. The text
is the house's copy: it knows every card. What a caller may download is cut
from it by :mod:`stud.server.histories`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from stud.fairness import Shuffle
from stud.game import Hand
from stud.history import Tournament, record_from_hand, write_phh, write_pokerstars_hand


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
    record = record_from_hand(
        hand,
        names=names,
        seat_numbers=[s + 1 for s in seats],
        hand_id=str(hand_id),
        table=table_name,
        max_seats=max_seats,
        time=time,
        time_zone=None if time is None else "UTC",
        tournament=tournament,
    )
    if shuffle is not None:
        record = replace(record, shuffle=shuffle)
    return write_phh(record), write_pokerstars_hand(record)
