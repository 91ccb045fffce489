"""A finished hand's facts rows (stud.server.storage.facts), made and stored after the hand
is: its players' stats follow each hand without the table waiting for them.

The hand as played is read back on a worker thread and its rows go to the writer as a
write of their own, so neither the table's event loop nor the hand's own transaction
pays for them. A hand whose rows could not be made is logged and left out of the stats.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence

from stud.server.storage import Database
from stud.server.storage.facts import played_facts
from stud.server.storage.outage import unavailable
from stud.server.storage.stats import store_facts

log = logging.getLogger("stud.server")


class FactsKeeper:
    """Stores each finished hand's facts in the background; :meth:`settled` waits for them."""

    def __init__(self) -> None:
        self._pending: set[asyncio.Task[None]] = set()

    def keep(self, db: Database, hand_id: int, played: str, accounts: Sequence[int]) -> None:
        """Make the facts of a hand just stored in ``db`` and store them there (``accounts``:
        its players in order)."""
        task = asyncio.get_running_loop().create_task(
            self._keep(db, hand_id, played, list(accounts), time.time())
        )
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def _keep(
        self, db: Database, hand_id: int, played: str, accounts: list[int], at: float
    ) -> None:
        try:
            rows = await asyncio.to_thread(played_facts, played, accounts, hand_id=hand_id, at=at)
            await db.write(lambda conn: store_facts(conn, rows))
        except Exception as error:  # a hand's stats are not worth a table: log it and go on
            if unavailable(error):  # the database is away (the table waits for it meanwhile)
                log.warning("the facts of hand %s are lost: the database is away", hand_id)
            else:
                log.exception("the facts of hand %s could not be stored", hand_id)

    async def settled(self) -> None:
        """Wait until every hand's facts so far are stored (a table stopping, a test)."""
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)
