"""Hand histories: the neutral record, PHH and PokerStars text, and replay through the engine."""

from stud.history.errors import HistoryError
from stud.history.model import (
    Action,
    Collect,
    Game,
    HandRecord,
    Kind,
    Muck,
    Seat,
    Show,
    Slot,
    Stakes,
    Tournament,
)
from stud.history.pokerstars_read import ReadResult, read_pokerstars, read_pokerstars_file

__all__ = [
    "Action",
    "Collect",
    "Game",
    "HandRecord",
    "HistoryError",
    "Kind",
    "Muck",
    "ReadResult",
    "Seat",
    "Show",
    "Slot",
    "Stakes",
    "Tournament",
    "read_pokerstars",
    "read_pokerstars_file",
]
