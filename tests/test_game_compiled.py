"""The engine compiled by mypyc (setup.py) plays exactly as its pure-Python source.

The same list holds the RL encoder (stud.envcore); tests/test_env_privacy.py
checks the installed encoder's every observation against an independent one.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest

import stud.game
from stud._compiled import COMPILED_MODULES, ENGINE_MODULES, check_fresh, compiled_modules

GAME_DIR = Path(stud.game.__file__).parent
SOURCE_ROOT = GAME_DIR.parent.parent

# Runs in a fresh interpreter: stud/game is imported from its .py files only,
# then the same seeded hands are played and each hand's events hashed.
PLAY = r"""
import hashlib, importlib.machinery as machinery, json, random, sys
GAME_DIR = sys.argv[1]
SOURCE = (machinery.SourceFileLoader, machinery.SOURCE_SUFFIXES)
SOURCE_ONLY = machinery.FileFinder.path_hook(SOURCE)
def hook(path):
    if sys.argv[2] == "pure" and path.rstrip("/") == GAME_DIR.rstrip("/"):
        return SOURCE_ONLY(path)
    raise ImportError  # any other directory: the usual finders
sys.path_hooks.insert(0, hook)
sys.path_importer_cache.clear()
from stud.cards import Deck
from stud.game import STUD, STUD8, RAZZ, Hand, TableConfig
from stud._compiled import compiled_modules
digests = []
for game in (STUD, STUD8, RAZZ):
    for seed in range(int(sys.argv[3])):
        rng = random.Random(seed)
        seats = 2 + seed % 7
        stacks = tuple(rng.choice((3, 12, 40, 200)) for _ in range(seats))
        config = TableConfig(game=game, ante=1, bring_in=2, small_bet=4, big_bet=8,
                             stacks=stacks, burn_cards=seed % 2 == 0,
                             lift_cap_heads_up=seed % 3 == 0, rake_percent=5 * (seed % 2))
        hand = Hand(config, deck=Deck(seed=seed))
        while not hand.is_over:
            hand.act(rng.choice(hand.legal_actions()))
        text = json.dumps([e.to_dict() for e in hand.events], sort_keys=True)
        digests.append(hashlib.sha256(text.encode()).hexdigest())
print(json.dumps({"compiled": list(compiled_modules()), "digests": digests}))
"""


def play(mode: str, hands: int) -> dict[str, list[str]]:
    out = subprocess.run(
        [sys.executable, "-c", PLAY, str(GAME_DIR), mode, str(hands)],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    result: dict[str, list[str]] = json.loads(out.stdout)
    return result


@pytest.mark.slow
def test_the_pure_python_engine_and_the_installed_one_play_the_same_hands() -> None:
    pure = play("pure", 150)
    installed = play("installed", 150)
    assert pure["compiled"] == []
    assert installed["compiled"] == [m for m in compiled_modules() if m in ENGINE_MODULES]
    assert len(pure["digests"]) == 450
    assert pure["digests"] == installed["digests"]


def test_the_engine_is_compiled_all_or_nothing() -> None:
    """A failed optional extension would leave a mix; the build is every module or none."""
    for name in COMPILED_MODULES:
        importlib.import_module(name)
    assert compiled_modules() in ((), COMPILED_MODULES)
    folders = {SOURCE_ROOT.joinpath(*name.split(".")[:-1]) for name in COMPILED_MODULES}
    built = sorted(
        ".".join((*p.parent.relative_to(SOURCE_ROOT).parts, p.name.split(".")[0]))
        for folder in folders
        for p in folder.glob("*.so")
    )
    if built:
        assert compiled_modules() == COMPILED_MODULES
        assert built == sorted(COMPILED_MODULES)


def test_importing_the_engine_loads_the_engine_modules_and_not_the_rl_encoder() -> None:
    code = (
        "import json, sys, stud.game; from stud._compiled import COMPILED_MODULES as c;"
        "print(json.dumps([m for m in c if m in sys.modules]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert tuple(json.loads(out.stdout)) == ENGINE_MODULES


def test_a_compiled_module_older_than_its_source_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = tmp_path / "state.cpython-311-x86_64-linux-gnu.so"
    source = tmp_path / "state.py"
    built.write_bytes(b"")
    source.write_text("")
    fake = types.ModuleType("stud.game.state")
    fake.__file__ = str(built)
    monkeypatch.setitem(sys.modules, "stud.game.state", fake)
    now = time.time()
    os.utime(built, (now, now))
    os.utime(source, (now, now))
    check_fresh()  # built with its source: fine
    os.utime(source, (now + 60, now + 60))
    with pytest.raises(ImportError, match=r"compiled before .*state\.py last changed"):
        check_fresh()
