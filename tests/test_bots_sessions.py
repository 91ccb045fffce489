"""Every bot stays legal over long sessions of random tables, with what it learnt carried along.

Bots that read their opponents change their play as their reads grow, so
legality is checked over sessions, not single hands: random games, table
sizes, stakes and short stacks (all-ins, side pots, short wagers), every
registered bot seated, players moving seats each hand, the same bot objects
throughout. ``ask`` refuses any illegal answer; chips are conserved each hand.
"""

from __future__ import annotations

import random

import pytest

from stud.bots import BOTS, ask, make_bot, observe
from stud.cards import Deck
from stud.game import Hand, TableConfig, variant

GAMES = ("stud", "stud8", "razz")


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("table", range(3))
def test_every_bot_stays_legal_over_a_session(game: str, table: int) -> None:
    rng = random.Random(f"{game}-{table}")
    names = sorted(BOTS)
    seats = rng.randint(2, 8)
    players = [names[(table * 3 + i) % len(names)] for i in range(seats)]
    if "strong" not in players:
        players[0] = "strong"
    bots = [make_bot(name, rng.randrange(2**32)) for name in players]
    small = rng.choice([2, 4, 10])
    hands = 0
    for n in range(150):
        stacks = tuple(rng.randint(1, 40 * small) for _ in range(seats))
        config = TableConfig(
            game=variant(game), ante=rng.randint(0, small // 2), bring_in=rng.randint(1, small),
            small_bet=small, big_bet=2 * small, stacks=stacks,
        )  # fmt: skip
        shift = n % seats
        order = [(s + shift) % seats for s in range(seats)]
        hand = Hand(config, deck=Deck(seed=rng.randrange(2**32)))
        for place, player in enumerate(order):
            observe(bots[player], hand.view(place), order)
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            hand.act(ask(bots[order[seat]], hand, seat))
        for place, player in enumerate(order):
            observe(bots[player], hand.view(place), order)
        assert hand.result is not None and sum(hand.result.stacks) == sum(stacks)
        hands += 1
    assert hands == 150
