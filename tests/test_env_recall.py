"""The perfect-recall observation: every action of the hand, in order, so no two histories meet."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test

from stud.env import SingleSeatEnv, StudEnv, flatten, table_config, unflatten
from stud.envcore import OVER, Core
from stud.envcore.history import history_slots
from stud.envcore.offsets import SIZE, SLOT, SLOT_ACTION, SLOT_STREET
from stud.game import Hand, TableConfig

SEQUENCES = 3_000


def _collisions(config: TableConfig, perfect_recall: bool, sequences: int) -> int:
    """Observations (of any seat, at any step) that stood for two different betting histories.

    Every hand is dealt from one deck; only the random betting differs.
    """
    core = Core(config, perfect_recall=perfect_recall)
    deck = np.random.default_rng(config.seats).permutation(52).tolist()
    pick = random.Random(config.seats * 7 + len(config.game.name))
    # Keyed by Python's 64-bit hash of the observation's bytes (several times faster than
    # a cryptographic digest over millions of them): a false match could only add a
    # collision, never hide one.
    seen: dict[tuple[int, int], tuple[int, ...]] = {}
    collisions = 0
    for _ in range(sequences):
        seat = core.start(Hand(config, deck=deck))
        history: tuple[int, ...] = ()
        while True:
            for observer in range(config.seats):
                key = (observer, hash(core.observe(observer).tobytes()))
                known = seen.setdefault(key, history)
                collisions += known != history
            if seat == OVER:
                break
            legal = np.flatnonzero(core.mask)
            index = int(legal[pick.randrange(len(legal))])
            history = (*history, seat, index)
            seat = core.play(index)
    return collisions


@pytest.mark.slow
@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_no_observation_stands_for_two_betting_histories(game: str) -> None:
    for players in range(2, 9):
        config = table_config(game, players)
        assert _collisions(config, True, SEQUENCES) == 0, (game, players)


@pytest.mark.slow
def test_the_compact_observation_forgets_the_order_the_recall_one_keeps() -> None:
    config = table_config("stud", 3)
    assert _collisions(config, False, SEQUENCES) > 0  # the check finds what recall fixes
    assert _collisions(config, True, SEQUENCES) == 0


def _decoded(history: np.ndarray, observer: int, seats: int) -> list[tuple[int, int, int]]:
    """(seat, index, street) of each used slot, read back from one observer's history rows."""
    out = []
    for row in history:
        if not row.any():
            break
        relative = int(np.flatnonzero(row[:SLOT_ACTION])[0])
        index = int(np.flatnonzero(row[SLOT_ACTION:SLOT_STREET])[0])
        street = int(np.flatnonzero(row[SLOT_STREET:])[0]) + 3
        assert row.sum() == 3  # one seat, one action, one street
        out.append(((observer + relative) % seats, index, street))
    return out


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_the_history_holds_each_action_played_and_the_compact_part_is_unchanged(
    game: str,
) -> None:
    recall = StudEnv(game, players=6, perfect_recall=True)
    compact = StudEnv(game, players=6)
    pick = random.Random(5)
    for number in range(40):
        recall.reset(seed=3 if number == 0 else None)
        compact.reset(seed=3 if number == 0 else None)
        played: list[tuple[int, int, int]] = []
        for agent in recall.agent_iter():
            observation, _, terminated, _, _ = recall.last()
            other, *_ = compact.last()
            seat = int(agent.split("_")[1])
            assert _decoded(observation["history"], seat, 6) == played
            for key, value in other.items():
                np.testing.assert_array_equal(observation[key], value)
            if terminated:
                recall.step(None)
                compact.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            index = int(legal[pick.randrange(len(legal))])
            assert recall.hand is not None
            played.append((seat, index, recall.hand.street))
            recall.step(index)
            compact.step(index)


def test_the_recall_layout_round_trips_and_lies_in_its_space() -> None:
    environment = StudEnv("razz", players=4, perfect_recall=True, observation="flat")
    slots = history_slots(environment.config)
    environment.reset(seed=1)
    space = environment.observation_space("player_0")
    for _agent in environment.agent_iter():
        observation, _, terminated, _, _ = environment.last()
        assert observation["observation"].shape == (SIZE + slots * SLOT,)
        assert space.contains(observation)
        named = unflatten(observation["observation"])
        assert named["history"].shape == (slots, SLOT)
        np.testing.assert_array_equal(flatten(named), observation["observation"])
        environment.step(None if terminated else int(observation["action_mask"].argmax()))
    with pytest.raises(ValueError, match="history slot"):
        unflatten(np.zeros(SIZE + 3, dtype=np.float32))


def test_the_slots_are_one_bound_for_capped_tables_and_grow_without_the_cap() -> None:
    assert {history_slots(table_config("stud", n)) for n in range(2, 9)} == {236}
    lifted = table_config("razz", 2)
    lifted = TableConfig(
        game=lifted.game,
        ante=lifted.ante,
        bring_in=lifted.bring_in,
        small_bet=lifted.small_bet,
        big_bet=lifted.big_bet,
        stacks=lifted.stacks,
        lift_cap_heads_up=True,
    )
    assert history_slots(lifted) > 236
    environment = StudEnv(config=lifted, perfect_recall=True)  # heads-up raising war: all fits
    environment.reset(seed=0)
    for _agent in environment.agent_iter():
        observation, _, terminated, _, _ = environment.last()
        mask = observation["action_mask"]
        action = None if terminated else (3 if mask[3] else int(np.flatnonzero(mask)[-1]))
        environment.step(action)


def test_a_hand_already_under_way_is_refused() -> None:
    config = table_config("stud", 3)
    core = Core(config, perfect_recall=True)
    hand = Hand(config, deck=list(range(52)))
    hand.act(hand.legal_actions()[0])
    with pytest.raises(ValueError, match="from its deal"):
        core.start(hand)


@pytest.mark.parametrize("observation", ["dict", "flat"])
def test_pettingzoo_api_test_passes_with_perfect_recall(observation: str) -> None:
    api_test(StudEnv("stud8", players=3, observation=observation, perfect_recall=True), 200)


def test_the_single_seat_env_takes_the_option() -> None:
    environment = SingleSeatEnv("razz", ["random", "random"], perfect_recall=True)
    observation, _ = environment.reset(seed=4)
    assert observation["history"].shape == (236, SLOT)
    assert environment.observation_space.contains(observation)
