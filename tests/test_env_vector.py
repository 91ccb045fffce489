"""The vector environment (stud.envcore.vector): the engine's hands, N at a time.

The batched core keeps its own rules loop, so the engine stays the judge:
``stud.testing.vector_check.compare`` deals each hand from the vector env's
own deck into an engine ``Hand``, plays the same action in both and compares
the seat to act, the legal indices, every number of the observation and the
chips won or lost. The default run checks 5,000 hands per game (heads-up,
three and seven seats, and stacks just deep enough); the slow test runs 20,000
per game, and 100,000 under ``make soak`` (as ``python -m stud.testing.vector_check``
does).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from stud.envcore.vector import VectorEnv, check_vector_table, deepest_hand
from stud.game import IllegalActionError, TableConfig
from stud.testing.vector_check import compare, tables

GAMES = ("stud", "stud8", "razz")


def _check(game: str, hands: int) -> None:
    configs = tables(game)
    showdowns = 0
    for index, config in enumerate(configs):
        result = compare(config, hands // len(configs), seed=index, count=128)
        assert result.difference == "", f"{game}, {config.seats} seats: {result.difference}"
        assert result.hands >= hands // len(configs)
        showdowns += result.showdowns
    assert showdowns > hands // 20  # the policy reaches the showdown, ties and all


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_batched_core_plays_the_engines_hands(game: str) -> None:
    _check(game, 5_000)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_batched_core_plays_the_engines_hands_at_length(
    game: str, sized: Callable[[int, int], int]
) -> None:
    _check(game, sized(20_000, 100_000))


def test_the_check_finds_a_difference(monkeypatch: pytest.MonkeyPatch) -> None:
    """compare() is not blind: engine hands dealt from other decks than the core's differ."""
    config = tables("razz")[0]
    assert compare(config, 50, count=8, seed=1).difference == ""
    decks = VectorEnv.decks
    monkeypatch.setattr(VectorEnv, "decks", lambda self: np.roll(decks(self), 1, axis=1))
    assert compare(config, 50, count=8, seed=1).difference != ""


def test_rewards_are_zero_sum_and_in_big_bets() -> None:
    env = VectorEnv("stud8", players=3, count=64)
    batch = env.reset(seed=3)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(60):
        batch = env.step((rng.random(batch.mask.shape) * batch.mask).argmax(axis=1))
        done = batch.terminated
        ended += int(done.sum())
        assert (batch.net[done].sum(axis=1) == 0).all()
        assert (batch.net[~done] == 0).all()
        assert np.allclose(batch.rewards, batch.net / env.config.big_bet)
    assert ended > 64


def test_a_seed_repeats_the_same_hands() -> None:
    one = VectorEnv("razz", count=32)
    two = VectorEnv("razz", count=32)
    first, second = one.reset(seed=9), two.reset(seed=9)
    assert (one.decks() == two.decks()).all()
    rng = np.random.default_rng(0)
    for _ in range(30):
        actions = (rng.random(first.mask.shape) * first.mask).argmax(axis=1)
        first, second = one.step(actions), two.step(actions)
        assert (first.observation == second.observation).all()
        assert (first.net == second.net).all()
    assert not (VectorEnv("razz", count=32).reset(seed=10).observation == first.observation).all()


def test_decks_are_whole_and_differ() -> None:
    env = VectorEnv("stud", players=7, count=64)
    env.reset(seed=4)
    decks = env.decks()
    assert (np.sort(decks, axis=1) == np.arange(52)).all()
    assert len({deck.tobytes() for deck in decks}) == 64


def _cards_in(row: list[int], seats: int) -> set[int]:
    """The card fields of an observation row: own down cards, then each seat's up cards."""
    cards = row[7:10]
    for r in range(seats):
        cards += row[10 + 8 * r + 4 : 10 + 8 * r + 8]
    return set(cards) - {-1}


