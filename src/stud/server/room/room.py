"""The card room: its tables' actors, the lobby, the bots' accounts, startup recovery."""

from __future__ import annotations

import asyncio
import itertools
import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

from stud.server.actors.bots import Bot, make_bot
from stud.server.actors.channel import Watcher
from stud.server.actors.mailbox import Command
from stud.server.actors.table import TableActor
from stud.server.room.desk import DEFAULT_TOURNAMENTS, TournamentDesk, TourneyTemplate
from stud.server.storage import Account, Database, TableSpec
from stud.server.trust.limits import Limits, check_new_table
from stud.server.trust.logins import LoginConfig
from stud.server.trust.ratelimit import Buckets, local_buckets
from stud.table import HandFactory, Table, TableSettings

log = logging.getLogger("stud.server")

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
class RoomConfig:
    """Settings for a room; tests and the bench shorten the clocks."""

    turn_seconds: float = 20.0
    time_bank: float = 30.0
    timeouts_to_sit_out: int = 2
    pause_between_hands: float = 3.0
    grace_seconds: float = 60.0
    bot_delay: tuple[float, float] = (0.7, 7.0)
    """Bounds of a bot's think time (drawn as :mod:`stud.server.actors.thinking` says)."""
    bot_kind: str | None = None
    """Every table's bots are of this kind when set (the bench, tests); else each table's own."""
    starting_balance: int = 10_000
    default_tables: tuple[TableSpec, ...] = DEFAULT_TABLES
    default_tournaments: tuple[TourneyTemplate, ...] = DEFAULT_TOURNAMENTS
    """The tournaments the room keeps open (a Sit & Go per game, a scheduled one)."""
    seed: int | None = None
    message_rate: float = 20.0
    message_burst: float = 40.0
    flood_strikes: int = 60
    session_seconds: float = 30 * 24 * 3600.0
    logins: LoginConfig = field(default_factory=LoginConfig)
    """How password hashing is bounded and failed logins throttled."""
    allowed_origins: tuple[str, ...] = ()
    limits: Limits = field(default_factory=Limits)
    """What one account may open: tables, bots; when an idle table closes."""
    """Origins besides the server's own whose pages may change state (e.g. behind a proxy)."""


class TableHandle(Protocol):
    """What a connection calls a table through: its actor here, or a stand-in for a table
    that another process of a shared room runs (stud.server.cluster.remote)."""

    @property
    def id(self) -> int: ...

    async def call(self, command: Command) -> Any: ...

    def tell(self, command: Command) -> None: ...


