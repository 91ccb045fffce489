"""Gauntlet results files (stud.sim.results): sessions kept per line, resumed, grown, pooled."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from stud.cli import main
from stud.sim.duplicate import MatchConfig, play_match
from stud.sim.gauntlet import gauntlet_table, report_gauntlet, run_gauntlet
from stud.sim.results import (
    SessionRecord,
    append_record,
    code_version,
    load_records,
    play_session_record,
    pool,
)
from stud.sim.stats import Moments, rate


def test_moments_give_the_plain_interval_and_add_up() -> None:
    values = np.random.default_rng(3).normal(0.1, 2.0, size=500)
    whole = Moments.of(values)
    parts = Moments.of(values[:123]) + Moments.of(values[123:])
    assert parts.count == whole.count and parts.total == pytest.approx(whole.total)
    want = rate("x", "x", values, 1)
    got = parts.rate("x", "x", 500, 0.0)
    assert got.bb_per_100 == pytest.approx(want.bb_per_100)
    assert got.ci95 == pytest.approx(want.ci95)
    assert math.isinf(Moments.of(values[:1]).variance)
    for bad in ([1, 2], [-1, 0.0, 0.0], [1, float("nan"), 0.0], "x", [True, 0.0, 0.0]):
        with pytest.raises(ValueError):
            Moments.from_list(bad)


def _config(**changes: object) -> MatchConfig:
    settings: dict[str, object] = dict(game="stud8", hero="station", villain="random", deals=5,
                                       seats=2, seed=1, session=2)  # fmt: skip
    settings.update(changes)
    return MatchConfig(**settings)  # type: ignore[arg-type]


def test_a_session_record_sums_up_the_same_hands_as_the_match() -> None:
    config = _config()
    result = play_match(config)
    records = [play_session_record(config, start, count) for start, count in config.sessions()]
    assert [r.deals for r in records] == [2, 2, 1]
    pooled = pool(records)
    assert pooled.rate.bb_per_100 == pytest.approx(result.hero_rate().bb_per_100)
    assert pooled.rate.ci95 == pytest.approx(result.hero_rate().ci95)
    assert pooled.adjusted is not None
    assert pooled.adjusted.bb_per_100 == pytest.approx(result.hero_adjusted().bb_per_100)
    assert pooled.rate.total_bb == pytest.approx(result.hero_rate().total_bb)
    assert pooled.chips == 0 and pooled.rate.hands == 10
    line = records[0].to_json()
    assert SessionRecord.from_json(line) == SessionRecord.from_json(json.dumps(json.loads(line)))
    back = SessionRecord.from_json(line)
    assert back.raw == records[0].raw and back.adjusted == records[0].adjusted


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("{", "not JSON"),
        ("[1]", "JSON object"),
        ('{"v": 9}', "version"),
        ("SEATS", "'seats'"),
        ("RAW", "moments"),
        ("LUCKLESS", "luck model"),
    ],
)
def test_a_bad_line_is_refused_by_file_and_line(tmp_path: Path, line: str, problem: str) -> None:
    good = play_session_record(_config(), 0, 2)
    data = json.loads(good.to_json())
    if line == "SEATS":
        line = json.dumps(data | {"seats": "two"})
    elif line == "RAW":
        line = json.dumps(data | {"raw": [3, 0.0, 0.0]})
    elif line == "LUCKLESS":
        line = json.dumps(data | {"luck": ""})
    path = tmp_path / "results.jsonl"
    path.write_text(good.to_json() + "\n\n" + line + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=f"results.jsonl:3: .*{problem}"):
        load_records(path)
    path.write_bytes(b"\xff\xfe\n")
    with pytest.raises(ValueError, match="UTF-8"):
        load_records(path)
    assert load_records(tmp_path / "none.jsonl") == []


def _run(path: Path | None, **changes: object) -> object:
    settings: dict[str, object] = dict(opponents=("random",), deals=5, seats=(2, 4), seed=2)
    settings.update(changes)
    return run_gauntlet("razz", "station", out=path, **settings)  # type: ignore[arg-type]


def test_a_results_file_resumes_a_run_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "razz.jsonl"
    plain = run_gauntlet("razz", "station", ("random",), deals=5, seats=(2, 4), seed=2)
    first = run_gauntlet("razz", "station", ("random",), deals=5, seats=(2, 4), seed=2, out=path)
    assert first.rows == plain.rows and first.played == 20 and first.reused == 0
    assert all(r.chips == 0 for r in first.rows)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2  # one session per match (sessions of 1,000 deals)
    again = run_gauntlet("razz", "station", ("random",), deals=5, seats=(2, 4), seed=2, out=path)
    assert again.played == 0 and again.reused == 20 and again.rows == first.rows
    # An interrupted run: the second match's session never reached the file.
    path.write_text(lines[0] + "\n", encoding="utf-8")
    resumed = run_gauntlet("razz", "station", ("random",), deals=5, seats=(2, 4), seed=2, out=path)
    assert resumed.played == 10 and resumed.reused == 10 and resumed.rows == first.rows
    assert len(path.read_text(encoding="utf-8").splitlines()) == 2


def test_jobs_do_not_change_the_records(tmp_path: Path) -> None:
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    kwargs: dict[str, object] = dict(opponents=("random", "nit"), deals=4, seats=(2,), seed=3)
    a = run_gauntlet("stud", "station", out=one, workers=1, **kwargs)  # type: ignore[arg-type]
    b = run_gauntlet("stud", "station", out=two, workers=2, **kwargs)  # type: ignore[arg-type]
    assert a.rows == b.rows

    def sessions(path: Path) -> list[tuple[object, ...]]:
        return sorted((r.villain, r.start, r.raw, r.adjusted) for r in load_records(path))

    assert sessions(one) == sessions(two)


def test_a_report_pools_seeds_and_counts_a_session_once(tmp_path: Path) -> None:
    path = tmp_path / "stud.jsonl"
    kwargs: dict[str, object] = dict(opponents=("random",), deals=3, seats=(2,))
    a = run_gauntlet("stud", "station", seed=1, out=path, **kwargs)  # type: ignore[arg-type]
    b = run_gauntlet("stud", "station", seed=2, out=path, **kwargs)  # type: ignore[arg-type]
    records = load_records(path)
    append_record(path, records[0])  # the same session twice
    report = report_gauntlet(load_records(path), "stud", "station")
    (row,) = report.rows
    assert row.rate.hands == 12 and row.opponent == "random" and row.seats == 2
    want = pool(records)
    assert row.rate == want.rate and row.adjusted == want.adjusted
    assert a.rows[0].rate.hands == b.rows[0].rate.hands == 6
    assert "(12 h)" not in gauntlet_table(report)  # one match: deals are even
    assert report_gauntlet(records, "razz", "station").rows == ()


def test_the_command_keeps_a_file_and_reports_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "out.jsonl"
    argv = ["gauntlet", "stud", "--bot", "station", "--opponents", "random", "--seats", "2",
            "--deals", "3", "--out", str(path), "--quiet", "--jobs", "1"]  # fmt: skip
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "luck-adjusted" in text and "hands per CPU second" in text
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["played_hands"] == 0 and data["reused_hands"] == 6
    assert "variance_reduction" in data["rows"][0] and "adjusted" in data["rows"][0]
    assert main(["gauntlet", "stud", "--bot", "station", "--out", str(path), "--report"]) == 0
    assert "| random |" in capsys.readouterr().out
    assert main(["gauntlet", "stud", "--report"]) == 2
    assert "--out" in capsys.readouterr().err
    before = path.read_bytes()
    path.write_bytes(before + b"not json\n")
    assert main(argv) == 2
    assert "out.jsonl:2" in capsys.readouterr().err
    assert main([*argv[:-5], "--no-luck", "--quiet", "--out", str(tmp_path / "p.jsonl")]) == 0
    assert "(not measured)" in capsys.readouterr().out


def test_records_of_other_code_are_neither_reused_nor_pooled(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bot changed since a session was played: that session measured something else."""
    path = tmp_path / "razz.jsonl"
    first = run_gauntlet("razz", "station", ("random",), deals=3, seats=(2,), seed=4, out=path)
    (line,) = path.read_text(encoding="utf-8").splitlines()
    record = SessionRecord.from_json(line)
    assert record.code == code_version() and len(record.code) == 12
    path.write_text(json.dumps(json.loads(line) | {"code": "0123456789ab"}) + "\n")
    again = run_gauntlet("razz", "station", ("random",), deals=3, seats=(2,), seed=4, out=path)
    assert again.played == 6 and again.reused == 0 and again.rows == first.rows
    records = load_records(path)
    assert [r.code for r in records] == ["0123456789ab", code_version()]
    (row,) = report_gauntlet(records, "razz", "station").rows
    assert row.rate.hands == 6  # not 12: the other code's session is left out
    (old,) = report_gauntlet(records, "razz", "station", code="0123456789ab").rows
    assert old.rate == row.rate  # the same hands, as the code change did not touch them
    assert main(["gauntlet", "razz", "--bot", "station", "--out", str(path), "--report"]) == 0
    assert "1 sessions of 0123456789ab" in capsys.readouterr().out
    argv = ["gauntlet", "razz", "--bot", "station", "--out", str(path), "--report"]
    assert main([*argv, "--code", "ffffffffffff"]) == 2
    assert "played by code ffffffffffff" in capsys.readouterr().err


def test_a_record_cut_short_by_a_crash_is_skipped_and_written_over(tmp_path: Path) -> None:
    path = tmp_path / "cut.jsonl"
    played = [play_session_record(_config(), start, 2) for start in (0, 2)]
    records = [SessionRecord.from_json(r.to_json()) for r in played]  # as a file keeps them
    append_record(path, records[0])
    whole = path.read_text(encoding="utf-8")
    path.write_text(whole + records[1].to_json()[:40], encoding="utf-8")  # killed mid-write
    assert load_records(path) == [records[0]]
    append_record(path, records[1])
    assert load_records(path) == records
    assert path.read_text(encoding="utf-8") == whole + records[1].to_json() + "\n"
    # A whole last record that only lost its newline is kept, and gets it back.
    path.write_text(records[0].to_json(), encoding="utf-8")
    assert load_records(path) == [records[0]]
    append_record(path, records[1])
    assert load_records(path) == records
