"""What an actor needs of the room that runs it, as Protocols: the actors never import the room.

The room (:mod:`stud.server.room`) satisfies them; a test may hand an actor any
object that does.
"""

from __future__ import annotations

from typing import Protocol

from stud.server.storage import Database
from stud.server.trust.limits import Limits


class Settings(Protocol):
    """The room's settings an actor reads (:class:`stud.server.room.config.RoomConfig`)."""

    @property
    def seed(self) -> int | None: ...

    @property
    def grace_seconds(self) -> float: ...

    @property
    def bot_delay(self) -> tuple[float, float]: ...

    @property
    def limits(self) -> Limits: ...


class Services(Protocol):
    """What every actor uses of its room: the settings, the database, the accounts' names."""

    @property
    def config(self) -> Settings: ...

    @property
    def db(self) -> Database: ...

    async def account_name(self, account_id: int) -> str:
        """The account's name as the tables show it."""
        ...
