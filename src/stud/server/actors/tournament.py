"""One tournament's actor: the only code that calls its :class:`stud.tournament.Tournament`.

Like a cash table's actor (:mod:`stud.server.actors.table`), it takes commands from a
queue and its clocks from the tournament's ``wakeup``; each step's outputs are
stored in one transaction (buy-ins, refunds, prizes, the hands dealt and
finished with their histories, and the tournament's snapshot) before any
client hears of them. Each tournament table has its own numbered event stream
(``t<id>.<n>``), seen through each watcher's account's eyes; watchers of the
tournament get its page (``view``), a few times a second at most.

A registration is the one step in two transactions: the buy-in is taken first
(so a short balance refuses it and nothing changes), then the registration and
snapshot are stored. A crash between the two leaves a buy-in with no entrant,
which the room refunds when it restores the tournament.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Protocol

from sqlalchemy import Connection

from stud.server.actors.bots import Bot
from stud.server.actors.channel import Channel, Watcher
from stud.server.actors.chat import ChatLimiter, clean_text
from stud.server.actors.host import Services
from stud.server.actors.mailbox import Command, Mailbox
from stud.server.actors.thinking import think_seconds
from stud.server.observe.logs import at
from stud.server.observe.metrics import HANDS
from stud.server.storage import Account, LedgerError
from stud.server.storage import tourneys as db_tourneys
from stud.server.wire import dumps
from stud.table import Effect, Event, Legal, TableError
from stud.table.events import NEW_HAND
from stud.tournament import FINISHED, RUNNING, TableOut, Tournament, TournamentError, TourneyOut
from stud.tournament.histories import hand_played
from stud.tournament.snapshot import snapshot

log = logging.getLogger("stud.server")

LOGGED_EVENTS = frozenset({"started", "finished", "cancelled"})
"""A tournament's events worth an operator's log line."""

VIEW_INTERVAL = 0.3
"""Seconds between two ``tournament`` messages to the tournament's watchers (at most)."""
RECENT_HANDS = 64
"""Finished hands kept to write again when their closing lines come later (hand for hand)."""

MONEY = ("buy_in", "refund", "prize")


def table_key(tournament_id: int, table: int) -> str:
    """A tournament table's id in messages: ``t7.2`` (as its shuffles' labels)."""
    return f"t{tournament_id}.{table}"


class TournamentHost(Protocol):
    """What a tournament's actor needs of the room's tournament desk."""

    @property
    def room(self) -> Services: ...

    def owns(self, tournament_id: int) -> bool:
        """Whether this process may run the tournament now (asked before each step)."""
        ...

    def lost(self, actor: TournamentActor) -> None:
        """The actor stopped because this process no longer runs its tournament."""
        ...

    def fence(self, conn: Connection, tournament_id: int) -> None:
        """Checked in every write of the tournament's (a shared room: its lease's token)."""
        ...

    def event_floor(self, tournament_id: int) -> int:
        """Where the numbers of the tournament's tables' events start."""
        ...

    def viewed(self, actor: TournamentActor) -> None:
        """The tournament's page changed."""
        ...

    def tell_account(self, account_id: int, text: str) -> None:
        """A message to every connection of one account."""
        ...

    def brain(self, account_id: int) -> Bot:
        """A bot's player."""
        ...

    async def take_bots(self, count: int) -> list[Account]:
        """``count`` of the room's bot accounts not playing anywhere."""
        ...

    def release_bot(self, account_id: int) -> None: ...

    def release_bots(self, actor: TournamentActor) -> None:
        """The tournament is over: its bots go back to the room's pool."""
        ...

    def reopen(self) -> None:
        """A default tournament started or was called off: its next copy opens."""
        ...


