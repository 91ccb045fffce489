"""Policies as bots (stud.bots.from_policy): the env's observation, the same hands, clear errors."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="the rl extra (gymnasium) is not installed")

from stud.bots import BotError, from_policy, make_bot, parse_bots, play_hand
from stud.cards import Deck
from stud.env import SingleSeatEnv
from stud.game import Hand, TableConfig


def first_legal(observation: Any, mask: np.ndarray) -> int:
    """The env's first legal index: the policy both runs share."""
    return int(np.flatnonzero(mask)[0])


class Recording:
    """A policy that remembers every observation and mask it was given."""

    def __init__(self) -> None:
        self.seen: list[tuple[Any, np.ndarray]] = []

    def __call__(self, observation: Any, mask: np.ndarray) -> int:
        self.seen.append((_copied(observation), mask.copy()))
        return first_legal(observation, mask)


def _copied(observation: Any) -> Any:
    return {key: np.array(value, copy=True) for key, value in observation.items()}


def _same(a: Any, b: Any) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


CASES = [
    ("razz", 1, "dict", False),
    ("stud", 2, "flat", False),
    ("stud8", 3, "dict", True),
    ("razz", 5, "flat", True),
]


@pytest.mark.parametrize(("game", "opponents", "observation", "recall"), CASES)
def test_wrapped_policy_plays_the_env_hands_with_the_env_observations(
    game: str, opponents: int, observation: str, recall: bool
) -> None:
    options: dict[str, Any] = {"observation": observation, "perfect_recall": recall, "stacks": 600}
    for seed in range(12):
        env = SingleSeatEnv(game, ["random"] * opponents, **options)
        obs, _ = env.reset(seed=seed)
        env_seen: list[tuple[Any, np.ndarray]] = []
        done = False
        while not done:
            mask = env.action_masks()
            env_seen.append((_copied(obs), mask))
            obs, _, done, _, _ = env.step(first_legal(obs, mask))
        hand = env.table.hand
        assert hand is not None
        env_events = hand.events

        twin = SingleSeatEnv(game, ["random"] * opponents, **options)
        twin.reset(seed=seed)
        policy = Recording()
        bot = from_policy(policy, game=game, observation=observation, perfect_recall=recall)
        table = twin.table
        twin_hand = table.hand
        assert twin_hand is not None
        while not twin_hand.is_over:
            seat = twin_hand.to_act
            assert seat == twin.seat
            action = bot.choose(twin_hand.view(seat), tuple(twin_hand.legal_actions()))
            twin.step(table.action_index(action))
        assert twin_hand.events == env_events
        assert len(policy.seen) == len(env_seen)
        for (bot_obs, bot_mask), (env_obs, env_mask) in zip(policy.seen, env_seen, strict=True):
            assert _same(bot_obs, env_obs)
            assert np.array_equal(bot_mask, env_mask)


def test_policy_bots_play_whole_hands_at_every_table_size() -> None:
    for game in ("stud", "stud8", "razz"):
        for players in range(2, 9):
            bots = [from_policy(first_legal, game=game)] + [
                make_bot("random", seed=s) for s in range(players - 1)
            ]
            for seed in range(5):
                stacks = tuple(60 + 70 * ((seat + seed) % 4) for seat in range(players))
                config = TableConfig(game, 2, 5, 10, 20, stacks)
                hand = Hand(config, deck=Deck(seed=seed))
                play_hand(hand, bots[-seed % players :] + bots[: -seed % players])
                assert hand.is_over
                assert hand.result is not None and sum(hand.result.net) == 0


def test_an_illegal_index_is_a_clear_bot_error() -> None:
    def always_fold_index_four(observation: Any, mask: np.ndarray) -> int:
        return 4  # double wager: never legal on 3rd street

    bot = from_policy(always_fold_index_four, game="razz")
    config = TableConfig("razz", 2, 5, 20, 40, (4000, 4000))
    hand = Hand(config, deck=Deck(seed=1))
    before = hand.events
    with pytest.raises(BotError, match=r"index 4, which the mask does not allow; legal"):
        play_hand(hand, [bot, bot])
    assert hand.events == before  # nothing was played


def test_an_answer_that_is_no_index_is_a_bot_error() -> None:
    bot = from_policy(lambda observation, mask: "call", game="razz")
    hand = Hand(TableConfig("razz", 2, 5, 20, 40, (4000, 4000)), deck=Deck(seed=2))
    with pytest.raises(BotError, match="a policy returns an action index 0 to 4"):
        play_hand(hand, [bot, bot])


