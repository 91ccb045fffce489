"""REST for a finished hand's equities street by street, the replayer's chart: a room's hand
(``GET /api/hands/{id}/equity``) and an imported one (``GET /api/me/imports/{id}/equity``).

The record is cut to what the caller may see before anything is counted: a room's hand
by :func:`~stud.server.http.histories.for_viewer` (the caller's own down cards if it
played the hand, the cards shown down, the up cards; nothing else), an imported hand as
its file holds it (what its uploader saw). The counting runs in a worker process
(:mod:`stud.server.http.offload`), and the answer is kept: a finished hand's never changes.
"""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter
from sqlalchemy import Connection

from stud.history import HandRecord, HistoryError, read_phh
from stud.server.actors.audience import hand_player
from stud.server.http.deps import CurrentAccount, DatabaseDep, LoggedIn
from stud.server.http.errors import RestError, retry_after
from stud.server.http.histories import for_viewer, house_record
from stud.server.http.imports import WorkersDep
from stud.server.http.offload import Busy, Workers
from stud.server.http.street_equity import EXACT_LIMIT, SAMPLES, street_equities
from stud.server.storage import imports as stored

router = APIRouter(tags=["hands"])


def counted(record: HandRecord, seats: Sequence[int], seed: int) -> list[dict[str, Any]]:
    """The streets' equities with the table's seats (runs in the worker process)."""
    streets = street_equities(record, seed)
    for street in streets:
        street["shares"] = [
            {"seat": seats[seat], "equity": share}
            for seat, share in zip(street.pop("seats"), street.pop("equity"), strict=True)
        ]
    return streets


async def answer(
    workers: Workers, key: tuple[Any, ...], record: HandRecord, seats: list[int], seed: int
) -> dict[str, Any]:
    streets = workers.cached(key)
    if streets is None:
        try:
            streets = await workers.hands.run(counted, record, seats, seed)
        except Busy:
            raise RestError(
                "server_busy", "too many equities being counted: try again", headers=retry_after(2)
            ) from None
        except ValueError as error:  # a spot the engine refuses (an R12 deck it cannot tell)
            raise RestError("replay_failed", f"no equity for this hand: {error}") from None
        workers.keep(key, streets)
    return {
        "game": record.game,
        "exact_limit": EXACT_LIMIT,
        "samples": SAMPLES,
        "seed": seed,
        "streets": streets,
    }


@router.get("/api/hands/{hand_id}/equity")
async def hand_equity(
    hand_id: int, account: CurrentAccount, db: DatabaseDep, workers: WorkersDep
) -> dict[str, Any]:
    """Each street's share of the pot per seat of a finished hand, from the cards the caller
    may see (its own down cards if it played the hand, the cards shown down, the up cards):
    ``method`` says whether a street was enumerated (``exact``) or ``sampled``."""
    viewer_account = None if account is None else account.id

    def read(conn: Connection) -> tuple[HandRecord, list[int], int | None] | None:
        row = db.store.hand(conn, hand_id)
        if row is None or row["status"] != "finished":
            return None
        try:
            record = house_record(row)
        except HistoryError:
            return None
        if record is None:
            return None
        viewer = hand_player(row["players"], viewer_account)
        return for_viewer(record, viewer), [int(p["seat"]) for p in row["players"]], viewer

    found = await db.read(read)
    if found is None:
        raise RestError("no_hand", "no finished hand with that id")
    record, seats, viewer = found
    out = await answer(workers, ("room", db.url, hand_id, viewer), record, seats, hand_id)
    return {"id": hand_id, "you": None if viewer is None else seats[viewer], **out}


@router.get("/api/me/imports/{hand_id}/equity")
async def imported_equity(
    hand_id: int, account: LoggedIn, db: DatabaseDep, workers: WorkersDep
) -> dict[str, Any]:
    """The same for one of the caller's imported hands: its equity against the cards the
    others showed (their unseen cards unknown); 404 for another account's hand."""

    def read(conn: Connection) -> HandRecord | None:
        row = stored.imported_hand(conn, account.id, hand_id)
        return None if row is None else read_phh(row["phh"])

    record = await db.read(read)
    if record is None:
        raise RestError("no_hand", "no finished hand with that id")
    seats = [seat.number - 1 for seat in record.seats]
    key = ("imported", db.url, hand_id)
    out = await answer(workers, key, record, seats, hand_id)
    return {"id": hand_id, "you": None if record.hero is None else seats[record.hero], **out}