def test_an_observation_shows_only_the_actors_down_cards() -> None:
    env = VectorEnv("razz", players=3, count=16)
    batch = env.reset(seed=5)
    decks = env.decks()
    for i in range(16):
        seat = int(batch.to_act[i])
        downs = {int(decks[i, seat]), int(decks[i, 3 + seat])}
        doors = {int(decks[i, 6 + s]) for s in range(3)}
        cards = _cards_in(batch.observation[i].tolist(), 3)
        assert cards == downs | doors


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"players": 8}, "8 seats"),
        ({"stacks": 500}, "stacks below 722 chips"),
        ({"config": TableConfig("razz", 2, 5, 20, 40, (4000, 4000), rake_percent=5)}, "rake"),
        ({"config": TableConfig("razz", 2, 5, 20, 40, (4000, 4000), burn_cards=True)}, "burn"),
        (
            {"config": TableConfig("razz", 2, 5, 20, 40, (4000, 4000), lift_cap_heads_up=True)},
            "heads-up cap",
        ),
        ({"count": 0}, "count"),
    ],
)
def test_tables_it_cannot_play_are_refused(options: dict[str, object], words: str) -> None:
    game = "stud" if "stacks" in options else "razz"
    with pytest.raises(ValueError, match=words):
        VectorEnv(game, **options)  # type: ignore[arg-type]


def test_the_deepest_hand_is_every_capped_street() -> None:
    razz = TableConfig("razz", 2, 5, 20, 40, (4000, 4000))
    stud = TableConfig("stud", 2, 5, 20, 40, (4000, 4000))
    assert deepest_hand(razz) == 2 + 4 * (2 * 20 + 3 * 40)
    assert deepest_hand(stud) == 2 + 4 * (20 + 4 * 40)  # R7: 4th street may be big
    check_vector_table(razz.with_stacks((deepest_hand(razz),) * 2))
    with pytest.raises(ValueError, match="seats \\[1\\]"):
        check_vector_table(razz.with_stacks((deepest_hand(razz), deepest_hand(razz) - 1)))


@pytest.mark.parametrize(
    ("actions", "words"),
    [
        (np.zeros(3, dtype=np.int64), "shape \\(4,\\)"),
        (np.zeros(4, dtype=np.float64), "integers"),
        (np.array([1, 1, 9, 1]), "hand 2: action 9 is not an index 0 to 4"),
        (np.array([0, 0, 0, 0]), "hand 0: action 0 is not legal for seat .*legal: \\[2, 3\\]"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(actions: object, words: str) -> None:
    env = VectorEnv("razz", count=4)
    before = env.reset(seed=6)
    decks = env.decks()
    with pytest.raises(IllegalActionError, match=words):
        env.step(actions)  # type: ignore[arg-type]
    after = env.step(np.full(4, 2))  # every hand opens with the bring-in
    replay = VectorEnv("razz", count=4)
    replay.reset(seed=6)
    assert (replay.decks() == decks).all()
    again = replay.step(np.full(4, 2))
    assert (after.observation == again.observation).all()
    assert (before.mask[:, 2] == 1).all()


def test_step_before_reset_is_refused() -> None:
    with pytest.raises(IllegalActionError, match="reset"):
        VectorEnv("razz", count=2).step(np.zeros(2, dtype=np.int64))


def test_the_benchmark_loops_play_decisions() -> None:
    """bench/bench_vector.py's three loops run and count what they play (nothing is timed)."""
    bench = Path(__file__).resolve().parent.parent / "bench"
    sys.path.insert(0, str(bench))
    try:
        from bench_env import engine_hands, env_hands
        from bench_vector import vector_loop
    finally:
        sys.path.remove(str(bench))
    config = VectorEnv("razz", count=1).config
    assert engine_hands("razz", 1, config)() >= 2  # the bring-in and a reply at least
    assert env_hands("razz", 1, "flat", players=2)() >= 2
    assert vector_loop("razz", 2, 64, 1)() == 64
