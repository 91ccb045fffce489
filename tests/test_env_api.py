"""The PettingZoo environment: PettingZoo's own API and seed tests, rewards, bad input."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from stud.env import DOUBLE_WAGER, FOLD, SIZE, WAGER, StudEnv, env, flatten, unflatten
from stud.game import IllegalActionError, TableConfig, variant

# What api_test says of any environment whose observation is a dict, and of the
# empty mask a seat has once the hand is over; anything else fails the test.
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
    "Action mask numpy array is all zeros",
)


def _api_test(environment: object, cycles: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(environment, num_cycles=cycles)
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)
    ]
    assert not unexpected


CASES = [
    (game, players, mode)
    for game in ("stud", "stud8", "razz")
    for players, mode in ((2, "dict"), (3, "flat"), (6, "dict"), (8, "flat"))
]


@pytest.mark.parametrize(("game", "players", "mode"), CASES)
def test_pettingzoo_api_test(game: str, players: int, mode: str) -> None:
    _api_test(StudEnv(game, players=players, observation=mode), cycles=300)


@pytest.mark.parametrize(("game", "players", "mode"), CASES)
def test_pettingzoo_seed_test(game: str, players: int, mode: str) -> None:
    seed_test(lambda: StudEnv(game, players=players, observation=mode), num_cycles=300)


def test_wrapped_env_passes_the_api_test() -> None:
    _api_test(env(game="razz", players=4), cycles=100)


def _play(environment: StudEnv, rng: random.Random) -> dict[str, float]:
    """One hand with random legal actions; each agent's final reward."""
    rewards: dict[str, float] = {}
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, info = environment.last()
        assert not truncated
        if terminated:
            rewards[agent] = reward
            assert info["chips"] == round(reward * environment.config.big_bet)
            environment.step(None)
            continue
        assert reward == 0
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(int(rng.choice(list(legal))))
    return rewards


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_rewards_are_the_hands_net_chips_in_big_bets_and_conserve_chips(game: str) -> None:
    environment = StudEnv(game, players=5, big_bet=40, small_bet=20)
    environment.reset(seed=3)
    rng = random.Random(3)
    for _ in range(200):
        environment.reset()
        hand = environment.hand
        rewards = _play(environment, rng)
        assert hand is not None and hand.result is not None
        assert rewards == {f"player_{s}": net / 40 for s, net in enumerate(hand.result.net)}
        assert sum(hand.result.net) == 0
        assert environment.agents == []


def test_same_seed_same_hands_and_different_seed_different_hands() -> None:
    def deal(seed: int) -> list[tuple[int | None, ...]]:
        environment = StudEnv("stud", players=4)
        environment.reset(seed=seed)
        out = []
        for _ in range(5):
            environment.reset()
            assert environment.hand is not None
            out.append(environment.hand.down_cards(0))
        return out

    assert deal(11) == deal(11)
    assert deal(11) != deal(12)


def test_an_illegal_index_raises_names_the_legal_ones_and_changes_nothing() -> None:
    environment = StudEnv("razz", players=3)
    environment.reset(seed=2)
    agent = environment.agent_selection
    before = environment.observe(agent)
    mask = before["action_mask"]
    assert mask[FOLD] == 0  # the bring-in seat opens: bring-in or complete, no fold
    events = len(environment.hand.events) if environment.hand else 0
    for bad in (FOLD, DOUBLE_WAGER, 7, -1, None, True, 2.5):
        with pytest.raises(IllegalActionError, match=r"legal|index"):
            environment.step(bad)  # type: ignore[arg-type]
    assert environment.agent_selection == agent
    assert environment.hand is not None and len(environment.hand.events) == events
    after = environment.observe(agent)
    for key in before:
        np.testing.assert_array_equal(before[key], after[key])


def test_dead_agents_step_only_with_none() -> None:
    environment = StudEnv("stud", players=2)
    environment.reset(seed=1)
    while not environment.terminations[environment.agent_selection]:
        mask = environment.observe(environment.agent_selection)["action_mask"]
        environment.step(FOLD if mask[FOLD] else int(np.flatnonzero(mask)[0]))
    with pytest.raises(ValueError, match="None"):
        environment.step(WAGER)
    environment.step(None)
    environment.step(None)
    assert environment.agents == []
    with pytest.raises(RuntimeError, match="reset"):
        environment.step(None)


def test_stepping_before_reset_says_so() -> None:
    with pytest.raises(RuntimeError, match="reset"):
        StudEnv("razz").step(1)


