"""A hand's betting: chips, wagers and who has acted; what a seat may do, and doing it.

:class:`Betting` holds the chips of a hand and the state of the street's
betting, works out the legal actions with their exact amounts (rules.md
R3–R11: the bring-in, completing, the small and big bet, the cap, reopening
after a short all-in), applies one, and says in words why an action is not
allowed. :class:`~stud.game.state.Hand` builds on it with the dealing, the
turn and the showdown. Compiled with the engine (see
:mod:`stud.game.compiled`).
"""

from __future__ import annotations

from stud.game.actions import Action, ActionKind, IllegalActionError
from stud.game.config import MAX_SEATS, RAISE_CAP, TableConfig
from stud.game.ctor import shared_constructor as _shared
from stud.game.events import Acted, BettingCapped, Event

FOLD = ActionKind.FOLD
CHECK = ActionKind.CHECK
CALL = ActionKind.CALL
BRING_IN = ActionKind.BRING_IN
COMPLETE = ActionKind.COMPLETE
BET = ActionKind.BET
RAISE = ActionKind.RAISE

_ACTED = _shared(Acted)

# legal_actions() hands out shared immutable Actions instead of building new ones:
# fold and check per seat, the others by kind, keyed by ``to * 8 + seat``.
_FOLDS = tuple(Action(FOLD, 0, s) for s in range(MAX_SEATS))
_CHECKS = tuple(Action(CHECK, 0, s) for s in range(MAX_SEATS))
_SHARED: dict[ActionKind, dict[int, Action]] = {
    kind: {} for kind in (CALL, BRING_IN, COMPLETE, BET, RAISE)
}


def _action(kind: ActionKind, to: int, seat: int) -> Action:
    """The shared Action of this kind, amount and seat."""
    shared = _SHARED[kind]
    key = to * 8 + seat
    action = shared.get(key)
    if action is None:
        if len(shared) > 20_000:
            shared.clear()
        action = shared[key] = Action(kind, to, seat)
    return action


BETTING_FIELDS: tuple[str, ...] = (
    "_acted",
    "_aggressor",
    "_bets",
    "_big_units",
    "_bring_in",
    "_capped",
    "_committed",
    "_cursor",
    "_events",
    "_full",
    "_last_full",
    "_legal_list",
    "_legal_seat",
    "_level",
    "_live",
    "_live_count",
    "_n",
    "_small_units",
    "_stacks",
    "_street",
    "_units",
    "config",
)
"""Every field of a Betting (its ``__slots__``; a compiled class has no such attribute)."""


