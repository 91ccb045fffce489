"""Fold equity from what each opponent was seen doing: attack a folder, never bluff a station.

The strong bot's chance that an opponent folds to its wager is the model's
rate (his read rate applied to his range as his line narrowed it) moved
towards how often he was seen folding in comparable spots (the same street, a
board like the bettor's against his), by how many such spots were seen
(:func:`stud.bots.shares.fold_chance`). These tests check the reads that
feed it, the shrinkage, and what it does to a decision: a weak hand is bet
into a player seen folding almost always, and checked into a calling station.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from stud.bots import StrongBot, play_hand
from stud.bots.boards import showing
from stud.bots.estimate import Estimator
from stud.bots.player_stats import PlayerStats, board_spot
from stud.bots.players import PlayerReads, visible_up
from stud.bots.ranges import Range
from stud.bots.seen import read_view
from stud.bots.shares import FOLD_EVIDENCE, fold_chance
from stud.cards import Deck
from stud.game import Action, ActionKind, Hand, HandView, TableConfig, variant

GAMES = ("stud", "stud8", "razz")


def _config(game: str) -> TableConfig:
    return TableConfig(
        game=variant(game), ante=2, bring_in=5, small_bet=20, big_bet=40, stacks=(4000, 4000)
    )


def _first(legal: Sequence[Action], *kinds: ActionKind) -> Action:
    by_kind = {a.kind: a for a in legal}
    for kind in kinds:
        if kind in by_kind:
            return by_kind[kind]
    return legal[0]


class _Bettor:
    """Bets or raises whenever it may (3rd street: posts the bring-in or calls)."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        if view.street == 3:
            return _first(legal, ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL)
        return _first(legal, ActionKind.BET, ActionKind.RAISE, ActionKind.CALL)


