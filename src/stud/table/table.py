"""Hands in sequence at one table: seats, stacks, the button, the clock.

Pure: no I/O and no clock of its own; every call that can depend on time takes
``now`` (seconds). Each call returns what happened as an ordered list of
:class:`Event` (for the players, with private parts per account) and
:class:`Effect` (for the server to store: a hand started, chips went in, a hand
finished, a stack left the table). The server applies the effects durably
before it shows the events.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from stud.fairness import FairnessError
from stud.table.crowd import Crowd
from stud.table.errors import TableError
from stud.table.events import NEW_HAND, SHUFFLE, Effect, Event, HandEvent, Out
from stud.table.player import Player
from stud.table.port import HandFactory
from stud.table.seeds import NextShuffle
from stud.table.settings import TableSettings
from stud.table.views import TableViews

AUTO_ACTION_ORDER = ("check", "fold", "bring-in")


class Table(TableViews):
    """One table's seats and its hands, run back to back."""

    def __init__(
        self,
        settings: TableSettings,
        start_hand: HandFactory,
        *,
        seed: int | None = None,
        label: str | None = None,
    ):
        """``seed`` makes the shuffles reproducible (tests); ``label`` prefixes hand ids."""
        super().__init__(settings)
        self._start_hand = start_hand
        self._seed = seed
        self._label = label
        self.crowd = Crowd(settings.bots, settings.seats)
        self.waiting = 0
        """People on the table's waiting list (kept by the server): seats bots leave for them."""
        self._bot_joined_after = -1  # hand number after which a bot last joined a dealing table
        self._committed: list[int] = []
        self._brought_in: int | None = None  # the player index that posted the hand's bring-in
        self._out: list[Out] = []
        self.closing = False
        """Closed by its creator or for idleness: no new hand, no new player."""

    # -- queries ---------------------------------------------------------------------------

    def seat_of(self, player_id: int) -> int | None:
        for seat, player in enumerate(self.seats):
            if player is not None and player.id == player_id:
                return seat
        return None

    def players(self) -> list[tuple[int, Player]]:
        return [(s, p) for s, p in enumerate(self.seats) if p is not None]

    @property
    def in_hand(self) -> bool:
        return self.hand is not None

    def wakeup(self) -> float | None:
        """The next time :meth:`tick` has something to do (a clock runs out, a hand is due)."""
        if self.hand is not None:
            return self.turn_deadline()
        return self.next_hand_at

    def bots_wanted(self) -> int:
        """How many bots the table asks for now: between hands, as :mod:`~stud.table.crowd` says.

        While the table can deal, at most one bot joins between two hands.
        """
        if self.hand is not None or self.closing:
            return 0
        seated = len(self.players())
        playable = len(self._eligible()) >= 2
        if playable and self._bot_joined_after == self.hand_number:
            return 0
        free = self.settings.seats - seated
        return self.crowd.bots_to_add(seated, free, self.waiting, playable=playable)

    # -- seating ---------------------------------------------------------------------------

    def sit(
        self,
        player_id: int,
        name: str,
        stack: int,
        now: float,
        *,
        seat: int | None = None,
        bot: bool = False,
        kept: bool = False,
    ) -> list[Out]:
        """Seat a player with ``stack`` chips (already bought in); dealt in from the next hand.

        ``kept``: a stack the player already had at this table (a shared room's process
        took the table over), whatever the buy-in bounds say.
        """
        self.check_sit(player_id, stack, seat, bounds=not kept)
        if seat is None:
            seat = next(s for s, p in enumerate(self.seats) if p is None)
        self.seats[seat] = Player(
            id=player_id,
            name=name,
            stack=stack,
            bot=bot,
            bank=self.settings.time_bank,
            buy_in=stack,
        )
        if bot and len(self._eligible()) > 2:
            self._bot_joined_after = self.hand_number
        self._emit(Event("seated", {"seat": seat, "player": self.seats[seat].public(seat)}))  # type: ignore[union-attr]
        self._schedule(now)
        return self._drain()

    def check_sit(
        self, player_id: int, stack: int, seat: int | None, *, bounds: bool = True
    ) -> None:
        """Raise TableError if :meth:`sit` would refuse (checked before the buy-in is taken)."""
        if self.closing:
            raise TableError("table_closed", "this table is closing")
        if self.seat_of(player_id) is not None:
            raise TableError("already_seated", "you are already seated at this table")
        if seat is not None:
            if not 0 <= seat < self.settings.seats:
                raise TableError("bad_seat", f"seat {seat} is not in 0..{self.settings.seats - 1}")
            if self.seats[seat] is not None:
                raise TableError("seat_taken", f"seat {seat} is taken")
        elif all(p is not None for p in self.seats):
            raise TableError("table_full", "the table is full")
        low, high = self.settings.min_buy_in, self.settings.max_buy_in
        if self.settings.tournament:
            low = high = 0
        if stack <= 0 or (bounds and ((low and stack < low) or (high and stack > high))):
            raise TableError("bad_buy_in", f"the buy-in must be between {low} and {high}")

    def leave(self, player_id: int, now: float) -> list[Out]:
        """Leave the table: at once between hands; during a hand the player's hand is folded.

        It is folded now if it is their turn, else as their turn comes (the
        engine takes actions in turn order); they are shown as folding at once,
        and the stack is cashed out when the hand ends. The bring-in seat, which
        may not fold, posts the bring-in and is folded on its next turn.
        """
        seat = self._seat(player_id)
        player = self.seats[seat]
        assert player is not None
        if player.index is not None and self.hand is not None:
            if not player.leaving:
                player.leaving = True
                self._emit(Event("leaving", {"seat": seat, "folds": self._live(player)}))
                self._auto_act(now)
        else:
            self._remove(seat)
        return self._drain()

    def _live(self, player: Player) -> bool:
        """Whether the player still holds live cards in the hand in progress."""
        if self.hand is None or player.index is None:
            return False
        seat = self.hand.view(None)["seats"][player.index]
        return bool(seat["live"]) and not seat["all_in"]

    def close(self) -> list[Out]:
        """Deal no more hands: everyone leaves now, or as soon as the hand in progress ends."""
        self.closing = True
        self.next_hand_at = None
        if self.hand is None:
            self._remove_everyone()
        return self._drain()

    def _remove_everyone(self) -> None:
        for seat, _ in self.players():
            self._remove(seat)

    def sit_out(self, player_id: int, now: float) -> list[Out]:
        """Sit out from the next hand; the hand in progress plays on (the player still acts)."""
        seat = self._seat(player_id)
        player = self.seats[seat]
        assert player is not None
        if not player.sitting_out:
            player.sitting_out = True
            in_hand = player.index is not None and self.hand is not None
            self._emit(Event("sat_out", {"seat": seat, "next_hand": in_hand}))
        return self._drain()

    def sit_out_after_bring_in(self, player_id: int, on: bool) -> list[Out]:
        """Sit out from the hand after the next one in which the player posts the bring-in
        (docs/play.md): the bring-in falls by the cards dealt, so it cannot be skipped, only
        paid; a bring-in already posted in the hand in progress counts."""
        seat = self._seat(player_id)
        player = self.seats[seat]
        assert player is not None
        player.sit_out_after_bring_in = on
        if on and player.index is not None and self._brought_in == player.index:
            self._sit_out_now(seat, player)
        return self._drain()

    def _sit_out_now(self, seat: int, player: Player) -> None:
        """Sit the player out from the next hand (the hand in progress plays on)."""
        player.sit_out_after_bring_in = False
        if not player.sitting_out:
            player.sitting_out = True
            in_hand = player.index is not None and self.hand is not None
            self._emit(Event("sat_out", {"seat": seat, "next_hand": in_hand}))

    def set_show_losing(self, player_id: int, on: bool) -> None:
        """Whether the player shows a hand that cannot win at the showdown (from the next
        hand dealt: a hand's showdown choices are fixed when it is dealt)."""
        player = self.seats[self._seat(player_id)]
        assert player is not None
        player.show_losing = on

    def sit_in(self, player_id: int, now: float) -> list[Out]:
        seat = self._seat(player_id)
        player = self.seats[seat]
        assert player is not None
        if player.sitting_out:
            player.sitting_out = False
            player.away = False
            player.timeouts = 0
            self._emit(Event("sat_in", {"seat": seat}))
            self._schedule(now)
        return self._drain()

    def check_top_up(self, player_id: int, amount: int) -> None:
        """Raise TableError if :meth:`top_up` would refuse (checked before the chips are taken)."""
        player = self.seats[self._seat(player_id)]
        assert player is not None
        high = self.settings.max_buy_in
        if amount <= 0:
            raise TableError("bad_top_up", "a top-up is a positive number of chips")
        if high and player.stack + player.pending + amount > high:
            room = max(0, high - player.stack - player.pending)
            raise TableError(
                "bad_top_up", f"the table's maximum is {high}: you may add at most {room}"
            )

    def top_up(self, player_id: int, amount: int, now: float, *, rebuy: bool = False) -> list[Out]:
        """Add chips (already bought) to a stack: now between hands, after the hand if in one.

        ``rebuy`` marks the automatic rebuy (the event says so).
        """
        self.check_top_up(player_id, amount)
        seat = self._seat(player_id)
        player = self.seats[seat]
        assert player is not None
        later = player.index is not None and self.hand is not None
        if later:
            player.pending += amount
        else:
            player.stack += amount
            self._schedule(now)
        if not rebuy:
            # Chips brought to the table so far: what an automatic rebuy goes back to.
            high = self.settings.max_buy_in
            player.buy_in = min(player.buy_in + amount, high) if high else player.buy_in + amount
        self._emit(
            Event(
                "topped_up",
                {
                    "seat": seat,
                    "amount": amount,
                    "stack": player.stack,
                    "after_hand": later,
                    "rebuy": rebuy,
                },
            )
        )
        return self._drain()

    def set_auto_rebuy(self, player_id: int, on: bool) -> None:
        """Whether the server tops the player back up to their buy-in after a hand that cost it."""
        player = self.seats[self._seat(player_id)]
        assert player is not None
        player.auto_rebuy = on

    def rebuy_wanted(self) -> list[tuple[int, int]]:
        """Between hands: (account, chips) for each player whose automatic rebuy is due.

        Due when the stack fell below the table's minimum buy-in (or to nothing);
        it brings the stack back to the player's last buy-in.
        """
        if self.hand is not None:
            return []
        low = max(self.settings.min_buy_in, 1)
        return [
            (p.id, p.buy_in - p.stack)
            for _, p in self.players()
            if p.auto_rebuy and not p.bot and p.stack < low and p.buy_in > p.stack
        ]

    def rename(self, player_id: int, name: str) -> list[Out]:
        """A seated player's new name (a guest who registered)."""
        seat = self.seat_of(player_id)
        if seat is not None:
            player = self.seats[seat]
            assert player is not None
            player.name = name
            self._emit(Event("renamed", {"seat": seat, "name": name}))
        return self._drain()

    def take(self, player_id: int) -> tuple[Player, list[Out]]:
        """Take a player off the table with their chips, out of any hand (a tournament moves
        them to another table); unlike :meth:`leave` no chips are cashed out."""
        seat = self._seat(player_id)
        player = self.seats[seat]
        assert player is not None
        if player.index is not None and self.hand is not None:
            raise TableError("in_hand", "a player in the hand in progress cannot be moved")
        self.seats[seat] = None
        left = {"seat": seat, "name": player.name, "stack": player.stack, "reason": "moved"}
        self._emit(Event("left", left))
        if len(self._eligible()) < 2:
            self.next_hand_at = None
        return player, self._drain()

    def set_stakes(self, ante: int, bring_in: int, small_bet: int, big_bet: int) -> list[Out]:
        """New stakes from the next hand on (a tournament's level); the hand in progress
        keeps the stakes it was dealt with."""
        settings = replace(
            self.settings, ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet
        )
        if settings != self.settings:
            self.settings = settings
            self._settings_public = settings.public()
            self._emit(Event("stakes", {"settings": self._settings_public}))
        return self._drain()

    # -- play ------------------------------------------------------------------------------

    def act(self, player_id: int, action: str, to: int, turn: int, now: float) -> list[Out]:
        """A player's action: refused unless it is their turn, ``turn`` is current and it is legal.

        ``turn`` is the id the player was shown with their turn, so a replayed or
        delayed message from an earlier turn is refused rather than applied now.
        """
        seat = self._seat(player_id)
        if self.hand is None or self.actor_seat != seat:
            raise TableError("not_your_turn", "it is not your turn")
        if turn != self.turn_id:
            raise TableError(
                "stale_turn", f"turn {turn} is over; the current turn is {self.turn_id}"
            )
        legal = self.hand.legal()
        if not any(a.action == action and a.to == to for a in legal):  # no Legal made to ask
            # A fold, check or call may leave the amount out: it has only one.
            only = [a for a in legal if a.action == action and action in ("fold", "check", "call")]
            if to != 0 or len(only) != 1:
                text = ", ".join(f"{a.action} to {a.to}" for a in legal)
                raise TableError("illegal_action", f"{action} to {to} is not legal now ({text})")
            to = only[0].to
        player = self.seats[seat]
        assert player is not None
        overage = now - self.turn_started - self.settings.turn_seconds
        if overage > 0:
            player.bank = max(0.0, player.bank - overage)
        player.timeouts = 0
        self._apply(seat, action, to, now)
        return self._drain()

    def tick(self, now: float) -> list[Out]:
        """Let time pass: run out a clock, or deal the next hand when it is due."""
        if self.hand is not None:
            deadline = self.turn_deadline()
            seat = self.actor_seat
            if deadline is not None and seat is not None and now >= deadline:
                self._time_out(seat, now)
        elif self.next_hand_at is not None and now >= self.next_hand_at:
            self.next_hand_at = None
            self._deal(now)
        return self._drain()

    def add_seed(self, player_id: int, commitment: str, seed: str) -> list[Out]:
        """A seated player's seed for the next hand, whose ``commitment`` they were shown.

        Taken between hands only, while the next hand's commitment is on show;
        the last seed an account sends before the deal counts. It stays secret
        until that hand ends (docs/fairness.md).
        """
        self._seat(player_id)
        pending = self.next_shuffle
        if self.hand is not None or pending is None:
            raise TableError(
                "seeds_closed", "no deal is waiting for seeds (they are taken between hands)"
            )
        if commitment != pending.commitment:
            raise TableError(
                "stale_seed",
                f"that commitment is not the next hand's (hand {pending.hand_id} commits to "
                f"{pending.commitment})",
            )
        try:
            pending.add(player_id, seed)
        except FairnessError as error:
            raise TableError("bad_seed", str(error)) from None
        return self._drain()

    # -- internals -------------------------------------------------------------------------

    def _seat(self, player_id: int) -> int:
        seat = self.seat_of(player_id)
        if seat is None:
            raise TableError("not_seated", "you are not seated at this table")
        return seat

    def _emit(self, item: Out) -> None:
        self._out.append(item)

    def _drain(self) -> list[Out]:
        out, self._out = self._out, []
        return out

    def _eligible(self) -> list[int]:
        away_dealt = self.settings.tournament
        return [
            s
            for s, p in enumerate(self.seats)
            if p is not None and (away_dealt or not p.sitting_out) and not p.leaving and p.stack > 0
        ]

    def _schedule(self, now: float) -> None:
        if self.closing:
            return
        if self.hand is None and self.next_hand_at is None and len(self._eligible()) >= 2:
            self.next_hand_at = now + self.settings.pause_between_hands
            self._commit()

    def _commit(self) -> NextShuffle:
        """Publish the next hand's commitment (once: it stands until that hand is dealt)."""
        number = self.hand_number + 1
        if self.next_shuffle is None or self.next_shuffle.number != number:
            self.next_shuffle = NextShuffle.fresh(number, self._label, self._seed)
            self._emit(Event(SHUFFLE, {**self.next_shuffle.public(), "open": True}))
        return self.next_shuffle

    def _remove(self, seat: int) -> None:
        player = self.seats[seat]
        assert player is not None
        self.seats[seat] = None
        if player.stack > 0:
            self._emit(Effect("cash_out", {"account_id": player.id, "amount": player.stack}))
        self._emit(Event("left", {"seat": seat, "name": player.name, "stack": player.stack}))

    def _deal(self, now: float) -> None:
        eligible = self._eligible()
        if len(eligible) < 2:
            return
        pending = self._commit()
        n = self.settings.seats
        self.button = next(
            s for s in ((self.button + k) % n for k in range(1, n + 1)) if s in eligible
        )
        order = [(self.button + k) % n for k in range(1, n + 1)]
        self.hand_seats = [s for s in order if s in eligible]
        self.hand_number += 1
        stacks: list[int] = []
        for index, seat in enumerate(self.hand_seats):
            dealt = self.seats[seat]
            assert dealt is not None
            dealt.index = index
            dealt.start_stack = dealt.stack
            if dealt.sitting_out:  # dealt in while sitting out (a tournament): away, acts at once
                dealt.away = True
            stacks.append(dealt.stack)
        seed = None if self._seed is None else self._seed * 1_000_003 + self.hand_number
        s = self.settings
        # Only a raked table passes the rake, so a factory without rake options still fits.
        rake: dict[str, Any] = (
            {"rake_percent": s.rake_percent, "rake_cap": s.rake_cap} if s.rake_percent else {}
        )
        dealt_in = [p for p in (self.seats[seat] for seat in self.hand_seats) if p is not None]
        if any(p.show_losing for p in dealt_in):  # likewise the showdown choices
            rake["muck_losing_hands"] = tuple(not p.show_losing for p in dealt_in)
        accounts = [p.id for p in dealt_in]
        self.shuffle = pending.shuffle(accounts)
        self.next_shuffle = None
        hand, events = self._start_hand(
            s.game, s.ante, s.bring_in, s.small_bet, s.big_bet, stacks, list(self.hand_seats), seed,
            shuffle=self.shuffle, **rake,
        )  # fmt: skip
        self.hand = hand
        self._brought_in = None
        self._committed = [0] * len(stacks)
        players = [self._hand_player(seat) for seat in self.hand_seats]
        self._emit(Effect("hand_started", {"number": self.hand_number, "players": players}))
        self._emit(
            Event(
                NEW_HAND,
                {"number": self.hand_number, "button": self.button, "players": players},
            )
        )
        self._after(events, now)

    def _hand_player(self, seat: int) -> dict[str, Any]:
        player = self.seats[seat]
        assert player is not None
        return {"seat": seat, "account_id": player.id, "name": player.name, "stack": player.stack}

    def _apply(self, seat: int, action: str, to: int, now: float) -> None:
        assert self.hand is not None
        player = self.seats[seat]
        assert player is not None and player.index is not None
        events = self.hand.act(player.index, action, to)
        self._after(events, now)

    def _after(self, events: list[HandEvent], now: float) -> None:
        """Publish a step's events, record chips put in, then finish or pass the turn."""
        assert self.hand is not None
        for event in events:
            self._emit(Event(event.kind, dict(event.data), self._owners(event.private)))
            if event.kind == "action" and event.data.get("kind") == "bring-in":
                self._brought_in_by(int(event.data["seat"]))
        committed = self.hand.committed()
        commits: dict[int, int] = {}
        for index, total in enumerate(committed):
            delta = total - self._committed[index]
            if delta:
                owner = self.seats[self.hand_seats[index]]
                assert owner is not None
                commits[owner.id] = commits.get(owner.id, 0) + delta
                owner.stack = owner.start_stack - total
        self._committed = list(committed)
        if commits:
            self._emit(Effect("commit", {"commits": commits}))
        if self.hand.over:
            self._finish(now)
            return
        self.turn_id += 1
        self.turn_started = now
        seat = self.actor_seat
        assert seat is not None
        player = self.seats[seat]
        assert player is not None
        deadline = self.turn_deadline()
        legal = [a.public() for a in self.hand.legal()]
        self._emit(
            Event(
                "turn",
                {
                    "seat": seat,
                    "turn": self.turn_id,
                    "clock_ends": now + self.settings.turn_seconds,
                    "deadline": deadline,
                },
                {player.id: {"legal": legal}},
            )
        )
        self._auto_act(now)

    def _brought_in_by(self, seat: int) -> None:
        """Note the hand's bring-in; a player waiting for it to sit out sits out now."""
        player = self.seats[seat]
        if player is None:
            return
        self._brought_in = player.index
        if player.sit_out_after_bring_in:
            self._sit_out_now(seat, player)

    def _owners(self, by_seat: dict[int, dict[str, Any]]) -> dict[int, dict[str, Any]]:
        """A hand's private parts (keyed by table seat) keyed by the account in each seat now.

        Called as the hand emits them, so the account is the one that was dealt in.
        """
        out: dict[int, dict[str, Any]] = {}
        for seat, part in by_seat.items():
            owner = self.seats[seat]
            if owner is not None:
                out[owner.id] = part
        return out

    def _auto_act(self, now: float) -> None:
        """Pass the turn at once for a player who is leaving or sitting out."""
        seat = self.actor_seat
        if seat is None:
            return
        player = self.seats[seat]
        assert player is not None
        if player.leaving or player.away:
            self._apply(seat, *self._default_action(fold=player.leaving), now)

    def _default_action(self, *, fold: bool = False) -> tuple[str, int]:
        """What a player who is away does: check if free, else fold; the bring-in seat posts it.

        One who is leaving folds even when checking is free (what they asked for).
        The bring-in seat may not fold (the engine's rule R4), so it posts the
        bring-in, the smallest wager it is allowed.
        """
        legal = self.legal()
        for kind in ("fold", *AUTO_ACTION_ORDER) if fold else AUTO_ACTION_ORDER:
            for action in legal:
                if action.action == kind:
                    return action.action, action.to
        cheapest = min(legal, key=lambda a: a.to)
        return cheapest.action, cheapest.to

    def _time_out(self, seat: int, now: float) -> None:
        player = self.seats[seat]
        assert player is not None
        action, to = self._default_action()
        player.bank = 0.0
        player.timeouts += 1
        self._emit(Event("timeout", {"seat": seat, "action": action}))
        if player.timeouts >= self.settings.timeouts_to_sit_out and not player.sitting_out:
            player.sitting_out = True
            player.away = True
            self._emit(Event("sat_out", {"seat": seat, "reason": "timeouts"}))
        self._apply(seat, action, to, now)

    def _finish(self, now: float) -> None:
        assert self.hand is not None
        hand = self.hand
        payouts = hand.payouts()
        by_account: dict[int, int] = {}
        names: list[str] = []
        stacks: dict[int, int] = {}
        for index, seat in enumerate(self.hand_seats):
            player = self.seats[seat]
            assert player is not None
            player.stack = player.start_stack - self._committed[index] + payouts[index]
            if payouts[index]:
                by_account[player.id] = by_account.get(player.id, 0) + payouts[index]
            names.append(player.name)
            stacks[seat] = player.stack
        summary = hand.summary()
        self._emit(
            Effect(
                "hand_finished",
                {
                    "number": self.hand_number,
                    "payouts": by_account,
                    "rake": hand.rake(),
                    "summary": summary,
                    "hand": hand,
                    "names": names,
                    "table_name": self.settings.name,
                    "max_seats": self.settings.seats,
                    "finished_at": now,
                },
            )
        )
        self._emit(
            Event(
                "hand_finished",
                {"number": self.hand_number, "summary": summary, "stacks": stacks},
            )
        )
        self.hand = None
        self.shuffle = None
        self.hand_seats = []
        for seat, player in self.players():
            player.index = None
            player.bank = min(self.settings.time_bank, player.bank + self.settings.bank_refill)
            if player.pending:
                added, player.pending = player.pending, 0
                player.stack += added
                self._emit(
                    Event(
                        "topped_up",
                        {
                            "seat": seat,
                            "amount": added,
                            "stack": player.stack,
                            "after_hand": False,
                            "rebuy": False,
                        },
                    )
                )
            busted = player.stack <= 0 and not (player.auto_rebuy and not player.bot)
            if player.leaving or busted:
                self._remove(seat)
        if self.closing:
            self._remove_everyone()
        self._bot_makes_room()
        self._schedule(now)

    def _bot_makes_room(self) -> None:
        """One bot leaves after a hand when the table has more players than it aims for."""
        seated = self.players()
        free = self.settings.seats - len(seated)
        if not self.crowd.bot_should_leave(len(seated), free, self.waiting):
            return
        bots = [seat for seat, p in seated if p.bot]
        if bots:
            self._remove(bots[-1])
