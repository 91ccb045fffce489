"""Hand histories: the neutral record, PHH and PokerStars text, and replay through the engine.

See docs/formats.md. The record (:class:`HandRecord`) is what every reader
produces and every writer takes; :func:`replay` checks one against the rules.
"""

from stud.history import model
from stud.history.errors import HistoryError
from stud.history.files import read_file, read_text, write_records
from stud.history.from_engine import record_from_events, record_from_hand
from stud.history.model import *  # noqa: F403 (the record types: model.__all__)
from stud.history.phh import read_phh, read_phh_file, read_phhs, write_phh, write_phhs
from stud.history.pokerstars_read import ReadResult, read_pokerstars, read_pokerstars_file
from stud.history.pokerstars_write import write_pokerstars, write_pokerstars_hand
from stud.history.replay import ReplayReport, completed, replay

__all__ = [
    "HistoryError",
    "ReadResult",
    "ReplayReport",
    "completed",
    "read_file",
    "read_phh",
    "read_phh_file",
    "read_phhs",
    "read_pokerstars",
    "read_pokerstars_file",
    "read_text",
    "record_from_events",
    "record_from_hand",
    "replay",
    "write_phh",
    "write_phhs",
    "write_pokerstars",
    "write_pokerstars_hand",
    "write_records",
]
__all__ += model.__all__
