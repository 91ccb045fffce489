"""``stud equity``: the table, JSON for programs, errors, workers and seeds."""

from __future__ import annotations

import json

import pytest

from stud.cli import main


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["equity", *argv, "--json"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_issue_example_sampled_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("razz", "As 2d | 3c", "?? | Kh", "--dead", "7c 8d", "--samples", "30000")
    data = _json(capsys, *args, "--seed", "4")
    assert data["game"] == "razz" and data["method"] == "sampled" and data["seed"] == 4
    assert data["runouts"] == 30_000 and data["dead"] == "7c 8d"
    players = data["players"]
    assert isinstance(players, list) and len(players) == 2
    assert players[0]["hand"] == "As 2d | 3c" and players[1]["hand"] == "?? ?? | Kh"
    assert players[0]["equity"] + players[1]["equity"] == pytest.approx(1.0)
    assert players[0]["equity"] > 0.6  # A-2-3 against a king
    assert all("stderr" in p for p in players)
    # The same seed gives the same numbers, with more workers too.
    assert _json(capsys, *args, "--seed", "4", "--workers", "2") == data


def test_exact_stud8_table(capsys: pytest.CaptureFixture[str]) -> None:
    hands = ["As 2s | 3s 4d 9c 9d", "Kc Kd | Ks 7h 8h 2c"]
    assert main(["equity", "stud8", *hands]) == 0
    out = capsys.readouterr().out
    for word in ("Stud Hi/Lo equity", "win", "tie", "equity", "high", "low", "scoop"):
        assert word in out
    assert "exact: 1,560 run-outs" in out
    data = _json(capsys, "stud8", *hands)
    assert data["method"] == "exact" and data["runouts"] == 1560
    players = data["players"]
    assert isinstance(players, list)
    for p in players:
        assert p["high"] + p["low"] == pytest.approx(p["equity"])
        assert "stderr" not in p


def test_exact_flag_forces_enumeration(capsys: pytest.CaptureFixture[str]) -> None:
    hands = ["As Ks | Qs Jd 9c", "2c 2d | 7h 8h 9h"]
    data = _json(capsys, "stud", *hands, "--exact-limit", "10", "--samples", "5000")
    assert data["method"] == "sampled"
    data = _json(capsys, "stud", *hands, "--exact-limit", "10", "--exact")
    assert data["method"] == "exact" and data["runouts"] == 671_580


def test_sampled_table_shows_error_and_seed(capsys: pytest.CaptureFixture[str]) -> None:
    hands = ["As Ks | Qs", "2c 2d | 7h"]
    assert main(["equity", "stud", *hands, "--samples", "5000", "--seed", "9"]) == 0
    out = capsys.readouterr().out
    assert "± s.e." in out and "seed 9" in out and "sampled 5,000" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["holdem", "As 2d | 3c", "?? | Kh"], "unknown game 'holdem'"),
        (["razz", "As 2d | 3c", "As | Kh"], "card As appears twice"),
        (["razz", "As 2d | 3c 4c 5c 6c 7c", "?? | Kh"], "5 up cards"),
        (["razz", "As 2d | 3c", "?? | Kh Kd"], "different streets"),
        (["razz", "As 2d | 3c", "?? | Kh", "--dead", "3c"], "3c appears twice"),
        (["razz", "As 2d | 3c 4c", "?? | Kh 5c", "--workers", "0"], "workers must be at least 1"),
        (["razz", "As 2d | 3c", "?? | Kh", "--samples", "0"], "samples must be at least 1"),
    ],
)
def test_errors_are_clear(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    assert main(["equity", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("stud equity: error:") and words in err
