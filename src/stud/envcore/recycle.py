"""Observation arrays reused once nobody holds them, so observing allocates (almost) nothing.

Making NumPy arrays is most of what an observation costs: the flat vector
is one array, the dict form eleven (one view per key). An AEC loop asks for
an observation at every step and usually lets go of it at the next, so the
arrays are kept in a small ring and written again in place, but only when
their reference counts show that nothing outside holds them any more: not
the vector, not the dict, not any array of it, and not any view or buffer
made from them (NumPy points every view at the array that owns the memory,
so a view the caller made of a view holds the vector). An observation the
caller keeps (a replay buffer, the previous step's) is never written again:
its slot in the ring gets new arrays and the kept ones are the caller's.

Each reuse writes every value of the vector, so numbers the caller wrote
into an observation it then dropped do not survive; only changing an
array's own attributes in place (``shape``, ``dtype``, ``flags``) and then
dropping it would be seen again, which NumPy itself discourages.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Final

import numpy as np

from stud.envcore.encoder import FloatArray
from stud.envcore.offsets import SIZE
from stud.envcore.views import views

RING: Final = 4
"""Observations of one kind kept for reuse: the caller may hold the last few."""


class Slot:
    """One observation's arrays: the vector (it owns its memory), and its dict views if asked."""

    def __init__(self, named: bool, count: Callable[[Any], int]) -> None:
        self.flat: FloatArray = np.zeros(SIZE, dtype=np.float32)
        self.memory: memoryview[int] = self.flat.data.cast("B")
        """The vector's bytes: every observation is written here in one copy."""
        self.named: dict[str, Any] = views(self.flat) if named else {}
        """The dict form's views (without the mask); a copy of it is handed out."""
        self._arrays: list[FloatArray] = [self.flat, *self.named.values()]
        self._count = count
        self.baseline = self.references()

    def references(self) -> int:
        """The reference counts of its arrays, summed: above the baseline, someone holds one."""
        count = self._count
        total = 0
        for array in self._arrays:
            total += count(array)
        return total


class Ring:
    """The slots of one observation kind, taken in turn; a held slot is replaced, never written."""

    def __init__(self, named: bool) -> None:
        self._named = named
        self._count: Callable[[Any], int] = sys.getrefcount
        self._slots = [Slot(named, self._count) for _ in range(RING)]
        self._next = 0

    def take(self) -> Slot:
        """A slot nobody outside holds, to be written in full and handed out."""
        index = self._next
        self._next = index + 1 if index + 1 < RING else 0
        slot = self._slots[index]
        if slot.references() != slot.baseline:  # the caller kept it: it is theirs now
            slot = self._slots[index] = Slot(self._named, self._count)
        return slot
