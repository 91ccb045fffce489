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

The flat form's two-key dict (``observation`` and ``action_mask``) is
reused the same way: only when nothing outside holds it either, and it
still has exactly its two keys with this slot's vector under
``observation`` (a caller that took the vector out, or put another array
in, and kept the vector would otherwise leave the vector's count unchanged;
that slot is replaced). Each reuse sets the mask again.

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
from stud.envcore.turns import NO_MASK
from stud.envcore.views import recall_views, views

RING: Final = 4
"""Observations of one kind kept for reuse: the caller may hold the last few."""


FLAT: Final = 0
"""A ring of bare vectors."""
NAMED: Final = 1
"""A ring of vectors with the dict form's views."""
PAIRED: Final = 2
"""A ring of vectors each in the flat form's dict, the dict reused too."""


class Slot:
    """One observation's arrays: the vector (it owns its memory), its dict views or its pair."""

    def __init__(self, kind: int, count: Callable[[Any], int], size: int = SIZE) -> None:
        named = kind == NAMED
        self.flat: FloatArray = np.zeros(size, dtype=np.float32)
        self.memory: memoryview[int] = self.flat.data.cast("B")
        """The vector's bytes: every observation is written here in one copy."""
        self.head: memoryview[int] = self.memory[: SIZE * 4]
        """The compact part's bytes (all of ``memory`` but a perfect-recall history)."""
        self.tail: memoryview[int] = self.memory[SIZE * 4 :]
        """The perfect-recall history's bytes (empty without one)."""
        self.named: dict[str, Any] = (
            (views(self.flat) if size == SIZE else recall_views(self.flat)) if named else {}
        )
        """The dict form's views (without the mask); a copy of it is handed out."""
        self.pair: dict[str, Any] = (
            {"observation": self.flat, "action_mask": NO_MASK} if kind == PAIRED else {}
        )
        """The flat form's dict (empty unless paired): handed out itself, its mask set each time."""
        self._paired = kind == PAIRED
        self._arrays: list[FloatArray] = [self.flat, *self.named.values()]
        self._count = count
        self.baseline = self.references()
        self._pair_baseline = self._pair_references()

    def _pair_references(self) -> int:
        """The pair's reference count, read the same way for the baseline and each check."""
        return self._count(self.pair)

    def free(self) -> bool:
        """Whether nothing outside holds any of it, so it may be written and handed out again."""
        if self.references() != self.baseline:
            return False
        if not self._paired:
            return True
        if self._pair_references() != self._pair_baseline:
            return False
        pair = self.pair
        return len(pair) == 2 and pair.get("observation") is self.flat and "action_mask" in pair

    def references(self) -> int:
        """The reference counts of its arrays, summed: above the baseline, someone holds one."""
        count = self._count
        total = 0
        for array in self._arrays:
            total += count(array)
        return total


class Ring:
    """The slots of one observation kind, taken in turn; a held slot is replaced, never written."""

    def __init__(self, kind: int, size: int = SIZE) -> None:
        self._kind = kind
        self._size = size
        self._count: Callable[[Any], int] = sys.getrefcount
        self._slots = [Slot(kind, self._count, size) for _ in range(RING)]
        self._next = 0

    def take(self) -> Slot:
        """A slot nobody outside holds, to be written in full and handed out."""
        index = self._next
        self._next = index + 1 if index + 1 < RING else 0
        slot = self._slots[index]
        if not slot.free():  # the caller kept some of it: it is theirs now
            slot = self._slots[index] = Slot(self._kind, self._count, self._size)
        return slot
