"""Gymnasium's own checker on SingleSeatEnv, and the actions and illegal-action options it needs."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from stud.env import SingleSeatEnv, StudEnv
from stud.game import IllegalActionError, TableConfig

CONFIGURATIONS: list[tuple[str, tuple[str, ...], dict[str, Any]]] = [
    ("razz", ("random",), {}),
    ("stud", ("random", "station"), {"observation": "flat"}),
    ("stud8", ("station",) * 3, {"seat": 1}),
    ("razz", ("random",) * 7, {"observation": "flat", "stacks": 60}),
    ("stud", ("random",), {"perfect_recall": True}),
    ("stud8", ("random", "random"), {"perfect_recall": True, "observation": "flat"}),
    ("razz", ("strong",), {"stacks": 30}),
]


@pytest.mark.parametrize("illegal_action", ["penalize", "random_legal"])
@pytest.mark.parametrize(("game", "opponents", "options"), CONFIGURATIONS)
def test_gymnasiums_check_env_passes(
    game: str, opponents: tuple[str, ...], options: dict[str, Any], illegal_action: str
) -> None:
    environment = SingleSeatEnv(game, opponents, illegal_action=illegal_action, **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning of the checker's fails the test too
        check_env(environment, skip_render_check=True)


def test_each_observation_has_a_mask_of_its_own() -> None:
    environment = SingleSeatEnv("stud", ["random"], seat=0)
    first, _ = environment.reset(seed=2)
    mask = first["action_mask"]
    assert mask.flags.writeable
    kept = mask.copy()
    second, *_ = environment.step(int(np.flatnonzero(mask)[0]))
    assert second["action_mask"] is not mask
    mask[:] = 9  # the learner's own array: writing to it changes nothing else
    np.testing.assert_array_equal(environment.action_masks(), second["action_mask"])
    assert environment.action_masks() is not environment.action_masks()
    assert kept.tolist() != [9] * 5


@pytest.mark.parametrize("kind", ["int", "numpy", "0-d"])
def test_numpy_integers_and_0d_arrays_are_actions(kind: str) -> None:
    for environment in (SingleSeatEnv("razz", ["random"]), SingleSeatEnv("razz", ["random"])):
        observation, _ = environment.reset(seed=9)
        terminated = False
        while not terminated:
            index = int(np.flatnonzero(observation["action_mask"])[-1])
            action = {"int": index, "numpy": np.int64(index), "0-d": np.array(index)}[kind]
            observation, _, terminated, _, _ = environment.step(action)  # type: ignore[arg-type]
    aec = StudEnv("razz", players=2)
    aec.reset(seed=9)
    observation, *_ = aec.last()
    legal = int(np.flatnonzero(observation["action_mask"])[0])
    aec.step(np.array(legal, dtype=np.int32))  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        aec.step(np.array([1]))  # type: ignore[arg-type]


def _illegal(environment: SingleSeatEnv) -> int:
    return int(np.flatnonzero(environment.action_masks() == 0)[0])


def test_an_illegal_action_raises_by_default_and_changes_nothing() -> None:
    environment = SingleSeatEnv("stud", ["random"])
    environment.reset(seed=1)
    assert environment.table.hand is not None
    events = len(environment.table.hand.events)
    with pytest.raises(IllegalActionError, match="not legal"):
        environment.step(_illegal(environment))
    assert len(environment.table.hand.events) == events
    with pytest.raises(ValueError, match="illegal_action"):
        SingleSeatEnv("stud", ["random"], illegal_action="ignore")


def test_penalize_ends_the_episode_with_the_worst_reward() -> None:
    environment = SingleSeatEnv("stud", ["random"], illegal_action="penalize", stacks=800)
    environment.reset(seed=1)
    observation, reward, terminated, truncated, info = environment.step(_illegal(environment))
    assert (reward, terminated, truncated, info) == (-20.0, True, False, {"illegal_action": True})
    assert not observation["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        environment.step(1)
    environment.reset()  # the next hand plays as usual
    assert environment.action_masks().any()
    custom = SingleSeatEnv("stud", ["random"], illegal_action="penalize", illegal_reward=-1.0)
    custom.reset(seed=1)
    assert custom.step(_illegal(custom))[1] == -1.0


def test_random_legal_plays_a_seeded_legal_action_instead() -> None:
    runs = []
    for _ in range(2):
        environment = SingleSeatEnv("razz", ["random"], illegal_action="random legal", seat=0)
        environment.reset(seed=5)
        assert environment.illegal_action == "random_legal"
        steps = []
        terminated = False
        while not terminated:
            _, reward, terminated, _, info = environment.step(_illegal(environment))
            assert info.get("illegal_action") is True
            steps.append(reward)
        assert environment.table.hand is not None
        runs.append((steps, [str(e) for e in environment.table.hand.events]))
    assert runs[0] == runs[1]


def test_with_rake_the_rewards_do_not_sum_to_zero() -> None:
    config = TableConfig(
        game="stud",
        ante=2,
        bring_in=5,
        small_bet=20,
        big_bet=40,
        stacks=(4000, 4000, 4000),
        rake_percent=5,
        rake_third_street=True,
    )
    environment = StudEnv(config=config)
    environment.reset(seed=3)
    totals = dict.fromkeys(environment.possible_agents, 0.0)
    for agent in environment.agent_iter():
        observation, reward, terminated, _, _ = environment.last()
        totals[agent] += reward
        legal = np.flatnonzero(observation["action_mask"])  # bring in, then call or check down
        environment.step(None if terminated else (1 if 1 in legal else int(legal[0])))
    assert environment.hand is not None and environment.hand.result is not None
    rake = environment.hand.result.rake
    assert rake > 0
    assert sum(totals.values()) == pytest.approx(-rake / 40)
