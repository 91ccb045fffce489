"""Chips in front of each seat while a record's actions are read or written.

Readers use it to turn what a format says (PHH's ``cc`` and ``cbr 40``,
PokerStars' ``raises $0.02 to $0.04``) into actions with both the chips moved
and the street total; writers use it to print an action the way the format
wants it. It keeps the money straight, and counts the full bets that cap a
street (PokerStars' ``Betting is capped``); whether an action was legal is the
engine's question, asked by :mod:`stud.history.replay`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Final

from stud.history.model import WAGERS, Action, HandRecord, Kind, Stakes

CAP: Final = 4
"""A bet (or the completion) and three raises: then the betting is capped (rules.md R10)."""


class Ledger:
    """Stacks behind, chips in this street and in the hand, folds, and full bets this street.

    A wager is a full bet or raise when it goes at least half a bet above the
    last full one (R11, the room's default); the fourth caps the street (R10).
    On 4th street a full wager of more than the small bet is the open pair's
    big bet (R7), after which every bet is big. A bring-in counts as the bet
    only at a table whose bring-in is the small bet (then it is the forced
    completion).
    """

    def __init__(self, stakes: Stakes, stacks: Sequence[int]) -> None:
        self.stakes = stakes
        self.behind = list(stacks)
        self.street_in = [0] * len(stacks)
        self.total_in = [0] * len(stacks)
        self.folded = [False] * len(stacks)
        self.start_street(3)

    @property
    def max_bet(self) -> int:
        return max(self.street_in)

    def to_call(self, seat: int) -> int:
        return min(self.max_bet - self.street_in[seat], self.behind[seat])

    def live(self) -> list[int]:
        """Seats that have not folded."""
        return [i for i, folded in enumerate(self.folded) if not folded]

    def start_street(self, street: int) -> None:
        self.street = street
        self.street_in = [0] * len(self.street_in)
        self.unit = self.stakes.small_bet if street <= 4 else self.stakes.big_bet
        self.last_full = 0
        self.full = 0
        self.capped = False  # whether the last action was the full wager that capped the street

    def _count(self, to: int) -> None:
        """Count a wager that takes the street to ``to`` as full or not (see the class)."""
        increment = to - self.last_full
        self.capped = False
        if 2 * increment < self.unit:
            return
        if self.street == 4 and increment > self.unit:
            self.unit = self.stakes.big_bet
        self.last_full = to
        self.full += 1
        self.capped = self.full == CAP

    def _forced_bet(self) -> bool:
        """Whether a bring-in here is the forced completion: the bring-in is the small bet."""
        bring_in = self.stakes.bring_in
        return bring_in is not None and bring_in >= self.stakes.small_bet

    def _put(self, seat: int, amount: int, what: str) -> bool:
        if amount < 0:
            raise ValueError(f"{what}: a negative amount ({amount})")
        if amount > self.behind[seat]:
            raise ValueError(f"{what} of {amount} with only {self.behind[seat]} behind")
        self.behind[seat] -= amount
        self.street_in[seat] += amount
        self.total_in[seat] += amount
        return self.behind[seat] == 0

    def post_ante(self, seat: int, amount: int) -> bool:
        """Post an ante; antes are dead money, not part of the third-street bet. True if all-in."""
        all_in = self._put(seat, amount, "ante")
        self.street_in[seat] -= amount
        return all_in

    def bring_in(self, seat: int, amount: int | None = None) -> Action:
        if amount is None:
            if self.stakes.bring_in is None:
                raise ValueError("a bring-in without a bring-in amount in the stakes")
            amount = min(self.stakes.bring_in, self.behind[seat])
        all_in = self._put(seat, amount, "bring-in")
        if self._forced_bet():
            self._count(self.street_in[seat])
        return Action(self.street, seat, Kind.BRING_IN, amount, self.street_in[seat], all_in)

    def wager_kind(self) -> Kind:
        """A wager now: on 3rd street a completion until a full bet is in, else a bet or a raise."""
        if self.street == 3 and self.max_bet < self.stakes.small_bet:
            return Kind.COMPLETE
        return Kind.BET if self.max_bet == 0 else Kind.RAISE

    def wager_to(self, seat: int, to: int) -> Action:
        """Complete, bet or raise so that ``seat`` has ``to`` in on this street."""
        if to <= self.max_bet:
            raise ValueError(f"a bet or raise to {to} does not go above the {self.max_bet} in")
        kind = self.wager_kind()
        amount = to - self.street_in[seat]
        all_in = self._put(seat, amount, kind.value)
        self._count(to)
        return Action(self.street, seat, kind, amount, to, all_in)

    def call(self, seat: int, amount: int | None = None) -> Action:
        """Call ``amount`` (or whatever the call is); nothing to call is a check."""
        owed = self.to_call(seat)
        if amount is None:
            amount = owed
        if amount == 0 and owed == 0:
            return Action(self.street, seat, Kind.CHECK, 0, self.street_in[seat])
        if self.street_in[seat] + amount > self.max_bet:
            raise ValueError(f"a call of {amount} is more than the {owed} owed")
        all_in = self._put(seat, amount, "call")
        return Action(self.street, seat, Kind.CALL, amount, self.street_in[seat], all_in)

    def check(self, seat: int) -> Action:
        return Action(self.street, seat, Kind.CHECK, 0, self.street_in[seat])

    def fold(self, seat: int) -> Action:
        self.folded[seat] = True
        return Action(self.street, seat, Kind.FOLD, 0, self.street_in[seat])

    def give_back(self, seat: int, amount: int) -> Action:
        """Return ``amount`` of ``seat``'s bet to it (an uncalled bet)."""
        if not 0 < amount <= self.street_in[seat]:
            raise ValueError(f"cannot return {amount} of a {self.street_in[seat]} bet")
        self.behind[seat] += amount
        self.street_in[seat] -= amount
        self.total_in[seat] -= amount
        return Action(self.street, seat, Kind.RETURN, amount, self.street_in[seat])

    def uncalled(self) -> tuple[int, int] | None:
        """The seat whose bet nobody matched and the unmatched part, if any (R17)."""
        order = sorted(range(len(self.street_in)), key=lambda i: -self.street_in[i])
        top, second = order[0], (self.street_in[order[1]] if len(order) > 1 else 0)
        excess = self.street_in[top] - second
        return (top, excess) if excess > 0 else None

    def apply(self, action: Action) -> None:
        """Follow an action already in a record (writers); trusts its amounts.

        ``capped`` then says whether this action capped the street.
        """
        self.capped = False
        if action.street != self.street:
            self.start_street(action.street)
        if action.kind is Kind.RETURN:
            self.give_back(action.seat, action.amount)
            return
        if action.kind is Kind.FOLD:
            self.folded[action.seat] = True
            return
        self._put(action.seat, action.amount, action.kind.value)
        if action.kind in WAGERS or (action.kind is Kind.BRING_IN and self._forced_bet()):
            self._count(action.to)


def bring_in_to_play(record: HandRecord) -> int:
    """The bring-in to play ``record`` with: its own, or one its actions fit when it never shows it.

    PokerStars text states the bring-in only in a ``brings in for`` line of a
    seat that was not all-in. Without one, half the small bet, which no action
    then uses; but at least what a seat put in all-in as the bring-in (the
    engine posts the bring-in or the whole stack, whichever is less), and below
    an opening completion of the bring-in seat that went all-in for less than
    half the small bet (so the wager stays a completion).
    """
    stakes = record.stakes
    if stakes.bring_in is not None:
        return stakes.bring_in
    small = stakes.small_bet
    guess = max(1, small // 2)
    opening = next(record.actions_on(3), None)
    if opening is None:
        return guess
    if opening.kind is Kind.BRING_IN:
        # Below the small bet, or the small bet itself (then an all-in of half of it or more was
        # the street's bet, R11): the first that the street's wagers fit.
        below = max(guess, opening.to)
        candidates = [below, small] if below < small else [small]
        return next((c for c in candidates if _wagers_fit(record, c)), candidates[0])
    if opening.kind in WAGERS and opening.to <= guess:
        return max(1, opening.to - 1)
    return guess


def _wagers_fit(record: HandRecord, bring_in: int) -> bool:
    """Whether every 3rd-street wager of ``record`` is one a table with ``bring_in`` allows:
    a full unit above the last full wager (less only all in), and none past the cap."""
    ledger = Ledger(replace(record.stakes, bring_in=bring_in), record.starting_stacks)
    for seat in range(len(record.seats)):
        ledger.post_ante(seat, min(record.stakes.ante, ledger.behind[seat]))
    for action in record.actions_on(3):
        if action.kind in WAGERS:
            target = ledger.last_full + ledger.unit
            if (
                ledger.full >= CAP
                or action.to > target
                or (action.to < target and not action.all_in)
            ):
                return False
        ledger.apply(action)
    return True
