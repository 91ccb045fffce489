"""Bots by name, for the command line, the simulator and the card room."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from stud.bots.base import Bot
from stud.bots.gauntlet import STYLES, ManiacBot, StyleBot
from stud.bots.gears import LOOSE, GearBot
from stud.bots.own_view import OwnView
from stud.bots.policy import load_factory
from stud.bots.simple import RandomBot, StationBot
from stud.bots.strong import StrongBot
from stud.bots.strong_v1 import StrongV1Bot

BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "station": StationBot,
    "strong": StrongBot,
    "strong-v1": StrongV1Bot,
    **{style: partial(StyleBot, style) for style in STYLES},
    "maniac": ManiacBot,
    "shifter": GearBot,
    "loose": partial(StyleBot, "loose", traits=LOOSE),
    "strong-own-view": lambda seed: OwnView(StrongBot(seed), "strong-own-view"),
}
"""Each shipped bot's name and its maker, which takes a seed (None: unseeded)."""

GAUNTLET: tuple[str, ...] = ("tag", "stealer", "maniac", "nit", "station", "prober", "bully")
"""The opponents of ``stud gauntlet``: one style each (see :mod:`stud.bots.gauntlet`)."""


def make_bot(name: str, seed: int | None = None) -> Bot:
    """The bot called ``name``; ValueError for an unknown one.

    ``name`` is one of :data:`BOTS`, or ``package.module:factory``: a maker
    of the project's own (e.g. a trained policy wrapped by
    :func:`stud.bots.from_policy`), imported here and called with the seed.
    """
    name = name.strip()
    if ":" in name:
        bot = load_factory(name)(seed)
        if not isinstance(bot, Bot):
            raise ValueError(f"bot {name!r}: its factory made {bot!r}, which has no choose()")
        return bot
    maker = BOTS.get(name.lower())
    if maker is None:
        raise ValueError(f"unknown bot {name!r}: use one of {', '.join(BOTS)} or module:factory")
    return maker(seed)


def parse_bots(text: str) -> list[str]:
    """``"strong,random,station"`` as a list of bot names; ValueError on an unknown one.

    A ``package.module:factory`` name is checked by importing its module (case kept).
    """
    names = [_name(part) for part in text.split(",") if part.strip()]
    for name in names:
        if ":" in name:
            load_factory(name)
        elif name not in BOTS:
            raise ValueError(
                f"unknown bot {name!r}: use one of {', '.join(BOTS)} or module:factory"
            )
    return names


def _name(part: str) -> str:
    """A shipped bot's name in lower case; a ``module:factory`` name as written."""
    part = part.strip()
    return part if ":" in part else part.lower()
