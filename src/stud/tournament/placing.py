"""Busts, places and prizes as a tournament emits them.

The standings (:mod:`~stud.tournament.places`) say who finished where and
:mod:`~stud.tournament.payouts` what each place is paid; this module turns
them into the tournament's outputs: a ``busted`` event for each player out,
the ``placings`` of a hand for its history's closing lines, and the ``prize``
effects not yet credited. A hand-for-hand round's busts are placed as one
hand's (:func:`round_busts`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from stud.table import Effect, Event
from stud.tournament.places import Bust, Finish
from stud.tournament.state import Entrant

Round = tuple[int, int, list[dict[str, Any]], list[Bust]]
"""One table's hand in a hand-for-hand round: (table, hand number, the hand's players, busts)."""


def round_busts(rounds: Sequence[Round]) -> list[Bust]:
    """A hand-for-hand round's busts as one hand's: by chips at the start of their hands
    (:class:`~stud.tournament.places.Standings`); of equal ones, by table number, then
    deal order."""
    busts: list[Bust] = []
    for _, _, _, table_busts in sorted(rounds, key=lambda r: r[0]):
        busts += [
            Bust(b.account_id, b.start_stack, len(busts) + k) for k, b in enumerate(table_busts)
        ]
    return busts


def bust_tables(
    table_id: int | None, busts: Sequence[Bust], rounds: Sequence[Round] | None
) -> dict[int, int | None]:
    """The table each busted player was at: ``table_id``'s hand, or a round's tables."""
    tables = {b.account_id: table_id for b in busts}
    for round_table, _, _, table_busts in rounds or []:
        tables.update({b.account_id: round_table for b in table_busts})
    return tables


def busted_events(
    busts: Sequence[Bust],
    tables: Mapping[int, int | None],
    finishes: Sequence[Finish],
    entrants: Mapping[int, Entrant],
    alive: int,
) -> list[Event]:
    """A ``busted`` event for each player out: name, table, place, and the players left."""
    places = {f.account_id: f for f in finishes}
    events = []
    for bust in busts:
        name = entrants[bust.account_id].name
        place = places[bust.account_id].place
        busted = {"id": bust.account_id, "name": name, "table": tables[bust.account_id],
                  "place": place, "players_left": alive}  # fmt: skip
        events.append(Event("busted", busted))
    return events


def placings_event(
    table_id: int,
    players: Sequence[dict[str, Any]],
    busts: Sequence[Bust],
    hand: int,
    finishes: Sequence[Finish],
    winner: int | None,
) -> Event | None:
    """The ``placings`` of a hand, for its history's closing lines: each busted player (and
    the ``winner``) by their index in the hand, place and prize (None when out of the
    money); None when nobody was placed in it."""
    by_account = {f.account_id: f for f in finishes}
    placed = [b.account_id for b in busts]
    order = {p["account_id"]: index for index, p in enumerate(players)}
    if winner is not None and winner in order:
        placed.append(winner)
    if not placed:
        return None
    placed = sorted((a for a in placed if a in order), key=lambda a: -by_account[a].place)
    rows = [[order[a], by_account[a].place, by_account[a].prize or None] for a in placed]
    return Event("placings", {"table": table_id, "hand": hand, "placings": rows})


def prize_effects(
    finishes: Sequence[Finish], paid: set[int], entrants: Mapping[int, Entrant]
) -> list[Effect]:
    """A ``prize`` effect for each place decided in the money and not yet in ``paid``
    (which it adds them to: a prize is credited once)."""
    effects = []
    for finish in finishes:
        if finish.prize > 0 and finish.account_id not in paid:
            paid.add(finish.account_id)
            effects.append(
                Effect(
                    "prize",
                    {
                        "account_id": finish.account_id,
                        "amount": finish.prize,
                        "place": finish.place,
                        "bot": entrants[finish.account_id].bot,
                    },
                )
            )
    return effects
