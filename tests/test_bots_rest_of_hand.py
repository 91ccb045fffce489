"""The look-ahead's rest of the hand: betting on against a player who folds too much.

After the next betting round the strong bot lets its showdown share stand for
the rest of the hand: between sound players the fold equity and the bets still
to come roughly even out. A player seen folding more often than a sound one on
the streets after that gives the excess away, and only that excess is added
(:meth:`stud.bots.lookahead.Ahead.rest_value`, :meth:`StrongBot._later_folds`):
against sound players and calling stations nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from stud.bots import StrongBot
from stud.bots.lookahead import Ahead
from stud.bots.player_stats import PRIOR_FOLD_LATER, PlayerStats
from stud.bots.seen import read_view
from stud.cards import Deck
from stud.game import ActionKind, Hand, TableConfig, variant
from test_bots_fold_equity import _first

GAMES = ("stud", "stud8", "razz")


def _config(game: str, seats: int = 2) -> TableConfig:
    return TableConfig(
        game=variant(game), ante=2, bring_in=5, small_bet=20, big_bet=40, stacks=(4000,) * seats
    )


def _folds_later(
    stats: PlayerStats, folds: float, spots: int = 400, streets: Sequence[int] = (4, 5, 6, 7)
) -> None:
    """``spots`` bets faced on each of ``streets``, ``folds`` of them folded."""
    for street in streets:
        stats.faced_at[street] += spots
        stats.folds_at[street] += round(folds * spots)
        stats.faced_later += spots
        stats.folds_later += round(folds * spots)


def test_no_excess_leaves_the_share_standing() -> None:
    shares = np.array([0.1, 0.4, 0.7, 0.95])
    sound = PRIOR_FOLD_LATER
    for rest in [(), ((sound, sound, 0.0),), ((0.2, sound, 0), (sound, sound, 0), (0, sound, 0))]:
        ahead = Ahead(40, 1, rest=rest, rest_bet=40)
        assert np.allclose(ahead.rest_value(shares, 200.0), shares * 200.0)


def test_a_passive_players_bets_take_back_only_part_of_what_betting_on_wins() -> None:
    """A player who folds like a sound one but bets half as often: what betting on wins
    over checking on is half taken back, and less the less he bets; against one who
    hardly folds, betting on wins only with a hand that gets paid."""
    shares = np.array([0.05, 0.3, 0.5, 0.8])
    pot = np.array([100.0, 100.0, 300.0, 300.0])
    plain = shares * pot
    sound = PRIOR_FOLD_LATER

    def value(folds: float, passive: float) -> np.ndarray:
        rest = ((folds, sound, passive),) * 2
        return np.asarray(Ahead(40, 1, rest=rest, rest_bet=40).rest_value(shares, pot))

    half, most = value(sound, 0.5), value(sound, 0.9)
    assert np.all(half >= plain) and np.all(most >= half) and np.any(most > half + 1.0)
    assert np.all(most < plain + pot)
    # He hardly folds: betting on wins only where the share gets paid (value bets).
    sticky = value(0.05, 0.9)
    assert np.allclose(sticky[:3], plain[:3]) and sticky[3] > plain[3] + 10.0


def test_excess_folds_are_worth_betting_on_and_more_so_the_more_he_folds() -> None:
    shares = np.array([0.05, 0.3, 0.5, 0.8])
    pot = np.array([100.0, 100.0, 300.0, 300.0])
    plain = shares * pot
    sound = PRIOR_FOLD_LATER
    some = Ahead(40, 1, rest=((0.5, sound, 0.0),) * 2, rest_bet=40).rest_value(shares, pot)
    many = Ahead(40, 1, rest=((0.8, sound, 0.0),) * 2, rest_bet=40).rest_value(shares, pot)
    assert np.all(some > plain) and np.all(many > some)
    assert many[0] > plain[0] + 0.3 * pot[0]  # a hopeless hand takes the pot by betting
    # Only the excess counts: never the whole pot twice, whatever the folds.
    assert np.all(many < plain + pot)
    # After they raised (they give up nothing then) the share stands.
    raised = Ahead(40, 1, rest=((0.8, sound, 0.0),), rest_raised=((0.1, sound, 0.0),), rest_bet=40)
    assert np.allclose(raised.rest_value(shares, pot, raised=True), plain)


def test_later_folds_are_read_beside_a_sound_players() -> None:
    game = "stud"
    hand = Hand(_config(game), deck=Deck(seed=3))
    seat = hand.to_act
    assert seat is not None
    view = hand.view(seat)
    seen = read_view(view)
    cases = ((0.85, True), (PRIOR_FOLD_LATER - 0.05, False), (0.0, False))
    for folds, expect_excess in cases:
        bot = StrongBot(seed=1)
        bot.reads.update(view)
        _folds_later(bot.reads.stats(1 - seat), folds)
        ranges = [bot._range(seen, opp) for opp in seen.opponents]
        rest = bot._later_folds(seen, ranges)
        assert len(rest) == 3  # 3rd street: after the next street come 5th, 6th and 7th
        for read, sound, passive in rest:
            assert sound == PRIOR_FOLD_LATER
            assert read == pytest.approx(folds, abs=0.03)  # 400 spots outweigh the prior
            assert (read > sound) is expect_excess
            assert passive == 0.0  # never seen opening: a sound player's betting is assumed


def test_a_passive_players_share_of_undone_betting_is_read() -> None:
    """Seen opening the betting a tenth of the times he may (a sound player 40%), he leaves
    three quarters of a sound player's betting undone."""
    hand = Hand(_config("stud"), deck=Deck(seed=3))
    seat = hand.to_act
    assert seat is not None
    view = hand.view(seat)
    seen = read_view(view)
    bot = StrongBot(seed=1)
    bot.reads.update(view)
    stats = bot.reads.stats(1 - seat)
    for street in (4, 5, 6, 7):
        stats.may_open_at[street] += 400
        stats.opens_at[street] += 40
        stats.may_open += 400
        stats.opens += 40
    rest = bot._later_folds(seen, [bot._range(seen, opp) for opp in seen.opponents])
    for _, _, passive in rest:
        assert passive == pytest.approx(0.75, abs=0.03)


