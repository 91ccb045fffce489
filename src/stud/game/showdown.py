"""The end of a hand: pots, rake, who shows and who mucks, and who wins what (R13–R18)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from stud.evaluate import (
    HandValue,
    eight_low_value,
    evaluate_eight_low,
    evaluate_high,
    evaluate_razz,
    high_value,
    razz_value,
)
from stud.game.events import (
    Event,
    HandMucked,
    HandShown,
    NoLowHand,
    Pot,
    PotAwarded,
    PotsFormed,
    ShowdownOrder,
)
from stud.game.order import ace_low_key, showdown_order
from stud.game.pots import build_pots, rake_pots, split
from stud.game.variants import Split, Variant


@dataclass(frozen=True, slots=True)
class Settlement:
    """What the showdown decided: events, chips won per seat, the pots and the awards."""

    events: list[Event]
    won: list[int]
    pots: tuple[Pot, ...]
    awards: tuple[PotAwarded, ...]


def _high_first(cards: Sequence[int]) -> int:
    # R18 high: the winner holding the highest card by suit gets the odd chip first.
    return -max(cards)


def _low_first(cards: Sequence[int]) -> int:
    # R18 low: the winner holding the lowest card by suit (ace low) gets it first.
    return min(ace_low_key(c) for c in cards)


def settle(
    game: Variant,
    committed: Sequence[int],
    live: Sequence[bool],
    hands: Sequence[Sequence[int | None]],
    board: Sequence[int | None],
    last_aggressor: int | None,
    *,
    rake_percent: Fraction | int,
    rake_cap: int | None,
    forced_rake: int | None,
    muck_losing_hands: bool,
) -> Settlement:
    """Form the pots (R17), take the rake, show down (R13) and award every chip (R14–R18).

    ``hands[s]`` is seat ``s``'s own cards, ``None`` where unknown (a replay),
    and ``board`` the R12 community card if there is one; a seat whose cards
    are not all known cannot show and is taken to muck.
    Rake is taken when ``rake_percent`` is above 0 (the caller passes 0 when a
    hand is not raked) or when ``forced_rake`` states it.
    """
    n = len(committed)
    events: list[Event] = []
    pots = build_pots(committed, live)
    if forced_rake is not None:
        pots = rake_pots(pots, Fraction(0), None, forced_rake)
    elif rake_percent:
        pots = rake_pots(pots, rake_percent, rake_cap)
    events.append(PotsFormed(tuple(pots)))
    contenders = [s for s in range(n) if live[s]]
    won = [0] * n
    awards: list[PotAwarded] = []

    def give(p: int, seat: int, amount: int, share: str, value: HandValue | None) -> None:
        won[seat] += amount
        if value is None:
            award = PotAwarded(p, seat, amount, share, None, ())
        else:
            award = PotAwarded(p, seat, amount, share, value.description, tuple(value.cards))
        awards.append(award)
        events.append(award)

    if len(contenders) == 1:
        for p, pot in enumerate(pots):
            give(p, contenders[0], pot.amount - pot.rake, "all", None)
        return Settlement(events, won, tuple(pots), tuple(awards))

    order = showdown_order(n, contenders, last_aggressor)
    events.append(ShowdownOrder(tuple(order)))
    split_rule = game.split
    full: dict[int, list[int]] = {}
    main: dict[int, int] = {}  # the value that wins the pot or its high half; bigger is better
    low8: dict[int, int] = {}  # Stud8 only: the eight-or-better low value, 0 if none
    for seat in contenders:
        known = [c for c in hands[seat] if c is not None]
        known += [c for c in board if c is not None]
        if len(known) != len(hands[seat]) + len(board):
            continue
        full[seat] = known
        if split_rule is Split.LOW:
            main[seat] = razz_value(known)
        else:
            main[seat] = high_value(known)
            if split_rule is Split.HIGH_LOW:
                low8[seat] = eight_low_value(known)

    best_main = [-1] * len(pots)
    best_low = [0] * len(pots)
    shown: set[int] = set()
    high_hand: dict[int, HandValue] = {}
    low_hand: dict[int, HandValue | None] = {}
    for seat in order:
        if seat not in full:
            events.append(HandMucked(seat))
            continue
        show = not muck_losing_hands
        for p, pot in enumerate(pots):
            if seat in pot.seats and (
                main[seat] >= best_main[p]
                or (split_rule is Split.HIGH_LOW and low8[seat] >= max(best_low[p], 1))
            ):
                show = True
        if not show:
            events.append(HandMucked(seat))
            continue
        shown.add(seat)
        for p, pot in enumerate(pots):
            if seat in pot.seats:
                best_main[p] = max(best_main[p], main[seat])
                if split_rule is Split.HIGH_LOW:
                    best_low[p] = max(best_low[p], low8[seat])
        cards = full[seat]
        high: str | None = None
        low: str | None = None
        if split_rule is Split.LOW:
            value = evaluate_razz(cards)
            high_hand[seat] = value
            low = value.description
        else:
            value = evaluate_high(cards)
            high_hand[seat] = value
            high = value.description
            if split_rule is Split.HIGH_LOW:
                low_value = evaluate_eight_low(cards) if low8[seat] else None
                low_hand[seat] = low_value
                low = None if low_value is None else low_value.description
        own = tuple(hands[seat])
        events.append(HandShown(seat, own, high, low))

    def share_out(
        p: int, amount: int, winners: list[int], share: str, low_order: bool, low_half: bool
    ) -> None:
        def key(seat: int) -> int:
            own = [c for c in hands[seat] if c is not None]
            if not own:  # a replay that never saw the cards: seat order
                return 1000 + seat
            return _low_first(own) if low_order else _high_first(own)

        for seat, part in zip(winners, split(amount, winners, key), strict=True):
            value = low_hand.get(seat) if low_half else high_hand.get(seat)
            give(p, seat, part, share, value)

    for p, pot in enumerate(pots):
        net = pot.amount - pot.rake
        eligible = [s for s in pot.seats if s in shown]
        if not eligible:
            # Only in replays where no contender's cards are known: split it evenly.
            share_out(p, net, list(pot.seats), "all", False, False)
            continue
        top = max(main[s] for s in eligible)
        winners = [s for s in eligible if main[s] == top]
        if split_rule is not Split.HIGH_LOW:
            share_out(p, net, winners, "all", split_rule is Split.LOW, False)
            continue
        low_top = max(low8[s] for s in eligible)
        if not low_top:
            events.append(NoLowHand(p))
            share_out(p, net, winners, "all", False, False)
            continue
        low_winners = [s for s in eligible if low8[s] == low_top]
        low_part = net // 2  # R18: the high half takes the odd chip of the split
        share_out(p, net - low_part, winners, "high", False, False)
        share_out(p, low_part, low_winners, "low", True, True)
    return Settlement(events, won, tuple(pots), tuple(awards))
