"""Reads by spot: folds to a completion by the completer's door, folds when raised by street.

A player who defends by how his hand stands against the completer's door folds
more to a scary door than to a weak one; a player who gives up a raised bet on
one street and never on another is read street by street. Both are counted from
the hands as played (the folds that end them included), per player.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from stud.bots import Bot, StrongBot, play_hand
from stud.bots.boards import door_class
from stud.bots.player_stats import PlayerStats, third_spot
from stud.bots.players import PlayerReads
from stud.bots.seen import read_view
from stud.bots.shares import fold_chance
from stud.cards import Deck, parse_cards
from stud.game import Action, ActionKind, Hand, HandView
from test_bots_fold_equity import _config
from test_bots_fold_equity import _first as _pick

GAMES = ("stud", "stud8", "razz")


def _read(
    game: str,
    hands: int,
    first: Bot,
    second: Bot,
    *,
    viewer: int,
    reads: PlayerReads | None = None,
) -> PlayerReads:
    """Play ``hands`` heads-up hands of players 0 (``first``) and 1 (``second``), seats
    swapped each hand, and read them from player ``viewer``'s final views."""
    reads = PlayerReads() if reads is None else reads
    config = _config(game)
    for seed in range(hands):
        seats = [seed % 2, 1 - seed % 2]
        bots = [first if p == 0 else second for p in seats]
        hand = Hand(config, deck=Deck(seed=seed))
        play_hand(hand, bots, seats)
        reads.update(hand.view(seats.index(viewer)), seats)
    return reads


class Completer:
    """Completes 3rd street whenever it may; then checks and calls to the end."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        if view.street == 3:
            return _pick(legal, ActionKind.COMPLETE, ActionKind.CALL, ActionKind.CHECK)
        return _pick(legal, ActionKind.CHECK, ActionKind.CALL)


class DoorFolder:
    """Folds to a completion from a scary door (class 2), calls any other; calls later on."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        seen = read_view(view)
        if seen.street == 3 and seen.to_call > 0 and seen.wagers > 0:
            wagerer = next(o for o in seen.opponents if o.line.aggressive[3])
            if door_class(seen.game, wagerer.up[0]) == 2:
                return _pick(legal, ActionKind.FOLD)
        return _pick(legal, ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL)


@pytest.mark.parametrize("game", GAMES)
def test_folds_to_a_completion_are_read_by_the_completers_door(game: str) -> None:
    reads = PlayerReads()
    config = _config(game)
    scary = weak = 0
    for seed in range(120):
        seats = [seed % 2, 1 - seed % 2]  # player 0 completes, player 1 folds to scary doors
        bots = [Completer() if p == 0 else DoorFolder() for p in seats]
        hand = Hand(config, deck=Deck(seed=seed))
        play_hand(hand, bots, seats)
        reads.update(hand.view(seats.index(0)), seats)
        door = hand.up_cards(seats.index(0))[0]
        assert door is not None
        scary += door_class(game, door) == 2
        weak += door_class(game, door) == 0
    assert scary > 10 and weak > 10
    stats = reads.players[1]
    checked = 0
    for posted in (False, True):
        pooled = stats.fold_third_as(posted)
        for door in (0, 2):
            if stats.faced_third_door[third_spot(posted, door)] < 8:
                continue  # the bring-in's door is the weakest: some spots are rare
            checked += 1
            rate = stats.fold_third_as(posted, door)
            if door == 2:  # always folded there
                assert rate > max(0.5, pooled + 0.1)
            else:  # never folded there
                assert rate < 0.7 * pooled < 0.3
    assert checked >= 2
    assert sum(stats.faced_third_door) == stats.faced_third
    assert sum(stats.folds_third_door) == stats.folds_third


