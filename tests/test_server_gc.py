"""The room's garbage collector settings: start-up frozen, young passes spaced out (app.py)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from stud.server.app import GC_THRESHOLDS, create_app
from stud.server.room.room import RoomConfig
from stud.server.storage.database import Database
from stud.table.engine import start_engine_hand


@pytest.fixture
def restored_gc() -> Iterator[None]:
    """The test process's own collector settings, put back whatever the test does."""
    thresholds = gc.get_threshold()
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
        gc.unfreeze()


def test_a_running_room_freezes_start_up_and_spaces_young_passes(
    tmp_path: Path, restored_gc: None
) -> None:
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    database = Database(f"sqlite:///{tmp_path / 'room.db'}")
    app = create_app(database, RoomConfig(default_tables=()), start_engine_hand)
    assert gc.get_threshold() == (700, 10, 10)  # nothing changes before the room starts
    with TestClient(app) as client:
        assert client.get("/api/health").status_code == 200
        assert gc.get_threshold() == GC_THRESHOLDS
        assert gc.get_freeze_count() > 0  # what start-up made is out of the collector's sight