class TournamentActor(Mailbox):
    """The asyncio task that alone runs one tournament."""

    noun = "tournament"
    moving = "this tournament is moving to another server"

    def __init__(
        self,
        desk: TournamentHost,
        tournament: Tournament,
        *,
        template: str | None = None,
        created_by: int | None = None,
    ) -> None:
        super().__init__(tournament.settings.id)
        self.desk = desk
        self.room = desk.room
        self.t = tournament
        self.template = template
        self.created_by = created_by
        self._first: list[TourneyOut] | None = None
        self.channels: dict[int, Channel] = {}
        self.watchers: dict[Watcher, None] = {}
        self.bots: dict[int, Bot | None] = {}
        """The bots entered, each with its player once built (on first use, off the loop)."""
        self.bot_due: dict[int, float] = {}
        self.seated: dict[int, int] = {}
        """Where each person was last told they sit (``tournament_seat``)."""
        self.hand_ids: dict[int, int] = {}
        """The stored id of each table's hand in progress."""
        self.last_hand_ids: dict[int, int] = {}
        self.table_rows: dict[int, int] = {}
        self.hand_players: dict[int, list[dict[str, Any]]] = {}
        self.recent: dict[tuple[int, int], tuple[TableOut, int]] = {}
        self.chat = ChatLimiter()
        self.dirty = True
        self.view_sent = 0.0
        self.observers: list[Callable[[TournamentActor, list[TourneyOut]], None]] = []
        """Called after each stored step (tests check conservation and balance here)."""
        seed = self.room.config.seed
        self.rng = random.Random(None if seed is None else seed * 37 + self.id)

    # -- the loop --------------------------------------------------------------------------

    def start(self, outs: list[TourneyOut] | None = None) -> None:
        """Run; ``outs`` (a restore's outputs, maybe none) are stored and sent first, with the
        snapshot of the restored tournament (its clock restarted)."""
        self._first = outs
        super().start()

    async def _opening(self) -> None:
        outs, self._first = self._first, None
        if outs is not None:
            await self._step(lambda _now: self.apply(outs, force=True))

    leave_at_boundary = False
    """Set by the room (a process draining, or sharing its load): the tournament stops here
    once none of its tables has a hand in progress, so another process takes it over (from
    the snapshot stored with the last hand's end) with no hand to void."""

    def _owned(self) -> bool:
        return self.desk.owns(self.id) and not self._handing_over()

    def _handing_over(self) -> bool:
        """Whether the tournament is to move and none of its tables is in a hand."""
        return self.leave_at_boundary and all(t.hand is None for t in self.t.tables.values())

    def _lost(self) -> None:
        self.desk.lost(self)

    def _wakeup(self) -> float | None:
        times = [t for t in (self.t.wakeup(), *self.bot_due.values()) if t is not None]
        for table_id, table in self.t.tables.items():
            seat = table.actor_seat
            player = None if seat is None else table.seats[seat]
            if player is not None and player.id in self.bots and table_id not in self.bot_due:
                times.append(self._clock())  # a bot's turn: draw its think time now
        if self.dirty:
            times.append(self.view_sent + VIEW_INTERVAL)
        return min(times) if times else None

    # -- commands --------------------------------------------------------------------------

    async def _dispatch(self, command: Command) -> Any:
        now = self._clock()
        kind, account, args = command.kind, command.account_id, command.args
        watcher = command.watcher
        if kind in ("watch_tournament", "unwatch_tournament", "disconnect"):
            assert watcher is not None
            if kind == "watch_tournament":
                self.watchers[watcher] = None
                watcher.send(self.view_message(now))
            else:
                self.watchers.pop(watcher, None)
                for channel in self.channels.values():
                    if kind == "disconnect":
                        channel.watchers.pop(watcher, None)
            return None
        table_id = args.get("table_number")
        if kind in ("watch", "unwatch"):
            assert watcher is not None and isinstance(table_id, int)
            channel = self._channel_of(table_id)
            if kind == "watch":
                channel.watch(watcher, args.get("since"))
                watcher.send(self._state_text(channel, table_id, watcher.account_id, now))
            else:
                channel.watchers.pop(watcher, None)
            return None
        if kind == "wake":  # a shared room: look at the lease again
            return None
        if kind == "details":  # a shared room's other process asks for the page
            return self.details(account)
        if kind == "summary":
            return self.summary()
        if kind == "add_bots":  # the room's own: bots in a default tournament
            await self.add_bots(int(args["count"]), now)
            return None
        if kind == "call_off":  # the operator's (stud.server.room.moderation)
            return await self.call_off(now)
        if account is None:
            raise TableError("login_required", "log in or play as a guest first")
        if kind == "register":
            await self.register(account, await self.room.account_name(account), now)
        elif kind == "unregister":
            await self.apply(self.t.unregister(account, now))
        elif kind == "fill":
            await self.fill(account, now)
        elif kind in ("act", "sit_out", "sit_in", "seed", "chat"):
            assert isinstance(table_id, int)
            await self._at_table(kind, account, table_id, args, now)
        else:
            raise TableError("unknown_type", f"unknown command {kind!r}")
        return None

    def _channel_of(self, table_id: int) -> Channel:
        if table_id not in self.t.tables:
            raise TableError("no_table", f"there is no table {table_key(self.id, table_id)}")
        return self._channel(table_id)

    def _channel(self, table_id: int) -> Channel:
        channel = self.channels.get(table_id)
        if channel is None:
            channel = self.channels[table_id] = Channel(table_key(self.id, table_id))
            channel.n = self.desk.event_floor(self.id)
        return channel

    async def _at_table(
        self, kind: str, account: int, table_id: int, args: dict[str, Any], now: float
    ) -> None:
        """A player's message at one of the tournament's tables: only at their own table."""
        channel = self._channel_of(table_id)
        if kind == "chat":
            text = clean_text(str(args["text"]))
            seated = self.t.tables[table_id].seat_of(account)
            if seated is None and not any(w.account_id == account for w in channel.watchers):
                raise TableError("not_seated", "watch the table to chat at it")
            self.chat.admit(account, now)
            name = await self.room.account_name(account)
            data = {"account_id": account, "name": name, "seat": seated}
            channel.publish(Event("chat", {**data, "text": text, "at": now}))
            key = table_key(self.id, table_id)
            self.chat.keep(key, {**data, "text": text, "at": time.time()})
            return
        if self.t.table_of(account) != table_id:
            raise TableError("not_seated", "you do not play at this table")
        if kind == "act":
            outs = self.t.act(account, args["action"], args["to"], args["turn"], now)
        elif kind == "sit_out":
            outs = self.t.sit_out(account, now)
        elif kind == "sit_in":
            outs = self.t.sit_in(account, now)
        else:  # seed: the player's own seed for the table's next deck
            table = self.t.tables[table_id]
            level = self.t.level_number(now)
            outs = [
                TableOut(table_id, o, level)
                for o in table.add_seed(account, args["commitment"], args["seed"])
            ]
        await self.apply(outs)

    async def register(self, account: int, name: str, now: float) -> None:
        """Take the buy-in (refused, nothing changes, if the balance is short), then register."""
        self.t.check_register(account, name)
        s = self.t.settings
        store = self.room.db.store

        def pay(conn: Connection) -> None:
            self.desk.fence(conn, self.id)
            db_tourneys.pay_buy_in(store, conn, account, self.id, s.buy_in, s.fee)

        try:
            await self.room.db.write(pay)
        except LedgerError as error:
            raise TableError("insufficient_balance", str(error)) from None
        await self.apply(self.t.register(account, name, now), paid={account})

    async def fill(self, account: int, now: float) -> None:
        """A registered player of a Sit & Go asks for bots in the empty seats: it starts."""
        s = self.t.settings
        if s.kind != "sng" or self.t.state != "registering":
            raise TournamentError("no_bot_fill", "only a Sit & Go that has not started takes bots")
        if account not in self.t.entrants:
            raise TournamentError("not_registered", "register first, then ask for bots")
        await self.add_bots(s.table_seats - len(self.t.entrants), now)

    async def add_bots(self, count: int, now: float) -> None:
        """Register ``count`` of the room's bots, in one transaction (each bot pays its
        buy-in from its own balance, granted play money when it runs low)."""
        if count <= 0:
            return
        accounts = await self.desk.take_bots(count)
        try:
            for account in accounts:
                self.t.check_register(account.id, account.name)
            capacity = self.t.settings.capacity
            if capacity is not None and len(self.t.entrants) + count > capacity:
                raise TournamentError("tournament_full", "the tournament is full")
        except TableError:
            for account in accounts:
                self.desk.release_bot(account.id)
            raise
        s = self.t.settings
        store = self.room.db.store
        cost = s.buy_in + s.fee

        def pay(conn: Connection) -> None:
            self.desk.fence(conn, self.id)
            for account in accounts:
                if store.balance(conn, account.id) < cost:
                    store.grant(conn, account.id, max(cost * 20, 1000))
                db_tourneys.pay_buy_in(store, conn, account.id, self.id, s.buy_in, s.fee)

        await self.room.db.write(pay)
        self.bots.update({a.id: None for a in accounts})
        outs: list[TourneyOut] = []
        for account in accounts:
            outs += self.t.register(account.id, account.name, now, bot=True)
        await self.apply(outs, paid={a.id for a in accounts})

    async def call_off(self, now: float) -> dict[str, Any]:
        """Call the tournament off (:meth:`Tournament.call_off`): refunds before the start, a
        chip chop of the pool left once running; the hands in progress are void. Returns
        the chips each account got back and the state it was in."""
        was = self.t.state
        running = list(self.hand_ids.values())
        outs = self.t.call_off(now)
        self.hand_ids = {}
        await self.apply(outs, force=True)
        if running:
            store = self.room.db.store

            def void(conn: Connection) -> None:
                self.desk.fence(conn, self.id)
                for hand_id in running:
                    store.void_hand(conn, hand_id)

            await self.room.db.write(void)
        paid: dict[int, int] = {}
        for out in outs:
            if isinstance(out, Effect) and out.kind in ("refund", "prize"):
                d = out.data
                back = (
                    int(d["buy_in"]) + int(d["fee"]) if out.kind == "refund" else int(d["amount"])
                )
                paid[int(d["account_id"])] = paid.get(int(d["account_id"]), 0) + back
        self._send_view()
        return {"was": was, "paid": paid}

    # -- timers ----------------------------------------------------------------------------

    async def _timers(self, now: float) -> None:
        await self.apply(self.t.tick(now))
        for table_id, table in list(self.t.tables.items()):
            seat = table.actor_seat
            player = None if seat is None else table.seats[seat]
            if player is None or player.id not in self.bots or self.t.state != RUNNING:
                self.bot_due.pop(table_id, None)
                continue
            assert seat is not None
            due = self.bot_due.get(table_id)
            if due is None:
                spot = table.view(seat)["hand"]
                bounds = self.room.config.bot_delay
                self.bot_due[table_id] = now + think_seconds(self.rng, spot, table.legal(), bounds)
                continue
            if now < due:
                continue
            del self.bot_due[table_id]
            view = table.view(seat, events=True)["hand"]
            legal = table.legal()
            turn = table.turn_id
            choice = await asyncio.to_thread(self._choose, player.id, view, legal)
            if table.turn_id != turn:  # never: nothing else runs this table meanwhile
                continue
            await self.apply(self.t.act(player.id, choice.action, choice.to, turn, self._clock()))
        if self.dirty and self._clock() >= self.view_sent + VIEW_INTERVAL:
            self._send_view()

    # -- effects and events ----------------------------------------------------------------

    async def apply(
        self,
        outs: list[TourneyOut],
        *,
        paid: frozenset[int] | set[int] = frozenset(),
        force: bool = False,
    ) -> None:
        """Store a step's money, hands and snapshot in one transaction; then send its events.

        ``paid``: accounts whose buy-in this step's ``buy_in`` effect was already taken.
        """
        now = self._clock()
        money = [
            o for o in outs
            if isinstance(o, Effect) and o.kind in MONEY
            and not (o.kind == "buy_in" and int(o.data["account_id"]) in paid)
        ]  # fmt: skip
        hands = [
            o for o in outs
            if isinstance(o, TableOut) and isinstance(o.item, Effect)
            and o.item.kind in ("hand_started", "hand_finished")
        ]  # fmt: skip
        placings = {
            (int(o.data["table"]), int(o.data["hand"])): o.data["placings"]
            for o in outs
            if isinstance(o, Event) and o.kind == "placings"
        }
        changed = force or bool(money or hands or any(isinstance(o, Event) for o in outs))
        if changed:
            data = snapshot(self.t, now)
            running = dict(self.hand_ids)
            rows = dict(self.table_rows)
            recent = dict(self.recent)
            running, finished, new_rows = await self.room.db.write(
                lambda conn: self._store(conn, money, hands, placings, data, running, rows, recent)
            )
            self.table_rows.update(new_rows)
            self.hand_ids = running
            if finished:
                HANDS.labels(self.t.settings.game).inc(len(finished))
            for (table_id, number), (out, hand_id) in finished.items():
                self.last_hand_ids[table_id] = hand_id
                self.recent[(table_id, number)] = (out, hand_id)
            while len(self.recent) > RECENT_HANDS:
                del self.recent[next(iter(self.recent))]
        self._publish(outs, now)
        for item in outs:
            if isinstance(item, Event) and item.kind in LOGGED_EVENTS:
                log.info("tournament %s", item.kind, extra=at(tournament=self.id))
        for observer in self.observers:
            observer(self, outs)
        await self._show_bots(outs)
        if self.over:
            self.desk.release_bots(self)
        reopen = ("started", "cancelled")
        if self.template and any(isinstance(o, Event) and o.kind in reopen for o in outs):
            self.desk.reopen()  # a default tournament: its next copy opens

    def _store(
        self,
        conn: Connection,
        money: list[Effect],
        hands: list[TableOut],
        placings: dict[tuple[int, int], Any],
        data: dict[str, Any],
        running: dict[int, int],
        rows: dict[int, int],
        recent: dict[tuple[int, int], tuple[TableOut, int]],
    ) -> tuple[dict[int, int], dict[tuple[int, int], tuple[TableOut, int]], dict[int, int]]:
        """On the writer thread, one transaction; changes nothing of the actor's (the writer
        may run it twice): the hands running after it, the hands finished, table rows made."""
        self.desk.fence(conn, self.id)
        running = dict(running)
        store = self.room.db.store
        s = self.t.settings
        for effect in money:
            d = effect.data
            account = int(d["account_id"])
            if effect.kind == "buy_in":
                db_tourneys.pay_buy_in(
                    store, conn, account, self.id, int(d["buy_in"]), int(d["fee"])
                )
            elif effect.kind == "refund":
                db_tourneys.refund(store, conn, account, self.id, int(d["buy_in"]), int(d["fee"]))
            else:
                db_tourneys.pay_prize(store, conn, account, self.id, int(d["amount"]))
        finished: dict[tuple[int, int], tuple[TableOut, int]] = {}
        new_rows: dict[int, int] = {}
        for out in hands:
            assert isinstance(out.item, Effect)
            d = out.item.data
            table_id = out.table
            if out.item.kind == "hand_started":
                row = rows.get(table_id) or new_rows.get(table_id)
                if row is None:
                    level = s.structure.level(out.level)
                    stakes = {"ante": level.ante, "bring_in": level.bring_in,
                              "small_bet": level.small_bet, "big_bet": level.big_bet}  # fmt: skip
                    row = db_tourneys.table_row(
                        conn, self.id, f"{s.id} {table_id}", s.game, stakes, s.table_seats
                    )
                    new_rows[table_id] = row
                number = int(d["number"])
                running[table_id] = store.start_hand(conn, row, number, s.game, d["players"])
            else:
                hand_id = running.pop(table_id, None)
                if hand_id is None:
                    continue  # the hand began before a restart: it was voided
                number = int(d["number"])
                played = hand_played(
                    s, out, hand_id,
                    time=datetime.fromtimestamp(float(d["finished_at"]), UTC),
                    placings=placings.get((table_id, number), ()),
                )  # fmt: skip
                pot = sum(int(v) for v in d["payouts"].values())
                db_tourneys.finish_hand(conn, hand_id, pot, d["summary"], played)
                finished[(table_id, number)] = (out, hand_id)
        for key, rows_of_places in placings.items():
            if key in finished or key not in recent:
                continue
            old, hand_id = recent[key]  # a hand-for-hand round: its closing lines came later
            finished_at = float(old.item.data["finished_at"])
            played = hand_played(
                s, old, hand_id, time=datetime.fromtimestamp(finished_at, UTC),
                placings=rows_of_places,
            )  # fmt: skip
            db_tourneys.set_played(conn, hand_id, played)
        db_tourneys.save(conn, self.id, data)
        return running, finished, new_rows

    def _publish(self, outs: list[TourneyOut], now: float) -> None:
        """Send each table's events to its watchers, and the tournament's to the tables they
        concern; then each touched table's state, and the players their seats."""
        touched: set[int] = set()
        for out in outs:
            if isinstance(out, TableOut):
                if not isinstance(out.item, Event):
                    if isinstance(out.item, Effect) and out.item.kind == "hand_started":
                        self.hand_players[out.table] = list(out.item.data["players"])
                    if isinstance(out.item, Effect) and out.item.kind == "hand_finished":
                        self.dirty = True  # the page's chip counts changed
                    continue
                event = out.item
                if event.kind == "hand_finished":
                    event.data["hand_id"] = self.last_hand_ids.get(out.table)
                elif event.kind == NEW_HAND:
                    event.data["hand_id"] = self.hand_ids.get(out.table)
                self._channel(out.table).publish(event)
                touched.add(out.table)
                continue
            if not isinstance(out, Event):
                continue
            self.dirty = True
            touched |= self._table_event(out, now)
        for table_id in touched:
            self._send_states(table_id, now)
        self._seat_notices()

    def _table_event(self, event: Event, now: float) -> set[int]:
        """A tournament event as the tables it concerns show it; the tables touched."""
        d = event.data
        if event.kind == "level":
            for table_id in self.t.tables:
                self._channel(table_id).publish(Event("level", dict(d)))
            return set(self.t.tables)
        if event.kind == "moved":
            to = table_key(self.id, int(d["to"]))
            moved = {"seat": d["from_seat"], "name": d["name"], "to": to, "chips": d["chips"],
                     "breaking": d["breaking"]}  # fmt: skip
            self._channel(int(d["from"])).publish(Event("moved", moved))
            return {int(d["from"]), int(d["to"])}
        if event.kind == "busted" and d.get("table") is not None:
            table_id = int(d["table"])
            players = self.hand_players.get(table_id, [])
            seat = next((p["seat"] for p in players if p["account_id"] == d["id"]), None)
            finish = next((f for f in self.t.finishes() if f.account_id == d["id"]), None)
            prize = None if finish is None or not finish.prize else finish.prize
            busted = {"seat": seat, "name": d["name"], "place": d["place"], "prize": prize}
            if table_id in self.t.tables:
                self._channel(table_id).publish(Event("busted", busted))
                return {table_id}
            return set()
        if event.kind == "hand_voided":
            table_id = int(d["table"])
            self._channel(table_id).publish(Event("hand_voided", dict(d)))
            return {table_id}
        if event.kind == "table_closed":
            table_id = int(d["table"])
            channel = self.channels.pop(table_id, None)
            if channel is not None:
                channel.send_all({"type": "table_closed", "table": channel.key})
            return set()
        if event.kind in ("finished", "final_table", "hand_for_hand"):
            for table_id in self.t.tables:
                self._channel(table_id).publish(Event(event.kind, dict(d)))
            return set(self.t.tables)
        return set()

    def _state_text(self, channel: Channel, table_id: int, account: int | None, now: float) -> str:
        view = self.t.table_view(table_id, account, now)
        view["hand_id"] = self.hand_ids.get(table_id) if self.t.tables[table_id].hand else None
        view["last_hand_id"] = self.last_hand_ids.get(table_id)
        view["waiting"] = []
        return channel.state_text(view)

    def _send_states(self, table_id: int, now: float) -> None:
        channel = self.channels.get(table_id)
        if channel is None or not channel.watchers or table_id not in self.t.tables:
            return
        texts: dict[int | None, str] = {}
        for watcher in list(channel.watchers):
            account = watcher.account_id
            if account not in texts:
                texts[account] = self._state_text(channel, table_id, account, now)
            watcher.send(texts[account])

    def _seat_notices(self) -> None:
        """``tournament_seat`` to a person's own connections when seated or moved."""
        if self.t.state != RUNNING:
            return
        for table_id, table in self.t.tables.items():
            for _, player in table.players():
                if player.bot or self.seated.get(player.id) == table_id:
                    continue
                self.seated[player.id] = table_id
                text = dumps(
                    {"type": "tournament_seat", "tournament": self.id,
                     "table": table_key(self.id, table_id)}
                )  # fmt: skip
                self.desk.tell_account(player.id, text)

    def view_message(self, now: float) -> str:
        return dumps({"type": "tournament", "tournament": self.id, "view": self.t.view(now)})

    def _send_view(self) -> None:
        now = self._clock()
        self.dirty = False
        self.view_sent = now
        self.desk.viewed(self)
        if not self.watchers:
            return
        text = self.view_message(now)
        for watcher in list(self.watchers):
            watcher.send(text)

    async def _show_bots(self, outs: list[TourneyOut]) -> None:
        """Each bot in a hand sees its seat's view when the hand is dealt and when it ends
        (its reads follow players by account), taken in off the event loop."""
        shows: list[tuple[int, dict[str, Any], dict[int, int]]] = []
        for out in outs:
            if not isinstance(out, TableOut):
                continue
            table = self.t.tables.get(out.table)
            if table is None:
                continue
            item = out.item
            if isinstance(item, Event) and item.kind == NEW_HAND and table.hand is not None:
                seats = {int(p["seat"]): int(p["account_id"]) for p in item.data["players"]}
                for seat, account in seats.items():
                    if account in self.bots:
                        shows.append((account, table.view(seat, events=True), seats))
            elif isinstance(item, Effect) and item.kind == "hand_finished":
                players = self.hand_players.get(out.table, [])
                seats = {int(p["seat"]): int(p["account_id"]) for p in players}
                for index, p in enumerate(players):
                    if int(p["account_id"]) in self.bots:
                        view = item.data["hand"].view(index, events=True)
                        shows.append((int(p["account_id"]), view, seats))
        if shows:
            await asyncio.to_thread(self._show, shows)

    def _brain(self, account: int) -> Bot:
        """A bot's player, built the first time it is needed (in a worker thread: a strong
        bot takes a while to build). The actor waits for the thread, so nothing else
        touches ``bots`` meanwhile."""
        brain = self.bots.get(account)
        if brain is None:
            brain = self.bots[account] = self.desk.brain(account)
        return brain

    def _choose(self, account: int, view: dict[str, Any], legal: list[Legal]) -> Legal:
        return self._brain(account).choose(view, legal)

    def _show(self, shows: list[tuple[int, dict[str, Any], dict[int, int]]]) -> None:
        for account, view, players in shows:
            self._brain(account).observe(view, players)

    # -- the lobby's view ------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        return self.t.summary(self._clock())

    def details(self, account: int | None) -> dict[str, Any]:
        """The tournament's page, with where the asking account stands."""
        view = self.t.view(self._clock())
        table = None if account is None else self.t.table_of(account)
        view["me"] = {
            "registered": account is not None and account in self.t.entrants,
            "table": None if table is None else table_key(self.id, table),
        }
        view["id"] = self.id
        return view

    @property
    def over(self) -> bool:
        return self.t.state not in ("registering", RUNNING)

    @property
    def finished(self) -> bool:
        return self.t.state == FINISHED
