"""The hand port over ``stud.game.Hand``: the one place the table meets the engine's types.

It speaks the table's seat numbers: the engine numbers players 0..n-1 from the
dealer's left, and every ``seat`` it emits is mapped to the table's seat here.
Another player's down cards are cut from each event before it leaves (they go
to their owner alone, as a private part), and views come from the engine's own
per-seat views, which carry no foreign down card.
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Any

from stud.cards import Card, Deck
from stud.fairness import Shuffle
from stud.game import (
    Action,
    ActionKind,
    CardsDealt,
    CardSource,
    Event,
    Hand,
    HandEnded,
    HandMucked,
    HandShown,
    IllegalActionError,
    NoLowHand,
    PotAwarded,
    PotsFormed,
    TableConfig,
    UncalledBetReturned,
    variant,
    visible_events,
)
from stud.history import Tournament
from stud.table.histories import write_histories
from stud.table.port import HandEvent, HandPort, Legal
from stud.table.table import TableError

CARD_TEXT: tuple[str, ...] = tuple(str(Card(index)) for index in range(52))
"""Each card's text by index (``"As"``): views name every card at every step."""


def _text(card: int | None) -> str | None:
    return None if card is None else CARD_TEXT[card]


SUMMARY_EVENTS = (PotsFormed, UncalledBetReturned, HandShown, HandMucked, NoLowHand, PotAwarded)
SEAT_KEYS = ("seat", "to_act", "viewer")


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
        self._shown: set[int] = set()
        self._shown_scan = 0
        self._legal: tuple[int, list[Legal], list[dict[str, Any]]] | None = None
        """The actor's legal actions at one step (the length of the event log): as the
        table takes them and as its views show them, asked for several times a step."""

    # -- seat numbers ----------------------------------------------------------------------

    def _map(self, data: Any) -> Any:
        """Rename engine seat indexes to table seats, everywhere in a JSON-like value."""
        if isinstance(data, dict):
            out: dict[str, Any] = {}
            for key, value in data.items():
                if key in SEAT_KEYS and isinstance(value, int) and not isinstance(value, bool):
                    out[key] = self.seats[value]
                elif (
                    key == "seats"
                    and isinstance(value, list)
                    and all(isinstance(v, int) for v in value)
                ):
                    out[key] = [self.seats[v] for v in value]
                elif key == "stacks" and isinstance(value, list) and len(value) == len(self.seats):
                    out[key] = {str(self.seats[i]): v for i, v in enumerate(value)}
                else:
                    out[key] = self._map(value)
            return out
        if isinstance(data, list):
            return [self._map(v) for v in data]
        return data

    def _event(self, event: Event) -> HandEvent:
        public = self._map(visible_events([event], None)[0].to_dict())
        kind = str(public.pop("type"))
        private: dict[int, dict[str, Any]] = {}
        if isinstance(event, CardsDealt) and event.down:
            private[self.seats[event.seat]] = {"down": event.to_dict()["down"]}
        return HandEvent(kind, public, private)

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
        key = len(self.hand.events)
        if self._legal is None or self._legal[0] != key:
            actions = self.hand.legal_actions()
            self._legal = (
                key,
                [Legal(a.kind.value, a.to) for a in actions],
                [self._map(a.to_dict()) for a in actions],
            )
        return self._legal

    def act(self, player: int, action: str, to: int) -> list[HandEvent]:
        try:
            events = self.hand.act(Action(ActionKind(action), to, player))
        except (IllegalActionError, ValueError) as error:
            raise TableError("illegal_action", str(error)) from None
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
            return dict(self._map(self.hand.view(player).to_dict()))
        public = self._public_view()
        if player is None:
            return dict(public)
        hand = self.hand
        seats = list(public["seats"])
        own = dict(seats[player])
        own["down"] = [_text(card) for card in hand.down_cards(player)]
        seats[player] = own
        legal = [dict(a) for a in self._legal_now()[2]] if player == hand.to_act else []
        return {**public, "viewer": self.seats[player], "seats": seats, "legal_actions": legal}

    def _public_view(self) -> dict[str, Any]:
        """A spectator's view (no event log), built once per step of the hand."""
        hand = self.hand
        key = len(hand.events)
        if self._public is not None and self._public_key == key:
            return self._public
        for event in hand.events[self._shown_scan :]:
            if isinstance(event, HandShown):
                self._shown.add(event.seat)
        self._shown_scan = key
        config = hand.config
        stacks, bets, committed, live = hand.stacks, hand.bets, hand.committed, hand.live
        seats = []
        for s in range(config.seats):
            shown = s in self._shown
            seats.append(
                {
                    "seat": self.seats[s],
                    "stack": stacks[s],
                    "bet": bets[s],
                    "committed": committed[s],
                    "live": live[s],
                    "all_in": live[s] and stacks[s] == 0,
                    "shown": shown,
                    "down": [_text(c) if shown else None for c in hand.down_cards(s)],
                    "up": [_text(c) for c in hand.up_cards(s)],
                }
            )
        to_act = hand.to_act
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
            "seats": seats,
            "community": _text(hand.community),
            "legal_actions": [],
            "is_over": hand.is_over,
        }
        self._public_key = key
        return self._public

    def summary(self) -> dict[str, Any]:
        results = [
            self._map(e.to_dict()) for e in self.hand.events if isinstance(e, SUMMARY_EVENTS)
        ]
        ended = [e for e in self.hand.events if isinstance(e, HandEnded)]
        summary = {
            "results": results,
            "rake": self.rake(),
            "ended": self._map(ended[-1].to_dict()) if ended else None,
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
