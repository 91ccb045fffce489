"""The three games as data: what differs between Stud, Stud8 and Razz.

The hand engine (:mod:`stud.game.state`) reads these fields and never tests a
game by name, so each difference lives in exactly one place (architecture.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class DoorCard(StrEnum):
    """Which door card brings in on 3rd street (rules.md R3)."""

    LOWEST = "lowest"
    """Stud and Stud8: the lowest card, ace high, suits c < d < h < s."""
    HIGHEST = "highest"
    """Razz: the highest card, ace low, suits c < d < h < s."""


class Showing(StrEnum):
    """Which showing hand acts first on 4th to 7th street (rules.md R6)."""

    HIGH = "high"
    """The best high showing hand (pairs, trips, ...; no straights or flushes)."""
    LOW = "low"
    """The best ace-to-five low showing hand (Razz)."""


class Split(StrEnum):
    """How a pot is won at the showdown (rules.md R14–R16)."""

    HIGH = "high"
    """Best five-card high hand takes the pot (Stud)."""
    HIGH_LOW = "high-low"
    """Half to the best high, half to the best eight-or-better low (Stud8)."""
    LOW = "low"
    """Best ace-to-five low takes the pot, no qualifier (Razz)."""


@dataclass(frozen=True, slots=True)
class Variant:
    """One game of the stud family, described by its rules rather than its name."""

    code: str
    """Short name used on the command line and in JSON: ``stud``, ``stud8``, ``razz``."""
    name: str
    """The name players know, as PokerStars writes it."""
    phh: str
    """The PHH variant code (``F7S``, ``F7S/8``, ``FR``)."""
    door_card: DoorCard
    """R3: which door card brings in."""
    first_to_act: Showing
    """R6: which showing hand acts first from 4th street on."""
    split: Split
    """R14–R16: how the pot is won."""
    open_pair_double_bet: bool
    """R7: an open pair on 4th street allows a big bet (Stud only)."""

    @property
    def ace_low(self) -> bool:
        """Whether the ace plays low for the bring-in and the odd chip (Razz)."""
        return self.door_card is DoorCard.HIGHEST

    def __str__(self) -> str:
        return self.code


STUD = Variant(
    code="stud",
    name="7 Card Stud",
    phh="F7S",
    door_card=DoorCard.LOWEST,
    first_to_act=Showing.HIGH,
    split=Split.HIGH,
    open_pair_double_bet=True,
)
STUD8 = Variant(
    code="stud8",
    name="7 Card Stud Hi/Lo",
    phh="F7S/8",
    door_card=DoorCard.LOWEST,
    first_to_act=Showing.HIGH,
    split=Split.HIGH_LOW,
    open_pair_double_bet=False,
)
RAZZ = Variant(
    code="razz",
    name="Razz",
    phh="FR",
    door_card=DoorCard.HIGHEST,
    first_to_act=Showing.LOW,
    split=Split.LOW,
    open_pair_double_bet=False,
)

VARIANTS: dict[str, Variant] = {v.code: v for v in (STUD, STUD8, RAZZ)}
"""The games by code."""


def variant(name: str | Variant) -> Variant:
    """The game named ``stud``, ``stud8`` or ``razz`` (or its PHH code); ValueError otherwise."""
    if isinstance(name, Variant):
        return name
    key = name.strip().lower()
    for v in VARIANTS.values():
        if key in (v.code, v.phh.lower()):
            return v
    known = ", ".join(VARIANTS)
    raise ValueError(f"unknown game {name!r}: use one of {known}")
