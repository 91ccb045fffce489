"""The five discrete actions, and how the engine's legal actions map onto them.

Five actions cover fixed-limit stud: the engine lists at most fold, check or
call, then one or two wagers (two only on 4th street in Stud after an open
pair: the single or the double bet, R7), or, to open 3rd street, the
bring-in then the completion. Each index stands for the engine's action with
its exact amount (``Action.to``), which the observation's ``amounts`` shows.
Compiled with mypyc with the encoder (see :mod:`stud.envcore`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from stud.envcore.offsets import ACTION_COUNT
from stud.game import Action, ActionKind

ACTION_NAMES: Final = ("fold", "check/call", "bring-in", "complete/bet/raise", "double bet/raise")
"""What each index stands for (docs/rl.md has the table)."""

MaskArray = npt.NDArray[np.int8]

FOLD: Final = 0
CHECK_CALL: Final = 1
BRING_IN: Final = 2
WAGER: Final = 3
"""Complete, bet or raise by one unit (the small bet on 3rd and 4th street, else the big)."""
DOUBLE_WAGER: Final = 4
"""The 4th-street double bet (or raise) that an open pair allows in Stud (R7)."""

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


MASKS: Final = tuple(_mask(bits) for bits in range(1 << ACTION_COUNT))
"""The mask of every set of legal indices (read-only, shared)."""

NO_MASK: Final = MASKS[0]
"""The mask of an agent whose turn it is not."""

EMPTY: Final[tuple[Action | None, ...]] = (None,) * ACTION_COUNT


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


def describe(index: int, action: Action | None) -> str:
    """``"3 (raise to 8)"``: an index and what it means now."""
    if action is None:
        return f"{index} ({ACTION_NAMES[index]})"
    if action.kind is ActionKind.FOLD or action.kind is ActionKind.CHECK:
        return f"{index} ({action.kind.value})"
    return f"{index} ({action.kind.value} to {action.to})"


class Turn:
    """A seat's legal actions as the environment uses them."""

    def __init__(
        self,
        legal: Sequence[Action],
        by_index: Sequence[Action | None],
        mask: MaskArray,
        call: int,
    ) -> None:
        self.legal: tuple[Action, ...] = tuple(legal)
        """The engine's legal actions, in its order."""
        self.by_index: tuple[Action | None, ...] = tuple(by_index)
        """The engine action of each index, None where illegal."""
        self.kinds: tuple[ActionKind | None, ...] = tuple(
            None if a is None else a.kind for a in by_index
        )
        """The kind of each index's action (None where illegal): read natively each step."""
        self.tos: tuple[int, ...] = tuple(0 if a is None else a.to for a in by_index)
        """The street total each index's action brings the seat to (0 where illegal)."""
        self.mask = mask
        """The action mask (shared and read-only)."""
        self.call = call
        """The street total a call brings the seat to (0 if it cannot call)."""

    def stands_for(self, legal: list[Action]) -> bool:
        """Whether ``legal`` is this turn's list: the same action objects, in order."""
        mine = self.legal
        count = len(mine)
        if count != len(legal):
            return False
        index = 0
        while index < count:
            if mine[index] is not legal[index]:
                return False
            index += 1
        return True


class Turns:
    """:func:`index_actions` remembered for each list of legal actions the engine gives.

    The engine hands out shared Action objects, so a list is known by the
    identities of its actions: looked up by its last action's, then checked
    action by action (a seat's last legal action rarely ends two different
    lists). The cache keeps the actions alive, so an identity is never
    reused while it is a key.
    """

    LIMIT: Final = 50_000

    def __init__(self) -> None:
        self._known: dict[int, list[Turn]] = {}
        self._count = 0

    def of(self, legal: list[Action]) -> Turn:
        """The turn of ``legal`` (not empty: a seat is to act)."""
        candidates = self._known.get(id(legal[-1]))
        if candidates is not None:
            for turn in candidates:
                if turn.stands_for(legal):
                    return turn
        if self._count >= self.LIMIT:
            self._known.clear()
            self._count = 0
            candidates = None
        by_index, bits = index_actions(legal)
        call = by_index[CHECK_CALL]
        turn = Turn(legal, by_index, MASKS[bits], call.to if call is not None else 0)
        if candidates is None:
            self._known[id(legal[-1])] = [turn]
        else:
            candidates.append(turn)
        self._count += 1
        return turn
