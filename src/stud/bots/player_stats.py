"""One player's decisions counted by situation, and his rate in each, shrunk towards a prior.

Every rate is smoothed towards a prior with the weight of :data:`PRIOR_WEIGHT`
decisions: the population's rate in that spot (:attr:`PlayerStats.prior`, every
player seen so far pooled, itself shrunk towards a sound tight-aggressive
player's), or the sound player's when there is no population. So the first
hands against a stranger are played as against the players met so far (a
solid player before anyone is met), and the read takes over as the evidence
grows. A rate of one spot (a street, the bring-in's seat, the
class of a wagerer's door, the board he faced) is smoothed towards the
player's own rate over the related spots (:data:`STREET_WEIGHT`). The counts
are fed by :class:`stud.bots.players.PlayerReads`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields

from stud.bots.boards import DOOR_CLASSES
from stud.bots.calibrate import FoldCalibration

PRIOR_WEIGHT = 12.0
"""How many decisions the prior counts for."""

PRIOR_STEAL = 0.30
"""A solid player completes first in about 30% of the time (not as the bring-in)."""
PRIOR_BRING_IN_COMPLETES = 0.15
"""... completes from the bring-in with its better starts ..."""
PRIOR_FOLD_THIRD = 0.55
"""... folds a little over half its hands to a completion on 3rd street ..."""
PRIOR_FOLD_LATER = 0.35
"""... folds a third of the time to a bet on 4th to 7th street ..."""
PRIOR_BET_CHECKED = 0.40
"""... bets four times in ten when it may open the betting on 4th to 7th street ..."""
PRIOR_RAISE = 0.12
"""... raises about one wager in eight ..."""
PRIOR_FOLD_BACK_THIRD = 0.25
"""... folds a quarter of its completions when they are re-raised (a steal gives up) ..."""
PRIOR_FOLD_BACK = 0.10
"""... rarely folds a later-street bet when it is raised (a bet there means a hand) ..."""
PRIOR_RAISE_BACK = 0.20
"""... and re-raises one raise of its wagers in five."""


def _rate(hits: float, chances: float, prior: float) -> float:
    return (hits + PRIOR_WEIGHT * prior) / (chances + PRIOR_WEIGHT)


STREET_WEIGHT = 4.0
"""How many decisions a player's own rate over 4th to 7th street counts for on one street.

A street's rate is shrunk towards the player's rate over all later streets
(itself shrunk towards the prior): how often he folds, bets or raises
changes from street to street (a nit calls 4th street and gives up the
river), and the pooled rate stands in until a street has its own evidence.
Light, because the river is reached in few hands: the tag's 75% of river
bets folded against his 30-40% on 4th to 6th must be read in his first
hundred hands, not his first few hundred.
"""


def _towards(hits: float, chances: float, pooled: float) -> float:
    """A rate in one spot, shrunk towards the player's own ``pooled`` rate over related spots."""
    return (hits + STREET_WEIGHT * pooled) / (chances + STREET_WEIGHT)


def _at_level(counts: tuple[float, float, float, float], high: bool, either: float) -> float:
    """A rate when raised after wagering, at one level of the raise faced: ``counts`` are
    (faced, hits, faced at the high level, hits there); the level's own counts (the high
    ones, or the rest) shrunk towards ``either``, the rate over both."""
    faced, hits, faced_high, hits_high = counts
    if not high:
        faced_high, hits_high = faced - faced_high, hits - hits_high
    return _towards(hits_high, faced_high, either)


def _streets() -> list[float]:
    """A count for each street, indexed by street number (3 to 7; 0 to 2 unused)."""
    return [0.0] * 8


def _boards() -> list[float]:
    return [0.0] * 32


def _doors() -> list[float]:
    return [0.0] * (2 * DOOR_CLASSES)


def third_spot(posted: bool, door: int) -> int:
    """The index of a 3rd-street spot in :attr:`PlayerStats.faced_third_door` and its kin:
    whether the player had posted the bring-in, the class of the wagerer's door."""
    return DOOR_CLASSES * int(posted) + door


