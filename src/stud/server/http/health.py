"""``GET /api/health``: whether the room runs, with its tables, database and what start-up
recovered (a load balancer's or an operator's check)."""

# No ``from __future__ import annotations``: FastAPI reads the annotations at run time.
from typing import Any

from fastapi import APIRouter

from stud.server.http.deps import RoomDep

router = APIRouter(tags=["room"])


@router.get("/api/health")
async def health(room: RoomDep) -> dict[str, Any]:
    return {
        "ok": True,
        "tables": len(room.actors),
        "database": room.db.backend,
        "recovered": room.recovered,
        **room.health(),
    }
