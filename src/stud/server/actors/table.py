"""One table's actor: the only code that changes that table.

Commands arrive on a queue; the actor applies each to its :class:`Table`,
stores the effects (hand started, hand finished with the chips put into it,
stacks cashed out) durably, and only then numbers the events and sends each
watcher its own view. Nothing a client sends can raise out of the loop: a refused command gets
an error back, an unexpected fault is logged and the table goes on.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import deque
from datetime import UTC, datetime
from typing import Any, Protocol

from sqlalchemy import Connection

from stud.server.actors import seating
from stud.server.actors.booking import Records, RecordsUnavailable, Step
from stud.server.actors.bots import Bot
from stud.server.actors.channel import Channel, SendMany, Watcher
from stud.server.actors.chat import ChatLimiter, clean_text
from stud.server.actors.facts import FactsKeeper
from stud.server.actors.host import Services
from stud.server.actors.mailbox import Command, Mailbox
from stud.server.actors.thinking import think_seconds
from stud.server.actors.waitlist import WaitingList
from stud.server.observe.logs import at, refused
from stud.server.observe.metrics import HANDS
from stud.server.storage import Account, LedgerError, TableSpec
from stud.server.storage.outage import unavailable
from stud.server.wire import dumps
from stud.table import Effect, Event, Heading, Out, Table, TableError
from stud.table.events import NEW_HAND

log = logging.getLogger("stud.server")

TABLE_SERVICES = frozenset({"top_up", "auto_rebuy", "chat", "wait", "unwait", "rename"})
"""Commands handled by :meth:`TableActor._service` rather than the table itself."""
TABLE_SERVICES |= {"muck_losing_hands", "sit_out_bring_in"}  # a player's own choices
WHILE_RECORDS_DOWN = frozenset({"watch", "unwatch", "disconnect"})
"""Commands a table takes as usual while it cannot book (stud.server.actors.booking)."""
FILL_AGAIN_SECONDS = 1.0
"""How soon a table asks for bots again when none could be lent."""
RECORDS_WORDS = "the room is reconnecting to its records: try again in a moment"


def _show(shows: list[tuple[Bot, dict[str, Any]]], players: dict[int, int]) -> None:
    for brain, view in shows:
        brain.observe(view, players)


class TableHost(Services, Protocol):
    """What a table's actor needs of the room that runs it."""

    actors: dict[int, TableActor]
    """The room's table actors: a closed table's leaves it."""

    def owns(self, table_id: int) -> bool:
        """Whether this process may run the table now (asked before each step)."""
        ...

    def lost(self, actor: TableActor) -> None:
        """The actor stopped because this process no longer runs its table."""
        ...

    def seated(self, actor: TableActor, account_id: int) -> None:
        """A person sat down at the actor's table."""
        ...

    async def lend_bot(self, actor: TableActor) -> tuple[Account, Bot, int] | None:
        """A bot bought in at the actor's table: its account, player and stack."""
        ...

    async def return_bot(self, actor: TableActor, account_id: int, stack: int) -> None:
        """A bot lent that could not sit: its stack cashed out, the bot idle again."""
        ...

    def release_bot(self, account_id: int) -> None:
        """A bot left the table (its stack already cashed out): idle again."""
        ...


