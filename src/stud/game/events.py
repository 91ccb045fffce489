"""What happens in a hand, as frozen dataclasses the engine appends to ``Hand.events``.

Cards are ints (``rank * 4 + suit``, see :mod:`stud.cards`); a card a viewer
may not see is ``None`` (``"??"`` in PHH). :meth:`Event.to_dict` gives a
JSON-friendly dict with a ``type`` key and cards as text (``"As"``), and
:func:`event_from_dict` reads it back, so the server can send events as they
are and a client or a history writer can rebuild them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from stud.cards import Card
from stud.game.actions import ActionKind

CardOrNone = int | None


def _card_out(card: CardOrNone) -> str | None:
    return None if card is None else str(Card(card))


def _card_in(text: object) -> CardOrNone:
    if text is None or text == "??":
        return None
    if isinstance(text, int):
        return int(Card(text))
    if isinstance(text, str):
        return int(Card.parse(text))
    raise ValueError(f"bad card {text!r}")


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event. ``TYPE`` names it in :meth:`to_dict`."""

    TYPE: ClassVar[str] = "event"
    CARD_FIELDS: ClassVar[frozenset[str]] = frozenset()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict: ``{"type": ..., field: value, ...}``, cards as text."""
        out: dict[str, Any] = {"type": self.TYPE}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in self.CARD_FIELDS:
                if isinstance(value, tuple):
                    value = [_card_out(c) for c in value]
                else:
                    value = _card_out(value)
            elif isinstance(value, Pot):
                value = value.to_dict()
            elif isinstance(value, tuple):
                value = [v.to_dict() if isinstance(v, Pot) else v for v in value]
            elif isinstance(value, ActionKind):
                value = value.value
            out[f.name] = value
        return out


@dataclass(frozen=True, slots=True)
class Pot:
    """A main or side pot: its chips, who may win it, and the rake taken from it."""

    amount: int
    seats: tuple[int, ...]
    rake: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"amount": self.amount, "seats": list(self.seats), "rake": self.rake}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Pot:
        return cls(int(data["amount"]), tuple(int(s) for s in data["seats"]), int(data["rake"]))


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """The hand begins: the game, the stakes and every seat's chips."""

    TYPE: ClassVar[str] = "hand_started"
    game: str
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    stacks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AntePosted(Event):
    """R1: a seat posts its ante (less, and all-in, if it has less)."""

    TYPE: ClassVar[str] = "ante"
    seat: int
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class StreetStarted(Event):
    """A street begins: 3 (third street) to 7 (the river)."""

    TYPE: ClassVar[str] = "street"
    street: int


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """A seat's cards of one street: down cards (hidden from others) and up cards."""

    TYPE: ClassVar[str] = "dealt"
    CARD_FIELDS: ClassVar[frozenset[str]] = frozenset({"down", "up"})
    seat: int
    street: int
    down: tuple[CardOrNone, ...]
    up: tuple[CardOrNone, ...]


@dataclass(frozen=True, slots=True)
class CardBurned(Event):
    """R12 option: a burn card; its face is in no view."""

    TYPE: ClassVar[str] = "burn"
    CARD_FIELDS: ClassVar[frozenset[str]] = frozenset({"card"})
    street: int
    card: CardOrNone


@dataclass(frozen=True, slots=True)
class CommunityCard(Event):
    """R12: too few cards for 7th street, so one card face up is shared by all."""

    TYPE: ClassVar[str] = "community"
    CARD_FIELDS: ClassVar[frozenset[str]] = frozenset({"card"})
    card: CardOrNone


