"""Stud, Stud Hi/Lo and Razz as OpenSpiel games (the ``openspiel`` extra).

``import stud.spiel`` registers ``python_stud``, ``python_stud8``,
``python_razz`` and the small game ``python_razz_small`` with OpenSpiel
(:mod:`stud.spiel.game`; :mod:`stud.spiel.solve` solves a small one with CFR+), so
``pyspiel.load_game("python_razz", {"players": 3})`` plays the project's
engine with OpenSpiel's algorithms; :func:`policy_bot` seats an OpenSpiel
policy of these games as a stud bot. Nothing else in Stud imports pyspiel.
"""

try:
    import pyspiel  # noqa: F401
except ImportError as error:  # pragma: no cover - depends on the install
    raise ImportError(
        "stud.spiel needs the openspiel extra: pip install -e '.[openspiel]' from a checkout "
        "(see docs/rl.md)"
    ) from error

from stud.spiel.bots import SpielBot, policy_bot
from stud.spiel.game import (
    ACTION_NAMES,
    DEFAULTS,
    GAMES,
    SMALL_DEFAULTS,
    SMALL_GAMES,
    StudGame,
    StudState,
)

__all__ = [
    "ACTION_NAMES",
    "DEFAULTS",
    "GAMES",
    "SMALL_DEFAULTS",
    "SMALL_GAMES",
    "SpielBot",
    "StudGame",
    "StudState",
    "policy_bot",
]
