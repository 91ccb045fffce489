"""What cloning and perfect recall cost against one step: ``Hand.copy()`` beside ``Hand.act()``.

Six-handed hands of each game dealt from seeded decks and played at random
to a random point; then, on the same hands, the time of one ``act()`` (on
clones made outside the time, so every act starts from the same point), of
``copy()``, ``copy.deepcopy`` and a ``pickle`` round trip of the hand, and a
deep copy and a pickle round trip of a ``StudEnv`` in the middle of a hand
beside one of its steps (whole hands played, time over steps). Then the
observation: the environment's compiled core (``stud.envcore.Core``) playing
whole hands, observing the seat to act before each decision (and every seat
at the end), with the compact observation and with perfect recall, per
decision, on the same hands (``bench_env.core_hands``). Times are CPU
medians of several repeats (``time.process_time``), so other load on the
machine hits them alike; each ratio is against one step of its own kind.

    python bench/bench_clone.py [--repeats 5] [--hands 300]
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
import time
from collections.abc import Callable

import numpy as np

from bench_env import core_hands
from stud.env import StudEnv, table_config
from stud.game import Hand

PLAYERS = 6


def _hands(game: str, count: int) -> list[Hand]:
    config = table_config(game, PLAYERS)
    decks = np.random.default_rng(1)
    pick = random.Random(1)
    hands = []
    for _ in range(count):
        hand = Hand(config, deck=decks.permutation(52).tolist())
        for _ in range(pick.randrange(12)):
            legal = hand.legal_actions()
            hand.act(legal[pick.randrange(len(legal))])
            if hand.is_over:
                break
        if not hand.is_over:
            hands.append(hand)
    return hands


def _time(work: Callable[[], object], rounds: int) -> float:
    """CPU seconds per call of ``work``."""
    clock = time.process_time
    start = clock()
    for _ in range(rounds):
        work()
    return (clock() - start) / rounds


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def hand_costs(game: str, hands: list[Hand], repeats: int) -> dict[str, float]:
    """Microseconds per act, copy, deepcopy and pickle round trip, medians over ``repeats``."""
    picks = [h.legal_actions()[0] for h in hands]

    def act() -> None:  # on clones made beforehand, outside the time
        clones = [h.copy() for h in hands]
        clock = time.process_time
        start = clock()
        for clone, action in zip(clones, picks, strict=True):
            clone.act(action)
        acted.append(clock() - start)

    acted: list[float] = []
    cases: dict[str, Callable[[], object]] = {
        "copy": lambda: [h.copy() for h in hands],
        "deepcopy": lambda: [copy.deepcopy(h) for h in hands],
        "pickle": lambda: [pickle.loads(pickle.dumps(h)) for h in hands],
    }
    results: dict[str, list[float]] = {name: [] for name in ("act", *cases)}
    for _ in range(repeats):
        acted.clear()
        for _ in range(5):
            act()
        results["act"].append(sum(acted) / 5 / len(hands) * 1e6)
        for name, work in cases.items():
            results[name].append(_time(work, 5) / len(hands) * 1e6)
    return {name: _median(values) for name, values in results.items()}


def env_costs(game: str, repeats: int) -> dict[str, float]:
    """Microseconds per step, deepcopy and pickle round trip of a StudEnv mid-hand."""
    env = StudEnv(game, players=PLAYERS)
    env.reset(seed=3)
    observation, *_ = env.last()
    env.step(int(np.flatnonzero(observation["action_mask"])[0]))

    other = StudEnv(game, players=PLAYERS)
    other.reset(seed=3)

    def steps() -> None:
        other.reset()
        count = 0
        for _ in other.agent_iter():
            observation, _, terminated, _, _ = other.last()
            other.step(None if terminated else int(np.flatnonzero(observation["action_mask"])[-1]))
            count += 1
        stepped.append(count)

    stepped: list[int] = []
    results: dict[str, list[float]] = {"step": [], "deepcopy": [], "pickle": []}
    for _ in range(repeats):
        stepped.clear()
        seconds = _time(steps, 50)
        results["step"].append(seconds / (sum(stepped) / len(stepped)) * 1e6)
        results["deepcopy"].append(_time(lambda: copy.deepcopy(env), 50) * 1e6)
        results["pickle"].append(_time(lambda: pickle.loads(pickle.dumps(env)), 50) * 1e6)
    return {name: _median(values) for name, values in results.items()}


def observation_costs(game: str, repeats: int) -> dict[str, float]:
    """Microseconds per decision of the core, compact and perfect-recall, on the same hands."""
    results: dict[str, list[float]] = {"compact": [], "recall": []}
    for _ in range(repeats):
        for name, recall in (("compact", False), ("recall", True)):
            play = core_hands(game, 11, recall)
            clock = time.process_time
            start = clock()
            steps = sum(play() for _ in range(200))
            results[name].append((clock() - start) / steps * 1e6)
    return {name: _median(values) for name, values in results.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="repeats per case (medians shown)")
    parser.add_argument("--hands", type=int, default=300, help="hands per case")
    args = parser.parse_args(argv)
    print(f"{PLAYERS} players; CPU microseconds, medians of {args.repeats} repeats")
    print(
        f"{'game':6} {'act':>7} {'copy()':>8} {'/act':>6} {'deepcopy':>9} {'/act':>6} "
        f"{'pickle':>8} {'/act':>6} {'env step':>9} {'env deepcopy':>13} {'/step':>6} "
        f"{'env pickle':>11} {'/step':>6} {'obs compact':>12} {'obs recall':>11} {'/compact':>9}"
    )
    for game in ("stud", "stud8", "razz"):
        hand = hand_costs(game, _hands(game, args.hands), args.repeats)
        env = env_costs(game, args.repeats)
        seen = observation_costs(game, args.repeats)
        act = hand["act"]
        print(
            f"{game:6} {act:>7.2f} {hand['copy']:>8.2f} {hand['copy'] / act:>5.2f}x "
            f"{hand['deepcopy']:>9.2f} {hand['deepcopy'] / act:>5.2f}x "
            f"{hand['pickle']:>8.2f} {hand['pickle'] / act:>5.1f}x {env['step']:>9.2f} "
            f"{env['deepcopy']:>13.1f} {env['deepcopy'] / env['step']:>5.0f}x "
            f"{env['pickle']:>11.1f} {env['pickle'] / env['step']:>5.0f}x "
            f"{seen['compact']:>12.2f} {seen['recall']:>11.2f} "
            f"{seen['recall'] / seen['compact']:>8.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
