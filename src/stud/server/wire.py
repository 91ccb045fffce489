"""How the room's server messages are encoded: compact JSON through orjson, one place for all.

Actors, channels, the websocket and the HTTP layer all send what this module makes.
"""

from __future__ import annotations

from typing import Any

import orjson


def dumps(message: dict[str, Any]) -> str:
    """Server messages as compact JSON text (see :func:`encode`)."""
    return encode(message).decode()


def encode(message: Any) -> bytes:
    """Server messages as compact JSON (orjson: the room encodes a message per client per step).

    Integer dict keys (seat numbers) become strings, as :func:`json.dumps` makes them.
    orjson's option for them is slower for every message, and few messages have
    such keys: it is used only for a message that plain encoding refuses.
    """
    try:
        return orjson.dumps(message)
    except TypeError:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)
