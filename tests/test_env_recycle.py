"""Observation arrays are reused only when nobody holds them (stud.envcore.recycle)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from stud.env import StudEnv, flatten
from stud.envcore.offsets import SIZE


def _snapshot(observation: dict[str, Any]) -> dict[str, np.ndarray]:
    return {key: np.array(value, copy=True) for key, value in observation.items()}


def _vector(observation: dict[str, Any]) -> np.ndarray:
    if "observation" in observation:
        return np.asarray(observation["observation"])
    return flatten(observation)


@pytest.mark.parametrize("mode", ["flat", "dict"])
def test_what_the_caller_keeps_never_changes(mode: str) -> None:
    """Whole observations, single arrays, views of them and buffers all keep their numbers."""
    env = StudEnv("stud", players=6, observation=mode)
    env.reset(seed=3)
    pick = random.Random(3)
    kept: list[tuple[Any, Any]] = []
    for hand in range(40):
        env.reset()
        for step, agent in enumerate(env.agent_iter()):
            observation, _, terminated, _, _ = env.last()
            vector = _vector(observation)
            way = (hand + step) % 5
            if way == 0:  # the whole observation (a replay buffer)
                kept.append((observation, _snapshot(observation)))
            elif way == 1:  # one array of it, the dict let go
                key = "observation" if mode == "flat" else "betting"
                kept.append((observation[key], np.array(observation[key])))
            elif way == 2:  # a view made of one of its arrays
                key = "observation" if mode == "flat" else "up"
                part = observation[key][1:]
                kept.append((part, np.array(part)))
            elif way == 3:  # a buffer of it
                buffer = (vector if mode == "flat" else observation["players"]).data
                kept.append((buffer, np.array(buffer)))
            del observation, vector
            if terminated:
                env.step(None)
            else:
                mask = env.observe(agent)["action_mask"]
                env.step(int(pick.choice(np.flatnonzero(mask))))
    assert len(kept) > 500
    for held, numbers in kept:
        if isinstance(held, dict):
            for key, value in held.items():
                np.testing.assert_array_equal(value, numbers[key])
        else:
            np.testing.assert_array_equal(np.asarray(held), numbers)


@pytest.mark.parametrize("mode", ["flat", "dict"])
def test_numbers_written_into_a_dropped_observation_do_not_come_back(mode: str) -> None:
    """A reused array is written in full: each observation equals one from an untouched table."""
    scribbled = StudEnv("razz", players=3, observation=mode)
    clean = StudEnv("razz", players=3, observation="flat")
    scribbled.reset(seed=8)
    clean.reset(seed=8)
    pick = random.Random(8)
    compared = 0
    for _ in range(30):
        scribbled.reset()
        clean.reset()
        for agent in scribbled.agent_iter():
            assert clean.agent_selection == agent
            observation, _, terminated, _, _ = scribbled.last()
            expected, _, _, _, _ = clean.last()
            np.testing.assert_array_equal(_vector(observation), expected["observation"])
            np.testing.assert_array_equal(observation["action_mask"], expected["action_mask"])
            compared += 1
            for key, value in observation.items():
                if key != "action_mask":  # the mask is shared and read-only
                    value[...] = 7.0
            action = None
            if not terminated:
                action = int(pick.choice(np.flatnonzero(expected["action_mask"])))
            del observation
            scribbled.step(action)
            clean.step(action)
    assert compared > 200


def test_arrays_nobody_holds_are_reused_and_held_ones_are_not() -> None:
    env = StudEnv("stud", players=4, observation="flat")
    env.reset(seed=5)
    agent = env.agent_selection
    first = env.observe(agent)["observation"]
    seen = {id(first)}
    for _ in range(8):  # dropped at once: a few arrays serve every observation
        vector = env.observe(agent)["observation"]
        assert vector.shape == (SIZE,) and vector.flags.writeable
        assert not np.shares_memory(vector, first)
        seen.add(id(vector))
        del vector
    assert len(seen) <= 5
    held = [env.observe(agent)["observation"] for _ in range(12)]  # all kept: all distinct
    for index, vector in enumerate(held):
        for other in held[index + 1 :]:
            assert not np.shares_memory(vector, other)


def _tamper(observation: dict[str, Any], way: int) -> Any:
    """Change the flat dict the way a caller might, returning what it keeps of it (or None)."""
    if way == 0:  # take the vector out and keep it
        return observation.pop("observation")
    if way == 1:  # put another array in its place, keep the vector
        vector = observation["observation"]
        observation["observation"] = np.zeros(3, dtype=np.float32)
        return vector
    if way == 2:  # swap the mask for a key of its own
        del observation["action_mask"]
        observation["mine"] = 1
        return None
    observation["extra"] = "kept"  # one key more
    return None


def test_the_flat_dict_is_reused_only_when_nobody_changed_or_holds_it() -> None:
    """The flat form's dict comes back only untouched; what the caller kept never changes."""
    env = StudEnv("stud8", players=5, observation="flat")
    clean = StudEnv("stud8", players=5, observation="flat")
    env.reset(seed=11)
    clean.reset(seed=11)
    agents = env.possible_agents
    kept: list[tuple[Any, Any]] = []
    whole = env.observe(agents[0])
    whole_numbers = (whole["observation"].copy(), whole["action_mask"].copy())
    for round_ in range(40):
        for agent in agents:
            observation = env.observe(agent)
            expected = clean.observe(agent)
            assert observation is not whole
            assert set(observation) == {"observation", "action_mask"}
            np.testing.assert_array_equal(observation["observation"], expected["observation"])
            np.testing.assert_array_equal(observation["action_mask"], expected["action_mask"])
            if round_ % 3 == 0:
                held = _tamper(observation, (round_ // 3 + len(kept)) % 4)
                if held is not None:
                    kept.append((held, held.copy()))
            del observation, expected
    assert len(kept) >= 10
    for held, numbers in kept:
        np.testing.assert_array_equal(held, numbers)
    assert set(whole) == {"observation", "action_mask"}
    np.testing.assert_array_equal(whole["observation"], whole_numbers[0])
    np.testing.assert_array_equal(whole["action_mask"], whole_numbers[1])
    untouched = set()
    for _ in range(20):  # dropped untouched: a few dicts serve every observation
        untouched.add(id(env.observe(agents[1])))
    assert len(untouched) <= 4
