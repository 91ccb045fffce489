"""The strong bot's thinking is bounded: counted in evaluator calls and rows, never in seconds.

Wall times belong in bench/bench_bots.py; here each decision's work is counted:
at most one Monte Carlo estimate (one batch evaluation per pot half) of at
most ``samples x players`` hands, and most decisions need less.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from stud.bots import StrongBot, play_hand
from stud.bots import estimate as estimate_module
from stud.cards import Deck
from stud.game import Action, Hand, HandView, TableConfig, variant


class Meter:
    """Counts batch-evaluator calls and the hands they score."""

    def __init__(self) -> None:
        self.calls = 0
        self.rows = 0

    def wrap(self, f: Callable[[npt.NDArray[np.integer]], Any]) -> Callable[..., Any]:
        def counted(hands: npt.NDArray[np.integer]) -> Any:
            self.calls += 1
            self.rows += len(hands)
            return f(hands)

        return counted


class MeteredBot(StrongBot):
    """The strong bot, with the work of each decision written down."""

    def __init__(self, seed: int, meter: Meter, log: list[tuple[int, int, int]]) -> None:
        super().__init__(seed)
        self.meter = meter
        self.log = log

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        calls, rows = self.meter.calls, self.meter.rows
        choice = super().choose(view, legal)
        self.log.append((self.meter.calls - calls, self.meter.rows - rows, len(legal)))
        return choice


@pytest.mark.slow
@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
@pytest.mark.parametrize("players", [2, 6])
def test_each_decision_costs_at_most_one_estimate(
    game: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    meter = Meter()
    for name in ("high_values", "razz_values", "eight_low_values"):
        monkeypatch.setattr(estimate_module, name, meter.wrap(getattr(estimate_module, name)))
    log: list[tuple[int, int, int]] = []
    config = TableConfig(
        game=variant(game), ante=2, bring_in=5, small_bet=20, big_bet=40, stacks=(4000,) * players
    )
    for seed in range(30 if players == 2 else 12):
        bots = [MeteredBot(seed * 10 + s, meter, log) for s in range(players)]
        play_hand(Hand(config, deck=Deck(seed=seed)), bots)
    per_estimate = 2 if game == "stud8" else 1
    samples = StrongBot().samples
    assert len(log) > 40
    for calls, rows, options in log:
        assert calls in (0, per_estimate)
        assert rows <= per_estimate * samples * players
        if options == 1:
            assert calls == 0  # a single option (a forced bring-in, say) is free
    spread = Counter(calls for calls, _, _ in log)
    assert spread[per_estimate] > 0
