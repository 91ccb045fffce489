"""The dict form of a flat observation: one NumPy view per key, no copy.

Kept with the compiled core (pure NumPy) because every dict observation is
built here; :mod:`stud.env.layout` names the same segments with their
spaces, and its tests check the two agree.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from stud.envcore.offsets import (
    AMOUNTS,
    BETTING,
    COMMUNITY,
    DOWN,
    PLAYER,
    POSITION,
    ROW,
    SCALARS,
    SEATS,
    SIZE,
    SLOT,
    STREET,
    STREETS,
    TABLE,
    TO_CALL,
    UP,
)
from stud.game import MAX_SEATS

FloatArray = npt.NDArray[np.float32]

_DOWN: Final = slice(DOWN, POSITION)
_POSITION: Final = slice(POSITION, TO_CALL)
_TO_CALL: Final = slice(TO_CALL, AMOUNTS)
_AMOUNTS: Final = slice(AMOUNTS, SEATS)
_ROWS: Final = slice(SEATS, TABLE)
_COMMUNITY: Final = slice(COMMUNITY, STREET)
_STREET: Final = slice(STREET, SCALARS)
_TABLE: Final = slice(SCALARS, SIZE)
_ROWS_SHAPE: Final = (MAX_SEATS, ROW)
# Column ranges of the seat rows, as index tuples (every row, some columns).
_UP: Final = (slice(None), slice(UP, PLAYER))
_PLAYER: Final = (slice(None), slice(PLAYER, BETTING))
_BETTING: Final = (slice(None), slice(BETTING, ROW))
_BETTING_SHAPE: Final = (MAX_SEATS, STREETS, (ROW - BETTING) // STREETS)


def views(flat: FloatArray) -> dict[str, FloatArray]:
    """The dict form of ``flat`` without the mask: views into it (the hot path of ``observe``)."""
    rows = flat[_ROWS].reshape(_ROWS_SHAPE)
    return {
        "down": flat[_DOWN],
        "position": flat[_POSITION],
        "to_call": flat[_TO_CALL],
        "amounts": flat[_AMOUNTS],
        "up": rows[_UP],
        "players": rows[_PLAYER],
        "betting": rows[_BETTING].reshape(_BETTING_SHAPE),
        "community": flat[_COMMUNITY],
        "street": flat[_STREET],
        "table": flat[_TABLE],
    }


def recall_views(flat: FloatArray) -> dict[str, FloatArray]:
    """:func:`views` of a perfect-recall vector, with its ``history`` (one row per action slot)."""
    named = views(flat)
    named["history"] = flat[SIZE:].reshape(-1, SLOT)
    return named
