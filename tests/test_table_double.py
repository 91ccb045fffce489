"""A tiny scripted hand behind the table's hand port, to test the table layer by itself.

Each player antes, then acts once in turn (check, bet or fold); a bet is called
or folded to by the others; the best card dealt (by index) wins. It keeps the
port's contract: down cards go only to their owner (the private part).
"""

from __future__ import annotations

import random
from typing import Any

import orjson

from stud.fairness import Shuffle
from stud.table import HandEvent, HandPort, Heading, Legal, Table, TableSettings
from stud.table.readout import board_readouts, own_readout


class DoubleHand:
    """Enough of a hand for the table: turns, legal actions, chips in, payouts, private cards."""

    def __init__(self, ante: int, bet: int, stacks: list[int], seats: list[int], seed: int | None):
        rng = random.Random(seed)
        self.seats = seats
        self.bet = bet
        self.stacks = list(stacks)
        self.put = [min(ante, s) for s in stacks]
        self.live = [True] * len(stacks)
        self.cards = rng.sample(range(52), len(stacks))
        self.to_act: int | None = 0
        self.level = 0
        self.acted = [False] * len(stacks)
        self._payouts: list[int] | None = None

    @property
    def actor(self) -> int | None:
        return self.to_act

    @property
    def over(self) -> bool:
        return self._payouts is not None

    def legal(self) -> list[Legal]:
        assert self.to_act is not None
        if self.level == 0:
            return [Legal("fold"), Legal("check"), Legal("bet", self.bet)]
        return [Legal("fold"), Legal("call", self.level)]

    def act(self, player: int, action: str, to: int) -> list[HandEvent]:
        if player != self.to_act or Legal(action, to) not in self.legal():
            raise ValueError("illegal")
        if action == "fold":
            self.live[player] = False
        elif action in ("bet", "call"):
            self.put[player] += min(to, self.stacks[player] - self.put[player])
            self.level = max(self.level, to)
        self.acted[player] = True
        events = [HandEvent("action", {"seat": self.seats[player], "kind": action, "to": to})]
        live = [i for i, v in enumerate(self.live) if v]
        pending = [
            i for i in live if not self.acted[i] or (self.level and self.put[i] < self.level)
        ]
        pending = [i for i in pending if self.put[i] < self.stacks[i]]
        if len(live) == 1 or not pending:
            winner = max(live, key=lambda i: self.cards[i])
            self._payouts = [0] * len(self.put)
            self._payouts[winner] = sum(self.put)
            self.to_act = None
            events.append(HandEvent("award", {"seat": self.seats[winner], "amount": sum(self.put)}))
        else:
            after = [i for i in pending if i > player] or pending
            self.to_act = after[0]
        return events

    def committed(self) -> list[int]:
        return list(self.put)

    def payouts(self) -> list[int]:
        assert self._payouts is not None
        return list(self._payouts)

    def rake(self) -> int:
        return 0

    def view(self, player: int | None, *, events: bool = False) -> dict[str, Any]:
        return {
            "down": {self.seats[i]: (c if i == player else None) for i, c in enumerate(self.cards)},
            "put": {self.seats[i]: p for i, p in enumerate(self.put)},
        }

    def view_json(self, player: int | None) -> bytes:
        return orjson.dumps(self.view(player), option=orjson.OPT_NON_STR_KEYS)

    def words(self, player: int | None) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        seat = None if player is None else self.seats[player]
        return own_readout(self.view(player), seat), board_readouts(self.view(None))

    def summary(self) -> dict[str, Any]:
        return {"payouts": self.payouts()}

    def histories(self, heading: Heading) -> tuple[str, str]:
        return f"hand {heading.hand_id}", f"Hand #{heading.hand_id}"

    def played(self, heading: Heading) -> str:
        return f"hand {heading.hand_id}"


def start_double(
    game: str, ante: int, bring_in: int, small_bet: int, big_bet: int,
    stacks: list[int], seats: list[int], seed: int | None, *, shuffle: Shuffle | None = None,
) -> tuple[HandPort, list[HandEvent]]:  # fmt: skip
    """The double deals by ``seed`` (not from the shuffle: it claims none)."""
    hand = DoubleHand(ante, small_bet, stacks, seats, seed)
    dealt = [
        HandEvent("dealt", {"seat": s, "down": [None]}, {s: {"down": [hand.cards[i]]}})
        for i, s in enumerate(seats)
    ]
    return hand, dealt


def test_double_keeps_the_port_contract() -> None:
    table = Table(TableSettings("t", "stud", 1, 2, 5, 10, seats=3), start_double, seed=1)
    assert table.sit(1, "a", 100, 0.0)
    table.sit(2, "b", 100, 0.0)
    table.tick(10.0)
    assert table.hand is not None and table.hand.actor is not None
