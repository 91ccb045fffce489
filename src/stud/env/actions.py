"""The discrete actions' names, and how an index and its engine action are described.

The indices and how the engine's legal actions map onto them are in
:mod:`stud.envcore.turns` (compiled with the encoder); docs/rl.md has the table.
"""

from __future__ import annotations

from stud.envcore.turns import BRING_IN, CHECK_CALL, DOUBLE_WAGER, FOLD, WAGER
from stud.game import Action, ActionKind

__all__ = ["ACTION_NAMES", "BRING_IN", "CHECK_CALL", "DOUBLE_WAGER", "FOLD", "WAGER", "describe"]

ACTION_NAMES = ("fold", "check/call", "bring-in", "complete/bet/raise", "double bet/raise")


def describe(index: int, action: Action | None) -> str:
    """``"3 (raise to 8)"``: an index and what it means now."""
    if action is None:
        return f"{index} ({ACTION_NAMES[index]})"
    if action.kind in (ActionKind.FOLD, ActionKind.CHECK):
        return f"{index} ({action.kind})"
    return f"{index} ({action.kind} to {action.to})"
