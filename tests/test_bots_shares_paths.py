"""On the look-ahead's next street, opponents answer by how their hand looks.

Ranking an opponent's hands half by how each run-out ends against mine would
rank by the outcome (a run-out's share is 0, 1/2 or 1): he would fold exactly
the hands I beat and call with exactly the ones that beat me. He ranks by his
hand's strength; the outcome only breaks ties.
"""

from __future__ import annotations

import numpy as np

from stud.bots.shares import Run


def _run(strengths: list[float], shares: list[float], groups: int = 2) -> Run:
    n = len(shares)
    return Run(
        share=np.asarray(shares, dtype=np.float64),
        weights=np.ones(n),
        strengths=np.asarray([strengths], dtype=np.float64),
        low_share=None,
        groups=groups,
    )


def test_he_folds_the_hands_that_look_weakest_even_where_they_would_win() -> None:
    """Each path holds two hands of his that look strong and lose to mine, and two that look
    weak and beat mine. Folding half his hands, he folds the weak-looking ones: my share
    against his callers is 1 on every path, and his bets come from the strong-looking ones."""
    strengths = [0.9, 0.8, 0.2, 0.1] * 2
    shares = [1.0, 1.0, 0.0, 0.0] * 2  # my share: I beat his strong-looking hands
    paths = _run(strengths, shares).paths([0.5], [(0.5, 0.5)])
    assert paths.share.tolist() == [0.5, 0.5]
    assert np.allclose(paths.fold, 0.5)
    assert np.all(paths.called > 0.9)
    assert np.all(paths.bet_share > 0.9)
    assert np.all(paths.quiet_share < 0.1)


def test_the_outcome_breaks_ties_between_hands_that_look_the_same() -> None:
    """All his hands look alike: he folds the ones that end worst for him first."""
    paths = _run([0.5] * 8, [1.0, 0.0, 1.0, 0.0] * 2).paths([0.5], [(0.0, 0.0)])
    assert np.all(paths.called < 0.1)
