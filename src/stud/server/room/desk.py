"""The room's tournament desk: its tournaments' actors, the default ones, restoring after a stop.

The room opens its default tournaments at start (:data:`DEFAULT_TOURNAMENTS`,
configurable like the default cash tables): a Sit & Go per game that opens
again as soon as one fills, and a multi-table tournament on a schedule, with
late registration and some of the room's bots registered. Players open more
Sit & Gos. After a stop or a crash, every unfinished tournament is restored
from the snapshot stored with its last step (:mod:`stud.tournament.snapshot`):
a hand in progress is void and its chips go back to the stacks, and a buy-in
taken for a registration that was never stored is refunded.

The desk is the same whether one process runs the room or several share it;
what differs (which process runs each tournament, the lobby lines of those
run elsewhere) goes through the room's
:class:`~stud.server.room.coordination.Coordination`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from functools import partial
from typing import Any, Final, Protocol

from sqlalchemy import Connection

from stud.server.actors.bots import Bot, make_bot
from stud.server.actors.chat import ChatGuard
from stud.server.actors.mailbox import Command
from stud.server.actors.tournament import TournamentActor
from stud.server.room.config import DEFAULT_TOURNAMENTS, KEEP_FINISHED, RoomConfig, TourneyTemplate
from stud.server.room.coordination import Coordination, Handle
from stud.server.storage import Account, Database
from stud.server.storage import tourneys as db_tourneys
from stud.table import HandFactory, TableError
from stud.tournament import Structure, Tournament, TournamentSettings
from stud.tournament.snapshot import restore, snapshot

__all__ = [
    "DEFAULT_TOURNAMENTS",
    "KEEP_FINISHED",
    "SNGS_PER_ACCOUNT",
    "TournamentDesk",
    "TourneyHandle",
    "TourneyTemplate",
]

log = logging.getLogger("stud.server")

SNGS_PER_ACCOUNT: Final = 2
"""Sit & Gos an account may have opened that have not started yet."""

TourneyHandle = Handle
"""What a connection calls a tournament through: its actor here, or a stand-in for a
tournament another process of a shared room runs."""


class DeskRoom(Protocol):
    """What the desk uses of its room (:class:`stud.server.room.room.Room`)."""

    @property
    def db(self) -> Database: ...

    @property
    def config(self) -> RoomConfig: ...

    @property
    def hand_factory(self) -> HandFactory: ...

    @property
    def coordination(self) -> Coordination: ...

    async def account_name(self, account_id: int) -> str: ...

    async def bot_accounts(self, count: int) -> list[Account]: ...

    def reserve_bot(self, account_id: int, name: str) -> None: ...

    def release_bot(self, account_id: int) -> None: ...

    def tell(self, account_id: int, text: str) -> None: ...

    @property
    def chat_guard(self) -> ChatGuard: ...


class TournamentDesk:
    """Every tournament's actor, and what they share: bots, defaults, the lobby's list."""

    def __init__(self, room: DeskRoom) -> None:
        self.room = room
        self.actors: dict[int, TournamentActor] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def coordination(self) -> Coordination:
        return self.room.coordination

    # -- life cycle: the room's coordination restores and runs the tournaments ---------------

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*(actor.stop() for actor in self.actors.values()))

    async def restore(self, row: dict[str, Any]) -> None:
        """Run a stored tournament here from its last snapshot (a finished one: to show it)."""
        now = time.time()
        t, outs = restore(row["snapshot"], now, start_hand=self.room.hand_factory)
        if t.state in ("registering", "running"):
            await self._refund_lost_registrations(t)
        actor = TournamentActor(self, t, template=row["template"], created_by=row["created_by"])
        actor.chat.guard = self.room.chat_guard
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

    # -- opening tournaments -----------------------------------------------------------------

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
        """Store a new tournament (``proto``'s settings, numbered by the store) and run it here
        (a shared room: its lease taken before its first step)."""
        tournament_id, data = await self.insert(proto, template=template, created_by=created_by)
        actor = await self.coordination.open_tournament(
            tournament_id, data, template=template, created_by=created_by
        )
        await self.register_bots(actor, bots)
        return actor

    def run_new(
        self, data: dict[str, Any], *, template: str | None, created_by: int | None
    ) -> TournamentActor:
        """Run a tournament just stored (``data``: its first snapshot) here."""
        t, _ = restore(data, time.time(), start_hand=self.room.hand_factory)
        actor = TournamentActor(self, t, template=template, created_by=created_by)
        actor.chat.guard = self.room.chat_guard
        self.actors[t.settings.id] = actor
        actor.start()
        return actor

    async def register_bots(self, actor: TournamentActor, bots: int) -> None:
        """A new default tournament's bots (it stays open without them if that fails)."""
        if bots:
            try:
                await actor.call(Command("add_bots", args={"count": bots}))
            except Exception:  # the tournament is open all the same, without its bots
                log.exception("tournament %s: its bots could not be registered", actor.id)
        self.prune()

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
        """A player's Sit & Go (a few open at a time per account, wherever they run)."""
        db = self.room.db
        async with self.coordination.lock(f"sng:{creator.id}", 10.0):
            mine = await db.read(partial(db_tourneys.registering, created_by=creator.id))
            if len(mine) >= SNGS_PER_ACCOUNT:
                raise TableError(
                    "tournament_limit",
                    f"you have {len(mine)} Sit & Gos waiting to start: at most {SNGS_PER_ACCOUNT}",
                )
            return await self.create(proto, created_by=creator.id)

    async def ensure_defaults(self) -> None:
        """Open each default tournament that has no copy taking registrations in the room
        (one process at a time decides, from the database)."""
        templates = self.room.config.default_tournaments
        db = self.room.db
        if {t.key for t in templates} <= await db.read(db_tourneys.open_templates):
            return
        async with self.coordination.lock("tourney-defaults", 30.0):
            open_ = await db.read(db_tourneys.open_templates)
            for template in templates:
                if template.key in open_:
                    continue
                last = await db.read(partial(db_tourneys.latest_start, template=template.key))
                proto = self.settings(template, time.time(), last_start=last)
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

    def prune(self) -> None:
        """Keep the latest finished tournaments listed; stop the older ones' actors."""
        over = sorted(a.id for a in self.actors.values() if a.over)
        for tournament_id in over[:-KEEP_FINISHED] if len(over) > KEEP_FINISHED else []:
            actor = self.actors.pop(tournament_id)
            self.coordination.tournament_dropped(tournament_id)
            task = asyncio.create_task(actor.stop())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    # -- bots --------------------------------------------------------------------------------

    def brain(self, account_id: int) -> Bot:
        """A bot's player (the room's kind, seeded for a reproducible room)."""
        seed = self.room.config.seed
        kind = self.room.config.bot_kind or self.room.config.house_bots
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

    # -- the lobby ---------------------------------------------------------------------------

    @staticmethod
    def ordered(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Lobby lines: registering first, then running, then finished; by start time."""
        order = {"registering": 0, "late_registration": 1, "running": 2, "finished": 3}

        def key(row: dict[str, Any]) -> tuple[int, float, int]:
            when = row.get("started_at") or row.get("start_at") or 0.0
            return order.get(str(row["state"]), 4), float(when), int(row["id"])

        return sorted(rows, key=key)

    async def listing_all(self) -> list[dict[str, Any]]:
        """The lobby's list of every tournament of the room: registering first, then running,
        then the finished ones."""
        lines = await self.coordination.tournament_lines()
        for tournament_id, actor in self.actors.items():
            if self.owns(tournament_id):
                lines[tournament_id] = actor.summary()
        return self.ordered(list(lines.values()))

    def get(self, tournament_id: int) -> TournamentActor:
        actor = self.actors.get(tournament_id)
        if actor is None:
            raise TableError("no_tournament", f"there is no tournament {tournament_id}")
        return actor

    # -- what connections and requests reach, wherever the tournament runs -------------------

    def handle(self, tournament_id: int) -> TourneyHandle | None:
        """The tournament to send a command to (None: there is no such tournament)."""
        actor = self.actors.get(tournament_id)
        if actor is not None and self.owns(tournament_id):
            return actor
        return self.coordination.remote_tournament(tournament_id)

    def _handle_of(self, tournament_id: int) -> TourneyHandle:
        handle = self.handle(tournament_id)
        if handle is None:
            raise TableError("no_tournament", f"there is no tournament {tournament_id}")
        return handle

    async def details(self, tournament_id: int, account: int | None) -> dict[str, Any]:
        """A tournament's page for ``account`` (TableError ``no_tournament``)."""
        handle = self._handle_of(tournament_id)
        if not isinstance(handle, TournamentActor):
            await self.coordination.find_tournament(tournament_id)
            handle = self._handle_of(tournament_id)
        if isinstance(handle, TournamentActor):
            return handle.details(account)
        page: dict[str, Any] = await handle.call(Command("details", account))
        return page

    async def command(self, tournament_id: int, kind: str, account: int) -> dict[str, Any]:
        """``register``, ``unregister`` or ``fill`` for ``account``; then its page."""
        handle = self._handle_of(tournament_id)
        await handle.call(Command(kind, account))
        self.coordination.tournament_changed(tournament_id)
        return await self.details(tournament_id, account)

    # -- what a tournament's actor asks (stud.server.actors.tournament.TournamentHost) -------

    def tell_account(self, account_id: int, text: str) -> None:
        """A message to every connection of one account (where it sits in a tournament)."""
        self.room.tell(account_id, text)
        self.coordination.tell_account(account_id, text)

    def owns(self, tournament_id: int) -> bool:
        """Whether this process may run the tournament now (asked by its actor each step)."""
        return self.coordination.owns_tournament(tournament_id)

    def fence(self, conn: Connection, tournament_id: int) -> None:
        """Checked in every write of the tournament's (a shared room: its lease's token)."""
        self.coordination.fence(conn, tournament_id)

    def lost(self, actor: TournamentActor) -> None:
        """The actor stopped because this process no longer runs its tournament."""
        self.coordination.tournament_lost(actor)

    def event_floor(self, tournament_id: int) -> int:
        """Where the numbers of the tournament's tables' events start (above a predecessor's)."""
        return self.coordination.event_floor(tournament_id)

    def viewed(self, actor: TournamentActor) -> None:
        """The tournament's page changed (a shared room publishes its lobby line)."""
        self.coordination.tournament_changed(actor.id)


def _seed(seed: int | None, tournament_id: int) -> int | None:
    return None if seed is None else seed * 7_919 + tournament_id
