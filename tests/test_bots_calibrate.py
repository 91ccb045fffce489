"""The strong bot checks its model of each opponent's folds against his answers.

Each time it wagers it writes down the model's chance that every live
opponent folds, and sets his answer (fold, or call or raise) against it; the
gap, one shift of the model's log-odds per street shrunk towards the shift
over all streets, moves the model to what that player does
(:mod:`stud.bots.calibrate`, :mod:`stud.bots.answers`).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import pytest

from stud.bots import Bot, StationBot, StrongBot, play_hand
from stud.bots.answers import Answer, answer
from stud.bots.calibrate import KEPT, FoldCalibration, expit, shifted
from stud.cards import Deck
from stud.game import Acted, Action, ActionKind, Hand, HandView, StreetStarted
from test_bots_fold_equity import _config, _first

GAMES = ("stud", "stud8", "razz")


def test_without_answers_the_model_stands() -> None:
    calibration = FoldCalibration()
    assert calibration.shift(5) == 0.0
    assert shifted(0.3, calibration.shift(5)) == 0.3


def test_the_shift_moves_the_model_to_what_he_does_as_answers_accumulate() -> None:
    """The model said 20%; he folds half the time. Six answers move it part of the way
    (about 39%), many answers all the way (a nit whose folds the model under-read)."""
    few, many = FoldCalibration(), FoldCalibration()
    for i in range(6):
        few.add(6, False, 0.2, i % 2 == 0)
    for i in range(400):
        many.add(6, False, 0.2, i % 2 == 0)
    assert 0.3 < shifted(0.2, few.shift(6)) < 0.45
    assert shifted(0.2, many.shift(6)) == pytest.approx(0.5, abs=0.03)
    # Folding less than the model said moves it down.
    sticky = FoldCalibration()
    for i in range(400):
        sticky.add(5, False, 0.6, i % 10 == 0)
    assert shifted(0.6, sticky.shift(5)) == pytest.approx(0.1, abs=0.03)


def test_a_street_without_answers_takes_the_shift_over_all_streets() -> None:
    calibration = FoldCalibration()
    for i in range(200):
        calibration.add(5, False, 0.2, i % 2 == 0)
    pooled = calibration.shift(7)
    assert pooled > 0.5
    assert calibration.shift(5) >= pooled  # its own answers, the pooled shift as its prior
    assert calibration.shift(7, back=True) == 0.0  # raised after wagering: another spot
    assert calibration.answers() == 200 and calibration.answers(7) == 0


def _acted(seat: int, kind: ActionKind, to: int) -> Acted:
    return Acted(seat=seat, kind=kind, amount=to, to=to, by=0, all_in=False)


def test_an_answer_is_his_next_action_to_my_wager_alone() -> None:
    street = StreetStarted(street=5)
    mine = _acted(0, ActionKind.BET, 40)
    events = [street, mine, _acted(1, ActionKind.CALL, 40), _acted(2, ActionKind.FOLD, 0)]
    assert answer(events, 1, 0, 1) is Answer.STAYED
    assert answer(events, 1, 0, 2) is Answer.FOLDED
    assert answer(events[:3], 1, 0, 2) is Answer.PENDING
    raised = [street, mine, _acted(1, ActionKind.RAISE, 80), _acted(2, ActionKind.FOLD, 0)]
    assert answer(raised, 1, 0, 2) is Answer.VOID  # he folded to a raise, not to my bet
    assert answer(events, 2, 0, 2) is Answer.VOID  # the event there is not my wager


class _GivesUp:
    """Calls on 3rd street; from 4th folds to every wager and checks when it may."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        if view.street == 3:
            return _first(legal, ActionKind.BRING_IN, ActionKind.CALL, ActionKind.CHECK)
        return _first(legal, ActionKind.CHECK, ActionKind.FOLD)


