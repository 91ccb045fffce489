"""``stud deal GAME [--players N] [--seed S] [--open] [--json]``: deal and play one hand.

Every decision is random among the kinds of action legal at that moment
(fold only when there is a bet to face). The hand prints street by street:
the cards each player shows (all cards with ``--open``), every action, the
showdown and who won what with which hand. Players are ``p1``..``pN`` from
the dealer's left, as in PHH; ``--json`` gives the events, whose ``seat``
numbers count from 0.
"""

from __future__ import annotations

import argparse
import json
import secrets
from typing import Any

from stud.cli._names import GAMES, MAX_SEATS, MIN_SEATS


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "deal",
        help="deal and play one hand with random actions, street by street",
        description=(
            "Deal one hand of stud, stud8 or razz and play it with random legal actions: "
            "stud deal razz --players 6 --seed 7. See docs/engine.md."
        ),
    )
    parser.add_argument("game", choices=sorted(GAMES), help="which game")
    parser.add_argument(
        "--players", type=int, default=6, help=f"{MIN_SEATS} to {MAX_SEATS} (%(default)s)"
    )
    parser.add_argument("--seed", type=int, help="make the deck and the actions reproducible")
    parser.add_argument("--stack", type=int, default=200, help="chips each (%(default)s)")
    parser.add_argument("--ante", type=int, default=1, help="(%(default)s)")
    parser.add_argument("--bring-in", type=int, default=2, help="(%(default)s)")
    parser.add_argument("--small-bet", type=int, default=4, help="(%(default)s)")
    parser.add_argument("--big-bet", type=int, default=8, help="(%(default)s)")
    parser.add_argument("--burn", action="store_true", help="deal burn cards (R12 option)")
    parser.add_argument("--open", action="store_true", help="show every card, down cards too")
    parser.add_argument("--json", action="store_true", help="print the events as JSON")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from stud.cli._deal import play, print_hand
    from stud.game import TableConfig, visible_events

    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    config = TableConfig(
        game=args.game,
        ante=args.ante,
        bring_in=args.bring_in,
        small_bet=args.small_bet,
        big_bet=args.big_bet,
        stacks=(args.stack,) * args.players,
        burn_cards=args.burn,
    )
    hand = play(config, seed)
    if args.json:
        events = list(hand.events) if args.open else visible_events(hand.events, None)
        out = {"game": config.game.code, "seed": seed, "events": [e.to_dict() for e in events]}
        print(json.dumps(out, indent=1))
        return 0
    print_hand(hand, Console(highlight=False), open_cards=args.open, seed=seed)
    return 0
