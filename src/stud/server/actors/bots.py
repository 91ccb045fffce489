"""The room's bots: the players of :mod:`stud.bots` (issue 6), behind the room's protocol.

The actor asks a bot ``choose(view, legal)`` with its seat's hand view (the
``hand`` part of the table's view for that seat: a dict, table seats) and the
table's ``Legal`` actions, and gets one of them back; :class:`stud.bots.RoomBot`
adapts any :class:`stud.bots.Bot` to that. The actor also shows each bot its
seat's view (with the hand's events) when a hand is dealt and when it ends,
with the account in each seat: ``observe(view, players)``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Protocol

from stud.bots import BOTS, RoomBot
from stud.bots import make_bot as make_player
from stud.table import Legal

BOT_KINDS: tuple[str, ...] = tuple(BOTS)
"""The names a table may ask for: ``random``, ``station``, ``strong``."""


class Bot(Protocol):
    """A bot as the room calls it: its hand view and legal actions in, one action out."""

    def choose(self, view: Mapping[str, Any], legal: Sequence[Legal]) -> Legal:
        """One of ``legal``."""
        ...

    def observe(self, view: Mapping[str, Any], players: Mapping[int, Hashable]) -> None:
        """Take in the seat's view (with events); ``players``: the account in each table seat."""
        ...


def make_bot(kind: str = "strong", seed: int | None = None) -> Bot:
    """The bot called ``kind`` (ValueError for an unknown one), seeded for a reproducible room."""
    return RoomBot(make_player(kind, seed))
