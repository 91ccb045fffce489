"""``stud tourney GAME --players 100 --bots strong,random``: a whole bot tournament, offline.

The real tables and hands play it on a made-up clock (a minute a hand), with a
progress bar; it prints the places and prizes, and each bot's average place
and money, so bots can be compared by how they finish. ``--histories DIR``
writes every hand as PokerStars text and PHH (``stud replay`` checks them).
``--tournaments N`` plays N of them, seeded apart, on ``--jobs`` processes or
on Ray (``--ray``), and pools them by bot kind (:mod:`stud.sim.tourneys`).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from stud.cli._names import BOTS, GAMES, MAX_SEATS, MIN_SEATS
from stud.cli._workers import add_workers_arguments, workers_from


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "tourney",
        help="run a whole bot tournament offline and print places and prizes",
        description=(
            "Register PLAYERS bots (their kinds cycling through --bots), seat them at tables "
            "of --seats, and play the tournament to a winner through the real table layer, "
            "levels rising every --level-hands hands. Prints every paid place and each bot "
            "kind's average finishing place and prizes. "
            "With --tournaments N, plays N tournaments seeded apart (--seed, --seed + 1, ...) "
            "and pools them by bot kind, with a 95%% interval on each kind's net per entry. "
            "Example: stud tourney razz --players 100 --bots strong,random --seed 1"
        ),
    )
    parser.add_argument("game", choices=GAMES, help="the game")
    parser.add_argument("--players", type=int, default=100, help="entrants (%(default)s)")
    parser.add_argument(
        "--bots", default="strong,random", help=f"comma-separated kinds of {', '.join(BOTS)}"
    )
    parser.add_argument("--seed", type=int, default=None, help="seed: the same run again")
    parser.add_argument(
        "--seats", type=int, default=8, help=f"seats a table, {MIN_SEATS}-{MAX_SEATS} (%(default)s)"
    )
    parser.add_argument("--chips", type=int, default=1500, help="starting chips (%(default)s)")
    parser.add_argument(
        "--level-hands", type=int, default=10, help="hands a level lasts (%(default)s)"
    )
    parser.add_argument("--buy-in", type=int, default=100, help="buy-in (%(default)s)")
    parser.add_argument("--fee", type=int, default=10, help="fee (%(default)s)")
    parser.add_argument(
        "--tournaments", type=int, default=1, help="tournaments to play (%(default)s)"
    )
    add_workers_arguments(parser)
    parser.add_argument(
        "--histories", metavar="DIR", help="write every hand to DIR (one tournament, played here)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON for programs")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    import random
    from pathlib import Path

    from stud.cli._progress import progress_bar
    from stud.sim.tourneys import TourneyStudy, play_study, pooled
    from stud.tournament.offline import HistoryWriter, run_offline

    if not MIN_SEATS <= args.seats <= MAX_SEATS:
        raise ValueError(f"--seats must be {MIN_SEATS} to {MAX_SEATS}, not {args.seats}")
    if args.level_hands < 1:
        raise ValueError("--level-hands must be at least 1")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    study = TourneyStudy(
        args.game, args.players, tuple(args.bots.split(",")), args.tournaments, seed,
        table_seats=args.seats, starting_chips=args.chips, level_hands=args.level_hands,
        buy_in=args.buy_in, fee=args.fee,
    )  # fmt: skip
    workers = workers_from(args)
    if args.histories and (study.tournaments > 1 or workers.ray is not None):
        raise ValueError("--histories writes one tournament played here: not with "
                         "--tournaments or --ray")  # fmt: skip
    written: list[str] = []
    total = study.tournaments * (study.players - 1)
    with progress_bar(disable=args.quiet or args.json, elapsed=True) as bar:
        task = bar.add_task(f"{args.game} tournament: players out", total=total)
        advance = lambda out: bar.advance(task, out)  # noqa: E731
        if args.histories:
            writer = HistoryWriter(study.settings())
            result = run_offline(
                study.settings(), study.bots, study.players, seed=seed, watch=writer,
                progress=lambda out: bar.update(task, completed=out),
            )  # fmt: skip
            summaries = [{"seed": seed, **result.summary()}]
            written = [str(p) for p in writer.save(Path(args.histories))]
        else:
            summaries = play_study(study, workers, advance)
    if study.tournaments > 1:
        data = pooled(study, summaries) | workers.to_dict()
        if args.json:
            print(json.dumps(data, indent=2))
        else:
            _print_study(data, workers.describe())
        return 0
    data = summaries[0] | {"histories": written}
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    _print(data)
    return 0


def _print_study(data: dict[str, Any], where: str) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    bots = Table(
        title=f"{data['game']}: {data['tournaments']:,} tournaments of {data['entrants']} "
        f"players, {data['hands']:,} hands"
    )
    for column in ("bot", "entries", "average place", "in the money", "prizes", "net",
                   "net per entry (95% CI)"):  # fmt: skip
        bots.add_column(column, justify="left" if column == "bot" else "right")
    for row in data["bots"]:
        ci = row["net_per_entry_ci95"]
        per_entry = f"{row['net_per_entry']:+,.1f}" + (f" ± {ci:,.1f}" if ci is not None else "")
        bots.add_row(
            row["bot"], str(row["players"]), f"{row['average_place']:.2f}",
            str(row["in_the_money"]), f"{row['prizes']:,}", f"{row['net']:+,}", per_entry,
        )  # fmt: skip
    console.print(bots)
    console.print(
        f"buy-in {data['buy_in']}+{data['fee']}, seeds {data['seed']} to "
        f"{data['seed'] + data['tournaments'] - 1}, {where}"
    )


def _print(data: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    places = Table(title=f"{data['game']}: {data['entrants']} players, {data['hands']:,} hands")
    for column in ("place", "player", "bot", "prize"):
        places.add_column(column, justify="right" if column in ("place", "prize") else "left")
    for row in data["places"]:
        if row["prize"] or row["place"] <= 10:
            places.add_row(str(row["place"]), row["name"], row["bot"], f"{row['prize']:,}")
    console.print(places)
    bots = Table(title="by bot")
    for column in ("bot", "players", "average place", "in the money", "prizes", "net"):
        bots.add_column(column, justify="left" if column == "bot" else "right")
    for row in data["bots"]:
        bots.add_row(
            row["bot"], str(row["players"]), f"{row['average_place']:.1f}",
            str(row["in_the_money"]), f"{row['prizes']:,}", f"{row['net']:+,}",
        )  # fmt: skip
    console.print(bots)
    console.print(
        f"prize pool {data['prize_pool']:,} ({data['buy_in']}+{data['fee']} each), "
        f"{data['levels']} levels reached, seed {data['seed']} (--seed to play it again)"
    )
    for path in data["histories"]:
        console.print(f"written: {path}")
