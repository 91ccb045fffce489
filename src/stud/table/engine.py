"""The hand port over ``stud.game.Hand``: the one place the table meets the engine's types.

It speaks the table's seat numbers: the engine numbers players 0..n-1 from the
dealer's left, and every ``seat`` it emits is mapped to the table's seat here.
Another player's down cards are cut from each event before it leaves (they go
to their owner alone, as a private part), and views come from the engine's own
per-seat views, which carry no foreign down card.
"""

from __future__ import annotations

from dataclasses import fields
from datetime import datetime
from fractions import Fraction
from typing import Any

import orjson

from stud.cards import Card, Deck
from stud.fairness import Shuffle
from stud.game import (
    Action,
    ActionKind,
    CardBurned,
    CardsDealt,
    CardSource,
    Event,
    Hand,
    HandEnded,
    HandMucked,
    HandShown,
    IllegalActionError,
    NoLowHand,
    Pot,
    PotAwarded,
    PotsFormed,
    TableConfig,
    UncalledBetReturned,
    variant,
)
from stud.history import Tournament
from stud.table.errors import TableError
from stud.table.histories import played_hand, write_histories
from stud.table.port import HandEvent, HandPort, Legal
from stud.table.readout import board_readouts, own_readout

CARD_TEXT: tuple[str, ...] = tuple(str(Card(index)) for index in range(52))
"""Each card's text by index (``"As"``): views name every card at every step."""


KIND_TEXT: dict[ActionKind, str] = {kind: kind.value for kind in ActionKind}
"""Each action kind's text: an enum member's ``.value`` is a descriptor call, paid per event."""


def _text(card: int | None) -> str | None:
    return None if card is None else CARD_TEXT[card]


SUMMARY_EVENTS = (PotsFormed, UncalledBetReturned, HandShown, HandMucked, NoLowHand, PotAwarded)
SEAT_KEYS = ("seat", "to_act", "viewer")
HIDDEN_CARDS = {CardsDealt: "down", CardBurned: "card"}
"""The field of an event whose cards nobody but their owner sees (a burn card: nobody)."""

Step = tuple[str, str]
_PLANS: dict[type[Event], tuple[Step, ...]] = {}


def _plan(cls: type[Event]) -> tuple[Step, ...]:
    """How each field of an event class reaches the wire, worked out once per class.

    Seats (``seat``, ``seats``, a pot's ``seats``) become table seats, ``stacks``
    a table seat -> chips map, cards their text; the hidden field (see
    :data:`HIDDEN_CARDS`) is cut to ``None`` for everyone.
    """
    plan = _PLANS.get(cls)
    if plan is None:
        hidden = HIDDEN_CARDS.get(cls)
        steps: list[Step] = []
        for f in fields(cls):
            name = f.name
            if name == hidden:
                how = "hidden"
            elif name in cls.CARD_FIELDS:
                how = "cards"
            elif name in SEAT_KEYS:
                how = "seat"
            else:
                how = name if name in ("seats", "stacks", "pots", "kind") else "value"
            steps.append((name, how))
        plan = _PLANS[cls] = tuple(steps)
    return plan


def table_seats(data: Any, seats: list[int]) -> Any:
    """Rename the engine's player indexes (0 = dealer's left) to the table's seat numbers,
    everywhere in a JSON-like value (a whole view or a replayed event; the live events go
    field by field, :meth:`EngineHand._spectators`)."""
    if isinstance(data, dict):
        out: dict[str, Any] = {}
        for key, value in data.items():
            if key in SEAT_KEYS and isinstance(value, int) and not isinstance(value, bool):
                out[key] = seats[value]
            elif (
                key == "seats"
                and isinstance(value, list)
                and all(isinstance(v, int) for v in value)
            ):
                out[key] = [seats[v] for v in value]
            elif key == "stacks" and isinstance(value, list) and len(value) == len(seats):
                out[key] = {str(seats[i]): v for i, v in enumerate(value)}
            else:
                out[key] = table_seats(value, seats)
        return out
    if isinstance(data, list):
        return [table_seats(v, seats) for v in data]
    return data


