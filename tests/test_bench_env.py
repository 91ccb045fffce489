"""bench/bench_env.py compares like with like: its loops play the very same hands.

The ratio it prints is only fair if the engine loop and the environment loop
deal the same decks and draw the same actions. Nothing here is timed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from bench_env import engine_hands, env_hands, loops, same_hands


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
@pytest.mark.parametrize("observation", ["dict", "flat"])
def test_every_loop_plays_the_same_hands(game: str, observation: str) -> None:
    assert same_hands(game, observation, hands=60)


def test_the_check_sees_different_hands() -> None:
    engine = engine_hands("stud", 7)
    other = engine_hands("stud", 8)
    assert [engine() for _ in range(30)] != [other() for _ in range(30)]


def test_the_environment_loop_plays_what_the_engine_loop_plays() -> None:
    engine, _, _, env = loops("razz", 3, "flat")
    played = [engine() for _ in range(40)]
    assert played == [env() for _ in range(40)]
    assert env_hands("razz", 4, "flat")() >= 2  # a hand has at least the bring-in and a reply
