"""The luck of the cards in a finished hand: chance-node control variates (after AIVAT).

In a simulation every card is known, so the luck each card brought can be
taken out of a player's result without biasing it (Burch, Schmid, Moravčík,
Morrill and Bowling, "AIVAT", 2018; DIVAT before it). At every card dealt
(a chance node) a player's luck is

    V(after) - E[V(after) | before]

where V is a fixed value function of the cards and chips so far and the
expectation runs over every card the deck could have dealt there. Given
everything before it the card is uniform over the undealt cards (the bots
do not see the deck), so each term has mean zero whatever V is: the
adjusted result ``net - luck`` has the same expectation as ``net``. A good V
makes ``luck`` track the card-driven part of ``net`` and so removes it.

Here V is a player's all-in value: ``pot * share - committed``, the pot so
far times the player's expected share of it if every live player saw every
card with no more betting (Stud8 halves and ties as the showdown splits
them, R15), less what the player has put in. During a deal the chips do not
move, so a player's luck at a card is ``pot * (share after the card - its
mean over every card that could have come)``. The shares sum to one, so the
luck of a hand sums to zero over the players, as chips do.

The share is computed from all the cards the players hold (folded ones'
too, which are out of the deck; burn cards are not used) by enumerating the
run-outs exactly when there are at most :data:`EXACT` of them and otherwise
over a fixed set of :data:`SAMPLES` run-outs drawn once (a fixed seed per
pool size): V stays one deterministic function, which is all unbiasedness
needs. Every candidate card of a node is valued in one vectorised call, each
through the same run-out indices into its own pool (common random numbers,
so the differences between candidates carry little sampling noise).
Nodes start at :data:`FIRST_STREET`: on 3rd street only the antes are in
the pot and the term would be next to nothing. R12's community card is a
node whose card goes to every live player; where the deck could not give
every live player their own cards (eight players, R12 ahead) V is 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import permutations
from math import perm

import numpy as np
import numpy.typing as npt

from stud.cards import DECK_SIZE
from stud.equity.sample import partial_shuffle
from stud.equity.showdown import hand_values, pot_units, share_units
from stud.game import (
    Acted,
    ActionKind,
    AntePosted,
    CardBurned,
    CardsDealt,
    CommunityCard,
    Event,
    HandStarted,
    UncalledBetReturned,
)

SAMPLES = 64
"""Run-outs per candidate card when they are too many to enumerate."""

EXACT = 300
"""Enumerate the run-outs exactly when there are at most this many (ordered)."""

FIRST_STREET = 4
"""The first street whose cards count as chance nodes."""

HAND_SIZE = 7
SEED = 18
"""The seed of the fixed sampled run-outs (part of V's definition)."""

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]


@cache
def runout_indices(pool: int, missing: int) -> IndexArray:
    """The run-outs V averages over: rows of ``missing`` distinct indices into a pool.

    Every ordered choice when there are at most :data:`EXACT` (uniform over
    the run-outs, hence exact), else :data:`SAMPLES` fixed random ones.
    """
    if missing > pool:
        raise ValueError(f"{missing} cards cannot come from a pool of {pool}")
    if perm(pool, missing) <= EXACT:
        rows = list(permutations(range(pool), missing))
        out = np.array(rows, dtype=np.intp).reshape(len(rows), missing)
    else:
        rng = np.random.default_rng([SEED, pool, missing])
        out = partial_shuffle(rng, SAMPLES, pool, missing).astype(np.intp)
    out.flags.writeable = False
    return out


def shares_after(
    game: str,
    hands: Sequence[Sequence[int]],
    to: Sequence[int],
    pool: npt.NDArray[np.integer],
    candidates: npt.NDArray[np.integer],
) -> FloatArray:
    """V's pot shares, shape (players, candidates), had each candidate card been dealt.

    ``hands`` are the live players' cards so far; the card goes to the players
    numbered in ``to`` (one, or all for R12's community card). ``pool`` holds
    the cards V draws run-outs from (sorted, every candidate among them).
    """
    pool = np.asarray(pool, dtype=np.intp)
    candidates = np.asarray(candidates, dtype=np.intp)
    players = len(hands)
    sizes = [len(h) + (p in to) for p, h in enumerate(hands)]
    if max(sizes) > HAND_SIZE:
        raise ValueError(f"a stud hand holds {HAND_SIZE} cards, not {max(sizes)}")
    missing = [HAND_SIZE - s for s in sizes]
    runouts = runout_indices(len(pool) - 1, sum(missing))
    count, rows = len(candidates), len(runouts)
    # Each candidate's pool is the pool without it: the same indices, shifted past it.
    where = np.searchsorted(pool, candidates)
    if not np.array_equal(pool[np.minimum(where, len(pool) - 1)], candidates):
        raise ValueError("every candidate card must be in the pool")
    columns = np.arange(len(pool) - 1)
    reduced = pool[columns[None, :] + (columns[None, :] >= where[:, None])]
    drawn = reduced[np.arange(count)[:, None, None], runouts[None, :, :]]  # (C, R, missing)
    cards = np.empty((players, count, rows, HAND_SIZE), dtype=np.uint8)
    offset = 0
    for p, hand in enumerate(hands):
        held = len(hand)
        cards[p, :, :, :held] = hand
        if p in to:
            cards[p, :, :, held] = candidates[:, None]
            held += 1
        cards[p, :, :, held:] = drawn[:, :, offset : offset + missing[p]]
        offset += missing[p]
    values = hand_values(game, cards.reshape(-1, HAND_SIZE), check=False)
    columns_by_kind = [list(v.reshape(players, count * rows)) for v in values]
    units = np.stack(share_units(game, columns_by_kind)).reshape(players, count, rows)
    shares: FloatArray = units.mean(axis=2) / pot_units(players)
    return shares


