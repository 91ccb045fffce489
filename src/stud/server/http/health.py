"""``GET /api/health``: whether the room runs, with its tables, database and what start-up
recovered, and whether the database and Redis answer now (an operator's check);
``GET /api/health/ready``: whether this process can take players now, 503 when it cannot
book hands (a load balancer's check)."""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
import asyncio
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from stud.server.http.deps import RoomDep
from stud.server.room.room import Room

router = APIRouter(tags=["room"])


async def _readiness(room: Room) -> dict[str, Any]:
    """The database's and Redis's answers now, the tables waiting for their records, and
    from these whether the process is ready: it can book hands (stud.server.actors.booking)."""
    database, redis = await asyncio.gather(room.db.reachable(), room.coordination.redis_reachable())
    waiting = sum(1 for actor in list(room.actors.values()) if actor.records.down)
    ready = database and redis is not False and waiting == 0
    return {
        "database_reachable": database,
        "redis_reachable": redis,
        "tables_waiting_for_records": waiting,
        "ready": ready,
    }


@router.get("/api/health")
async def health(room: RoomDep) -> dict[str, Any]:
    """Always 200 while the process runs (a liveness check); ``ready`` says if it can play."""
    return {
        "ok": True,
        "tables": len(room.actors),
        "database": room.db.backend,
        "recovered": room.recovered,
        **await _readiness(room),
        **room.health(),
    }


@router.get("/api/health/ready", response_model=None)
async def ready(room: RoomDep) -> JSONResponse:
    """200 when the process can book hands (database and Redis answer, no table waits for its
    records), else 503: a load balancer sends new players elsewhere meanwhile."""
    readiness = await _readiness(room)
    return JSONResponse(readiness, status_code=200 if readiness["ready"] else 503)
