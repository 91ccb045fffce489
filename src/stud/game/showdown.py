"""The end of a hand: pots, rake, who shows and who mucks, and who wins what (R13–R18)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from stud.cards import RANK_NAMES, RANK_PLURALS, Card
from stud.evaluate import (
    eight_low_value,
    high_description,
    high_value,
    low_description,
    razz_value,
)
from stud.evaluate.describe import high_display, high_five, low_display, low_five
from stud.game.ctor import fast_constructor, shared_constructor
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
from stud.game.order import ace_low_key, showdown_order, showing_value
from stud.game.pots import build_pots, rake_pots, split
from stud.game.variants import Showing, Split, Variant

FULL_HAND = 5
"""Cards a poker hand is made of; a small game's showdown may have fewer (see _short_hand)."""

_AWARD = shared_constructor(PotAwarded)
_POTS = fast_constructor(PotsFormed)  # pots rarely repeat, and hashing them costs


@dataclass(frozen=True, slots=True)
class Settlement:
    """What the showdown decided: events, chips won per seat, the pots and the awards."""

    events: list[Event]
    won: list[int]
    pots: tuple[Pot, ...]
    awards: tuple[PotAwarded, ...]


_SETTLEMENT = fast_constructor(Settlement)


def _best_five(cards: Sequence[int], value: int, low: bool) -> tuple[int, ...]:
    """The five of ``cards`` that make ``value``, in reading order (as :mod:`stud.evaluate` shows).

    The value fixes the five ranks (and a flush's suit), so nothing is tried:
    of equal cards the highest suits are taken.
    """
    if low:
        return low_display(low_five(cards, value))
    return high_display(high_five(cards, value), value)


def _short_value(split_rule: Split, cards: Sequence[int]) -> int:
    """The value of fewer than five cards (a small game's showdown; bigger is better).

    The R6 order of a showing hand, the same cards in hand: Razz the ace-to-five
    low of the cards, Stud and Stud8 their high by quads, sets and pairs (a
    straight or a flush needs five cards; so does a Stud8 low, so none qualifies).
    """
    return showing_value(Showing.LOW if split_rule is Split.LOW else Showing.HIGH, cards)


