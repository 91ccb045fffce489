"""Solve the small Razz game with OpenSpiel's CFR+ and chart its exploitability.

The game is ``python_razz_small`` (docs/rl.md, *A small game*): the project's
engine with one down card and the door card on 3rd street, one up card on 4th,
a short deck, heads-up. The engine's game tree is walked once (Python), then
OpenSpiel's C++ CFR+ runs on it and OpenSpiel's ``exploitability`` (NashConv
divided by the players) measures the average policy, in big bets per hand.
Prints the curve, writes the chart, and with ``--save`` the solved policy,
which ``examples/razz_small_bot.py`` seats as a bot.

    python examples/cfr_small_razz.py                 # a few minutes, most of it the walk
    python examples/cfr_small_razz.py --chart docs/rl-cfr-small-razz.png --save small.json
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pyspiel

import stud.spiel  # noqa: F401  # registers python_razz_small
from stud.spiel.solve import SolvedPolicy, Step, cfr_plus, game_tree

TARGET = 0.01
"""1% of a big bet per hand."""


def checkpoints(last: int) -> list[int]:
    """1, 2, 5, 10, 20, 50, ... up to ``last``: points spread evenly on a log scale."""
    points: list[int] = []
    scale = 1
    while scale <= last:
        points += [k * scale for k in (1, 2, 5) if k * scale <= last]
        scale *= 10
    return points if points[-1] == last else [*points, last]


def chart(steps: list[Step], path: Path) -> None:
    """The exploitability curve on log-log axes, with the 1% target."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6, 3.6), dpi=110)
    axes.loglog([s.iterations for s in steps], [s.exploitability for s in steps], marker="o")
    axes.axhline(TARGET, color="grey", linestyle="--", label="1% of a big bet")
    axes.set_xlabel("CFR+ iterations")
    axes.set_ylabel("exploitability (big bets / hand)")
    axes.set_title("CFR+ on python_razz_small")
    axes.legend()
    axes.grid(True, which="both", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=200, help="CFR+ iterations")
    parser.add_argument("--chart", type=Path, default=Path("cfr-small-razz.png"))
    parser.add_argument("--save", type=Path, help="write the solved policy (JSON) here")
    parser.add_argument("--params", default="", help='game parameters, e.g. "stack=8"')
    args = parser.parse_args()
    params = {
        k: (int(v) if v.lstrip("-").isdigit() else v)
        for k, v in (item.split("=", 1) for item in args.params.split(",") if item)
    }
    game = pyspiel.load_game("python_razz_small", params)
    started = time.process_time()
    tree = game_tree(game)
    walked = time.process_time() - started
    print(
        f"game tree: {tree.nodes:,} nodes, {len(tree.names):,} information sets, "
        f"walked in {walked:.0f} s"
    )
    print(f"{'iterations':>10}  {'exploitability':>14}  {'% big bet':>9}  {'solver s':>8}")
    steps: list[Step] = []
    policy = None
    for step, average in cfr_plus(tree, checkpoints(args.iterations)):
        steps.append(step)
        policy = average
        chart(steps, args.chart)  # after every point: an interrupted run keeps its curve
        print(
            f"{step.iterations:>10}  {step.exploitability:>14.6f}  "
            f"{100 * step.exploitability:>8.3f}%  {step.seconds:>8.1f}"
        )
    print(f"chart: {args.chart}")
    last = steps[-1]
    verdict = "below" if last.exploitability < TARGET else "NOT below"
    print(f"after {last.iterations} iterations the exploitability is {verdict} 1% of a big bet")
    if args.save and policy is not None:
        SolvedPolicy.of(tree, policy).save(args.save)
        print(f"policy: {args.save}")


if __name__ == "__main__":
    main()
