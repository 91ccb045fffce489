"""Each street's share of the pot per seat in a finished hand, from the cards one viewer may
see: the replayer's equity chart (``GET /api/hands/{id}/equity``).

The record given is already cut to what the viewer may see
(:func:`stud.server.http.histories.for_viewer`, or an imported file, which holds only what
its owner saw): every card it does not know is ``None`` and stays unknown here, so a
folded player's down cards are never used, only counted as unseen dead cards. On each
street the players still in hold the cards dealt to them so far (the down cards of those
who showed them down included, as the replay shows them); the up cards of players who
folded earlier are dead. :func:`stud.equity.equity` counts the shares: exactly when the
run-outs number at most :data:`EXACT_LIMIT`, else from :data:`SAMPLES` run-outs drawn from
a seed fixed by the hand, so an answer never changes between two calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from stud.cards import Card
from stud.equity import equity
from stud.history import HandRecord
from stud.history.model import STREETS

EXACT_LIMIT: Final = 3_000_000
"""Run-outs enumerated at most for one street (about a fifth of a second of one core)."""
SAMPLES: Final = 50_000
"""Run-outs sampled for a street with more: a standard error of 0.2 percentage point at most,
and about a second of one core for a hand of eight players (tables built for the sampler)."""

Slots = Sequence[Card | None]


def _cards(slots: Slots) -> str:
    return " ".join("??" if card is None else str(card) for card in slots)


def notation(held: Slots, street: int) -> str:
    """A player's cards on ``street`` in the equity notation: ``DOWN | UP`` or, on 7th
    street with a card of its own, ``DOWN | UP | RIVER``."""
    dealt = list(held[:street])
    text = f"{_cards(dealt[:2])} | {_cards(dealt[2:6])}"
    return text + f" | {_cards(dealt[6:7])}" if len(dealt) == 7 else text


def dealt(record: HandRecord, seat: int, street: int) -> bool:
    """Whether ``seat`` holds its cards of ``street`` (on 7th, the community card counts)."""
    held = len(record.cards[seat])
    return held >= street or (street == 7 and held == 6 and bool(record.community))


def streets_reached(record: HandRecord) -> list[tuple[int, list[int]]]:
    """(street, seats still in when it was dealt) for each street dealt to two or more."""
    folded = record.folded_on()
    out = []
    for street in STREETS:
        live = [seat for seat in range(len(record.seats)) if folded.get(seat, 8) >= street]
        if len(live) >= 2 and all(dealt(record, seat, street) for seat in live):
            out.append((street, live))
    return out


def street_spot(record: HandRecord, street: int, live: Sequence[int]) -> dict[str, Any]:
    """What :func:`stud.equity.equity` is given for ``street``: hands, dead cards, community."""
    folded = record.folded_on()
    community = None
    if street == 7 and record.community and all(len(record.cards[s]) < 7 for s in live):
        card = record.community[0]
        community = None if card is None else str(card)
        street_cards = 6
    else:
        street_cards = street
    hands = [notation(record.cards[seat], street_cards) for seat in live]
    dead: list[Card | None] = []
    for seat, when in folded.items():
        if when < street:
            dead += record.cards[seat][:when]
    spot: dict[str, Any] = {"game": record.game, "players": hands, "dead": _cards(dead)}
    if community is not None:
        spot["community"] = community
    return spot


def street_equities(record: HandRecord, seed: int) -> list[dict[str, Any]]:
    """Per street dealt to two or more: the method and each seat's share of the pot
    (``{"street", "method", "runouts", "seats": [record seat, ...], "equity": [...]}``).
    A street the engine cannot count (a record that leaves the deck's size unknown where
    rule R12 needs it) is left out."""
    out = []
    for street, live in streets_reached(record):
        spot = street_spot(record, street, live)
        try:
            result = equity(
                spot["game"],
                spot["players"],
                spot["dead"] or None,
                community=spot.get("community"),
                exact_limit=EXACT_LIMIT,
                samples=SAMPLES,
                seed=seed,
            )
        except ValueError:
            continue
        out.append(
            {
                "street": street,
                "method": result.method,
                "runouts": result.runouts,
                "seats": list(live),
                "equity": [player.equity for player in result.players],
            }
        )
    return out
