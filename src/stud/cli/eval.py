"""``stud eval HAND... [--game stud|stud8|razz] [--json]``: value hands and name the winners.

Each hand is 5 to 7 cards (``"As Ks 7d 7c 2h 3h 9s"``); the best five play.
Several hands are compared as at a showdown: Stud by high, Razz by ace-to-five
low, Stud8 by high and by the eight-or-better low, each half on its own.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from stud.cards import Card, format_cards, parse_cards
from stud.cli._names import GAME_NAMES, GAMES

if TYPE_CHECKING:
    from stud.evaluate import HandValue


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "eval",
        help="value 5-7 card hands and name the winner(s)",
        description=(
            "Evaluate stud hands of 5 to 7 cards (best five play) and, given several, "
            "name the winners: stud eval 'As Ks 7d 7c 2h 3h 9s' '5c 6c 7h 8d 9s Kd Kh' "
            "--game stud8. See docs/evaluate.md."
        ),
    )
    parser.add_argument("hands", nargs="+", metavar="HAND", help="a hand's cards: 'As Ks 7d 7c 2h'")
    parser.add_argument(
        "--game", default="stud", choices=GAMES, help="which pot to decide (%(default)s)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON for programs")
    parser.set_defaults(func=run)
    return parser


def parse_hands(texts: Sequence[str]) -> list[list[Card]]:
    """The hands' cards; ValueError for a bad card, a bad count or a card in two hands."""
    hands: list[list[Card]] = []
    seen: dict[int, int] = {}
    for number, text in enumerate(texts, 1):
        try:
            cards = parse_cards(text)
        except ValueError as error:
            raise ValueError(f"hand {number}: {error}") from None
        if not 5 <= len(cards) <= 7:
            raise ValueError(f"hand {number}: expected 5, 6 or 7 cards, got {len(cards)}")
        for card in cards:
            if card in seen:
                raise ValueError(f"card {card} is in hand {seen[card]} and hand {number}")
            seen[card] = number
        hands.append(cards)
    return hands


def winners(values: Sequence[int]) -> list[int]:
    """The 1-based numbers of the hands with the best value (ties split); none if all are 0."""
    best = max(values)
    return [i for i, v in enumerate(values, 1) if v == best] if best > 0 else []


def _result(value: HandValue | None) -> dict[str, Any] | None:
    if value is None:
        return None
    return {
        "value": value.value,
        "description": value.description,
        "category": value.category,
        "cards": format_cards(value.cards),
    }


def run(args: argparse.Namespace) -> int:
    from stud.evaluate import evaluate_eight_low, evaluate_high, evaluate_razz

    hands = parse_hands(args.hands)
    game: str = args.game
    highs: list[HandValue | None] = [None if game == "razz" else evaluate_high(h) for h in hands]
    if game == "razz":
        lows: list[HandValue | None] = [evaluate_razz(h) for h in hands]
    elif game == "stud8":
        lows = [evaluate_eight_low(h) for h in hands]
    else:
        lows = [None] * len(hands)
    high_winners = winners([h.value for h in highs if h is not None]) if game != "razz" else []
    low_winners = winners([0 if v is None else v.value for v in lows]) if game != "stud" else []
    if args.json:
        data = {
            "game": game,
            "hands": [
                {
                    "hand": number,
                    "cards": format_cards(cards),
                    "high": _result(high),
                    "low": _result(low),
                }
                for number, (cards, high, low) in enumerate(zip(hands, highs, lows, strict=True), 1)
            ],
            "winners": {"high": high_winners, "low": low_winners},
        }
        print(json.dumps(data, indent=2))
        return 0
    _print_table(game, hands, highs, lows, high_winners, low_winners)
    return 0


def _print_table(
    game: str,
    hands: list[list[Card]],
    highs: list[HandValue | None],
    lows: list[HandValue | None],
    high_winners: list[int],
    low_winners: list[int],
) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=GAME_NAMES[game])
    table.add_column("#", justify="right")
    table.add_column("cards", ratio=1)
    if game == "stud8":
        table.add_column("")
    table.add_column("best hand", no_wrap=True)
    table.add_column("five used", no_wrap=True)
    several = len(hands) > 1
    for number, (cards, high, low) in enumerate(zip(hands, highs, lows, strict=True), 1):
        halves: list[tuple[str, HandValue | None, list[int]]] = []
        if game != "razz":
            halves.append(("HI", high, high_winners))
        if game != "stud":
            halves.append(("LO", low, low_winners))
        for i, (half, value, best) in enumerate(halves):
            row = [str(number), format_cards(cards)] if i == 0 else ["", ""]
            if game == "stud8":
                row.append(half)
            if value is None:
                row += ["no low", ""]
            else:
                mark = " [bold]★[/bold]" if several and number in best else ""
                row += [value.description + mark, format_cards(value.cards)]
            table.add_row(*row, end_section=i == len(halves) - 1 and game == "stud8")
    console.print(table)
    if not several:
        return
    if game == "stud":
        console.print(_verdict("the pot", high_winners))
    elif game == "razz":
        console.print(_verdict("the pot", low_winners))
    elif low_winners:
        console.print(_verdict("the high half", high_winners))
        console.print(_verdict("the low half", low_winners))
    else:
        console.print("No low hand qualified.")
        console.print(_verdict("the whole pot", high_winners))


def _verdict(share: str, numbers: list[int]) -> str:
    """``Hand 2 wins the pot.`` or ``Hands 1 and 2 split the low half.``"""
    if len(numbers) == 1:
        return f"Hand {numbers[0]} wins {share}."
    names = ", ".join(str(n) for n in numbers[:-1]) + f" and {numbers[-1]}"
    return f"Hands {names} split {share}."
