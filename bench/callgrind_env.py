"""Instructions per step of bench_env's loops, counted by valgrind's callgrind: load-independent.

Wall-clock ratios on a shared machine move with its load; instruction counts
do not. Each loop of ``bench/bench_env.py`` (the bare engine, the
environment with the dict and the flat observation, its compiled core) runs
``--hands`` six-handed hands under ``valgrind --tool=callgrind``, and once
more with no hand at all (the imports and the set-up); the difference over
the actions played is the loop's instructions per action. The loops play the
same hands (see ``bench_env.same_hands``), so the ratios compare the same
work. Instructions are not time (a step of the environment touches more
memory than one of the engine), so bench_env.py's timed ratios stay the
target's measure. Needs valgrind (Debian's ``valgrind``); takes minutes.

    python bench/callgrind_env.py [--hands 1000] [--game stud]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

LOOPS = ("engine", "dict", "flat", "core")


def inner(loop: str, game: str, hands: int) -> None:
    """Play ``hands`` hands of one loop and print the actions played (run under valgrind)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_env import core_hands, engine_hands, env_hands

    if loop == "engine":
        play = engine_hands(game, 7)
    elif loop == "core":
        play = core_hands(game, 7)
    else:
        play = env_hands(game, 7, loop)
    print(f"steps {sum(play() for _ in range(hands))}")


def counted(loop: str, game: str, hands: int) -> tuple[int, int]:
    """Instructions and actions of one run under callgrind."""
    run = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--inner",
            loop,
            "--game",
            game,
            "--hands",
            str(hands),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    collected = re.search(r"Collected : (\d+)", run.stderr)
    steps = re.search(r"steps (\d+)", run.stdout)
    if collected is None or steps is None:
        raise RuntimeError(f"no count from valgrind:\n{run.stderr[-2000:]}")
    return int(collected.group(1)), int(steps.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--game", default="stud", choices=("stud", "stud8", "razz"))
    parser.add_argument("--loops", default=",".join(LOOPS), help="comma-separated loops")
    parser.add_argument("--inner", choices=LOOPS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.inner:
        inner(args.inner, args.game, args.hands)
        return 0
    per_action: dict[str, float] = {}
    print(f"{args.game}, 6 players, {args.hands} hands under callgrind (minus a run of no hand)")
    print(f"{'loop':8} {'actions':>8} {'instructions/action':>20} {'/ engine':>9}")
    for loop in args.loops.split(","):
        base, _ = counted(loop, args.game, 0)
        total, steps = counted(loop, args.game, args.hands)
        per_action[loop] = (total - base) / steps
        ratio = per_action[loop] / per_action["engine"] if "engine" in per_action else 0.0
        print(f"{loop:8} {steps:>8} {per_action[loop]:>20,.0f} {ratio:>8.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
