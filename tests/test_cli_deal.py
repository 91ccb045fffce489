"""``stud deal``: one hand with random actions, printed street by street or as JSON."""

from __future__ import annotations

import json

import pytest

from stud.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def test_deal_prints_the_hand_street_by_street(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "deal", "razz", "--players", "6", "--seed", "7")
    assert status == 0
    assert out.startswith("Razz — ante 1, bring-in 2, 4/8, 6 players, seed 7")
    assert "3rd street" in out and "result" in out
    assert out.index("3rd street") < out.index("4th street")
    assert "wins" in out
    for player in ("p1", "p6"):
        assert player in out
    assert "??" not in out  # without --open only up cards are listed
    # The same seed deals and plays the same hand.
    assert run(capsys, "deal", "razz", "--players", "6", "--seed", "7")[1] == out


def test_deal_json_gives_the_events(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "deal", "stud8", "--players", "3", "--seed", "11", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["game"] == "stud8" and data["seed"] == 11
    types = [e["type"] for e in data["events"]]
    assert types[0] == "hand_started" and types[-1] == "hand_ended"
    assert types.count("ante") == 3
    dealt = [e for e in data["events"] if e["type"] == "dealt" and e["street"] == 3]
    assert all(e["down"] == [None, None] for e in dealt)  # a spectator's events
    stacks = data["events"][-1]["stacks"]
    assert sum(stacks) == 600


def test_deal_open_shows_every_card(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "deal", "stud", "--players", "2", "--seed", "5", "--open", "--json"
    )
    assert status == 0
    dealt = [e for e in json.loads(out)["events"] if e["type"] == "dealt" and e["street"] == 3]
    assert all(None not in e["down"] for e in dealt)
    status, text, _ = run(capsys, "deal", "stud", "--players", "2", "--seed", "5", "--open")
    assert status == 0 and "cards" in text


def test_deal_refuses_an_impossible_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "deal", "stud", "--players", "9")
    assert status == 2
    assert "2 to 8 players, not 9" in err
    status, _, err = run(capsys, "deal", "razz", "--bring-in", "9")
    assert status == 2 and "bring_in (9) cannot be above the small bet" in err