def hand_luck(game: str, events: Sequence[Event]) -> FloatArray:
    """Each seat's luck in chips over one hand's omniscient events (``Hand.events``).

    The sum of ``V(after) - E[V(after) | before]`` over every card from
    :data:`FIRST_STREET` on; zero for a seat that has folded. Sums to zero
    over the seats (up to rounding).
    """
    start = events[0] if events else None
    if not isinstance(start, HandStarted):
        raise ValueError("a hand's events start with HandStarted")
    seats = len(start.stacks)
    luck = np.zeros(seats)
    held: list[list[int]] = [[] for _ in range(seats)]
    live = [True] * seats
    committed = [0] * seats
    out_of_deck: set[int] = set()  # every card dealt, burn cards too: the candidates' complement
    street = 3
    for event in events:
        if isinstance(event, AntePosted):
            committed[event.seat] += event.amount
        elif isinstance(event, Acted):
            committed[event.seat] += event.amount
            if event.kind is ActionKind.FOLD:
                live[event.seat] = False
        elif isinstance(event, UncalledBetReturned):
            committed[event.seat] -= event.amount
        elif isinstance(event, CardBurned):
            if event.card is not None:
                out_of_deck.add(event.card)
        elif isinstance(event, CardsDealt | CommunityCard):
            if isinstance(event, CardsDealt):
                street, to, cards = event.street, [event.seat], [*event.down, *event.up]
            else:
                street, to, cards = HAND_SIZE, [s for s in range(seats) if live[s]], [event.card]
            for card in cards:
                if card is None:
                    raise ValueError("luck needs every card: this record hides one")
                if street >= FIRST_STREET:
                    _node(game, held, live, committed, to, card, out_of_deck, luck)
                out_of_deck.add(card)
                for seat in to:
                    held[seat].append(card)
    return luck


def _node(
    game: str,
    held: list[list[int]],
    live: list[bool],
    committed: list[int],
    to: list[int],
    card: int,
    out_of_deck: set[int],
    luck: FloatArray,
) -> None:
    """Add each live seat's luck at one card (``card`` going to the seats in ``to``)."""
    seats = [s for s in range(len(held)) if live[s]]
    if len(seats) < 2:
        return
    in_hands = {c for hand in held for c in hand}
    pool = np.array([c for c in range(DECK_SIZE) if c not in in_hands], dtype=np.intp)
    missing = sum(HAND_SIZE - len(held[s]) for s in seats) - len(to)
    if missing > len(pool) - 1:
        return  # more cards than the deck holds (8 players, R12 ahead): V is 0 here
    candidates = np.array(
        [c for c in range(DECK_SIZE) if c not in out_of_deck and c not in in_hands],
        dtype=np.intp,
    )
    receivers = tuple(i for i, s in enumerate(seats) if s in to)
    hands = tuple(tuple(held[s]) for s in seats)
    surprise = _surprise(game, hands, receivers, pool.tobytes(), candidates.tobytes(), card)
    luck[seats] += sum(committed) * surprise


@lru_cache(maxsize=64)
def _surprise(
    game: str,
    hands: tuple[tuple[int, ...], ...],
    receivers: tuple[int, ...],
    pool: bytes,
    candidates: bytes,
    card: int,
) -> FloatArray:
    """Each live player's share after ``card`` less its mean over the candidates.

    Cached: the second play of a duplicate deal often reaches the same node
    (the same cards in the same seats, the same players still in), where only
    the pot differs.
    """
    pool_cards = np.frombuffer(pool, dtype=np.intp)
    candidate_cards = np.frombuffer(candidates, dtype=np.intp)
    shares = shares_after(game, hands, receivers, pool_cards, candidate_cards)
    actual = int(np.searchsorted(candidate_cards, card))
    out: FloatArray = shares[:, actual] - shares.mean(axis=1)
    out.flags.writeable = False
    return out
