"""``stud play GAME``: sit down with bots at a table in the terminal."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from stud.cli._names import BOTS, GAMES, STAKES


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "play",
        help="play against bots in the terminal",
        description=(
            "Sit at a table with bots in the terminal. Your legal actions are keys: "
            "f fold, k check, c call, b bring in, r complete/bet/raise, g the big bet "
            "(an open pair in stud), n next hand, q quit. Each hand ends with the "
            "showdown explained and its PokerStars history."
        ),
    )
    parser.add_argument("game", help=f"one of {', '.join(GAMES)}")
    parser.add_argument(
        "--bots",
        default="strong,strong,strong",
        help=f"your opponents, 1 to 7 of: {', '.join(BOTS)} (%(default)s)",
    )
    parser.add_argument("--name", default="You", help="your name at the table (%(default)s)")
    parser.add_argument("--stakes", default=STAKES, help="ANTE/BRING-IN/SMALL/BIG (%(default)s)")
    parser.add_argument("--stack", type=int, default=50, help="stacks in big bets (%(default)s)")
    parser.add_argument("--seed", type=int, default=None, help="deal reproducible hands")
    parser.add_argument(
        "--delay", type=float, default=0.6, help="seconds each bot takes to act (%(default)s)"
    )
    parser.add_argument("--history", type=Path, default=None, help="append histories to FILE")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from stud.bots import parse_bots
    from stud.game import VARIANTS
    from stud.sim import Stakes
    from stud.tui import PlaySettings, run_play

    bots = tuple(parse_bots(args.bots))
    if not 1 <= len(bots) <= 7:
        raise ValueError(f"--bots: 1 to 7 opponents, not {len(bots)}")
    stakes = Stakes.parse(args.stakes)
    settings = PlaySettings(
        game=VARIANTS[args.game].code if args.game in VARIANTS else args.game,
        bots=bots,
        name=args.name,
        ante=stakes.ante,
        bring_in=stakes.bring_in,
        small_bet=stakes.small_bet,
        big_bet=stakes.big_bet,
        stack_big_bets=args.stack,
        seed=args.seed,
        delay=max(0.0, args.delay),
        history_file=args.history,
    )
    results = run_play(settings)
    if results:
        print(f"{len(results)} hand(s), net {sum(results):+,} chips")
    return 0
