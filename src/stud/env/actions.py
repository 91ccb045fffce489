"""The discrete actions: their indices, names, and how an index and its engine action read.

All defined in :mod:`stud.envcore.turns` (compiled with the encoder, which
also maps the engine's legal actions onto the indices); docs/rl.md has the table.
"""

from __future__ import annotations

from stud.envcore.turns import (
    ACTION_NAMES,
    BRING_IN,
    CHECK_CALL,
    DOUBLE_WAGER,
    FOLD,
    WAGER,
    describe,
)

__all__ = ["ACTION_NAMES", "BRING_IN", "CHECK_CALL", "DOUBLE_WAGER", "FOLD", "WAGER", "describe"]
