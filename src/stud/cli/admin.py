"""``stud admin``: the operator's desk on a room's database (docs/admin.md).

Works on the database (``--data-dir`` or ``--database-url``, as ``stud serve``) whether the
room runs or not. Each action writes its audit row; a grant moves chips from or to the
house through the ledger. Closing a table and calling a tournament off need the running
room: they are queued in the database, which the room looks at every second; the command
waits for the answer (``--wait``) and says so if the room did not serve it in time.
"""

from __future__ import annotations

import argparse
import getpass
import json
import re
import time
from datetime import UTC, datetime
from typing import Any

_RELATIVE = re.compile(r"^(\d+(?:\.\d+)?)\s*([mhdw])$")
_UNIT_SECONDS = {"m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_when(text: str, now: float | None = None) -> float:
    """A time: ``30m``, ``12h``, ``7d``, ``2w`` from now, or an ISO date/time (UTC unless it
    says otherwise). ValueError naming the problem."""
    now = time.time() if now is None else now
    relative = _RELATIVE.match(text.strip().lower())
    if relative:
        return now + float(relative.group(1)) * _UNIT_SECONDS[relative.group(2)]
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(
            f"--until {text!r}: give 30m, 12h, 7d, 2w or a date such as 2030-01-31T18:00"
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.timestamp()


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "admin",
        help="the operator's desk: roles, grants, bans, mutes, tables, tournaments",
        description="Act on a room's database; every action is written in the audit log.",
    )
    parser.add_argument("--data-dir", default=None, help="the room's data dir (SQLite)")
    parser.add_argument("--database-url", default=None, help="the room's database URL")
    parser.add_argument(
        "--wait", type=float, default=10.0, metavar="SECONDS",
        help="how long to wait for the running room to serve a table or tournament request",
    )  # fmt: skip
    # The room's options are taken after the action too (stud admin ban bob --data-dir var).
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    common.add_argument("--database-url", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    common.add_argument("--wait", type=float, default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)

    def action(name: str, words: str) -> argparse.ArgumentParser:
        made: argparse.ArgumentParser = actions.add_parser(name, parents=[common], help=words)
        return made

    for role in ("admin", "moderator", "player"):
        one = action(f"make-{role}", f"make an account a {role}")
        one.add_argument("name")
        one.add_argument("--reason", default=f"made {role} from the console")
    grant = action("grant", "chips from the house (negative: taken back)")
    grant.add_argument("name")
    grant.add_argument("amount", type=int)
    grant.add_argument("--reason", required=True)
    ban = action("ban", "ban an account (for good, or --until)")
    ban.add_argument("name")
    ban.add_argument("--reason", required=True)
    ban.add_argument("--until", default=None, help="30m, 12h, 7d, 2w or an ISO date/time (UTC)")
    unban = action("unban", "lift a ban")
    unban.add_argument("name")
    unban.add_argument("--reason", default="unbanned from the console")
    mute = action("mute", "no chat for a while (--minutes 0 lifts it)")
    mute.add_argument("name")
    mute.add_argument("--minutes", type=float, default=60.0)
    mute.add_argument("--reason", default="muted from the console")
    close = action("close-table", "close a cash table (at the hand's end)")
    close.add_argument("id", type=int)
    close.add_argument("--reason", default="closed from the console")
    cancel = action("cancel-tournament", "call a tournament off")
    cancel.add_argument("id", type=int)
    cancel.add_argument("--reason", default="called off from the console")
    accounts = action("accounts", "find accounts by name")
    accounts.add_argument("--search", default="", help="a part of the name")
    ledger = action("ledger", "an account's latest ledger entries")
    ledger.add_argument("name")
    ledger.add_argument("--limit", type=int, default=50)
    action("audit", "the latest rows of the audit log")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from stud.server.errors import Refusal
    from stud.server.storage import Database, resolve_url

    db = Database(resolve_url(args.database_url, args.data_dir))
    try:
        db.create_schema()
        db.write_sync(db.store.house)
        try:
            return _act(db, args)
        except Refusal as refusal:
            print(f"stud admin {args.action}: refused ({refusal.code}): {refusal}")
            return 1
    finally:
        db.close()


def _act(db: Any, args: argparse.Namespace) -> int:
    from stud.server.storage import moderation as desk_db

    who = desk_db.Actor(None, f"console:{getpass.getuser()}")
    action: str = args.action
    store = db.store
    if action.startswith("make-"):
        role = action.removeprefix("make-")
        _show(db.write_sync(lambda c: desk_db.change_role(c, who, args.name, role, args.reason)))
    elif action == "grant":
        _show(
            db.write_sync(
                lambda c: desk_db.grant_chips(store, c, who, args.name, args.amount, args.reason)
            )
        )
    elif action == "ban":
        until = None if args.until is None else parse_when(args.until)
        _show(db.write_sync(lambda c: desk_db.ban_account(c, who, args.name, args.reason, until)))
    elif action == "unban":
        _show(db.write_sync(lambda c: desk_db.unban_account(c, who, args.name, args.reason)))
    elif action == "mute":
        _show(
            db.write_sync(
                lambda c: desk_db.mute_account(c, who, args.name, args.minutes, args.reason)
            )
        )
    elif action in ("close-table", "cancel-tournament"):
        return _queued(db, who, action.replace("-", "_"), args.id, args.reason, args.wait)
    elif action == "accounts":
        for row in db.read_sync(lambda c: desk_db.search(c, args.search)):
            flags = [f for f in ("banned",) if row["banned"]]
            flags += ["muted"] if row["muted_until"] else []
            print(
                f"{row['id']:>6}  {row['name']:<24} {row['kind']:<6} {row['role']:<9} "
                f"balance {row['balance']:>10}  at tables {row['at_tables']:>8}  {' '.join(flags)}"
            )
    elif action == "ledger":
        found = db.read_sync(lambda c: desk_db.member_by_name(c, args.name))
        if found is None:
            print(f"stud admin ledger: no account named {args.name!r}")
            return 1
        print(f"{found.name}: balance {db.read_sync(lambda c: store.balance(c, found.id))}")
        for line in db.read_sync(lambda c: desk_db.ledger_lines(c, found.id, args.limit)):
            where = line["table_id"] or line["tournament_id"] or ""
            print(
                f"{_stamp(line['at'])}  {line['kind']:<12} {line['wallet']:<6} "
                f"{line['amount']:>+10}  {where}"
            )
    else:  # audit
        for row in reversed(db.read_sync(lambda c: desk_db.audit_log(c, 50))):
            detail = "" if row["detail"] is None else json.dumps(row["detail"])
            print(
                f"{_stamp(row['at'])}  {row['actor']:<20} {row['action']:<18} "
                f"{row['target']:<16} {row['reason']}  {detail}"
            )
    return 0


def _queued(db: Any, who: Any, action: str, target: int, reason: str, wait: float) -> int:
    """Queue a request for the running room and wait (at most ``wait`` s) for its answer."""
    from stud.server.storage import moderation as desk_db

    request_id = db.write_sync(lambda c: desk_db.queue_live(c, who, action, target, reason))
    deadline = time.monotonic() + wait
    while True:
        result = db.read_sync(lambda c: desk_db.request_result(c, request_id))
        if result is not None and not result.get("running"):
            break
        if time.monotonic() >= deadline:
            print(
                f"request {request_id} queued: the room serves it when it runs "
                f"(it looks every second); nothing answered within {wait:g} s"
            )
            return 3
        time.sleep(0.2)
    _show(result)
    return 1 if "error" in result else 0


def _show(result: dict[str, Any]) -> None:
    print(json.dumps(result, ensure_ascii=False, sort_keys=True))


def _stamp(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M:%S")
