"""Bots by name, for the command line, the simulator and the card room."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from stud.bots.base import Bot
from stud.bots.gauntlet import STYLES, ManiacBot, StyleBot
from stud.bots.gears import GearBot
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
}
"""Each shipped bot's name and its maker, which takes a seed (None: unseeded)."""

GAUNTLET: tuple[str, ...] = ("tag", "stealer", "maniac", "nit", "station", "prober", "bully")
"""The opponents of ``stud gauntlet``: one style each (see :mod:`stud.bots.gauntlet`)."""


def make_bot(name: str, seed: int | None = None) -> Bot:
    """The bot called ``name`` (one of :data:`BOTS`); ValueError otherwise."""
    maker = BOTS.get(name.strip().lower())
    if maker is None:
        raise ValueError(f"unknown bot {name!r}: use one of {', '.join(BOTS)}")
    return maker(seed)


def parse_bots(text: str) -> list[str]:
    """``"strong,random,station"`` as a list of known bot names; ValueError on any other."""
    names = [part.strip().lower() for part in text.split(",") if part.strip()]
    for name in names:
        if name not in BOTS:
            raise ValueError(f"unknown bot {name!r}: use one of {', '.join(BOTS)}")
    return names
