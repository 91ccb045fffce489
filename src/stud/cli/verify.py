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
            "writes them, or the JSON record of GET /api/hands/ID): the revealed server seed "
            "must hash (SHA-256) to the commitment "
            "published before the deal, and every card the record shows, dealt, burnt or "
            "turned up, must be the card that the server seed, the players' seeds and the "
            "hand id deal (docs/fairness.md). Exits 1 if any hand fails or cannot be read."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="hand-history files")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.set_defaults(func=run)
    return parser


def _json_record(path: str, text: str) -> tuple[str, Any] | None:
    """(its PHH, its ``summary.shuffle``) if ``text`` is a room's JSON hand record, else None."""
    if not text.lstrip().startswith("{"):
        return None
    try:
        data = json.loads(text)
    except ValueError as error:
        raise ValueError(f"{path}: not JSON: {error}") from None
    if not (isinstance(data, dict) and isinstance(data.get("phh"), str)):
        raise ValueError(f"{path}: a JSON hand record has its history in a 'phh' field")
    summary = data.get("summary")
    return data["phh"], summary.get("shuffle") if isinstance(summary, dict) else None


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from stud.history.files import read_text
    from stud.history.verify import verify

    reports: list[Any] = []
    errors: list[str] = []
    for path in args.files:
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
            found = _json_record(path, text)
        except (OSError, ValueError) as error:
            errors.append(f"{path}: {getattr(error, 'strerror', None) or error}")
            continue
        stated = None
        if found is not None:
            text, stated = found
        result = read_text(text, path)
        errors += [str(e) for e in result.errors]
        for ordinal, record in zip(result.places, result.hands, strict=True):
            name = f"{path}: hand {ordinal}" + (f" (#{record.hand_id})" if record.hand_id else "")
            report = verify(record, name)
            shuffle = record.shuffle
            if stated is not None and shuffle is not None and stated != shuffle.revealed():
                report.problems.append("the record's summary states another shuffle than its PHH")
            reports.append(report)
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
