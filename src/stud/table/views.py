"""What a table shows: each viewer's view of it, as a dict and as the JSON the room sends.

:class:`TableViews` holds the fields of a table that its views are made of (the
seats, the hand, the turn, the commitment on show) and makes the views; the
table (:class:`stud.table.Table`) extends it with what changes them. The JSON
form keeps the parts that rarely change encoded between steps, since the room
sends a state to every watcher at every step. Compiled with the table (see
:mod:`stud.game.compiled`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import orjson

from stud.fairness import Shuffle
from stud.table.player import Player
from stud.table.port import HandPort, Legal
from stud.table.seeds import NextShuffle
from stud.table.settings import TableSettings


class TableViews:
    """A table's seats, hand and turn, and the views of them (see the module docstring)."""

    def __init__(self, settings: TableSettings) -> None:
        self.settings = settings
        self._settings_public = settings.public()
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
        key = (me.auto_rebuy, me.pending, me.buy_in, me.show_losing, me.sit_out_after_bring_in)
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