def _cards(value: Any) -> Any:
    return [_text(c) for c in value] if isinstance(value, tuple) else _text(value)


_LEGALS: dict[tuple[str, int], Legal] = {}
_LEGALS_KEPT = 4096


def _legal(action: str, to: int) -> Legal:
    """The one :class:`Legal` of an action and amount: made once and shared (it is frozen),
    as a frozen dataclass's interpreted ``__init__`` costs more than the rest of a step's
    legal actions."""
    key = (action, to)
    legal = _LEGALS.get(key)
    if legal is None:
        if len(_LEGALS) >= _LEGALS_KEPT:  # stakes of every size over a long life: start over
            _LEGALS.clear()
        legal = _LEGALS[key] = Legal(action, to)
    return legal


_Entry = tuple[tuple[Any, ...], dict[str, Any], bytes]
"""A seat's view entry: what it depends on, the entry, its JSON (never changed once made)."""


class _ViewJson:
    """One step's public view of a hand as JSON pieces, the viewer's own parts left out
    (a plain class: a frozen dataclass costs mypyc a generic ``__setattr__`` per field)."""

    def __init__(
        self, middle: bytes, entries: list[bytes], community: bytes, legal: bytes, over: bytes
    ) -> None:
        self.middle = middle
        """From ``game`` to ``"seats":`` (after the viewer)."""
        self.entries = entries
        self.seats = b",".join(entries)
        """The public entries joined (a spectator's ``seats``, without brackets)."""
        self.community = community
        """From the end of ``seats`` to ``"legal_actions":``."""
        self.legal = legal
        """The actor's legal actions (everyone else's are ``[]``)."""
        self.over = over


def _cards_key(entry: _Entry | None) -> tuple[Any, ...]:
    """What a seat's words are read from, of its entry's key: live, and how many cards it
    holds down and up (the hand's community card and end are the rest)."""
    if entry is None:
        return ()
    key = entry[0]
    return (key[3], key[5], key[6])


