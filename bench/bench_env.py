"""Environment steps per second beside the raw engine's actions per second, same workload.

Both play complete 6-handed hands in which every decision is uniform among
the legal actions (each legal index of the environment is one legal engine
action, so the two draw from the same distribution), with decks from NumPy
permutations. The engine loop is ``legal_actions()`` then ``act()``; the
environment loop is PettingZoo's: ``agent_iter``, ``last()`` (the
observation, in arrays nobody else holds, with its mask), the policy reading
the mask, ``step()``, plus ``reset()`` and the end-of-hand steps of every
agent. Only steps that play an
action are counted; the time covers everything. Runs alternate in short
slices of process CPU time so other load hits all alike. A third loop, for
scale, is the engine observed the naive way: ``Hand.view(seat)`` (the
engine's full per-seat view) before every action. A fourth shows where the
environment's time goes: the same hands through its compiled core alone
(``stud.envcore.Core``: the engine's action, the observation's update, the
next turn's mask, the acting seat's flat observation before each action and
every seat's at the end, as the AEC loop makes them), without PettingZoo's
loop. Prints steps/s and how many times the engine's cost per step the
environment's is, as medians over several repeats (each repeat alternates
the four loops, so the ratio of one repeat compares runs made under the
same load; the range of those ratios shows the noise); the issue's target
is at most 2x.

    python bench/bench_env.py [--seconds 0.8] [--repeats 5] [--games razz]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable

import numpy as np

from stud.env import StudEnv
from stud.envcore import Core
from stud.game import Hand, TableConfig

PLAYERS = 6
TARGET = 2.0


def engine_hands(game: str, seed: int) -> Callable[[], int]:
    """One hand of the bare engine per call; returns the actions played."""
    env = StudEnv(game, players=PLAYERS)  # the same table as the environment's
    config: TableConfig = env.config
    generator = np.random.default_rng(seed)
    pick = random.Random(seed).random

    def play() -> int:
        hand = Hand(config, deck=generator.permutation(52).tolist())
        legal_actions = hand.legal_actions
        act = hand.act
        steps = 0
        while not hand.is_over:
            legal = legal_actions()
            act(legal[int(pick() * len(legal))])
            steps += 1
        return steps

    return play


def viewed_hands(game: str, seed: int) -> Callable[[], int]:
    """The engine with the naive observation: ``Hand.view(seat)`` before every action."""
    env = StudEnv(game, players=PLAYERS)
    config: TableConfig = env.config
    generator = np.random.default_rng(seed)
    pick = random.Random(seed).random

    def play() -> int:
        hand = Hand(config, deck=generator.permutation(52).tolist())
        steps = 0
        while not hand.is_over:
            view = hand.view(hand.to_act)
            legal = view.legal_actions
            hand.act(legal[int(pick() * len(legal))])
            steps += 1
        return steps

    return play


def core_hands(game: str, seed: int) -> Callable[[], int]:
    """The environment's compiled core without PettingZoo: play, then observe, each decision."""
    env = StudEnv(game, players=PLAYERS)
    config: TableConfig = env.config
    core = Core(config)
    generator = np.random.default_rng(seed)
    pick = random.Random(seed).random
    choices: dict[bytes, tuple[int, ...]] = {}
    seats = range(PLAYERS)

    def play() -> int:
        seat = core.start(Hand(config, deck=generator.permutation(52).tolist()))
        observe = core.flat
        act = core.play
        steps = 0
        while seat >= 0:
            mask = observe(seat)["action_mask"]
            key = mask.tobytes()
            legal = choices.get(key)
            if legal is None:
                legal = choices[key] = tuple(int(i) for i in np.flatnonzero(mask))
            seat = act(legal[int(pick() * len(legal))])
            steps += 1
        for other in seats:  # every agent's last observation
            observe(other)
        return steps

    return play


