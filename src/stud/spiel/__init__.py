"""Stud, Stud Hi/Lo and Razz as OpenSpiel games (the ``openspiel`` extra).

``import stud.spiel`` registers ``python_stud``, ``python_stud8`` and
``python_razz`` with OpenSpiel (:mod:`stud.spiel.game`), so
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
from stud.spiel.game import ACTION_NAMES, DEFAULTS, GAMES, StudGame, StudState

__all__ = [
    "ACTION_NAMES",
    "DEFAULTS",
    "GAMES",
    "SpielBot",
    "StudGame",
    "StudState",
    "policy_bot",
]