def test_numpy_and_array_answers_are_indices() -> None:
    answers = [np.int64(1), np.array(1), np.array([1])]
    for answer in answers:

        def policy(observation: Any, mask: np.ndarray, a: object = answer) -> object:
            return a

        bot = from_policy(policy, game="stud")
        hand = Hand(TableConfig("stud", 2, 5, 20, 40, (4000, 4000)), deck=Deck(seed=3))
        play_hand(hand, [bot, make_bot("station")])
        assert hand.is_over


def test_a_policy_for_another_game_is_refused() -> None:
    bot = from_policy(first_legal, game="stud")
    hand = Hand(TableConfig("razz", 2, 5, 20, 40, (4000, 4000)), deck=Deck(seed=4))
    with pytest.raises(BotError, match="plays stud, not razz"):
        play_hand(hand, [bot, bot])


def test_module_factory_names_make_bots() -> None:
    assert parse_bots("strong,stud.testing.policies:first_legal_bot") == [
        "strong",
        "stud.testing.policies:first_legal_bot",
    ]
    bot = make_bot("stud.testing.policies:first_legal_bot", 7)
    hand = Hand(TableConfig("razz", 2, 5, 20, 40, (4000, 4000)), deck=Deck(seed=5))
    play_hand(hand, [bot, make_bot("random", seed=1)])
    assert hand.is_over
    with pytest.raises(ValueError, match="cannot import no_such_module"):
        parse_bots("no_such_module:factory")
    with pytest.raises(ValueError, match="has no callable nothing"):
        make_bot("stud.testing.policies:nothing")


def test_a_policy_bot_plays_from_the_card_rooms_views() -> None:
    """The room sends views as dicts (stud.bots.room): the bot plays the same hand from them."""
    from stud.bots import RoomBot
    from stud.table import Legal

    for seed in range(6):
        config = TableConfig("stud8", 2, 5, 10, 20, (300, 300, 300))
        direct = Hand(config, deck=Deck(seed=seed))
        play_hand(direct, [from_policy(first_legal, game="stud8") for _ in range(3)])
        hand = Hand(config, deck=Deck(seed=seed))
        bots = [RoomBot(from_policy(first_legal, game="stud8")) for _ in range(3)]
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            legal = [Legal(a.kind.value, a.to) for a in hand.legal_actions()]
            picked = bots[seat].choose(hand.view(seat).to_dict(), legal)
            hand.act(picked.action, picked.to)
        assert hand.events == direct.events


def test_the_gauntlet_and_sim_play_a_module_factory_bot(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from stud.cli import main

    name = "stud.testing.policies:first_legal_bot"
    argv = ["gauntlet", "razz", "--bot", name, "--opponents", "random", "--deals", "20"]
    assert main([*argv, "--seats", "2", "--no-luck", "--json"]) == 0
    gauntlet = json.loads(capsys.readouterr().out)
    assert gauntlet["bot"] == name
    assert gauntlet["played_hands"] == 40
    assert main(["sim", "stud", "--bots", f"{name},station", "--hands", "30", "--json"]) == 0
    sim = json.loads(capsys.readouterr().out)
    assert sum(p["total_bb"] for p in sim["players"]) == pytest.approx(0.0, abs=1e-6)
    assert main(["sim", "stud", "--bots", "no_such_module:bot,random", "--hands", "2"]) == 2
    assert "cannot import no_such_module" in capsys.readouterr().err


def test_sb3_policy_passes_the_mask_to_models_that_take_one() -> None:
    """MaskablePPO's predict takes ``action_masks``; PPO's does not: both are called rightly."""
    from stud.bots import sb3_policy

    class Masked:
        def predict(
            self, observation: Any, deterministic: bool = False, action_masks: Any = None
        ) -> tuple[np.ndarray, None]:
            return np.array(int(np.flatnonzero(action_masks)[-1])), None

    class Unmasked:
        def predict(self, observation: Any, deterministic: bool = False) -> tuple[int, None]:
            return 2, None

    config = TableConfig("razz", 2, 5, 20, 40, (4000, 4000))
    hand = Hand(config, deck=Deck(seed=6))
    seat = hand.to_act
    assert seat is not None
    masked = from_policy(sb3_policy(Masked()), game="razz")
    choice = masked.choose(hand.view(seat), tuple(hand.legal_actions()))
    assert choice == hand.legal_actions()[-1]  # the last legal index: the mask reached it
    unmasked = from_policy(sb3_policy(Unmasked()), game="razz")
    assert unmasked.choose(hand.view(seat), tuple(hand.legal_actions())).kind.value == "bring-in"
