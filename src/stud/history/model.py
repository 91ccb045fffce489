"""The neutral hand record every reader produces and every writer consumes.

A :class:`HandRecord` says what happened at the table, independent of any
file format: the game and stakes, the seats, the cards each seat was dealt
(``None`` where the record does not know the card), the ordered actions with
their amounts, who showed or mucked, what each seat collected from which pot,
the rake and the finishing stacks. Amounts are ints in the smallest unit (cents for a cash
game in dollars, chips in a tournament); ``decimals`` says how to print them.
Seats are indexed 0..n-1 in table order starting from seat 1 (PHH's ``p1``).

Cards sit in dealing order: positions 0 and 1 are the third-street down
cards, 2 the door card, 3-5 the up cards of 4th-6th street, 6 the river card
(down). A seat that reached the river without a card of its own shares the
``community`` card instead (rules.md R12). A hand the room dealt from a
committed shuffle carries its ``shuffle`` (seeds and all) so anyone can redo
the deck (:mod:`stud.history.verify`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Final, Literal, TypeAlias

from stud.cards import Card
from stud.fairness import Shuffle

__all__ = [
    "Action",
    "Collect",
    "Game",
    "HandRecord",
    "Kind",
    "Muck",
    "Placing",
    "Seat",
    "Show",
    "Slot",
    "Stakes",
    "Tournament",
]
"""The record's vocabulary, which :mod:`stud.history` exports as its own."""

Game: TypeAlias = Literal["stud", "stud8", "razz"]
GAMES: Final[tuple[Game, ...]] = ("stud", "stud8", "razz")

Slot: TypeAlias = Card | None
"""A dealt card, or ``None`` when the record does not say which card it was."""

STREETS: Final = (3, 4, 5, 6, 7)
UP_POSITIONS: Final = frozenset({2, 3, 4, 5})


def street_of_position(position: int) -> int:
    """The street on which the card at ``position`` (0..6) is dealt."""
    return 3 if position < 3 else position + 1


def is_up(position: int) -> bool:
    """Whether the card at ``position`` is dealt face up."""
    return position in UP_POSITIONS


class Kind(StrEnum):
    """What a player did, or (``RETURN``) the uncalled part of a bet given back.

    Every source names wagers alike: on 3rd street a wager is a completion
    while the level is below the small bet, otherwise a bet when nothing is
    in and a raise when something is.
    """

    BRING_IN = "bring_in"
    COMPLETE = "complete"
    BET = "bet"
    RAISE = "raise"
    CALL = "call"
    CHECK = "check"
    FOLD = "fold"
    RETURN = "return"


WAGERS: Final = frozenset({Kind.COMPLETE, Kind.BET, Kind.RAISE})


@dataclass(frozen=True, slots=True)
class Action:
    """One action on one street.

    ``amount`` is the chips the action moves (put in; for ``RETURN`` given
    back) and ``to`` the seat's total wager on the street after it, so a
    raise reads both ways: ``raises $0.02 to $0.04`` and PHH's ``cbr 4``.
    """

    street: int
    seat: int
    kind: Kind
    amount: int = 0
    to: int = 0
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class Stakes:
    """The forced bets and bet sizes. ``bring_in`` is ``None`` when the record never shows it."""

    ante: int
    bring_in: int | None
    small_bet: int
    big_bet: int


@dataclass(frozen=True, slots=True)
class Seat:
    """A player at the table: seat number as the site numbers it, name, stack at the start."""

    number: int
    name: str
    stack: int
    sitting_out: bool = False


@dataclass(frozen=True, slots=True)
class Placing:
    """A seat that finished the tournament in this hand: its place, and its prize if paid.

    PokerStars closes such a hand with ``NAME finished the tournament in 28th
    place`` (``and received $5.70.`` in the money), or for the winner ``NAME
    wins the tournament and receives $12.00 - congratulations!``.
    """

    seat: int
    place: int
    prize: int | None = None


@dataclass(frozen=True, slots=True)
class Tournament:
    """Tournament identity as the site writes it: id, buy-in text, level (roman numerals),
    and the players who finished the tournament in the hand."""

    id: str
    buy_in: str | None = None
    currency: str | None = None
    level: str | None = None
    placings: tuple[Placing, ...] = ()


