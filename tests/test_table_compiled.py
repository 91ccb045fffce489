"""The card room's per-step modules compiled by mypyc send exactly what their source sends.

``stud.table``, ``stud.evaluate.sofar`` and ``stud.server.actors.channel`` are compiled
at install (stud._compiled). Here seeded tables of the three games are
played in a fresh interpreter twice, once with those modules' ``.py`` files
only and once as installed, and every text each watcher got (three seated
accounts and a spectator) is compared, event by event and state by state.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import stud.table
from stud._compiled import COMPILED_MODULES, compiled_modules

SOURCE_ROOT = Path(stud.table.__file__).parent.parent.parent
ROOM_MODULES = tuple(
    m for m in COMPILED_MODULES if not m.startswith(("stud.game.", "stud.envcore."))
)
FOLDERS = sorted({str(SOURCE_ROOT.joinpath(*m.split(".")[:-1])) for m in ROOM_MODULES})

PLAY = r"""
import hashlib, importlib.machinery as machinery, json, sys, types
FOLDERS = json.loads(sys.argv[1])
SOURCE = (machinery.SourceFileLoader, machinery.SOURCE_SUFFIXES)
SOURCE_ONLY = machinery.FileFinder.path_hook(SOURCE)
def hook(path):
    if sys.argv[2] == "pure" and path.rstrip("/") in FOLDERS:
        return SOURCE_ONLY(path)
    raise ImportError  # any other directory: the usual finders
sys.path_hooks.insert(0, hook)
sys.path_importer_cache.clear()
from stud._compiled import compiled_modules
from stud.server.actors.table import TableActor
from stud.server.room.room import RoomConfig
from stud.server.storage import TableSpec
from stud.table import Event, Table, TableSettings
from stud.table.engine import start_engine_hand

class Watcher:
    def __init__(self, account):
        self.account_id = account
        self.digest = hashlib.sha256()
    def send(self, text):
        self.digest.update(text.encode())

digests = []
for t, game in enumerate(("stud", "stud8", "razz") * 2):
    settings = TableSettings(name="t", game=game, ante=1, bring_in=2, small_bet=4, big_bet=8,
                             seats=6, pause_between_hands=0)
    table = Table(settings, start_engine_hand, seed=t, label=str(t))
    spec = TableSpec(name="t", game=game, ante=1, bring_in=2, small_bet=4, big_bet=8, seats=6,
                     bots=0, min_buy_in=0, max_buy_in=0, id=t + 1)
    actor = TableActor(types.SimpleNamespace(config=RoomConfig(seed=t)), spec, table)
    watchers = [Watcher(11), Watcher(12), Watcher(13), Watcher(None)]
    for w in watchers:
        actor.watchers[w] = None
    for account in (11, 12, 13):
        table.sit(account, f"p{account}", 500, 0.0)
    now = 1.0
    for n in range(int(sys.argv[3])):
        if table.hand is None:
            outs = table.tick(now)
        else:
            player = table.seats[table.actor_seat]
            legal = {a.action: a.to for a in table.legal()}
            choices = [a for a in ("check", "call", "bring-in", "fold", "bet", "raise", "complete")
                       if a in legal]
            action = choices[n % len(choices)]
            outs = table.act(player.id, action, legal[action], table.turn_id, now)
        events = [o for o in outs if isinstance(o, Event)]
        for event in events:
            actor._publish(event)
        if events:
            actor.send_states()
        now += 1.0
    digests.append([w.digest.hexdigest() for w in watchers])
print(json.dumps({"compiled": list(compiled_modules()), "digests": digests}))
"""


def play(mode: str, steps: int) -> dict[str, list[Any]]:
    out = subprocess.run(
        [sys.executable, "-c", PLAY, json.dumps(FOLDERS), mode, str(steps)],
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
        env={**os.environ, "PYTHONHASHSEED": "0"},
    )
    result: dict[str, list[Any]] = json.loads(out.stdout)
    return result


@pytest.mark.slow  # every message of many hands, twice
def test_the_compiled_table_layer_sends_what_its_source_sends() -> None:
    for name in ROOM_MODULES:
        importlib.import_module(name)
    pure = play("pure", 400)
    installed = play("installed", 400)
    assert not set(pure["compiled"]) & set(ROOM_MODULES)
    expected = {m for m in compiled_modules() if m in ROOM_MODULES}
    assert set(installed["compiled"]) & set(ROOM_MODULES) == expected
    assert len(pure["digests"]) == 6
    assert pure["digests"] == installed["digests"]