class Bettor:
    """Completes; bets 4th street with a red door (about half its hands) and every later
    street; raised on 4th street it folds, raised later it calls."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        seen = read_view(view)
        if seen.to_call > 0 and seen.my_line.aggressive[seen.street]:
            return _pick(legal, ActionKind.FOLD if seen.street == 4 else ActionKind.CALL)
        if seen.street == 4 and seen.to_call == 0 and seen.mine_up[0] & 2:
            return _pick(legal, ActionKind.CHECK)
        return _pick(legal, ActionKind.COMPLETE, ActionKind.BET, ActionKind.CALL, ActionKind.CHECK)


class Raiser:
    """Calls on 3rd street; raises every later bet it faces once, checks otherwise."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        seen = read_view(view)
        if seen.street >= 4 and seen.to_call > 0 and not seen.my_line.aggressive[seen.street]:
            return _pick(legal, ActionKind.RAISE, ActionKind.CALL)
        return _pick(legal, ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL)


def test_folds_when_raised_are_read_street_by_street() -> None:
    """The bettor gives up every raised 4th-street bet and no later one: the reads say so."""
    reads = PlayerReads()
    config = _config("stud")
    for seed in range(40):
        seats = [seed % 2, 1 - seed % 2]  # player 0 bets, player 1 raises
        bots = [Bettor() if p == 0 else Raiser() for p in seats]
        hand = Hand(config, deck=Deck(seed=seed))
        play_hand(hand, bots, seats)
        reads.update(hand.view(seats.index(1)), seats)
    stats = reads.players[0]
    assert stats.faced_back_at[4] > 5 and stats.folds_back_at[4] == stats.faced_back_at[4]
    assert stats.raised_back_spots(4) == stats.faced_back_at[4]
    assert stats.faced_back_at[5] > 5 and stats.folds_back_at[5] == 0
    assert stats.fold_back_at(4) > 0.6 > stats.fold_back > stats.fold_back_at(5)
    assert stats.fold_back_at(5) < 0.3
    assert sum(stats.faced_back_at) == stats.faced_back


def test_opening_the_betting_is_read_first_to_act_and_after_a_check_apart() -> None:
    """A player who bets every time he acts first and never into a check reads so."""

    class FirstBettor:
        def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
            seen = read_view(view)
            if seen.street >= 4 and seen.to_call == 0:
                checked = any(o.line.checks[seen.street] for o in seen.opponents)
                return _pick(legal, ActionKind.CHECK if checked else ActionKind.BET)
            return _pick(legal, ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL)

    class Checker:
        def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
            return _pick(legal, ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL)

    stats = _read("razz", 40, FirstBettor(), Checker(), viewer=1).players[0]
    for street in (4, 5, 6, 7):
        assert stats.may_open_first_at[street] > 3
        assert stats.may_open_at[street] > stats.may_open_first_at[street]
        assert (
            stats.open_at(street, first=True)
            > stats.open_at(street)
            > stats.open_at(street, first=False)
        )


def test_the_strong_bot_reads_a_completion_by_its_own_door() -> None:
    """Against a player seen folding to scary doors only, the bot's range for him folds more
    when its own door is scary."""
    bot = StrongBot(seed=1)
    _read("razz", 120, Completer(), DoorFolder(), viewer=0, reads=bot.reads)
    stats = bot.reads.players[1]
    ace, king = parse_cards("As Kd")
    assert door_class("razz", ace) == 2 and door_class("razz", king) == 0
    assert stats.fold_rate(3, door=door_class("razz", ace)) > stats.fold_rate(
        3, door=door_class("razz", king)
    )


def test_a_player_giving_up_rivers_is_read_as_one_after_a_handful() -> None:
    """The river facing a bet comes up a few times in a hundred hands: a player seen folding
    six of eight river bets, and 30% of the forty bets before the river, is read folding
    most rivers (over 60%), and the chance of a fold the bot bets on moves halfway from a
    model's 40% to the 75% he was seen folding in eight such spots."""
    stats = PlayerStats()
    for street, faced, folds in ((4, 14, 4), (5, 14, 4), (6, 12, 4), (7, 8, 6)):
        stats.faced_at[street], stats.folds_at[street] = faced, folds
        stats.faced_later += faced
        stats.folds_later += folds
    assert stats.fold_later < 0.4
    assert stats.fold_at(7) > 0.6
    assert fold_chance(0.4, 0.75, 8) == pytest.approx(0.575)
