"""The table layer: hands in sequence at one table, pure (time comes in as an argument)."""

from __future__ import annotations

from stud._compiled import check_fresh
from stud.table.errors import TableError
from stud.table.events import Effect, Event, HandEvent, Out
from stud.table.heading import Heading
from stud.table.player import Player
from stud.table.port import HandFactory, HandPort, Legal
from stud.table.settings import TableSettings
from stud.table.table import Table

check_fresh()  # the table layer is compiled too (stud._compiled): never an old build of it

__all__ = [
    "Effect",
    "Event",
    "HandEvent",
    "HandFactory",
    "HandPort",
    "Heading",
    "Legal",
    "Out",
    "Player",
    "Table",
    "TableError",
    "TableSettings",
]
