"""The room's stand-in bot, behind the small :class:`Bot` protocol a real bot implements.

``choose(view, legal)`` gets the bot's own table view and its legal actions and
returns one of them; the bots package (issue 6) can plug its players in here.
"""

from __future__ import annotations

from typing import Any, Protocol

from stud.table import Legal


class Bot(Protocol):
    def choose(self, view: dict[str, Any], legal: list[Legal]) -> Legal:
        """One of ``legal``."""


class CallingStation:
    """Checks when it can, else calls, else brings in; never folds a free hand."""

    PREFERENCE = ("check", "call", "bring_in", "complete", "bet", "raise", "fold")

    def choose(self, view: dict[str, Any], legal: list[Legal]) -> Legal:
        by_action = {a.action: a for a in legal}
        for action in self.PREFERENCE:
            if action in by_action:
                return by_action[action]
        return legal[0]


def make_bot(kind: str = "calling_station") -> Bot:
    """The bot called ``kind``; the room asks for its bots by name."""
    if kind == "calling_station":
        return CallingStation()
    raise ValueError(f"unknown bot {kind!r}")
