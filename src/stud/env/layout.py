"""The observation's fixed layout: where each feature sits in the flat vector, and its spaces.

One flat ``float32`` vector holds everything a seat may see; the dict form
is views into it. The layout is the same for 2 to 8 players (eight seat rows,
the absent ones zero), so one network can play every table size. Seat rows
are relative: row 0 is the observer, row ``k`` the seat ``k`` places to its
left (clockwise, the order of play). Chips are in big bets. docs/rl.md
describes every feature and the rule it follows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from stud.cards import DECK_SIZE
from stud.envcore.offsets import (
    ACTION_COUNT,
    AMOUNTS,
    BET,
    BETTING,
    BETTING_FEATURES,
    COMMITTED,
    COMMUNITY,
    DOWN,
    LEVEL,
    PLAYER,
    POSITION,
    POT,
    ROW,
    SCALARS,
    SEAT_FEATURES,
    SEATS,
    SIZE,
    SLOT,
    STACK,
    STREET,
    STREETS,
    TABLE,
    TABLE_FEATURES,
    TO_CALL,
    UP,
    WAGERS,
)
from stud.envcore.views import recall_views, views
from stud.game import MAX_SEATS

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


@dataclass(frozen=True, slots=True)
class Segment:
    """One named feature: its place in the flat vector and its shape in the dict form."""

    name: str
    start: int
    shape: tuple[int, ...]
    kind: str
    """``cards`` (0/1), ``flags`` (0/1), ``chips`` (big bets) or ``counts``."""

    @property
    def size(self) -> int:
        size = 1
        for length in self.shape:
            size *= length
        return size


SEGMENTS = (
    Segment("down", DOWN, (DECK_SIZE,), "cards"),
    Segment("position", POSITION, (MAX_SEATS,), "flags"),
    Segment("to_call", TO_CALL, (1,), "chips"),
    Segment("amounts", AMOUNTS, (ACTION_COUNT,), "chips"),
    Segment("up", SEATS, (MAX_SEATS, DECK_SIZE), "cards"),
    Segment("players", SEATS, (MAX_SEATS, len(SEAT_FEATURES)), "chips"),
    Segment("betting", SEATS, (MAX_SEATS, STREETS, len(BETTING_FEATURES)), "counts"),
    Segment("community", COMMUNITY, (DECK_SIZE,), "cards"),
    Segment("street", STREET, (STREETS,), "flags"),
    Segment("table", SCALARS, (len(TABLE_FEATURES),), "chips"),
)
"""The dict form's keys in order (``action_mask`` comes last)."""


def _bounds(total_chips: int, big_bet: int) -> FloatArray:
    """The highest value of each element: 1 for cards and flags, the chips on the table else."""
    chips = total_chips / big_bet
    high = np.ones(SIZE, dtype=np.float32)
    high[TO_CALL] = chips
    high[AMOUNTS:SEATS] = chips
    rows = high[SEATS:TABLE].reshape(MAX_SEATS, ROW)
    rows[:, STACK] = chips
    rows[:, BET] = chips
    rows[:, COMMITTED] = chips
    rows[:, BETTING:ROW] = total_chips  # each action counted puts in a chip, or ends a turn
    high[POT] = chips
    high[LEVEL] = chips
    high[WAGERS] = total_chips
    return high


class Layout:
    """The spaces of one table (its chips bound the values) and the flat-to-dict views.

    ``history_slots`` (perfect recall) adds that many action slots after the
    compact vector, each 0/1 (see :mod:`stud.envcore.history`).
    """

    def __init__(self, total_chips: int, big_bet: int, history_slots: int = 0) -> None:
        self.history_slots = history_slots
        self.high = np.concatenate(
            [_bounds(total_chips, big_bet), np.ones(history_slots * SLOT, dtype=np.float32)]
        )
        self.flat_space = spaces.Box(0.0, self.high, dtype=np.float32)
        self.mask_space = spaces.Box(0, 1, shape=(ACTION_COUNT,), dtype=np.int8)
        parts: dict[str, spaces.Space[Any]] = {}
        for segment in SEGMENTS:
            high = self.view(self.high, segment)
            parts[segment.name] = spaces.Box(0.0, np.ascontiguousarray(high), dtype=np.float32)
        if history_slots:
            parts["history"] = spaces.Box(0.0, 1.0, (history_slots, SLOT), dtype=np.float32)
        parts["action_mask"] = self.mask_space
        self.dict_space = spaces.Dict(parts)

    @staticmethod
    def view(flat: FloatArray, segment: Segment) -> FloatArray:
        """``segment`` of ``flat`` in its dict shape (a view, no copy)."""
        if segment.start == SEATS:
            rows = flat[SEATS:TABLE].reshape(MAX_SEATS, ROW)
            if segment.name == "up":
                return rows[:, UP:PLAYER]
            if segment.name == "players":
                return rows[:, PLAYER:BETTING]
            return rows[:, BETTING:ROW].reshape(segment.shape)
        return flat[segment.start : segment.start + segment.size].reshape(segment.shape)


def unflatten(flat: FloatArray) -> dict[str, FloatArray]:
    """The dict form of a flat observation (views into ``flat``), without the mask.

    A perfect-recall vector (longer, by whole history slots) gets its ``history`` too.
    """
    if flat.ndim != 1 or flat.shape[0] < SIZE or (flat.shape[0] - SIZE) % SLOT:
        raise ValueError(
            f"a flat observation has {SIZE} values, plus {SLOT} per history slot, "
            f"not shape {flat.shape}"
        )
    return views(flat) if flat.shape[0] == SIZE else recall_views(flat)


def flatten(observation: dict[str, Any]) -> FloatArray:
    """The flat vector of a dict observation (a new array; the mask is left out)."""
    history = observation.get("history")
    slots = 0 if history is None else len(history)
    flat = np.zeros(SIZE + slots * SLOT, dtype=np.float32)
    for segment in SEGMENTS:
        Layout.view(flat, segment)[...] = observation[segment.name]
    if history is not None:
        flat[SIZE:] = np.reshape(history, -1)
    return flat
