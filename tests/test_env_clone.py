"""Cloning: Hand.copy(), copy.deepcopy and pickle of a Hand and of the environments.

A clone and its original must then go their own ways (acting on one changes
nothing in the other), and an unpickled environment must continue exactly as
the original would: the same observations, masks, rewards and next hands.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from stud.env import SingleSeatEnv, StudEnv, table_config
from stud.game import Hand
from stud.game.state import _ALL_FIELDS as HAND_FIELDS

CLONES: dict[str, Callable[[Any], Any]] = {
    "copy": lambda hand: hand.copy(),
    "copy.copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda thing: pickle.loads(pickle.dumps(thing)),
}


def _state(hand: Hand) -> dict[str, object]:
    """Everything a hand shows: its events, turn, legal actions, stacks and views."""
    return {
        "events": [str(event) for event in hand.events],
        "to_act": hand.to_act,
        "legal": [str(a) for a in hand.legal_actions()] if hand.to_act is not None else [],
        "over": hand.is_over,
        "result": None if hand.result is None else (hand.result.net, hand.result.rake),
        "views": [repr(hand.view(seat)) for seat in range(hand.config.seats)],
    }


def _play(hand: Hand, pick: random.Random, steps: int) -> None:
    for _ in range(steps):
        if hand.is_over:
            return
        legal = hand.legal_actions()
        hand.act(legal[pick.randrange(len(legal))])


@pytest.mark.parametrize("how", list(CLONES))
@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_a_cloned_hand_and_its_original_go_their_own_ways(game: str, how: str) -> None:
    for players, seed in ((2, 1), (5, 2), (8, 3)):
        config = table_config(game, players, stacks=300)
        for start in (0, 3, 9, 40):
            deck = np.random.default_rng(seed + start).permutation(52).tolist()
            hand = Hand(config, deck=deck)
            _play(hand, random.Random(start), start)
            clone = CLONES[how](hand)
            assert clone is not hand
            assert _state(clone) == _state(hand)
            for name in HAND_FIELDS:  # nothing mutable is shared
                mine, theirs = getattr(hand, name), getattr(clone, name)
                if isinstance(mine, list) and mine:
                    assert mine is not theirs, name
            before = _state(hand)
            _play(clone, random.Random(99), 60)  # the clone plays on: the original is untouched
            assert _state(hand) == before
            twin = Hand(config, deck=deck)  # the original plays on as if never cloned
            _play(twin, random.Random(start), start)
            for pick_seed in (5, 6):
                a, b = CLONES[how](hand), CLONES[how](twin)
                _play(a, random.Random(pick_seed), 60)
                _play(b, random.Random(pick_seed), 60)
                assert _state(a) == _state(b)
            _play(hand, random.Random(7), 60)
            _play(twin, random.Random(7), 60)
            assert _state(hand) == _state(twin)


def _run_aec(env: StudEnv, pick: random.Random, steps: int) -> list[tuple[object, ...]]:
    """Up to ``steps`` AEC steps (dealing the next hand when one ends), each as plain values."""
    seen: list[tuple[object, ...]] = []
    for _ in range(steps):
        if not env.agents:
            env.reset()
        agent = env.agent_selection
        observation, reward, terminated, truncated, info = env.last()
        arrays = {name: value.tobytes() for name, value in observation.items()}
        seen.append((agent, arrays, reward, terminated, truncated, dict(info)))
        if terminated or truncated:
            env.step(None)
        else:
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[pick.randrange(len(legal))]))
    return seen


@pytest.mark.parametrize("how", ["deepcopy", "pickle", "copy.copy"])
@pytest.mark.parametrize(
    "options",
    [
        {"game": "stud", "players": 3},
        {"game": "razz", "players": 6, "observation": "flat"},
        {"game": "stud8", "players": 2, "perfect_recall": True},
        {"game": "stud", "players": 8, "perfect_recall": True, "observation": "flat"},
    ],
)
def test_a_cloned_environment_continues_identically_and_independently(
    options: dict[str, Any], how: str
) -> None:
    for cut in (0, 1, 7, 30):
        env = StudEnv(**options)
        env.reset(seed=11)
        _run_aec(env, random.Random(1), cut)
        clone = CLONES[how](env)
        assert clone.hand is not env.hand
        after_clone = _run_aec(clone, random.Random(2), 120)  # the clone goes first, alone
        original = _run_aec(env, random.Random(2), 120)
        assert after_clone == original


def test_an_environment_before_its_first_hand_clones_too() -> None:
    env = StudEnv("razz", players=3)
    clone = pickle.loads(pickle.dumps(env))
    env.reset(seed=4)
    clone.reset(seed=4)
    assert _run_aec(env, random.Random(0), 40) == _run_aec(clone, random.Random(0), 40)


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_cloned_single_seat_env_continues_identically(how: str) -> None:
    choices: list[dict[str, Any]] = [
        {"opponents": ["random", "station"]},
        {"opponents": ["strong"], "perfect_recall": True, "observation": "flat"},
    ]
    for options in choices:
        env = SingleSeatEnv("stud", **options)
        observation, _ = env.reset(seed=3)
        done = env.step(int(np.flatnonzero(observation["action_mask"])[0]))[2]
        clone = CLONES[how](env)
        runs = []
        for table in (clone, env):
            pick = random.Random(8)
            seen = []
            terminated = done
            for _ in range(80):
                if terminated:
                    observation, _ = table.reset()
                legal = np.flatnonzero(table.action_masks())
                observation, reward, terminated, _, info = table.step(
                    int(legal[pick.randrange(len(legal))])
                )
                arrays = {name: value.tobytes() for name, value in observation.items()}
                seen.append((arrays, reward, terminated, info, table.seat))
            runs.append(seen)
        assert runs[0] == runs[1]
