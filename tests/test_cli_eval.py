"""``stud eval``: the table, JSON for programs, winners of each half, and errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

from stud.cli import main


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["eval", *argv, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_issue_example_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "As Ks 7d 7c 2h 3h 9s", "--game", "stud8"]) == 0
    out = capsys.readouterr().out
    for text in ("Stud Hi/Lo", "a pair of Sevens", "7d 7c As Ks 9s", "no low"):
        assert text in out


def test_stud8_halves_go_to_different_hands(capsys: pytest.CaptureFixture[str]) -> None:
    hands = ["As Ks 7d 7c 2h 3h 9s", "2c 3c 4d 5d 8s Kh Kd", "Ah 2d 3s 4h 8h Jc Js"]
    assert main(["eval", *hands, "--game", "stud8"]) == 0
    out = capsys.readouterr().out
    assert "Hand 2 wins the high half." in out
    assert "Hand 3 wins the low half." in out
    data = _json(capsys, *hands, "--game", "stud8")
    assert data["game"] == "stud8"
    assert data["winners"] == {"high": [2], "low": [3]}
    first, second, third = data["hands"]
    assert first["cards"] == "As Ks 7d 7c 2h 3h 9s" and first["low"] is None
    assert first["high"]["description"] == "a pair of Sevens"
    assert first["high"]["category"] == "pair"
    assert first["high"]["cards"] == "7d 7c As Ks 9s"
    assert second["high"]["description"] == "a pair of Kings"
    assert second["low"]["description"] == "8,5,4,3,2"
    assert third["low"] == {
        "value": third["low"]["value"],
        "description": "8,4,3,2,A",
        "category": "low",
        "cards": "8h 4h 3s 2d Ah",
    }
    assert third["low"]["value"] > second["low"]["value"] > 0


def test_stud8_without_low_and_a_split(capsys: pytest.CaptureFixture[str]) -> None:
    hands = ["As Ks 7d 7c 2h 3h 9s", "Ad Kd 7s 7h 2c 3d 9c"]
    assert main(["eval", *hands, "--game", "stud8"]) == 0
    out = capsys.readouterr().out
    assert "No low hand qualified." in out
    assert "Hands 1 and 2 split the whole pot." in out
    assert _json(capsys, *hands, "--game", "stud8")["winners"] == {"high": [1, 2], "low": []}


def test_stud_and_razz(capsys: pytest.CaptureFixture[str]) -> None:
    hands = ["Kd Ks Kh 4c 4d 9s 2c", "Ad Kc 7s 7h 2h 3d 9c"]
    assert main(["eval", *hands]) == 0
    out = capsys.readouterr().out
    assert "a full house, Kings full of Fours" in out and "Hand 1 wins the pot." in out
    razz = _json(capsys, *hands, "--game", "razz")
    assert razz["winners"] == {"high": [], "low": [2]}
    assert [h["high"] for h in razz["hands"]] == [None, None]
    assert razz["hands"][0]["low"]["description"] == "4,4,K,9,2"
    assert razz["hands"][0]["low"]["category"] == "pair"
    assert razz["hands"][1]["low"]["description"] == "9,7,3,2,A"


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (["As Ks 7d 7c 2h 3h 1x"], "hand 1: bad card '1x'"),
        (["As Ks 7d 7c"], "hand 1: expected 5, 6 or 7 cards, got 4"),
        (["As Ks 7d 7c 2h As"], "hand 1: card As appears more than once"),
        (["As Ks 7d 7c 2h", "Ad Kd 7s 7h As"], "card As is in hand 1 and hand 2"),
    ],
)
def test_bad_cards_exit_non_zero(
    capsys: pytest.CaptureFixture[str], hands: list[str], message: str
) -> None:
    assert main(["eval", *hands]) != 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("stud eval: error: ")
    assert message in captured.err
