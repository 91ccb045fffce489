"""A bot seated as through an interface that shows it only its own turns: no ``observe``.

A table calls a bot's ``observe`` with every finished hand (:mod:`stud.bots.base`),
so a reading bot sees the folds that end a hand and the betting after its last
turn. A bot seated through another site's interface sees only what its own
decisions show. :class:`OwnView` seats any bot that way, so the gauntlet can
measure how much of a bot's edge its reads owe to being shown each hand
(``strong-own-view``).
"""

from __future__ import annotations

from collections.abc import Sequence

from stud.bots.base import Bot
from stud.game import Action, HandView


class OwnView:
    """``bot`` without its ``observe``: it learns only from the views of its own turns."""

    def __init__(self, bot: Bot, name: str) -> None:
        self.bot = bot
        self.name = name

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        return self.bot.choose(view, legal)
