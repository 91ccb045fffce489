"""``make serve`` stays one process on embedded SQLite: no Redis, not even its client imported."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from stud.testing.server import hand_factory_args

ROOT = Path(__file__).resolve().parent.parent

ONE_PROCESS = """
import importlib, sys
from fastapi.testclient import TestClient
from stud.server.app import create_app
from stud.server.room.room import RoomConfig
from stud.server.storage import Database

module, _, name = sys.argv[2].partition(":")
factory = getattr(importlib.import_module(module), name)
app = create_app(Database(sys.argv[1]), RoomConfig(), factory)
with TestClient(app) as client:
    health = client.get("/api/health").json()
    assert health["ok"] and health["tables"] == 6 and "node" not in health, health
    assert len(client.get("/api/tables").json()) == 6
shared = ("redis", "stud.server.cluster")
loaded = sorted(m for m in sys.modules if m.split(".")[0] == "redis" or m.startswith(shared[1]))
assert not loaded, loaded
print("one process, no redis")
"""


@pytest.mark.slow
def test_a_room_of_one_process_never_imports_redis(tmp_path: Path) -> None:
    args = hand_factory_args("tests.test_table_double:start_double")
    factory = args[1] if args else "stud.table.engine:start_engine_hand"
    url = f"sqlite:///{tmp_path / 'stud.sqlite3'}"
    done = subprocess.run(
        [sys.executable, "-c", ONE_PROCESS, url, factory],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "one process, no redis" in done.stdout


@pytest.mark.slow
def test_a_shared_room_on_sqlite_is_refused_with_a_reason(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "stud", "serve", "--data-dir", str(tmp_path),
         "--redis-url", "redis://127.0.0.1:1/0"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 2
    assert "needs PostgreSQL" in done.stderr