class TableActor(Mailbox):
    """The asyncio task that alone runs one table."""

    noun = "table"
    moving = "this table is moving to another server: try again"

    def __init__(self, room: TableHost, spec: TableSpec, table: Table) -> None:
        super().__init__(spec.id)
        self.room = room
        self.spec = spec
        self.table = table
        self.channel = Channel(spec.id)
        """The table's numbered events, kept for clients that reconnect, and its watchers."""
        self.bots: dict[int, Bot] = {}
        self._dealt: list[int] = []
        """The accounts dealt into the hand running, in the hand's seat order."""
        self._seated: dict[int, int] = {}
        """The account in each table seat of the hand running."""
        self.bot_due: float | None = None
        self.fill_again_at: float | None = None
        """When to ask for bots again: none could be lent (a shared room's Redis was away)."""
        self.gone: dict[int, float] = {}  # account -> when its seat is given up
        self.hand_id: int | None = None
        self.pot: dict[int, int] = {}  # chips each account put into the hand in progress
        self.finished: deque[tuple[float, int]] = deque(maxlen=200)  # (time, pot) for the lobby
        self.facts = FactsKeeper()
        self._hand_accounts: list[int] = []
        """The accounts dealt into the hand running, in the hand's seat order (its facts')."""
        self.waiting = WaitingList()
        self.chat = ChatLimiter()
        seed = room.config.seed
        self.rng = random.Random(None if seed is None else seed * 31 + spec.id)
        self.person_seen = self._clock()  # when a person (not a bot) was last seated here
        self.resumed: list[Out] = []
        """What seating again the people of a table taken over said (published first)."""
        self._hands_played = HANDS.labels(spec.game)
        self.records = Records(rng=random.Random(spec.id))
        """Whether the database takes the table's writes, and the step held while it does not."""

    # -- the loop --------------------------------------------------------------------------

    def _idle_deadline(self) -> float | None:
        """When this table closes for want of a person, if an account made it."""
        if self.spec.created_by is None or self.table.closing:
            return None
        if any(not p.bot for _, p in self.table.players()):
            self.person_seen = self._clock()
            return None
        return self.person_seen + self.room.config.limits.idle_seconds

    def _wakeup(self) -> float | None:
        if self.records.down:
            return self.records.retry_at  # nothing else moves until the table can book
        idle = self._idle_deadline()
        soon = (self.table.wakeup(), self.bot_due, self.fill_again_at, idle, *self.gone.values())
        times = [t for t in soon if t]
        return min(times) if times else None

    leave_at_boundary = False
    """Set by the room (a process draining, or sharing its load): the table stops here at its
    next hand boundary, so another process takes it over with no hand to void."""

    def _owned(self) -> bool:
        return self.room.owns(self.id) and not self._handing_over()

    def _handing_over(self) -> bool:
        """Whether the table is to move and no hand is in progress: it stops here now."""
        return self.leave_at_boundary and self.table.hand is None

    def _lost(self) -> None:
        self.room.lost(self)

    async def _opening(self) -> None:
        if self.resumed:
            outs, self.resumed = self.resumed, []
            await self._step(lambda _now: self._booking(self.apply(outs)))
        await self._step(lambda now: self._booking(self._fill_bots(now)))

    def _nothing_due(self, now: float, wake: float | None) -> bool:
        """Whether a timer pass now would find nothing to do (most commands: an action in a
        hand of people), so it is skipped.

        Nothing by the clock is due (a turn's clock, a bot's think time, a seat given up,
        the idle close); a hand is being played, so nothing happens between hands (a deal,
        automatic rebuys, bots joining); nobody waits for a seat; the table is not closing;
        and a bot of this table whose turn it is has its think time already (and none is
        kept for anyone else). ``wake``: :meth:`_wakeup` now.
        """
        table = self.table
        if self.records.down:
            return not self.records.due(now)
        if table.hand is None or table.closing or self.waiting:
            return False
        if wake is not None and wake <= now:
            return False
        seat = table.actor_seat
        player = None if seat is None else table.seats[seat]
        ours = player is not None and player.bot and player.id in self.bots
        return (self.bot_due is not None) == ours

    # -- commands --------------------------------------------------------------------------

    async def _dispatch(self, command: Command) -> Any:
        if command.kind in WHILE_RECORDS_DOWN:
            return await self._command(command)
        if self.records.down:
            return self._while_records_down(command)
        try:
            return await self._command(command)
        except RecordsUnavailable:
            return None  # the command's step happened; its events follow once it is booked
        except Exception as error:
            if not unavailable(error):
                raise
            # A write the command needs first (a buy-in) failed: nothing changed.
            self._records_failed(self._clock())
            raise TableError("records_unavailable", RECORDS_WORDS) from None

    async def _command(self, command: Command) -> Any:
        now = self._clock()
        account = command.account_id
        kind = command.kind
        if kind == "watch":
            assert command.watcher is not None
            self._watch(command.watcher, command.args.get("since"))
            return None
        if kind == "unwatch":
            assert command.watcher is not None
            self.watchers.pop(command.watcher, None)
            self._disconnected(command.watcher, now)
            return None
        if kind == "disconnect":
            assert command.watcher is not None
            self.watchers.pop(command.watcher, None)
            self._disconnected(command.watcher, now)
            return None
        if kind == "close":
            await self.apply(self.table.close())
            return {"closing": self.table.in_hand}
        if account is None:
            raise TableError("login_required", "log in or play as a guest first")
        if kind == "sit":
            await self.sit(account, command.args, now)
            return None
        if kind == "act":
            args = command.args
            outs = self.table.act(account, args["action"], args["to"], args["turn"], now)
        elif kind == "leave":
            self.gone.pop(account, None)
            outs = self.table.leave(account, now)
        elif kind == "sit_out":
            outs = self.table.sit_out(account, now)
        elif kind == "sit_in":
            outs = self.table.sit_in(account, now)
        elif kind == "seed":
            outs = self.table.add_seed(account, command.args["commitment"], command.args["seed"])
        elif kind in TABLE_SERVICES:
            return await self._service(kind, account, command.args, now)
        else:
            raise TableError("unknown_type", f"unknown command {kind!r}")
        await self.apply(outs)
        return None

    async def _service(self, kind: str, account: int, args: dict[str, Any], now: float) -> Any:
        """Chips, chat and the waiting list (issue 14): the commands beside playing a hand."""
        if kind == "top_up":
            await seating.top_up(self, account, int(args["amount"]), now)
        elif kind == "auto_rebuy":
            self.table.set_auto_rebuy(account, bool(args["on"]))
            self.send_states()
        elif kind == "muck_losing_hands":
            self.table.set_show_losing(account, not args["on"])
            self.send_states()
        elif kind == "sit_out_bring_in":
            await self.apply(self.table.sit_out_after_bring_in(account, bool(args["on"])))
            self.send_states()
        elif kind == "chat":
            text = clean_text(str(args["text"]))
            self.chat.admit(account, now)
            name = await self.room.account_name(account)
            data = {"account_id": account, "name": name, "seat": self.table.seat_of(account)}
            self._publish(Event("chat", {**data, "text": text, "at": now}))
            self.chat.keep(self.id, {**data, "text": text, "at": time.time()})
        elif kind == "wait":
            return {"place": await seating.join_waiting_list(self, account, int(args["buy_in"]))}
        elif kind == "unwait":
            seating.leave_waiting_list(self, account)
        elif kind == "rename":
            await self.apply(self.table.rename(account, str(args["name"])))
            self.waiting.rename(account, str(args["name"]))
        return None

    def log_place(self) -> dict[str, Any]:
        return at(self.id, self.hand_id)

    def notify(self, account: int, error: TableError) -> None:
        """Tell every connection of ``account`` watching this table about a refusal."""
        refused(error.code)
        text = dumps({"type": "error", "code": error.code, "message": str(error), "table": self.id})
        for watcher in self.watchers:
            if watcher.account_id == account:
                watcher.send(text)

    @property
    def n(self) -> int:
        """The number of the table's last event."""
        return self.channel.n

    @n.setter
    def n(self, value: int) -> None:
        """Number on from ``value`` (a cluster node taking a table over starts a new epoch)."""
        self.channel.n = value

    @property
    def watchers(self) -> dict[Watcher, SendMany | None]:
        return self.channel.watchers

    def _watch(self, watcher: Watcher, since: int | None) -> None:
        """Subscribe; send what the watcher missed since ``since``, or a full state."""
        if watcher.account_id is not None:
            self.gone.pop(watcher.account_id, None)
        self.channel.watch(watcher, since)
        watcher.send(self._state_text(self._seat(watcher), events=True))
        if self.records.down:
            watcher.send(self._records_text())

    def _disconnected(self, watcher: Watcher, now: float) -> None:
        """A seated player with no connection left keeps the seat for the grace period."""
        account = watcher.account_id
        if account is None or self.table.seat_of(account) is None:
            return
        if any(w.account_id == account for w in self.watchers):
            return
        self.gone[account] = now + self.room.config.grace_seconds

    async def sit(self, account: int, args: dict[str, Any], now: float) -> None:
        buy_in = int(args["buy_in"])
        seat = args.get("seat")
        self.table.check_sit(account, buy_in, seat)
        store = self.room.db.store
        try:
            await self.room.db.write(lambda c: store.buy_in(c, account, self.id, buy_in))
        except LedgerError as error:
            raise TableError("insufficient_balance", str(error)) from None
        name = await self.room.account_name(account)
        try:
            outs = self.table.sit(account, name, buy_in, now, seat=seat)
        except TableError:
            await self.room.db.write(lambda c: store.cash_out(c, account, self.id, buy_in))
            raise
        self.room.seated(self, account)
        self.table.set_auto_rebuy(account, bool(args.get("auto_rebuy", False)))
        self.table.set_show_losing(account, not args.get("muck_losing_hands", True))
        self.waiting.drop(account)
        self.table.waiting = len(self.waiting)
        await self.apply(outs)

    # -- timers: clocks, bots, grace periods -------------------------------------------------

    async def _timer_pass(self, now: float) -> None:
        if self._handing_over():
            return  # no new hand: the loop stops the table (the last hand may end in a pass)
        idle = self._idle_deadline()
        if idle is not None and now >= idle:
            log.info("table %s closes: nobody sat at it for a while", self.id, extra=at(self.id))
            await self.apply(self.table.close())
            return
        for account, until in list(self.gone.items()):
            if now >= until:
                del self.gone[account]
                if self.table.seat_of(account) is not None:
                    await self.apply(self.table.leave(account, now))
        due = self.table.next_hand_at
        outs = self.table.tick(now)
        await self.apply(outs)
        dealt = any(isinstance(o, Event) for o in outs)
        if due is not None and self.table.next_hand_at is None and not dealt:
            self.send_states()  # no hand to deal after all: the clients stop counting down
        seat = self.table.actor_seat
        player = None if seat is None else self.table.seats[seat]
        if player is not None and player.bot and player.id in self.bots:
            if self.bot_due is None:
                # A human-like think time for this spot (stud.server.actors.thinking).
                spot = self.table.view(seat)["hand"]
                bounds = self.room.config.bot_delay
                self.bot_due = now + think_seconds(self.rng, spot, self.table.legal(), bounds)
            elif now >= self.bot_due:
                self.bot_due = None
                # The bot gets its seat's hand view (no foreign down card), table seats,
                # with the hand's events: the betting is what lets it read its opponents.
                view = self.table.view(seat, events=True)["hand"]
                legal = self.table.legal()
                # A thinking bot runs off the event loop; the table waits for it (nothing
                # else changes the table meanwhile), the other tables and sockets do not.
                choice = await asyncio.to_thread(self.bots[player.id].choose, view, legal)
                outs = self.table.act(player.id, choice.action, choice.to, self.table.turn_id, now)
                await self.apply(outs)
                await self._timer_pass(self._clock())
                return
        else:
            self.bot_due = None
        if self.table.hand is None:
            await seating.auto_rebuys(self, now)
        await seating.seat_waiters(self, now)
        await self._fill_bots(now)

    async def _fill_bots(self, now: float) -> None:
        wanted = self.table.bots_wanted()
        self.fill_again_at = None
        for _ in range(wanted):
            bot = await self.room.lend_bot(self)
            if bot is None:  # none to lend now: the pass at fill_again_at asks again
                self.fill_again_at = now + FILL_AGAIN_SECONDS
                return
            account, brain, stack = bot
            try:
                outs = self.table.sit(account.id, account.name, stack, now, bot=True)
            except TableError:
                await self.room.return_bot(self, account.id, stack)
                return
            self.bots[account.id] = brain
            await self.apply(outs)

    # -- booking while the database may be out of reach (stud.server.actors.booking) --------

    async def _timers(self, now: float) -> None:
        """The timer pass, unless the table holds a step it could not book: then, when the
        retry is due, that step first (the table moves on only once it is booked)."""
        records = self.records
        if records.down:
            if not records.due(now):
                return
            self._clocks_wait(now)
        if await self._booking(self._held_then_timers(now)) and records.down:
            self._records_back(self._clock())  # held nothing: back once a whole pass went through

    async def _held_then_timers(self, now: float) -> None:
        records = self.records
        if records.held is not None:
            step, records.held = records.held, None
            await self._book(step)
            self._records_back(self._clock())  # the database took a write: say so first
            await self._booked(step)
        await self._leave_later(now)
        await self._timer_pass(now)

    async def _booking(self, work: Any) -> bool:
        """Await a step of the table (a coroutine): True once done; False when the database
        could not take it (the step is held)."""
        try:
            await work
        except RecordsUnavailable:
            return False
        except Exception as error:
            if not unavailable(error):
                raise
            self._records_failed(self._clock())
            return False
        return True

    async def _book(self, step: Step) -> None:
        """Store a step's effects in one transaction (RecordsUnavailable: the step is held)."""
        hand_id = self.hand_id
        accounts = self._hand_accounts
        again = step.tries > 0
        try:
            hand_id, finished = await self.room.db.write(
                lambda conn: self._store(conn, step.effects, hand_id, again=again)
            )
        except Exception as error:
            if not unavailable(error):
                raise
            step.tries += 1
            self.records.held = step
            self._records_failed(self._clock())
            raise RecordsUnavailable(str(error)) from None
        self.hand_id = hand_id
        for finished_id, total, played in finished:
            self._finished_id = finished_id
            self.finished.append((self._clock(), total))
            self._hands_played.inc()
            if played:
                self.facts.keep(self.room.db, finished_id, played, accounts)
        for effect, _pot in step.effects:
            if effect.kind == "hand_started":
                self._hand_accounts = [int(p["account_id"]) for p in effect.data["players"]]

    def _while_records_down(self, command: Command) -> Any:
        """A command while the table cannot book: a leave is kept for when it can; the rest
        is refused (records_unavailable) and changes nothing."""
        account = command.account_id
        if command.kind == "leave" and account is not None:
            if self.table.seat_of(account) is None:
                raise TableError("not_seated", "you are not seated at this table")
            self.gone.pop(account, None)
            if account not in self.records.leaving:
                self.records.leaving.append(account)
            return None
        raise TableError("records_unavailable", RECORDS_WORDS)

    async def _leave_later(self, now: float) -> None:
        """The players who asked to leave while the table could not book leave now."""
        leaving = self.records.leaving
        while leaving:
            account = leaving.pop(0)
            if self.table.seat_of(account) is not None:
                await self.apply(self.table.leave(account, now))

    def _records_failed(self, now: float) -> None:
        """A write failed for want of the database: hold, try again later, say so once."""
        first = self.records.failed(now)
        self._paused_at = now
        if first:
            log.warning("table %s: the database cannot take its writes; it waits", self.id)
            self._send_all(self._records_text())

    def _records_back(self, now: float) -> None:
        waited = self.records.back(now)
        log.info("table %s: booking again after %.1f s", self.id, waited)
        self._send_all(self._records_text())

    _paused_at = 0.0
    """Until when the table's clocks were moved on while it waits (:meth:`_clocks_wait`)."""

    def _clocks_wait(self, now: float) -> None:
        """Move the table's clocks (the turn's, the next deal's, seats given up, a bot's think
        time, the held step's turn events) on by the time it waited since they last moved."""
        waited = max(0.0, now - self._paused_at)
        self._paused_at = now
        table = self.table
        if table.hand is not None:
            table.turn_started += waited
        if table.next_hand_at is not None:
            table.next_hand_at += waited
        if self.bot_due is not None:
            self.bot_due += waited
        for account in self.gone:
            self.gone[account] += waited
        if self.records.held is not None:
            self.records.held.move_clocks(waited)

    def _records_text(self) -> str:
        """The ``records`` message: whether the table waits for the room's records."""
        return dumps({"type": "records", "table": self.id, "reconnecting": self.records.down})

    def _send_all(self, text: str) -> None:
        for watcher in self.watchers:
            watcher.send(text)

    # -- effects and events ----------------------------------------------------------------

    async def apply(self, outs: list[Out]) -> None:
        """Store a step's effects, then number and send its events.

        Chips put into the pot stay in memory until the hand ends, then go to the
        ledger with the pot's payout in one transaction: a hand cut short by a
        crash is void and each player keeps the stack it had when it began, which
        the ledger still says. So an action waits on no disk write. A step the
        database cannot take now is held (RecordsUnavailable: stud.server.actors.booking).
        """
        if not outs:  # nothing happened (a timer pass with nothing due), or a table closed empty
            await self._close_if_empty()
            return
        step = Step(outs)
        for out in outs:
            if isinstance(out, Event):
                step.events.append(out)
                step.shows = step.shows or out.kind == NEW_HAND
                continue
            if out.kind == "commit":
                for account, amount in out.data["commits"].items():
                    self.pot[account] = self.pot.get(account, 0) + int(amount)
                continue
            # A finished hand takes the chips put into it; a new one starts with none.
            pot: dict[int, int] = {}
            if out.kind in ("hand_started", "hand_finished"):
                pot, self.pot = self.pot, {}
                step.shows = True
            step.effects.append((out, pot))
        if step.effects:
            await self._book(step)
        await self._booked(step)

    async def _booked(self, step: Step) -> None:
        """Number and send a booked step's events; bots see it; bots that left go idle."""
        for event in step.events:
            # One number for a hand everywhere: its id, as in its downloads and replay.
            if event.kind == "hand_finished":
                event.data["hand_id"] = self._finished_id
            elif event.kind == NEW_HAND:
                event.data["hand_id"] = self.hand_id
        if step.events:
            self._publish_step(step.events)
        if step.shows:  # (most steps are an action inside a hand: nothing to show, no bot leaves)
            await self._show_bots(step.outs)
        if self.bots:
            # A bot that left (made room, or went broke) goes back to the room's pool.
            for account in [a for a in self.bots if self.table.seat_of(a) is None]:
                del self.bots[account]
                self.room.release_bot(account)
        if self.table.closing:
            await self._close_if_empty()

    async def _close_if_empty(self) -> None:
        if self.table.closing and not self.closed and not self.table.players():
            await self._closed()

    async def _closed(self) -> None:
        """The table closed and everyone has left: store it closed, tell the watchers, stop."""
        await self.room.db.write(lambda c: self.room.db.store.close_table(c, self.id))
        self.closed = True
        log.info("table closed", extra=at(self.id))
        self.room.actors.pop(self.id, None)
        text = dumps({"type": "table_closed", "table": self.id})
        for watcher in list(self.watchers):
            watcher.send(text)
        self.watchers.clear()

    _finished_id: int | None = None

    async def _show_bots(self, outs: list[Out]) -> None:
        """Each bot in the hand sees its seat's view when the hand is dealt and when it ends.

        So its reads see every action, the folds that end a hand included, and
        follow players by account. The views are built here; the bots take
        them in off the event loop.
        """
        shows: list[tuple[Bot, dict[str, Any]]] = []
        for out in outs:
            if isinstance(out, Event) and out.kind == NEW_HAND and self.table.hand is not None:
                dealt = out.data["players"]
                self._dealt = [int(p["account_id"]) for p in dealt]
                self._seated = {int(p["seat"]): int(p["account_id"]) for p in dealt}
                for p in dealt:
                    brain = self.bots.get(int(p["account_id"]))
                    if brain is not None:
                        shows.append((brain, self.table.view(int(p["seat"]), events=True)))
            elif isinstance(out, Effect) and out.kind == "hand_finished":
                hand = out.data["hand"]
                for index, account in enumerate(self._dealt):
                    brain = self.bots.get(account)
                    if brain is not None:
                        shows.append((brain, hand.view(index, events=True)))
        if shows:
            players = dict(self._seated)
            await asyncio.to_thread(_show, shows, players)

    def _store(
        self,
        conn: Connection,
        effects: list[tuple[Effect, dict[int, int]]],
        hand_id: int | None,
        *,
        again: bool = False,
    ) -> tuple[int | None, list[tuple[int, int, str]]]:
        """Runs on the writer thread, in one transaction with the step's other effects.

        Changes nothing of the actor's (the writer may run it twice, if a batch it
        was in failed): returns the running hand's id and the (id, pot, hand as played)
        of each hand it finished. ``again``: an attempt that failed may have been committed
        (its reply lost with the connection): each effect already stored is skipped.
        """
        store = self.room.db.store
        finished: list[tuple[int, int, str]] = []
        for effect, pot in effects:
            data = effect.data
            if again and store.booked(conn, self.id, effect.kind, data, hand_id):
                if effect.kind == "hand_started":
                    hand_id = store.hand_numbered(conn, self.id, int(data["number"]))
                elif effect.kind == "hand_finished":
                    assert hand_id is not None
                    total = sum(int(v) for v in data["payouts"].values()) + int(data["rake"])
                    # Stored by the lost attempt: its facts are not made again (none: "").
                    finished.append((hand_id, total, ""))
                    hand_id = None
                continue
            if effect.kind == "hand_started":
                hand_id = store.start_hand(
                    conn, self.id, int(data["number"]), self.spec.game, data["players"]
                )
            elif effect.kind == "hand_finished":
                assert hand_id is not None
                # The hand as played: its histories are written when asked for.
                played = data["hand"].played(
                    Heading(
                        hand_id,
                        data["table_name"],
                        data["names"],
                        max_seats=int(data["max_seats"]),
                        time=datetime.fromtimestamp(float(data["finished_at"]), UTC),
                    )
                )
                rake = int(data["rake"])
                store.finish_hand(
                    conn, self.id, hand_id, data["payouts"], rake, data["summary"], played,
                    committed=pot,
                )  # fmt: skip
                pot_total = sum(int(v) for v in data["payouts"].values()) + rake
                finished.append((hand_id, pot_total, played))
                hand_id = None
            elif effect.kind == "cash_out":
                store.cash_out(conn, int(data["account_id"]), self.id, int(data["amount"]))
        return hand_id, finished

    def _seat(self, watcher: Watcher) -> int | None:
        account = watcher.account_id
        return None if account is None else self.table.seat_of(account)

    def _state_text(self, seat: int | None, *, events: bool = False) -> str:
        return self._state_message(self.table.view(seat, events=events))

    def _state_message(self, view: dict[str, Any]) -> str:
        """The ``state`` message carrying one seat's (or a watcher's) view."""
        return self.channel.state_text(self.add_room(view))

    def add_room(self, view: dict[str, Any]) -> dict[str, Any]:
        """A table view with what the table does not know (:meth:`room_part`)."""
        view.update(self.room_part())
        return view

    def room_part(self) -> dict[str, Any]:
        """What a view has that the table does not know: the running hand's id (the number
        it goes by everywhere), the last finished hand's, the waiting list."""
        return {
            "hand_id": self.hand_id if self.table.hand is not None else None,
            "last_hand_id": self._finished_id,
            "waiting": self.waiting.public(),
        }

    def _publish(self, event: Event) -> None:
        """Number an event, keep it (as text) for clients that reconnect, send it, each
        watcher's account seeing only its own private parts (stud.server.actors.channel)."""
        self.channel.publish(event)

    def send_states(self) -> None:
        """Each watcher the table as it may see it now: what all share built and encoded
        once, then one part per seat (its account's own: stud.server.actors.audience)."""
        watchers = self._watcher_seats()
        shared, own = self.table.view_json(seat for _, seat in watchers)
        texts = self.channel.state_texts(shared, own, self.room_part())
        for watcher, seat in watchers:
            watcher.send(texts[seat])

    def _publish_step(self, events: list[Event]) -> None:
        """A step's events, each numbered and sent as :meth:`_publish` sends it, then
        :meth:`send_states`' states: a connection of this process gets them in one call
        (stud.server.actors.channel.Channel.publish_step)."""
        watchers = self._watcher_seats()
        shared, own = self.table.view_json(seat for _, seat in watchers)
        self.channel.publish_step(events, watchers, shared, own, self.room_part())

    def _watcher_seats(self) -> list[tuple[Watcher, int | None]]:
        """Each watcher with the table seat of its account (None: it has none)."""
        seats: dict[int | None, int] = {player.id: seat for seat, player in self.table.players()}
        return [(watcher, seats.get(watcher.account_id)) for watcher in self.watchers]

    # -- the lobby's view ------------------------------------------------------------------

    def entry(self) -> dict[str, Any]:
        """The lobby entry with what a spectator sees now (``GET /api/tables/{id}``)."""
        return {**self.lobby(), "state": self.add_room(self.table.view(None)), "n": self.n}

    def lobby(self) -> dict[str, Any]:
        now = self._clock()
        recent = [(t, pot) for t, pot in self.finished if now - t <= 3600]
        average = sum(p for _, p in recent) / len(recent) if recent else 0.0
        span = now - recent[0][0] if recent else 0.0
        per_hour = len(recent) * 3600.0 / max(span, 60.0) if recent else 0.0
        players = self.table.players()
        return {
            **self.spec.public(),
            "seats_taken": len(players),
            "players": [{"seat": s, "id": p.id, "name": p.name, "bot": p.bot} for s, p in players],
            "average_pot": round(average, 1),
            "hands_per_hour": round(per_hour, 1),
            "hands": self.table.hand_number,
            "watchers": len(self.watchers),
            "waiting": len(self.waiting),
            "target_players": self.table.crowd.target,
        }
