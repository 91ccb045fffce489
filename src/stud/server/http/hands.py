"""REST for hands: an account's hands and a table's, and a finished hand as JSON, as
PHH and PokerStars text to download, and as events for the browser's replayer.

Every one shows only the cards the caller may see (stud.server.http.histories).
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse
from sqlalchemy import Connection

from stud.server.http.deps import CurrentAccount, DatabaseDep, LoggedIn, RoomDep
from stud.server.http.errors import RestError
from stud.server.http.histories import hand_as_seen, replay_data
from stud.server.storage import Account, Database

router = APIRouter(tags=["hands"])


@router.get("/api/me/hands")
async def my_hands(account: LoggedIn, db: DatabaseDep) -> list[dict[str, Any]]:
    return await db.read(lambda c: db.store.hands_for_account(c, account.id))


@router.get("/api/tables/{table_id}/hands")
async def table_hands(table_id: int, db: DatabaseDep) -> list[dict[str, Any]]:
    return await db.read(lambda c: db.store.hands_for_table(c, table_id))


async def finished_hand(db: Database, hand_id: int, account: Account | None) -> dict[str, Any]:
    """A finished or void hand, its texts cut to what ``account`` may see."""
    viewer = None if account is None else account.id
    # Read, and its texts written, on the read's worker thread: not on the event loop.
    record = await db.read(lambda c: hand_as_seen(db.store.hand(c, hand_id), viewer))
    if record is None or record["status"] == "running":
        raise RestError("no_hand", "no finished hand with that id")
    return record


def download(hand_id: int, text: str | None, suffix: str) -> PlainTextResponse:
    if not text:
        raise RestError("void_hand", "this hand has no history (it was void)")
    return PlainTextResponse(
        text if text.endswith("\n") else text + "\n",
        headers={"Content-Disposition": f'attachment; filename="hand-{hand_id}.{suffix}"'},
    )


@router.get("/api/hands/{hand_id}")
async def hand(hand_id: int, account: CurrentAccount, db: DatabaseDep) -> dict[str, Any]:
    """A finished hand: players, result, and its PHH and PokerStars text.

    The texts show up cards, cards shown down and, to a player of the hand,
    that player's own down cards; no other card.
    """
    return await finished_hand(db, hand_id, account)


@router.get("/api/hands/{hand_id}/phh", response_class=PlainTextResponse)
async def hand_phh(hand_id: int, account: CurrentAccount, db: DatabaseDep) -> PlainTextResponse:
    """The hand as PHH, with only the cards the caller may see (others ``??``)."""
    return download(hand_id, (await finished_hand(db, hand_id, account))["phh"], "phh")


@router.get("/api/hands/{hand_id}/pokerstars", response_class=PlainTextResponse)
async def hand_pokerstars(
    hand_id: int, account: CurrentAccount, db: DatabaseDep
) -> PlainTextResponse:
    """The hand as PokerStars text; ``Dealt to`` shows the caller's own down cards."""
    return download(hand_id, (await finished_hand(db, hand_id, account))["pokerstars"], "txt")


@router.get("/api/hands/{hand_id}/replay")
async def hand_replay(hand_id: int, account: CurrentAccount, room: RoomDep) -> dict[str, Any]:
    """A finished hand's events, table seats, for a replayer: no card the caller may not see."""
    db = room.db
    viewer = None if account is None else account.id

    def read(conn: Connection) -> dict[str, Any] | None:
        """The hand, replayed on the read's worker thread: not on the event loop."""
        record = db.store.hand(conn, hand_id)
        if record is None or record["status"] != "finished":
            return None
        if not (record.get("played") or record.get("phh")):
            return None
        return replay_data(record, viewer)

    data: dict[str, Any] | None = await db.read(read)
    if data is None:
        raise RestError("no_hand", "no finished hand with that id")
    spec = room.spec(data["table_id"])
    if spec is not None:
        data["table_name"] = spec.name
        data["table_seats"] = spec.seats
    return data
