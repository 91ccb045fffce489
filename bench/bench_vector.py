"""Batched decisions per second: the vector environment beside the single env and the raw engine.

Three loops play random legal decisions at the same table (heads-up by
default, the engine's 2/5/20/40 with 100 big bets), each in one process on
one core:

- **engine**: deal a ``Hand`` from a NumPy permutation, then until it is
  over read ``legal_actions()``, pick one (``random.random()``) and ``act()``;
  read ``result.net`` at the end (what a plain loop over the engine does);
- **env**: PettingZoo's loop over ``StudEnv(observation="flat")``
  (``reset``, ``agent_iter``, ``last``, the mask's legal indices, ``step``);
- **vector**: ``VectorEnv(count=N)``: one ``step`` plays a decision in each
  of the N hands; the random legal choices are drawn for all N at once
  (``argmax`` of uniform numbers times the mask), and that draw is timed too.

Runs alternate in short slices of process CPU time so the machine's load
hits all three alike; each figure is the median of several repeats, and the
ratios are the medians of each repeat's ratio. The issue's target: at least
1,000,000 decisions/s for N = 1,024 heads-up Razz.

    python bench/bench_vector.py [--count 1024] [--players 2] [--games razz,stud,stud8]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

import numpy as np

from bench_env import engine_hands, env_hands, measure, median
from stud.envcore.vector import VectorEnv

TARGET = 1_000_000


def vector_loop(game: str, players: int, count: int, seed: int) -> Callable[[], int]:
    """One step of the vector environment per call (``count`` decisions, random legal ones)."""
    env = VectorEnv(game, players=players, count=count)
    batch = env.reset(seed=seed)
    generator = np.random.default_rng(seed)
    state = [batch]

    def play() -> int:
        mask = state[0].mask
        actions = (generator.random(mask.shape) * mask).argmax(axis=1)
        state[0] = env.step(actions)
        return count

    return play


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1024, help="hands in the vector env")
    parser.add_argument("--players", default="2", help="comma-separated seat counts (default 2)")
    parser.add_argument("--games", default="razz,stud,stud8", help="comma-separated games")
    parser.add_argument("--seconds", type=float, default=0.8, help="time per loop per repeat")
    parser.add_argument("--slices", type=int, default=4, help="alternating slices per repeat")
    parser.add_argument("--repeats", type=int, default=5, help="repeats (medians shown)")
    args = parser.parse_args(argv)
    print(
        f"random legal decisions per CPU second, one core; vector env of {args.count} hands; "
        f"medians of {args.repeats} repeats (ratios: median of each repeat's ratio)"
    )
    print(
        f"{'game':6} {'seats':>5} {'engine/s':>10} {'env/s':>10} {'vector/s':>12} "
        f"{'vector/engine':>14} {'vector/env':>11}  target"
    )
    missed = False
    for game in args.games.split(","):
        for players in (int(p) for p in args.players.split(",")):
            config = VectorEnv(game, players=players, count=1).config
            engine, env, vector = measure(
                [
                    engine_hands(game, 7, config),
                    env_hands(game, 7, "flat", players=players),
                    vector_loop(game, players, args.count, 7),
                ],
                args.repeats,
                args.slices,
                args.seconds,
                every=4,  # a vector step is a thousand decisions: read the clock more often
            )
            over_engine = median([v / e for v, e in zip(vector, engine, strict=True)])
            over_env = median([v / e for v, e in zip(vector, env, strict=True)])
            meets = median(vector) >= TARGET
            missed = missed or (game == "razz" and players == 2 and not meets)
            print(
                f"{game:6} {players:>5} {median(engine):>10,.0f} {median(env):>10,.0f} "
                f"{median(vector):>12,.0f} {over_engine:>13.1f}x {over_env:>10.1f}x  "
                f"{'meets' if meets else 'misses'} {TARGET:,}"
            )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
