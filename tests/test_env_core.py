"""The environment's compiled core used directly (the fast path without PettingZoo)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from stud.env import StudEnv
from stud.envcore import OVER, Core
from stud.game import Hand, IllegalActionError


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_the_core_gives_the_environments_observations_and_results(game: str) -> None:
    environment = StudEnv(game, players=5, observation="flat")
    core = Core(environment.config)
    pick = random.Random(3)
    decks = np.random.default_rng(21)  # the environment's decks: reset(seed=21) seeds the same
    for number in range(30):
        environment.reset(seed=21 if number == 0 else None)
        hand = environment.hand
        assert hand is not None
        seat = core.start(Hand(environment.config, deck=decks.permutation(52).tolist()))
        while seat != OVER:
            agent = environment.agent_selection
            assert agent == f"player_{seat}"
            mine = core.flat(seat)
            theirs = environment.observe(agent)
            np.testing.assert_array_equal(mine["observation"], theirs["observation"])
            np.testing.assert_array_equal(mine["action_mask"], theirs["action_mask"])
            legal = np.flatnonzero(mine["action_mask"])
            index = int(legal[pick.randrange(len(legal))])
            seat = core.play(index)
            environment.step(index)
        for other in range(5):  # the final observations agree too
            np.testing.assert_array_equal(
                core.observe(other), environment.observe(f"player_{other}")["observation"]
            )
        assert core.hand is not None and hand.result is not None
        assert core.hand.result is not None and core.hand.result.net == hand.result.net


def test_the_core_refuses_bad_input_and_changes_nothing() -> None:
    environment = StudEnv("razz", players=3)
    core = Core(environment.config)
    with pytest.raises(IllegalActionError, match="start a hand"):
        core.play(1)
    seat = core.start(Hand(environment.config, deck=list(range(52))))
    before = core.observe(seat)
    events = len(core.hand.events) if core.hand else 0
    mask = core.mask
    for bad in (int(np.flatnonzero(mask == 0)[0]), 5, -1):
        with pytest.raises(IllegalActionError, match=r"legal|index"):
            core.play(bad)
    assert core.acting == seat and core.hand is not None and len(core.hand.events) == events
    np.testing.assert_array_equal(core.observe(seat), before)
    with pytest.raises(ValueError, match="seat"):
        core.observe(3)
    with pytest.raises(ValueError, match="seat"):
        core.observe(-1)
    other = StudEnv("razz", players=3, stacks=500).config
    with pytest.raises(ValueError, match="TableConfig"):
        core.start(Hand(other, deck=list(range(52))))
