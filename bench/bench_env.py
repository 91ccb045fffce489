"""Environment steps per second beside the raw engine's actions per second, same workload.

Every loop plays the same complete 6-handed hands: the decks come from one
seeded NumPy generator (``permutation(52)``), and every decision is drawn
the same way, one ``random.random()`` that picks among the legal choices in
the engine's order (the environment's legal indices come in the same
order), so all loops play the very same actions (``same_hands`` checks it
before measuring). The engine loop is what a plain multi-agent loop over
the engine must do, no more and no less: deal (``Hand``), and until the
hand is over read whose turn it is (``to_act``, the agent to ask) and its
legal actions (``legal_actions()``), pick one and ``act()``; at the end read
every seat's result (``result.net``, the rewards). The environment loop is
PettingZoo's: ``reset()``, ``agent_iter``, ``last()`` (the observation in
arrays nobody else holds, with its mask, the reward, termination,
truncation, info), the policy reading the mask (the legal indices of each
distinct mask, remembered), ``step()``, and the end-of-hand steps of every
agent. Only steps that play an action are counted; the time covers
everything. A third loop, for scale, is the engine observed the naive way:
``Hand.view(seat)`` (the engine's full per-seat view) before every action.
A fourth shows where the environment's time goes: the same hands through
its compiled core alone (``stud.envcore.Core``: the engine's action, the
observation's update, the next turn's mask, the acting seat's flat
observation before each action and every seat's at the end, as the AEC loop
makes them), without PettingZoo's loop.

Runs alternate in short slices of process CPU time so other load hits all
alike. Prints steps/s and how many times the engine's cost per step the
environment's is, as medians over several repeats (each repeat alternates
the four loops, so the ratio of one repeat compares runs made under the
same load; the range of those ratios shows the noise); the issue's target
is at most 2x. ``bench/callgrind_env.py`` counts instructions of the same
loops, which the machine's load does not move.

    python bench/bench_env.py [--seconds 0.8] [--repeats 5] [--games razz] [--perfect-recall]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np

from stud.env import StudEnv
from stud.envcore import Core
from stud.game import Hand, TableConfig

PLAYERS = 6
TARGET = 2.0


def engine_hands(game: str, seed: int, config: TableConfig | None = None) -> Callable[[], int]:
    """One hand of the bare engine per call, at ``config`` (by default the environment's
    table); returns the actions played."""
    if config is None:
        config = StudEnv(game, players=PLAYERS).config  # the same table as the environment's
    generator = np.random.default_rng(seed)
    pick = random.Random(seed).random
    totals = [0] * PLAYERS  # what a learner gets at the end of each hand

    def play() -> int:
        hand = Hand(config, deck=generator.permutation(52).tolist())
        legal_actions = hand.legal_actions
        act = hand.act
        steps = 0
        while not hand.is_over:
            _seat = hand.to_act  # whose decision it is: the agent to ask
            legal = legal_actions()
            act(legal[int(pick() * len(legal))])
            steps += 1
        result = hand.result
        assert result is not None
        for seat, net in enumerate(result.net):
            totals[seat] += net
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


def core_hands(game: str, seed: int, recall: bool = False) -> Callable[[], int]:
    """The environment's compiled core without PettingZoo: play, then observe, each decision."""
    env = StudEnv(game, players=PLAYERS)
    config: TableConfig = env.config
    core = Core(config, perfect_recall=recall)
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


def env_hands(
    game: str, seed: int, observation: str, recall: bool = False, players: int = PLAYERS
) -> Callable[[], int]:
    """One episode (hand) of the environment per call; returns the actions played."""
    env = StudEnv(game, players=players, observation=observation, perfect_recall=recall)
    pick = random.Random(seed).random
    choices: dict[bytes, tuple[int, ...]] = {}  # the policy's own cache: mask -> legal indices
    seeded = [seed]  # the first hand seeds the environment's decks (reset(seed=...))
    totals = dict.fromkeys(env.possible_agents, 0.0)  # what a learner gets at the end

    def play() -> int:
        env.reset(seed=seeded.pop() if seeded else None)
        steps = 0
        last = env.last
        step = env.step
        for agent in env.agent_iter():
            observation, reward, terminated, _truncated, _info = last()
            if terminated:
                totals[agent] += reward
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


def loops(
    game: str, seed: int, observation: str, recall: bool = False
) -> tuple[Callable[[], int], ...]:
    """The four loops on the same hands: engine, engine with views, core, environment."""
    return (
        engine_hands(game, seed),
        viewed_hands(game, seed),
        core_hands(game, seed, recall),
        env_hands(game, seed, observation, recall),
    )


def same_hands(
    game: str, observation: str, hands: int = 200, seed: int = 7, recall: bool = False
) -> bool:
    """Whether every loop plays the same number of actions in each of ``hands`` hands.

    The loops share no state, so equal counts hand after hand mean that they
    dealt the same decks and drew the same actions.
    """
    counts = [[play() for _ in range(hands)] for play in loops(game, seed, observation, recall)]
    return all(played == counts[0] for played in counts)


def rate(play: Callable[[], int], seconds: float, every: int = 16) -> tuple[int, float]:
    """Steps played and CPU time taken in one slice of about ``seconds`` (the clock read
    every ``every`` calls of ``play``)."""
    steps = 0
    clock = time.process_time
    start = clock()
    deadline = start + seconds
    calls = 0
    while True:
        steps += play()
        calls += 1
        if calls % every == 0 and clock() >= deadline:
            return steps, clock() - start


def median(values: list[float]) -> float:
    """The middle value (the mean of the two middle ones for an even count)."""
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def measure(
    loops: Sequence[Callable[[], int]], repeats: int, slices: int, seconds: float, every: int = 16
) -> list[list[float]]:
    """Each loop's steps/s in every repeat; a repeat alternates the loops in short slices."""
    rates: list[list[float]] = [[] for _ in loops]
    for _ in range(repeats):
        played = [0] * len(loops)
        spent = [0.0] * len(loops)
        for _ in range(slices):
            for index, play in enumerate(loops):
                steps, seconds_spent = rate(play, seconds / slices, every)
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
    parser.add_argument(
        "--perfect-recall",
        action="store_true",
        help="the core and the environment with the perfect-recall observation",
    )
    args = parser.parse_args(argv)
    recall = args.perfect_recall
    worst = 0.0
    print(
        f"{PLAYERS} players, uniform random legal actions"
        f"{', perfect recall' if recall else ''}; medians of {args.repeats} repeats "
        "(ratios: the median of each repeat's ratio, then its range)"
    )
    print(
        f"{'game':6} {'obs':5} {'engine actions/s':>17} {'engine+view/s':>14} "
        f"{'core steps/s':>13} {'core/engine':>12} {'env steps/s':>12} {'env/engine':>11} "
        f"{'range':>12}"
    )
    for game in args.games.split(","):
        for observation in ("dict", "flat"):
            if not same_hands(game, observation, recall=recall):
                print(f"{game} {observation}: the loops did not play the same hands")
                return 1
            engine, viewed, core, env = measure(
                loops(game, 7, observation, recall), args.repeats, args.slices, args.seconds
            )
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
