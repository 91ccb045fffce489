"""``stud serve``: run the card room (web app, websocket, bots) on a local address."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

T = TypeVar("T")


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
        "--drain-seconds", type=float, default=float(os.environ.get("STUD_DRAIN_SECONDS") or 30),
        metavar="SECONDS",
        help="on SIGTERM, deal no new hand and let those in progress finish for up to SECONDS, "
        "a shared room's other processes taking each table over between hands "
        "(default $STUD_DRAIN_SECONDS or 30; then the hands left are voided)",
    )  # fmt: skip
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
    parser.add_argument(
        "--house-bots", default=os.environ.get("STUD_HOUSE_BOTS") or "strong", metavar="KIND",
        help="the kind of the house's own bots, at the default tables and in tournaments "
        "(default $STUD_HOUSE_BOTS, else strong; a table made with its own kind keeps it)",
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
    parser.add_argument(
        "--free-chips-below", type=int, default=None, metavar="CHIPS",
        help="a player holding fewer chips (balance and tables) may top up to the starting "
        "balance for free (default: a tenth of it)",
    )  # fmt: skip
    parser.add_argument(
        "--free-chips-every", type=float, nargs=2, default=(4.0, 4.0), metavar=("USER", "GUEST"),
        help="hours between two free top-ups of a registered account and of a guest (4 4)",
    )  # fmt: skip
    parser.add_argument(
        "--metrics-port", type=int, default=None, metavar="PORT",
        help="serve Prometheus metrics at /metrics on this port (never on the players' port)",
    )  # fmt: skip
    parser.add_argument(
        "--metrics-host", default="127.0.0.1", metavar="ADDRESS",
        help="address the metrics port listens on (default loopback only)",
    )  # fmt: skip
    parser.add_argument(
        "--log-format", choices=("plain", "json"), default="plain",
        help="the log's lines: plain text, or one JSON object a line (docs/operations.md)",
    )  # fmt: skip
    parser.add_argument(
        "--log-level", default="warning",
        help="the level of uvicorn's lines (warning); the room's own are logged from info up",
    )  # fmt: skip
    parser.add_argument(
        "--login-name-wide", type=float, nargs=2, default=(50, 60.0), metavar=("N", "SECONDS"),
        help="failed logins at one name from all addresses in a burst, then one per SECONDS; "
        "beyond, only a client that has not failed at the name for an hour may try (50 60)",
    )  # fmt: skip
    parser.add_argument(
        "--forwarded-allow-ips", default=os.environ.get("STUD_FORWARDED_ALLOW_IPS", ""),
        metavar="IPS",
        help="comma-separated proxy addresses or networks whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed (default $STUD_FORWARDED_ALLOW_IPS, else none)",
    )  # fmt: skip
    parser.add_argument(
        "--sockets", type=int, nargs=2, default=_pair("STUD_SOCKETS", (8, 32), int),
        metavar=("ACCOUNT", "ADDRESS"),
        help="websockets one account and one client address may hold open "
        "(default $STUD_SOCKETS, else 8 32)",
    )  # fmt: skip
    parser.add_argument(
        "--message-rate", type=float, nargs=2,
        default=_pair("STUD_MESSAGE_RATE", (20.0, 60.0), float), metavar=("ACCOUNT", "ADDRESS"),
        help="messages a second all the sockets of an account, of an address may send, "
        "in bursts of twice that (default $STUD_MESSAGE_RATE, else 20 60)",
    )  # fmt: skip
    parser.add_argument(
        "--header-timeout", type=float, default=10.0, metavar="SECONDS",
        help="a client must send a request's headers within SECONDS or be disconnected (10)",
    )  # fmt: skip
    parser.add_argument(
        "--session-idle", type=float, default=7 * 24 * 3600.0, metavar="SECONDS",
        help="a session not used for SECONDS ends (one week; at most 30 days after login)",
    )  # fmt: skip
    parser.add_argument(
        "--secure-cookies", action="store_true",
        help="always mark the session cookie Secure (it is on any request that came over "
        "HTTPS, directly or through a listed proxy)",
    )  # fmt: skip
    parser.set_defaults(func=run)
    return parser


def _pair(variable: str, default: tuple[T, T], kind: Callable[[str], T]) -> tuple[T, T]:
    """Two numbers from the environment (``"8 32"``), else ``default``: for the benches and
    tests, whose hundreds of clients all come from one loopback address."""
    words = os.environ.get(variable, "").split()
    return (kind(words[0]), kind(words[1])) if len(words) == 2 else default


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from stud.bots import make_bot
    from stud.server.app import create_app
    from stud.server.http.slow_headers import header_deadline
    from stud.server.observe.logs import setup_logging
    from stud.server.observe.metrics import serve_metrics
    from stud.server.room.config import DEFAULT_TABLES, DEFAULT_TOURNAMENTS, RoomConfig
    from stud.server.storage import Database, resolve_url
    from stud.server.storage.topups import TopUpRules
    from stud.server.trust.limits import Limits
    from stud.server.trust.logins import LoginConfig
    from stud.server.trust.sockets import SocketLimits
    from stud.server.ws.protocol import MAX_FRAME_BYTES
    from stud.server.ws.transport import BatchingWebSocketProtocol

    for kind in (args.house_bots, args.bots):
        if kind is not None:
            make_bot(kind)  # ValueError naming the problem before the room opens
    module_name, _, function = args.hand_factory.partition(":")
    start_hand = getattr(importlib.import_module(module_name), function)

    setup_logging(args.log_level, args.log_format)
    url = resolve_url(args.database_url, args.data_dir)
    tournaments = tuple(
        replace(
            template, level_seconds=args.tournament_levels, every=args.mtt_every,
            lead=args.mtt_lead, bots=args.mtt_bots if template.kind == "mtt" else template.bots,
        )
        for template in DEFAULT_TOURNAMENTS
    )  # fmt: skip
    starting = RoomConfig().starting_balance
    if args.free_chips_below is not None and not 0 <= args.free_chips_below <= starting:
        print(f"--free-chips-below must be between 0 and {starting}", file=sys.stderr)
        return 2
    config = RoomConfig(
        turn_seconds=args.turn_seconds,
        time_bank=args.time_bank,
        pause_between_hands=args.pause,
        grace_seconds=args.grace,
        drain_seconds=args.drain_seconds,
        bot_delay=(min(args.bot_delay), max(args.bot_delay)),
        default_tables=() if args.no_default_tables else tuple(
            replace(table, bot_kind=args.house_bots) for table in DEFAULT_TABLES
        ),
        default_tournaments=() if args.no_default_tournaments else tournaments,
        seed=args.seed,
        bot_kind=args.bots,
        house_bots=args.house_bots,
        allowed_origins=tuple(args.allow_origin),
        limits=Limits(idle_seconds=args.idle_close, signups_per_address=args.signups),
        top_ups=TopUpRules(
            to=starting,
            threshold=starting // 10 if args.free_chips_below is None else args.free_chips_below,
            period_seconds=args.free_chips_every[0] * 3600.0,
            guest_period_seconds=args.free_chips_every[1] * 3600.0,
        ),
        logins=LoginConfig(
            failures_per_address=args.login_failures[0],
            failures_per_name=args.login_failures[1],
            address_refill_seconds=args.login_refill[0],
            name_refill_seconds=args.login_refill[1],
            failures_name_wide=args.login_name_wide[0],
            name_wide_refill_seconds=args.login_name_wide[1],
        ),
        sockets=SocketLimits(
            per_account=args.sockets[0], per_address=args.sockets[1],
            account_rate=args.message_rate[0], account_burst=2 * args.message_rate[0],
            address_rate=args.message_rate[1], address_burst=2 * args.message_rate[1],
        ),
        session_idle_seconds=args.session_idle,
        secure_cookies=args.secure_cookies,
        forwarded_allow_ips=tuple(
            ip.strip() for ip in args.forwarded_allow_ips.split(",") if ip.strip()
        ),
    )  # fmt: skip
    redis_url = args.redis_url or os.environ.get("STUD_REDIS_URL") or None
    if redis_url and url.startswith("sqlite"):
        print("a shared room (Redis) needs PostgreSQL: set STUD_DATABASE_URL", file=sys.stderr)
        return 2
    app = create_app(Database(url), config, start_hand, redis_url)
    if args.metrics_port is not None:
        serve_metrics(args.metrics_port, args.metrics_host)
        print(f"Metrics on http://{args.metrics_host}:{args.metrics_port}/metrics", flush=True)
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
        http=header_deadline(args.header_timeout),  # a slow client's headers are not waited for
        proxy_headers=False,  # the app believes only the listed proxies (--forwarded-allow-ips)
        ws=BatchingWebSocketProtocol,  # a step's messages to a client in one write(2)
        ws_max_size=MAX_FRAME_BYTES,
        ws_per_message_deflate=False,
        log_config=None,  # keep the logging set up above, so table faults are reported
    )
    return 0
