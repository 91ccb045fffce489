"""One gauntlet cell on --jobs 1, --jobs 2 and a local Ray: hands per second, ratios, Ray's cost.

The cell (strong against tag heads-up, duplicate, luck measured, by default)
is played three times in one run: in this process (the anchor), on two local
processes, and on a local Ray of two CPUs; the three answers must be equal,
every hand's net and luck. Then Ray's cost per task: many empty tasks (a
session of no deals: the task's arguments out, the bots made, a result
back) through the same path, in CPU seconds per task, and from it the
smallest task that keeps that cost under 5% of the work; the default session
(:data:`stud.sim.SESSION` hands) is checked against it.

    python bench/bench_ray.py [--game razz] [--deals 400] [--session 100] [--empty 400]
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np

from stud.sim import SESSION, Workers
from stud.sim.duplicate import MatchConfig, MatchResult, play_match, play_match_session
from stud.sim.on_ray import connect
from stud.sim.workers import run_tasks

CPUS = 2
"""Workers of the local pool and CPUs of the local Ray: this machine's cores."""

BUDGET = 0.05
"""The share of a task's time Ray's cost may take."""


def _load() -> str:
    return f"{os.getloadavg()[0]:.2f}" if hasattr(os, "getloadavg") else "n/a"


def _timed(play: Callable[[], MatchResult]) -> tuple[MatchResult, float]:
    began = time.perf_counter()
    result = play()
    return result, time.perf_counter() - began


def _same(a: MatchResult, b: MatchResult) -> bool:
    assert a.luck is not None and b.luck is not None
    return bool(np.array_equal(a.net, b.net) and np.array_equal(a.luck, b.luck))


def _per_task(config: MatchConfig, workers: Workers, tasks: int) -> float:
    """Wall seconds times CPUs per empty task: what one task costs beyond its hands."""
    empty = [(config, 0, 0)] * tasks
    began = time.perf_counter()
    run_tasks(play_match_session, empty, workers)
    return (time.perf_counter() - began) * CPUS / tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="razz", help="stud, stud8 or razz (razz)")
    parser.add_argument("--bot", default="strong", help="the bot measured (strong)")
    parser.add_argument("--opponent", default="tag", help="its opponent (tag)")
    parser.add_argument("--deals", type=int, default=400, help="deals in the cell (400)")
    parser.add_argument("--session", type=int, default=100, help="deals per task (100)")
    parser.add_argument("--empty", type=int, default=400, help="empty tasks timed (400)")
    parser.add_argument("--seed", type=int, default=0, help="seed (0)")
    args = parser.parse_args()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    config = MatchConfig(args.game, args.bot, args.opponent, args.deals, 2, args.seed,
                         session=args.session)  # fmt: skip
    hands = 2 * args.deals
    tasks = len(config.sessions())
    print(f"load average {_load()} on {os.cpu_count()} CPUs")
    print(f"{config.game}: {config.hero} vs {config.villain} heads-up, duplicate, luck measured, "
          f"{hands:,} hands in {tasks} tasks of {2 * args.session:,} hands")  # fmt: skip

    cpu = time.process_time()
    one, one_s = _timed(lambda: play_match(config, 1))
    cpu = time.process_time() - cpu
    two, two_s = _timed(lambda: play_match(config, CPUS))
    began = time.perf_counter()
    connect("local", CPUS)
    start_s = time.perf_counter() - began
    on_ray = Workers(ray="local")
    try:
        warm = _per_task(config, on_ray, 2 * CPUS)  # the workers import the simulator once
        ray_result, ray_s = _timed(lambda: play_match(config, on_ray))
        overhead = _per_task(config, on_ray, args.empty)
    finally:
        import ray

        ray.shutdown()
    pool_overhead = _per_task(config, Workers(jobs=CPUS), args.empty)

    speeds = {"--jobs 1": hands / one_s, f"--jobs {CPUS}": hands / two_s,
              "--ray local": hands / ray_s}  # fmt: skip
    anchor = speeds["--jobs 1"]
    print()
    print("| run | wall s | hands/s | × --jobs 1 |")
    print("|---|---|---|---|")
    for (name, speed), seconds in zip(speeds.items(), (one_s, two_s, ray_s), strict=True):
        print(f"| {name} | {seconds:.1f} | {speed:.1f} | {speed / anchor:.2f} |")
    print(f"--ray local / --jobs {CPUS}: {speeds['--ray local'] / speeds[f'--jobs {CPUS}']:.2f}")
    same = _same(one, two) and _same(one, ray_result)
    print(f"same answers (every hand's net and luck): {'yes' if same else 'NO'}")
    print()
    print(f"--jobs 1 played {hands / cpu:.1f} hands per CPU second (the figure to project from)")
    seconds_per_hand = 1.0 / anchor
    smallest = overhead / (BUDGET * seconds_per_hand)
    print(f"Ray local start {start_s:.1f} s; first tasks (workers importing) {warm * 1000:.0f} ms "
          f"each")  # fmt: skip
    print(f"cost per task, {args.empty} empty tasks (CPU-equivalent): Ray {overhead * 1000:.1f} "
          f"ms, process pool {pool_overhead * 1000:.1f} ms with its start")  # fmt: skip
    print(f"a hand here: {seconds_per_hand * 1000:.1f} ms; under {BUDGET:.0%} overhead a Ray "
          f"task must hold >= {smallest:,.0f} hands")  # fmt: skip
    for label, size in (("this run's task", 2 * args.session), ("the default session", SESSION)):
        share = overhead / (overhead + size * seconds_per_hand)
        print(f"{label} ({size:,} hands): Ray's cost {share:.2%} of it")
    print(f"load average {_load()}")
    if not same:
        raise SystemExit("the answers differ")


if __name__ == "__main__":
    main()
