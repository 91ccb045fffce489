"""The table layer: hands in sequence at one table, pure (time comes in as an argument)."""

from __future__ import annotations

from stud.table.port import HandEvent, HandFactory, HandPort, Legal
from stud.table.table import Effect, Event, Out, Player, Table, TableError, TableSettings

__all__ = [
    "Effect",
    "Event",
    "HandEvent",
    "HandFactory",
    "HandPort",
    "Legal",
    "Out",
    "Player",
    "Table",
    "TableError",
    "TableSettings",
]
