"""``stud gauntlet GAME``: a bot against every gauntlet opponent, duplicate, with 95% intervals.

Heads-up and six-handed (three seats each side), each deal played from both
sides with the same cards; prints a summary table (Markdown, so it pastes into
docs) or JSON with ``--json``: the raw duplicate figure and the luck-adjusted
one (:mod:`stud.sim.luck`). ``--out FILE`` keeps every session in a results
file, so a long run resumes or grows where it stopped; ``--report`` prints the
table of everything in that file, seeds pooled, without playing.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from stud.cli._names import BOTS, GAMES, GAUNTLET, STAKES
from stud.cli._workers import add_workers_arguments, workers_from


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "gauntlet",
        help="measure a bot against the gauntlet of styles (duplicate, with CIs)",
        description=(
            "Play a bot against each gauntlet opponent (tight-aggressive, stealer, maniac, "
            "nit, calling station, prober, bully) in duplicate matches: every deal is played "
            "twice from the same deck, the players moved one seat on, heads-up and "
            "six-handed. Prints the bot's big bets per 100 hands per seat with 95% "
            "confidence intervals, raw and less the luck of the cards (unbiased, narrower). "
            "Example: stud gauntlet razz --deals 5000 --out razz.jsonl --jobs 2 "
            "(or --ray to play on a Ray cluster)"
        ),
    )
    parser.add_argument("game", help=f"one of {', '.join(GAMES)}")
    parser.add_argument(
        "--bot",
        default="strong",
        help=f"the bot measured, one of {', '.join(BOTS)}, or package.module:factory "
        "(e.g. a trained policy: docs/rl.md)",
    )
    parser.add_argument(
        "--opponents",
        default=",".join(GAUNTLET),
        help="comma-separated opponents (default: the whole gauntlet)",
    )
    parser.add_argument(
        "--deals", type=int, default=1000, help="deals per match, each played twice (%(default)s)"
    )
    parser.add_argument(
        "--seats", default="2,6", help="table sizes, even numbers 2 to 8 (%(default)s)"
    )
    parser.add_argument(
        "--reference",
        default="",
        metavar="BOTS",
        help="also play every gauntlet bot against these heads-up (e.g. maniac,nit)",
    )
    parser.add_argument(
        "--table",
        metavar="LINEUP",
        help="instead, play one mixed table in this seat order, every deal once from every "
        "seat (e.g. strong,tag,strong,nit,strong,maniac): each bot's rate per seat, and "
        "--bot's margin over each",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (%(default)s)")
    add_workers_arguments(parser)
    parser.add_argument(
        "--out",
        type=Path,
        metavar="FILE",
        help="results file (JSON lines): every finished session is added; sessions already "
        "there are reused, so a run resumes or grows",
    )
    parser.add_argument(
        "--report",
        action="store_true",
        help="print the table of every session in --out for GAME and --bot, seeds pooled; "
        "play nothing",
    )
    parser.add_argument(
        "--code",
        metavar="HEX",
        help="with --report: the code version whose sessions to show (default: this code's; "
        "a record names the bots and engine that played it)",
    )
    parser.add_argument(
        "--no-luck",
        dest="luck",
        action="store_false",
        help="skip the luck-adjusted estimate (faster per hand, wider intervals)",
    )
    parser.add_argument(
        "--stakes", default=STAKES, help="ANTE/BRING-IN/SMALL/BIG in chips (%(default)s)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON for programs")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)
    return parser


def _sizes(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        sizes = ()
    if not sizes or any(s not in (2, 4, 6, 8) for s in sizes):
        raise ValueError(f"--seats {text!r}: give even table sizes from 2 to 8, e.g. 2,6")
    return sizes


def _counted(codes: Counter[str]) -> str:
    return ", ".join(f"{n} sessions of {code}" for code, n in codes.most_common())


def run(args: argparse.Namespace) -> int:
    from stud.bots import GAUNTLET as OPPONENTS
    from stud.bots import parse_bots
    from stud.cli._progress import timed_with_bar
    from stud.sim import Stakes
    from stud.sim.duplicate import MatchConfig
    from stud.sim.gauntlet import gauntlet_table, report_gauntlet, run_gauntlet
    from stud.sim.results import code_version, load_records

    if args.report:
        if args.out is None:
            raise ValueError("--report reads the results file: give it with --out FILE")
        if not args.out.exists():
            raise ValueError(f"--out {args.out}: no such results file")
        records = load_records(args.out)
        code = args.code or code_version()
        gauntlet = report_gauntlet(records, args.game, args.bot, code)
        others = Counter(r.code or "unknown" for r in records if r.code != code)
        if not gauntlet.rows and not gauntlet.reference:
            raise ValueError(
                f"{args.out} holds no {args.game} sessions of {args.bot} played by code {code}"
                + (f" (other code: {_counted(others)})" if others else "")
            )
        if args.json:
            print(json.dumps(gauntlet.to_dict() | {"code": code}, indent=2))
        else:
            print(gauntlet_table(gauntlet))
            left = f"; left out, played by other code: {_counted(others)}" if others else ""
            print(f"\ncode {code}{left}")
        return 0
    if args.table is not None:
        return _mixed_table(args)
    opponents = parse_bots(args.opponents)
    reference = parse_bots(args.reference)
    seats = _sizes(args.seats)
    stakes = Stakes.parse(args.stakes)
    workers = workers_from(args)
    game = MatchConfig(args.game, args.bot, args.bot, max(1, args.deals), 2, stakes=stakes).game
    bot = parse_bots(args.bot)[0]
    if args.out is not None:
        load_records(args.out)  # a corrupt file stops the run before anything is played
    matches = len(opponents) * len(seats) + sum(
        len([o for o in OPPONENTS if o != target]) for target in reference
    )
    gauntlet, seconds = timed_with_bar(
        f"{game} deals",
        matches * args.deals,
        lambda advance: run_gauntlet(
            game,
            bot,
            opponents,
            deals=args.deals,
            seats=seats,
            seed=args.seed,
            stakes=stakes,
            workers=workers,
            reference=reference,
            progress=advance,
            out=args.out,
            luck=args.luck,
        ),
        disable=args.quiet or args.json,
    )
    if args.json:
        data = gauntlet.to_dict()
        data["seconds"] = round(seconds, 2)
        data |= workers.to_dict()
        data["seed"] = args.seed
        print(json.dumps(data, indent=2))
        return 0
    print(gauntlet_table(gauntlet))
    speed = gauntlet.played / gauntlet.cpu if gauntlet.cpu > 0 else 0.0
    reused = f", {gauntlet.reused:,} hands reused from {args.out}" if gauntlet.reused else ""
    print(
        f"\nstakes {stakes}, seed {args.seed}, {workers.describe()}, {seconds:.1f} s wall; "
        f"played {gauntlet.played:,} hands in {gauntlet.cpu:.1f} CPU s "
        f"({speed:.0f} hands per CPU second){reused}"
    )
    return 0


def _mixed_table(args: argparse.Namespace) -> int:
    """``--table LINEUP``: one mixed table, duplicate over every seat (:mod:`stud.sim.ring`)."""
    from stud.cli._progress import timed_with_bar
    from stud.sim import Stakes
    from stud.sim.ring import RingConfig, play_ring, ring_table

    for flag, used in (("--out", args.out is not None), ("--reference", bool(args.reference))):
        if used:
            raise ValueError(f"{flag} is for the gauntlet's matches, not a --table")
    workers = workers_from(args)
    config = RingConfig(
        args.game,
        tuple(args.table.split(",")),
        args.deals,
        seed=args.seed,
        stakes=Stakes.parse(args.stakes),
        luck=args.luck,
    )
    hero = args.bot if args.bot in config.players else None
    result, seconds = timed_with_bar(
        f"{config.game} deals",
        config.deals,
        lambda advance: play_ring(config, workers, advance),
        disable=args.quiet or args.json,
    )
    if args.json:
        data: dict[str, Any] = {
            "game": config.game,
            "players": list(config.players),
            "deals": config.deals,
            "hands": result.hands,
            "seed": config.seed,
            "chips": result.chips,
            "bots": [
                {"bot": bot, "seats": config.players.count(bot), **result.rate(bot).to_dict()}
                | ({"adjusted": result.rate(bot, True).to_dict()} if config.luck else {})
                | (
                    {"margin": result.margin(hero, bot, config.luck).to_dict()}
                    if hero is not None and bot != hero
                    else {}
                )
                for bot in config.bots
            ],
            "seconds": round(seconds, 2),
        }
        print(json.dumps(data, indent=2))
        return 0
    print(ring_table(result, hero))
    print(
        f"\nstakes {config.stakes}, seed {config.seed}, {workers.describe()}, "
        f"{seconds:.1f} s wall; {result.hands:,} hands; chips conserved: "
        f"{'yes' if result.chips == 0 else f'no ({result.chips:+d})'}"
    )
    return 0
