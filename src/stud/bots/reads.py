"""Table reads: how often the opponents fold, call and raise, over every hand the bot saw.

Only the betting in the bot's own views feeds it (the views hold no hidden
card), so it is the kind of read any player at the table builds. Seats change
hands in simulations and rooms, so the read is of the table as a whole, not of
a seat. Priors of a tight-aggressive table keep the first hands sane.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from stud.game import Acted, ActionKind, CardsDealt, HandView, StreetStarted

PRIOR_WEIGHT = 30.0
PRIOR_FOLD = 0.45
"""Share of decisions facing a wager that a tight table folds."""
PRIOR_RAISE = 0.15
"""Share of decisions facing a wager that a tight table raises."""


@dataclass(slots=True)
class Reads:
    """Counts of the opponents' decisions, and the rates a strategy adjusts to."""

    faced: int = 0
    """Decisions facing a wager (the bring-in counts: calling it is a choice)."""
    folds: int = 0
    raises: int = 0
    _hand: tuple[int | None, ...] = field(default=(), repr=False)
    _done: int = field(default=0, repr=False)

    def update(self, view: HandView) -> None:
        """Count the opponents' decisions in ``view`` not counted yet (views of one hand grow)."""
        hand = hand_key(view)
        start = self._done if hand == self._hand else 0
        self._hand = hand
        events = view.events
        self._done = len(events)
        if start >= len(events):
            return
        level = 0
        bets: dict[int, int] = {}
        for i, event in enumerate(events):
            if isinstance(event, StreetStarted):
                level = 0
                bets = {}
            elif isinstance(event, Acted):
                facing = level > bets.get(event.seat, 0)
                if i >= start and event.seat != view.viewer and facing:
                    self.faced += 1
                    if event.kind is ActionKind.FOLD:
                        self.folds += 1
                    elif event.kind.is_wager:
                        self.raises += 1
                if event.kind is not ActionKind.FOLD and event.kind is not ActionKind.CHECK:
                    bets[event.seat] = event.to
                    level = max(level, event.to)

    @property
    def fold_rate(self) -> float:
        """How often an opponent facing a wager folds (prior-smoothed)."""
        return (self.folds + PRIOR_WEIGHT * PRIOR_FOLD) / (self.faced + PRIOR_WEIGHT)

    @property
    def raise_rate(self) -> float:
        """How often an opponent facing a wager raises (prior-smoothed)."""
        return (self.raises + PRIOR_WEIGHT * PRIOR_RAISE) / (self.faced + PRIOR_WEIGHT)

    @property
    def raise_meaning(self) -> float:
        """How much a raise says about the cards: 1 at a tight table, less at a wild one."""
        return max(0.25, min(1.5, PRIOR_RAISE / max(self.raise_rate, 1e-6)))

    @property
    def call_meaning(self) -> float:
        """How much a call says: little at a table that never folds."""
        return max(0.1, min(1.2, self.fold_rate / PRIOR_FOLD))

    @property
    def folds_to_pressure(self) -> float:
        """How well bluffs and steals work here, 1 at a tight table, 0 against calling stations."""
        return max(0.0, min(2.0, self.fold_rate / PRIOR_FOLD))


def hand_key(view: HandView) -> tuple[int | None, ...]:
    """What tells one hand from another in a bot's views: its seat and the first cards dealt."""
    for event in view.events:
        if isinstance(event, CardsDealt) and event.seat == view.viewer:
            return (view.viewer, *event.down, *(s.up[0] if s.up else None for s in view.seats))
    return (view.viewer,)
