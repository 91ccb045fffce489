"""Check a hand record against its committed shuffle: the seed, then every card it shows.

The record's ``shuffle`` states the commitment published before the deal, the
server seed revealed after it, each player's seed and the hand id. The seed
must hash to the commitment, and every card the record shows (dealt, burnt, the
R12 community card) must be the card the seeds put at that place in the deck.
Places come from the engine's own dealing order, by replaying the record:
on 3rd street one round of first down cards from the dealer's left, one of
second down cards, one of door cards; then, street by street, a burn card when
the table burns and one card to each player still in (or the community card).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from stud.cards import Card
from stud.game import CardBurned, CardsDealt, CommunityCard, Event
from stud.history.model import HandRecord
from stud.history.replay import replay

SHOWN_PROBLEMS = 5
"""Differing cards named one by one; past that, counted."""


@dataclass(frozen=True, slots=True)
class Place:
    """One card's place in the deck (0 is dealt first) and what it was, as the record says."""

    position: int
    what: str
    card: Card | None


def deck_places(
    events: Iterable[Event], names: Sequence[str] = (), order: Sequence[int] = ()
) -> list[Place]:
    """Where each card of a hand came from in the deck (0 first), from the engine's events.

    ``order`` lists the seat indexes in dealing order when the events' seats are
    numbered otherwise; by default seat 0 is dealt first.
    """
    events = list(events)
    rank = {seat: k for k, seat in enumerate(order)}

    def who(seat: int) -> str:
        return names[seat] if seat < len(names) else f"player {seat + 1}"

    def dealing(seat: int) -> int:
        return rank.get(seat, seat)

    third = sorted(
        (e for e in events if isinstance(e, CardsDealt) and e.street == 3),
        key=lambda e: dealing(e.seat),
    )
    n = len(third)
    places: list[Place] = []
    for k, dealt in enumerate(third):
        cards = [*dealt.down, *dealt.up]
        for round_, label in enumerate(("first down card", "second down card", "door card")):
            card = cards[round_] if round_ < len(cards) else None
            places.append(Place(round_ * n + k, f"{who(dealt.seat)}'s {label}", _card(card)))
    later: list[tuple[tuple[int, int, int], str, Card | None]] = []
    for event in events:
        if isinstance(event, CardsDealt) and event.street > 3:
            card = (event.down or event.up or (None,))[0]
            what = f"{who(event.seat)}'s {_street(event.street)} card"
            later.append(((event.street, 1, dealing(event.seat)), what, _card(card)))
        elif isinstance(event, CardBurned):
            what = f"the burn card of {_street(event.street)}"
            later.append(((event.street, 0, 0), what, _card(event.card)))
        elif isinstance(event, CommunityCard):
            later.append(((7, 1, 0), "the community card", _card(event.card)))
    for position, (_, what, card) in enumerate(sorted(later, key=lambda x: x[0]), start=3 * n):
        places.append(Place(position, what, card))
    return places


def _card(value: Any) -> Card | None:
    return None if value is None else Card(int(value))


def _street(street: int) -> str:
    return {3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street"}.get(
        street, "7th street"
    )


@dataclass
class VerifyReport:
    """What checking one record's shuffle found."""

    name: str
    checked: int = 0
    """Cards the record shows that were compared with the deck."""
    hidden: int = 0
    """Cards dealt that the record does not show (unknown to it: ``??``)."""
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {
            "hand": self.name,
            "ok": self.ok,
            "checked": self.checked,
            "hidden": self.hidden,
            "problems": list(self.problems),
        }

    def text(self) -> str:
        if self.ok:
            hidden = f"; {self.hidden} not shown in the record" if self.hidden else ""
            return (
                f"{self.name}: OK, the seed matches its commitment and all {self.checked} "
                f"cards shown are the ones the seeds deal{hidden}"
            )
        return "\n".join([f"{self.name}: FAILED", *(f"  {p}" for p in self.problems)])


def verify(record: HandRecord, name: str | None = None) -> VerifyReport:
    """Check ``record``'s shuffle: the commitment, then each card it shows; see the module doc."""
    report = VerifyReport(name or record.label)
    shuffle = record.shuffle
    if shuffle is None:
        report.problems.append("the record has no shuffle to check (it names no committed seed)")
        return report
    report.problems += shuffle.problems()
    if len(shuffle.player_seeds) != len(record.seats):
        report.problems.append(
            f"the shuffle lists {len(shuffle.player_seeds)} player seeds for "
            f"{len(record.seats)} players"
        )
    if report.problems:
        return report
    deck = shuffle.deck()
    played = replay(record, report.name)
    if not played.events:
        report.problems += [f"the hand cannot be replayed: {p}" for p in played.problems]
        return report
    differ: list[str] = []
    number = {seat.number: index for index, seat in enumerate(record.seats)}
    order = [number.get(n, -1) for n in shuffle.seats]
    if -1 in order:
        report.problems.append("the shuffle names a seat that is not in the hand")
        return report
    for place in deck_places(played.events, record.names, order):
        if place.card is None:
            report.hidden += 1
            continue
        report.checked += 1
        dealt = Card(deck[place.position])
        if place.card != dealt:
            differ.append(
                f"card {place.position + 1} of the deck, {place.what}, is {place.card} in the "
                f"record but the seeds deal {dealt}"
            )
    if differ:
        report.problems.append(
            f"{len(differ)} of the {report.checked} cards shown are not the ones the seeds deal"
            " (a card or a seed was changed):"
        )
        report.problems += differ[:SHOWN_PROBLEMS]
        if len(differ) > SHOWN_PROBLEMS:
            report.problems.append(f"... and {len(differ) - SHOWN_PROBLEMS} more")
    return report
