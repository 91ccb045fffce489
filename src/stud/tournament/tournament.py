"""One tournament: registration, seating, levels, the tables' hands, busts, balancing, prizes.

Pure like :mod:`stud.table`: no I/O and no clock of its own; every call that
can depend on time takes ``now`` (seconds). The hands are run by real
:class:`stud.table.Table` objects, one per tournament table (their
``tournament`` setting deals away players in), so the rules of a hand stay in
one place. Each call returns what happened, in order:

* :class:`TableOut` -- a table's own event or effect, tagged with the table
  and the level its hand is played at;
* :class:`stud.table.Event` -- a tournament event (registered, started,
  level, moved, table_closed, busted, final_table, finished, ...);
* :class:`stud.table.Effect` -- money for the ledger: ``buy_in``, ``refund``
  and ``prize``. Tournament chips never touch the ledger.
"""

from __future__ import annotations

import random
import secrets
from typing import Any, Final

from stud.table import Effect, Event, HandFactory, Out, Table, TableError, TableSettings
from stud.tournament import balance, placing, views
from stud.tournament.places import Bust
from stud.tournament.settings import TournamentError, TournamentSettings
from stud.tournament.state import (
    CANCELLED,
    FINISHED,
    REGISTERING,
    RUNNING,
    Entrant,
    TableOut,
    TournamentState,
    TourneyOut,
)


def table_seed(seed: int | None, table_id: int) -> int | None:
    """The deck seed of one table (None, the room's CSPRNG, unless the tournament has a seed)."""
    return None if seed is None else seed * 1_000_003 + table_id


def default_hand_factory() -> HandFactory:
    from stud.table.engine import start_engine_hand

    return start_engine_hand


