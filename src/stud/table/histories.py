"""A finished engine hand as PHH and PokerStars text, through :mod:`stud.history`.

The history package owns both formats and the conversion from the engine's
events; this module only names the table's players and seats for it. The text
is the house's copy: it knows every card. What a caller may download is cut
from it by :mod:`stud.server.http.histories`. The room stores a hand as played
(:func:`played_hand`) and writes its texts only when they are asked for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from stud.fairness import Shuffle
from stud.game import Hand
from stud.history import record_from_hand, write_phh, write_pokerstars_hand
from stud.history.played import dump_played
from stud.table.heading import Heading


def _headings(heading: Heading, seats: Sequence[int]) -> dict[str, Any]:
    """What the record says besides the play: names, table seats (1-based), id, table, time."""
    return {
        "names": list(heading.names),
        "seat_numbers": [s + 1 for s in seats],
        "hand_id": str(heading.hand_id),
        "table": heading.table_name,
        "max_seats": heading.max_seats,
        "time": heading.time,
        "time_zone": None if heading.time is None else "UTC",
        "tournament": heading.tournament,
    }


def write_histories(
    hand: Hand, heading: Heading, seats: Sequence[int], *, shuffle: Shuffle | None = None
) -> tuple[str, str]:
    """(PHH, PokerStars text) of the finished ``hand``; ``seats`` are the table's (0-based).

    ``shuffle`` is the committed shuffle the hand was dealt from, seeds and all;
    a ``heading`` with a tournament's tag (id, buy-in, level) makes it a
    tournament hand, in chips.
    """
    record = record_from_hand(hand, **_headings(heading, seats))
    if shuffle is not None:
        record = replace(record, shuffle=shuffle)
    return write_phh(record), write_pokerstars_hand(record)


def played_hand(
    hand: Hand, heading: Heading, seats: Sequence[int], *, shuffle: Shuffle | None = None
) -> str:
    """The finished ``hand`` as :func:`stud.history.played.dump_played` keeps it: what
    :func:`write_histories` would write, made when asked for (``load_played``)."""
    if not hand.is_over:
        raise ValueError("the hand is not over yet")
    headings = _headings(heading, seats)
    return dump_played(hand.events, burn_cards=hand.config.burn_cards, shuffle=shuffle, **headings)
