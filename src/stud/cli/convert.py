"""``stud convert IN --to phh|pokerstars``: rewrite a hand-history file in the other format."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from stud.history.model import HandRecord


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "convert",
        help="convert hand histories between PHH and PokerStars text",
        description=(
            "Read IN (PHH .phh/.phhs or PokerStars text) and write every hand in the other "
            "format to OUT or standard output. A PHH hand without results is replayed through "
            "the engine to find them, since PokerStars text states who won what. Hands that "
            "cannot be read are reported on standard error (exit status 1); the rest are written."
        ),
    )
    parser.add_argument("input", metavar="IN", help="a hand-history file")
    parser.add_argument("--to", choices=("phh", "pokerstars"), required=True)
    parser.add_argument("-o", "--output", metavar="OUT", help="write here, not to stdout")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from stud.history.errors import HistoryError
    from stud.history.files import read_file, write_records
    from stud.history.replay import completed

    try:
        result = read_file(args.input)
    except OSError as error:
        print(f"stud convert: {args.input}: {error.strerror or error}", file=sys.stderr)
        return 1
    problems = [str(e) for e in result.errors]
    records: list[HandRecord] = []
    for record in result.hands:
        if args.to == "pokerstars":
            try:
                record = completed(record, f"{args.input}: {record.label}")
            except HistoryError as error:
                problems.append(str(error))
                continue
        records.append(record)
    text = write_records(records, args.to) if records else ""
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    for problem in problems:
        print(f"stud convert: {problem}", file=sys.stderr)
    return 1 if problems else 0
