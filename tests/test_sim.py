"""The simulator: reproducible, zero-sum, fair seats, honest intervals."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from stud.bots import registry
from stud.bots.simple import StationBot
from stud.game import Action, HandView
from stud.sim import CHUNK, SimConfig, Stakes, bot_rates, player_rates, simulate, summary
from stud.sim.stats import labels, rate


@pytest.mark.slow
def test_same_seed_same_hands_whatever_the_workers() -> None:
    config = SimConfig("stud8", ("random", "station", "random"), hands=2 * CHUNK + 17, seed=9)
    one = simulate(config, workers=1)
    again = simulate(config, workers=1)
    two = simulate(config, workers=2)
    assert one.net.shape == (2 * CHUNK + 17, 3)
    assert np.array_equal(one.net, again.net)
    assert np.array_equal(one.net, two.net)
    other = simulate(SimConfig("stud8", config.bots, hands=config.hands, seed=10))
    assert not np.array_equal(one.net, other.net)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_every_hand_is_zero_sum(game: str) -> None:
    result = simulate(SimConfig(game, ("strong", "random", "station"), hands=60, seed=1))
    assert (result.net.sum(axis=1) == 0).all()
    assert result.net.any()


class SeatSpy(StationBot):
    """A calling station that notes which seat it was given, player by player."""

    made: list[SeatSpy] = []  # noqa: RUF012 - the test reads every instance, in order

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.seats: Counter[int] = Counter()
        SeatSpy.made.append(self)

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        if view.street == 3 and not any(
            getattr(e, "seat", None) == view.viewer and hasattr(e, "kind") for e in view.events
        ):
            assert view.viewer is not None
            self.seats[view.viewer] += 1  # first action of this hand
        return super().choose(view, legal)


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[type[SeatSpy]]:
    SeatSpy.made = []
    monkeypatch.setitem(registry.BOTS, "spy", SeatSpy)
    yield SeatSpy


def test_players_take_every_seat_equally(spy: type[SeatSpy]) -> None:
    players = 3
    hands = 3 * 40
    simulate(SimConfig("razz", ("spy",) * players, hands=hands, seed=4))
    per_player: list[Counter[int]] = [Counter() for _ in range(players)]
    for i, bot in enumerate(spy.made):
        per_player[i % players].update(bot.seats)
    for counts in per_player:
        assert counts == {seat: hands // players for seat in range(players)}


def test_rate_interval_matches_the_normal_formula() -> None:
    rng = np.random.default_rng(3)
    data = rng.normal(0.5, 2.0, 40_000)
    r = rate("x", "x", data, 4)
    assert r.bb_per_100 == pytest.approx(100 * data.mean())
    assert r.ci95 == pytest.approx(100 * 1.96 * 2.0 / np.sqrt(len(data)), rel=0.05)
    assert r.significant and r.low > 0
    flat = rate("y", "y", np.zeros(100), 2)
    assert flat.ci95 == 0 and not flat.significant


def test_rates_and_summary() -> None:
    result = simulate(SimConfig("razz", ("station", "random", "station"), hands=90, seed=2))
    players = player_rates(result)
    assert [p.label for p in players] == ["station#1", "random", "station#2"]
    assert sum(p.total_bb for p in players) == pytest.approx(0)
    by_bot = bot_rates(result)
    assert [b.label for b in by_bot] == ["station", "random"]
    assert by_bot[0].total_bb == pytest.approx((players[0].total_bb + players[2].total_bb) / 2)
    data = summary(result)
    assert data["hands"] == 90 and data["big_bet"] == 40 and len(data["players"]) == 3


def test_labels() -> None:
    assert labels(("a", "b", "a", "a")) == ["a#1", "b", "a#2", "a#3"]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="2 to 8 players"):
        SimConfig("razz", ("strong",), hands=10)
    with pytest.raises(ValueError, match="unknown bot"):
        SimConfig("razz", ("strong", "fish"), hands=10)
    with pytest.raises(ValueError, match="at least 1"):
        SimConfig("razz", ("strong", "random"), hands=0)
    with pytest.raises(ValueError, match="unknown game"):
        SimConfig("holdem", ("strong", "random"), hands=10)
    with pytest.raises(ValueError, match="bring_in"):
        SimConfig("razz", ("strong", "random"), hands=10, stakes=Stakes(1, 30, 20, 40))
    with pytest.raises(ValueError, match="ANTE/BRING-IN/SMALL/BIG"):
        Stakes.parse("1/2/3")
    assert Stakes.parse("1/5/20/40") == Stakes(1, 5, 20, 40)


def test_workers_play_bots_registered_by_a_preloaded_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "extra_bots_for_test.py").write_text(
        "from stud.bots.registry import BOTS\n"
        "from stud.bots.simple import StationBot\n"
        "BOTS['calling'] = StationBot\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(registry.BOTS, "calling", StationBot)  # for the check in SimConfig
    config = SimConfig("razz", ("calling", "random"), hands=CHUNK + 5, seed=3)
    two = simulate(config, workers=2, preload=["extra_bots_for_test"])
    one = simulate(SimConfig("razz", ("station", "random"), hands=CHUNK + 5, seed=3))
    assert np.array_equal(two.net, one.net)  # the registered bot is the station, seat for seat
