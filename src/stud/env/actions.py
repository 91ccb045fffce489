"""The discrete actions, and how the engine's legal actions map onto them.

Five actions cover fixed-limit stud: the engine lists at most fold, check or
call, then one or two wagers (two only on 4th street in Stud after an open
pair: the single or the double bet, R7), or, to open 3rd street, the
bring-in then the completion. Each index stands for the engine's action with
its exact amount (``Action.to``), which the observation's ``amounts`` shows.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from stud.env.layout import ACTION_COUNT, MaskArray
from stud.game import Action, ActionKind

FOLD = 0
CHECK_CALL = 1
BRING_IN = 2
WAGER = 3
"""Complete, bet or raise by one unit (the small bet on 3rd and 4th street, else the big)."""
DOUBLE_WAGER = 4
"""The 4th-street double bet (or raise) that an open pair allows in Stud (R7)."""

ACTION_NAMES = ("fold", "check/call", "bring-in", "complete/bet/raise", "double bet/raise")

_INDEX = {
    ActionKind.FOLD: FOLD,
    ActionKind.CHECK: CHECK_CALL,
    ActionKind.CALL: CHECK_CALL,
    ActionKind.BRING_IN: BRING_IN,
}


def _mask(bits: int) -> MaskArray:
    mask = np.array([(bits >> i) & 1 for i in range(ACTION_COUNT)], dtype=np.int8)
    mask.flags.writeable = False
    return mask


MASKS = tuple(_mask(bits) for bits in range(1 << ACTION_COUNT))
"""The mask of every set of legal indices (read-only; observations get copies)."""

EMPTY: tuple[Action | None, ...] = (None,) * ACTION_COUNT


def index_actions(legal: Sequence[Action]) -> tuple[list[Action | None], int]:
    """The engine's legal actions by index (None where illegal) and the bits of the mask."""
    by_index: list[Action | None] = [None] * ACTION_COUNT
    bits = 0
    wager = WAGER
    for action in legal:
        index = _INDEX.get(action.kind)
        if index is None:  # complete, bet or raise: the smaller amount first
            index = wager
            wager = DOUBLE_WAGER
        by_index[index] = action
        bits |= 1 << index
    return by_index, bits


class Turn(NamedTuple):
    """A seat's legal actions as the environment uses them."""

    by_index: list[Action | None]
    """The engine action of each index, None where illegal."""
    mask: MaskArray
    """The action mask (shared and read-only)."""
    amounts: array[float]
    """Each index's street total in big bets, 0 where illegal (for the observation)."""
    call: int
    """The street total a call brings the seat to (0 if it cannot call)."""


class Turns:
    """:func:`index_actions` remembered for each list of legal actions the engine gives.

    The engine hands out shared Action objects, so a list is known by the
    identities of its actions; the cache keeps the actions alive, so an
    identity is never reused while it is a key.
    """

    LIMIT = 50_000

    def __init__(self, big_bet: int) -> None:
        self._big = big_bet
        self._known: dict[tuple[int, ...], Turn] = {}

    def of(self, legal: Sequence[Action]) -> Turn:
        key = tuple(map(id, legal))
        turn = self._known.get(key)
        if turn is None:
            if len(self._known) >= self.LIMIT:
                self._known.clear()
            by_index, bits = index_actions(legal)
            amounts = array("f", [0.0 if a is None else a.to / self._big for a in by_index])
            call = by_index[CHECK_CALL]
            turn = Turn(by_index, MASKS[bits], amounts, call.to if call is not None else 0)
            self._known[key] = turn
        return turn


def describe(index: int, action: Action | None) -> str:
    """``"3 (raise to 8)"``: an index and what it means now."""
    if action is None:
        return f"{index} ({ACTION_NAMES[index]})"
    if action.kind in (ActionKind.FOLD, ActionKind.CHECK):
        return f"{index} ({action.kind})"
    return f"{index} ({action.kind} to {action.to})"