@dataclass(frozen=True, slots=True)
class Show:
    """A seat shows cards (in dealing order), with the hand description the site printed."""

    seat: int
    cards: tuple[Slot, ...]
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Muck:
    """A seat does not show: it mucks at the showdown, or wins uncontested and keeps its cards."""

    seat: int


@dataclass(frozen=True, slots=True)
class Collect:
    """A seat collects ``amount`` (after rake) from pot ``pot`` (0 main, 1.. side pots)."""

    seat: int
    amount: int
    pot: int = 0


@dataclass(frozen=True)
class HandRecord:
    """One hand as a record says it was played; see the module docstring for conventions."""

    game: Game
    stakes: Stakes
    seats: tuple[Seat, ...]
    cards: tuple[tuple[Slot, ...], ...]
    actions: tuple[Action, ...]
    community: tuple[Slot, ...] = ()
    burn_cards: bool = False
    burns: tuple[Slot, ...] = ()
    shows: tuple[Show | Muck, ...] = ()
    collects: tuple[Collect, ...] = ()
    no_low: tuple[int, ...] = ()
    pots: tuple[int, ...] = ()
    rake: int = 0
    collected: tuple[int, ...] | None = None
    finishing_stacks: tuple[int, ...] | None = None
    currency: str | None = None
    decimals: int = 0
    site: str | None = None
    hand_id: str | None = None
    table: str | None = None
    max_seats: int | None = None
    time: datetime | None = None
    time_zone: str | None = None
    time_et: datetime | None = None
    tournament: Tournament | None = None
    mix: str | None = None
    hero: int | None = None
    idle_seats: tuple[Seat, ...] = ()
    shuffle: Shuffle | None = None
    """The committed shuffle the hand was dealt from, seeds revealed (docs/fairness.md)."""
    notes: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        n = len(self.seats)
        if not 2 <= n <= 8:
            raise ValueError(f"a stud hand has 2 to 8 seats in it, not {n}")
        if len(self.cards) != n:
            raise ValueError(f"cards are given for {len(self.cards)} seats, the hand has {n}")
        for label, values in (("collected", self.collected), ("finishing", self.finishing_stacks)):
            if values is not None and len(values) != n:
                raise ValueError(f"{label} amounts are given for {len(values)} seats, not {n}")
        if self.hero is not None and not 0 <= self.hero < n:
            raise ValueError(f"hero seat index {self.hero} is not in 0..{n - 1}")

    @property
    def starting_stacks(self) -> tuple[int, ...]:
        return tuple(seat.stack for seat in self.seats)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    @property
    def cash(self) -> bool:
        return self.tournament is None

    @property
    def total_pot(self) -> int:
        """The pot before rake, as the summary's ``Total pot`` states it."""
        return sum(self.pots) + self.rake

    @property
    def label(self) -> str:
        """How reports name this hand: its site id when it has one."""
        return f"#{self.hand_id}" if self.hand_id else "(no id)"

    def actions_on(self, street: int) -> Iterator[Action]:
        return (a for a in self.actions if a.street == street)

    def seats_dealt(self, street: int) -> list[int]:
        """Seats that hold a card dealt on ``street`` (the community card does not count)."""
        return [i for i, cards in enumerate(self.cards) if len(cards) >= street]

    def folded_on(self) -> dict[int, int]:
        """Each seat that folded, with the street it folded on."""
        return {a.seat: a.street for a in self.actions if a.kind is Kind.FOLD}

    def shown(self) -> dict[int, Show]:
        return {e.seat: e for e in self.shows if isinstance(e, Show)}

    def live_at_end(self) -> list[int]:
        """Seats that never folded."""
        folded = self.folded_on()
        return [i for i in range(len(self.seats)) if i not in folded]

    @property
    def showdown(self) -> bool:
        """Whether two or more seats were left at the end, so cards were shown down."""
        return len(self.live_at_end()) >= 2

    def collected_by_seat(self) -> list[int]:
        """What each seat collected, from the ``Collect`` events."""
        totals = [0] * len(self.seats)
        for event in self.collects:
            totals[event.seat] += event.amount
        return totals