@dataclass(frozen=True, slots=True)
class DoubleBetAllowed(Event):
    """R7: an open pair on 4th street in Stud ("Pair on board - a double bet is allowed")."""

    TYPE: ClassVar[str] = "double_bet_allowed"
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Acted(Event):
    """A seat acts: ``amount`` chips go in, bringing its street total ``to``.

    ``by`` is how far a complete, bet or raise lifts the level (PokerStars'
    "raises $by to $to"), 0 for other kinds.
    """

    TYPE: ClassVar[str] = "action"
    seat: int
    kind: ActionKind
    amount: int
    to: int
    by: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class ActorTrusted(Event):
    """Replay: an unknown card hid whose turn it was, so the record's seat was taken."""

    TYPE: ClassVar[str] = "actor_trusted"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class BettingCapped(Event):
    """R10: the round has its bet and three raises; only calls and folds remain."""

    TYPE: ClassVar[str] = "capped"
    street: int


@dataclass(frozen=True, slots=True)
class UncalledBetReturned(Event):
    """R17: the part of a bet nobody called goes back to its bettor."""

    TYPE: ClassVar[str] = "uncalled"
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class PotsFormed(Event):
    """R17: the main pot and side pots, each with who may win it and its rake."""

    TYPE: ClassVar[str] = "pots"
    pots: tuple[Pot, ...]


@dataclass(frozen=True, slots=True)
class ShowdownOrder(Event):
    """R13: the order in which the remaining seats show."""

    TYPE: ClassVar[str] = "showdown"
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandShown(Event):
    """A seat shows all its cards, with its hand described (high and/or low)."""

    TYPE: ClassVar[str] = "show"
    CARD_FIELDS: ClassVar[frozenset[str]] = frozenset({"cards"})
    seat: int
    cards: tuple[CardOrNone, ...]
    high: str | None
    low: str | None


@dataclass(frozen=True, slots=True)
class HandMucked(Event):
    """A seat gives up its hand at the showdown without showing it."""

    TYPE: ClassVar[str] = "muck"
    seat: int


@dataclass(frozen=True, slots=True)
class NoLowHand(Event):
    """R15: nobody in this pot has an eight-or-better low; the high hand takes it all."""

    TYPE: ClassVar[str] = "no_low"
    pot: int


@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """A pot, or its high or low half, or a share of a split, goes to a seat.

    ``share`` is ``"all"``, ``"high"`` or ``"low"``; ``hand`` describes the
    winning hand and ``cards`` its five cards (both empty when uncontested).
    """

    TYPE: ClassVar[str] = "award"
    CARD_FIELDS: ClassVar[frozenset[str]] = frozenset({"cards"})
    pot: int
    seat: int
    amount: int
    share: str
    hand: str | None
    cards: tuple[CardOrNone, ...]


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The last chip is awarded: every seat's final stack."""

    TYPE: ClassVar[str] = "hand_ended"
    stacks: tuple[int, ...]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        HandStarted,
        AntePosted,
        StreetStarted,
        CardsDealt,
        CardBurned,
        CommunityCard,
        DoubleBetAllowed,
        Acted,
        ActorTrusted,
        BettingCapped,
        UncalledBetReturned,
        PotsFormed,
        ShowdownOrder,
        HandShown,
        HandMucked,
        NoLowHand,
        PotAwarded,
        HandEnded,
    )
}
"""Every event class by its ``TYPE``."""


def event_from_dict(data: dict[str, Any]) -> Event:
    """Rebuild the event :meth:`Event.to_dict` wrote; ValueError if it is not one."""
    cls = EVENT_TYPES.get(data.get("type", ""))
    if cls is None:
        raise ValueError(f"unknown event type {data.get('type')!r}")
    kwargs: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            raise ValueError(f"event {cls.TYPE!r} lacks field {f.name!r}")
        value = data[f.name]
        if f.name in cls.CARD_FIELDS:
            value = (
                tuple(_card_in(c) for c in value) if isinstance(value, list) else _card_in(value)
            )
        elif f.name == "pots":
            value = tuple(Pot.from_dict(p) for p in value)
        elif f.name == "kind":
            value = ActionKind(value)
        elif isinstance(value, list):
            value = tuple(value)
        kwargs[f.name] = value
    return cls(**kwargs)
