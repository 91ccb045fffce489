"""The estimator: who acts first along each path, later play read against my board.

An opponent's later bets and calls are read by how his hand stands against the
hands that show my board (a player who bets by what he sees bets more of his
range into a weak board than into a scary one), and along each path of the next
street the opponents bet first or into my check at the rate of that position.
"""

from __future__ import annotations

import numpy as np
import pytest

from stud.bots.estimate import Estimator
from stud.bots.ranges import Range, _against
from stud.bots.seen import Line, Opponent, Seen
from stud.cards import parse_cards


def _cards(text: str) -> list[int]:
    return [int(card) for card in parse_cards(text)]


def _seen(game: str, mine_down: str, mine_up: str, theirs_up: str, *, bet: bool = True) -> Seen:
    """4th street heads-up: I checked, he bet (or checked) into me."""
    line = Line()
    line.calls[3] = 1
    line.called_wager[3] = 1
    if bet:
        line.aggressive[4] = 1
        line.opened[4] = True
    else:
        line.checks[4] = 1
    opp = Opponent(1, _cards(theirs_up), [], 2, line, False)
    mine = Line()
    mine.aggressive[3] = 1
    mine.opened[3] = True
    return Seen(
        game, 0, 4, _cards(mine_down), _cards(mine_up), [opp], [], None,
        60, 20 if bet else 0, 20, int(bet), mine, {0: mine, 1: line}, 2,
    )  # fmt: skip


def test_against_gives_the_share_of_the_board_beaten_and_tied() -> None:
    board = np.array([0.1, 0.2, 0.2, 0.5])
    low, high = _against(np.array([0.05, 0.2, 0.6]), board)
    assert low.tolist() == pytest.approx([0.0, 0.25, 1.0])
    assert high.tolist() == pytest.approx([0.0, 0.75, 1.0])


@pytest.mark.parametrize("game", ["razz", "stud"])
def test_who_acts_first_follows_the_boards_path_by_path(game: str) -> None:
    """With a far better board I act first on the next street along almost every path."""
    strong_board, weak_board = ("As 2d", "Kc Qh") if game == "razz" else ("Ac Ad", "3c 7h")
    rng = np.random.default_rng(1)
    estimator = Estimator(game, rng, 256)
    firsts = []
    for mine_up, theirs_up in ((strong_board, weak_board), (weak_board, strong_board)):
        seen = _seen(game, "4c 5d" if game == "razz" else "9s Ts", mine_up, theirs_up)
        opp = seen.opponents[0]
        run = estimator._run(seen, [Range(opp, 1.0, 0.0)], 256, 8)
        assert run.first is not None and run.first.shape == (8,)
        firsts.append(run.first.mean())
    assert firsts[0] >= 0.75 and firsts[1] <= 0.25


@pytest.mark.parametrize("game", ["razz", "stud"])
def test_a_bet_read_against_my_board_narrows_his_range_whatever_the_board(game: str) -> None:
    """His later bet is read by how his hand stands against the hands showing my board: a
    bet costs me share against a check, into my scary board as into a weak one."""
    scary, weak = ("As 2d", "Kc Qh") if game == "razz" else ("Ac Kd", "3c 2h")
    his = "7c 8d" if game == "razz" else "Tc Jd"
    down = "3h 4h" if game == "razz" else "9s 4c"
    gaps = []
    for mine_up in (scary, weak):
        shares = []
        for bet in (True, False):
            seen = _seen(game, down, mine_up, his, bet=bet)
            opp = seen.opponents[0]
            later = 2.0 if bet else 0.0
            checked = 0.0 if bet else 1.0
            rng = np.random.default_rng(7)
            estimator = Estimator(game, rng, 4096, sample_starts=True)
            r = Range(opp, 1.0, 0.0, later=later, checked=checked)
            shares.append(estimator.against(seen, [r]).now.share)
        gaps.append(shares[1] - shares[0])  # how much his bet (against his check) costs me
    assert gaps[0] > 0.02 and gaps[1] > 0.02
