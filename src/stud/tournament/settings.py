"""What a tournament is before it starts: game, kind, buy-in and fee, structure, tables, clock."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Final, Literal

from stud.table import TableError
from stud.tournament.structure import Structure

Kind = Literal["sng", "mtt"]
KINDS: Final = ("sng", "mtt")
GAMES: Final = ("stud", "stud8", "razz")


class TournamentError(TableError):
    """A request the tournament refuses; ``code`` is the protocol's error code.

    A kind of :class:`stud.table.TableError`, so the room answers both alike.
    """


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """A Sit & Go (one table, starts when its seats are full) or a scheduled multi-table event.

    ``buy_in`` goes to the prize pool and ``fee`` to the house, both in the
    room's money; tournament chips (``structure.starting_chips``) are not money.
    """

    id: int
    name: str
    game: str
    kind: Kind = "sng"
    buy_in: int = 100
    fee: int = 10
    structure: Structure = field(default_factory=Structure)
    table_seats: int = 8
    """Seats per table; a Sit & Go starts when this many have registered."""
    start_at: float | None = None
    """When a multi-table tournament starts (seconds, the caller's clock)."""
    late_levels: int = 0
    """A multi-table tournament takes entrants until this many levels have been played."""
    max_entrants: int | None = None
    """A cap on a multi-table field (None: any number)."""
    turn_seconds: float = 20.0
    time_bank: float = 30.0
    bank_refill: float = 2.0
    timeouts_to_sit_out: int = 2
    pause_between_hands: float = 2.0

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ValueError(f"unknown game {self.game!r}: use one of {', '.join(GAMES)}")
        if self.kind not in KINDS:
            raise ValueError(f"a tournament is a 'sng' or an 'mtt', not {self.kind!r}")
        if not 2 <= self.table_seats <= 8:
            raise ValueError("a stud table has 2 to 8 seats")
        if self.buy_in < 0 or self.fee < 0:
            raise ValueError("the buy-in and the fee cannot be negative")
        if self.kind == "mtt" and self.start_at is None:
            raise ValueError("a multi-table tournament needs a start time")
        if self.late_levels < 0 or (self.kind == "sng" and self.late_levels):
            raise ValueError("late registration is for multi-table tournaments, for 0+ levels")
        if self.max_entrants is not None and self.max_entrants < 2:
            raise ValueError("a tournament needs room for at least two entrants")

    @property
    def capacity(self) -> int | None:
        """The most entrants: a Sit & Go's seats, or the cap of a multi-table field."""
        return self.table_seats if self.kind == "sng" else self.max_entrants

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["structure"] = self.structure.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentSettings:
        values = dict(data)
        values["structure"] = Structure.from_dict(values["structure"])
        return cls(**values)

    def public(self) -> dict[str, Any]:
        data = self.to_dict()
        data["buy_in_text"] = buy_in_text(self)
        return data


def buy_in_text(settings: TournamentSettings) -> str:
    """The buy-in as PokerStars writes it in a hand's header: ``100+10`` (play money)."""
    if settings.buy_in == 0 and settings.fee == 0:
        return "Freeroll"
    return f"{settings.buy_in}+{settings.fee}"