class _FoldsToScaryBoards:
    """Calls a bet from a board that looks no better than its own, folds to one that does."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        assert view.viewer is not None
        kinds = {a.kind for a in legal}
        if view.street >= 4 and ActionKind.FOLD in kinds:
            other = 1 - view.viewer
            street = view.street
            mine = visible_up(view.seats[view.viewer].up, street)
            theirs = visible_up(view.seats[other].up, street)
            if showing(view.game, theirs) > showing(view.game, mine):
                return _first(legal, ActionKind.FOLD)
        return _first(legal, ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL)


@pytest.mark.parametrize("game", GAMES)
def test_folds_are_read_by_how_the_bettors_board_compares(game: str) -> None:
    """A player who folds to scary boards only reads so, the hand-ending folds included."""
    reads = PlayerReads()
    players = ("bettor", "reader")
    for n in range(60):
        hand = Hand(_config(game), deck=Deck(seed=500 + n))
        play_hand(hand, [_Bettor(), _FoldsToScaryBoards()], players)
        reads.update(hand.view(0), players)  # the bettor's own view, shown at the end
    reader = reads.players["reader"]
    scary = sum(reader.faced_board[board_spot(s, True)] for s in range(4, 8))
    tame = sum(reader.faced_board[board_spot(s, False)] for s in range(4, 8))
    assert scary >= 10 and tame >= 10
    folded = sum(reader.folds_board[board_spot(s, True)] for s in range(4, 8))
    assert folded == scary  # every fold here ended the hand: counted from the final view
    assert sum(reader.folds_board[board_spot(s, False)] for s in range(4, 8)) == 0
    assert sum(reader.faced_board) == reader.faced_later  # every bet faced has its spot
    street = max(range(4, 8), key=lambda s: reader.faced_board[board_spot(s, True)])
    scary_rate, seen_scary = reader.fold_facing(street, True)
    tame_rate, _ = reader.fold_facing(street, False)
    assert seen_scary == reader.faced_board[board_spot(street, True)]
    assert tame_rate < reader.fold_at(street) < scary_rate


def test_the_seen_rate_takes_over_from_the_model_as_evidence_grows() -> None:
    assert fold_chance(0.3, 0.9, 0) == 0.3
    assert fold_chance(0.3, 0.9, FOLD_EVIDENCE) == pytest.approx(0.6)
    halfway = fold_chance(0.3, 0.9, 10)
    assert 0.3 < halfway < fold_chance(0.3, 0.9, 100) < 0.9
    assert fold_chance(0.3, 0.0, 1000) < 0.01


def _weak_spot(game: str) -> tuple[Hand, int]:
    """A heads-up hand on 5th street: the seat to act bet 4th, was called, and is now weak."""
    rng = np.random.default_rng(0)
    for seed in range(1, 400):
        hand = Hand(_config(game), deck=Deck(seed=seed))
        while not hand.is_over and hand.street < 5:
            # 3rd street limped; 4th street bet and called: the caller's range is narrowed.
            wager = (ActionKind.BET,) if hand.street == 4 else ()
            passive = (ActionKind.BRING_IN, ActionKind.CALL, ActionKind.CHECK)
            hand.act(_first(hand.legal_actions(), *wager, *passive))
        if hand.is_over or hand.to_act is None:
            continue
        seat = hand.to_act
        kinds = {a.kind for a in hand.legal_actions()}
        if ActionKind.CHECK not in kinds or ActionKind.BET not in kinds:
            continue
        seen = read_view(hand.view(seat))
        (opp,) = seen.opponents
        if not opp.line.called_wager[4]:
            continue  # the one to act must have bet 4th street, the other called it
        share = Estimator(game, rng, 2000).against(seen, [Range(opp, 0.0, 0.0)]).now.share
        if share < 0.3:
            return hand, seat
    raise AssertionError("no weak spot found")


def _profile(stats: PlayerStats, folds: float, spots: int = 400) -> None:
    """Give ``stats`` ``spots`` seen bets faced on every later street, folding ``folds`` of them
    (and as many after leading the betting, folding a tenth of those)."""
    folded = round(folds * spots)
    for street in range(4, 8):
        stats.faced_at[street] += spots
        stats.folds_at[street] += folded
        stats.faced_later += spots
        stats.folds_later += folded
        for better in (False, True):
            stats.faced_board[board_spot(street, better)] += spots // 2
            stats.folds_board[board_spot(street, better)] += folded // 2
            # After leading the betting himself, he rarely gives up (one time in ten).
            stats.faced_board[board_spot(street, better, led=True)] += spots // 2
            stats.folds_board[board_spot(street, better, led=True)] += spots // 20
    stats.may_open += spots
    stats.may_open_at[5] += spots


def _bets(game: str, folds: float, tries: int = 12) -> int:
    """How many of ``tries`` strong bots (seeds) bet the weak hand into this folding profile."""
    hand, seat = _weak_spot(game)
    view = hand.view(seat)
    legal = hand.legal_actions()
    bets = 0
    for seed in range(tries):
        bot = StrongBot(seed=seed)
        bot.reads.update(view)
        _profile(bot.reads.stats(1 - seat), folds)
        bets += bot.choose(view, legal).kind.is_wager
    return bets


@pytest.mark.parametrize("game", GAMES)
def test_a_weak_hand_is_bet_into_a_folder_and_checked_into_a_station(game: str) -> None:
    assert _bets(game, folds=0.7) == 12  # he gives up 70% of the time: bet every time
    assert _bets(game, folds=0.0) == 0  # he never folds: a weak hand never bluffs him


def test_a_folders_bet_still_narrows_his_range() -> None:
    """Fold equity is for my wagers; his own bet is read by his (rare) betting rate."""
    reads = PlayerReads()
    stats = reads.stats(1)
    _profile(stats, folds=0.9)
    assert stats.open_at(5) < 0.1  # he never bets: a bet of his says "strong"
    assert stats.fold_facing(5, True)[0] > 0.8


def _answers_to_a_raise(game: str, tries: int = 12) -> list[ActionKind]:
    """The weak hand bets into a player seen folding 80%, who raises: what the bots do."""
    hand, seat = _weak_spot(game)
    hand.act(_first(hand.legal_actions(), ActionKind.BET))
    hand.act(_first(hand.legal_actions(), ActionKind.RAISE))
    assert hand.to_act == seat
    view = hand.view(seat)
    legal = hand.legal_actions()
    kinds = []
    for seed in range(tries):
        bot = StrongBot(seed=seed)
        bot.reads.update(view)
        stats = bot.reads.stats(1 - seat)
        _profile(stats, folds=0.8)  # folded 80% of bets (10% after leading), raised none
        kinds.append(bot.choose(view, legal).kind)
    return kinds


@pytest.mark.parametrize("game", GAMES)
def test_a_folders_raise_is_respected(game: str) -> None:
    """Attacking a folder is no licence to pay him off: his rare raise means a strong hand."""
    kinds = _answers_to_a_raise(game)
    assert kinds.count(ActionKind.FOLD) >= 10, kinds
