"""``stud replay FILE...``: run recorded hands through the engine and check them."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "replay",
        help="replay PHH or PokerStars hand histories through the engine and check them",
        description=(
            "Replay every hand of each FILE (PHH .phh/.phhs or PokerStars text) through the "
            "engine: each action is checked against the rules, and the final stacks and "
            "amounts collected are compared with the record's (the record's rake taken as "
            "stated). Exits 1 if any hand cannot be read, breaks a rule or does not match."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="hand-history files")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from stud.history.files import read_file
    from stud.history.replay import replay

    hands: list[dict[str, Any]] = []
    errors: list[str] = []
    texts: list[str] = []
    counts = {"hands": 0, "replayed": 0, "matched": 0, "unreadable": 0, "problems": 0}
    for path in args.files:
        try:
            result = read_file(path)
        except OSError as exc:
            errors.append(f"{path}: {exc.strerror or exc}")
            counts["unreadable"] += 1
            continue
        errors += [str(e) for e in result.errors]
        counts["unreadable"] += len(result.errors)
        counts["hands"] += len(result.hands) + len(result.errors)
        for ordinal, record in zip(result.places, result.hands, strict=True):
            name = f"{path}: hand {ordinal}" + (f" (#{record.hand_id})" if record.hand_id else "")
            report = replay(record, name)
            counts["replayed"] += report.ok
            counts["matched"] += report.matched is True
            counts["problems"] += not report.ok
            hands.append(report.to_dict())
            texts.append(report.text())
    failed = bool(errors) or counts["problems"] > 0
    if args.json:
        json.dump({"hands": hands, "errors": errors, "summary": counts}, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        for text in texts:
            print(text)
        for message in errors:
            print(f"unreadable: {message}")
        print(
            f"{counts['hands']} hands: {counts['replayed']} replayed by the rules, "
            f"{counts['matched']} matched their recorded results, {counts['problems']} with "
            f"problems, {counts['unreadable']} unreadable"
        )
    return 1 if failed else 0
