"""The room's tournament desk: its tournaments' actors, the default ones, restoring after a stop.

The room opens its default tournaments at start (:data:`DEFAULT_TOURNAMENTS`,
configurable like the default cash tables): a Sit & Go per game that opens
again as soon as one fills, and a multi-table tournament on a schedule, with
late registration and some of the room's bots registered. Players open more
Sit & Gos. After a stop or a crash, every unfinished tournament is restored
from the snapshot stored with its last step (:mod:`stud.tournament.snapshot`):
a hand in progress is void and its chips go back to the stacks, and a buy-in
taken for a registration that was never stored is refunded.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final, Protocol

from sqlalchemy import Connection

from stud.server.actors.bots import Bot, make_bot
from stud.server.actors.mailbox import Command
from stud.server.actors.tournament import TournamentActor
from stud.server.storage import Account
from stud.server.storage import tourneys as db_tourneys
from stud.table import TableError
from stud.tournament import Structure, Tournament, TournamentSettings
from stud.tournament.settings import Kind
from stud.tournament.snapshot import restore, snapshot

if TYPE_CHECKING:
    from stud.server.room.room import Room

log = logging.getLogger("stud.server")

KEEP_FINISHED: Final = 20
"""Finished or cancelled tournaments kept in the lobby's list (the latest)."""
SNGS_PER_ACCOUNT: Final = 2
"""Sit & Gos an account may have opened that have not started yet."""


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


class TourneyHandle(Protocol):
    """What a connection calls a tournament through: its actor here, or a stand-in for a
    tournament another process of a shared room runs (stud.server.cluster.tourneys)."""

    @property
    def id(self) -> int: ...

    async def call(self, command: Command) -> Any: ...

    def tell(self, command: Command) -> None: ...


