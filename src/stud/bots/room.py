"""Bots in the card room: the room's JSON views and ``Legal`` actions, turned into the engine's.

The room asks its bots ``choose(view, legal)`` with their seat's hand view (a
dict: the ``hand`` part of the table's view, seats numbered as the table numbers
them) and its ``Legal`` actions (an ``action`` name and a ``to`` amount).
:class:`RoomBot` wraps any :class:`~stud.bots.Bot`: it rebuilds the seat's
:class:`~stud.game.HandView` from the dict, lets the bot choose, and hands back
the room's own ``Legal`` object. It reads only what the view holds, so a bot at
a table sees no more than a person in that seat.

The room also shows its bots the table as a hand is dealt and when it ends
(:meth:`RoomBot.observe`, with who sits in each seat), so a bot that reads its
opponents sees every action, the folds that end a hand included, and follows
each player by account from hand to hand.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from stud.bots.base import Bot, BotError, observe
from stud.cards import Card
from stud.game import Action, ActionKind, HandView, SeatView, event_from_dict

SEAT_KEYS = ("seat", "to_act", "viewer")


class LegalLike(Protocol):
    """What the room's ``stud.table.Legal`` offers: an action name and its amount."""

    @property
    def action(self) -> str: ...

    @property
    def to(self) -> int: ...


L = TypeVar("L", bound=LegalLike)


def _card(text: object) -> int | None:
    if text is None or text == "??":
        return None
    if isinstance(text, int):
        return int(Card(text))
    if isinstance(text, str):
        return int(Card.parse(text))
    raise ValueError(f"bad card {text!r} in a view")


class _Seats:
    """The table's seat numbers back to the engine's 0..n-1 (from the view's seat list)."""

    def __init__(self, table_seats: list[int]) -> None:
        self.order = table_seats
        self.index = {seat: i for i, seat in enumerate(table_seats)}

    def unmap(self, data: Any) -> Any:
        if isinstance(data, dict):
            out: dict[str, Any] = {}
            for key, value in data.items():
                if key in SEAT_KEYS and isinstance(value, int) and not isinstance(value, bool):
                    out[key] = self.index.get(value, value)
                elif (
                    key == "seats"
                    and isinstance(value, list)
                    and all(isinstance(v, int) for v in value)
                ):
                    out[key] = [self.index.get(v, v) for v in value]
                elif key == "stacks" and isinstance(value, dict):
                    out[key] = [value[str(seat)] for seat in self.order]
                else:
                    out[key] = self.unmap(value)
            return out
        if isinstance(data, list):
            return [self.unmap(v) for v in data]
        return data


def view_from_dict(data: Mapping[str, Any]) -> HandView:
    """The :class:`HandView` behind a view dict: ``HandView.to_dict()``, or the room's.

    Takes a hand view (what the room hands its bots: ``table.view(seat)["hand"]``,
    or ``HandView.to_dict()``), which always has a ``viewer`` key, or the table's
    whole view, which has none and whose ``hand`` part is used. Seats are the
    engine's numbers or the table's (the seat list says which).
    """
    hand: object = data
    if "viewer" not in data:
        if "hand" not in data:
            raise ValueError(
                "not a view: a hand view has a 'viewer' key, a table view a 'hand' key;"
                f" this one has {sorted(data)}"
            )
        hand = data["hand"]
    if not isinstance(hand, Mapping):
        raise ValueError("the view holds no hand in progress")
    raw_seats = hand["seats"]
    seats = _Seats([int(s["seat"]) for s in raw_seats])
    plain = seats.unmap(dict(hand))
    seat_views = tuple(
        SeatView(
            seat=int(s["seat"]),
            stack=int(s["stack"]),
            bet=int(s["bet"]),
            committed=int(s["committed"]),
            live=bool(s["live"]),
            all_in=bool(s["all_in"]),
            shown=bool(s["shown"]),
            down=tuple(_card(c) for c in s["down"]),
            up=tuple(_card(c) for c in s["up"]),
        )
        for s in plain["seats"]
    )
    return HandView(
        viewer=plain["viewer"],
        game=str(plain["game"]),
        ante=int(plain["ante"]),
        bring_in=int(plain["bring_in"]),
        small_bet=int(plain["small_bet"]),
        big_bet=int(plain["big_bet"]),
        street=int(plain["street"]),
        to_act=plain["to_act"],
        level=int(plain["level"]),
        pot=int(plain["pot"]),
        seats=seat_views,
        community=_card(plain.get("community")),
        legal_actions=tuple(Action.from_dict(a) for a in plain.get("legal_actions", [])),
        events=tuple(event_from_dict(e) for e in plain.get("events", [])),
        is_over=bool(plain["is_over"]),
    )


class RoomBot:
    """Any bot behind the room's ``choose(view_dict, legal) -> Legal`` protocol."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    def observe(self, view: Mapping[str, Any], players: Mapping[int, Hashable]) -> None:
        """Show the wrapped bot its seat's view (a dict with events) and who sits where.

        ``players`` maps the view's seat numbers (the table's) to who sits
        there (an account); the wrapped bot gets them in the engine's seat order.
        """
        hand_view = view_from_dict(view)
        raw = view["hand"] if "viewer" not in view else view
        order = [int(s["seat"]) for s in raw["seats"]]
        observe(self.bot, hand_view, [players.get(seat, ("seat", seat)) for seat in order])

    def choose(self, view: Mapping[str, Any], legal: Sequence[L]) -> L:
        """One of the room's ``legal`` objects, as the wrapped bot picks it from the view."""
        if not legal:
            raise ValueError("a bot is asked to act with no legal action")
        hand_view = view_from_dict(view)
        seat = hand_view.viewer
        actions = tuple(Action(ActionKind(item.action), item.to, seat) for item in legal)
        choice = self.bot.choose(hand_view, actions)
        for item, action in zip(legal, actions, strict=True):
            if action == choice:
                return item
        raise BotError(f"{type(self.bot).__name__} chose {choice}, not one of {list(actions)}")
