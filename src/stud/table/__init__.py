"""The table layer: hands in sequence at one table, pure (time comes in as an argument)."""

from __future__ import annotations

from stud._compiled import check_fresh
from stud.table.errors import TableError
from stud.table.port import HandEvent, HandFactory, HandPort, Legal
from stud.table.settings import TableSettings
from stud.table.table import Effect, Event, Out, Player, Table

check_fresh()  # the table layer is compiled too (stud._compiled): never an old build of it

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
