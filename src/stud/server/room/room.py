"""The card room: its tables' actors, the lobby, the bots' accounts, its life cycle.

One piece of code whether one process runs the room or several share it: what
differs (who runs each table, the lobby of those run elsewhere, the bot pool,
the throttles) is the :class:`~stud.server.room.coordination.Coordination` the
room holds, which also drives its start and stop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from stud.server.actors.bots import Bot, make_bot
from stud.server.actors.channel import Watcher
from stud.server.actors.mailbox import Command
from stud.server.actors.table import TableActor
from stud.server.observe.logs import at
from stud.server.room.config import DEFAULT_TABLES, RoomConfig
from stud.server.room.coordination import BotsOutOfReach, Coordination, Handle, RoomCore
from stud.server.room.desk import TournamentDesk
from stud.server.room.drain import Leaving, drain
from stud.server.room.local import LocalCoordination
from stud.server.room.moderation import Moderation
from stud.server.storage import Account, Database, TableSpec
from stud.server.trust.limits import check_new_table
from stud.server.trust.ratelimit import Buckets
from stud.table import HandFactory, Table, TableSettings

__all__ = ["DEFAULT_TABLES", "Coordinator", "Room", "RoomConfig", "TableHandle"]

log = logging.getLogger("stud.server")

TableHandle = Handle
"""What a connection calls a table through: its actor here, or a stand-in for a table
another process of a shared room runs."""

Coordinator = Callable[[RoomCore], Coordination]
"""Makes a room's coordination, given the room (:class:`LocalCoordination`, or a shared room's)."""


class Room:
    """Every table's actor, the tournament desk, and the services they share."""

    def __init__(
        self,
        *,
        db: Database,
        config: RoomConfig,
        hand_factory: HandFactory,
        coordination: Coordinator = LocalCoordination,
    ) -> None:
        self.db = db
        self.config = config
        self.hand_factory = hand_factory
        self.actors: dict[int, TableActor] = {}
        self.names: dict[int, str] = {}
        """Accounts' names as the tables show them, as far as known here."""
        self.recovered: dict[str, int] = {}
        """What recovery found (hands voided, stacks cashed out), for ``/api/health``."""
        self.hand_numbers: dict[int, int] = {}
        self.connections: dict[int, dict[Watcher, None]] = {}
        """Each account's open connections (a tournament tells a player where they sit)."""
        self.tournaments = TournamentDesk(self)
        self.moderation = Moderation(self)
        """Bans and mutes carried out, the console's requests served (docs/admin.md)."""
        self.coordination: Coordination = coordination(self)

    # -- life cycle: driven by the coordination ----------------------------------------------

    async def open_database(self) -> None:
        """Create the schema if needed and start the writer (a shared room: under a lock)."""
        await self.coordination.open_database()

    async def start(self) -> None:
        """Run this process's tables and tournaments (one process: all of them, recovered)."""
        await self.coordination.start()
        self.moderation.start()

    async def stop(self) -> None:
        """A planned stop: the hands in progress finish first (up to the configured drain),
        a shared room's other processes take each table and tournament over between hands."""
        self.coordination.draining()
        actors: list[Leaving] = [*self.actors.values(), *self.tournaments.actors.values()]
        await drain(actors, self.config.drain_seconds)
        await self.moderation.stop()
        await self.coordination.stop()

    @property
    def chat_guard(self) -> Moderation:
        """Who may not chat now (the tables' chat asks it)."""
        return self.moderation

    async def stop_tables(self) -> None:
        await asyncio.gather(*(actor.stop() for actor in self.actors.values()))

    async def first_tables(self) -> list[TableSpec]:
        """The open tables; the default ones stored first if there are none (one process of
        a shared room at a time decides)."""
        store = self.db.store
        async with self.coordination.lock("defaults"):
            specs = await self.db.read(store.open_tables)
            if not specs:
                for default in self.config.default_tables:
                    specs.append(await self._save_table(default, None))
        return specs

    # -- connections -------------------------------------------------------------------------

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

    def tell(self, account_id: int, text: str) -> None:
        """A message to every connection of one account to this process."""
        for connection in self.connections_of(account_id):
            connection.send(text)

    # -- tables ------------------------------------------------------------------------------

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

    def run_table(self, spec: TableSpec) -> TableActor:
        """Run a stored table here: its actor, started."""
        seed = None if self.config.seed is None else self.config.seed * 7919 + spec.id
        # Hand ids in shuffles are "<table id>-<hand number>" (docs/fairness.md).
        table = Table(self.settings_for(spec), self.hand_factory, seed=seed, label=str(spec.id))
        table.hand_number = self.hand_numbers.get(spec.id, 0)  # numbers go on after a restart
        actor = TableActor(self, spec, table)
        actor.chat.guard = self.moderation  # the muted may not chat (stud.server.room.moderation)
        self.actors[spec.id] = actor
        actor.start()
        log.info("table opened: %s (%s)", spec.name, spec.game, extra=at(spec.id))
        return actor

    async def create_table(self, spec: TableSpec, creator: Account | None) -> TableActor:
        """Open a table here; ValueError on bad settings, LimitError over the creator's quota
        (which counts the creator's tables wherever they run)."""
        self.settings_for(
            spec
        )  # ValueError (the engine's words) on a bad game, stakes, size or rake
        make_bot(spec.bot_kind)  # ValueError on an unknown bot
        creator_id = None if creator is None else creator.id
        # One at a time per creator, so two requests cannot both pass the quota.
        async with self.coordination.lock(f"create:{creator_id}", 10.0):
            if creator is not None:
                specs = await self.db.read(self.db.store.open_tables)
                mine = [s for s in specs if s.created_by == creator.id]
                check_new_table(self.config.limits, creator.kind, mine, spec.bots)
            saved = await self._save_table(spec, creator_id)
            return await self.coordination.open_table(saved)

    async def _save_table(self, spec: TableSpec, created_by: int | None) -> TableSpec:
        store = self.db.store
        return await self.db.write(lambda c: store.create_table(c, spec, created_by))

    # -- what the app and connections ask, wherever the table runs ---------------------------

    def table(self, table_id: int) -> TableHandle | None:
        """The table to send a command to, wherever it runs."""
        actor = self.actors.get(table_id)
        if actor is not None and self.coordination.owns(table_id):
            return actor
        return self.coordination.remote_table(table_id)

    def spec(self, table_id: int) -> TableSpec | None:
        actor = self.actors.get(table_id)
        return actor.spec if actor is not None else self.coordination.spec(table_id)

    async def lobby_all(self) -> list[dict[str, Any]]:
        """Every table's lobby entry, by table id."""
        entries = await self.coordination.lobby()
        for table_id, actor in self.actors.items():
            entries[table_id] = actor.lobby()
        return [entries[t] for t in sorted(entries)]

    async def table_entry(self, table_id: int) -> dict[str, Any] | None:
        """One table's lobby entry with what a spectator sees now (None: no such table;
        TableError 'unavailable' while a shared room's table moves between processes)."""
        handle = self.table(table_id)
        if handle is None:
            return None
        if isinstance(handle, TableActor):
            return handle.entry()
        entry: dict[str, Any] = await handle.call(Command("spectate"))
        return entry

    def health(self) -> dict[str, Any]:
        return self.coordination.health()

    def buckets(self, name: str, burst: float, refill_seconds: float, limit: int) -> Buckets:
        """Where the login and signup throttles count (this process; a shared room: Redis)."""
        return self.coordination.buckets(name, burst, refill_seconds, limit)

    # -- what a table's actor asks (stud.server.actors.table.TableHost) ----------------------

    def owns(self, table_id: int) -> bool:
        return self.coordination.owns(table_id)

    def lost(self, actor: TableActor) -> None:
        self.coordination.lost(actor)

    def seated(self, actor: TableActor, account_id: int) -> None:
        self.coordination.seated(actor, account_id)

    # -- accounts ----------------------------------------------------------------------------

    def rename(self, account_id: int, name: str) -> None:
        """An account's new name (a guest who registered), at every table it sits or waits
        at, in every process of the room."""
        self.rename_here(account_id, name)
        self.coordination.renamed(account_id, name)

    def rename_here(self, account_id: int, name: str) -> None:
        """An account's new name at the tables this process runs."""
        self.names[account_id] = name
        for actor in self.actors.values():
            if actor.table.seat_of(account_id) is not None or account_id in actor.waiting:
                actor.tell(Command("rename", account_id, args={"name": name}))

    async def account_name(self, account_id: int) -> str:
        name = self.names.get(account_id)
        if name is None:
            account = await self.db.read(lambda c: self.db.store.account(c, account_id))
            name = account.name if account else f"#{account_id}"
            self.names[account_id] = name
        return name

    # -- bots --------------------------------------------------------------------------------

    async def lend_bot(self, actor: TableActor) -> tuple[Account, Bot, int] | None:
        """A bot account bought in at ``actor``'s table (granted play money when it runs low)."""
        store = self.db.store
        spec = actor.spec
        stack = spec.max_buy_in or spec.big_bet * 50
        try:
            account = await self.bot_account()
        except BotsOutOfReach as away:  # (a later timer pass asks again)
            log.warning("table %s: no bot to seat now: %s", actor.id, away, extra=at(actor.id))
            return None

        def buy(conn: Any) -> None:
            if store.balance(conn, account.id) < stack:
                store.grant(conn, account.id, stack * 20)
            store.buy_in(conn, account.id, spec.id, stack)

        try:
            await self.db.write(buy)
        except BaseException:
            self.release_bot(account.id)  # (the database is out of reach: it stays idle)
            raise
        kind = self.config.bot_kind or spec.bot_kind
        seed = None if self.config.seed is None else self.config.seed * 104_729 + account.id
        return account, make_bot(kind, seed), stack

    async def bot_account(self) -> Account:
        """A bot account not playing anywhere (a new one if none is idle)."""
        return (await self.bot_accounts(1))[0]

    async def bot_accounts(self, count: int) -> list[Account]:
        """``count`` bot accounts not playing anywhere in the room (new ones if too few are)."""
        taken = await self.coordination.take_bots(count)
        for account in taken:
            self.names[account.id] = account.name
        return taken

    def reserve_bot(self, account_id: int, name: str) -> None:
        """A bot restored into a tournament: it is not idle."""
        self.names[account_id] = name
        self.coordination.reserve_bot(account_id)

    async def return_bot(self, actor: TableActor, account_id: int, stack: int) -> None:
        store = self.db.store
        await self.db.write(lambda c: store.cash_out(c, account_id, actor.id, stack))
        self.release_bot(account_id)

    def release_bot(self, account_id: int) -> None:
        self.coordination.release_bot(account_id, self.names.get(account_id, "bot"))
