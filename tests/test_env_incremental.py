"""The incrementally written observations equal a from-scratch build, bit for bit, every step.

The environment's encoder keeps every seat's observation written and
changes only what each action touched; a new hand clears only what the last
one wrote. Here, at every step of a thousand hands (all three games, 2 to 8
seats, short and deep stacks), every agent's observation is compared bit
for bit with the one a brand-new core builds from the hand's whole event
list, and the dict form (another environment played in step) with the flat
one. ``tests/test_env_privacy.py`` compares the same observations with an
encoding made independently from the engine's ``Hand.view``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from stud.env import StudEnv, flatten
from stud.envcore import Core
from stud.game import TableConfig
from test_env_privacy import _configs as privacy_tables

pytestmark = pytest.mark.slow


def _tables() -> list[TableConfig]:
    """The privacy test's tables (every game, short and deep stacks) of 2, 5 and 8 seats."""
    return [config for config in privacy_tables() if config.seats in (2, 5, 8)]


def _bits(vector: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(vector, dtype=np.float32).view(np.uint32)


@pytest.mark.parametrize("config", _tables(), ids=lambda c: f"{c.game}-{c.seats}-{c.stacks[0]}")
def test_each_observation_equals_a_build_from_scratch(config: TableConfig) -> None:
    flat = StudEnv(config=config, observation="flat")
    named = StudEnv(config=config, observation="dict")
    pick = random.Random(config.seats * 13 + config.stacks[0])
    flat.reset(seed=config.seats)
    named.reset(seed=config.seats)
    steps = 0
    for _ in range(60):
        flat.reset()
        named.reset()
        hand = flat.hand
        assert hand is not None
        for agent in flat.agent_iter():
            assert named.agent_selection == agent
            scratch = Core(config)  # nothing carried over: every event of the hand replayed
            scratch.start(hand)
            for other in flat.agents:
                seat = int(other.split("_")[1])
                mine = flat.observe(other)
                np.testing.assert_array_equal(
                    _bits(mine["observation"]), _bits(scratch.observe(seat)), err_msg=other
                )
                np.testing.assert_array_equal(mine["action_mask"], scratch.mask_of(seat))
                theirs = named.observe(other)
                np.testing.assert_array_equal(_bits(flatten(theirs)), _bits(mine["observation"]))
                np.testing.assert_array_equal(theirs["action_mask"], mine["action_mask"])
            _, reward, terminated, _, _ = flat.last()
            if terminated:
                assert named.last()[1] == reward
                flat.step(None)
                named.step(None)
                continue
            legal = np.flatnonzero(flat.observe(agent)["action_mask"])
            index = int(legal[int(pick.random() * len(legal))])
            flat.step(index)
            named.step(index)
            steps += 1
        assert named.agents == []
    assert steps > 60