def test_the_4th_street_double_bet_is_its_own_action_with_its_exact_amount() -> None:
    environment = StudEnv("stud", players=8, ante=1, bring_in=2, small_bet=4, big_bet=8)
    environment.reset(seed=0)
    seen = 0
    for _ in range(400):
        environment.reset()
        for _agent in environment.agent_iter():
            observation, _, terminated, _, _ = environment.last()
            if terminated:
                environment.step(None)
                continue
            mask = observation["action_mask"]
            if mask[DOUBLE_WAGER]:
                seen += 1
                assert observation["street"][1] == 1 and observation["table"][4] == 1
                assert observation["amounts"][WAGER] * 8 == 4  # the single bet: 4 chips
                assert observation["amounts"][DOUBLE_WAGER] * 8 == 8  # the double: 8 chips
                environment.step(DOUBLE_WAGER)
                continue
            environment.step(1 if mask[1] else int(np.flatnonzero(mask)[0]))
    assert seen > 0


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="2 to 8"):
        StudEnv("stud", players=9)
    with pytest.raises(ValueError, match="unknown game"):
        StudEnv("holdem")
    with pytest.raises(ValueError, match="observation"):
        StudEnv("stud", observation="pixels")
    with pytest.raises(ValueError, match="3 stacks given for 2"):
        StudEnv("stud", stacks=(100, 100, 100))
    with pytest.raises(ValueError, match="bring_in"):
        StudEnv("stud", bring_in=50)
    with pytest.raises(ValueError, match="render_mode"):
        StudEnv("stud", render_mode="rgb_array")


def test_a_table_config_gives_every_engine_option() -> None:
    config = TableConfig(
        game=variant("stud8"), ante=1, bring_in=2, small_bet=4, big_bet=8,
        stacks=(50, 60, 70), burn_cards=True, lift_cap_heads_up=True,
    )  # fmt: skip
    environment = StudEnv(config=config)
    environment.reset(seed=4)
    assert environment.possible_agents == ["player_0", "player_1", "player_2"]
    assert environment.hand is not None and environment.hand.config is config
    rewards = _play(environment, random.Random(4))
    assert sum(rewards.values()) == 0


def test_flat_and_dict_observations_are_the_same_numbers() -> None:
    flat_env = StudEnv("razz", players=4, observation="flat")
    dict_env = StudEnv("razz", players=4, observation="dict")
    flat_env.reset(seed=9)
    dict_env.reset(seed=9)
    for _ in range(12):
        agent = flat_env.agent_selection
        vector = flat_env.observe(agent)
        parts = dict_env.observe(agent)
        assert vector["observation"].shape == (SIZE,)
        np.testing.assert_array_equal(flatten(parts), vector["observation"])
        for key, value in unflatten(vector["observation"]).items():
            np.testing.assert_array_equal(value, parts[key])
        assert flat_env.observation_space(agent).contains(vector)
        assert dict_env.observation_space(agent).contains(parts)
        legal = int(np.flatnonzero(vector["action_mask"])[-1])
        flat_env.step(legal)
        dict_env.step(legal)


def test_observations_are_fresh_arrays() -> None:
    environment = StudEnv("stud", players=3, observation="flat")
    environment.reset(seed=5)
    agent = environment.agent_selection
    first = environment.observe(agent)
    first["observation"][:] = 7
    np.testing.assert_array_less(environment.observe(agent)["observation"][:52], 2)


def test_render_shows_only_up_cards() -> None:
    environment = StudEnv("stud", players=3, render_mode="ansi")
    environment.reset(seed=8)
    text = environment.render()
    assert isinstance(text, str) and "[?? ??]" in text and "to act" in text
    hand = environment.hand
    assert hand is not None
    from stud.cards import Card

    for seat in range(3):
        for card in hand.down_cards(seat):
            assert card is not None and str(Card(card)) not in text


def test_final_observations_are_fresh_arrays_of_their_own() -> None:
    environment = StudEnv("razz", players=4, observation="flat")
    environment.reset(seed=11)
    while not environment.terminations[environment.agent_selection]:
        mask = environment.observe(environment.agent_selection)["action_mask"]
        environment.step(int(np.flatnonzero(mask)[0]))
    finals = [environment.observe(agent)["observation"] for agent in environment.agents]
    again = [environment.observe(agent)["observation"] for agent in environment.agents]
    for seat, (first, second) in enumerate(zip(finals, again, strict=True)):
        np.testing.assert_array_equal(first, second)
        assert first.shape == (SIZE,) and first.flags.writeable
        assert not np.shares_memory(first, second)
        for other in finals[seat + 1 :]:
            assert not np.shares_memory(first, other)
    finals[0][:] = -1  # the caller's own memory: nothing else changes
    np.testing.assert_array_equal(environment.observe("player_0")["observation"], again[0])
    np.testing.assert_array_equal(finals[1], again[1])


def test_a_subclass_keeps_the_methods_it_overrides() -> None:
    class Counting(StudEnv):
        steps = 0

        def step(self, action: int | np.integer[Any] | None) -> None:
            Counting.steps += 1
            super().step(action)

    environment = Counting("razz", players=2)
    environment.reset(seed=1)
    environment.step(int(np.flatnonzero(environment.last()[0]["action_mask"])[0]))
    assert Counting.steps == 1
