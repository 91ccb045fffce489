"""Who brings in, who acts first, who shows first (rules.md R3, R5, R6, R7, R13).

Seats are 0..n-1 clockwise from the dealer's left, so "nearest the dealer's
left" is the lowest seat index. These functions name the seat the rule
points at; the engine then passes the turn clockwise past seats that cannot
act (R5: a seat all-in from its ante). ``None`` stands for an unknown card
(a replayed record), in which case the rule may point at several seats.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from stud.evaluate import showing_high_value, showing_razz_value
from stud.game.variants import DoorCard, Showing, Variant

_ACE_LOW_KEY: tuple[int, ...] = tuple(((c >> 2) + 1) % 13 * 4 + (c & 3) for c in range(52))
"""Card order with the ace lowest, suits c < d < h < s (Razz bring-in, low odd chip)."""


def ace_low_key(card: int) -> int:
    """Sort key of a card with the ace low: A♣ is 0, K♠ is 51."""
    return _ACE_LOW_KEY[card]


def bring_in_seats(game: Variant, doors: Sequence[int | None]) -> tuple[int, ...]:
    """R3: the seat whose door card brings in; several candidates if some door cards are unknown.

    Stud/Stud8: the lowest door card, ace high, and within a rank clubs <
    diamonds < hearts < spades (2♦ brings in before 2♥). Razz: the highest
    door card, ace low, the higher suit being the higher card (Q♥ before Q♦).
    """
    best = -1
    best_key = 0
    unknown: list[int] = []
    lowest = game.door_card is DoorCard.LOWEST
    for seat, card in enumerate(doors):
        if card is None:
            unknown.append(seat)
            continue
        key = -card if lowest else _ACE_LOW_KEY[card]
        if best < 0 or key > best_key:
            best, best_key = seat, key
    if not unknown:
        return (best,)
    if best >= 0:
        unknown.append(best)
    return tuple(sorted(unknown))


_RANK_KEY: tuple[int, ...] = tuple(8 ** (c >> 2) for c in range(52))
"""A card's share of a rank-multiset key: at most four cards, so three bits a rank."""
_SHOWING_MEMO: dict[Showing, dict[int, int]] = {Showing.HIGH: {}, Showing.LOW: {}}


def showing_value(order: Showing, cards: Sequence[int]) -> int:
    """R6 value of 1 to 4 up cards (bigger acts first), by :mod:`stud.evaluate`.

    A showing hand's value depends only on its ranks (suits play no part), so
    values are remembered by rank multiset: the evaluator runs once per shape.
    """
    key = 0
    for card in cards:
        key += _RANK_KEY[card]
    memo = _SHOWING_MEMO[order]
    value = memo.get(key)
    if value is None:
        value_of = showing_high_value if order is Showing.HIGH else showing_razz_value
        value = memo[key] = value_of(cards)
    return value


def first_to_act_seats(
    game: Variant, ups: Sequence[Sequence[int | None]], live: Sequence[bool]
) -> tuple[int, ...]:
    """R6: the live seat with the best showing hand; ties go to the lowest seat.

    High order for Stud and Stud8, ace-to-five low for Razz (both as
    :mod:`stud.evaluate` ranks them: bigger value acts first). Several
    candidates if some up cards are unknown.
    """
    order = game.first_to_act
    best = -1
    best_value = 0
    unknown: list[int] = []
    for seat, cards in enumerate(ups):
        if not live[seat]:
            continue
        if None in cards:
            unknown.append(seat)
            continue
        value = showing_value(order, cast("Sequence[int]", cards))
        if best < 0 or value > best_value:
            best, best_value = seat, value
    if not unknown:
        return (best,)
    if best >= 0:
        unknown.append(best)
    return tuple(sorted(unknown))


def open_pair_seats(ups: Sequence[Sequence[int | None]], live: Sequence[bool]) -> tuple[int, ...]:
    """R7: live seats whose two up cards on 4th street are a pair."""
    out: list[int] = []
    for seat, cards in enumerate(ups):
        if live[seat] and len(cards) >= 2:
            a, b = cards[0], cards[1]
            if a is not None and b is not None and a >> 2 == b >> 2:
                out.append(seat)
    return tuple(out)


def showdown_order(seats: int, contenders: Sequence[int], last_aggressor: int | None) -> list[int]:
    """R13: the last bettor or raiser of the final round shows first, then clockwise;

    if nobody bet in it, seat order from the dealer's left (seat 0).
    """
    start = last_aggressor if last_aggressor is not None and last_aggressor in contenders else 0
    live = set(contenders)
    return [s for s in ((start + i) % seats for i in range(seats)) if s in live]
