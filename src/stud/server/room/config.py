"""A room's settings, and what it opens by default: its first tables, its tournaments."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from stud.server.storage import TableSpec
from stud.server.storage.topups import TopUpRules
from stud.server.trust.limits import Limits
from stud.server.trust.logins import LoginConfig
from stud.server.trust.sockets import SocketLimits
from stud.tournament.settings import Kind

DEFAULT_TABLES: tuple[TableSpec, ...] = tuple(
    TableSpec(
        name=name, game=game, ante=ante, bring_in=bring_in, small_bet=small, big_bet=big,
        seats=seats, bots=bots, min_buy_in=small * 10, max_buy_in=small * 100,
    )
    for name, game, ante, bring_in, small, big, seats, bots in (
        ("Ada", "stud", 1, 2, 5, 10, 8, 6),
        ("Babbage", "stud", 5, 10, 20, 40, 6, 4),
        ("Curie", "stud8", 1, 2, 5, 10, 8, 6),
        ("Dirac", "stud8", 5, 10, 20, 40, 6, 4),
        ("Euler", "razz", 1, 2, 5, 10, 8, 6),
        ("Fermi", "razz", 5, 10, 20, 40, 6, 4),
    )
)  # fmt: skip
"""The first tables; the last number is the players bots keep each at (5-7 of 8, 3-5 of 6)."""


@dataclass(frozen=True, slots=True)
class TourneyTemplate:
    """A tournament the room keeps open: a Sit & Go that reopens when it fills, or a
    multi-table tournament every ``every`` seconds (registration opens ``lead`` before)."""

    key: str
    name: str
    game: str
    kind: Kind = "sng"
    seats: int = 6
    buy_in: int = 100
    fee: int = 10
    starting_chips: int = 1500
    level_seconds: float = 300.0
    bots: int = 0
    """Bots the room registers when the tournament opens."""
    every: float = 1800.0
    lead: float = 300.0
    late_levels: int = 0


DEFAULT_TOURNAMENTS: tuple[TourneyTemplate, ...] = (
    TourneyTemplate("sng-stud", "Stud Sit & Go", "stud"),
    TourneyTemplate("sng-stud8", "Stud Hi/Lo Sit & Go", "stud8"),
    TourneyTemplate("sng-razz", "Razz Sit & Go", "razz"),
    TourneyTemplate(
        "mtt-stud", "Stud Half-Hourly", "stud", kind="mtt", seats=8, buy_in=200, fee=20,
        level_seconds=300.0, bots=12, every=1800.0, lead=300.0, late_levels=3,
    ),
)  # fmt: skip
"""A 6-seat Sit & Go per game, and a stud tournament every half hour with 12 bots."""

KEEP_FINISHED: Final = 20
"""Finished or cancelled tournaments kept in the lobby's list (the latest)."""


@dataclass(frozen=True, slots=True)
class RoomConfig:
    """Settings for a room; tests and the bench shorten the clocks."""

    turn_seconds: float = 20.0
    time_bank: float = 30.0
    timeouts_to_sit_out: int = 2
    pause_between_hands: float = 3.0
    grace_seconds: float = 60.0
    drain_seconds: float = 30.0
    """How long a planned stop lets the hands in progress finish (:mod:`.drain`)."""
    bot_delay: tuple[float, float] = (0.7, 7.0)
    """Bounds of a bot's think time (drawn as :mod:`stud.server.actors.thinking` says)."""
    bot_kind: str | None = None
    """Every table's bots are of this kind when set (the bench, tests); else each table's own."""
    house_bots: str = "strong"
    """The kind of the house's own bots: in tournaments (the default tables are made with it
    by ``stud serve``)."""
    starting_balance: int = 10_000
    default_tables: tuple[TableSpec, ...] = DEFAULT_TABLES
    default_tournaments: tuple[TourneyTemplate, ...] = DEFAULT_TOURNAMENTS
    """The tournaments the room keeps open (a Sit & Go per game, a scheduled one)."""
    seed: int | None = None
    sockets: SocketLimits = field(default_factory=SocketLimits)
    """Websockets and messages per account and per client address."""
    flood_strikes: int = 60
    session_seconds: float = 30 * 24 * 3600.0
    """A session ends this long after its login, however busy ..."""
    session_idle_seconds: float = 7 * 24 * 3600.0
    """... or once it has not been used for this long."""
    secure_cookies: bool = False
    """The session cookie is ``Secure`` always (else only on requests that came over HTTPS)."""
    forwarded_allow_ips: tuple[str, ...] = ()
    """Proxies (addresses, networks) whose ``X-Forwarded-For``/``-Proto`` the room believes."""
    logins: LoginConfig = field(default_factory=LoginConfig)
    """How password hashing is bounded and failed logins throttled."""
    allowed_origins: tuple[str, ...] = ()
    """Origins besides the server's own whose pages may change state (e.g. behind a proxy)."""
    limits: Limits = field(default_factory=Limits)
    """What one account may open: tables, bots; when an idle table closes."""
    top_ups: TopUpRules = field(default_factory=TopUpRules)
    """Free play chips for an account that ran low (to the starting balance, once a period)."""
