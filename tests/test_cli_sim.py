"""``stud sim``: the table, the JSON, the chart, the errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stud.cli import main


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sim", "razz", "--bots", "station,random,station", "--hands", "60", "--seed", "3"]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "razz" and data["hands"] == 60 and data["seed"] == 3
    assert data["bots"] == ["station", "random", "station"]
    labels = [p["label"] for p in data["players"]]
    assert labels == ["station#1", "random", "station#2"]
    assert sum(p["total_bb"] for p in data["players"]) == pytest.approx(0, abs=0.05)
    for p in data["players"]:
        assert p["low"] <= p["bb_per_100"] <= p["high"]
        assert p["hands"] == 60
    assert [b["bot"] for b in data["by_bot"]] == ["station", "random"]
    assert main([*argv, "--json"]) == 0  # the same seed gives the same numbers
    again = json.loads(capsys.readouterr().out)
    assert again["players"] == data["players"]


@pytest.mark.slow
def test_table_output_and_chart(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chart = tmp_path / "run.png"
    argv = ["sim", "stud", "--bots", "strong,random", "--hands", "40", "--chart", str(chart)]
    assert main([*argv, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "bb/100" in out and "95% CI" in out
    assert "strong" in out and "random" in out
    assert "stakes 2/5/20/40" in out and "chart written" in out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert chart.stat().st_size > 5_000


def test_workers_give_the_same_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sim", "stud8", "--bots", "random,station", "--hands", "600", "--json"]
    assert main([*argv, "--workers", "2"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    one = json.loads(capsys.readouterr().out)
    assert two["players"] == one["players"] and two["workers"] == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["sim", "razz", "--bots", "strong,shark"], "unknown bot 'shark'"),
        (["sim", "razz", "--bots", "strong"], "2 to 8 players"),
        (["sim", "poker", "--bots", "strong,random"], "unknown game"),
        (["sim", "razz", "--bots", "strong,random", "--stakes", "5"], "ANTE/BRING-IN"),
        (["sim", "razz", "--bots", "strong,random", "--workers", "0"], "workers"),
    ],
)
def test_bad_arguments(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err
