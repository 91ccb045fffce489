"""The engine adapter: its per-step views equal the engine's own, in table seats."""

from __future__ import annotations

import random

import pytest

from stud.table.engine import EngineHand, start_engine_hand


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_fast_views_equal_the_engines_views_less_the_log(game: str) -> None:
    rng = random.Random(game)
    for number in range(30):
        players = rng.randint(2, 8)
        seats = sorted(rng.sample(range(8), players))
        stacks = [rng.choice([3, 20, 60, 400]) for _ in seats]
        hand, _ = start_engine_hand(game, 1, 2, 4, 8, stacks, seats, number)
        assert isinstance(hand, EngineHand)
        while True:
            for viewer in [None, *range(players)]:
                fast = hand.view(viewer)
                slow = hand.view(viewer, events=True)
                del slow["events"]
                assert fast == slow, (game, number, viewer)
            if hand.over:
                break
            choice = rng.choice(hand.legal())
            assert hand.actor is not None
            hand.act(hand.actor, choice.action, choice.to)