def env_hands(game: str, seed: int, observation: str) -> Callable[[], int]:
    """One episode (hand) of the environment per call; returns the actions played."""
    env = StudEnv(game, players=PLAYERS, observation=observation)
    env.reset(seed=seed)
    pick = random.Random(seed).random
    choices: dict[bytes, tuple[int, ...]] = {}  # the policy's own cache: mask -> legal indices

    def play() -> int:
        env.reset()
        steps = 0
        last = env.last
        step = env.step
        for _agent in env.agent_iter():
            observation, _reward, terminated, _truncated, _info = last()
            if terminated:
                step(None)
                continue
            mask = observation["action_mask"]
            key = mask.tobytes()
            legal = choices.get(key)
            if legal is None:
                legal = choices[key] = tuple(int(i) for i in np.flatnonzero(mask))
            step(legal[int(pick() * len(legal))])
            steps += 1
        return steps

    return play


def rate(play: Callable[[], int], seconds: float) -> tuple[int, float]:
    """Steps played and CPU time taken in one slice of about ``seconds``."""
    steps = 0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    hands = 0
    while True:
        steps += play()
        hands += 1
        if hands % 16 == 0 and clock() >= deadline:
            return steps, clock() - start


def median(values: list[float]) -> float:
    """The middle value (the mean of the two middle ones for an even count)."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def measure(
    loops: tuple[Callable[[], int], ...], repeats: int, slices: int, seconds: float
) -> list[list[float]]:
    """Each loop's steps/s in every repeat; a repeat alternates the loops in short slices."""
    rates: list[list[float]] = [[] for _ in loops]
    for _ in range(repeats):
        played = [0] * len(loops)
        spent = [0.0] * len(loops)
        for _ in range(slices):
            for index, play in enumerate(loops):
                steps, seconds_spent = rate(play, seconds / slices)
                played[index] += steps
                spent[index] += seconds_spent
        for index, steps in enumerate(played):
            rates[index].append(steps / spent[index])
    return rates


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=0.8, help="time per loop per case in each repeat"
    )
    parser.add_argument("--slices", type=int, default=4, help="alternating slices per repeat")
    parser.add_argument("--repeats", type=int, default=5, help="repeats per case (medians shown)")
    parser.add_argument(
        "--games", default="stud,stud8,razz", help="comma-separated games (default: all three)"
    )
    args = parser.parse_args(argv)
    worst = 0.0
    print(
        f"{PLAYERS} players, uniform random legal actions; medians of {args.repeats} repeats "
        "(ratios: the median of each repeat's ratio, then its range)"
    )
    print(
        f"{'game':6} {'obs':5} {'engine actions/s':>17} {'engine+view/s':>14} "
        f"{'core steps/s':>13} {'core/engine':>12} {'env steps/s':>12} {'env/engine':>11} "
        f"{'range':>12}"
    )
    for game in args.games.split(","):
        for observation in ("dict", "flat"):
            loops = (
                engine_hands(game, 7),
                viewed_hands(game, 7),
                core_hands(game, 7),
                env_hands(game, 7, observation),
            )
            engine, viewed, core, env = measure(loops, args.repeats, args.slices, args.seconds)
            core_costs = [e / c for e, c in zip(engine, core, strict=True)]
            env_costs = [e / v for e, v in zip(engine, env, strict=True)]
            cost = median(env_costs)
            worst = max(worst, cost)
            print(
                f"{game:6} {observation:5} {median(engine):>17,.0f} {median(viewed):>14,.0f} "
                f"{median(core):>13,.0f} {median(core_costs):>11.2f}x "
                f"{median(env):>12,.0f} {cost:>10.2f}x "
                f"{min(env_costs):>5.2f}-{max(env_costs):.2f}x"
            )
    verdict = "meets" if worst <= TARGET else "misses"
    print(
        f"worst median: the environment costs {worst:.2f}x the engine per step "
        f"({verdict} <= {TARGET}x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