class EngineHand:
    """A :class:`stud.game.Hand` behind the table's :class:`HandPort`."""

    def __init__(self, hand: Hand, seats: list[int], shuffle: Shuffle | None = None) -> None:
        """``shuffle``: the committed shuffle the hand was dealt from, published when it ends."""
        self.hand = hand
        self.seats = seats
        self.shuffle = shuffle
        self._start = list(hand.config.stacks)
        self._public: dict[str, Any] | None = None
        self._public_key = -1
        self._json: _ViewJson | None = None
        """The public view's encoded pieces, built with it once per step."""
        self._entries: list[_Entry | None] = [None] * hand.config.seats
        self._own: list[_Entry | None] = [None] * hand.config.seats
        """Each seat's entry in the public view, and as its player sees it (own down cards),
        with its JSON: rebuilt only when what it shows changed (:meth:`_entry`)."""
        self._boards: tuple[Any, dict[str, Any]] | None = None
        self._own_words: list[tuple[Any, dict[str, Any] | None] | None] = [None] * hand.config.seats
        """The boards' words and each player's own, with what they were read from."""
        self._shown: set[int] = set()
        self._shown_scan = 0
        self._step = 0
        """The hand's steps so far (it changes only through :meth:`act`): what the views and
        legal actions kept for one step are kept by."""
        self._legal: tuple[int, list[Legal], list[dict[str, Any]]] | None = None
        """The actor's legal actions at one step (the length of the event log): as the
        table takes them and as its views show them, asked for several times a step."""

    # -- seat numbers ----------------------------------------------------------------------

    def _event(self, event: Event) -> HandEvent:
        """An engine event as the table sends it: table seats, cards as text, and the down
        cards of a deal cut from it into a private part for the seat dealt them."""
        kind, public = self._spectators(event)
        private: dict[int, dict[str, Any]] = {}
        if isinstance(event, CardsDealt) and event.down:
            private[self.seats[event.seat]] = {"down": [_text(c) for c in event.down]}
        return HandEvent(kind, public, private)

    def _spectators(self, event: Event) -> tuple[str, dict[str, Any]]:
        """An engine event's type and the fields everyone may see, in table seats.

        The same dict as the engine's ``visible_events([event], None)[0].to_dict()``
        with every seat renamed, built field by field from the class's plan.
        """
        seats = self.seats
        out: dict[str, Any] = {}
        for name, how in _plan(type(event)):
            value = getattr(event, name)
            if how == "value":
                out[name] = list(value) if isinstance(value, tuple) else value
            elif how == "seat":
                out[name] = seats[value] if isinstance(value, int) else value
            elif how == "cards":
                out[name] = _cards(value)
            elif how == "hidden":
                out[name] = [None] * len(value) if isinstance(value, tuple) else None
            elif how == "seats":
                out[name] = [seats[s] for s in value]
            elif how == "stacks":
                out[name] = self._stacks(value)
            elif how == "pots":
                out[name] = [self._pot(p) for p in value]
            else:  # kind: an ActionKind
                out[name] = KIND_TEXT[value]
        return event.TYPE, out

    def _stacks(self, stacks: tuple[int, ...]) -> Any:
        """Chips by table seat (JSON keys), when there is a number for each seat of the hand."""
        if len(stacks) != len(self.seats):
            return list(stacks)
        return {str(self.seats[i]): chips for i, chips in enumerate(stacks)}

    def _pot(self, pot: Pot) -> dict[str, Any]:
        return {"amount": pot.amount, "seats": [self.seats[s] for s in pot.seats], "rake": pot.rake}

    # -- the port --------------------------------------------------------------------------

    @property
    def actor(self) -> int | None:
        return self.hand.to_act

    @property
    def over(self) -> bool:
        return self.hand.is_over

    def legal(self) -> list[Legal]:
        return list(self._legal_now()[1])

    def _legal_now(self) -> tuple[int, list[Legal], list[dict[str, Any]]]:
        """The actor's legal actions now, worked out once per step of the hand."""
        key = self._step
        if self._legal is None or self._legal[0] != key:
            actions, seats = self.hand.legal_actions(), self.seats
            self._legal = (
                key,
                [_legal(KIND_TEXT[a.kind], a.to) for a in actions],
                [
                    {
                        "kind": KIND_TEXT[a.kind],
                        "to": a.to,
                        "seat": None if a.seat is None else seats[a.seat],
                    }
                    for a in actions
                ],
            )
        return self._legal

    def act(self, player: int, action: str, to: int) -> list[HandEvent]:
        try:
            events = self.hand.act(Action(ActionKind(action), to, player))
        except (IllegalActionError, ValueError) as error:
            raise TableError("illegal_action", str(error)) from None
        self._step += 1
        return [self._event(e) for e in events]

    def started(self) -> list[HandEvent]:
        return [self._event(e) for e in self.hand.events]

    def committed(self) -> list[int]:
        return list(self.hand.committed)

    def payouts(self) -> list[int]:
        result = self.hand.result
        assert result is not None, "the hand is not over"
        committed = self.hand.committed
        return [
            after - start + put
            for after, start, put in zip(result.stacks, self._start, committed, strict=True)
        ]

    def rake(self) -> int:
        result = self.hand.result
        return 0 if result is None else result.rake

    def view(self, player: int | None, *, events: bool = False) -> dict[str, Any]:
        """The engine's view of ``player``, table seats; ``events`` adds the event log.

        Without the log (every state a step sends) the view is built here from
        one public picture per step, shared by every viewer, plus the viewer's
        own down cards and legal actions: the same dict as the engine's
        ``view(player).to_dict()`` less its events, without rebuilding the
        whole log for every viewer at every step.
        """
        if events:
            return dict(table_seats(self.hand.view(player).to_dict(), self.seats))
        public = self._public_view()
        if player is None:
            return dict(public)
        seats = list(public["seats"])
        seats[player] = self._own_entry(player)[1]
        legal = [dict(a) for a in self._legal_now()[2]] if player == self.hand.to_act else []
        return {**public, "viewer": self.seats[player], "seats": seats, "legal_actions": legal}

    def view_json(self, player: int | None) -> bytes:
        """:meth:`view` (without the log) as compact JSON, byte for byte what
        ``orjson.dumps(self.view(player))`` makes, joined from pieces encoded once per
        step (the public ones) or once per change of a seat (each seat's entry)."""
        self._public_view()
        parts = self._json
        assert parts is not None
        if player is None:
            return b"".join((
                b'{"viewer":null,', parts.middle, b"[", parts.seats, parts.community, b"[]",
                parts.over,
            ))  # fmt: skip
        entries = list(parts.entries)
        entries[player] = self._own_entry(player)[2]
        legal = parts.legal if player == self.hand.to_act else b"[]"
        return b"".join((
            b'{"viewer":', b"%d," % self.seats[player], parts.middle, b"[", b",".join(entries),
            parts.community, legal, parts.over,
        ))  # fmt: skip

    def _public_view(self) -> dict[str, Any]:
        """A spectator's view (no event log), built once per step of the hand."""
        hand = self.hand
        key = self._step
        if self._public is not None and self._public_key == key:
            return self._public
        events = hand.events
        for event in events[self._shown_scan :]:
            if isinstance(event, HandShown):
                self._shown.add(event.seat)
        self._shown_scan = len(events)
        config = hand.config
        stacks, bets, committed, live = hand.stacks, hand.bets, hand.committed, hand.live
        entries = [
            self._entry(s, stacks[s], bets[s], committed[s], live[s], s in self._shown)
            for s in range(config.seats)
        ]
        to_act = hand.to_act
        head = {
            "game": config.game.code,
            "ante": config.ante,
            "bring_in": config.bring_in,
            "small_bet": config.small_bet,
            "big_bet": config.big_bet,
            "street": hand.street,
            "to_act": None if to_act is None else self.seats[to_act],
            "level": hand.level,
            "pot": hand.pot,
        }
        community = _text(hand.community)
        self._public = {
            "viewer": None,
            **head,
            "seats": [entry[1] for entry in entries],
            "community": community,
            "legal_actions": [],
            "is_over": hand.is_over,
        }
        encoded = [entry[2] for entry in entries]
        legal = self._legal_now()[2] if to_act is not None else []
        self._json = _ViewJson(
            middle=orjson.dumps(head)[1:-1] + b',"seats":',
            entries=encoded,
            community=b'],"community":' + orjson.dumps(community) + b',"legal_actions":',
            legal=orjson.dumps(legal),
            over=b',"is_over":true}' if hand.is_over else b',"is_over":false}',
        )
        self._public_key = key
        return self._public

    def _entry(
        self, s: int, stack: int, bet: int, committed: int, live: bool, shown: bool
    ) -> _Entry:
        """Seat ``s``'s entry in the public view and its JSON, kept while what it shows is the
        same: its chips and state and how many cards it holds (a hand's cards are only ever
        added to, so their count names them within the hand)."""
        hand = self.hand
        down, up = hand.down_cards(s), hand.up_cards(s)
        key = (stack, bet, committed, live, shown, len(down), len(up))
        cached = self._entries[s]
        if cached is not None and cached[0] == key:
            return cached
        entry = {
            "seat": self.seats[s],
            "stack": stack,
            "bet": bet,
            "committed": committed,
            "live": live,
            "all_in": live and stack == 0,
            "shown": shown,
            "down": [_text(c) if shown else None for c in down],
            "up": [_text(c) for c in up],
        }
        made = self._entries[s] = (key, entry, orjson.dumps(entry))
        return made

    def _own_entry(self, player: int) -> _Entry:
        """``player``'s entry as they see it (their own down cards), kept like :meth:`_entry`'s;
        the hand's player is one account for the whole hand."""
        self._public_view()
        public = self._entries[player]
        assert public is not None
        cached = self._own[player]
        if cached is not None and cached[0] == public[0]:
            return cached
        own = dict(public[1])
        own["down"] = [_text(card) for card in self.hand.down_cards(player)]
        made = self._own[player] = (public[0], own, orjson.dumps(own))
        return made

    def words(self, player: int | None) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """The hand in words: ``player``'s own readout (None for a spectator) and the
        boards, as :func:`~stud.table.readout.own_readout` and
        :func:`~stud.table.readout.board_readouts` read them in ``view(player)``; worked
        out again only when the cards (or who is live, or the hand's end) changed."""
        public = self._public_view()
        words_key = (public["community"], public["is_over"])
        boards_key = (words_key, tuple(_cards_key(entry) for entry in self._entries))
        if self._boards is None or self._boards[0] != boards_key:
            self._boards = (boards_key, board_readouts(public))
        if player is None:
            return None, self._boards[1]
        own = self._own_entry(player)
        own_key = (words_key, _cards_key(own))
        cached = self._own_words[player]
        if cached is None or cached[0] != own_key:
            seat = self.seats[player]
            cached = (own_key, own_readout({**public, "seats": [own[1]]}, seat))
            self._own_words[player] = cached
        return cached[1], self._boards[1]

    def _typed(self, event: Event) -> dict[str, Any]:
        kind, data = self._spectators(event)
        return {"type": kind, **data}

    def summary(self) -> dict[str, Any]:
        results = [self._typed(e) for e in self.hand.events if isinstance(e, SUMMARY_EVENTS)]
        ended = [e for e in self.hand.events if isinstance(e, HandEnded)]
        summary = {
            "results": results,
            "rake": self.rake(),
            "ended": self._typed(ended[-1]) if ended else None,
        }
        if self.shuffle is not None and self.hand.is_over:
            summary["shuffle"] = self.shuffle.revealed()  # only ever of a finished hand
        return summary

    def histories(
        self,
        hand_id: int,
        table_name: str,
        names: list[str],
        *,
        max_seats: int | None = None,
        time: datetime | None = None,
        tournament: Tournament | None = None,
    ) -> tuple[str, str]:
        return write_histories(
            self.hand, hand_id, table_name, names, self.seats, max_seats=max_seats, time=time,
            shuffle=self.shuffle, tournament=tournament,
        )  # fmt: skip

    def played(
        self,
        hand_id: int,
        table_name: str,
        names: list[str],
        *,
        max_seats: int | None = None,
        time: datetime | None = None,
        tournament: Tournament | None = None,
    ) -> str:
        return played_hand(
            self.hand, hand_id, table_name, names, self.seats, max_seats=max_seats, time=time,
            shuffle=self.shuffle, tournament=tournament,
        )  # fmt: skip


def start_engine_hand(
    game: str,
    ante: int,
    bring_in: int,
    small_bet: int,
    big_bet: int,
    stacks: list[int],
    seats: list[int],
    seed: int | None,
    *,
    rake_percent: float = 0.0,
    rake_cap: int | None = None,
    cards: CardSource | None = None,
    shuffle: Shuffle | None = None,
) -> tuple[HandPort, list[HandEvent]]:
    """The table's hand factory: a real engine hand, dealt from the table's committed shuffle.

    Without a ``shuffle``, a deck shuffled by ``seed`` or the CSPRNG. ``cards``
    deals those cards instead (a test's stacked hand, which then claims no shuffle).
    """
    config = TableConfig(
        game=variant(game), ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet,
        stacks=tuple(stacks), rake_percent=Fraction(str(rake_percent)), rake_cap=rake_cap,
    )  # fmt: skip
    if cards is not None:
        shuffle = None
        engine = Hand(config, cards=cards)
    elif shuffle is not None:
        engine = Hand(config, deck=shuffle.deck())
    else:
        engine = Hand(config, deck=Deck(seed))
    hand = EngineHand(engine, seats, shuffle)
    return hand, hand.started()