def _short_hand(cards: Sequence[int], low: bool) -> tuple[str, tuple[int, ...]]:
    """The words and cards (in reading order) of a hand of fewer than five cards."""
    if low:
        shown = low_display(cards)
        return ",".join(str(card)[0] for card in shown), shown
    counts = Counter(c >> 2 for c in cards)
    order = tuple(Card(c) for c in sorted(cards, key=lambda c: (counts[c >> 2], c), reverse=True))
    groups = sorted(((n, rank) for rank, n in counts.items()), reverse=True)
    (most, top), second = groups[0], groups[1][1] if len(groups) > 1 else 0
    if most == 4:
        words = f"four of a kind, {RANK_PLURALS[top]}"
    elif most == 3:
        words = f"three of a kind, {RANK_PLURALS[top]}"
    elif most == 2 and groups[1][0] == 2:
        words = f"two pair, {RANK_PLURALS[top]} and {RANK_PLURALS[second]}"
    elif most == 2:
        words = f"a pair of {RANK_PLURALS[top]}"
    else:
        words = f"high card {RANK_NAMES[top]}"
    return words, order


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
    forced_rake: int | Sequence[int] | None,
    muck_losing_hands: bool | Sequence[bool],
) -> Settlement:
    """Form the pots (R17), take the rake, show down (R13) and award every chip (R14–R18).

    ``hands[s]`` is seat ``s``'s own cards, ``None`` where unknown (a replay),
    and ``board`` the R12 community card if there is one; a seat whose cards
    are not all known cannot show and is taken to muck. ``muck_losing_hands`` is one choice
    for every seat, or each seat's own.
    Rake is taken when ``rake_percent`` is above 0 (the caller passes 0 when a
    hand is not raked) or when ``forced_rake`` states it (a total, or each
    pot's rake, main pot first: see :func:`~stud.game.pots.rake_pots`).
    """
    n = len(committed)
    pots = build_pots(committed, live)
    if forced_rake is not None:
        pots = rake_pots(pots, Fraction(0), None, forced_rake)
    elif rake_percent:
        pots = rake_pots(pots, rake_percent, rake_cap)
    formed = tuple(pots)
    events: list[Event] = [_POTS(formed)]
    won = [0] * n
    awards: list[PotAwarded] = []
    contenders = [s for s in range(n) if live[s]]
    if len(contenders) == 1:  # everyone else folded (the usual end): no showdown
        winner = contenders[0]
        for p, pot in enumerate(pots):
            amount = pot.amount - pot.rake
            won[winner] += amount
            award = _AWARD(p, winner, amount, "all", None, ())
            awards.append(award)
            events.append(award)
        return _SETTLEMENT(events, won, formed, tuple(awards))

    def give(
        p: int, seat: int, amount: int, share: str, hand: tuple[str, tuple[int, ...]] | None
    ) -> None:
        won[seat] += amount
        if hand is None:
            award = _AWARD(p, seat, amount, share, None, ())
        else:
            award = _AWARD(p, seat, amount, share, hand[0], hand[1])
        awards.append(award)
        events.append(award)

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
        if len(known) < FULL_HAND:
            main[seat] = _short_value(split_rule, known)
            if split_rule is Split.HIGH_LOW:
                low8[seat] = 0
        elif split_rule is Split.LOW:
            main[seat] = razz_value(known)
        else:
            main[seat] = high_value(known)
            if split_rule is Split.HIGH_LOW:
                low8[seat] = eight_low_value(known)

    best_main = [-1] * len(pots)
    best_low = [0] * len(pots)
    shown: set[int] = set()
    for seat in order:
        if seat not in full:
            events.append(HandMucked(seat))
            continue
        show = not (
            muck_losing_hands if isinstance(muck_losing_hands, bool) else muck_losing_hands[seat]
        )
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
        high: str | None = None
        low: str | None = None
        if len(full[seat]) < FULL_HAND:
            words = _short_hand(full[seat], split_rule is Split.LOW)[0]
            if split_rule is Split.LOW:
                low = words
            else:
                high = words
        elif split_rule is Split.LOW:
            low = low_description(main[seat])
        else:
            high = high_description(main[seat])
            if split_rule is Split.HIGH_LOW and low8[seat]:
                low = low_description(low8[seat])
        events.append(HandShown(seat, tuple(hands[seat]), high, low))

    made: dict[tuple[int, bool], tuple[str, tuple[int, ...]]] = {}

    def winning_hand(seat: int, low_half: bool) -> tuple[str, tuple[int, ...]] | None:
        """The words and five cards of a winner's hand (its low with ``low_half``)."""
        if seat not in full:
            return None
        hand = made.get((seat, low_half))
        if hand is None:
            cards = full[seat]
            if len(cards) < FULL_HAND:  # a small game: no low half, the cards as they are
                hand = _short_hand(cards, split_rule is Split.LOW)
            elif low_half:
                value = low8[seat]
                hand = (low_description(value), _best_five(cards, value, True))
            elif split_rule is Split.LOW:
                value = main[seat]
                hand = (low_description(value), _best_five(cards, value, True))
            else:
                value = main[seat]
                hand = (high_description(value), _best_five(cards, value, False))
            made[(seat, low_half)] = hand
        return hand

    def share_out(
        p: int, amount: int, winners: list[int], share: str, low_order: bool, low_half: bool
    ) -> None:
        def key(seat: int) -> int:
            own = [c for c in hands[seat] if c is not None]
            if not own:  # a replay that never saw the cards: seat order
                return 1000 + seat
            return _low_first(own) if low_order else _high_first(own)

        for seat, part in zip(winners, split(amount, winners, key), strict=True):
            give(p, seat, part, share, winning_hand(seat, low_half))

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
    return _SETTLEMENT(events, won, formed, tuple(awards))
