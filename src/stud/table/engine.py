"""The hand port over ``stud.game.Hand``: the one place the table meets the engine's types.

It speaks the table's seat numbers: the engine numbers players 0..n-1 from the
dealer's left, and every ``seat`` it emits is mapped to the table's seat here.
Another player's down cards are cut from each event before it leaves (they go
to their owner alone, as a private part), and views come from the engine's own
per-seat views, which carry no foreign down card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from fractions import Fraction
from typing import Any

import orjson

from stud.cards import Card, Deck
from stud.evaluate.sofar import NOTHING, Running
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
from stud.table.errors import TableError
from stud.table.events import HandEvent
from stud.table.heading import Heading
from stud.table.histories import played_hand, write_histories
from stud.table.port import HandPort, Legal
from stud.table.readout import cards_to_come, readout_running

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


def _held(entry: _Entry) -> tuple[bool, int]:
    """Whether a seat's entry is live and how many cards it holds (down and up), read from
    the entry's key (see :meth:`EngineHand._entry`)."""
    key = entry[0]
    return bool(key[3]), int(key[5]) + int(key[6])


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
        """The spectator's view as a dict, made only when asked for (:meth:`view`)."""
        self._json: _ViewJson | None = None
        self._json_key = -1
        """The public view's encoded pieces, made once per step for every viewer."""
        self._entries: list[_Entry | None] = [None] * hand.config.seats
        self._own: list[_Entry | None] = [None] * hand.config.seats
        """Each seat's entry in the public view, and as its player sees it (own down cards),
        with its JSON: rebuilt only when what it shows changed (:meth:`_entry`)."""
        config = hand.config
        self._game = config.game.code
        self._fixed_head = orjson.dumps({
            "game": self._game, "ante": config.ante, "bring_in": config.bring_in,
            "small_bet": config.small_bet, "big_bet": config.big_bet,
        })[1:-1]  # fmt: skip
        """The view's members that hold for the whole hand, encoded once."""
        self._community_json: tuple[int | None, bytes] | None = None
        """The community card's piece of the view (see :class:`_ViewJson`), with its card."""
        self._board_words: list[tuple[tuple[Any, ...], dict[str, Any] | None] | None] = [
            None
        ] * config.seats
        self._boards: dict[str, Any] = {}
        self._boards_step = -1
        self._own_words: list[tuple[Any, dict[str, Any] | None] | None] = [None] * config.seats
        """Each seat's board words, the boards by table seat (made once per step, a new
        dict only when a seat's words changed) and each player's own words, with what
        they were read from."""
        self._board_sums: list[tuple[int, Running]] = [(0, NOTHING)] * config.seats
        self._own_sums: list[tuple[int, int, bool, Running]] = [
            (0, 0, False, NOTHING)
        ] * config.seats
        """Each seat's up cards, and each player's own cards, as running sums, with how many
        of its up (and down) cards and whether the community card are in them."""
        self._shown: set[int] = set()
        """The players who showed their cards, noted as their events come (:meth:`_made`)."""
        self._step = 0
        """The hand's steps so far (it changes only through :meth:`act`): what the views and
        legal actions kept for one step are kept by."""
        self._legal: tuple[int, list[Legal], list[dict[str, Any]], list[Action]] | None = None
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

    def _legal_now(self) -> tuple[int, list[Legal], list[dict[str, Any]], list[Action]]:
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
                actions,
            )
        return self._legal

    def act(self, player: int, action: str, to: int) -> list[HandEvent]:
        hand = self.hand
        try:
            events = hand.act(self._action(player, action, to))
        except (IllegalActionError, ValueError) as error:
            raise TableError("illegal_action", str(error)) from None
        self._step += 1
        return self._made(events)

    def _action(self, player: int, action: str, to: int) -> Action:
        """The engine's own legal Action when this is one (the engine takes it as it is, its
        fast path, where a new Action is checked against the legal ones again), else a new
        one (ValueError for an unknown kind)."""
        if player == self.hand.to_act:
            for legal in self._legal_now()[3]:
                if legal.to == to and KIND_TEXT[legal.kind] == action:
                    return legal
        return Action(ActionKind(action), to, player)

    def started(self) -> list[HandEvent]:
        return self._made(self.hand.events)

    def _made(self, events: Sequence[Event]) -> list[HandEvent]:
        """New engine events as the table's, the players who showed noted on the way (the
        views need not copy and read the hand's whole log again at each step)."""
        for event in events:
            if isinstance(event, HandShown):
                self._shown.add(event.seat)
        return [self._event(e) for e in events]

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
        parts = self._picture()
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

    def _picture(self) -> _ViewJson:
        """The public view's encoded pieces and each seat's entry, made once per step of the
        hand for every viewer: an entry again only when what it shows changed, the members
        fixed for the hand (game and stakes) once, the community card's piece once per card."""
        key = self._step
        parts = self._json
        if parts is not None and self._json_key == key:
            return parts
        hand = self.hand
        stacks, bets, committed, live = hand.stacks, hand.bets, hand.committed, hand.live
        shown = self._shown
        encoded = [
            self._entry(s, stacks[s], bets[s], committed[s], live[s], s in shown)[2]
            for s in range(len(stacks))
        ]
        to_act = hand.to_act
        community = hand.community
        kept = self._community_json
        if kept is None or kept[0] != community:
            text = orjson.dumps(_text(community))
            kept = self._community_json = (
                community, b'],"community":' + text + b',"legal_actions":'
            )  # fmt: skip
        middle = b"".join((
            self._fixed_head, b',"street":%d,"to_act":' % hand.street,
            b"null" if to_act is None else b"%d" % self.seats[to_act],
            b',"level":%d,"pot":%d,"seats":' % (hand.level, hand.pot),
        ))  # fmt: skip
        parts = self._json = _ViewJson(
            middle=middle,
            entries=encoded,
            community=kept[1],
            legal=orjson.dumps(self._legal_now()[2]) if to_act is not None else b"[]",
            over=b',"is_over":true}' if hand.is_over else b',"is_over":false}',
        )
        self._json_key = key
        return parts

    def _public_view(self) -> dict[str, Any]:
        """A spectator's view (no event log) as a dict, made from the step's picture when
        asked for (the states a step sends are :meth:`view_json`'s, which needs no dict)."""
        self._picture()
        hand = self.hand
        key = self._step
        if self._public is not None and self._public_key == key:
            return self._public
        config = hand.config
        to_act = hand.to_act
        entries = self._entries
        self._public = {
            "viewer": None,
            "game": config.game.code,
            "ante": config.ante,
            "bring_in": config.bring_in,
            "small_bet": config.small_bet,
            "big_bet": config.big_bet,
            "street": hand.street,
            "to_act": None if to_act is None else self.seats[to_act],
            "level": hand.level,
            "pot": hand.pot,
            "seats": [entry[1] for entry in entries if entry is not None],
            "community": _text(hand.community),
            "legal_actions": [],
            "is_over": hand.is_over,
        }
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
        self._picture()
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
        :func:`~stud.table.readout.board_readouts` read them in ``view(player)``.

        The boards are looked at once per step for every viewer, and a seat's words (its
        board, a player's own) read again only when its cards (or whether it is live,
        the community card or the hand's end) changed; the same dict is handed out while
        they hold. Each seat's new cards are added to the sums its earlier ones made
        (:class:`~stud.evaluate.sofar.Running`): the hand is not read again.
        """
        self._picture()
        hand = self.hand
        community, over = hand.community, hand.is_over
        if self._boards_step != self._step:
            self._boards_step = self._step
            self._read_boards(community, over)
        if player is None:
            return None, self._boards
        own = self._own_entry(player)
        live, held = _held(own)
        own_key = (community, over, live, held)
        cached = self._own_words[player]
        if cached is None or cached[0] != own_key:
            down_read, up_read, community_read, sums = self._own_sums[player]
            down: int = own[0][5]
            up: int = own[0][6]
            if down > down_read:
                sums = sums.plus(hand.down_cards(player)[down_read:])
            if up > up_read:
                sums = sums.plus(hand.up_cards(player)[up_read:])
            if community is not None and not community_read:
                sums, community_read = sums.plus((community,)), True
            self._own_sums[player] = (down, up, community_read, sums)
            to_come = cards_to_come(
                over=over, live=live, held=held, community=community is not None
            )
            cached = (own_key, readout_running(self._game, sums, to_come))
            self._own_words[player] = cached
        return cached[1], self._boards

    def _read_boards(self, community: int | None, over: bool) -> None:
        """Each seat's board words (its up cards), read again where they changed; a new
        boards dict only when a seat's words did (the table keeps the JSON of the old one)."""
        hand, changed = self.hand, False
        for s, entry in enumerate(self._entries):
            if entry is None:
                continue
            live, held = _held(entry)
            up: int = entry[0][6]
            key = (community, over, live, held, up)
            cached = self._board_words[s]
            if cached is not None and cached[0] == key:
                continue
            up_read, sums = self._board_sums[s]
            if up > up_read:
                sums = sums.plus(hand.up_cards(s)[up_read:])
                self._board_sums[s] = (up, sums)
            to_come = cards_to_come(
                over=over, live=live, held=held, community=community is not None
            )
            words = readout_running(self._game, sums, to_come)
            changed = changed or cached is None or cached[1] is not words
            self._board_words[s] = (key, words)
        if changed:
            boards: dict[str, Any] = {}
            for s, kept in enumerate(self._board_words):
                if kept is not None and kept[1] is not None:
                    boards[str(self.seats[s])] = kept[1]
            self._boards = boards

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

    def histories(self, heading: Heading) -> tuple[str, str]:
        return write_histories(self.hand, heading, self.seats, shuffle=self.shuffle)

    def played(self, heading: Heading) -> str:
        return played_hand(self.hand, heading, self.seats, shuffle=self.shuffle)


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
    muck_losing_hands: bool | tuple[bool, ...] = True,
) -> tuple[HandPort, list[HandEvent]]:
    """The table's hand factory: a real engine hand, dealt from the table's committed shuffle.

    Without a ``shuffle``, a deck shuffled by ``seed`` or the CSPRNG. ``cards``
    deals those cards instead (a test's stacked hand, which then claims no shuffle).
    """
    config = TableConfig(
        game=variant(game), ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet,
        stacks=tuple(stacks), rake_percent=Fraction(str(rake_percent)), rake_cap=rake_cap,
        muck_losing_hands=muck_losing_hands,
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
