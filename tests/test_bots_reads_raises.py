"""Later play read street by street, answers by how a hand looks, raises as seen.

From 4th street an opponent's play is read by the place of his hand among the
hands that show my board. Each street's play is read on the hand he held
on that street, against my board then (a 4th-street bet says what his first
four cards were, not what a king on 5th made of them). His raise of my wager
is read by the level of the raise he faces (re-raising a raise of his bet is
common, re-raising a re-raise of his raise rare) and, once such spots have
been seen, as seen: the rate was counted over ranges his line had narrowed,
so it is not cut again from his narrowed range; a player never seen raising
is then given next to no chance of raising, however much of his range beats
my board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import pytest

from stud.bots import play_hand
from stud.bots.estimate import Estimator
from stud.bots.narrowing import MAX_LATER_EXPONENT, range_exponent
from stud.bots.players import PlayerReads
from stud.bots.ranges import Range
from stud.bots.seen import Line, Opponent, Seen, read_view
from stud.cards import Deck
from stud.game import Action, ActionKind, Hand, HandView
from test_bots_estimate_board import _cards, _seen
from test_bots_fold_equity import _config
from test_bots_fold_equity import _first as _pick

# My weak board against his strong one, a down pair of mine (4th street, he bet into me).
SPOTS = {
    "razz": ("3h 4h", "Kc Qh", "2c 3d"),
    "stud8": ("3h 4h", "Kc Qh", "2c 3d"),
    "stud": ("9s 4c", "3c 2h", "Ac Kd"),
}


def _spot(game: str) -> Seen:
    down, mine, his = SPOTS[game]
    return _seen(game, down, mine, his, bet=True)


def _answers(seen: Seen, r: Range, samples: int = 4096) -> tuple[float, float]:
    """My share against ``r`` after his bet, and the chance he raises my wager."""
    estimator = Estimator(seen.game, np.random.default_rng(7), samples, sample_starts=True)
    versus = estimator.against(seen, [r], paths=8)
    return versus.now.share, versus.raise_chance


@pytest.mark.parametrize("game", sorted(SPOTS))
def test_a_player_never_seen_raising_hardly_ever_raises_my_bet(game: str) -> None:
    """Most of his range beats my weak board. His read raise rate (0.5%, 400 bets faced),
    applied as a cut in board places, would have every hand that beats all of mine raise;
    counted over ranges his line had narrowed as it has here, it stands as seen."""
    seen = _spot(game)
    (opp,) = seen.opponents
    later = range_exponent(0.4, MAX_LATER_EXPONENT)  # he bet, as a sound player does 40%
    rare = Range(opp, 1.0, 0.0, raises=0.005, later=later)
    _, mapped = _answers(seen, rare)
    _, as_seen = _answers(seen, replace(rare, raise_evidence=400))
    _, often = _answers(seen, Range(opp, 1.0, 0.0, raises=0.3, later=later, raise_evidence=400))
    if game == "razz":
        assert mapped > 0.5  # the cut in board places alone: most of his range "raises"
    assert as_seen < 0.05
    assert often > 0.25  # a raiser still raises


def _fifth(his_up: str) -> tuple[Seen, Range, Range]:
    """Razz, 5th street: he bet 4th street and I called; nobody has acted on 5th yet. His bet
    read on the hand he held then (``later_at``), and on the hand he holds now."""
    line = Line()
    line.calls[3] = line.called_wager[3] = 1
    line.aggressive[4] = 1
    line.opened[4] = True
    opp = Opponent(1, _cards(his_up), [], 2, line, False)
    mine = Line()
    mine.calls[4] = mine.called_wager[4] = 1
    mine.aggressive[3] = 1
    mine.opened[3] = True
    seen = Seen(
        "razz", 0, 5, _cards("4h 5d"), _cards("6c 8s 9d"), [opp], [], None,
        120, 0, 40, 0, mine, {0: mine, 1: line}, 2,
    )  # fmt: skip
    a = range_exponent(0.3, MAX_LATER_EXPONENT)
    return (
        seen,
        Range(opp, 1.0, 0.0, later=a, later_at=((a, 0.0), (0.0, 0.0))),
        Range(opp, 1.0, 0.0, later=a),
    )


def _low_downs(seen: Seen, r: Range) -> float:
    """The chance his two down cards are both six or lower, in his dealt range."""
    estimator = Estimator("razz", np.random.default_rng(11), 256, sample_starts=True)
    live = np.array([c for c in range(52) if c not in seen.known], dtype=np.int64)
    dealing = estimator._pair_range(live, r, True, estimator._board(seen, live), seen.street)
    size = len(live)
    lows = ((live >> 2) + 1) % 13 <= 6  # ace to six
    both = np.logical_and.outer(lows, lows).ravel()
    assert dealing.chance.shape == (size * size,)
    return float(dealing.chance @ both)


def test_a_bet_is_read_on_the_hand_he_held_when_he_made_it() -> None:
    """His 4th-street bet with 2-3 showing said his down cards were low; a king on 5th makes
    every unpaired hand of his alike now, so read on the hand now the bet says only "not
    paired"."""
    seen, by_street, now = _fifth("2c 3d Kh")
    assert _low_downs(seen, by_street) > _low_downs(seen, now) + 0.1


