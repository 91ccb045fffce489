"""Hands in sequence at one table: seats, stacks, the button, the clock.

Pure: no I/O and no clock of its own; every call that can depend on time takes
``now`` (seconds). Each call returns what happened as an ordered list of
:class:`Event` (for the players, with private parts per account) and
:class:`Effect` (for the server to store: a hand started, chips went in, a hand
finished, a stack left the table). The server applies the effects durably
before it shows the events.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

import orjson

from stud.fairness import FairnessError, Shuffle
from stud.table.crowd import Crowd
from stud.table.errors import TableError
from stud.table.port import HandEvent, HandFactory, HandPort, Legal
from stud.table.seeds import NextShuffle
from stud.table.settings import TableSettings

AUTO_ACTION_ORDER = ("check", "fold", "bring-in")
NEW_HAND = "new_hand"
"""The table's event for a hand being dealt (the engine's own ``hand_started`` follows it)."""
SHUFFLE = "shuffle"
"""The table's event publishing the next hand's commitment (docs/fairness.md)."""


@dataclass(slots=True)
class Player:
    """Someone in a seat: an account id, a name and the chips in front of them."""

    id: int
    name: str
    stack: int
    bot: bool
    bank: float
    sitting_out: bool = False
    leaving: bool = False
    timeouts: int = 0
    index: int | None = None  # position in the hand in progress
    start_stack: int = 0
    away: bool = False
    """Sat out by time-outs, or dealt in while sitting out (a tournament): their turns in the
    hand in progress are passed at once."""
    buy_in: int = 0
    """The chips the player last brought to the table (an automatic rebuy tops up to it)."""
    auto_rebuy: bool = False
    pending: int = 0
    """Chips bought during a hand the player is in, added to the stack when it ends."""

    def public(self, seat: int) -> dict[str, Any]:
        return {
            "seat": seat,
            "id": self.id,
            "name": self.name,
            "stack": self.stack,
            "bot": self.bot,
            "sitting_out": self.sitting_out,
            "leaving": self.leaving,
            "in_hand": self.index is not None,
            "time_bank": round(self.bank, 3),
        }

    def own(self) -> dict[str, Any]:
        """What only the player in the seat is shown of their own settings."""
        return {"auto_rebuy": self.auto_rebuy, "pending": self.pending, "buy_in": self.buy_in}


@dataclass(slots=True, init=False)
class Event:
    """A table event: ``data`` for everyone, ``private[account]`` merged in for that account only.

    A private part (down cards, the legal actions of a turn) belongs to the
    account it was dealt to, never to the seat: whoever takes the seat later
    does not inherit it, in a replay of old events or anywhere else.
    """

    kind: str
    data: dict[str, Any]
    private: dict[int, dict[str, Any]]

    def __init__(
        self, kind: str, data: dict[str, Any], private: dict[int, dict[str, Any]] | None = None
    ) -> None:
        # Written out, so mypyc compiles it: the dataclass's own __init__ is interpreted code,
        # called for each of the four or so events of every action (docs/protocol.md, "Load").
        self.kind = kind
        self.data = data
        self.private = {} if private is None else private

    def for_account(self, account: int | None) -> dict[str, Any]:
        """The event as ``account`` (None: a spectator) may see it."""
        out = {"type": self.kind, **self.data}
        if account is not None and account in self.private:
            out.update(self.private[account])
        return out


@dataclass(slots=True, init=False)
class Effect:
    """Something the server must store: hand_started, commit, hand_finished or cash_out."""

    kind: str
    data: dict[str, Any]

    def __init__(self, kind: str, data: dict[str, Any]) -> None:
        self.kind = kind  # a compiled __init__, as Event's
        self.data = data


Out = Event | Effect


class Table:
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
        self.settings = settings
        self._settings_public = settings.public()
        self._start_hand = start_hand
        self._seed = seed
        self._label = label
        self.next_shuffle: NextShuffle | None = None
        self.shuffle: Shuffle | None = None  # the hand in progress's
        self.seats: list[Player | None] = [None] * settings.seats
        self.button = -1
        self.hand: HandPort | None = None
        self.hand_number = 0
        self.hand_seats: list[int] = []  # table seat of each player index in the hand
        self.turn_id = 0
        self.turn_started = 0.0
        self.next_hand_at: float | None = None
        self.crowd = Crowd(settings.bots, settings.seats)
        self.waiting = 0
        """People on the table's waiting list (kept by the server): seats bots leave for them."""
        self._bot_joined_after = -1  # hand number after which a bot last joined a dealing table
        self._committed: list[int] = []
        self._out: list[Out] = []
        self.closing = False
        """Closed by its creator or for idleness: no new hand, no new player."""
        self._settings_json = (self._settings_public, orjson.dumps(self._settings_public))
        self._players_json: list[tuple[tuple[Any, ...], bytes] | None] = [None] * settings.seats
        """Each seat's public entry as JSON, with the values it was made of."""
        self._mine_json: list[tuple[tuple[Any, ...], bytes] | None] = [None] * settings.seats
        """Each seat's player's own settings as JSON, likewise."""
        self._boards_json: tuple[dict[str, Any], bytes] = ({}, b"{}")
        """The boards' words as JSON, with the (never changed) dict they were made of."""
        self._readouts_json: dict[int, tuple[dict[str, Any], bytes]] = {}
        """Each seat's readout as JSON, likewise."""
        self._shuffle_json: tuple[object, int, bytes] | None = None
        """The shown commitment's JSON, with the shuffle and hand number it was made for."""

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

    @property
    def actor_seat(self) -> int | None:
        if self.hand is None or self.hand.actor is None:
            return None
        return self.hand_seats[self.hand.actor]

    def turn_deadline(self) -> float | None:
        """When the player to act runs out of clock and time bank."""
        seat = self.actor_seat
        if seat is None:
            return None
        player = self.seats[seat]
        assert player is not None
        return self.turn_started + self.settings.turn_seconds + max(player.bank, 0.0)

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

    def legal(self) -> list[Legal]:
        return [] if self.hand is None or self.hand.actor is None else self.hand.legal()

    def view(self, seat: int | None, *, events: bool = False) -> dict[str, Any]:
        """The whole table as the player in ``seat`` (None: a spectator) may see it.

        ``events`` adds the hand's event log (for a client catching up).
        """
        shared = self._shared_view()
        return {**shared, **self._own_view(shared, seat, events=events)}

    def view_json(self, seats: Iterable[int | None]) -> tuple[bytes, dict[int | None, bytes]]:
        """Several viewers' views of this moment as JSON object members (no braces): what
        every viewer shares, and each seat's own part (``you``, ``mine``, ``hand``,
        ``readout``, ``legal``).

        Byte for byte the members of :meth:`view`'s dict as orjson writes it: a seat's
        view is ``{`` + shared + ``,`` + own[seat] + ``}``. Parts that rarely change
        (the settings, each seated player, the commitment, each seat's cards in the
        hand) are encoded once and kept with the values they were made of, and made
        again when any of those values differs; the rest is encoded at each call.
        """
        shared = self._shared_json()
        return shared, {seat: self._own_json(seat) for seat in set(seats)}

    def _shared_json(self) -> bytes:
        """:meth:`_shared_view`'s members as JSON (see :meth:`view_json`)."""
        if self._settings_json[0] is not self._settings_public:  # new stakes
            self._settings_json = (self._settings_public, orjson.dumps(self._settings_public))
        hand = self.hand
        players = b",".join([self._player_json(s, p) for s, p in enumerate(self.seats)])
        rest = {
            "hand_seats": list(self.hand_seats) if hand is not None else [],
            "turn": self._turn_view(),
            "next_hand_at": self.next_hand_at,
        }
        boards = {} if hand is None else hand.words(None)[1]
        if self._boards_json[0] is not boards:  # the hand keeps one dict while the words hold
            self._boards_json = (boards, orjson.dumps(boards))
        button = b"%d" % self.button if self.button >= 0 else b"null"
        return b"".join((
            b'"settings":', self._settings_json[1], b',"hand_number":%d' % self.hand_number,
            b',"button":', button, b',"seats":[', players, b"],", orjson.dumps(rest)[1:-1],
            b',"boards":', self._boards_json[1], b',"shuffle":', self._shuffle_text(),
        ))  # fmt: skip

    def _player_json(self, seat: int, player: Player | None) -> bytes:
        """A seat's public entry (:meth:`Player.public`) as JSON, kept while its values are."""
        if player is None:
            self._players_json[seat] = None
            return b"null"
        key = (player.id, player.name, player.stack, player.bot, player.sitting_out,
               player.leaving, player.index is not None, player.bank)  # fmt: skip
        cached = self._players_json[seat]
        if cached is not None and cached[0] == key:
            return cached[1]
        text = orjson.dumps(player.public(seat))
        self._players_json[seat] = (key, text)
        return text

    def _shuffle_text(self) -> bytes:
        """The shown commitment (:meth:`_shuffle_view`) as JSON, kept while it is the same
        shuffle for the same hand (a commitment never changes once made)."""
        shown: object = self.shuffle if self.hand is not None else self.next_shuffle
        cached = self._shuffle_json
        if cached is not None and cached[0] is shown and cached[1] == self.hand_number:
            return cached[2]
        text = orjson.dumps(self._shuffle_view())
        self._shuffle_json = (shown, self.hand_number, text)
        return text

    def _own_json(self, seat: int | None) -> bytes:
        """:meth:`_own_view`'s members as JSON (see :meth:`view_json`)."""
        hand, index = self.hand, self._hand_index(seat)
        me = None if seat is None else self.seats[seat]
        hand_json = b"null" if hand is None else hand.view_json(index)
        words = None if hand is None or index is None or seat is None else hand.words(index)[0]
        legal = self._legal_view(seat)
        return b"".join((
            b'"you":', b"null" if seat is None else b"%d" % seat,
            b',"mine":', b"null" if me is None or seat is None else self._mine_text(seat, me),
            b',"hand":', hand_json, b',"readout":', self._words_text(seat, words),
            b',"legal":', orjson.dumps(legal) if legal else b"[]",
        ))  # fmt: skip

    def _mine_text(self, seat: int, me: Player) -> bytes:
        """What only the seat's player is shown of their settings (:meth:`Player.own`) as
        JSON, kept while its values are (asked for at every step)."""
        key = (me.auto_rebuy, me.pending, me.buy_in)
        cached = self._mine_json[seat]
        if cached is not None and cached[0] == key:
            return cached[1]
        text = orjson.dumps(me.own())
        self._mine_json[seat] = (key, text)
        return text

    def _words_text(self, seat: int | None, words: dict[str, Any] | None) -> bytes:
        """A seat's readout as JSON, kept with the (never changed) dict it was made of: the
        hand hands out the same dict while the seat's cards are the same."""
        if seat is None or words is None:
            return b"null"
        cached = self._readouts_json.get(seat)
        if cached is not None and cached[0] is words:
            return cached[1]
        text = orjson.dumps(words)
        self._readouts_json[seat] = (words, text)
        return text

    def _shared_view(self) -> dict[str, Any]:
        """The parts of a view that are the same for every viewer."""
        return {
            "settings": self._settings_public,
            "hand_number": self.hand_number,
            "button": self.button if self.button >= 0 else None,
            "seats": [None if p is None else p.public(s) for s, p in enumerate(self.seats)],
            "hand_seats": list(self.hand_seats) if self.hand is not None else [],
            "turn": self._turn_view(),
            "next_hand_at": self.next_hand_at,
            "boards": {} if self.hand is None else self.hand.words(None)[1],
            "shuffle": self._shuffle_view(),
        }

    def _turn_view(self) -> dict[str, Any] | None:
        """The turn on the clock, if any: whose, its id and its times."""
        actor = self.actor_seat
        if actor is None:
            return None
        return {
            "seat": actor,
            "turn": self.turn_id,
            "started": self.turn_started,
            "clock_ends": self.turn_started + self.settings.turn_seconds,
            "deadline": self.turn_deadline(),
        }

    def _shuffle_view(self) -> dict[str, Any] | None:
        """The commitment on show: the running hand's, else the next hand's (seeds open)."""
        if self.hand is not None and self.shuffle is not None:
            return {**self.shuffle.public(), "number": self.hand_number, "open": False}
        if self.hand is None and self.next_shuffle is not None:
            return {**self.next_shuffle.public(), "open": True}
        return None

    def _own_view(
        self, shared: dict[str, Any], seat: int | None, *, events: bool
    ) -> dict[str, Any]:
        """The part of a view that is ``seat``'s own: its hand view, settings, words, actions."""
        index = self._hand_index(seat)
        hand = None if self.hand is None else self.hand.view(index, events=events)
        me = None if seat is None else self.seats[seat]
        return {
            "you": seat,
            "mine": None if me is None else me.own(),
            "hand": hand,
            "readout": None if self.hand is None or index is None else self.hand.words(index)[0],
            "legal": self._legal_view(seat),
        }

    def _hand_index(self, seat: int | None) -> int | None:
        """The hand's player index of whoever sits in ``seat`` now, if they were dealt in."""
        if seat is None or self.hand is None:
            return None
        player = self.seats[seat]
        return None if player is None else player.index

    def _legal_view(self, seat: int | None) -> list[dict[str, Any]]:
        """The legal actions, in the view of the seat whose turn it is (empty for the rest)."""
        if seat is None or seat != self.actor_seat:
            return []
        return [a.public() for a in self.legal()]

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
        accounts = [p.id for p in (self.seats[seat] for seat in self.hand_seats) if p is not None]
        self.shuffle = pending.shuffle(accounts)
        self.next_shuffle = None
        hand, events = self._start_hand(
            s.game, s.ante, s.bring_in, s.small_bet, s.big_bet, stacks, list(self.hand_seats), seed,
            shuffle=self.shuffle, **rake,
        )  # fmt: skip
        self.hand = hand
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
