"""``stud replay``: verdicts, final stacks, JSON, and a non-zero exit naming what is wrong."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from stud.cli import main
from stud.history import HandRecord, Kind
from stud.history.describe import pokerstars_description
from stud.history.phh import write_phhs
from stud.history.pokerstars_write import write_pokerstars
from stud.history.samples import sample_hand


@pytest.fixture
def records() -> list[HandRecord]:
    return [sample_hand("stud", 4, 1), sample_hand("stud8", 4, 2), sample_hand("razz", 4, 3)]


def test_good_hands_replay_and_exit_zero(
    tmp_path: Path, records: list[HandRecord], capsys: pytest.CaptureFixture[str]
) -> None:
    stars = tmp_path / "hands.txt"
    stars.write_text(write_pokerstars(records, describe=pokerstars_description), "utf-8")
    phh = tmp_path / "hands.phhs"
    phh.write_text(write_phhs(records), "utf-8")
    assert main(["replay", str(stars), str(phh)]) == 0
    out = capsys.readouterr().out
    first = records[0]
    assert f"{stars}: hand 1 (#{first.hand_id}) [stud]: OK, matches the record" in out
    names = first.names
    stacks = first.finishing_stacks or ()
    assert f"  final stacks: {names[0]} ${stacks[0] / 100:g}" in out.replace(".00", "")
    assert out.rstrip().endswith(
        "6 hands: 6 replayed by the rules, 6 matched their recorded results, 0 with problems, "
        "0 unreadable"
    )


def test_json_output(
    tmp_path: Path, records: list[HandRecord], capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hands.phhs"
    path.write_text(write_phhs(records), "utf-8")
    assert main(["replay", "--json", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["summary"] == {
        "hands": 3,
        "replayed": 3,
        "matched": 3,
        "unreadable": 0,
        "problems": 0,
    }
    hand = data["hands"][1]
    assert hand["game"] == "stud8" and hand["ok"] is True and hand["matched"] is True
    assert hand["final_stacks"] == list(records[1].finishing_stacks or ())
    assert hand["recorded_stacks"] == hand["final_stacks"]
    assert hand["players"] == list(records[1].names)
    assert hand["currency"] == "USD" and hand["decimals"] == 2
    assert data["errors"] == []


def test_a_broken_rule_or_a_wrong_stack_exits_one_naming_hand_and_action(
    tmp_path: Path, records: list[HandRecord], capsys: pytest.CaptureFixture[str]
) -> None:
    good, lying, cheating = records
    stacks = list(lying.finishing_stacks or ())
    stacks[1] += 5
    lying = dataclasses.replace(lying, finishing_stacks=tuple(stacks))
    index = next(i for i, a in enumerate(cheating.actions) if a.kind is Kind.FOLD)
    actions = list(cheating.actions)
    actions[index] = dataclasses.replace(actions[index], kind=Kind.CHECK)
    cheating = dataclasses.replace(cheating, actions=tuple(actions))
    path = tmp_path / "mixed.phhs"
    path.write_text(write_phhs([good, lying]), "utf-8")
    stars = tmp_path / "cheat.txt"  # PHH's cc cannot say "check" where a call is owed
    stars.write_text(write_pokerstars([cheating], describe=pokerstars_description), "utf-8")
    assert main(["replay", str(path), str(stars)]) == 1
    out = capsys.readouterr().out
    assert f"{path}: hand 1 (#{good.hand_id}) [stud]: OK" in out
    assert f"{path}: hand 2 (#{lying.hand_id}) [stud8]: PROBLEM" in out
    assert f"problem: final stacks differ: {lying.names[1]} {stacks[1]} recorded" in out
    assert f"{stars}: hand 1 (#{cheating.hand_id}) [razz]: PROBLEM" in out
    who = cheating.seats[actions[index].seat].name
    assert f"problem: action {index + 1} ({who} check on street" in out
    assert "1 matched" in out and "2 with problems" in out


def test_unreadable_hands_are_reported_and_the_rest_replayed(
    tmp_path: Path, records: list[HandRecord], capsys: pytest.CaptureFixture[str]
) -> None:
    text = write_pokerstars(records, describe=pokerstars_description)
    bad = text.replace("*** 4th STREET ***", "*** 4th STROOT ***", 1)
    path = tmp_path / "bad.txt"
    path.write_text(bad, "utf-8")
    assert main(["replay", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"unreadable: {path}, hand 1 (#{records[0].hand_id}), line " in out
    assert "3 hands: 2 replayed by the rules, 2 matched" in out and "1 unreadable" in out


def test_a_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "/no/such/file.phh"]) == 1
    assert "unreadable: /no/such/file.phh: No such file or directory" in capsys.readouterr().out
