"""Player actions and the error an illegal one raises."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ActionKind(StrEnum):
    """What a player can do at their turn (rules.md R4, R9)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BRING_IN = "bring-in"
    COMPLETE = "complete"
    """3rd street: the first full small bet, over the bring-in (R4)."""
    BET = "bet"
    RAISE = "raise"

    @property
    def is_wager(self) -> bool:
        """Complete, bet or raise: a wager that raises the level (PHH ``cbr``)."""
        return self in WAGERS


WAGERS = frozenset({ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE})
"""The kinds PHH writes as ``cbr`` (complete, bet or raise to an amount)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One action: its kind, the street total it brings the seat to, and the seat.

    ``to`` is the seat's total wager on this street after the action, as in
    PHH's ``cbr`` — for a call the level called (or the seat's all-in total),
    for a bring-in the amount posted, 0 for fold and check. ``seat`` may be
    left out when acting for the seat whose turn it is.
    """

    kind: ActionKind
    to: int = 0
    seat: int | None = None

    def __str__(self) -> str:
        who = "" if self.seat is None else f"seat {self.seat} "
        if self.kind in (ActionKind.FOLD, ActionKind.CHECK):
            return f"{who}{self.kind}"
        return f"{who}{self.kind} to {self.to}"

    def to_dict(self) -> dict[str, object]:
        """A JSON-friendly dict: ``{"kind": "raise", "to": 8, "seat": 2}``."""
        return {"kind": self.kind.value, "to": self.to, "seat": self.seat}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Action:
        """The action :meth:`to_dict` wrote; ValueError on an unknown kind."""
        kind = data.get("kind")
        to = data.get("to", 0)
        seat = data.get("seat")
        if (
            not isinstance(kind, str)
            or not isinstance(to, int)
            or not (seat is None or isinstance(seat, int))
        ):
            raise ValueError(f"bad action {data!r}")
        return cls(ActionKind(kind), to, seat)


class IllegalActionError(ValueError):
    """An action the rules do not allow now; the message says why. The hand is unchanged."""
