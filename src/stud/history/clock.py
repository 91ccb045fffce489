"""The hand's time in ET, which PokerStars adds to a header written in another zone.

PokerStars writes the player's local time and zone, and, when that zone is not
ET, the same moment in ET after it: ``2013/01/03 16:27:43 EET [2013/01/03
9:27:43 ET]``. A record read from such a header keeps both; for one that
states only its local time (the room's hands are in UTC), the ET time is
worked out here from the zones PokerStars names, or an IANA name such as a PHH
``time_zone`` gives.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

EASTERN: Final = "America/New_York"
"""PokerStars' ET: the US East Coast, daylight saving time included."""
ZONES: Final = {
    "UTC": "UTC",
    "WET": "Europe/Lisbon",
    "CET": "Europe/Paris",
    "EET": "Europe/Helsinki",
    "MSK": "Europe/Moscow",
}
"""Zones as PokerStars abbreviates them (CET in summer too: it means the region's clock)."""


def eastern_time(time: datetime | None, zone: str | None) -> datetime | None:
    """``time`` (local, in ``zone``) in ET, without a zone; None when ``zone`` is ET, unknown,
    or not in this system's time-zone data, or there is no time."""
    if time is None or zone is None or zone == "ET":
        return None
    name = ZONES.get(zone, zone if "/" in zone else None)
    if name is None:
        return None
    try:
        local = time.replace(tzinfo=ZoneInfo(name))
        return local.astimezone(ZoneInfo(EASTERN)).replace(tzinfo=None)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def posix_time(time: datetime | None, zone: str | None, time_et: datetime | None) -> float | None:
    """The moment a header states, in seconds since the epoch: from its ET time when it has
    one, else from its own zone (read as UTC when unknown); None when it states no time."""
    if time_et is not None:
        time, zone = time_et, "ET"
    if time is None:
        return None
    name = (
        EASTERN if zone == "ET" else ZONES.get(zone or "", zone if zone and "/" in zone else "UTC")
    )
    try:
        return time.replace(tzinfo=ZoneInfo(name)).timestamp()
    except (ZoneInfoNotFoundError, ValueError):
        return time.replace(tzinfo=ZoneInfo("UTC")).timestamp()
