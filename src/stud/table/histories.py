"""A finished engine hand as PHH and PokerStars text, through :mod:`stud.history`.

The history package owns both formats and the conversion from the engine's
events; this module only names the table's players and seats for it. While a
writer is missing from that package the text is ``None`` (stored as such), never
a stand-in.
"""

from __future__ import annotations

import importlib
from typing import Any


def _find(name: str) -> Any:
    history = importlib.import_module("stud.history")
    return getattr(history, name, None)


def write_histories(
    hand: Any, hand_id: int, table_name: str, names: list[str], seats: list[int]
) -> tuple[str | None, str | None]:
    """(PHH, PokerStars text) of ``hand``, each None if stud.history cannot write it yet."""
    to_record = _find("record_from_hand")
    if to_record is None:
        return None, None
    record = to_record(
        hand,
        names=names,
        seat_numbers=[s + 1 for s in seats],
        hand_id=str(hand_id),
        table=table_name,
    )
    write_phh = _find("write_phh")
    write_ps = _find("write_pokerstars_hand")
    phh = write_phh(record) if write_phh is not None else None
    pokerstars = write_ps(record) if write_ps is not None else None
    return phh, pokerstars
