"""The opponents' answers to the strong bot's wagers, set against what its model expected.

When the bot wagers it writes down, for every live opponent, the model's
chance that he folds to it (:attr:`stud.bots.shares.Versus.modelled`).
His next action in the hand answers it: a fold, or a call or raise. The
answer is counted in his :class:`stud.bots.calibrate.FoldCalibration` once
a view shows it; an answer to a wager someone else raised first is not an
answer to mine and is dropped, as is one the hand never gave.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum

from stud.bots.players import PlayerReads
from stud.bots.ranges import Range
from stud.bots.reads import hand_key
from stud.bots.seen import Seen
from stud.game import Acted, ActionKind, Event, HandView


class Answer(Enum):
    """What the events so far say of one opponent's answer to my wager."""

    PENDING = "pending"
    FOLDED = "folded"
    STAYED = "stayed"
    VOID = "void"
    """No answer to my wager alone (someone raised before him, or it was not a wager)."""


def answer(events: Sequence[Event], start: int, me: int, seat: int) -> Answer:
    """``seat``'s answer to my wager, the first action at or after ``events[start]``."""
    mine = False
    for event in events[start:]:
        if not isinstance(event, Acted):
            continue
        if not mine:
            if event.seat != me or not event.kind.is_wager:
                return Answer.VOID
            mine = True
        elif event.seat == seat:
            return Answer.FOLDED if event.kind is ActionKind.FOLD else Answer.STAYED
        elif event.kind.is_wager:
            return Answer.VOID
    return Answer.PENDING


@dataclass(slots=True)
class _Expected:
    hand: tuple[int | None, ...]
    start: int
    """The index of the event my wager will be."""
    seat: int
    street: int
    back: bool
    """He had wagered on this street: my wager raised his."""
    modelled: float


@dataclass(slots=True)
class Answers:
    """The model's fold chances waiting for their answers (this hand's only)."""

    waiting: list[_Expected] = field(default_factory=list)

    def expect(
        self, view: HandView, seen: Seen, ranges: Sequence[Range], modelled: Sequence[float]
    ) -> None:
        """I am about to wager: wait for every live opponent's answer to it."""
        hand = hand_key(view)
        start = len(view.events)
        for r, chance in zip(ranges, modelled, strict=True):
            opp = r.opponent
            if opp.all_in:
                continue
            back = opp.line.aggressive[seen.street] > 0
            self.waiting.append(_Expected(hand, start, opp.seat, seen.street, back, chance))

    def update(self, view: HandView, reads: PlayerReads) -> None:
        """Count the answers ``view`` shows (``reads`` must have seen it: who sits where)."""
        if not self.waiting or view.viewer is None:
            return
        hand = hand_key(view)
        still: list[_Expected] = []
        for expected in self.waiting:
            if expected.hand != hand:
                continue  # another hand: that one ended without showing an answer
            found = answer(view.events, expected.start, view.viewer, expected.seat)
            if found is Answer.PENDING:
                still.append(expected)
            elif found is not Answer.VOID:
                reads.answered(
                    expected.seat, expected.street, expected.back, expected.modelled,
                    found is Answer.FOLDED,
                )  # fmt: skip
        self.waiting = still