class Betting:
    """The betting of one hand from a :class:`TableConfig`: every seat in, antes not yet posted.

    The street starts at 3rd; the subclass deals, opens each street's betting
    (:attr:`_bring_in`, :attr:`_units`, :attr:`_cursor`) and finds who acts.
    """

    __slots__ = BETTING_FIELDS

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        n = len(config.stacks)
        self._n = n
        self._stacks = list(config.stacks)
        self._committed = [0] * n
        self._bets = [0] * n
        self._live = [True] * n
        self._live_count = n
        self._street = 3
        self._events: list[Event] = []
        self._acted = [-1] * n
        self._level = 0
        self._last_full = 0
        self._small_units = (config.small_bet,)
        self._big_units = (config.big_bet,)
        self._units: tuple[int, ...] = self._small_units
        self._full = 0
        self._capped = False
        self._bring_in = False
        self._aggressor: int | None = None
        self._cursor = 0
        self._legal_seat = -1
        self._legal_list: list[Action] = []

    def _check_action(self, seat: int, kind: ActionKind, to: int | None) -> int:
        legal = self._legal(seat)
        amounts = [a.to for a in legal if a.kind is kind]
        if not amounts:
            raise IllegalActionError(self._why_not(seat, kind, legal))
        if to is None:
            if len(amounts) > 1:
                raise IllegalActionError(
                    f"seat {seat} may {kind} to {' or '.join(map(str, amounts))}: say which"
                )
            return amounts[0]
        if to not in amounts:
            raise IllegalActionError(
                f"seat {seat} cannot {kind} to {to}: the legal amount is "
                f"{' or '.join(map(str, amounts))}"
            )
        return to

    def _why_not(self, seat: int, kind: ActionKind, legal: list[Action]) -> str:
        kinds = ", ".join(dict.fromkeys(a.kind.value for a in legal))
        tail = f" (legal now: {kinds})"
        if self._bring_in:
            if kind is FOLD or kind is CHECK or kind is CALL:
                return f"seat {seat} must post the bring-in or complete (R4){tail}"
            return f"seat {seat} opens 3rd street: bring-in or complete only{tail}"
        facing = self._level > self._bets[seat]
        if kind is CHECK:
            return (
                f"seat {seat} cannot check: it faces {self._level - self._bets[seat]} to call{tail}"
            )
        if kind is CALL:
            return f"seat {seat} has no bet to call{tail}"
        if kind is BRING_IN:
            return f"the bring-in is posted only to open 3rd street{tail}"
        if kind.is_wager:
            if self._stacks[seat] <= self._level - self._bets[seat]:
                return f"seat {seat} has no chips to raise with beyond a call{tail}"
            if self._full >= RAISE_CAP and not any(a.kind.is_wager for a in legal):
                return f"betting is capped: a bet and three raises (R10){tail}"
            acted = self._acted[seat]
            if acted >= 0 and facing and not any(a.kind.is_wager for a in legal):
                others = any(
                    self._live[j] and self._stacks[j] and j != seat for j in range(self._n)
                )
                if not others:
                    return f"every other player is all-in; seat {seat} can only call or fold{tail}"
                return (
                    f"the betting is not reopened to seat {seat}: it already acted and faces "
                    f"less than a full raise (R11){tail}"
                )
            wagers = [a.kind.value for a in legal if a.kind.is_wager]
            if wagers:
                return f"seat {seat} cannot {kind} here; it may {wagers[0]}{tail}"
            return f"seat {seat} cannot {kind} now{tail}"
        return f"seat {seat} cannot {kind} now{tail}"

    # ------------------------------------------------------------------ rules

    def _legal(self, s: int) -> list[Action]:
        """The legal actions of seat ``s`` (which must be able to act), cached until a change."""
        if s == self._legal_seat:
            return self._legal_list
        bet = self._bets[s]
        total = bet + self._stacks[s]
        level = self._level
        if self._bring_in:
            config = self.config
            bring_in = config.bring_in
            small = config.small_bet
            if bring_in < small:
                out = [_action(BRING_IN, bring_in if bring_in < total else total, s)]
                if total > bring_in:
                    out.append(_action(COMPLETE, small if small < total else total, s))
            else:
                out = [_action(COMPLETE, small if small < total else total, s)]
        else:
            if bet >= level:
                out = [_FOLDS[s], _CHECKS[s]]
            else:
                out = [_FOLDS[s], _action(CALL, level if level < total else total, s)]
            if total > level and self._may_raise(s):
                last_full = self._last_full
                if self._street == 3 and last_full == 0:
                    kind = COMPLETE
                elif level == 0:
                    kind = BET
                else:
                    kind = RAISE
                last = level
                for unit in self._units:
                    target = last_full + unit
                    if target > total:
                        target = total
                    if target > last:
                        out.append(_action(kind, target, s))
                        last = target
        self._legal_seat = s
        self._legal_list = out
        return out

    def _may_raise(self, s: int) -> bool:
        """R10 cap, R11 reopening, and someone left who could call more than the level."""
        if self._full >= RAISE_CAP and (
            self._capped or not (self.config.lift_cap_heads_up and self._heads_up())
        ):
            return False
        acted = self._acted[s]
        if acted >= 0 and self._last_full <= acted:
            faced = self._level - acted
            if self.config.short_all_in_rule:
                if 2 * faced < self._units[0]:
                    return False
            elif faced < self._units[0]:
                return False
        # Someone else must be able to put in more than the current level.
        live = self._live
        stacks = self._stacks
        bets = self._bets
        level = self._level
        for j in range(self._n):
            if j != s and live[j] and stacks[j] and bets[j] + stacks[j] > level:
                return True
        return False

    def _heads_up(self) -> bool:
        """R10: at most two players with chips still contest the pot."""
        count = 0
        for j in range(self._n):
            if self._live[j] and self._stacks[j]:
                count += 1
        return count <= 2

    def _apply(self, s: int, kind: ActionKind, to: int) -> None:
        self._legal_seat = -1
        events = self._events
        self._cursor = s + 1 if s + 1 < self._n else 0
        if kind is FOLD:
            self._live[s] = False
            self._live_count -= 1
            events.append(_ACTED(s, FOLD, 0, self._bets[s], 0, False))
            return
        if kind is CHECK:
            self._acted[s] = self._level
            events.append(_ACTED(s, CHECK, 0, self._bets[s], 0, False))
            return
        add = to - self._bets[s]
        stack = self._stacks[s] - add
        self._stacks[s] = stack
        self._committed[s] += add
        self._bets[s] = to
        if kind is CALL:
            self._acted[s] = self._level
            events.append(_ACTED(s, CALL, add, to, 0, stack == 0))
            return
        if kind is BRING_IN:
            self._bring_in = False
            self._level = to
            self._acted[s] = to
            events.append(_ACTED(s, BRING_IN, add, to, 0, stack == 0))
            return
        # complete, bet or raise
        self._bring_in = False
        previous = self._level
        units = self._units
        unit = units[0]
        increment = to - self._last_full
        if increment >= unit or (self.config.short_all_in_rule and 2 * increment >= unit):
            self._last_full = to
            self._full += 1
            if len(units) > 1 and increment > unit:
                self._units = (units[-1],)  # R7: after a big bet, every bet is big
        self._level = to
        self._acted[s] = to
        self._aggressor = s
        events.append(_ACTED(s, kind, add, to, to - previous, stack == 0))
        if (
            self._full == RAISE_CAP
            and self._last_full == to
            and not (self.config.lift_cap_heads_up and self._heads_up())
        ):
            self._capped = True
            events.append(BettingCapped(self._street))
