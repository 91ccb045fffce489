"""REST for an account's own imported hands: upload PokerStars files, list them, replay one.

Imported hands are the uploader's alone: every endpoint here reads the caller's rows only
(stud.server.storage.imports), and another account's hand answers 404 ``no_hand``, as a
hand that does not exist. The upload is read in a worker process
(:mod:`stud.server.http.imports_read`, :mod:`stud.server.http.offload`); the body is
bounded before it is read (:class:`~stud.server.http.imports_read.ImportLimits`) and the
hands are stored a few hundred per write, so the database's one writer, which the tables'
hands wait for, is never held long.
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from sqlalchemy import Connection

from stud.game import visible_events
from stud.history import HistoryError, read_phh, replay
from stud.server.http.deps import DatabaseDep, LoggedIn
from stud.server.http.errors import RestError, retry_after
from stud.server.http.imports_read import ImportLimits, UploadRefused, read_upload
from stud.server.http.offload import Busy, Workers
from stud.server.storage import imports
from stud.server.wire import encode
from stud.table.engine import table_seats

router = APIRouter(tags=["imported hands"])

LIMITS = ImportLimits()
WRITE_CHUNK = 250
"""Hands stored per write: each a few milliseconds of the writer, between the tables' own."""


async def workers_of(request: Request) -> Workers:
    workers: Workers = request.app.state.workers
    return workers


WorkersDep = Annotated[Workers, Depends(workers_of)]


async def bounded_body(request: Request, limit: int) -> bytes:
    """The request's body, refused (413) as soon as it is known to pass ``limit`` bytes."""
    too_big = RestError(
        "upload_too_large",
        f"an upload is at most {limit} bytes",
        {"max": limit},
    )
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > limit:
        raise too_big
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_big
    return bytes(body)


@router.post("/api/me/imports", response_model=dict[str, Any])
async def import_hands(
    request: Request, account: LoggedIn, db: DatabaseDep, workers: WorkersDep
) -> Response:
    """Import PokerStars stud, Stud Hi/Lo and Razz hand histories (``multipart/form-data``,
    one or more files): the number imported, their ids, and each hand refused with its
    reason (``code``, the file, the hand's place in it, its PokerStars number, the line)."""
    content_type = request.headers.get("content-type", "")
    if not content_type.lower().startswith("multipart/form-data"):
        raise RestError("not_multipart", "send the files as multipart/form-data")
    body = await bounded_body(request, LIMITS.max_bytes)
    try:
        upload = await workers.imports.run(read_upload, body, content_type, LIMITS)
    except Busy:
        raise RestError(
            "server_busy", "too many uploads being read: try again", headers=retry_after(5)
        ) from None
    except UploadRefused as whole:
        raise RestError(whole.code, whole.message, whole.params) from None
    ids: list[int] = []
    refused = list(upload.refused)
    for start in range(0, len(upload.rows), WRITE_CHUNK):
        chunk = upload.rows[start : start + WRITE_CHUNK]

        def write(conn: Connection, chunk: list[dict[str, Any]] = chunk) -> list[int | str]:
            return imports.store_imported(conn, account.id, chunk, LIMITS.per_account)

        stored: list[int | str] = await db.write(write)
        for row, outcome in zip(chunk, stored, strict=True):
            if isinstance(outcome, int):
                ids.append(outcome)
            else:
                refused.append(
                    {"file": row["file_name"], "hand": row["place"], "line": None,
                     "code": outcome, "hand_id": row["site_hand_id"],
                     "detail": CODES_DETAIL[outcome]}
                )  # fmt: skip
    answer = {"imported": len(ids), "ids": ids, "refused": refused, "files": upload.files}
    # Encoded by orjson: thousands of refusals through FastAPI's encoder would hold the loop.
    return Response(encode(answer), media_type="application/json")


CODES_DETAIL = {
    "import_duplicate": "this hand is already among your imported hands",
    "import_quota": f"an account keeps at most {LIMITS.per_account} imported hands",
}


@router.get("/api/me/imports")
async def imported_hands(account: LoggedIn, db: DatabaseDep) -> list[dict[str, Any]]:
    """The caller's imported hands, newest import first (200 at most)."""
    return await db.read(lambda c: imports.imported_hands(c, account.id))


async def own_imported(db: DatabaseDep, account: LoggedIn, hand_id: int) -> dict[str, Any]:
    """The caller's imported hand ``hand_id`` with its PHH text; 404 for anyone else's."""
    row = await db.read(lambda c: imports.imported_hand(c, account.id, hand_id))
    if row is None:
        raise RestError("no_hand", "no finished hand with that id")
    return row


def imported_replay(row: dict[str, Any]) -> dict[str, Any]:
    """An imported hand's replay, in the shape of ``GET /api/hands/{id}/replay``: its seats
    the site's (seat 1 is 0), the uploader's down cards and the cards shown down.
    HistoryError or ValueError if it does not replay. Run in a worker process: a hand whose
    showdown hides cards is replayed against every card they could be (seconds, at worst)."""
    record = read_phh(row["phh"])
    report = replay(record)
    seats = [seat.number - 1 for seat in record.seats]
    events = [table_seats(e.to_dict(), seats) for e in visible_events(report.events, record.hero)]
    started = events[0] if events else {}
    return {
        "id": row["id"],
        "imported": True,
        "site_hand_id": row["site_hand_id"],
        "table_id": None,
        "table_name": record.table,
        "table_seats": max(record.max_seats or 0, max(seats) + 1),
        "game": record.game,
        "decimals": record.decimals,
        "currency": record.currency,
        **{k: started.get(k) for k in ("ante", "bring_in", "small_bet", "big_bet")},
        "players": [
            {"seat": seat, "name": s.name, "stack": s.stack}
            for seat, s in zip(seats, record.seats, strict=True)
        ],
        "you": None if record.hero is None else seats[record.hero],
        "events": events,
        "shuffle": None,
    }


@router.get("/api/me/imports/{hand_id}/replay")
async def imported_hand_replay(
    hand_id: int, account: LoggedIn, db: DatabaseDep, workers: WorkersDep
) -> dict[str, Any]:
    """An imported hand's events for the replayer (only the caller's own hands)."""
    row = await own_imported(db, account, hand_id)
    try:
        data: dict[str, Any] = await workers.hands.run(imported_replay, row)
    except Busy:
        raise RestError(
            "server_busy", "too many hands being replayed: try again", headers=retry_after(2)
        ) from None
    except (HistoryError, ValueError) as error:
        raise RestError(
            "replay_failed", f"the hand's history cannot be replayed: {error}"
        ) from None
    return data