def board_spot(street: int, bettor_better: bool, led: bool = False) -> int:
    """The index of a later street's spot in :attr:`PlayerStats.faced_board` and its kin.

    ``bettor_better``: the bettor's board looks better than the player's;
    ``led``: the player led the betting before this street (:func:`led_before`).
    """
    return 4 * street + 2 * int(led) + int(bettor_better)


def led_before(aggressive: Sequence[int], street: int) -> bool:
    """Whether a player with these wagers per street (3..7) led the betting before ``street``.

    On 4th street: he completed or raised on 3rd (his 3rd-street range is the
    strong one: a re-raiser of a completion rarely gives up the next card).
    From 5th: he bet or raised on 4th street or after (a 3rd-street steal says
    little by then; what he did on the big streets says more).
    """
    if street <= 4:
        return aggressive[3] > 0
    return sum(aggressive[4:street]) > 0


@dataclass(slots=True)
class PlayerStats:
    """One player's decisions, counted by situation."""

    hands: int = 0
    steal_chances: float = 0.0
    """3rd street, nobody has completed yet, and the player is not the bring-in."""
    steals: float = 0.0
    bring_ins: float = 0.0
    """3rd street, the player has the bring-in: it may post it or complete."""
    bring_in_completes: float = 0.0
    faced_third: float = 0.0
    """3rd street, facing a completion or a raise."""
    folds_third: float = 0.0
    raises_third: float = 0.0
    faced_third_posted: float = 0.0
    """... of which after posting the bring-in (the others: its first decision of the hand)."""
    folds_third_posted: float = 0.0
    raises_third_posted: float = 0.0
    may_open: float = 0.0
    """4th to 7th street, nobody has bet yet: the player may bet or check."""
    opens: float = 0.0
    faced_later: float = 0.0
    """4th to 7th street, facing a bet or a raise."""
    folds_later: float = 0.0
    raises_later: float = 0.0
    faced_back_third: float = 0.0
    """3rd street, raised after having completed or raised itself."""
    folds_back_third: float = 0.0
    raises_back_third: float = 0.0
    faced_back: float = 0.0
    """4th to 7th street, raised after having bet or raised on it itself."""
    folds_back: float = 0.0
    raises_back: float = 0.0
    may_open_at: list[float] = field(default_factory=_streets)
    """``may_open``, ``opens``, ``faced_later``, ``folds_later`` and ``raises_later`` by street."""
    opens_at: list[float] = field(default_factory=_streets)
    may_open_first_at: list[float] = field(default_factory=_streets)
    """``may_open_at`` and ``opens_at`` where nobody had checked before him on the street:
    he acts first (heads-up: his board looks the better), not after a check."""
    opens_first_at: list[float] = field(default_factory=_streets)
    faced_at: list[float] = field(default_factory=_streets)
    folds_at: list[float] = field(default_factory=_streets)
    raises_at: list[float] = field(default_factory=_streets)
    faced_board: list[float] = field(default_factory=_boards)
    """``faced_at`` and ``folds_at`` split by whether the bettor's board looked better than
    the player's own, and whether the player had bet or raised on an earlier later street
    (index :func:`board_spot`): the comparable spots of a fold-to-bet read."""
    folds_board: list[float] = field(default_factory=_boards)
    faced_back_at: list[float] = field(default_factory=_streets)
    """``faced_back`` and ``folds_back`` by street: a player who folds more the more he is
    raised does so on some streets and not others (the nit gives up half his raised
    4th-street bets, almost none later)."""
    folds_back_at: list[float] = field(default_factory=_streets)
    faced_back_high: list[float] = field(default_factory=_streets)
    """``faced_back`` (and 3rd street's) by street where the wager faced re-raised his own
    raise (the street's third wager or more), not raised his first wager: ``strong-v1`` in
    Razz re-raises 54-60% of the raises of its bets but 12-16% of the re-raises of its raises."""
    raises_back_high: list[float] = field(default_factory=_streets)
    folds_back_high: list[float] = field(default_factory=_streets)
    """... and folded there: the gauntlet's nit calls a re-raise of his completion and folds
    when his own re-raise is capped."""
    faced_third_door: list[float] = field(default_factory=_doors)
    """``faced_third`` and its folds and raises by whether it had posted the bring-in and
    the class of the wagerer's door (index :func:`third_spot`): a player who defends by how
    his hand stands against the completer's door folds more to a scary one."""
    folds_third_door: list[float] = field(default_factory=_doors)
    raises_third_door: list[float] = field(default_factory=_doors)
    calibration: FoldCalibration = field(default_factory=FoldCalibration)
    """His answers to the strong bot's wagers against its model's fold chance for each
    (written by the bot that wagered: the model is its own)."""
    prior: PlayerStats | None = field(default=None, repr=False, compare=False)
    """The population's counts (:class:`stud.bots.players.PlayerReads`): each first-level
    rate (a steal, a fold to a completion, a bet, ...) is shrunk towards the population's
    rate there; None: towards a sound player's (the module's ``PRIOR_*``)."""

    def add(self, other: PlayerStats) -> None:
        """Add ``other``'s counts to these (not its hands, calibration or prior)."""
        for name in _COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for name in _SPOT_COUNTS:
            counts, more = getattr(self, name), getattr(other, name)
            for i, count in enumerate(more):
                if count:
                    counts[i] += count

    def _base(self, sound: float, rate: str) -> float:
        """The prior of a rate: the population's property ``rate``, or ``sound`` without one."""
        return sound if self.prior is None else float(getattr(self.prior, rate))

    def decay(self, factor: float) -> None:
        """Weigh every count so far, and his answers to the strong bot's wagers, by ``factor``
        (under 1: what he did before counts less)."""
        self.calibration.decay(factor)
        for name in _COUNTS:
            setattr(self, name, getattr(self, name) * factor)
        for name in _SPOT_COUNTS:
            counts = getattr(self, name)
            for i, count in enumerate(counts):
                counts[i] = count * factor

    @property
    def steal_rate(self) -> float:
        """How often it completes first in (1: a stealer who always does)."""
        return _rate(self.steals, self.steal_chances, self._base(PRIOR_STEAL, "steal_rate"))

    @property
    def bring_in_rate(self) -> float:
        """How often it completes when it has the bring-in and nobody has completed."""
        return _rate(
            self.bring_in_completes, self.bring_ins,
            self._base(PRIOR_BRING_IN_COMPLETES, "bring_in_rate"),
        )  # fmt: skip

    def open_third(self, bring_in: bool) -> float:
        """How often it makes 3rd street's first wager: as the bring-in, or when it may steal."""
        return self.bring_in_rate if bring_in else self.steal_rate

    @property
    def fold_third(self) -> float:
        """How often it folds to a completion (or a raise) on 3rd street."""
        return _rate(self.folds_third, self.faced_third, self._base(PRIOR_FOLD_THIRD, "fold_third"))

    @property
    def raise_third(self) -> float:
        return _rate(self.raises_third, self.faced_third, self._base(PRIOR_RAISE, "raise_third"))

    @property
    def open_rate(self) -> float:
        """How often it bets when it may open the betting on a later street (1: a prober)."""
        return _rate(self.opens, self.may_open, self._base(PRIOR_BET_CHECKED, "open_rate"))

    @property
    def fold_later(self) -> float:
        """How often it folds to a bet on 4th to 7th street."""
        return _rate(self.folds_later, self.faced_later, self._base(PRIOR_FOLD_LATER, "fold_later"))

    @property
    def raise_later(self) -> float:
        return _rate(self.raises_later, self.faced_later, self._base(PRIOR_RAISE, "raise_later"))

    def open_at(self, street: int, first: bool | None = None) -> float:
        """How often it bets when it may open the betting on ``street`` (4 to 7): acting first
        (``first``), after a check (``False``) or either (``None``).

        A player who bets by what he sees bets far more often first to act (his
        board the best showing) than into a check from a better board: the two
        are read apart, each shrunk towards his rate on the street.
        """
        if not 4 <= street <= 7:
            return self.open_rate
        either = _towards(self.opens_at[street], self.may_open_at[street], self.open_rate)
        if first is None:
            return either
        opens, chances = self.opens_first_at[street], self.may_open_first_at[street]
        if not first:
            opens, chances = self.opens_at[street] - opens, self.may_open_at[street] - chances
        return _towards(opens, chances, either)

    def fold_at(self, street: int) -> float:
        """How often it folds to a bet on ``street`` (4 to 7)."""
        if not 4 <= street <= 7:
            return self.fold_later
        return _towards(self.folds_at[street], self.faced_at[street], self.fold_later)

    def fold_facing(
        self, street: int, bettor_better: bool | None = None, led: bool = False
    ) -> tuple[float, float]:
        """How often it folds to a bet on ``street`` (4 to 7) having led the betting on an
        earlier street of the hand (``led``) or not, from a board that looks better than its
        own (``bettor_better``), or not, or either (``None``); and how many such spots were seen.

        A player who folds by what he sees folds far more often to a bet from a
        scary board, and far less after betting himself (his range is stronger).
        A rate of one board is shrunk towards his rate against such boards on the
        street, the rate of either board towards his rate on the street.
        """
        if not 4 <= street <= 7:
            return self.fold_later, 0
        base = self.fold_at(street)
        if bettor_better is None:
            spots = [board_spot(street, better, led) for better in (False, True)]
        else:
            both = [board_spot(street, bettor_better, was) for was in (False, True)]
            base = _towards(
                sum(self.folds_board[i] for i in both),
                sum(self.faced_board[i] for i in both),
                base,
            )
            spots = [board_spot(street, bettor_better, led)]
        faced = sum(self.faced_board[i] for i in spots)
        return _towards(sum(self.folds_board[i] for i in spots), faced, base), faced

    def raise_at(self, street: int) -> float:
        """How often it raises a bet on ``street`` (4 to 7)."""
        if not 4 <= street <= 7:
            return self.raise_later
        return _towards(self.raises_at[street], self.faced_at[street], self.raise_later)

    @property
    def fold_back_third(self) -> float:
        """How often it folds on 3rd street when re-raised after completing or raising."""
        return _rate(
            self.folds_back_third, self.faced_back_third,
            self._base(PRIOR_FOLD_BACK_THIRD, "fold_back_third"),
        )  # fmt: skip

    @property
    def fold_back(self) -> float:
        """How often it folds on 4th to 7th street when raised after betting or raising itself.

        Read apart from 3rd street: a stealer who gives up a re-raised steal
        half the time may never fold a later bet of his when raised.
        """
        return _rate(self.folds_back, self.faced_back, self._base(PRIOR_FOLD_BACK, "fold_back"))

    def fold_back_at(self, street: int) -> float:
        """How often it folds when raised after wagering itself on ``street`` (3 to 7)."""
        if street == 3:
            return self.fold_back_third
        if not 4 <= street <= 7:
            return self.fold_back
        return _towards(self.folds_back_at[street], self.faced_back_at[street], self.fold_back)

    def fold_back_as(self, street: int, high: bool | None = None) -> float:
        """How often it folds when raised after wagering itself on ``street``, when the raise
        re-raised its own raise (``high``) or raised its first wager (``False``), or either
        (``None``: :meth:`fold_back_at`); each level shrunk towards the rate over both."""
        either = self.fold_back_at(street)
        if high is None:
            return either
        return _at_level(self._back_counts(street, folds=True), high, either)

    def _back_counts(
        self, street: int, *, folds: bool = False
    ) -> tuple[float, float, float, float]:
        """Raised after wagering on 3rd street, or on 4th to 7th together: times faced, times
        re-raised (``folds``: folded), and the same two where the raise re-raised its own
        raise."""
        if street == 3:
            hits = self.folds_back_third if folds else self.raises_back_third
            high = self.folds_back_high if folds else self.raises_back_high
            return self.faced_back_third, hits, self.faced_back_high[3], high[3]
        hits = self.folds_back if folds else self.raises_back
        high = self.folds_back_high if folds else self.raises_back_high
        return self.faced_back, hits, sum(self.faced_back_high[4:]), sum(high[4:])

    def raised_back_spots(self, street: int, high: bool | None = None) -> float:
        """How many times it was seen raised after wagering itself on ``street`` (``high``:
        by a re-raise of its raise, or not; over 4th to 7th street together)."""
        if high is not None:
            faced, _, faced_high, _ = self._back_counts(street)
            return faced_high if high else faced - faced_high
        if street == 3:
            return self.faced_back_third
        return self.faced_back_at[street] if 4 <= street <= 7 else self.faced_back

    def raise_back(self, street: int, high: bool | None = None) -> float:
        """How often it re-raises when raised after wagering itself on ``street``: when the
        raise re-raised its own raise (``high``), when it raised its first wager (``False``),
        or either (``None``); each level shrunk towards the rate over both."""
        counts = self._back_counts(street)
        faced, raised, _, _ = counts
        base = PRIOR_RAISE_BACK if self.prior is None else self.prior.raise_back(street)
        either = _rate(raised, faced, base)
        if high is None:
            return either
        return _at_level(counts, high, either)

    def fold_third_as(self, posted: bool, door: int | None = None) -> float:
        """How often it folds to a completion on 3rd street having posted the bring-in or not.

        The two are different spots, read apart (each shrunk towards the
        player's rate over both): the bring-in has chips in and meets a steal
        from a better door, the others meet a completion, from the bring-in's
        own worst door, say, with nothing in yet. A player who defends by what
        he sees folds far more often in one than in the other.
        """
        return self._third_spot(
            self.folds_third, self.folds_third_posted, self.folds_third_door, self.fold_third,
            posted, door,
        )  # fmt: skip

    def raise_third_as(self, posted: bool, door: int | None = None) -> float:
        """How often it raises a completion on 3rd street having posted the bring-in or not
        (against a wagerer's door of class ``door``, or any)."""
        return self._third_spot(
            self.raises_third, self.raises_third_posted, self.raises_third_door,
            self.raise_third, posted, door,
        )  # fmt: skip

    def _third_spot(
        self,
        hits: float,
        hits_posted: float,
        hits_door: list[float],
        pooled: float,
        posted: bool,
        door: int | None,
    ) -> float:
        """A rate facing a completion in one spot: after posting the bring-in or not, shrunk
        towards the rate over both; then for a wagerer's door class, shrunk towards that."""
        if posted:
            spot = _towards(hits_posted, self.faced_third_posted, pooled)
        else:
            others = self.faced_third - self.faced_third_posted
            spot = _towards(hits - hits_posted, others, pooled)
        if door is None:
            return spot
        i = third_spot(posted, door)
        return _towards(hits_door[i], self.faced_third_door[i], spot)

    def fold_rate(
        self,
        street: int,
        *,
        wagered: bool = False,
        posted: bool = False,
        door: int | None = None,
        high: bool | None = None,
    ) -> float:
        """How often it folds to a wager on ``street`` (``wagered``: after wagering itself;
        ``posted``: on 3rd street, having posted the bring-in; ``door``: on 3rd street, the
        class of the wagerer's door, :func:`stud.bots.boards.door_class`; ``high``: after
        wagering, when the wager re-raises its own raise, :meth:`fold_back_as`)."""
        if wagered:
            return self.fold_back_as(street, high)
        return self.fold_third_as(posted, door) if street == 3 else self.fold_at(street)

    def raise_rate(
        self,
        street: int,
        *,
        wagered: bool = False,
        posted: bool = False,
        door: int | None = None,
        high: bool | None = None,
    ) -> float:
        """How often it raises a wager on ``street`` (as :meth:`fold_rate`; ``high``: after
        wagering, when the wager re-raises its own raise, :meth:`raise_back`)."""
        if wagered:
            return self.raise_back(street, high)
        return self.raise_third_as(posted, door) if street == 3 else self.raise_at(street)

    @property
    def decisions(self) -> float:
        """How many decisions of this player have been counted."""
        return (
            self.steal_chances + self.bring_ins + self.faced_third + self.may_open
            + self.faced_later + self.faced_back_third + self.faced_back
        )  # fmt: skip


_COUNTS = tuple(f.name for f in fields(PlayerStats) if f.type == "float")
"""The counts of :class:`PlayerStats` that :meth:`PlayerStats.decay` weighs ..."""
_SPOT_COUNTS = tuple(f.name for f in fields(PlayerStats) if f.type == "list[float]")
"""... and its counts by street or spot."""
