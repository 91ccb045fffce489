"""``GET /api/hands/{id}/replay``: a finished hand's events for the browser's replayer.

The stored hand's record (:mod:`stud.server.http.histories`) is replayed through the
engine, off the event loop, and its events filtered as the caller may see them:
a spectator's view (no down card of anyone until shown),
or, for a player of that hand, also that player's own down cards. Seats are
the table's, as in the live events (docs/protocol.md), so the client replays
them with the reducer it uses live. Kept apart from :mod:`stud.server.app`:
the app only includes :data:`router`.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from sqlalchemy import Connection

from stud.game import visible_events
from stud.history import HistoryError, replay
from stud.server.actors.audience import hand_player
from stud.server.http.deps import request_account
from stud.server.http.errors import RestError
from stud.server.http.histories import house_record
from stud.table.engine import table_seats

router = APIRouter()


def replay_data(record: dict[str, Any], viewer_account: int | None) -> dict[str, Any]:
    """The replay of one stored, finished hand as ``viewer_account`` may see it."""
    players: list[dict[str, Any]] = record["players"]
    seats = [int(p["seat"]) for p in players]
    try:
        played = house_record(record)
        if played is None:
            raise HistoryError("the hand has no history")
        report = replay(played)
    except (HistoryError, ValueError) as error:
        raise RestError(
            "replay_failed", f"the hand's history cannot be replayed: {error}"
        ) from None
    viewer = hand_player(players, viewer_account)
    events = [table_seats(e.to_dict(), seats) for e in visible_events(report.events, viewer)]
    started = events[0] if events else {}
    return {
        "id": record["id"],
        "table_id": record["table_id"],
        "number": record["number"],
        "game": record["game"],
        **{k: started.get(k) for k in ("ante", "bring_in", "small_bet", "big_bet")},
        "players": [{"seat": p["seat"], "name": p["name"], "stack": p["stack"]} for p in players],
        "you": None if viewer is None else seats[viewer],
        "events": events,
        # Published with the finished hand: the seeds redo every card (docs/fairness.md).
        "shuffle": None if report.record.shuffle is None else report.record.shuffle.revealed(),
    }


@router.get("/api/hands/{hand_id}/replay", tags=["hands"])
async def hand_replay(hand_id: int, request: Request) -> dict[str, Any]:
    """A finished hand's events, table seats, for a replayer: no card the caller may not see."""
    db = request.app.state.room.db
    store = db.store
    account = await request_account(request)
    viewer = None if account is None else account.id

    def read(conn: Connection) -> dict[str, Any] | None:
        """The hand, replayed on the read's worker thread: not on the event loop."""
        record = store.hand(conn, hand_id)
        if record is None or record["status"] != "finished":
            return None
        if not (record.get("played") or record.get("phh")):
            return None
        return replay_data(record, viewer)

    data: dict[str, Any] | None = await db.read(read)
    if data is None:
        raise RestError("no_hand", "no finished hand with that id")
    spec = request.app.state.room.spec(data["table_id"])
    if spec is not None:
        data["table_name"] = spec.name
        data["table_seats"] = spec.seats
    return data
