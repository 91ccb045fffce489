"""How long bots think, and how fast the simulator plays: decision times and hands per second.

Part 1 — decision times of each bot in each game (the strong bot at 2-, 4- and
8-handed tables of strong bots), as a distribution: median, 90th and 99th
percentiles, the worst, and how many decisions went over the 50 ms budget.
Anchors measured in the same run: building a seat's view (what every decision
starts from) and one batch evaluation of 160 seven-card hands; the strong
bot's median is printed as a ratio to them.

Part 2 — simulator throughput: hands per second of ``stud sim`` heads-up
(strong against random, strong against station) on one process, and the
projection for 100,000 hands on two workers.

The machine may be shared: the load average is printed, and CPU time is
given beside wall time (a loaded machine inflates wall time, less so CPU).

    python bench/bench_bots.py [--hands 200] [--tables 6]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

import numpy as np

from stud.bots import Bot, make_bot
from stud.cards import Deck
from stud.evaluate import high_values
from stud.game import Hand, TableConfig, variant
from stud.sim import SimConfig, simulate

GAMES = ("stud", "stud8", "razz")
BUDGET = 0.050


def _config(game: str, players: int) -> TableConfig:
    return TableConfig(
        game=variant(game), ante=2, bring_in=5, small_bet=20, big_bet=40, stacks=(4000,) * players
    )


def decision_times(
    game: str, bot_name: str, players: int, tables: int
) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds per ``choose`` call over ``tables`` hands of ``players`` such bots."""
    times: list[float] = []
    cpu: list[float] = []
    for seed in range(tables):
        bots: list[Bot] = [make_bot(bot_name, seed * 10 + s) for s in range(players)]
        hand = Hand(_config(game, players), deck=Deck(seed=seed))
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            view = hand.view(seat)
            legal = tuple(hand.legal_actions())
            start, start_cpu = time.perf_counter(), time.process_time()
            choice = bots[seat].choose(view, legal)
            cpu.append(time.process_time() - start_cpu)
            times.append(time.perf_counter() - start)
            hand.act(choice)
    return times, cpu


def _per_call(f: Callable[[], object], repeat: int = 200) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(repeat):
            f()
        best = min(best, (time.perf_counter() - start) / repeat)
    return best


def anchors() -> tuple[float, float]:
    """Seconds for one seat's view mid-hand, and for one batch evaluation of 160 hands."""
    hand = Hand(_config("stud", 6), deck=Deck(seed=1))
    while hand.street < 5:
        hand.act(hand.legal_actions()[1])
    seat = hand.to_act
    view_time = _per_call(lambda: hand.view(seat))
    rng = np.random.default_rng(1)
    hands = np.argsort(rng.random((160, 52)), axis=1)[:, :7]
    eval_time = _per_call(lambda: high_values(hands))
    return view_time, eval_time


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help="hands per table size (20)")
    parser.add_argument("--hands", type=int, default=200, help="hands per throughput run (200)")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average {load:.2f} on {os.cpu_count()} CPUs (figures taken under that load)")
    view_time, eval_time = anchors()
    print(f"anchors: a seat's view {_ms(view_time)} ms; 160 hands evaluated {_ms(eval_time)} ms")
    print()
    print("decision times, ms (wall | CPU):  p50     p90     p99     max  >50ms wall  decisions")
    for game in GAMES:
        for name, sizes in (
            ("random", (4,)),
            ("station", (4,)),
            ("strong", (2, 4, 8)),
            ("strong-v1", (8,)),
        ):
            for players in sizes:
                wall, cpu = decision_times(game, name, players, args.tables)
                over = sum(1 for t in wall if t > BUDGET)
                for kind, times in (("wall", wall), ("CPU", cpu)):
                    q = statistics.quantiles(times, n=100, method="inclusive")  # within the data
                    label = f"{game:6} {name:8} {players}-handed {kind:4}"
                    tail = f"  {over:10}  {len(times):9}" if kind == "wall" else ""
                    print(
                        f"{label:31}{_ms(q[49])} {_ms(q[89])} {_ms(q[98])} {_ms(max(times))}{tail}"
                    )
                if name == "strong" and players == 4:
                    thinking = sorted(t for t in cpu if t > 1e-4)  # decisions that ran an estimate
                    if thinking:
                        median = statistics.median(thinking)
                        print(
                            f"{'':31}an estimate (CPU median {_ms(median)} ms) = "
                            f"{median / view_time:.1f} views = {median / eval_time:.1f} "
                            "batch evaluations"
                        )
    print()
    print("simulator, heads-up, 1 process:  hands/s (wall)  hands/s (CPU)  100k on 2 workers")
    for game in GAMES:
        for opponent in ("random", "station"):
            config = SimConfig(game, ("strong", opponent), hands=args.hands, seed=1)
            began, began_cpu = time.perf_counter(), time.process_time()
            simulate(config)
            seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - began_cpu
            per_hand = cpu_seconds / args.hands
            projected = 100_000 * per_hand / 2
            print(
                f"{game:6} strong vs {opponent:8}  {args.hands / seconds:12.0f}  "
                f"{args.hands / cpu_seconds:13.0f}  {projected / 60:8.1f} min (CPU-bound)"
            )


if __name__ == "__main__":
    main()
