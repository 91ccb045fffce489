"""``stud --help`` stays quick: building the parser imports no subcommand's heavy dependencies."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from stud.cli import _names, build_parser, main

HEAVY = (
    "fastapi", "textual", "uvicorn", "sqlalchemy", "starlette", "numpy", "rich", "pokerkit",
    "matplotlib", "stud.game", "stud.evaluate", "stud.equity", "stud.bots", "stud.sim",
    "stud.history", "stud.server", "stud.table", "stud.tui",
)  # fmt: skip

PROBE = """
import json, sys
from stud.cli import main
try:
    main(["--help"])
except SystemExit as exit:
    code = exit.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def test_stud_help_imports_no_heavy_module() -> None:
    """In a fresh interpreter, since this one has imported them all already."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120
    )
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["code"] == 0
    assert "deal" in done.stdout and "serve" in done.stdout
    loaded = [m for m in result["modules"] if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    assert loaded == []


COMMANDS = (
    "convert",
    "deal",
    "equity",
    "eval",
    "gauntlet",
    "play",
    "replay",
    "serve",
    "sim",
    "tourney",
    "verify",
)


@pytest.mark.parametrize("command", COMMANDS)
def test_each_subcommand_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main([command, "--help"])
    assert exit.value.code == 0
    assert capsys.readouterr().out.startswith(f"usage: stud {command}")


def test_the_parsers_light_names_agree_with_their_sources() -> None:
    from stud.bots.registry import BOTS
    from stud.equity.api import DEFAULT_SAMPLES, EXACT_LIMIT
    from stud.equity.showdown import GAME_NAMES
    from stud.game import MAX_SEATS, MIN_SEATS, VARIANTS
    from stud.sim import SESSION, Stakes

    assert tuple(VARIANTS) == _names.GAMES
    assert GAME_NAMES == _names.GAME_NAMES
    assert (MIN_SEATS, MAX_SEATS) == (_names.MIN_SEATS, _names.MAX_SEATS)
    assert set(_names.BOTS) <= set(BOTS)  # a test may register more bots
    from stud.bots import GAUNTLET

    assert GAUNTLET == _names.GAUNTLET
    assert str(Stakes()) == _names.STAKES
    assert SESSION == _names.SESSION
    assert (EXACT_LIMIT, DEFAULT_SAMPLES) == (_names.EXACT_LIMIT, _names.DEFAULT_SAMPLES)


def test_the_parser_lists_every_subcommand() -> None:
    text = build_parser().format_help()
    for command in COMMANDS:
        assert command in text