def _play(game: str, villain: Bot, hands: int = 60) -> StrongBot:
    bot = StrongBot(seed=3, samples=128, paths=4)
    for i in range(hands):
        seats: list[Bot] = [bot, villain] if i % 2 == 0 else [villain, bot]
        hand = Hand(_config(game), Deck(seed=100 + i))
        play_hand(hand, seats, ["bot", "villain"] if i % 2 == 0 else ["villain", "bot"])
    return bot


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_bot_reads_a_quitters_answers_and_moves_its_model_up(game: str) -> None:
    """Every wager of the bot from 4th street is folded to: the answers are counted with
    the identity of the player (whatever his seat), and the model's fold chance rises."""
    bot = _play(game, _GivesUp())
    calibration = bot.reads.players["villain"].calibration
    later = [calibration.answers(street) for street in range(4, 8)]
    assert sum(later) >= 10
    folded = [f for s in range(4, 8) for _, f, _ in calibration.points.get((s, False), [])]
    assert all(folded)
    assert all(calibration.shift(street) > 0.25 for street in range(4, 8))
    for street in range(4, 8):
        points = list(calibration.points.get((street, False), ()))
        if len(points) >= 5:  # the model's chances, moved up towards the folds seen
            model = sum(expit(x) for x, _, _ in points) / len(points)
            moved = sum(expit(x + calibration.shift(street)) for x, _, _ in points) / len(points)
            assert model < moved < 1.0 and 1.0 - moved < 0.8 * (1.0 - model)
    assert "bot" not in bot.reads.players


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_the_bot_reads_a_callers_answers_and_moves_its_model_down(game: str) -> None:
    bot = _play(game, StationBot())
    calibration = bot.reads.players["villain"].calibration
    assert calibration.answers() >= 10
    assert not any(f for v in calibration.points.values() for _, f, _ in v)
    assert all(calibration.shift(street) < 0 for street in range(4, 8))


def test_only_the_latest_answers_are_kept() -> None:
    """A bot that sits for days keeps a bounded record and follows a player who changes:
    he folded at first, then stopped."""
    calibration = FoldCalibration()
    for _ in range(KEPT):
        calibration.add(5, False, 0.3, True)
    for _ in range(KEPT):
        calibration.add(5, False, 0.3, False)
    assert calibration.answers(5) == KEPT
    assert shifted(0.3, calibration.shift(5)) < 0.01


def _hands(calibration: FoldCalibration, hands: int, folded: bool, keep: float) -> None:
    """``hands`` hands of his, one answer each on 5th street to a 30% model chance."""
    for _ in range(hands):
        calibration.decay(keep)
        calibration.add(5, False, 0.3, folded)


def test_answers_forget_at_the_reads_half_life() -> None:
    """He folded to everything for 300 hands, then called everything for 300: read with a
    half-life of 100 hands, his last 300 hands outweigh the 300 before them eight to one, and
    the model is moved under its own 30%; pooled, the old folds hold it near the middle."""
    keep = 0.5 ** (1 / 100)
    forgets, pools = FoldCalibration(), FoldCalibration()
    for calibration, factor in ((forgets, keep), (pools, 1.0)):
        _hands(calibration, 300, True, factor)
        _hands(calibration, 300, False, factor)
    assert shifted(0.3, forgets.shift(5)) < 0.15
    assert 0.35 < shifted(0.3, pools.shift(5)) < 0.65
    # About ten half-lives on, an answer no longer counts and is dropped.
    assert forgets.answers(5) == 600
    for _ in range(1000):
        forgets.decay(keep)
    assert forgets.answers() == 0 and forgets.shift(5) == 0.0


def test_a_stranger_is_checked_as_the_population_is() -> None:
    """The population folded more than the model said: a player with no answers yet starts
    from the population's shift, and his own answers take over as they come."""
    population = FoldCalibration()
    for i in range(400):
        population.add(5, False, 0.2, i % 2 == 0)
    stranger = FoldCalibration(prior=population)
    assert stranger.shift(6) == pytest.approx(population.pooled(), abs=1e-9)
    assert shifted(0.2, stranger.shift(6)) > 0.4
    for _ in range(400):
        stranger.add(6, False, 0.2, False)
    assert shifted(0.2, stranger.shift(6)) < 0.05


def test_thousands_of_answers_at_a_clipped_chance_give_a_finite_shift() -> None:
    """All folds where the model said 1%, all calls where it said 99%: the likelihood's
    curvature vanishes there, and the fit still moves each street the right way, by a
    finite amount, without overflow (run with warnings as errors)."""
    calibration = FoldCalibration()
    for _ in range(KEPT):
        calibration.add(5, False, 0.01, True)
        calibration.add(6, False, 0.99, False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        up, down = calibration.shift(5), calibration.shift(6)
    assert 4.0 < up < 20.0 and -20.0 < down < -4.0
    assert shifted(0.01, up) > 0.5 and shifted(0.99, down) < 0.5