class Tournament(TournamentState):
    """A Sit & Go or a multi-table tournament, from registration to its winner.

    What it is at a moment, and the questions about it, are
    :class:`~stud.tournament.state.TournamentState`'s; this class changes it.
    """

    def __init__(
        self,
        settings: TournamentSettings,
        *,
        seed: int | None = None,
        start_hand: HandFactory | None = None,
    ) -> None:
        super().__init__(settings, seed=seed)
        self._start_hand = start_hand or default_hand_factory()
        self._hand_players: dict[int, list[dict[str, Any]]] = {}
        self._out: list[TourneyOut] = []

    # -- registration ----------------------------------------------------------------------

    def register(
        self, account_id: int, name: str, now: float, *, bot: bool = False
    ) -> list[TourneyOut]:
        """Enter the tournament: the ledger takes buy-in + fee (the ``buy_in`` effect).

        A Sit & Go starts when its seats are full; a player who registers late
        is seated at once with the starting chips.
        """
        s = self.settings
        self.check_register(account_id, name)
        entrant = Entrant(account_id, name, bot, now, s.buy_in, s.fee)
        self.entrants[account_id] = entrant
        self._emit(
            Effect(
                "buy_in", {"account_id": account_id, "buy_in": s.buy_in, "fee": s.fee, "bot": bot}
            )
        )
        self._emit(
            Event(
                "registered",
                {"id": account_id, "name": name, "bot": bot, "entrants": len(self.entrants)},
            )
        )
        if self.state == RUNNING:
            self._seat_late(entrant, now)
        elif s.kind == "sng" and len(self.entrants) == s.table_seats:
            self._start(now)
        return self._drain()

    def check_register(self, account_id: int, name: str) -> None:
        """Refuse (TournamentError) what :meth:`register` would refuse, changing nothing.

        A server asks first, takes the buy-in, then registers: a registration
        that passes this check cannot be refused by the tournament.
        """
        s = self.settings
        if self.state in (FINISHED, CANCELLED):
            raise TournamentError("tournament_over", "the tournament is over")
        if self.state == RUNNING and not self.registration_open:
            raise TournamentError("registration_closed", "registration is closed")
        if account_id in self.entrants:
            raise TournamentError("already_registered", "you are already registered")
        if s.capacity is not None and len(self.entrants) >= s.capacity:
            raise TournamentError("tournament_full", "the tournament is full")
        _check_name(name)

    def unregister(self, account_id: int, now: float) -> list[TourneyOut]:
        """Leave before the start: buy-in and fee are refunded (the ``refund`` effect)."""
        if self.state != REGISTERING:
            raise TournamentError("already_started", "the tournament has started: no refunds")
        entrant = self.entrants.pop(account_id, None)
        if entrant is None:
            raise TournamentError("not_registered", "you are not registered")
        self._refund(entrant)
        self._emit(Event("unregistered", {"id": account_id, "entrants": len(self.entrants)}))
        return self._drain()

    def fill_with_bots(self, bots: list[tuple[int, str]], now: float) -> list[TourneyOut]:
        """Sit & Go: bots (account id, name) take the empty seats, and the tournament starts."""
        s = self.settings
        if s.kind != "sng" or self.state != REGISTERING:
            raise TournamentError("no_bot_fill", "only a Sit & Go that has not started takes bots")
        free = s.table_seats - len(self.entrants)
        if len(bots) < free:
            raise TournamentError("not_enough_bots", f"{free} bots are needed, {len(bots)} given")
        if not self.entrants:
            raise TournamentError("no_entrants", "a player must register before bots fill in")
        chosen = bots[:free]
        ids = [account_id for account_id, _ in chosen]
        if len(set(ids)) != len(ids) or any(a in self.entrants for a in ids):
            raise TournamentError("already_registered", "each bot must be a new entrant")
        for _, name in chosen:
            _check_name(name)
        outs: list[TourneyOut] = []
        for account_id, name in chosen:
            outs += self.register(account_id, name, now, bot=True)
        return outs

    def cancel(self, now: float) -> list[TourneyOut]:
        """Call the tournament off before it starts: everyone is refunded."""
        if self.state != REGISTERING:
            raise TournamentError("already_started", "a running tournament cannot be cancelled")
        self._cancel(now)
        return self._drain()

    def call_off(self, now: float) -> list[TourneyOut]:
        """The operator calls the tournament off: before the start as :meth:`cancel`
        (everyone refunded); once running, the prizes of places already decided stay paid
        and what is left of the pool goes to the players still in, in proportion to their
        chips at the start of their hand in progress (a chip chop; the odd chips one each
        to the biggest stacks). The hands in progress are void; the tables close."""
        if self.state == REGISTERING:
            return self.cancel(now)
        if self.state != RUNNING:
            raise TournamentError("tournament_over", "the tournament is over")
        chips = {account: self.chips(account) for account in self.alive()}
        paid = sum(f.prize for f in self.finishes() if f.account_id in self.paid)
        shares = chip_chop(self.pool - paid, chips)
        for account, amount in shares.items():
            if amount > 0:
                self.paid.add(account)
                bot = self.entrants[account].bot
                data = {"account_id": account, "amount": amount, "place": None, "bot": bot}
                self._emit(Effect("prize", data))
        self.tables.clear()
        self.state = CANCELLED
        self.finished_at = now
        self._emit(Event("cancelled", {"reason": "called_off", "shares": shares}))
        return self._drain()

    # -- play ------------------------------------------------------------------------------

    def tick(self, now: float) -> list[TourneyOut]:
        """Let time pass: start, close late registration, change level, deal, run out clocks."""
        self._advance(now)
        return self._drain()

    def _advance(self, now: float) -> None:
        s = self.settings
        if self.state == REGISTERING and s.start_at is not None and now >= s.start_at:
            if len(self.entrants) < 2:
                self._cancel(now)
            else:
                self._start(now)
        if self.state != RUNNING:
            return
        closes = self.registration_closes_at()
        if self.registration_open and (closes is None or now >= closes):
            self._close_registration(now)
        number = self.level_number(now)
        if number > self.level_shown:
            self.level_shown = number
            self._emit(Event("level", views.level_info(self, now)))
        holding = self.hand_for_hand()
        if holding:
            due = [t.next_hand_at for t in self.tables.values() if t.next_hand_at is not None]
            busy = any(t.hand is not None for t in self.tables.values())
            together = not busy and bool(due) and now >= max(due)
            if together and not self.round_active:
                self.round_active = True
                self.rounds_played += 1
                if self.rounds_played == 1:
                    self._emit(Event("hand_for_hand", {"players_left": len(self.alive())}))
        for table_id in list(self.tables):
            table = self.tables.get(table_id)
            if table is None or self.state != RUNNING:
                continue
            if table.hand is None and table.next_hand_at is not None and now >= table.next_hand_at:
                if holding and not together:
                    continue  # hand for hand: it waits for every table to finish and be due
                level = self.level(now)
                self._table_outs(table_id, table.set_stakes(*level.stakes), now)
                self.hand_levels[table_id] = level.number
            self._table_outs(table_id, table.tick(now), now)

    def act(self, account_id: int, action: str, to: int, turn: int, now: float) -> list[TourneyOut]:
        """A player's action at their table (the table checks turn and legality)."""
        table_id, table = self._table(account_id)
        self._table_outs(table_id, table.act(account_id, action, to, turn, now), now)
        return self._drain()

    def sit_out(self, account_id: int, now: float) -> list[TourneyOut]:
        """Away: still dealt in and anteing, turns passed at once (anteing off)."""
        table_id, table = self._table(account_id)
        self._table_outs(table_id, table.sit_out(account_id, now), now)
        return self._drain()

    def sit_in(self, account_id: int, now: float) -> list[TourneyOut]:
        table_id, table = self._table(account_id)
        self._table_outs(table_id, table.sit_in(account_id, now), now)
        return self._drain()

    def seat_restored(self, table_id: int, seat: int, player: dict[str, Any], now: float) -> None:
        """Seat a player from a snapshot at ``seat`` of table ``table_id``, as they were."""
        self._sit(
            table_id, int(player["id"]), str(player["name"]), int(player["stack"]), now,
            bot=bool(player["bot"]), away=bool(player["away"]), seat=seat,
        )  # fmt: skip

    def drain(self) -> list[TourneyOut]:
        """What internal steps (a restore's seating) emitted, not yet returned."""
        return self._drain()

    def rebalance(self, now: float) -> list[TourneyOut]:
        """Break and balance tables now (done after every hand; a restored tournament asks)."""
        if self.state == RUNNING:
            self._rebalance(now)
        return self._drain()

    # -- views (stud.tournament.views) -----------------------------------------------------

    def table_view(self, table_id: int, account_id: int | None, now: float) -> dict[str, Any]:
        """:func:`stud.tournament.views.table_view`: a table with the level clock."""
        return views.table_view(self, table_id, account_id, now)

    def summary(self, now: float) -> dict[str, Any]:
        """:func:`stud.tournament.views.summary`: the tournament's line in the lobby."""
        return views.summary(self, now)

    def view(self, now: float) -> dict[str, Any]:
        """:func:`stud.tournament.views.page`: the tournament's lobby page."""
        return views.page(self, now)

    # -- internals: flow -------------------------------------------------------------------

    def _emit(self, item: TourneyOut) -> None:
        self._out.append(item)

    def _drain(self) -> list[TourneyOut]:
        out, self._out = self._out, []
        return out

    def _table(self, account_id: int) -> tuple[int, Table]:
        table_id = self.table_of(account_id)
        if table_id is None:
            raise TournamentError("not_seated", "you are not seated in this tournament")
        return table_id, self.tables[table_id]

    def _refund(self, entrant: Entrant) -> None:
        self._emit(
            Effect(
                "refund",
                {
                    "account_id": entrant.id,
                    "buy_in": entrant.buy_in,
                    "fee": entrant.fee,
                    "bot": entrant.bot,
                },
            )
        )

    def _cancel(self, now: float) -> None:
        for entrant in list(self.entrants.values()):
            self._refund(entrant)
        self.entrants.clear()
        self.state = CANCELLED
        self.finished_at = now
        self._emit(Event("cancelled", {"reason": "too few entrants"}))

    def _new_table(self) -> tuple[int, Table]:
        table_id = self.next_table
        self.next_table += 1
        return table_id, self.open_table(table_id)

    def open_table(self, table_id: int) -> Table:
        """An empty tournament table numbered ``table_id``, at the first level's stakes."""
        s = self.settings
        if table_id in self.tables:
            raise TournamentError("table_exists", f"table {table_id} is open already")
        level = s.structure.level(1)
        table_settings = TableSettings(
            name=f"{s.id} {table_id}", game=s.game, ante=level.ante, bring_in=level.bring_in,
            small_bet=level.small_bet, big_bet=level.big_bet, seats=s.table_seats,
            turn_seconds=s.turn_seconds, time_bank=s.time_bank, bank_refill=s.bank_refill,
            timeouts_to_sit_out=s.timeouts_to_sit_out, pause_between_hands=s.pause_between_hands,
            tournament=True,
        )  # fmt: skip
        label = f"t{s.id}.{table_id}"  # hand ids of its shuffles: t7.3-12
        table = Table(
            table_settings, self._start_hand, seed=table_seed(self.seed, table_id), label=label
        )
        self.tables[table_id] = table
        return table

    def _start(self, now: float) -> None:
        """Draw seats: entrants shuffled, dealt round the tables so they differ by at most one."""
        s = self.settings
        self.state = RUNNING
        self.started_at = now
        rng = random.Random(self.seed if self.seed is not None else secrets.randbits(64))
        order = list(self.entrants.values())
        rng.shuffle(order)
        count = -(-len(order) // s.table_seats)
        ids = [self._new_table()[0] for _ in range(count)]
        self._emit(
            Event("started", {"entrants": len(order), "tables": ids, "prize_pool": self.pool})
        )
        for k, entrant in enumerate(order):
            table_id = ids[k % count]
            self._sit(
                table_id, entrant.id, entrant.name, s.structure.starting_chips, now, bot=entrant.bot
            )
        if count == 1:
            self.final_table = True
        self._advance(now)

    def _seat_late(self, entrant: Entrant, now: float) -> None:
        """A late entrant takes a free seat at the smallest table (a new table if all are full)."""
        open_tables = {t: n for t, n in self.head_counts().items() if n < self.settings.table_seats}
        if open_tables:
            table_id = min(open_tables, key=lambda t: (open_tables[t], t))
        else:
            table_id = self._new_table()[0]
            self.final_table = False
        self._sit(
            table_id,
            entrant.id,
            entrant.name,
            self.settings.structure.starting_chips,
            now,
            bot=entrant.bot,
        )
        self._rebalance(now)

    def _sit(
        self,
        table_id: int,
        account_id: int,
        name: str,
        stack: int,
        now: float,
        *,
        bot: bool,
        away: bool = False,
        seat: int | None = None,
    ) -> None:
        """Seat a player at the lowest free seat (or ``seat``), with their chips, away or not."""
        table = self.tables[table_id]
        if seat is None:
            seat = next(s for s, p in enumerate(table.seats) if p is None)
        self._table_outs(table_id, table.sit(account_id, name, stack, now, seat=seat, bot=bot), now)
        if away:
            self._table_outs(table_id, table.sit_out(account_id, now), now)

    def _close_registration(self, now: float) -> None:
        self.registration_open = False
        if self.state == RUNNING and self.started_at is not None and now > self.started_at:
            self._emit(
                Event(
                    "registration_closed",
                    {
                        "entrants": len(self.entrants),
                        "prize_pool": self.pool,
                        "payouts": self.payouts(),
                    },
                )
            )
        self._pay(now)

    def _table_outs(self, table_id: int, outs: list[Out], now: float) -> None:
        """Pass a table's outputs on; when one of its hands ended, act on it after them."""
        level = self.hand_levels.get(table_id, self.level_number(now))
        finished = False
        for item in outs:
            self._emit(TableOut(table_id, item, level))
            if isinstance(item, Effect):
                if item.kind == "hand_started":
                    self._hand_players[table_id] = list(item.data["players"])
                elif item.kind == "hand_finished":
                    finished = True
                elif item.kind == "cash_out":  # never: tournament tables do not cash out
                    raise AssertionError(f"a tournament table cashed out chips: {item.data}")
        if finished:
            self._after_hand(table_id, now)

    def _after_hand(self, table_id: int, now: float) -> None:
        """Between hands: place the busted players, pay them, then break and balance tables."""
        table = self.tables[table_id]
        players = self._hand_players.pop(table_id, [])
        busts = [
            Bust(p["account_id"], p["stack"], order)
            for order, p in enumerate(players)
            if table.seat_of(p["account_id"]) is None
        ]
        if self.round_active:
            hand = self.tables[table_id].hand_number
            self.round_busts.append((table_id, hand, players, busts))
            if any(t.hand is not None for t in self.tables.values()):
                self._rebalance(now)  # the round goes on at the other tables
                return
            self.end_round(now)
            return
        self._place(table_id, players, busts, now)

    def end_round(self, now: float) -> None:
        """Every table has finished the hand-for-hand round: place its busts as one hand's
        (by chips at the start of their hands; of equal ones, by table number, then deal
        order), then pay, and break and balance tables."""
        rounds, self.round_busts = self.round_busts, []
        self.round_active = False
        self._place(None, [], placing.round_busts(rounds), now, rounds=rounds)

    def _place(
        self,
        table_id: int | None,
        players: list[dict[str, Any]],
        busts: list[Bust],
        now: float,
        *,
        rounds: list[placing.Round] | None = None,
    ) -> None:
        """Place the players who busted in one hand (or one hand-for-hand round)."""
        tables = placing.bust_tables(table_id, busts, rounds)
        if busts:
            self.standings.add(busts)
            alive = len(self.alive())
            if alive == 1 and self.registration_open:
                self._close_registration(now)
            finishes = self.finishes()
            for event in placing.busted_events(busts, tables, finishes, self.entrants, alive):
                self._emit(event)
            if alive == 1:
                self._finish(now)
            else:
                self._pay(now)
            if rounds is None:
                assert table_id is not None
                self._emit_placings(table_id, players, busts, self.tables[table_id].hand_number)
            else:
                for round_table, hand, round_players, table_busts in rounds:
                    self._emit_placings(round_table, round_players, table_busts, hand)
            if alive == 1:
                return
        self._rebalance(now)

    def _emit_placings(
        self, table_id: int, players: list[dict[str, Any]], busts: list[Bust], hand: int
    ) -> None:
        """The ``placings`` of the hand just played (:func:`placing.placings_event`), left
        out while late registration can still change places."""
        if self.registration_open:
            return
        winner = self.standings.winner
        event = placing.placings_event(table_id, players, busts, hand, self.finishes(), winner)
        if event is not None:
            self._emit(event)

    def _pay(self, now: float) -> None:
        """Credit the prizes of every place decided in the money (once the field is known)."""
        if self.registration_open:
            return
        for effect in placing.prize_effects(self.finishes(), self.paid, self.entrants):
            self._emit(effect)

    def _finish(self, now: float) -> None:
        """One player is left: they win. Their table stays, with every chip at it."""
        (winner,) = self.alive()
        self.standings.winner = winner
        self.state = FINISHED
        self.finished_at = now
        for table in self.tables.values():
            table.next_hand_at = None
        self._pay(now)
        prize = self.finishes()[0].prize
        name = self.entrants[winner].name
        self._emit(Event("finished", {"winner": winner, "name": name, "prize": prize}))

    def _rebalance(self, now: float) -> None:
        """Break and balance tables as far as the tables between hands allow (see balance)."""
        seats = self.settings.table_seats
        busy = {t for t, table in self.tables.items() if table.hand is not None}
        for move in balance.plan(self.head_counts(), seats, busy):
            self._move(move, now)
        for table_id, table in list(self.tables.items()):
            if not table.players() and len(self.tables) > 1:
                del self.tables[table_id]
                self.hand_levels.pop(table_id, None)
                self._emit(Event("table_closed", {"table": table_id}))
        if len(self.tables) == 1 and not self.final_table:
            self.final_table = True
            self._emit(
                Event(
                    "final_table", {"table": next(iter(self.tables)), "players": len(self.alive())}
                )
            )

    def _move(self, move: balance.Move, now: float) -> None:
        """The player who would be dealt the next hand's first card moves (see docs)."""
        source = self.tables[move.source]
        n = source.settings.seats
        order = [(source.button + k) % n for k in range(1, n + 1)]
        seat = next(s for s in order if source.seats[s] is not None)
        mover = source.seats[seat]
        assert mover is not None
        player, outs = source.take(mover.id)
        self._table_outs(move.source, outs, now)
        self._sit(
            move.target,
            player.id,
            player.name,
            player.stack,
            now,
            bot=player.bot,
            away=player.sitting_out,
        )
        target = self.tables[move.target]
        target_seat = target.seat_of(player.id)
        assert target_seat is not None
        moved = target.seats[target_seat]
        assert moved is not None
        moved.bank, moved.timeouts = player.bank, player.timeouts  # the clock goes with them
        self._emit(
            Event(
                "moved",
                {
                    "id": player.id,
                    "name": player.name,
                    "from": move.source,
                    "from_seat": seat,
                    "to": move.target,
                    "to_seat": target_seat,
                    "chips": player.stack,
                    "breaking": move.breaking,
                },
            )
        )


MAX_NAME: Final = 64


def _check_name(name: str) -> None:
    """A player's name as histories and the lobby print it: 1 to 64 printable characters."""
    if not name.strip():
        raise TournamentError("bad_name", "a player needs a name")
    if len(name) > MAX_NAME:
        raise TournamentError("bad_name", f"a name has at most {MAX_NAME} characters")
    # As the history writers see it: a character that is not printable would be escaped.
    bad = next((c for c in name if not (c == " " or c.isprintable())), None)
    if bad is not None:
        raise TournamentError("bad_name", f"a name cannot hold the character U+{ord(bad):04X}")


__all__ = [
    "CANCELLED",
    "FINISHED",
    "REGISTERING",
    "RUNNING",
    "Entrant",
    "TableError",
    "TableOut",
    "Tournament",
    "TourneyOut",
]


def chip_chop(pool: int, chips: dict[int, int]) -> dict[int, int]:
    """``pool`` shared in proportion to ``chips`` (whole chips: each its floor, then one more
    each to the biggest stacks, the lower account first on a tie, until none is left)."""
    total = sum(chips.values())
    if pool <= 0 or total <= 0:
        return {account: 0 for account in chips}
    shares = {account: pool * stack // total for account, stack in chips.items()}
    left = pool - sum(shares.values())
    for account in sorted(chips, key=lambda a: (-chips[a], a))[:left]:
        shares[account] += 1
    return shares