def test_streets_list_each_street_played_and_the_current_one_last() -> None:
    opp = _spot("razz").opponents[0]
    r = Range(opp, 1.0, 0.0, later=3.0, checked=1.0, later_at=((2.0, 0.0), (0.0, 0.0), (1.0, 1.0)))
    assert r.streets(6) == [(4, 2.0, 0.0), (6, 1.0, 1.0)]
    assert r.streets(7) == [(4, 2.0, 0.0), (6, 1.0, 1.0), (7, 0.0, 0.0)]
    assert Range(opp, 1.0, 0.0, later=3.0).streets(5) == [(5, 3.0, 0.0)]


class _Reraiser:
    """Bets whenever it may from 4th street; re-raises a raise of its bet, calls a re-raise of
    its raise (3rd street: posts or calls)."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        seen = read_view(view)
        if seen.street == 3:
            return _pick(legal, ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL)
        if seen.to_call and seen.my_line.aggressive[seen.street] and seen.wagers == 2:
            return _pick(legal, ActionKind.RAISE, ActionKind.CALL)
        return _pick(legal, ActionKind.BET, ActionKind.CALL, ActionKind.CHECK)


class _Raiser:
    """Checks when it may from 4th street, raises every wager it faces (posts or calls 3rd)."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        if view.street == 3:
            return _pick(legal, ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL)
        return _pick(legal, ActionKind.RAISE, ActionKind.CHECK, ActionKind.CALL)


@pytest.mark.parametrize("game", sorted(SPOTS))
def test_re_raises_are_read_by_the_level_of_the_raise_faced(game: str) -> None:
    """He re-raises every raise of his bet and only calls a re-raise of his raise: the reads
    say so level by level, where one rate over both said about half."""
    reads = PlayerReads()
    players = ("reraiser", "raiser")
    for seed in range(40):
        hand = Hand(_config(game), deck=Deck(seed=900 + seed))
        play_hand(hand, [_Reraiser(), _Raiser()], players)
        reads.update(hand.view(1), players)
    stats = reads.players["reraiser"]
    low, high = stats.raised_back_spots(5, False), stats.raised_back_spots(5, True)
    assert low >= 40 and high >= 40
    assert low + high == stats.faced_back
    assert stats.raise_back(5, False) > 0.85
    assert stats.raise_back(5, True) < 0.15
    assert stats.raise_back(5, True) < stats.raise_back(5) < stats.raise_back(5, False)


def test_re_raises_seen_after_his_wager_are_not_cut_again_from_his_narrowed_range() -> None:
    """His bet narrowed his range; his re-raise rate when raised was counted over such ranges,
    so with the spots seen it stands as seen rather than mapped up through the narrowing."""
    seen = _spot("razz")
    (opp,) = seen.opponents
    later = range_exponent(0.1, MAX_LATER_EXPONENT)
    _, mapped = _answers(seen, Range(opp, 1.0, 0.0, raises=0.15, later=later))
    _, as_seen = _answers(
        seen, Range(opp, 1.0, 0.0, raises=0.15, later=later, raise_evidence=10_000)
    )
    assert mapped > 0.3
    assert as_seen == pytest.approx(0.15, abs=0.02)
