"""While the service that shares the room's bots is away (a shared room's Redis), a table
seats no bot that pass, says so in one log line, and goes on: no failed step, no traceback."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from types import SimpleNamespace

import pytest

from stud.server.room.config import DEFAULT_TABLES, RoomConfig
from stud.server.room.coordination import BotsOutOfReach
from stud.server.room.local import LocalCoordination
from stud.server.room.room import Room
from stud.server.storage import Account, Database
from stud.table.engine import start_engine_hand


class BotsAway(LocalCoordination):
    """One process's coordination whose bot accounts cannot be reached."""

    async def take_bots(self, count: int) -> list[Account]:
        raise BotsOutOfReach("Error 111 connecting to 127.0.0.1:6379. Connection refused.")


def test_no_bot_is_lent_while_the_bots_are_out_of_reach(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = Database(f"sqlite:///{tmp_path / 'room.sqlite3'}")
    room = Room(db=db, config=RoomConfig(), hand_factory=start_engine_hand, coordination=BotsAway)
    actor = SimpleNamespace(id=7, spec=DEFAULT_TABLES[0])
    with caplog.at_level(logging.WARNING, logger="stud.server"):
        lent = asyncio.run(room.lend_bot(actor))  # type: ignore[arg-type]
    assert lent is None
    assert "table 7: no bot to seat now: Error 111" in caplog.text
    assert not any(record.exc_info for record in caplog.records)
