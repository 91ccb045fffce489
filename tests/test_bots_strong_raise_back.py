"""A raising war valued to its end, and folds when raised read by level.

When the bot weighs a raise, the branch where the opponent raises it back
takes the better of calling, folding and raising back: a player who
re-raises and then gives up when his re-raise is raised (the gauntlet's nit
folds his 3rd-street re-raise to the cap) makes the first raise worth more.
Folds when raised after wagering are read apart by level (a raise of his
first wager, or a re-raise of his raise), as his re-raises are.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

from stud.bots import StrongBot
from stud.bots.players import PlayerReads
from stud.bots.seen import read_view
from stud.bots.starting import start_percentile
from stud.cards import Deck
from stud.game import Action, ActionKind, Hand, HandView
from test_bots_fold_equity import _config
from test_bots_fold_equity import _first as _pick
from test_bots_reads_by_spot import _read


class WarNit:
    """Completes 3rd street with a top-``top`` start (folds to a completion otherwise) and
    re-raises a raise of its completion; when that re-raise is raised, folds (``folds``) or
    calls. Checks and calls on later streets."""

    def __init__(self, folds: bool, top: float = 1.0) -> None:
        self.folds = folds
        self.top = top

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        seen = read_view(view)
        if seen.street == 3:
            if seen.to_call > 0 and seen.my_line.aggressive[3]:
                if seen.wagers >= 3:
                    return _pick(legal, ActionKind.FOLD if self.folds else ActionKind.CALL)
                return _pick(legal, ActionKind.RAISE, ActionKind.CALL)
            start = seen.mine_down[:2] + seen.mine_up[:1]
            if start_percentile(seen.game, start) >= 1.0 - self.top:
                return _pick(legal, ActionKind.COMPLETE, ActionKind.RAISE, ActionKind.CALL)
            return _pick(legal, ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.FOLD)
        return _pick(legal, ActionKind.CHECK, ActionKind.CALL)


class Raiser:
    """Posts the bring-in; on 3rd street raises every wager while it may; checks and calls
    later."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        if view.street == 3:
            return _pick(legal, ActionKind.BRING_IN, ActionKind.RAISE, ActionKind.CALL)
        return _pick(legal, ActionKind.CHECK, ActionKind.CALL)


def test_folds_when_raised_are_read_by_the_level_of_the_raise() -> None:
    """He re-raises every raise of his completion and folds every time that is raised again:
    the reads keep the two apart (the folds that end the hands included)."""
    stats = _read("stud8", 40, WarNit(folds=True), Raiser(), viewer=1).players[0]
    high, folds_high = stats.faced_back_high[3], stats.folds_back_high[3]
    assert high > 10 and folds_high == high
    assert stats.faced_back_third == 2 * high and stats.folds_back_third == high
    assert stats.fold_back_as(3, high=True) > 0.6 > stats.fold_back_third
    assert stats.fold_back_third > 0.3 > stats.fold_back_as(3, high=False)
    assert stats.fold_back_as(3) == stats.fold_back_third
    assert stats.fold_rate(3, wagered=True, high=True) == stats.fold_back_as(3, high=True)


def _facing_completion(deck: int, nit: WarNit) -> tuple[Hand, HandView, list[Action]] | None:
    """Deal ``deck`` with the nit in seat 0 and the bot in seat 1 (which posts the bring-in
    when it has it) up to the bot facing his completion; None if he does not complete."""
    hand = Hand(_config("stud8"), deck=Deck(seed=deck))
    while True:
        seat = hand.to_act
        assert seat is not None
        view = hand.view(seat)
        legal = hand.legal_actions()
        if seat == 0:
            action = nit.choose(view, legal)
            if action.kind is not ActionKind.COMPLETE:
                return None
            hand.act(action)
        elif any(a.kind is ActionKind.BRING_IN for a in legal):
            hand.act(_pick(legal, ActionKind.BRING_IN))
        else:
            return hand, view, legal


def _raise_value(bot: StrongBot, view: HandView, legal: list[Action]) -> float:
    bot = copy.deepcopy(bot)  # the same Monte Carlo draws for every call
    bot.observe(view, (0, 1))
    bot.choose(view, legal)
    (raising,) = [c for c in bot.last_choices if c.action.kind is ActionKind.RAISE]
    return raising.value


def test_a_raise_is_worth_more_against_a_player_who_folds_his_reraise_to_the_cap() -> None:
    """Two bots that watched the same 200 hands of a nit who completes his top quarter and
    re-raises a raise of it; to one of them he then folded every cap, to the other he called
    it. Same deal, same Monte Carlo: re-raising his completion is worth more against the
    first (how the war ends is part of what starting it is worth), unless my hand is strong
    enough to want the cap called."""
    folder = StrongBot(seed=5)
    _read("stud8", 200, WarNit(folds=True, top=0.25), Raiser(), viewer=1, reads=folder.reads)
    caller = copy.deepcopy(folder)
    stats = caller.reads.players[0]
    assert stats.folds_back_high[3] > 20
    stats.folds_back_third -= stats.folds_back_high[3]
    stats.folds_back_high[3] = 0
    gains = []
    for deck in range(40):
        spot = _facing_completion(deck, WarNit(folds=True, top=0.25))
        if spot is not None:
            _, view, legal = spot
            gains.append(_raise_value(folder, view, legal) - _raise_value(caller, view, legal))
    assert len(gains) >= 5
    # Without the raise back the two values are the same to the chip. A hand strong enough
    # to want the cap called gains nothing from his fold; most others do.
    assert sum(g > 0.5 for g in gains) >= 2 * len(gains) / 3
    assert sum(gains) / len(gains) > 0.5


def test_the_reads_keep_both_levels_of_folds_for_a_player_never_raised_twice() -> None:
    """Without any re-raise of his raise seen, both levels are his rate over both."""
    reads = PlayerReads()
    stats = reads.stats(1)
    assert stats.fold_back_as(3, high=True) == stats.fold_back_as(3, high=False)
    assert stats.fold_back_as(5, high=True) == stats.fold_back_at(5)
