"""Bots by name, for the command line, the simulator and the card room."""

from __future__ import annotations

from collections.abc import Callable

from stud.bots.base import Bot
from stud.bots.simple import RandomBot, StationBot
from stud.bots.strong import StrongBot

BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "station": StationBot,
    "strong": StrongBot,
}
"""Each shipped bot's name and its maker, which takes a seed (None: unseeded)."""


def make_bot(name: str, seed: int | None = None) -> Bot:
    """The bot called ``name`` (``random``, ``station``, ``strong``); ValueError otherwise."""
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
