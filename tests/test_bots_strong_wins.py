"""The strong bot beats random and the calling station in every game, significantly.

A seeded few thousand hands heads-up per match: the 95% interval of the strong
bot's win rate (big bets per 100 hands) must lie above zero.
"""

from __future__ import annotations

import pytest

from stud.sim import SimConfig, player_rates, simulate

HANDS = 1500


@pytest.mark.slow
@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
@pytest.mark.parametrize("opponent", ["random", "station"])
def test_strong_beats(game: str, opponent: str) -> None:
    result = simulate(SimConfig(game, ("strong", opponent), hands=HANDS, seed=2024))
    strong, other = player_rates(result)
    assert strong.low > 0, f"{game} vs {opponent}: {strong.bb_per_100:+.1f} ± {strong.ci95:.1f}"
    assert other.high < 0
