"""``stud convert``: PokerStars text to PHH and back, PHH without results completed by replay."""

from __future__ import annotations

from pathlib import Path

import pytest

from stud.cli import main
from stud.history import HandRecord, read_pokerstars
from stud.history.describe import pokerstars_description
from stud.history.phh import read_phhs, write_phhs
from stud.history.pokerstars_write import write_pokerstars

BARE = """
variant = "F7S/8"
antes = [5, 5, 5]
bring_in = 10
small_bet = 25
big_bet = 50
starting_stacks = [1000, 1000, 1000]
players = ["Ann", "Bob", "Cid"]
actions = [
  "d dh p1 Ah2h9c", "d dh p2 KsKd3c", "d dh p3 4d5d2c",
  "p3 pb", "p1 cc", "p2 cbr 25", "p3 cc", "p1 cc",
  "d dh p1 3h", "d dh p2 Qs", "d dh p3 6d", "p2 cc", "p3 cc", "p1 cc",
  "d dh p1 8s", "d dh p2 Qd", "d dh p3 Js", "p2 cbr 50", "p3 cc", "p1 cc",
  "d dh p1 Tc", "d dh p2 7c", "d dh p3 Jh", "p2 cc", "p3 cc", "p1 cc",
  "d dh p1 5s", "d dh p2 9d", "d dh p3 Kh", "p2 cc", "p3 cc", "p1 cc",
]
"""


SAMPLES = (9, 400)
"""The ``samples`` fixture's hands: how many, from which seed."""


def test_pokerstars_to_phh_and_back(tmp_path: Path, samples: list[HandRecord]) -> None:
    stars = tmp_path / "in.txt"
    text = write_pokerstars(samples, describe=pokerstars_description)
    stars.write_text(text, "utf-8")
    phh = tmp_path / "out.phhs"
    assert main(["convert", str(stars), "--to", "phh", "-o", str(phh)]) == 0
    back = tmp_path / "back.txt"
    assert main(["convert", str(phh), "--to", "pokerstars", "-o", str(back)]) == 0
    assert back.read_text("utf-8") == text
    assert read_phhs(phh.read_text("utf-8")).hands == read_pokerstars(text).hands


def test_phh_without_results_gets_them_from_a_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bare.phh"
    path.write_text(BARE, "utf-8")
    assert main(["convert", str(path), "--to", "pokerstars"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("PokerStars Hand #0:  7 Card Stud Hi/Lo Limit (25/50) - ")
    assert "Cid: brings in for 10" in lines
    assert "Bob: raises 15 to 25" in lines
    showdown = lines[lines.index("*** SHOW DOWN ***") + 1 : lines.index("*** SUMMARY ***")]
    assert showdown == [
        "Ann: shows [Ah 2h 9c 3h 8s Tc 5s] (HI: high card Ace; LO: 8,5,3,2,A)",
        "Bob: shows [Ks Kd 3c Qs Qd 7c 9d] (HI: two pair, Kings and Queens)",
        "Cid: mucks hand",
        "Bob collected 120 from pot",
        "Ann collected 120 from pot",
    ]
    assert "Total pot 240 | Rake 0" in lines
    assert "Seat 3: Cid mucked [4d 5d 2c 6d Js Jh Kh]" in lines
    (read,) = read_pokerstars(out).hands
    assert read.collected == (120, 120, 0) and read.finishing_stacks == (1040, 1040, 920)


def test_phh_to_phh_keeps_every_hand(tmp_path: Path, samples: list[HandRecord]) -> None:
    path = tmp_path / "in.phhs"
    path.write_text(write_phhs(samples), "utf-8")
    out = tmp_path / "out.phhs"
    assert main(["convert", str(path), "--to", "phh", "-o", str(out)]) == 0
    assert read_phhs(out.read_text("utf-8")).hands == samples


def test_bad_hands_are_reported_and_the_rest_written(
    tmp_path: Path, samples: list[HandRecord], capsys: pytest.CaptureFixture[str]
) -> None:
    text = write_phhs(samples[:3]).replace('variant = "F7S/8"', 'variant = "NT"', 1)
    path = tmp_path / "bad.phhs"
    path.write_text(text, "utf-8")
    assert main(["convert", str(path), "--to", "pokerstars"]) == 1
    captured = capsys.readouterr()
    assert captured.out.count("PokerStars Hand #") == 2
    assert f"stud convert: {path}, hand 2" in captured.err and "not F7S" in captured.err
