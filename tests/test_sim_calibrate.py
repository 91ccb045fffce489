"""The calibration diagnosis: every hand and decision accounted for, the values honest.

A small heads-up duplicate match of the strong bot with every decision
logged (:mod:`stud.sim.calibrate`): the endings add up to the hands and to
the hero's result, each side's decisions are counted by situation, a fold
realizes exactly nothing, and the report names what it shows.
"""

from __future__ import annotations

import pytest

from stud.sim.calibrate import calibrate, calibration_report
from stud.sim.duplicate import MatchConfig, play_match


def test_a_calibrated_match_accounts_for_every_hand_and_decision() -> None:
    config = MatchConfig("razz", "strong", "stealer", deals=12, seats=2, seed=4)
    log = calibrate(config)
    assert log.hands == 24 == sum(log.endings.values())
    assert len(log.hero_bb) == 12
    # The endings' chips are the hero's whole result.
    assert sum(log.ending_bb.values()) == pytest.approx(2 * sum(log.hero_bb))
    # The same deals and seeds as the plain duplicate match: the same result.
    plain = play_match(config)
    assert sum(log.hero_bb) / 12 == pytest.approx(plain.net[:, :, 0].mean() / 40)
    hero, villain = log.actions["hero"], log.actions["villain"]
    assert any(where.startswith("3-") for where, _ in hero)
    assert sum(villain.values()) > 0
    assert log.values, "the strong bot's weighed values are logged"
    for (_, kind), tally in log.values.items():
        assert tally.count > 0
        if kind == "FOLD":
            assert tally.realized == 0 == tally.predicted  # a fold wins and costs nothing more
    report = calibration_report(log, least=1)
    assert "strong vs stealer" in report and "predicted" in report and "3-open" in report


def test_calibration_is_heads_up_only() -> None:
    with pytest.raises(ValueError, match="heads-up"):
        calibrate(MatchConfig("stud", "strong", "tag", deals=2, seats=6))
