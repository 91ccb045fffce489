"""Hands the engine plays with random legal actions, as records: the project's own sample hands.

Tests, docs and ``stud`` commands need real-looking hands that belong to the
project; these are played by :mod:`stud.game` from a seeded deck, so the same
seed always gives the same hands.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any, cast

from stud.cards import Deck
from stud.game import Action, Hand, TableConfig, variant
from stud.history.from_engine import record_from_hand
from stud.history.model import Game, HandRecord, Tournament

NAMES = ("Ada", "Brook", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")
CASH_STAKES = (1, 2, 4, 8)
"""Cents: ante $0.01, bring-in $0.02, $0.04/$0.08, as at PokerStars' smallest stud tables."""
TOURNAMENT_STAKES = (10, 15, 50, 100)


def play_randomly(hand: Hand, rng: random.Random, *, smallest: bool = False) -> Hand:
    """Act for every seat until the hand is over: a uniformly chosen kind of legal action.

    ``smallest`` always takes the smallest of two legal wager amounts (no
    open-pair big bet), for comparisons with tools that lack that rule.
    """
    while not hand.is_over:
        legal = hand.legal_actions()
        kinds = list(dict.fromkeys(a.kind for a in legal))
        kind = rng.choice(kinds)
        choices = [a for a in legal if a.kind is kind]
        action: Action = choices[0] if smallest else rng.choice(choices)
        hand.act(action)
    return hand


def _stack(rng: random.Random, ante: int, small: int, cash: bool) -> int:
    """Mostly a comfortable stack; now and then a short one, so all-ins and side pots happen."""
    if rng.random() < 0.3:
        return rng.randrange(ante + 1, small * 8)
    default = 200 if cash else 3000
    return rng.randrange(default // 4, default * 2)


def sample_hand(
    game: Game,
    players: int,
    seed: int,
    *,
    cash: bool = True,
    stacks: int | None = None,
    rake_percent: int = 5,
    rake_cap: int | None = 30,
    **options: bool,
) -> HandRecord:
    """One hand of ``game`` at a table of ``players``, played from ``seed``.

    Cash hands are in cents with a 5% rake capped at $0.30 (as in the
    PokerStars records); tournament hands are in chips without rake.
    """
    rng = random.Random(seed)
    ante, bring_in, small, big = CASH_STAKES if cash else TOURNAMENT_STAKES
    chips = tuple(stacks or _stack(rng, ante, small, cash) for _ in range(players))
    config = TableConfig(
        game=variant(game),
        ante=ante,
        bring_in=bring_in,
        small_bet=small,
        big_bet=big,
        stacks=chips,
        rake_percent=Fraction(rake_percent if cash else 0),
        rake_cap=rake_cap if cash else None,
        **cast("dict[str, Any]", options),  # the table's on/off options (TableConfig checks them)
    )
    hand = play_randomly(Hand(config, deck=Deck(seed=seed)), rng)
    hero = rng.randrange(players)
    return record_from_hand(
        hand,
        names=NAMES[:players],
        seat_numbers=sorted(rng.sample(range(1, 9), players)),
        hand_id=str(100_000_000_000 + seed),
        table=f"Sample {game} {seed % 7 + 1}",
        max_seats=8,
        time=datetime(2024, 1, 1, 9, 30) + timedelta(minutes=seed),
        time_zone="ET",
        currency="USD" if cash else None,
        decimals=2 if cash else 0,
        site="PokerStars",
        tournament=None if cash else Tournament(str(3_000_000 + seed % 5), "$10+$1", "USD", "II"),
        hero=hero,
    )


def sample_hands(count: int, seed: int = 0) -> Iterator[HandRecord]:
    """``count`` hands cycling through the games, table sizes 2-8, cash and tournament."""
    games: tuple[Game, ...] = ("stud", "stud8", "razz")
    for i in range(count):
        yield sample_hand(games[i % 3], 2 + (i * 5) % 7, seed + i, cash=i % 4 != 3)
