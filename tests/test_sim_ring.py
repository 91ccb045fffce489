"""The mixed table (``stud gauntlet GAME --table LINEUP``): every player in every seat."""

from __future__ import annotations

import json

import numpy as np
import pytest

from stud.cli import main
from stud.sim.duplicate import MatchConfig, play_match
from stud.sim.ring import RingConfig, play_ring, ring_table


@pytest.mark.slow
def test_a_mixed_table_plays_every_deal_from_every_seat_and_conserves_chips() -> None:
    config = RingConfig("stud", ("strong", "tag", "strong", "maniac"), deals=6, seed=2)
    result = play_ring(config)
    assert result.net.shape == (6, 4, 4) and result.hands == 24
    assert np.all(result.net.sum(axis=2) == 0)  # chips conserved in every hand
    assert result.luck is not None
    assert np.allclose(result.luck.sum(axis=2), 0)  # luck sums to zero over a hand, as chips do
    # Rates per seat: the line-up's seats weighted, they cancel like the chips.
    seats = {bot: config.players.count(bot) for bot in config.bots}
    total = sum(seats[b] * result.rate(b).bb_per_100 for b in config.bots)
    assert total == pytest.approx(0, abs=1e-9)
    margin = result.margin("strong", "maniac")
    expected = result.rate("strong").bb_per_100 - result.rate("maniac").bb_per_100
    assert margin.bb_per_100 == pytest.approx(expected)
    assert result.margin("strong", "maniac", adjusted=True).ci95 > 0


def test_two_players_are_exactly_the_duplicate_match() -> None:
    """A table of two is the gauntlet's heads-up match: same seeds, same deals, same chips."""
    ring = play_ring(RingConfig("razz", ("strong", "stealer"), deals=4, seed=9))
    match = play_match(MatchConfig("razz", "strong", "stealer", deals=4, seats=2, seed=9))
    assert np.array_equal(ring.net, match.net)
    assert ring.luck is not None and match.luck is not None
    assert np.allclose(ring.luck, match.luck)
    assert ring.rate("strong").bb_per_100 == pytest.approx(match.hero_rate().bb_per_100)


def test_the_result_is_the_same_whatever_the_workers() -> None:
    config = RingConfig("stud8", ("tag", "nit", "station"), deals=700, seed=3, luck=False)
    assert len(config.sessions()) == 2  # 666 deals a session at three seats
    short = RingConfig("stud8", ("tag", "nit", "station"), deals=4, seed=3, luck=False)
    one = play_ring(short, workers=1)
    two = play_ring(short, workers=2)
    assert np.array_equal(one.net, two.net)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (("strong",), "2 to 8 players, not 1"),
        (("strong",) * 9, "2 to 8 players, not 9"),
        (("tag", "tag", "tag"), "at least two different bots"),
        (("strong", "shark"), "unknown bot 'shark'"),
    ],
)
def test_a_bad_line_up_is_named(players: tuple[str, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        RingConfig("stud", players, deals=1)


def test_a_bot_not_at_the_table_is_named() -> None:
    result = play_ring(RingConfig("stud", ("tag", "nit"), deals=1, luck=False))
    with pytest.raises(ValueError, match="'maniac' does not sit at this table"):
        result.rate("maniac")
    with pytest.raises(ValueError, match="without measuring luck"):
        result.rate("tag", adjusted=True)
    assert "luck-adjusted" not in ring_table(result, "tag")


def test_the_table_option(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["gauntlet", "razz", "--table", "strong,tag,strong,nit", "--deals", "2", "--seed", "1"]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"] == ["strong", "tag", "strong", "nit"]
    assert data["hands"] == 8 and data["chips"] == 0
    assert [(b["bot"], b["seats"]) for b in data["bots"]] == [("strong", 2), ("tag", 1), ("nit", 1)]
    assert "margin" not in data["bots"][0] and "margin" in data["bots"][1]
    assert main([*argv, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "| tag | 1 |" in out and "strong minus it (adjusted)" in out
    assert "chips conserved: yes" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--table", "strong,tag", "--out", "x.jsonl"], "--out is for the gauntlet's matches"),
        (["--table", "strong,tag", "--reference", "nit"], "--reference is for the gauntlet"),
        (["--table", "strong,shark"], "unknown bot 'shark'"),
        (["--table", "strong,tag", "--jobs", "0"], "--jobs"),
    ],
)
def test_the_table_option_names_bad_input(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["gauntlet", "stud", *argv]) == 2
    assert message in capsys.readouterr().err
