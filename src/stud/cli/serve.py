"""``stud serve``: run the card room (web app, websocket, bots) on a local address."""

from __future__ import annotations

import argparse
import importlib
import logging
import os
import sys
from dataclasses import replace
from typing import Any


def register(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve",
        help="run the card room server",
        description="Run the card room: lobby, accounts, tables with bots, websocket and REST.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--data-dir",
        default=None,
        help="where the SQLite file goes (default $STUD_DATA_DIR or ./var)",
    )
    parser.add_argument(
        "--database-url",
        default=None,
        help="a database URL (default $STUD_DATABASE_URL, else SQLite)",
    )
    parser.add_argument(
        "--redis-url",
        default=None,
        help="share the room with every process using this Redis and the same PostgreSQL "
        "database (default $STUD_REDIS_URL; none: this process alone, docs/deploy.md)",
    )
    parser.add_argument("--turn-seconds", type=float, default=20.0, help="each turn's clock")
    parser.add_argument("--time-bank", type=float, default=30.0, help="each player's time bank")
    parser.add_argument("--pause", type=float, default=3.0, help="seconds between hands")
    parser.add_argument("--grace", type=float, default=60.0, help="seat kept after a disconnect")
    parser.add_argument(
        "--bot-delay", type=float, nargs=2, default=(0.7, 7.0), metavar=("MIN", "MAX"),
        help="bounds of the seconds a bot thinks (a human-like draw: stud.server.actors.thinking)",
    )  # fmt: skip
    parser.add_argument(
        "--bots", default=None, metavar="KIND",
        help="seat bots of this kind at every table (random, station, strong, ..., or "
        "package.module:factory, e.g. a trained policy: docs/rl.md; default: each "
        "table's own, the strong bot at the default tables)",
    )  # fmt: skip
    parser.add_argument("--no-default-tables", action="store_true", help="open no tables at first")
    parser.add_argument(
        "--no-default-tournaments", action="store_true",
        help="open no tournaments of the room's own (a Sit & Go per game, a scheduled one)",
    )  # fmt: skip
    parser.add_argument(
        "--tournament-levels", type=float, default=300.0, metavar="SECONDS",
        help="level length of the room's own tournaments (300)",
    )  # fmt: skip
    parser.add_argument(
        "--mtt-every", type=float, default=1800.0, metavar="SECONDS",
        help="the room's multi-table tournament starts every SECONDS (1800)",
    )  # fmt: skip
    parser.add_argument(
        "--mtt-lead", type=float, default=300.0, metavar="SECONDS",
        help="its registration opens at least SECONDS before the start (300)",
    )  # fmt: skip
    parser.add_argument(
        "--mtt-bots", type=int, default=12, metavar="N",
        help="bots the room registers in its multi-table tournament (12)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=None, help="shuffle reproducibly (tests)")
    parser.add_argument(
        "--hand-factory",
        default="stud.table.engine:start_engine_hand",
        help="module:function that starts a hand (the engine; tests may plug in another)",
    )
    parser.add_argument(
        "--allow-origin", action="append", default=[], metavar="ORIGIN",
        help="also accept state-changing requests from pages of ORIGIN (repeatable)",
    )  # fmt: skip
    parser.add_argument(
        "--idle-close", type=float, default=900.0, metavar="SECONDS",
        help="a table a player opened closes after this long with no person seated (900)",
    )  # fmt: skip
    parser.add_argument(
        "--login-failures", type=float, nargs=2, default=(20, 5), metavar=("ADDRESS", "NAME"),
        help="failed logins allowed in a burst per client address and per name (20 5)",
    )  # fmt: skip
    parser.add_argument(
        "--login-refill", type=float, nargs=2, default=(3.0, 20.0), metavar=("ADDRESS", "NAME"),
        help="seconds until one more failed login is allowed, per address and per name (3 20)",
    )  # fmt: skip
    parser.add_argument(
        "--signups", type=float, default=30, metavar="N",
        help="new accounts (guests too) one address may make in a burst, then 1 per 10 s (30)",
    )  # fmt: skip
    parser.add_argument("--log-level", default="warning", help="uvicorn's log level")
    parser.set_defaults(func=run)
    return parser


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from stud.server.app import create_app
    from stud.server.room.config import DEFAULT_TABLES, DEFAULT_TOURNAMENTS, RoomConfig
    from stud.server.storage import Database, resolve_url
    from stud.server.trust.limits import Limits
    from stud.server.trust.logins import LoginConfig
    from stud.server.ws.protocol import MAX_FRAME_BYTES
    from stud.server.ws.transport import BatchingWebSocketProtocol

    if args.bots is not None:
        from stud.bots import make_bot

        make_bot(args.bots)  # ValueError naming the problem before the room opens
    module_name, _, function = args.hand_factory.partition(":")
    start_hand = getattr(importlib.import_module(module_name), function)

    logging.basicConfig(
        level=getattr(logging, args.log_level.upper(), logging.WARNING),
        format="%(asctime)s %(levelname)s %(name)s %(message)s",
    )
    url = resolve_url(args.database_url, args.data_dir)
    tournaments = tuple(
        replace(
            template, level_seconds=args.tournament_levels, every=args.mtt_every,
            lead=args.mtt_lead, bots=args.mtt_bots if template.kind == "mtt" else template.bots,
        )
        for template in DEFAULT_TOURNAMENTS
    )  # fmt: skip
    config = RoomConfig(
        turn_seconds=args.turn_seconds,
        time_bank=args.time_bank,
        pause_between_hands=args.pause,
        grace_seconds=args.grace,
        bot_delay=(min(args.bot_delay), max(args.bot_delay)),
        default_tables=() if args.no_default_tables else DEFAULT_TABLES,
        default_tournaments=() if args.no_default_tournaments else tournaments,
        seed=args.seed,
        bot_kind=args.bots,
        allowed_origins=tuple(args.allow_origin),
        limits=Limits(idle_seconds=args.idle_close, signups_per_address=args.signups),
        logins=LoginConfig(
            failures_per_address=args.login_failures[0],
            failures_per_name=args.login_failures[1],
            address_refill_seconds=args.login_refill[0],
            name_refill_seconds=args.login_refill[1],
        ),
    )
    redis_url = args.redis_url or os.environ.get("STUD_REDIS_URL") or None
    if redis_url and url.startswith("sqlite"):
        print("a shared room (Redis) needs PostgreSQL: set STUD_DATABASE_URL", file=sys.stderr)
        return 2
    app = create_app(Database(url), config, start_hand, redis_url)
    where = url.split("@")[-1] if "@" in url else url
    shared = f", shared through Redis {redis_url.split('@')[-1]}" if redis_url else ""
    print(
        f"Stud card room on http://{args.host}:{args.port}/  (database: {where}{shared})",
        flush=True,
    )
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws=BatchingWebSocketProtocol,  # a step's messages to a client in one write(2)
        ws_max_size=MAX_FRAME_BYTES,
        ws_per_message_deflate=False,
        log_config=None,  # keep the logging set up above, so table faults are reported
    )
    return 0
