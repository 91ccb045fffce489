"""A bot's legal actions sorted by what they do: give up, stay in, or wager."""

from __future__ import annotations

from collections.abc import Sequence

from stud.game import Action, ActionKind


class Options:
    """The legal actions sorted by what they do."""

    def __init__(self, legal: Sequence[Action]) -> None:
        self.legal = legal
        self.fold: Action | None = None
        self.check: Action | None = None
        self.call: Action | None = None
        self.bring_in: Action | None = None
        self.wagers: list[Action] = []
        for action in legal:
            kind = action.kind
            if kind is ActionKind.FOLD:
                self.fold = action
            elif kind is ActionKind.CHECK:
                self.check = action
            elif kind is ActionKind.CALL:
                self.call = action
            elif kind is ActionKind.BRING_IN:
                self.bring_in = action
            else:
                self.wagers.append(action)
        self.wagers.sort(key=lambda a: a.to)

    def passive(self) -> Action:
        """Check, call or post the bring-in: stay in for the least."""
        for action in (self.check, self.call, self.bring_in):
            if action is not None:
                return action
        return self.wagers[0] if self.wagers else self.legal[0]

    def give_up(self) -> Action:
        """Check if free, else fold (post the bring-in when that is forced)."""
        if self.check is not None:
            return self.check
        if self.fold is not None:
            return self.fold
        return self.passive()

    def aggressive(self, big: bool = False) -> Action:
        """Complete, bet or raise (the big bet of an open pair when ``big``); else stay in."""
        if not self.wagers:
            return self.passive()
        return self.wagers[-1] if big else self.wagers[0]
