"""What one seat, or a spectator, may see of a hand.

A seat sees its own down cards and every up card; a spectator only the up
cards; nobody sees a burn card, and another seat's down cards only once that
seat shows them at the showdown (a mucked hand never). Views are built from
the engine's state on request, so a hidden card never reaches them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol

from stud.cards import Card
from stud.game.actions import Action
from stud.game.config import TableConfig
from stud.game.events import CardBurned, CardsDealt, Event, HandShown


def _text(card: int | None) -> str | None:
    return None if card is None else str(Card(card))


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the viewer sees it; ``down`` holds None for each card it may not see."""

    seat: int
    stack: int
    bet: int
    committed: int
    live: bool
    all_in: bool
    shown: bool
    down: tuple[int | None, ...]
    up: tuple[int | None, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "stack": self.stack,
            "bet": self.bet,
            "committed": self.committed,
            "live": self.live,
            "all_in": self.all_in,
            "shown": self.shown,
            "down": [_text(c) for c in self.down],
            "up": [_text(c) for c in self.up],
        }


@dataclass(frozen=True, slots=True)
class HandView:
    """The hand through one seat's eyes (``viewer``), or a spectator's (``viewer`` None)."""

    viewer: int | None
    game: str
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    street: int
    to_act: int | None
    level: int
    pot: int
    seats: tuple[SeatView, ...]
    community: int | None
    legal_actions: tuple[Action, ...]
    """The viewer's legal actions when it is the viewer's turn, else empty."""
    events: tuple[Event, ...]
    """The hand's events with every card the viewer may not see replaced by None."""
    is_over: bool

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict of the whole view (what the server sends a seat)."""
        return {
            "viewer": self.viewer,
            "game": self.game,
            "ante": self.ante,
            "bring_in": self.bring_in,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "street": self.street,
            "to_act": self.to_act,
            "level": self.level,
            "pot": self.pot,
            "seats": [s.to_dict() for s in self.seats],
            "community": _text(self.community),
            "legal_actions": [a.to_dict() for a in self.legal_actions],
            "events": [e.to_dict() for e in self.events],
            "is_over": self.is_over,
        }


def visible_events(events: tuple[Event, ...] | list[Event], viewer: int | None) -> list[Event]:
    """``events`` as ``viewer`` may see them: others' down cards and burns hidden."""
    out: list[Event] = []
    for event in events:
        if isinstance(event, CardsDealt):
            if event.seat != viewer and event.down:
                event = replace(event, down=(None,) * len(event.down))
        elif isinstance(event, CardBurned) and event.card is not None:
            event = replace(event, card=None)
        out.append(event)
    return out


class Viewed(Protocol):
    """What a view reads of a hand (:class:`stud.game.Hand` has it all): the hand builds
    its views from here, so this module names no type of the hand's own."""

    @property
    def config(self) -> TableConfig: ...
    @property
    def events(self) -> tuple[Event, ...]: ...
    @property
    def stacks(self) -> tuple[int, ...]: ...
    @property
    def bets(self) -> tuple[int, ...]: ...
    @property
    def committed(self) -> tuple[int, ...]: ...
    @property
    def live(self) -> tuple[bool, ...]: ...
    @property
    def street(self) -> int: ...
    @property
    def to_act(self) -> int | None: ...
    @property
    def level(self) -> int: ...
    @property
    def pot(self) -> int: ...
    @property
    def community(self) -> int | None: ...
    @property
    def is_over(self) -> bool: ...
    def down_cards(self, seat: int) -> tuple[int | None, ...]: ...
    def up_cards(self, seat: int) -> tuple[int | None, ...]: ...
    def legal_actions(self, seat: int | None = None) -> list[Action]: ...


def make_view(hand: Viewed, viewer: int | None) -> HandView:
    """Build ``viewer``'s view of ``hand`` (see :meth:`Hand.view`)."""
    n = hand.config.seats
    if viewer is not None and not (
        isinstance(viewer, int) and not isinstance(viewer, bool) and 0 <= viewer < n
    ):
        raise ValueError(f"seat {viewer!r} does not exist: this table has seats 0 to {n - 1}")
    events = hand.events
    shown = {e.seat for e in events if isinstance(e, HandShown)}
    stacks, bets, committed, live = hand.stacks, hand.bets, hand.committed, hand.live
    seats = []
    for s in range(n):
        down = hand.down_cards(s)
        if s != viewer and s not in shown:
            down = (None,) * len(down)
        seats.append(
            SeatView(
                seat=s,
                stack=stacks[s],
                bet=bets[s],
                committed=committed[s],
                live=live[s],
                all_in=live[s] and stacks[s] == 0,
                shown=s in shown,
                down=down,
                up=hand.up_cards(s),
            )
        )
    config = hand.config
    legal = (
        tuple(hand.legal_actions(viewer)) if viewer is not None and viewer == hand.to_act else ()
    )
    return HandView(
        viewer=viewer,
        game=config.game.code,
        ante=config.ante,
        bring_in=config.bring_in,
        small_bet=config.small_bet,
        big_bet=config.big_bet,
        street=hand.street,
        to_act=hand.to_act,
        level=hand.level,
        pot=hand.pot,
        seats=tuple(seats),
        community=hand.community,
        legal_actions=legal,
        events=tuple(visible_events(events, viewer)),
        is_over=hand.is_over,
    )
