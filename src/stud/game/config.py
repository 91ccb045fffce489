"""A table's rules as data: stakes, seats, stacks and the options of rules.md.

:class:`TableConfig` is checked when it is made, so an impossible table (a
bring-in above the small bet, nine seats, a negative stack, ...) fails at once
with a message that says what is wrong, never halfway through a hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import TYPE_CHECKING

from stud.cards import DECK_SIZE, parse_cards
from stud.game.variants import Variant, variant

MIN_SEATS = 2
MAX_SEATS = 8
RAISE_CAP = 4
"""R10: a bet and three raises per betting round (the completion is the bet)."""
FIRST_STREET = 3
LAST_STREET = 7
"""The streets of the game: 3rd street (the deal and the bring-in) to 7th (the river)."""


def _chips(name: str, value: object, *, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number of chips, not {value!r}")
    if value < minimum:
        bound = "negative" if minimum == 0 else f"below {minimum}"
        raise ValueError(f"{name} cannot be {bound}: got {value}")
    return value


def _percent(value: object) -> Fraction:
    if isinstance(value, bool):
        raise ValueError(f"rake_percent must be a number, not {value!r}")
    try:
        if isinstance(value, float):
            return Fraction(repr(value))  # 0.07 means exactly 7/100, not the nearest binary float
        if isinstance(value, int | str | Fraction):
            return Fraction(value)
    except (ValueError, ZeroDivisionError) as error:
        raise ValueError(f"rake_percent {value!r} is not a number") from error
    raise ValueError(f"rake_percent must be a number, not {value!r}")


@dataclass(frozen=True, slots=True)
class TableConfig:
    """The rules of one table; every amount is an int in the smallest chip unit.

    ``TableConfig(game=RAZZ, ante=1, bring_in=2, small_bet=4, big_bet=8,
    stacks=(100, 100, 100))`` seats three players; seat 0 is the dealer's
    immediate left (PHH's ``p1``) and seats go clockwise.
    """

    game: Variant
    """STUD, STUD8 or RAZZ (a code such as ``"razz"`` is accepted too)."""
    ante: int
    """R1: posted by every seat before the cards; may be 0."""
    bring_in: int
    """R4: the forced opening wager of the bring-in seat; at most the small bet."""
    small_bet: int
    """R8: the bet and raise unit on 3rd and 4th street."""
    big_bet: int
    """R8: the unit on 5th, 6th and 7th street; must be above the small bet."""
    stacks: tuple[int, ...]
    """Chips of each seat at the start of the hand, 2 to 8 seats, each above 0."""
    lift_cap_heads_up: bool = False
    """R10 option: unlimited raises when at most two players with chips contest the pot."""
    burn_cards: bool = False
    """R12 option: burn a card before 4th, 5th, 6th and 7th street (live play)."""
    short_all_in_rule: bool = True
    """R11: an all-in of half a bet or more counts as a full bet or raise; off = full-bet rule."""
    rake_percent: Fraction = field(default=Fraction(0))
    """Rake: this percent of each pot (floor), 0 for none. Floats are read as written."""
    rake_cap: int | None = None
    """Rake: at most this much per hand; None for no cap."""
    rake_third_street: bool = False
    """Rake: whether a hand that ends on 3rd street pays rake (off: "no flop, no drop")."""
    muck_losing_hands: bool | tuple[bool, ...] = True
    """At the showdown a hand that cannot win any share is mucked, not shown; a tuple says
    it per seat (each player's own choice at a card room)."""
    down_cards: int = 2
    """Small-game option: down cards dealt each seat on 3rd street, 2 (the game) or 1."""
    last_street: int = LAST_STREET
    """Small-game option: the showdown follows this street's betting (3 to 7; 7 is the game).

    With fewer than five cards a seat's hand is the best of the cards it was dealt
    (rules.md, *Small games*): Razz the ace-to-five low of those cards, Stud and
    Stud8 their high by pairs, sets and quads (no straights or flushes), no low."""
    deck_cards: tuple[int, ...] | None = None
    """Small-game option: the only cards shuffled and dealt (card ints or text); None = all 52."""

    if TYPE_CHECKING:
        # What the generated __init__ accepts (checked in __post_init__): a game's
        # code for ``game``, any sequence for ``stacks``, a number for the rake.
        def __init__(
            self,
            game: Variant | str,
            ante: int,
            bring_in: int,
            small_bet: int,
            big_bet: int,
            stacks: Sequence[int],
            lift_cap_heads_up: bool = False,
            burn_cards: bool = False,
            short_all_in_rule: bool = True,
            rake_percent: Fraction | int | float | str = ...,
            rake_cap: int | None = None,
            rake_third_street: bool = False,
            muck_losing_hands: bool | Sequence[bool] = True,
            down_cards: int = 2,
            last_street: int = LAST_STREET,
            deck_cards: Sequence[int | str] | str | None = None,
        ) -> None: ...

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", variant(self.game))
        for name, minimum in (("ante", 0), ("bring_in", 1), ("small_bet", 1), ("big_bet", 1)):
            _chips(name, getattr(self, name), minimum=minimum)
        if self.bring_in > self.small_bet:
            raise ValueError(
                f"bring_in ({self.bring_in}) cannot be above the small bet ({self.small_bet})"
            )
        if self.big_bet <= self.small_bet:
            raise ValueError(
                f"big_bet ({self.big_bet}) must be above the small bet ({self.small_bet})"
            )
        if isinstance(self.stacks, str) or not isinstance(self.stacks, Sequence):
            raise ValueError(f"stacks must be a sequence of chip counts, not {self.stacks!r}")
        stacks = tuple(self.stacks)
        if not MIN_SEATS <= len(stacks) <= MAX_SEATS:
            raise ValueError(
                f"a stud table seats {MIN_SEATS} to {MAX_SEATS} players, not {len(stacks)}"
            )
        for seat, stack in enumerate(stacks):
            _chips(f"stack of seat {seat}", stack, minimum=0)
            if stack == 0:
                raise ValueError(f"seat {seat} has no chips and cannot be dealt in")
        object.__setattr__(self, "stacks", stacks)
        percent = _percent(self.rake_percent)
        if not 0 <= percent < 100:
            raise ValueError(f"rake_percent must be at least 0 and below 100, not {percent}")
        object.__setattr__(self, "rake_percent", percent)
        if self.rake_cap is not None:
            _chips("rake_cap", self.rake_cap, minimum=0)
        self._check_small_game()
        for name in (
            "lift_cap_heads_up",
            "burn_cards",
            "short_all_in_rule",
            "rake_third_street",
        ):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, not {getattr(self, name)!r}")
        object.__setattr__(self, "muck_losing_hands", _per_seat(self.muck_losing_hands, stacks))

    def mucks(self, seat: int) -> bool:
        """Whether ``seat`` mucks a hand that cannot win at the showdown."""
        muck = self.muck_losing_hands
        return muck if isinstance(muck, bool) else muck[seat]

    def _check_small_game(self) -> None:
        """Check the small-game options (down cards, last street, short deck) fit together."""
        if isinstance(self.down_cards, bool) or self.down_cards not in (1, 2):
            raise ValueError(f"down_cards must be 1 or 2, not {self.down_cards!r}")
        last = self.last_street
        if isinstance(last, bool) or not isinstance(last, int) or not 3 <= last <= LAST_STREET:
            raise ValueError(f"last_street must be a street from 3 to 7, not {last!r}")
        if self.deck_cards is None:
            return
        try:
            cards = tuple(int(card) for card in parse_cards(self.deck_cards))
        except (TypeError, ValueError) as error:
            raise ValueError(
                f"deck_cards must be distinct cards (ints 0..51 or text): {error}"
            ) from None
        object.__setattr__(self, "deck_cards", tuple(sorted(cards)))
        needed = self.seats * self.cards_per_seat
        if last == LAST_STREET:
            needed -= self.seats - 1  # R12: 7th street may be one community card
        if self.burn_cards:
            needed += min(last, 6) - FIRST_STREET  # a burn before 4th to 6th street
        if len(cards) < needed:
            raise ValueError(
                f"deck_cards holds {len(cards)} cards; {self.seats} seats need at least {needed}"
            )

    @property
    def cards_per_seat(self) -> int:
        """Cards each seat is dealt when it plays to the end (7 in the game itself)."""
        return (
            self.down_cards
            + 1
            + min(self.last_street, 6)
            - FIRST_STREET
            + (self.last_street == LAST_STREET)
        )

    @property
    def deck_size(self) -> int:
        """How many cards are shuffled: 52, or the short deck's."""
        return DECK_SIZE if self.deck_cards is None else len(self.deck_cards)

    @property
    def seats(self) -> int:
        """How many players are dealt in."""
        return len(self.stacks)

    def with_stacks(self, stacks: Sequence[int]) -> TableConfig:
        """The same table with other stacks (the next hand at a table)."""
        return replace(self, stacks=tuple(stacks))


def _per_seat(muck: object, stacks: tuple[int, ...]) -> bool | tuple[bool, ...]:
    """``muck_losing_hands`` checked: True or False, or one of them per seat."""
    if isinstance(muck, bool):
        return muck
    if isinstance(muck, Sequence) and not isinstance(muck, str):
        choices = tuple(muck)
        if len(choices) == len(stacks) and all(isinstance(c, bool) for c in choices):
            return choices
    raise ValueError(
        f"muck_losing_hands must be True or False, or one of them for each of the "
        f"{len(stacks)} seats, not {muck!r}"
    )
