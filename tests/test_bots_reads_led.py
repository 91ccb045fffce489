"""Reads by line: 4th-street folds read by whether the player led the betting on 3rd street.

A player who completed or re-raised on 3rd street holds the strong part of his
range into 4th street and rarely gives it up to the next bet; the same player
after only calling folds far more. The reads count the two apart (the spot
"led the betting before this street" of :func:`stud.bots.player_stats.led_before`),
and the strong bot's look-ahead from 3rd street takes the rate of the spot the
opponent is in: a re-raiser of my completion is not modelled as folding 4th
street at his average rate.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from stud.bots import StrongBot, play_hand
from stud.bots.player_stats import PlayerStats, board_spot, led_before
from stud.bots.players import PlayerReads
from stud.bots.seen import read_view
from stud.cards import Deck
from stud.game import Action, ActionKind, Hand, HandView
from test_bots_fold_equity import _config
from test_bots_fold_equity import _first as _pick

GAMES = ("stud", "stud8", "razz")


class ThirdAggressor:
    """Completes or raises on 3rd street with a red door, else calls; on 4th street checks,
    calls a bet after its own 3rd-street wager and folds to one otherwise; then calls down."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        seen = read_view(view)
        if seen.street == 3:
            if seen.mine_up[0] & 2:
                return _pick(legal, ActionKind.COMPLETE, ActionKind.RAISE, ActionKind.CALL)
            return _pick(legal, ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL)
        if seen.street == 4 and seen.to_call > 0 and not seen.my_line.aggressive[3]:
            return _pick(legal, ActionKind.FOLD)
        return _pick(legal, ActionKind.CHECK, ActionKind.CALL)


class Bettor:
    """Posts or calls on 3rd street; bets whenever it may later, else calls."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        if view.street == 3:
            return _pick(legal, ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL)
        return _pick(legal, ActionKind.BET, ActionKind.CALL, ActionKind.CHECK)


def test_led_before_counts_third_street_for_fourth_only() -> None:
    third = [0, 0, 0, 1, 0, 0, 0, 0]
    fourth = [0, 0, 0, 0, 1, 0, 0, 0]
    assert led_before(third, 4) and not led_before(third, 5) and not led_before(third, 7)
    assert not led_before(fourth, 4) and led_before(fourth, 5) and led_before(fourth, 7)
    assert not led_before([0] * 8, 4) and not led_before([0] * 8, 6)


@pytest.mark.parametrize("game", GAMES)
def test_fourth_street_folds_are_read_by_third_street_aggression(game: str) -> None:
    """The aggressor calls every 4th-street bet after wagering on 3rd, folds every other:
    the reads say so, spot by spot, the hand-ending folds included."""
    reads = PlayerReads()
    players = ("aggressor", "bettor")
    for seed in range(80):
        hand = Hand(_config(game), deck=Deck(seed=700 + seed))
        order = players if seed % 2 else players[::-1]
        bots = [ThirdAggressor() if p == "aggressor" else Bettor() for p in order]
        play_hand(hand, bots, order)
        reads.update(hand.view(order.index("bettor")), order)
    stats = reads.players["aggressor"]
    led_rate, led_spots = stats.fold_facing(4, None, True)
    plain_rate, plain_spots = stats.fold_facing(4, None, False)
    assert led_spots >= 10 and plain_spots >= 10
    assert led_spots + plain_spots == stats.faced_at[4]
    for better in (False, True):
        assert stats.folds_board[board_spot(4, better, led=True)] == 0
    assert (
        stats.folds_board[board_spot(4, False)] + stats.folds_board[board_spot(4, True)]
        == plain_spots
    )
    assert led_rate < 0.3 < 0.7 < plain_rate


def _reraised(game: str) -> tuple[Hand, int]:
    """3rd street heads-up: the bring-in completed and the other seat re-raised it; the
    bring-in (returned) is to act."""
    hand = Hand(_config(game), deck=Deck(seed=11))
    seat = hand.to_act
    assert seat is not None
    hand.act(_pick(hand.legal_actions(), ActionKind.COMPLETE))
    hand.act(_pick(hand.legal_actions(), ActionKind.RAISE))
    assert hand.to_act == seat and hand.street == 3
    return hand, seat


def _profile(stats: PlayerStats, *, after_third: float, otherwise: float, spots: int = 300) -> None:
    """Seen facing ``spots`` 4th-street bets after wagering on 3rd street and as many after
    not, folding the given shares of each; he completes and re-raises often (his 3rd-street
    wagers say little, so the range alone cannot tell the two spots apart)."""
    for led, share in ((True, after_third), (False, otherwise)):
        for better in (False, True):
            i = board_spot(4, better, led)
            stats.faced_board[i] += spots // 2
            stats.folds_board[i] += round(share * spots / 2)
    stats.faced_at[4] += 2 * spots
    stats.folds_at[4] += round((after_third + otherwise) * spots)
    stats.faced_later += 2 * spots
    stats.folds_later += round((after_third + otherwise) * spots)
    stats.faced_third += spots
    stats.raises_third += spots // 2


def _call_value(game: str, *, after_third: float, otherwise: float) -> tuple[float, float]:
    """The strong bot's modelled 4th-street fold of the re-raiser, and its value of calling."""
    hand, seat = _reraised(game)
    view = hand.view(seat)
    bot = StrongBot(seed=3)
    bot.reads.update(view)
    _profile(bot.reads.stats(1 - seat), after_third=after_third, otherwise=otherwise)
    seen = read_view(view)
    (opp,) = seen.opponents
    next_fold = bot._range(seen, opp).next_fold_seen
    bot.choose(view, hand.legal_actions())
    call = next(c.value for c in bot.last_choices if c.action.kind is ActionKind.CALL)
    return next_fold, call


@pytest.mark.parametrize("game", GAMES)
def test_a_reraiser_is_modelled_folding_fourth_street_as_seen_after_his_wager(game: str) -> None:
    """Against a player who never gives up 4th street after a 3rd-street wager (though he
    folds it often after calling), continuing against his re-raise is worth less than
    against one who folds there too: the look-ahead's 4th-street folds are his folds in
    that spot, not his average."""
    sticky_fold, sticky_call = _call_value(game, after_third=0.0, otherwise=0.6)
    loose_fold, loose_call = _call_value(game, after_third=0.6, otherwise=0.0)
    assert sticky_fold < 0.05 and loose_fold > 0.55
    assert sticky_call < loose_call - 2.0