class TournamentDesk:
    """Every tournament's actor, and what they share: bots, defaults, the lobby's list.

    A shared room (stud.server.cluster.tourneys) runs each tournament in one process
    and overrides what a connection or a request reaches through the desk: ``handle``,
    ``details``, ``command``, ``listing_all``, ``tell_account``, and the lease checks
    (``owns``, ``fence``, ``lost``) its actors make.
    """

    def __init__(self, room: Room) -> None:
        self.room = room
        self.actors: dict[int, TournamentActor] = {}
        self._opening = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    # -- life cycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Restore the unfinished tournaments (and list the last finished), then the defaults."""
        db = self.room.db
        rows = await db.read(lambda c: db_tourneys.stored(c, unfinished=True))
        done = await db.read(lambda c: db_tourneys.stored(c, unfinished=False, limit=KEEP_FINISHED))
        for row in [*done, *rows]:
            try:
                await self._restore(row)
            except Exception:  # one damaged tournament must not keep the room closed
                log.exception("tournament %s could not be restored", row["id"])
        await self.ensure_defaults()

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*(actor.stop() for actor in self.actors.values()))

    async def _restore(self, row: dict[str, Any]) -> None:
        now = time.time()
        t, outs = restore(row["snapshot"], now, start_hand=self.room.hand_factory)
        if t.state in ("registering", "running"):
            await self._refund_lost_registrations(t)
        actor = TournamentActor(self, t, template=row["template"], created_by=row["created_by"])
        unfinished = t.state in ("registering", "running")
        bots = [e for e in t.entrants.values() if e.bot and unfinished]
        for entrant in bots:
            self.room.reserve_bot(entrant.id, entrant.name)
        actor.bots.update({e.id: None for e in bots})
        self.actors[t.settings.id] = actor
        actor.start(outs if unfinished else None)
        if outs:
            log.warning("tournament %s restored: %s", t.settings.id, [str(o)[:80] for o in outs])

    async def _refund_lost_registrations(self, t: Tournament) -> None:
        """A buy-in taken just before a crash whose registration was never stored: refund it."""
        s = t.settings
        store = self.room.db.store

        def fix(conn: Any) -> None:
            self.fence(conn, s.id)
            for account, amount in db_tourneys.paid_in(conn, s.id).items():
                if account in t.entrants:
                    continue
                for _ in range(amount // max(1, s.buy_in + s.fee)):
                    db_tourneys.refund(store, conn, account, s.id, s.buy_in, s.fee)
                log.warning("tournament %s: refunded %s to account %s", s.id, amount, account)

        await self.room.db.write(fix)

    # -- opening tournaments ---------------------------------------------------------------

    def settings(
        self, template: TourneyTemplate, now: float, *, last_start: float | None = None
    ) -> TournamentSettings:
        """Settings (id 0: the store numbers it) for a template, with the room's clocks.

        A multi-table tournament starts ``every`` seconds after the template's last one
        (``last_start``), and at least ``lead`` seconds from ``now``, so players can
        register. ValueError names what is wrong (a game, a size, a buy-in).
        """
        c = self.room.config
        start_at = None
        if template.kind == "mtt":
            start_at = now + template.lead
            if last_start is not None:
                start_at = max(start_at, last_start + template.every)
        return TournamentSettings(
            id=0, name=template.name, game=template.game, kind=template.kind,
            buy_in=template.buy_in, fee=template.fee,
            structure=Structure(
                starting_chips=template.starting_chips, level_seconds=template.level_seconds
            ),
            table_seats=template.seats, start_at=start_at, late_levels=template.late_levels,
            turn_seconds=c.turn_seconds, time_bank=c.time_bank,
            timeouts_to_sit_out=c.timeouts_to_sit_out, pause_between_hands=c.pause_between_hands,
        )  # fmt: skip

    async def create(
        self,
        proto: TournamentSettings,
        *,
        template: str | None = None,
        created_by: int | None = None,
        bots: int = 0,
    ) -> TournamentActor:
        """Store a new tournament (``proto``'s settings, numbered by the store) and run it."""
        tournament_id, data = await self.insert(proto, template=template, created_by=created_by)
        t, _ = restore(data, time.time(), start_hand=self.room.hand_factory)
        actor = TournamentActor(self, t, template=template, created_by=created_by)
        self.actors[tournament_id] = actor
        actor.start()
        await self.register_bots(actor, bots)
        return actor

    async def register_bots(self, actor: TournamentActor, bots: int) -> None:
        """A new default tournament's bots (it stays open without them if that fails)."""
        if bots:
            try:
                await actor.call(Command("add_bots", args={"count": bots}))
            except Exception:  # the tournament is open all the same, without its bots
                log.exception("tournament %s: its bots could not be registered", actor.id)
        self._prune()

    async def insert(
        self, proto: TournamentSettings, *, template: str | None, created_by: int | None
    ) -> tuple[int, dict[str, Any]]:
        """Store a new tournament: its id and first snapshot."""
        seed = self.room.config.seed
        now = time.time()

        def first(tournament_id: int) -> dict[str, Any]:
            settings = replace(proto, id=tournament_id)
            return snapshot(Tournament(settings, seed=_seed(seed, tournament_id)), now)

        def insert(conn: Any) -> tuple[int, dict[str, Any]]:
            return db_tourneys.create(
                conn, proto.name, proto.game, proto.kind, first,
                template=template, created_by=created_by,
            )  # fmt: skip

        result: tuple[int, dict[str, Any]] = await self.room.db.write(insert)
        return result

    async def create_sng(self, proto: TournamentSettings, creator: Account) -> TournamentActor:
        """A player's Sit & Go (a few open at a time per account)."""
        async with self._opening:
            mine = [
                a for a in self.actors.values()
                if a.created_by == creator.id and a.t.state == "registering"
            ]  # fmt: skip
            if len(mine) >= SNGS_PER_ACCOUNT:
                raise TableError(
                    "tournament_limit",
                    f"you have {len(mine)} Sit & Gos waiting to start: at most {SNGS_PER_ACCOUNT}",
                )
            return await self.create(proto, created_by=creator.id)

    async def ensure_defaults(self) -> None:
        """Open each default tournament that has no copy taking registrations."""
        async with self._opening:
            now = time.time()
            for template in self.room.config.default_tournaments:
                copies = [a.t for a in self.actors.values() if a.template == template.key]
                if not any(t.state == "registering" for t in copies):
                    starts = [t.settings.start_at for t in copies if t.settings.start_at]
                    proto = self.settings(template, now, last_start=max(starts, default=None))
                    await self.create(proto, template=template.key, bots=template.bots)

    def reopen(self) -> None:
        """A default tournament started or was called off: open its next copy (in a task)."""
        task = asyncio.create_task(self._reopen())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _reopen(self) -> None:
        try:
            await self.ensure_defaults()
        except Exception:
            log.exception("the default tournaments could not be opened again")

    def _prune(self) -> None:
        """Keep the latest finished tournaments listed; stop the older ones' actors."""
        over = sorted(a.id for a in self.actors.values() if a.over)
        for tournament_id in over[:-KEEP_FINISHED] if len(over) > KEEP_FINISHED else []:
            actor = self.actors.pop(tournament_id)
            self.dropped(tournament_id)
            task = asyncio.create_task(actor.stop())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    # -- bots ------------------------------------------------------------------------------

    def brain(self, account_id: int) -> Bot:
        """A bot's player (the room's kind, seeded for a reproducible room)."""
        seed = self.room.config.seed
        kind = self.room.config.bot_kind or "strong"
        return make_bot(kind, None if seed is None else seed * 104_729 + account_id)

    async def take_bots(self, count: int) -> list[Account]:
        """``count`` of the room's bot accounts not playing anywhere (new ones if need be)."""
        return await self.room.bot_accounts(count)

    def release_bot(self, account_id: int) -> None:
        self.room.release_bot(account_id)

    def release_bots(self, actor: TournamentActor) -> None:
        """A tournament is over: its bots go back to the room's pool."""
        for account_id in list(actor.bots):
            del actor.bots[account_id]
            self.room.release_bot(account_id)

    # -- the lobby -------------------------------------------------------------------------

    def listing(self) -> list[dict[str, Any]]:
        """Every tournament's line: registering first, then running, then the finished ones."""
        return self.ordered([actor.summary() for actor in self.actors.values()])

    @staticmethod
    def ordered(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Lobby lines: registering first, then running, then finished; by start time."""
        order = {"registering": 0, "late_registration": 1, "running": 2, "finished": 3}

        def key(row: dict[str, Any]) -> tuple[int, float, int]:
            when = row.get("started_at") or row.get("start_at") or 0.0
            return order.get(str(row["state"]), 4), float(when), int(row["id"])

        return sorted(rows, key=key)

    def get(self, tournament_id: int) -> TournamentActor:
        actor = self.actors.get(tournament_id)
        if actor is None:
            raise TableError("no_tournament", f"there is no tournament {tournament_id}")
        return actor

    # -- what connections and requests reach (a shared room: wherever the tournament runs) --

    def handle(self, tournament_id: int) -> TourneyHandle | None:
        """The tournament to send a command to (None: there is no such tournament)."""
        return self.actors.get(tournament_id)

    async def listing_all(self) -> list[dict[str, Any]]:
        """The lobby's list of every tournament of the room."""
        return self.listing()

    async def details(self, tournament_id: int, account: int | None) -> dict[str, Any]:
        """A tournament's page for ``account`` (TableError ``no_tournament``)."""
        return self.get(tournament_id).details(account)

    async def command(self, tournament_id: int, kind: str, account: int) -> dict[str, Any]:
        """``register``, ``unregister`` or ``fill`` for ``account``; then its page."""
        actor = self.get(tournament_id)
        await actor.call(Command(kind, account))
        return actor.details(account)

    def tell_account(self, account_id: int, text: str) -> None:
        """A message to every connection of one account (where it sits in a tournament)."""
        for connection in self.room.connections_of(account_id):
            connection.send(text)

    def owns(self, tournament_id: int) -> bool:
        """Whether this process may run the tournament now (asked by its actor each step)."""
        return True

    def fence(self, conn: Connection, tournament_id: int) -> None:
        """Checked in every write of the tournament's (a shared room: its lease's token)."""

    def lost(self, actor: TournamentActor) -> None:
        """The actor stopped because this process no longer runs its tournament."""

    def event_floor(self, tournament_id: int) -> int:
        """Where the numbers of the tournament's tables' events start (above a predecessor's)."""
        return 0

    def dropped(self, tournament_id: int) -> None:
        """A finished tournament no longer kept in the lobby's list."""

    def viewed(self, actor: TournamentActor) -> None:
        """The tournament's page changed (a shared room publishes its lobby line)."""


def _seed(seed: int | None, tournament_id: int) -> int | None:
    return None if seed is None else seed * 7_919 + tournament_id
