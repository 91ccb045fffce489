"""What the subcommands' parsers show: game and bot names, limits and defaults, kept light.

``stud --help`` builds every subcommand's parser, so a parser may take nothing
from the engine, the bots, the equity package or the simulator: importing them
brings in NumPy and the evaluator's tables. These are copies of their values,
each named beside its source; tests/test_cli_help.py checks that they agree.
A subcommand imports its heavy modules in ``run``.
"""

from __future__ import annotations

from typing import Final

GAMES: Final = ("stud", "stud8", "razz")
"""The games' codes: ``stud.game.VARIANTS``."""

GAME_NAMES: Final = {"stud": "Seven Card Stud", "stud8": "Stud Hi/Lo", "razz": "Razz"}
"""Each game's name in a title: ``stud.equity.showdown.GAME_NAMES``."""

MIN_SEATS: Final = 2
"""``stud.game.MIN_SEATS``."""

MAX_SEATS: Final = 8
"""``stud.game.MAX_SEATS``."""

BOTS: Final = (
    "random", "station", "strong", "strong-v1", "tag", "stealer", "nit", "prober", "bully",
    "maniac", "shifter", "loose", "strong-own-view",
)  # fmt: skip
"""The shipped bots: ``stud.bots.BOTS``."""

GAUNTLET: Final = ("tag", "stealer", "maniac", "nit", "station", "prober", "bully")
"""The gauntlet's opponents: ``stud.bots.GAUNTLET``."""

SESSION: Final = 2000
"""Hands per simulated session by default: ``stud.sim.SESSION``."""

STAKES: Final = "2/5/20/40"
"""Ante, bring-in, small and big bet by default: ``str(stud.sim.Stakes())``."""

EXACT_LIMIT: Final = 40_000_000
"""``stud.equity.api.EXACT_LIMIT``."""

DEFAULT_SAMPLES: Final = 1_000_000
"""``stud.equity.api.DEFAULT_SAMPLES``."""
