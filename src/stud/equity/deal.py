"""What is known and what is still to come: the unseen pool, each player's
missing cards, and the community card of rule R12.

Every unknown card (a ``??`` down card, a card still to come) is one of the
unseen cards: the deck less every known card (all players' and the dead
cards). A player's missing cards form one set whatever the order they arrive
in, so a run-out is an assignment of disjoint subsets of the pool, one per
player (and one card for the community when R12 deals it). Their number is

    C(m, k1) * C(m - k1, k2) * ... * C(m - k1 - ... - k(n-1), kn)

(times ``m`` first for an undealt community card), for a pool of m unseen
cards and players missing k1..kn cards: each distinct assignment is counted
once, however many of a player's cards are unknown. Unseen dead cards (``??``
in the dead list) are out of the deck but their identity is as random as the
rest, so they change the deck size (R12) and not the odds or the count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import comb, prod

import numpy as np
import numpy.typing as npt

from stud.cards import DECK_SIZE, Card
from stud.equity.notation import (
    STREET_NAMES,
    Hand,
    as_hand,
    check_distinct,
    check_streets,
    parse_dead,
    tokens,
)
from stud.equity.showdown import check_game

MIN_PLAYERS = 2
MAX_PLAYERS = 8
HAND_SIZE = 7


@dataclass(frozen=True)
class Deal:
    """A table ready to run out: validated, with the pool and what each player lacks."""

    game: str
    hands: tuple[Hand, ...]
    dead: tuple[Card, ...]
    unseen_dead: int
    community: Card | None  # the community card, when R12 has dealt it
    deal_community: bool  # R12 will deal a community card in the run-out
    pool: tuple[int, ...]  # the unseen cards, ascending
    known: tuple[tuple[int, ...], ...]  # each player's known cards (with the community)
    missing: tuple[int, ...]  # how many of the pool each player still gets

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def street(self) -> int:
        return self.hands[0].street

    @property
    def r12(self) -> bool:
        """Whether the community card of rule R12 replaces the 7th-street cards."""
        return self.community is not None or self.deal_community

    @property
    def runouts(self) -> int:
        """The number of distinct run-outs (see the module docstring)."""
        left = len(self.pool)
        total = 1
        if self.deal_community:
            total, left = left, left - 1
        for k in self.missing:
            total *= comb(left, k)
            left -= k
        return total

    def pool_array(self) -> npt.NDArray[np.int64]:
        return np.array(self.pool, dtype=np.int64)


def make_deal(
    game: str,
    players: Sequence[str | Hand],
    dead: str | Iterable[str | int] | None = None,
    community: str | int | None = None,
) -> Deal:
    """Check the table and work out the run-out; ValueError naming any problem."""
    game = check_game(game)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ValueError(
            f"{len(players)} players: equity needs {MIN_PLAYERS} to {MAX_PLAYERS} players"
        )
    hands = tuple(as_hand(p) for p in players)
    street = check_streets(hands)
    dead_cards, unseen_dead = parse_dead(dead)
    shared = _parse_community(community)
    named = [(f"player {i + 1}", h.known) for i, h in enumerate(hands)]
    named.append(("the dead cards", dead_cards))
    if shared is not None:
        named.append(("the community card", [shared]))
    check_distinct(named)

    n = len(hands)
    out_of_deck = len(dead_cards) + unseen_dead
    if (HAND_SIZE - 1) * n + out_of_deck + 1 > DECK_SIZE:
        raise ValueError(
            f"{n} players and {out_of_deck} dead cards need more than {DECK_SIZE} cards"
        )
    # R12: the stub after 6th street cannot give every player a 7th-street card.
    r12 = DECK_SIZE - (HAND_SIZE - 1) * n - out_of_deck < n
    if shared is not None and not r12:
        raise ValueError(
            f"a community card is dealt only when the deck runs out (R12); with {n} players "
            f"and {out_of_deck} dead cards every player gets a 7th-street card"
        )
    if shared is not None and street != HAND_SIZE - 1:
        raise ValueError(
            f"the community card comes after 6th street; the players are on "
            f"{STREET_NAMES[street]} street"
        )
    if r12 and street == HAND_SIZE:
        raise ValueError(
            f"with {n} players and {out_of_deck} dead cards the deck cannot give everyone a "
            "7th-street card: R12 deals one community card instead; give it as the community "
            "card, not as river cards"
        )
    own = HAND_SIZE - 1 if r12 else HAND_SIZE
    known = tuple(
        tuple(int(c) for c in h.known) + ((int(shared),) if shared is not None else ())
        for h in hands
    )
    seen = {c for h in hands for c in h.known} | set(dead_cards)
    if shared is not None:
        seen.add(shared)
    pool = tuple(c for c in range(DECK_SIZE) if c not in seen)
    missing = tuple(own - len(h.known) for h in hands)
    deal = Deal(
        game=game,
        hands=hands,
        dead=tuple(dead_cards),
        unseen_dead=unseen_dead,
        community=shared,
        deal_community=r12 and shared is None,
        pool=pool,
        known=known,
        missing=missing,
    )
    assert sum(missing) + deal.deal_community + unseen_dead <= len(pool)
    assert all(
        len(k) + m == HAND_SIZE - deal.deal_community for k, m in zip(known, missing, strict=True)
    )
    return deal


def _parse_community(community: str | int | None) -> Card | None:
    if community is None:
        return None
    if isinstance(community, int):
        return Card(community)
    cards = tokens(community)
    if not cards:
        return None
    if len(cards) != 1 or cards[0] is None:
        raise ValueError(f"community {community!r}: give the one community card, like 'Qs'")
    return cards[0]


@dataclass(frozen=True)
class Subdeal:
    """A run-out with no community card left to deal: pool, known cards, missing counts."""

    pool: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]
    missing: tuple[int, ...]

    @property
    def runouts(self) -> int:
        left = len(self.pool)
        counts = []
        for k in self.missing:
            counts.append(comb(left, k))
            left -= k
        return prod(counts)


def subdeals(deal: Deal) -> list[Subdeal]:
    """The deal split by community card (one piece when there is none to deal)."""
    if not deal.deal_community:
        return [Subdeal(deal.pool, deal.known, deal.missing)]
    return [
        Subdeal(
            tuple(c for c in deal.pool if c != card),
            tuple((*k, card) for k in deal.known),
            deal.missing,
        )
        for card in deal.pool
    ]
