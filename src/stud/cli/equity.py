"""``stud equity GAME HAND... [--dead CARDS]``: each player's share of the pot.

Prints a Rich table (or JSON with ``--json``); a progress bar shows on long runs.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from stud.cli._names import DEFAULT_SAMPLES, EXACT_LIMIT, GAME_NAMES, GAMES

if TYPE_CHECKING:
    from rich.table import Table

    from stud.equity import EquityResult
    from stud.equity.api import Method

LONG_RUN = 5_000_000  # run-outs from which a progress bar is worth showing


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "equity",
        help="each player's chance to win the pot, given the cards seen",
        description=(
            "Equity of each hand in stud, stud8 or razz. A hand is DOWN | UP, or "
            "DOWN | UP | RIVER on 7th street; ?? is an unknown card, missing down cards "
            "are unknown: stud equity razz 'As 2d | 3c' '?? | Kh' --dead '7c 8d'. "
            "See docs/equity.md."
        ),
    )
    parser.add_argument("game", help=f"one of {', '.join(GAMES)}")
    parser.add_argument("hands", nargs="+", metavar="HAND", help="a player's cards: 'As 2d | 3c'")
    parser.add_argument("--dead", default=None, help="cards out of play, ?? for unseen ones")
    parser.add_argument(
        "--community", default=None, help="the community card once dealt (R12, 8 players)"
    )
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="enumerate every run-out, however many")
    how.add_argument("--sample", action="store_true", help="sample even when exact would fit")
    parser.add_argument(
        "--samples", type=int, default=DEFAULT_SAMPLES, help="run-outs to sample (%(default)s)"
    )
    parser.add_argument(
        "--exact-limit",
        type=int,
        default=EXACT_LIMIT,
        help="enumerate when the run-outs are at most this many (%(default)s)",
    )
    parser.add_argument("--seed", type=int, default=None, help="make sampling reproducible")
    parser.add_argument("--workers", type=int, default=1, help="processes to use (%(default)s)")
    parser.add_argument("--json", action="store_true", help="print JSON for programs")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from stud.cli._progress import progress_bar
    from stud.equity import equity
    from stud.equity.deal import make_deal

    method: Method = "exact" if args.exact else "sample" if args.sample else "auto"
    deal = make_deal(args.game, args.hands, args.dead, args.community)
    exact = method == "exact" or (method == "auto" and deal.runouts <= args.exact_limit)
    work = deal.runouts if exact else args.samples
    with progress_bar(disable=work < LONG_RUN or args.json) as bar:
        task = bar.add_task("enumerating" if exact else "sampling", total=work)

        def report(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = equity(
            args.game,
            args.hands,
            args.dead,
            community=args.community,
            method=method,
            samples=args.samples,
            seed=args.seed,
            workers=args.workers,
            exact_limit=args.exact_limit,
            progress=report,
        )
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        Console().print(render(result))
    return 0


def _pct(value: float | None) -> str:
    return "" if value is None else f"{100 * value:.2f}%"


def render(result: EquityResult) -> Table:
    """The result as a Rich table, with the method and count as its caption."""
    from rich.table import Table

    hilo = result.game == "stud8"
    sampled = result.method == "sampled"
    table = Table(title=f"{GAME_NAMES[result.game]} equity")
    table.add_column("player", justify="right")
    table.add_column("hand", no_wrap=True)
    for name in ("win", "tie", "equity"):
        table.add_column(name, justify="right")
    if sampled:
        table.add_column("± s.e.", justify="right")
    if hilo:
        for name in ("high", "low", "scoop"):
            table.add_column(name, justify="right")
    for number, player in enumerate(result, start=1):
        row = [str(number), player.hand, _pct(player.win), _pct(player.tie), _pct(player.equity)]
        if sampled:
            row.append(_pct(player.stderr))
        if hilo:
            row += [_pct(player.high), _pct(player.low), _pct(player.scoop)]
        table.add_row(*row)
    notes = []
    if sampled:
        notes.append(
            f"sampled {result.runouts:,} of {result.total_runouts:,} run-outs (seed {result.seed})"
        )
    else:
        notes.append(f"exact: {result.runouts:,} run-outs")
    if result.dead:
        notes.append(f"dead {result.dead}")
    if result.r12:
        shown = result.community or "still to come"
        notes.append(f"community card (R12): {shown}")
    if hilo and result.low_rate is not None:
        notes.append(f"a low qualifies in {_pct(result.low_rate)}")
    table.caption = "; ".join(notes)
    return table
