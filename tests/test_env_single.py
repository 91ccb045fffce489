"""The Gymnasium wrapper: one seat against the project's bots, seeded, rewards in big bets."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from stud.bots import make_bot
from stud.env import SingleSeatEnv, unflatten
from stud.game import Action, HandView


def _last_legal(observation: dict[str, np.ndarray]) -> int:
    return int(np.flatnonzero(observation["action_mask"])[-1])


def _episode(env: SingleSeatEnv) -> tuple[list[np.ndarray], float]:
    observation, _ = env.reset()
    seen = [observation["down"].copy()]
    while True:
        observation, reward, terminated, truncated, info = env.step(_last_legal(observation))
        assert not truncated
        seen.append(observation["down"].copy())
        if terminated:
            assert info["chips"] == round(reward * env.table.config.big_bet)
            return seen, reward
        assert reward == 0.0


@pytest.mark.parametrize("opponents", [["random"], ["strong"], ["station", "random", "strong"]])
def test_same_seed_same_game(opponents: list[str]) -> None:
    def run(seed: int) -> list[tuple[int, float, list[np.ndarray]]]:
        env = SingleSeatEnv("razz", opponents)
        env.reset(seed=seed)
        out = []
        for _ in range(8):
            seen, reward = _episode(env)
            out.append((env.seat, reward, seen))
        return out

    first, again, other = run(5), run(5), run(6)
    assert [(s, r) for s, r, _ in first] == [(s, r) for s, r, _ in again]
    for (_, _, a), (_, _, b) in zip(first, again, strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)
    assert [(s, r) for s, r, _ in first] != [(s, r) for s, r, _ in other]


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_rewards_are_the_learners_net_chips_and_the_table_conserves_chips(game: str) -> None:
    env = SingleSeatEnv(game, ["strong", "random"], big_bet=40, small_bet=20)
    env.reset(seed=2)
    seats = set()
    for _ in range(30):
        _, reward = _episode(env)
        hand = env.table.hand
        assert hand is not None and hand.result is not None
        assert reward == hand.result.net[env.seat] / 40
        assert sum(hand.result.net) == 0
        seats.add(env.seat)
    assert seats == {0, 1, 2}  # the learner is dealt every seat


def test_a_fixed_seat_and_a_bot_object() -> None:
    class Recorder:
        """Calls every time, and keeps the views it was given."""

        def __init__(self) -> None:
            self.views: list[HandView] = []

        def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
            self.views.append(view)
            return make_bot("station").choose(view, legal)

    recorder = Recorder()
    env = SingleSeatEnv("stud", [recorder], seat=1)
    env.reset(seed=3)
    for _ in range(10):
        _episode(env)
        assert env.seat == 1
    assert recorder.views and all(v.viewer == 0 for v in recorder.views)
    for view in recorder.views:  # the bot's own view: the learner's down cards hidden
        assert view.seats[1].down and all(c is None for c in view.seats[1].down)
        assert all(c is not None for c in view.seats[0].down)


def test_the_learner_never_sees_a_bots_down_card() -> None:
    env = SingleSeatEnv("stud8", ["random", "random", "random"], observation="flat")
    observation, _ = env.reset(seed=4)
    for _ in range(200):
        terminated = False
        while True:
            hand = env.table.hand
            assert hand is not None
            cards = unflatten(observation["observation"])
            shown = {int(c) for c in np.flatnonzero(cards["down"])}
            shown |= {int(c) % 52 for c in np.flatnonzero(cards["up"])}
            for seat in range(4):
                if seat != env.seat:
                    assert not shown & set(hand.down_cards(seat))
            if terminated:
                break
            observation, _, terminated, _, _ = env.step(_last_legal(observation))
        observation, _ = env.reset()


def test_action_masks_and_bad_use() -> None:
    env = SingleSeatEnv("razz", ["random"])
    observation, _ = env.reset(seed=1)
    np.testing.assert_array_equal(env.action_masks(), observation["action_mask"])
    assert env.observation_space.contains(observation)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    while True:
        observation, _, terminated, _, _ = env.step(_last_legal(observation))
        if terminated:
            break
    with pytest.raises(RuntimeError, match="reset"):
        env.step(1)
    with pytest.raises(ValueError, match="unknown bot"):
        SingleSeatEnv("razz", ["grandmaster"])
    with pytest.raises(ValueError, match="list of bots"):
        SingleSeatEnv("razz", "random")
    with pytest.raises(ValueError, match="seat"):
        SingleSeatEnv("razz", ["random"], seat=2)
    with pytest.raises(ValueError, match="2 to 8"):
        SingleSeatEnv("razz", ["random"] * 8)
