"""An OpenSpiel policy as a stud bot (stud.spiel.policy_bot): it sees the true information state."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the openspiel extra is NOT installed: pip install -e '.[openspiel]'"
)

from stud.bots import BotError, make_bot, play_hand  # noqa: E402
from stud.cards import Deck  # noqa: E402
from stud.game import Hand  # noqa: E402
from stud.spiel import policy_bot  # noqa: E402


class Recording:
    """An OpenSpiel-style policy: remembers what it saw, puts all weight on the last legal index."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, list[float]]] = []

    def action_probabilities(self, state: Any, player: int) -> dict[int, float]:
        self.seen.append(
            (state.information_state_string(player), state.information_state_tensor(player))
        )
        legal = state.legal_actions(player)
        return {a: float(a == legal[-1]) for a in legal}


@pytest.mark.parametrize(("name", "players"), [("python_razz", 2), ("python_stud8", 4)])
def test_the_bot_sees_the_information_state_of_the_real_game(name: str, players: int) -> None:
    game = pyspiel.load_game(name, {"players": players, "stack": 300})
    for seed in range(6):
        rng = np.random.default_rng(seed)
        state = game.new_initial_state()
        policy = Recording()
        bot = policy_bot(policy, game)
        truth: list[tuple[str, list[float]]] = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(rng.choice([c for c, _ in state.chance_outcomes()])))
                continue
            seat = state.current_player()
            truth.append(
                (state.information_state_string(seat), state.information_state_tensor(seat))
            )
            hand = state.hand
            action = bot.choose(hand.view(seat), tuple(hand.legal_actions()))
            index = next(i for i, a in enumerate(state.core.by_index) if a == action)
            assert index == state.legal_actions()[-1]
            state.apply_action(index)
        assert policy.seen == truth


def test_a_policy_with_no_weight_on_a_legal_action_is_a_bot_error() -> None:
    class Nothing:
        def action_probabilities(self, state: Any, player: int) -> dict[int, float]:
            return {0: 0.0}

    game = pyspiel.load_game("python_razz")
    bot = policy_bot(Nothing(), game)
    hand = Hand(game.config, deck=Deck(seed=1))
    with pytest.raises(BotError, match="no legal action weight"):
        play_hand(hand, [bot, make_bot("random", seed=1)])


def test_a_uniform_open_spiel_policy_plays_whole_hands() -> None:
    from open_spiel.python.policy import UniformRandomPolicy

    game = pyspiel.load_game("python_stud", {"players": 3})
    bot = policy_bot(UniformRandomPolicy(game), game, sample=True, seed=2)
    for seed in range(5):
        hand = Hand(game.config, deck=Deck(seed=seed))
        play_hand(hand, [bot, make_bot("random", seed=seed), make_bot("station")])
        assert hand.result is not None and sum(hand.result.net) == 0
