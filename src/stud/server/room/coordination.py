"""What differs between a room run by one process and a room shared by several: one interface.

The room (:mod:`stud.server.room.room`) and its tournament desk
(:mod:`stud.server.room.desk`) are written once. Whatever depends on how many
processes run the room goes through the :class:`Coordination` the room holds:
who runs each table and tournament, the lobby of those run elsewhere, the bot
accounts and their names, the login and signup throttles, commands and views
relayed to other processes, renames, health. Two implementations:

* :class:`stud.server.room.local.LocalCoordination`: one process runs everything;
  at start it recovers what a crash left (voids hands in progress, cashes stacks
  out) for every table at once.
* ``stud.server.cluster.coordination.RedisCoordination``: the processes started
  on one PostgreSQL database and one Redis share the room; each table and
  tournament runs where its lease is held (fencing tokens checked in
  PostgreSQL), and is taken over, recovered on its own, when that process dies.

A coordination drives the room's life cycle, with the room's own steps, which
:class:`RoomCore` and :class:`DeskCore` name. This module imports neither
implementation: the room never imports the cluster.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from sqlalchemy import Connection

from stud.server.actors.mailbox import Command
from stud.server.actors.table import TableActor
from stud.server.actors.tournament import TournamentActor
from stud.server.room.config import RoomConfig
from stud.server.storage import Account, Database, TableSpec
from stud.server.trust.ratelimit import Buckets


class BotsOutOfReach(Exception):
    """No bot account can be taken now: the service that shares them (a shared room's Redis)
    is out of reach. A table goes on with the players it has and asks again later."""


class Handle(Protocol):
    """What a connection calls a table or a tournament through: its actor here, or a
    stand-in for one another process of a shared room runs."""

    @property
    def id(self) -> int: ...

    async def call(self, command: Command) -> Any: ...

    def tell(self, command: Command) -> None: ...


class DeskCore(Protocol):
    """The tournament desk's steps a coordination runs it by."""

    @property
    def actors(self) -> dict[int, TournamentActor]: ...

    async def restore(self, row: dict[str, Any]) -> None:
        """Run a stored tournament here from its last snapshot (a finished one: to show it)."""
        ...

    def run_new(
        self, data: dict[str, Any], *, template: str | None, created_by: int | None
    ) -> TournamentActor:
        """Run a tournament just stored (``data``: its first snapshot) here."""
        ...

    async def ensure_defaults(self) -> None:
        """Open each default tournament that has no copy taking registrations."""
        ...

    def prune(self) -> None:
        """Keep the latest finished tournaments listed; stop the older ones' actors."""
        ...

    async def stop(self) -> None:
        """Stop every tournament's actor."""
        ...


class RoomCore(Protocol):
    """The room's steps and state a coordination runs it by."""

    @property
    def db(self) -> Database: ...

    @property
    def config(self) -> RoomConfig: ...

    @property
    def actors(self) -> dict[int, TableActor]: ...

    @property
    def names(self) -> dict[int, str]:
        """Accounts' names as the tables show them (a cache the bot pool fills too)."""
        ...

    @property
    def recovered(self) -> dict[str, int]:
        """What recovery found: hands voided, stacks cashed out (``/api/health``)."""
        ...

    @property
    def hand_numbers(self) -> dict[int, int]:
        """Each table's last hand number, for a table run again (numbers go on)."""
        ...

    @property
    def tournaments(self) -> DeskCore: ...

    def run_table(self, spec: TableSpec) -> TableActor:
        """Run a stored table here: its actor, started."""
        ...

    async def first_tables(self) -> list[TableSpec]:
        """The open tables; the default ones stored first if there are none."""
        ...

    async def stop_tables(self) -> None:
        """Stop every table's actor."""
        ...

    def rename_here(self, account_id: int, name: str) -> None:
        """An account's new name at the tables this process runs."""
        ...

    def tell(self, account_id: int, text: str) -> None:
        """A message to the account's connections to this process."""
        ...

    def release_bot(self, account_id: int) -> None:
        """A bot idle again."""
        ...


class Coordination(Protocol):
    """Everything the room does differently when several processes run it."""

    # -- life cycle --------------------------------------------------------------------------

    async def open_database(self) -> None:
        """Create the schema if needed and start the database's writer."""
        ...

    async def start(self) -> None:
        """Run this process's share of the room: its tables, then its tournaments."""
        ...

    def draining(self) -> None:
        """This process is stopping: it takes no table nor tournament any more, and gives up
        each one's lease as its actor stops at a hand boundary (:mod:`.drain`)."""
        ...

    async def stop(self) -> None:
        """Stop every actor of this process, and give up what it runs."""
        ...

    def lock(self, name: str, seconds: float = 30.0) -> AbstractAsyncContextManager[None]:
        """One holder at a time, in every process of the room (waits up to ``seconds``)."""
        ...

    # -- tables ------------------------------------------------------------------------------

    def owns(self, table_id: int) -> bool:
        """Whether this process may run the table now (asked by its actor before each step)."""
        ...

    def seated(self, actor: TableActor, account_id: int) -> None:
        """A person sat down at the actor's table (to seat them again after a takeover)."""
        ...

    def lost(self, actor: TableActor) -> None:
        """The actor stopped because this process no longer runs its table."""
        ...

    async def open_table(self, spec: TableSpec) -> TableActor:
        """Run a table just stored, here."""
        ...

    def remote_table(self, table_id: int) -> Handle | None:
        """A table another process runs (or will), called like its actor; None: none such."""
        ...

    def spec(self, table_id: int) -> TableSpec | None:
        """The settings of a table another process runs."""
        ...

    async def lobby(self) -> dict[int, dict[str, Any]]:
        """The lobby entries of the tables other processes run, by table."""
        ...

    # -- tournaments -------------------------------------------------------------------------

    def owns_tournament(self, tournament_id: int) -> bool:
        """Whether this process may run the tournament now (asked by its actor each step)."""
        ...

    def fence(self, conn: Connection, tournament_id: int) -> None:
        """Checked in every write of the tournament's (refused once another process runs it)."""
        ...

    def event_floor(self, tournament_id: int) -> int:
        """Where the numbers of the tournament's tables' events start (above a predecessor's)."""
        ...

    def tournament_lost(self, actor: TournamentActor) -> None:
        """The actor stopped because this process no longer runs its tournament."""
        ...

    def tournament_changed(self, tournament_id: int) -> None:
        """The tournament's page changed (its lobby line is published again)."""
        ...

    def tournament_dropped(self, tournament_id: int) -> None:
        """A finished tournament no longer kept in the lobby's list."""
        ...

    async def open_tournament(
        self,
        tournament_id: int,
        data: dict[str, Any],
        *,
        template: str | None,
        created_by: int | None,
    ) -> TournamentActor:
        """Run a tournament just stored (``data``: its first snapshot), here."""
        ...

    def remote_tournament(self, tournament_id: int) -> Handle | None:
        """A tournament another process runs, called like its actor; None: none such."""
        ...

    async def find_tournament(self, tournament_id: int) -> None:
        """A tournament asked for and not run here: look at the room's tournaments again if
        nobody runs it (it may have just finished, and then it is shown from here)."""
        ...

    async def tournament_lines(self) -> dict[int, dict[str, Any]]:
        """The lobby lines of the tournaments other processes run, by tournament."""
        ...

    # -- accounts, bots, throttles -----------------------------------------------------------

    def renamed(self, account_id: int, name: str) -> None:
        """An account's new name, for the tables other processes run."""
        ...

    def tell_account(self, account_id: int, text: str) -> None:
        """A message for the account's connections to other processes."""
        ...

    async def take_bots(self, count: int) -> list[Account]:
        """``count`` bot accounts idle in the whole room (new ones made if too few are);
        :class:`BotsOutOfReach` while the service that shares them is away."""
        ...

    def reserve_bot(self, account_id: int) -> None:
        """A bot this process plays for (restored into a tournament): not idle."""
        ...

    def release_bot(self, account_id: int, name: str) -> None:
        """A bot idle again."""
        ...

    def buckets(self, name: str, burst: float, refill_seconds: float, limit: int) -> Buckets:
        """Where a login or signup throttle counts (this process, or the whole room)."""
        ...

    def health(self) -> dict[str, Any]:
        """What ``/api/health`` adds about this process's share of the room."""
        ...

    async def redis_reachable(self) -> bool | None:
        """Whether the room's Redis answers now (None: the room has none)."""
        ...
