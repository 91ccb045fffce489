"""``stud verify FILE...``: check hands dealt from a committed shuffle (docs/fairness.md)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "verify",
        help="check that recorded hands were dealt from their committed shuffle",
        description=(
            "For every hand of each FILE (PHH .phh/.phhs or PokerStars text, as the card room "
            "writes them): the revealed server seed must hash (SHA-256) to the commitment "
            "published before the deal, and every card the record shows, dealt, burnt or "
            "turned up, must be the card that the server seed, the players' seeds and the "
            "hand id deal (docs/fairness.md). Exits 1 if any hand fails or cannot be read."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="hand-history files")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from stud.history.files import read_file
    from stud.history.verify import verify

    reports: list[Any] = []
    errors: list[str] = []
    for path in args.files:
        try:
            result = read_file(path)
        except (OSError, UnicodeDecodeError) as error:
            errors.append(f"{path}: {getattr(error, 'strerror', None) or error}")
            continue
        errors += [str(e) for e in result.errors]
        for ordinal, record in zip(result.places, result.hands, strict=True):
            name = f"{path}: hand {ordinal}" + (f" (#{record.hand_id})" if record.hand_id else "")
            reports.append(verify(record, name))
    good = sum(r.ok for r in reports)
    if args.json:
        document = {
            "hands": [r.to_dict() for r in reports],
            "errors": errors,
            "summary": {"hands": len(reports), "verified": good, "unreadable": len(errors)},
        }
        json.dump(document, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for report in reports:
            print(report.text())
        for message in errors:
            print(f"unreadable: {message}")
        print(
            f"{len(reports)} hands: {good} verified, {len(reports) - good} failed, "
            f"{len(errors)} unreadable"
        )
    return 0 if reports and good == len(reports) and not errors else 1
