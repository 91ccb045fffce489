"""N independent hands stepped in one call: the compiled loop behind ``VectorEnv``.

Compiled with mypyc (``stud._compiled``): every hand's state sits in flat
native vectors (``librt.vecs``), one slot per hand or per hand and seat, and
:meth:`BatchCore.step` plays one action index in each hand in a single
compiled loop, starting a new hand where one ends (auto-reset). It follows
the engine's rules (:mod:`stud.game`: the bring-in, completing, the fixed
limits, the cap, R7's double bet, who acts first) for the tables where no
seat can run out of chips; :mod:`stud.envcore.vector` refuses the others, and
``tests/test_env_vector.py`` plays the same decks and actions through
:class:`~stud.game.Hand` and compares every step. The R6 showing values come
from the engine's own :func:`~stud.game.order.showing_value` (remembered by
rank), the showdown from the batch evaluators of :mod:`stud.evaluate`, and a
tied showdown is settled by the engine's :func:`~stud.game.showdown.settle`.

Privacy: an observation row holds the down cards of the seat to act only.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Final

import numpy as np
from librt.vecs import vec
from mypy_extensions import i64

from stud.envcore.turns import BRING_IN, CHECK_CALL, DOUBLE_WAGER, FOLD, WAGER
from stud.evaluate import eight_low_values, high_values, razz_values
from stud.game.config import RAISE_CAP
from stud.game.order import ace_low_key, showing_value
from stud.game.showdown import settle
from stud.game.variants import DoorCard, Split, Variant

CARDS_PER_SEAT: Final = 7
UP_SLOTS: Final = 4
DOWN_SLOTS: Final = 3
HEAD: Final = 10
"""Observation fields before the seat rows (see :func:`observation_size`)."""
SEAT_FIELDS: Final = 8
"""Per seat row: live, stack, bet, committed, then its four up cards."""
NO_CARD: Final = -1

_SHOWING_SLOTS: Final = 13 + 13**2 + 13**3 + 13**4
"""Remembered R6 values: one slot per sequence of 1 to 4 up-card ranks."""
_SHOWING_BASE: Final = (0, 0, 13, 13 + 13**2, 13 + 13**2 + 13**3)
"""Where the sequences of each length (by up-card count) start among those slots."""
_NO_RAKE: Final = Fraction(0)


def _vec(values: list[int]) -> vec[i64]:
    """A native vector of ``values`` (made from a list variable, as mypyc builds it)."""
    return vec[i64](values)


def observation_size(seats: int) -> int:
    """The length of one observation row at a table of ``seats``."""
    return HEAD + SEAT_FIELDS * seats


def draws_per_hand(seats: int) -> int:
    """The random draws a new hand takes: one Fisher-Yates swap per card it may deal."""
    return CARDS_PER_SEAT * seats


class BatchCore:
    """``count`` hands of one table, each with its own deck, stepped together.

    ``draw`` returns the next random bytes for the shuffles: for each hand,
    ``draws_per_hand(seats)`` bytes, the ``k``-th below ``52 - k`` (a
    Fisher-Yates step). Observations, masks' bits, the seat to act, and at a
    hand's end its chips won or lost (``net``) and ``done`` are kept in native
    vectors that :class:`~stud.envcore.vector.VectorEnv` reads as arrays.
    """

    def __init__(
        self,
        game: Variant,
        count: int,
        ante: int,
        bring_in: int,
        small_bet: int,
        big_bet: int,
        stacks: list[int],
        draw: Callable[[], bytes],
    ) -> None:
        n = len(stacks)
        self.game = game
        self.count = count
        self.seats = n
        self.width = observation_size(n)
        self._ante: i64 = ante
        self._bring_in_chips: i64 = bring_in
        self._small: i64 = small_bet
        self._big: i64 = big_bet
        self._start_stacks = _vec(stacks)
        self._lowest_door = game.door_card is DoorCard.LOWEST
        self._open_pair = game.open_pair_double_bet
        self._split = 0 if game.split is Split.LOW else 1 if game.split is Split.HIGH else 2
        self._order = game.first_to_act
        self._ace_low = _vec([ace_low_key(c) for c in range(52)])
        self._showing = _vec([-1] * _SHOWING_SLOTS)
        self._draw = draw
        self._draws = b""
        self._drawn: i64 = 0
        per_seat = [0] * (count * n)
        self.decks = _vec(list(range(52)) * count)
        """Each hand's deck, in dealing order (52 per hand)."""
        self._stack = _vec(per_seat)
        self._bet = _vec(per_seat)
        self._committed = _vec(per_seat)
        self._live = _vec(per_seat)
        self._acted = _vec(per_seat)
        self._nup = _vec(per_seat)
        self._up = _vec([NO_CARD] * (count * n * UP_SLOTS))
        self._down = _vec([NO_CARD] * (count * n * DOWN_SLOTS))
        per_hand = [0] * count
        self._street = _vec(per_hand)
        self._level = _vec(per_hand)
        self._last_full = _vec(per_hand)
        self._full = _vec(per_hand)
        self._unit = _vec(per_hand)
        self._double = _vec(per_hand)
        self._opening = _vec(per_hand)
        self._cursor = _vec(per_hand)
        self._live_count = _vec(per_hand)
        self._aggressor = _vec(per_hand)
        self._pos = _vec(per_hand)
        self.to_act = _vec(per_hand)
        """The seat to act in each hand."""
        self.bits = _vec(per_hand)
        """The legal action indices of each hand's seat to act, as bits."""
        self.done = _vec(per_hand)
        """1 where a hand ended in the last step (a new one has started there)."""
        self.net = _vec(per_seat)
        """Where ``done``: each seat's chips won or lost in the hand that ended."""
        self.obs = _vec([0] * (count * self.width))
        """Each hand's observation row for its seat to act."""
        self.ended: i64 = 0
        """Hands ended in the last step."""
        self._finished: list[int] = []
        self._pending: list[int] = []
        self._pending_cards = _vec([0] * (count * n * CARDS_PER_SEAT))
        self._pending_committed = _vec(per_seat)
        self._pending_live = _vec(per_seat)
        self._pending_aggressor = _vec(per_hand)

    # ------------------------------------------------------------------ stepping

    def reset(self) -> None:
        """Deal a new hand everywhere."""
        for i in range(self.count):
            self._new_hand(i)
            self._observe(i)
        for i in self._finished:
            self.done[i] = 0
        self._finished = []
        self.ended = 0

    def illegal(self, actions: bytes) -> int:
        """The first hand whose action its mask does not allow, or -1 (nothing is changed)."""
        bits = self.bits
        for i in range(self.count):
            a: i64 = actions[i]
            if a >= 5 or not (bits[i] >> a) & 1:
                return i
        return -1

    def step(self, actions: bytes) -> None:
        """Play ``actions[i]`` (legal: check :meth:`illegal` first) in hand ``i``, for every i."""
        n = self.seats
        done = self.done
        net = self.net
        for i in self._finished:
            done[i] = 0
            for s in range(n):
                net[i * n + s] = 0
        self._finished = []
        self._pending = []
        for i in range(self.count):
            self._apply(i, self.to_act[i], actions[i])
            if self._advance(i):
                self._finished.append(i)
                done[i] = 1
                self._new_hand(i)
            self._observe(i)
        self.ended = len(self._finished)
        if self._pending:
            self._settle_showdowns()

    # ------------------------------------------------------------------ one hand

    def _new_hand(self, i: i64) -> None:
        n: i64 = self.seats
        decks = self.decks
        base = i * 52
        need = CARDS_PER_SEAT * n
        if self._drawn + need > len(self._draws):
            self._draws = self._draw()
            self._drawn = 0
        draws = self._draws
        at = self._drawn
        for k in range(need):
            j = base + k + draws[at + k]
            card = decks[j]
            decks[j] = decks[base + k]
            decks[base + k] = card
        self._drawn = at + need
        ante = self._ante
        for s in range(n):
            slot = i * n + s
            start = self._start_stacks[s]
            self._stack[slot] = start - ante
            self._committed[slot] = ante
            self._bet[slot] = 0
            self._live[slot] = 1
            self._nup[slot] = 1
            self._up[slot * UP_SLOTS] = decks[base + 2 * n + s]
            for k in range(1, UP_SLOTS):
                self._up[slot * UP_SLOTS + k] = NO_CARD
            self._down[slot * DOWN_SLOTS] = decks[base + s]
            self._down[slot * DOWN_SLOTS + 1] = decks[base + n + s]
            self._down[slot * DOWN_SLOTS + 2] = NO_CARD
        self._pos[i] = 3 * n
        self._street[i] = 3
        self._live_count[i] = n
        self._open_round(i)
        self._advance(i)

    def _open_round(self, i: i64) -> None:
        """R3–R7: a new street's betting and who opens it."""
        n: i64 = self.seats
        street = self._street[i]
        self._level[i] = 0
        self._last_full[i] = 0
        self._full[i] = 0
        self._aggressor[i] = -1
        self._unit[i] = self._small if street <= 4 else self._big
        self._double[i] = 0
        for s in range(n):
            self._acted[i * n + s] = -1
        if street == 3:
            self._opening[i] = 1
            self._cursor[i] = self._bring_in_seat(i)
            return
        self._opening[i] = 0
        if street == 4 and self._open_pair:
            for s in range(n):
                slot = i * n + s
                if (
                    self._live[slot]
                    and self._up[slot * UP_SLOTS] >> 2 == self._up[slot * UP_SLOTS + 1] >> 2
                ):
                    self._double[i] = self._big
        self._cursor[i] = self._first_to_act(i)

    def _bring_in_seat(self, i: i64) -> i64:
        """R3: the lowest door card (Stud, Stud8; ace high) or the highest (Razz; ace low)."""
        n: i64 = self.seats
        best: i64 = -1
        best_key: i64 = 0
        for s in range(n):
            card = self._up[(i * n + s) * UP_SLOTS]
            key = -card if self._lowest_door else self._ace_low[card]
            if best < 0 or key > best_key:
                best = s
                best_key = key
        return best

    def _first_to_act(self, i: i64) -> i64:
        """R6: the live seat with the best showing hand; ties go to the lowest seat."""
        n: i64 = self.seats
        best: i64 = -1
        best_value: i64 = 0
        for s in range(n):
            slot = i * n + s
            if not self._live[slot]:
                continue
            value = self._showing_value(slot)
            if best < 0 or value > best_value:
                best = s
                best_value = value
        return best

    def _showing_value(self, slot: i64) -> i64:
        """The engine's R6 value of a seat's up cards, remembered by their ranks in order."""
        count = self._nup[slot]
        key: i64 = 0
        for k in range(count):
            key = key * 13 + (self._up[slot * UP_SLOTS + k] >> 2)
        index = _SHOWING_BASE[count] + key
        value = self._showing[index]
        if value < 0:
            cards = [int(self._up[slot * UP_SLOTS + k]) for k in range(count)]
            value = showing_value(self._order, cards)
            self._showing[index] = value
        return value

    def _apply(self, i: i64, s: i64, a: i64) -> None:
        n: i64 = self.seats
        slot = i * n + s
        self._cursor[i] = s + 1 if s + 1 < n else 0
        if a == FOLD:
            self._live[slot] = 0
            self._live_count[i] -= 1
            return
        level = self._level[i]
        if a == CHECK_CALL:
            add = level - self._bet[slot]
            if add > 0:
                self._pay(slot, add)
                self._bet[slot] = level
            self._acted[slot] = level
            return
        if a == BRING_IN:
            to = self._bring_in_chips
            self._pay(slot, to - self._bet[slot])
            self._bet[slot] = to
            self._opening[i] = 0
            self._level[i] = to
            self._acted[slot] = to
            return
        last_full = self._last_full[i]
        unit = self._unit[i]
        double = self._double[i]
        to = last_full + (unit if a == WAGER else double)
        self._pay(slot, to - self._bet[slot])
        self._bet[slot] = to
        self._opening[i] = 0
        self._last_full[i] = to
        self._full[i] += 1
        if double and to - last_full > unit:
            self._unit[i] = double  # R7: after a big bet, every bet is big
            self._double[i] = 0
        self._level[i] = to
        self._acted[slot] = to
        self._aggressor[i] = s

    def _pay(self, slot: i64, chips: i64) -> None:
        self._stack[slot] -= chips
        self._committed[slot] += chips

    def _advance(self, i: i64) -> bool:
        """Find the next seat to act, dealing streets as rounds close; True if the hand ended."""
        n: i64 = self.seats
        while True:
            if self._live_count[i] == 1:
                self._fold_out(i)
                return True
            s = self._next_actor(i)
            if s >= 0:
                self.to_act[i] = s
                self.bits[i] = self._legal_bits(i)
                return False
            for t in range(n):
                self._bet[i * n + t] = 0
            street = self._street[i]
            if street == 7:
                self._hold_showdown(i)
                return True
            self._deal(i, street + 1)
            self._open_round(i)

    def _next_actor(self, i: i64) -> i64:
        n: i64 = self.seats
        level = self._level[i]
        s = self._cursor[i]
        for _ in range(n):
            slot = i * n + s
            if self._live[slot] and (self._bet[slot] < level or self._acted[slot] < 0):
                return s
            s = s + 1 if s + 1 < n else 0
        return -1

    def _legal_bits(self, i: i64) -> i64:
        if self._opening[i]:
            bits: i64 = 1 << WAGER
            if self._bring_in_chips < self._small:
                bits |= 1 << BRING_IN
            return bits
        bits = (1 << FOLD) | (1 << CHECK_CALL)
        if self._full[i] < RAISE_CAP:
            bits |= 1 << WAGER
            if self._double[i]:
                bits |= 1 << DOUBLE_WAGER
        return bits

    def _deal(self, i: i64, street: i64) -> None:
        n: i64 = self.seats
        self._street[i] = street
        pos = self._pos[i]
        base = i * 52
        for s in range(n):
            slot = i * n + s
            if not self._live[slot]:
                continue
            card = self.decks[base + pos]
            pos += 1
            if street < 7:
                count = self._nup[slot]
                self._up[slot * UP_SLOTS + count] = card
                self._nup[slot] = count + 1
            else:
                self._down[slot * DOWN_SLOTS + 2] = card
        self._pos[i] = pos

    def _fold_out(self, i: i64) -> None:
        """Everyone else folded: the last seat takes every chip put in."""
        n: i64 = self.seats
        total: i64 = 0
        winner: i64 = 0
        for s in range(n):
            slot = i * n + s
            total += self._committed[slot]
            self.net[slot] = -self._committed[slot]
            if self._live[slot]:
                winner = s
        self.net[i * n + winner] += total

    def _hold_showdown(self, i: i64) -> None:
        """Keep what the showdown needs; :meth:`_settle_showdowns` settles after the loop."""
        n: i64 = self.seats
        for s in range(n):
            slot = i * n + s
            self._pending_committed[slot] = self._committed[slot]
            self._pending_live[slot] = self._live[slot]
            cards = slot * CARDS_PER_SEAT
            down = slot * DOWN_SLOTS
            up = slot * UP_SLOTS
            self._pending_cards[cards] = self._down[down]
            self._pending_cards[cards + 1] = self._down[down + 1]
            for k in range(UP_SLOTS):
                self._pending_cards[cards + 2 + k] = self._up[up + k]
            self._pending_cards[cards + 6] = self._down[down + 2]
        self._pending_aggressor[i] = self._aggressor[i]
        self._pending.append(i)

    # ------------------------------------------------------------------ showdowns

    def _settle_showdowns(self) -> None:
        """Evaluate every showdown of the step in one batch, then share each pot out."""
        n: i64 = self.seats
        rows: list[int] = []
        for i in self._pending:
            for s in range(n):
                if self._pending_live[i * n + s]:
                    rows.append(i * n + s)
        cards = np.frombuffer(memoryview(self._pending_cards), dtype=np.int64).reshape(
            -1, CARDS_PER_SEAT
        )
        hands = cards[np.array(rows, dtype=np.int64)]
        split = self._split
        main = razz_values(hands, check=False) if split == 0 else high_values(hands, check=False)
        mains: list[int] = main.tolist()
        lows: list[int] = eight_low_values(hands, check=False).tolist() if split == 2 else []
        row = 0
        for i in self._pending:
            best_main: i64 = -1
            main_winner: i64 = -1
            main_ties = 0
            best_low: i64 = 0
            low_winner: i64 = -1
            low_ties = 0
            total: i64 = 0
            for s in range(n):
                slot = i * n + s
                total += self._pending_committed[slot]
                self.net[slot] = -self._pending_committed[slot]
                if not self._pending_live[slot]:
                    continue
                value: i64 = mains[row]
                if value > best_main:
                    best_main, main_winner, main_ties = value, s, 0
                elif value == best_main:
                    main_ties += 1
                if split == 2:
                    low: i64 = lows[row]
                    if low and low > best_low:
                        best_low, low_winner, low_ties = low, s, 0
                    elif low and low == best_low:
                        low_ties += 1
                row += 1
            if main_ties or low_ties:
                self._settle_by_engine(i)
            elif low_winner < 0:
                self.net[i * n + main_winner] += total
            else:
                low_part = total // 2  # R18: the high half takes the odd chip
                self.net[i * n + main_winner] += total - low_part
                self.net[i * n + low_winner] += low_part

    def _settle_by_engine(self, i: i64) -> None:
        """A tied showdown: the engine's own settlement shares the pot (R18's odd chips)."""
        n: i64 = self.seats
        committed = [int(self._pending_committed[i * n + s]) for s in range(n)]
        live = [bool(self._pending_live[i * n + s]) for s in range(n)]
        hands: list[list[int | None]] = []
        for s in range(n):
            at = (i * n + s) * CARDS_PER_SEAT
            hands.append([int(self._pending_cards[at + k]) for k in range(CARDS_PER_SEAT)])
        aggressor = int(self._pending_aggressor[i])
        settlement = settle(
            self.game,
            committed,
            live,
            hands,
            (),
            aggressor if aggressor >= 0 else None,
            rake_percent=_NO_RAKE,
            rake_cap=None,
            forced_rake=None,
            muck_losing_hands=True,
        )
        for s in range(n):
            self.net[i * n + s] = settlement.won[s] - committed[s]

    # ------------------------------------------------------------------ observing

    def _observe(self, i: i64) -> None:
        """Write hand ``i``'s observation row for its seat to act (layout: docs/rl.md)."""
        n: i64 = self.seats
        s = self.to_act[i]
        obs = self.obs
        at = i * self.width
        obs[at] = s
        obs[at + 1] = self._street[i]
        obs[at + 2] = self._level[i]
        obs[at + 3] = self._full[i]
        obs[at + 4] = self._opening[i]
        obs[at + 5] = 1 if self._double[i] else 0
        pot: i64 = 0
        for t in range(n):
            pot += self._committed[i * n + t]
        obs[at + 6] = pot
        own = (i * n + s) * DOWN_SLOTS
        obs[at + 7] = self._down[own]
        obs[at + 8] = self._down[own + 1]
        obs[at + 9] = self._down[own + 2]
        row = at + HEAD
        t = s
        for _ in range(n):
            slot = i * n + t
            obs[row] = self._live[slot]
            obs[row + 1] = self._stack[slot]
            obs[row + 2] = self._bet[slot]
            obs[row + 3] = self._committed[slot]
            up = slot * UP_SLOTS
            obs[row + 4] = self._up[up]
            obs[row + 5] = self._up[up + 1]
            obs[row + 6] = self._up[up + 2]
            obs[row + 7] = self._up[up + 3]
            row += SEAT_FIELDS
            t = t + 1 if t + 1 < n else 0
