"""A record of a hand the engine played, built from its events, ready for any writer.

``record_from_hand(hand)`` turns a finished :class:`stud.game.Hand` into a
:class:`HandRecord`; ``record_from_events`` does the same from an event list
(``hand.events``, or events read back with ``event_from_dict``). The engine
knows every card, so the record does too; which seat's down cards a
PokerStars ``Dealt to`` line shows is the ``hero`` given here or to the writer.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from stud.cards import Card
from stud.game import (
    Acted,
    ActionKind,
    CardBurned,
    CardsDealt,
    CommunityCard,
    Event,
    Hand,
    HandEnded,
    HandMucked,
    HandShown,
    HandStarted,
    NoLowHand,
    PotAwarded,
    PotsFormed,
    StreetStarted,
    UncalledBetReturned,
)
from stud.history.ledger import Ledger
from stud.history.model import (
    GAMES,
    WAGERS,
    Action,
    Collect,
    Game,
    HandRecord,
    Kind,
    Muck,
    Seat,
    Show,
    Slot,
    Stakes,
    Tournament,
)

KINDS = {
    ActionKind.FOLD: Kind.FOLD,
    ActionKind.CHECK: Kind.CHECK,
    ActionKind.CALL: Kind.CALL,
    ActionKind.BRING_IN: Kind.BRING_IN,
    ActionKind.COMPLETE: Kind.COMPLETE,
    ActionKind.BET: Kind.BET,
    ActionKind.RAISE: Kind.RAISE,
}


def description(game: Game, high: str | None, low: str | None) -> str | None:
    """A shown hand as PokerStars puts it: ``two pair, ...``, ``HI: ...; LO: ...``, ``Lo: ...``."""
    if game == "razz":
        return None if low is None else f"Lo: {low}"
    if game == "stud8":
        if high is None:
            return None
        return f"HI: {high}" + (f"; LO: {low}" if low else "")
    return high


def record_from_hand(hand: Hand, **meta: Any) -> HandRecord:
    """The record of a finished hand; ``meta`` as for :func:`record_from_events`."""
    if not hand.is_over:
        raise ValueError("the hand is not over yet")
    meta.setdefault("burn_cards", hand.config.burn_cards)
    return record_from_events(hand.events, **meta)


def _card(card: int | None) -> Slot:
    return None if card is None else Card(card)


def record_from_events(
    events: Sequence[Event],
    *,
    names: Sequence[str] | None = None,
    seat_numbers: Sequence[int] | None = None,
    hand_id: str | None = None,
    table: str | None = None,
    max_seats: int | None = None,
    time: datetime | None = None,
    time_zone: str | None = None,
    currency: str | None = None,
    decimals: int = 0,
    site: str | None = None,
    tournament: Tournament | None = None,
    hero: int | None = None,
    burn_cards: bool = False,
) -> HandRecord:
    """Build a record from a complete hand's events (``HandStarted`` to ``HandEnded``).

    ``names`` default to ``Seat 1``..., ``seat_numbers`` to 1..n; amounts stay
    in the engine's units, printed with ``decimals`` (2 for cents).
    """
    if not events or not isinstance(events[0], HandStarted):
        raise ValueError("the events must start with HandStarted")
    start = events[0]
    if start.game not in GAMES:
        raise ValueError(f"unknown game {start.game!r}")
    game: Game = start.game
    n = len(start.stacks)
    stakes = Stakes(start.ante, start.bring_in, start.small_bet, start.big_bet)
    ledger = Ledger(stakes, start.stacks)
    forced = start.bring_in >= start.small_bet  # the bring-in seat must complete (R4)
    for seat in range(n):
        ledger.post_ante(seat, min(start.ante, start.stacks[seat]))
    cards: list[list[Slot]] = [[] for _ in range(n)]
    community: list[Slot] = []
    burns: list[Slot] = []
    actions: list[Action] = []
    shows: list[Show | Muck] = []
    awards: list[PotAwarded] = []
    no_low: list[int] = []
    pots: list[int] = []
    rake = 0
    finishing: tuple[int, ...] | None = None
    street = 3
    for event in events[1:]:
        if isinstance(event, StreetStarted):
            street = event.street
            ledger.start_street(street)
        elif isinstance(event, CardsDealt):
            cards[event.seat].extend(_card(c) for c in event.down[:2])
            cards[event.seat].extend(_card(c) for c in event.up)
            cards[event.seat].extend(_card(c) for c in event.down[2:])
        elif isinstance(event, CardBurned):
            burns.append(_card(event.card))
        elif isinstance(event, CommunityCard):
            community.append(_card(event.card))
        elif isinstance(event, Acted):
            kind = KINDS[event.kind]
            if kind in WAGERS:
                kind = ledger.wager_kind()  # named as every reader names it
            if forced and street == 3 and not any(a.street == 3 for a in actions):
                kind = Kind.BRING_IN  # the forced completion is the bring-in, as PokerStars says
            action = Action(street, event.seat, kind, event.amount, event.to, event.all_in)
            ledger.apply(action)
            actions.append(action)
        elif isinstance(event, UncalledBetReturned):
            actions.append(ledger.give_back(event.seat, event.amount))
        elif isinstance(event, PotsFormed):
            pots = [p.amount - p.rake for p in event.pots]
            rake = sum(p.rake for p in event.pots)
        elif isinstance(event, HandShown):
            shown = tuple(_card(c) for c in event.cards)
            shows.append(Show(event.seat, shown, description(game, event.high, event.low)))
        elif isinstance(event, HandMucked):
            shows.append(Muck(event.seat))
        elif isinstance(event, NoLowHand):
            no_low.append(event.pot)
        elif isinstance(event, PotAwarded):
            awards.append(event)
        elif isinstance(event, HandEnded):
            finishing = tuple(event.stacks)
    if finishing is None:
        raise ValueError("the events end before the hand does")
    # PokerStars pays the last side pot first; within a pot, the order the engine awarded.
    collects = [Collect(a.seat, a.amount, a.pot) for a in sorted(awards, key=lambda a: -a.pot)]
    collected = [0] * n
    for c in collects:
        collected[c.seat] += c.amount
    labels = list(names) if names is not None else [f"Seat {i + 1}" for i in range(n)]
    numbers = list(seat_numbers) if seat_numbers is not None else list(range(1, n + 1))
    if len(labels) != n or len(numbers) != n:
        raise ValueError(f"give {n} names and seat numbers, one per seat")
    seats = tuple(Seat(numbers[i], labels[i], start.stacks[i]) for i in range(n))
    return HandRecord(
        game=game,
        stakes=stakes,
        seats=seats,
        cards=tuple(tuple(c) for c in cards),
        actions=tuple(actions),
        community=tuple(community),
        burn_cards=burn_cards or bool(burns),
        burns=tuple(burns),
        shows=tuple(shows),
        collects=tuple(collects),
        no_low=tuple(no_low),
        pots=tuple(pots),
        rake=rake,
        collected=tuple(collected),
        finishing_stacks=finishing,
        currency=currency,
        decimals=decimals,
        site=site,
        hand_id=hand_id,
        table=table,
        max_seats=max_seats,
        time=time,
        time_zone=time_zone,
        tournament=tournament,
        hero=hero,
    )