@dataclass(slots=True)
class Room:
    """Every table's actor, and the services they share."""

    db: Database
    config: RoomConfig
    hand_factory: HandFactory
    actors: dict[int, TableActor] = field(default_factory=dict)
    _idle_bots: list[Account] = field(default_factory=list)
    _names: dict[int, str] = field(default_factory=dict)
    _bot_names: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    recovered: dict[str, int] = field(default_factory=dict)
    _creating: asyncio.Lock = field(default_factory=asyncio.Lock)
    _hand_numbers: dict[int, int] = field(default_factory=dict)
    tournaments: TournamentDesk = field(init=False)
    connections: dict[int, dict[Watcher, None]] = field(default_factory=dict)
    """Each account's open connections (a tournament tells a player where they sit)."""

    def __post_init__(self) -> None:
        self.tournaments = TournamentDesk(self)

    async def open_database(self) -> None:
        """Create the schema if needed and start the writer (a shared room: under a lock)."""
        self.db.start()

    async def start(self) -> None:
        """Void what a crash left running, cash stacks out, then open the tables with bots."""
        self.recovered = await self.db.write(self.db.store.recover)
        if self.recovered["voided"] or self.recovered["cashed_out"]:
            log.warning("recovered after a stop: %s", self.recovered)
        store = self.db.store
        self._idle_bots = await self.db.read(lambda c: store.accounts_of_kind(c, "bot"))
        self._bot_names = itertools.count(len(self._idle_bots) + 1)
        specs = await self.db.read(store.open_tables)
        self._hand_numbers = await self.db.read(store.last_hand_numbers)
        if not specs:
            for default in self.config.default_tables:
                specs.append(await self._save_table(default, None))
        for spec in specs:
            self._open(spec)
        await self.tournaments.start()

    async def stop(self) -> None:
        await self.tournaments.stop()
        await asyncio.gather(*(actor.stop() for actor in self.actors.values()))

    def connected(self, connection: Watcher) -> None:
        if connection.account_id is not None:
            self.connections.setdefault(connection.account_id, {})[connection] = None

    def disconnected(self, connection: Watcher) -> None:
        if connection.account_id is not None:
            mine = self.connections.get(connection.account_id, {})
            mine.pop(connection, None)
            if not mine:
                self.connections.pop(connection.account_id, None)

    def connections_of(self, account_id: int) -> list[Watcher]:
        return list(self.connections.get(account_id, {}))

    def settings_for(self, spec: TableSpec) -> TableSettings:
        c = self.config
        return TableSettings(
            name=spec.name,
            game=spec.game,
            ante=spec.ante,
            bring_in=spec.bring_in,
            small_bet=spec.small_bet,
            big_bet=spec.big_bet,
            seats=spec.seats,
            min_buy_in=spec.min_buy_in,
            max_buy_in=spec.max_buy_in,
            bots=spec.bots,
            turn_seconds=c.turn_seconds,
            time_bank=c.time_bank,
            timeouts_to_sit_out=c.timeouts_to_sit_out,
            pause_between_hands=c.pause_between_hands,
            rake_percent=spec.rake_percent,
            rake_cap=spec.rake_cap,
        )

    def _open(self, spec: TableSpec) -> TableActor:
        seed = None if self.config.seed is None else self.config.seed * 7919 + spec.id
        # Hand ids in shuffles are "<table id>-<hand number>" (docs/fairness.md).
        table = Table(self.settings_for(spec), self.hand_factory, seed=seed, label=str(spec.id))
        table.hand_number = self._hand_numbers.get(spec.id, 0)  # numbers go on after a restart
        actor = TableActor(self, spec, table)
        self.actors[spec.id] = actor
        actor.start()
        return actor

    async def create_table(self, spec: TableSpec, creator: Account | None) -> TableActor:
        """Open a table; ValueError on bad settings, LimitError over the creator's quota."""
        self.settings_for(
            spec
        )  # ValueError (the engine's words) on a bad game, stakes, size or rake
        make_bot(spec.bot_kind)  # ValueError on an unknown bot
        async with self._creating:  # one at a time, so two requests cannot both pass the quota
            if creator is not None:
                mine = [a.spec for a in self.actors.values() if a.spec.created_by == creator.id]
                check_new_table(self.config.limits, creator.kind, mine, spec.bots)
            creator_id = None if creator is None else creator.id
            return self._open(await self._save_table(spec, creator_id))

    async def _save_table(self, spec: TableSpec, created_by: int | None) -> TableSpec:
        store = self.db.store
        return await self.db.write(lambda c: store.create_table(c, spec, created_by))

    def lobby(self) -> list[dict[str, Any]]:
        return [actor.lobby() for actor in self.actors.values()]

    # -- what the app and connections ask; a shared room (stud.server.cluster) answers for
    # -- the tables other processes run too.

    def table(self, table_id: int) -> TableHandle | None:
        """The table to send a command to, wherever it runs."""
        return self.actors.get(table_id)

    def spec(self, table_id: int) -> TableSpec | None:
        actor = self.actors.get(table_id)
        return None if actor is None else actor.spec

    async def lobby_all(self) -> list[dict[str, Any]]:
        """Every table's lobby entry."""
        return self.lobby()

    async def table_entry(self, table_id: int) -> dict[str, Any] | None:
        """One table's lobby entry with what a spectator sees now (None: no such table;
        TableError 'unavailable' while a shared room's table moves between processes)."""
        actor = self.actors.get(table_id)
        return None if actor is None else actor.entry()

    def owns(self, table_id: int) -> bool:
        """Whether this process may run the table now (asked by its actor before each step)."""
        return True

    def lost(self, actor: TableActor) -> None:
        """The actor stopped because this process no longer runs its table."""

    def seated(self, actor: TableActor, account_id: int) -> None:
        """A person sat down at ``actor``'s table (a shared room notes the seat, to seat
        them there again if another process takes the table over)."""

    def health(self) -> dict[str, Any]:
        return {}

    def buckets(self, name: str, burst: float, refill_seconds: float, limit: int) -> Buckets:
        """Where the login and signup throttles count (this process; a shared room: Redis)."""
        return local_buckets(name, burst, refill_seconds, limit)

    def rename(self, account_id: int, name: str) -> None:
        """An account's new name (a guest who registered), at every table it sits or waits at."""
        self._names[account_id] = name
        for actor in self.actors.values():
            if actor.table.seat_of(account_id) is not None or account_id in actor.waiting:
                actor.tell(Command("rename", account_id, args={"name": name}))

    async def account_name(self, account_id: int) -> str:
        name = self._names.get(account_id)
        if name is None:
            account = await self.db.read(lambda c: self.db.store.account(c, account_id))
            name = account.name if account else f"#{account_id}"
            self._names[account_id] = name
        return name

    # -- bots ------------------------------------------------------------------------------

    async def lend_bot(self, actor: TableActor) -> tuple[Account, Bot, int] | None:
        """A bot account bought in at ``actor``'s table (granted play money when it runs low)."""
        store = self.db.store
        spec = actor.spec
        stack = spec.max_buy_in or spec.big_bet * 50
        account = await self.bot_account()

        def buy(conn: Any) -> None:
            if store.balance(conn, account.id) < stack:
                store.grant(conn, account.id, stack * 20)
            store.buy_in(conn, account.id, spec.id, stack)

        await self.db.write(buy)
        kind = self.config.bot_kind or spec.bot_kind
        seed = None if self.config.seed is None else self.config.seed * 104_729 + account.id
        return account, make_bot(kind, seed), stack

    async def new_bot_name(self) -> str:
        return f"Bot {next(self._bot_names)}"

    async def bot_account(self) -> Account:
        """A bot account not playing anywhere (a new one if none is idle)."""
        return (await self.bot_accounts(1))[0]

    async def bot_accounts(self, count: int) -> list[Account]:
        """``count`` bot accounts not playing anywhere; the missing ones made in one write."""
        taken = [self._idle_bots.pop() for _ in range(min(count, len(self._idle_bots)))]
        names = [await self.new_bot_name() for _ in range(count - len(taken))]
        if names:
            store = self.db.store
            taken += await self.db.write(
                lambda c: [store.create_account(c, name, "bot") for name in names]
            )
        for account in taken:
            self._names[account.id] = account.name
        return taken

    def reserve_bot(self, account_id: int, name: str) -> None:
        """A bot restored into a tournament: it is not idle."""
        self._idle_bots = [a for a in self._idle_bots if a.id != account_id]
        self._names[account_id] = name

    async def return_bot(self, actor: TableActor, account_id: int, stack: int) -> None:
        store = self.db.store
        await self.db.write(lambda c: store.cash_out(c, account_id, actor.id, stack))
        self.release_bot(account_id)

    def release_bot(self, account_id: int) -> None:
        self._idle_bots.append(Account(account_id, self._names.get(account_id, "bot"), "bot"))