def _third_street_facing_completion(game: str) -> tuple[Hand, int]:
    """Heads-up, the bring-in posted and the other seat completed: the bring-in to act."""
    hand = Hand(_config(game), deck=Deck(seed=11))
    bring_in = hand.to_act
    assert bring_in is not None
    hand.act(_first(hand.legal_actions(), ActionKind.BRING_IN))
    hand.act(_first(hand.legal_actions(), ActionKind.COMPLETE))
    assert hand.to_act == bring_in
    return hand, bring_in


@pytest.mark.parametrize("game", GAMES)
def test_calling_is_worth_more_against_a_later_street_folder(game: str) -> None:
    """The same cards, the same run-outs: defending against a completion is worth more when
    the completer gives up most bets from 5th street on than when he defends like a sound
    player (4th street's folds, which the look-ahead's next round uses, are the same)."""
    hand, seat = _third_street_facing_completion(game)
    view = hand.view(seat)
    legal = hand.legal_actions()
    values = {}
    for folds in (0.3, 0.85):
        bot = StrongBot(seed=4)
        bot.reads.update(view)
        stats = bot.reads.stats(1 - seat)
        _folds_later(stats, 0.3, streets=(4,))
        _folds_later(stats, folds, streets=(5, 6, 7))
        bot.choose(view, legal)
        values[folds] = {c.action.kind: c.value for c in bot.last_choices}
    assert values[0.85][ActionKind.CALL] > values[0.3][ActionKind.CALL] + 5.0
    assert values[0.85][ActionKind.FOLD] == values[0.3][ActionKind.FOLD] == 0.0
