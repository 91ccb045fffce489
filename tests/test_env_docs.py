"""docs/rl.md's examples run as written, and examples/train_razz.py trains and charts."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import stud.env
from stud.env import SEGMENTS, SIZE

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rl.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_docs_examples_run(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = _blocks()
    assert len(blocks) == 5  # the last one loads an OpenSpiel game (the openspiel extra)
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), {"__name__": "docs_rl_example"})
    out = capsys.readouterr().out
    assert out.count("big bets") == 7  # six seats of the first hand, then the wrapper's hand
    assert "'player_0'" in out
    assert "net chips after 100 hands:" in out and "sum 0\n" in out  # the fast path
    assert re.search(r"^\d{3,} hands ended; last step's net sums to 0$", out, re.MULTILINE)


def test_the_docs_table_names_every_key_and_the_size() -> None:
    text = DOC.read_text(encoding="utf-8")
    for segment in SEGMENTS:
        assert f"| `{segment.name}` |" in text
    assert f"vector of {SIZE} numbers" in text
    assert "pip install -e '.[rl]'" in text  # the package is not on PyPI: 'stud[rl]' fails
    assert "pip install 'stud[rl]'" not in text
    assert "| `history` |" in text
    assert stud.env.__doc__ is not None


def _example() -> ModuleType:
    path = ROOT / "examples" / "train_razz.py"
    spec = importlib.util.spec_from_file_location("train_razz", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_the_training_example_runs_for_a_few_seconds_and_draws_its_chart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    chart = tmp_path / "razz.png"
    code = _example().main(["--seconds", "4", "--chart", str(chart), "--reference-hands", "200"])
    assert code == 0, capsys.readouterr().out
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "bb/100" in capsys.readouterr().out


@pytest.mark.slow
def test_the_training_example_learns_to_beat_random() -> None:
    example = _example()
    _, results = example.train(seconds=600, max_hands=1000, seed=1)
    assert len(results) == 1000
    first, last = np.mean(results[:100]), np.mean(results[-400:])
    assert last > 0.5  # half a big bet a hand and more: far past break-even
    assert last > first + 0.3
