"""``stud sim GAME --bots strong,random,... --hands N``: bots against bots, win rates with CIs.

Prints each player's result in big bets per 100 hands with a 95% confidence
interval (a Rich table, or JSON with ``--json``), with a progress bar on the
terminal; ``--chart FILE.png`` draws the running totals.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from stud.cli._names import BOTS, GAMES, SESSION, STAKES
from stud.cli._workers import add_workers_arguments, workers_from

if TYPE_CHECKING:
    from rich.table import Table

    from stud.sim import Rate


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "sim",
        help="play bots against each other and report their win rates",
        description=(
            "Play bots against each other for many hands and report each one's result in "
            "big bets per 100 hands with a 95%% confidence interval. Seats rotate every "
            "hand; every hand starts from fresh stacks. "
            "Example: stud sim razz --bots strong,random,station,strong --hands 100000 "
            "--jobs 2 --chart razz.png (or --ray to play on a Ray cluster)"
        ),
    )
    parser.add_argument("game", help=f"one of {', '.join(GAMES)}")
    parser.add_argument(
        "--bots",
        required=True,
        help=f"comma-separated, one per seat, 2 to 8 of: {', '.join(BOTS)}, or "
        "package.module:factory (e.g. a trained policy: docs/rl.md)",
    )
    parser.add_argument("--hands", type=int, default=10_000, help="hands to play (%(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (%(default)s)")
    add_workers_arguments(parser)
    parser.add_argument(
        "--stakes",
        default=STAKES,
        help="ANTE/BRING-IN/SMALL/BIG in chips (%(default)s)",
    )
    parser.add_argument(
        "--stack", type=int, default=100, help="starting stack in big bets (%(default)s)"
    )
    parser.add_argument(
        "--session",
        type=int,
        default=SESSION,
        help="hands the same bots play together, keeping their reads (%(default)s)",
    )
    parser.add_argument("--chart", default=None, metavar="FILE.png", help="draw running totals")
    parser.add_argument("--json", action="store_true", help="print JSON for programs")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from stud.bots import parse_bots
    from stud.cli._progress import timed_with_bar
    from stud.sim import SimConfig, Stakes, bot_rates, draw_chart, player_rates, simulate, summary

    config = SimConfig(
        game=args.game,
        bots=tuple(parse_bots(args.bots)),
        hands=args.hands,
        seed=args.seed,
        stakes=Stakes.parse(args.stakes),
        stack_big_bets=args.stack,
        session=args.session,
    )
    workers = workers_from(args)
    result, seconds = timed_with_bar(
        f"{config.game} hands",
        config.hands,
        lambda advance: simulate(config, workers, advance),
        disable=args.quiet or args.json,
    )
    if args.chart:
        draw_chart(result, args.chart)
    data = summary(result)
    data["seconds"] = round(seconds, 2)
    data |= workers.to_dict()
    if args.chart:
        data["chart"] = args.chart
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    console = Console()
    console.print(_table(f"{config.game}: {config.hands:,} hands", player_rates(result)))
    if len(set(config.bots)) < len(config.bots):
        console.print(_table("by bot (per seat it holds)", bot_rates(result)))
    rate = config.hands / seconds if seconds > 0 else float("inf")
    console.print(
        f"stakes {config.stakes} (ante/bring-in/small/big), seed {config.seed}, "
        f"{workers.describe()}, {seconds:.1f} s ({rate:,.0f} hands/s)"
    )
    if args.chart:
        console.print(f"chart written to {args.chart}")
    return 0


def _table(title: str, rates: list[Rate]) -> Table:
    from rich.table import Table

    table = Table(title=title)
    table.add_column("player")
    table.add_column("bb/100", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("total bb", justify="right")
    table.add_column("", justify="left")
    for r in rates:
        style = "green" if r.low > 0 else "red" if r.high < 0 else ""
        table.add_row(
            r.label,
            f"[{style}]{r.bb_per_100:+.2f}[/]" if style else f"{r.bb_per_100:+.2f}",
            f"±{r.ci95:.2f}  [{r.low:+.2f}, {r.high:+.2f}]",
            f"{r.total_bb:+,.1f}",
            "significant" if r.significant else "",
        )
    return table
