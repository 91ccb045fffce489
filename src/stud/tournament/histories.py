"""A tournament hand's PHH and PokerStars text, with the tournament header.

PokerStars writes ``Tournament #ID, BUY-IN+FEE GAME Limit - Level IV (50/100)``
and names the table ``'ID N'`` (the corpus in ``shared/corpus/pokerstars/tour``);
the table layer already names its tables so, and the level is the one the hand
was dealt at. The buy-in is play money, written without a currency (``100+10``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from stud.history import Placing
from stud.history import Tournament as HistoryTag
from stud.history.phh import roman
from stud.table import Effect, Heading
from stud.table.port import HandPort
from stud.tournament.settings import TournamentSettings, buy_in_text
from stud.tournament.state import TableOut


def history_tag(
    settings: TournamentSettings, level: int, placings: Sequence[Sequence[int | None]] = ()
) -> HistoryTag:
    """The tournament part of a hand record: number, buy-in text, level in roman numerals,
    and who finished the tournament in the hand (a ``placings`` event's rows)."""
    closing = tuple(
        Placing(int(seat or 0), int(place or 0), prize) for seat, place, prize in placings
    )
    return HistoryTag(str(settings.id), buy_in_text(settings), None, roman(level), closing)


def hand_histories(
    settings: TournamentSettings,
    out: TableOut,
    hand_id: int,
    *,
    time: datetime | None = None,
    placings: Sequence[Sequence[int | None]] = (),
) -> tuple[str, str]:
    """(PHH, PokerStars text) of the hand whose ``hand_finished`` effect ``out`` carries.

    ``placings`` are the rows of the tournament's ``placings`` event for that hand
    (it follows the effect in the same call's outputs): who finished the
    tournament in it, written as PokerStars closes such a hand.
    """
    hand, heading = _written(settings, out, hand_id, time, placings)
    return hand.histories(heading)


def hand_played(
    settings: TournamentSettings,
    out: TableOut,
    hand_id: int,
    *,
    time: datetime | None = None,
    placings: Sequence[Sequence[int | None]] = (),
) -> str:
    """The hand as the room stores it (:meth:`stud.table.port.HandPort.played`), from which
    :func:`hand_histories`'s texts are written when asked for; arguments as there."""
    hand, heading = _written(settings, out, hand_id, time, placings)
    return hand.played(heading)


def _written(
    settings: TournamentSettings,
    out: TableOut,
    hand_id: int,
    time: datetime | None,
    placings: Sequence[Sequence[int | None]],
) -> tuple[HandPort, Heading]:
    """The finished hand of a table's ``hand_finished`` effect, and the heading its
    histories are written with (ValueError for any other output)."""
    item = out.item
    if not isinstance(item, Effect) or item.kind != "hand_finished":
        raise ValueError("histories are written from a table's hand_finished effect")
    data = item.data
    heading = Heading(
        hand_id, data["table_name"], data["names"], max_seats=int(data["max_seats"]), time=time,
        tournament=history_tag(settings, out.level, placings),
    )  # fmt: skip
    return data["hand"], heading
