"""Razz play read by hands ranked as draws while cards are to come.

Ranked by its fifth-best low, every 5th-street razz hand with a king up is
alike, whatever its down cards: a bet would say nothing of the down cards,
and the strong bot would read a range as wide as before it. Ranked as draws
(:func:`stud.bots.strength.low_draw_strength`), a bet behind a king narrows
his down cards.
"""

from __future__ import annotations

import numpy as np
import pytest

from stud.bots.estimate import Estimator
from stud.bots.ranges import Range
from stud.bots.seen import Line, Opponent, Seen
from stud.bots.strength import low_draw_strength, low_strength, strength
from stud.cards import parse_cards


def _hands(*texts: str) -> np.ndarray:
    return np.array([[int(card) for card in parse_cards(text)] for text in texts])


def test_a_razz_hand_with_cards_to_come_is_ranked_by_its_draw() -> None:
    # 5th street, the same K-4-6 up: a four-card 6-low draw, then worse draws.
    ranked = low_draw_strength(
        _hands("2c 3d Kh 4s 6c", "7c 8d Kh 4s 6c", "9c Td Kh 4s 6c"), eight=False
    )
    assert ranked[0] > ranked[1] > ranked[2]
    paired = low_draw_strength(_hands("4c 4d Kh 4s 6c", "Ac 2d Kh Ks 6c"), eight=False)
    # A-2-6 with a pair of kings is a king draw; three fours lack a fourth low altogether.
    assert ranked[2] > paired[1] > paired[0]
    # The old ranking sees the king alone: all of them alike.
    assert len(set(low_strength(_hands("2c 3d Kh 4s 6c", "9c Td Kh 4s 6c"), eight=False))) == 1
    # Ties of the highest card are broken by the lower ones.
    ties = low_draw_strength(_hands("Ac 2d 3h 7s", "Ac 2d 5h 7s", "Ac 4d 5h 7s"), eight=False)
    assert ties[0] > ties[1] > ties[2]
    assert np.all((ties > 0) & (ties <= 1))


def test_a_complete_razz_hand_is_ranked_by_its_five_best_lows_as_before() -> None:
    hands = _hands("Ac 2d 3h 4s 5c Kd Qh", "Ac 2d 3h 4s 7c Kd Qh", "Ac 2d 3h 4s 7c 8d 8h")
    drawn, made = low_draw_strength(hands, eight=False), low_strength(hands, eight=False)
    assert drawn[0] > drawn[1] and made[0] > made[1]
    assert drawn[1] == pytest.approx(drawn[2]) and made[1] == made[2]  # 7-4-3-2-A both


def test_a_stud8_low_draw_counts_behind_a_high_up_card() -> None:
    """Stud8's low half: A-2 under K-4-6 is a four-card 6-low draw, 9-T under it no low at all;
    before, both were "no low" alike, and a bet could not tell them apart."""
    hands = _hands("Ac 2d Kh 4s 6c", "7c 8d Kh 4s 6c", "9c Td Kh 4s 6c")
    drawn = low_draw_strength(hands, eight=True)
    assert drawn[0] > drawn[1] > 0.1 > 0.05 > drawn[2] >= 0
    assert len(set(low_strength(hands, eight=True))) == 1
    # Seven cards: an 8-low made is a low, a hand of two low cards is not.
    made = low_draw_strength(_hands("Ac 2d 3h 4s 8c Kd Qh", "Ac 2d 9h Ts Jc Kd Qh"), eight=True)
    assert made[0] > 0.1 > made[1]
    whole = strength("stud8", hands, draws=True)
    assert whole[0] > whole[2]


def _fifth(bet: bool) -> Seen:
    """5th street heads-up: K-4-6 up on his side; I checked my A-2-3 board, he bet or checked."""
    line = Line()
    line.calls[3] = line.called_wager[3] = 1
    line.calls[4] = line.called_wager[4] = 1
    if bet:
        line.aggressive[5] = 1
        line.opened[5] = True
    else:
        line.checks[5] = 1
    opp = Opponent(1, [int(c) for c in parse_cards("4d Kh 6c")], [], 2, line, False)
    mine = Line()
    mine.aggressive[3] = mine.aggressive[4] = 1
    mine.opened[3] = mine.opened[4] = True
    mine.checks[5] = 1
    return Seen(
        "razz", 0, 5, [int(c) for c in parse_cards("9h Th")],
        [int(c) for c in parse_cards("As 2d 3c")], [opp], [], None,
        120, 40 if bet else 0, 40, int(bet), mine, {0: mine, 1: line}, 2,
    )  # fmt: skip


def test_his_bet_behind_a_king_narrows_his_down_cards_read_as_draws() -> None:
    """His 5th-street bet costs me share against his check only when his hands are read as
    draws: ranked by the king, every one of them stands alike against my board."""
    gaps = {}
    for draws in (False, True):
        shares = []
        for bet in (True, False):
            seen = _fifth(bet)
            opp = seen.opponents[0]
            estimator = Estimator("razz", np.random.default_rng(5), 4096, sample_starts=True,
                                  draws=draws)  # fmt: skip
            r = Range(opp, 0.5, 0.0, later=2.0 if bet else 0.0, checked=0.0 if bet else 1.0)
            shares.append(estimator.against(seen, [r]).now.share)
        gaps[draws] = shares[1] - shares[0]
    assert gaps[True] > 0.05
    assert gaps[True] > gaps[False] + 0.03
