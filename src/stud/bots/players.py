"""Per-opponent reads: what each player at the table does, counted over every hand seen.

A :class:`PlayerReads` keeps one :class:`stud.bots.player_stats.PlayerStats`
per player, keyed by the player's identity (the ``players`` a table passes to
:meth:`stud.bots.base.Observer.observe`; the seat number where it passes
none). It takes in a seat's views, counting each action once however often a
view shows it, so it sees the whole hand when the table shows the final view
(the folds that end a hand included), not only what happened before the
bot's own turns. Views hold no hidden card, so these are the reads any player
at the table can make.

Two memories: each player's own counts, which may forget (weighed down by
:attr:`PlayerReads.half_life` at each hand he is dealt, so his read follows
him when he changes gear), and the population's, every player's counts pooled
and never forgotten, which each player's rates are shrunk towards
(:attr:`stud.bots.player_stats.PlayerStats.prior`): a stranger is read as the
players met so far, and a spot a player was seldom seen in lately as the
population plays it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from stud.bots.boards import door_class, showing
from stud.bots.calibrate import FoldCalibration
from stud.bots.player_stats import PlayerStats, board_spot, led_before, third_spot
from stud.bots.reads import hand_key
from stud.game import Acted, ActionKind, HandView, StreetStarted

_NO_WAGERS = (0,) * 8

HALF_LIFE = 100.0
"""The strong bot's half-life of a read, in the player's own hands: what he did 100 hands
ago weighs half as much as what he does now, 300 hands ago an eighth. A player who
changes gear is read as his new self within about two half-lives; a player who does not
is read from about 144 hands' worth of his play (``HALF_LIFE / ln 2``), each spot
seldom seen in that window filled in by the population's rate."""


def visible_up(up: Sequence[int | None], street: int) -> list[int]:
    """The up cards a seat showed while ``street`` was played (one on 3rd, four from 6th)."""
    return [c for c in up[: max(1, min(street - 2, 4))] if c is not None]


@dataclass(slots=True)
class PlayerReads:
    """Every opponent's :class:`PlayerStats`, fed from one seat's views, hand after hand."""

    players: dict[Hashable, PlayerStats] = field(default_factory=dict)
    half_life: float | None = None
    """In a player's own hands, how long until what he did weighs half as much as what he
    does now (:meth:`PlayerStats.decay` at each hand he is dealt); None: never forgets."""
    pooled: bool = True
    """Whether each player's rates shrink towards the population's (:attr:`population`)
    rather than towards a sound player's."""
    population: PlayerStats = field(default_factory=PlayerStats)
    """Every player's counts added up, never forgotten (its own rates shrink towards a sound
    player's)."""
    _hand: tuple[int | None, ...] = field(default=(), repr=False)
    _done: int = field(default=0, repr=False)
    _seated: tuple[Hashable, ...] = field(default=(), repr=False)

    def identity(self, seat: int) -> Hashable:
        """Who sits in ``seat`` in the hand seen last (the seat itself if the table did not say)."""
        if seat < len(self._seated):
            return self._seated[seat]
        return ("seat", seat)

    def stats(self, seat: int) -> PlayerStats:
        """The stats of the player in ``seat`` of the hand seen last (a prior-only one if new)."""
        key = self.identity(seat)
        found = self.players.get(key)
        if found is None:
            prior = self.population if self.pooled else None
            found = self.players[key] = PlayerStats(
                prior=prior,
                calibration=FoldCalibration(prior=None if prior is None else prior.calibration),
            )
        return found

    def answered(self, seat: int, street: int, back: bool, modelled: float, folded: bool) -> None:
        """Count the answer of the player in ``seat`` to my wager (:mod:`stud.bots.answers`): in
        his calibration, and in the population's when his rates are shrunk towards it."""
        self.stats(seat).calibration.add(street, back, modelled, folded)
        if self.pooled:
            self.population.calibration.add(street, back, modelled, folded)

    def update(self, view: HandView, players: Sequence[Hashable] | None = None) -> None:
        """Count the actions in ``view`` not counted yet (views of one hand only grow).

        ``players`` names who sits in each seat; given once per hand (when it is
        dealt) it holds for the rest of that hand.
        """
        hand = hand_key(view)
        if len(hand) == 1:
            return  # a view without its events (the room may send one) has nothing to count
        if hand != self._hand:
            self._hand = hand
            self._done = 0
            self._seated = tuple(players) if players is not None else ()
            keep = 0.5 ** (1.0 / self.half_life) if self.half_life else 1.0
            for seat in range(len(view.seats)):
                if seat != view.viewer:
                    stats = self.stats(seat)
                    stats.hands += 1
                    if keep < 1.0:
                        stats.decay(keep)
        elif players is not None and not self._seated:
            self._seated = tuple(players)
        events = view.events
        start = self._done
        if start >= len(events):
            return
        self._done = len(events)
        street = 3
        level = 0
        wagers = 0
        bets: dict[int, int] = {}
        brought_in: set[int] = set()
        wagered: set[int] = set()
        raised: dict[int, list[int]] = {}  # each seat's wagers per street so far
        bettor = -1
        checked = False  # someone checked on this street already
        counted: dict[int, PlayerStats] = {}  # what this view adds, per seat

        def new(seat: int) -> PlayerStats:
            found = counted.get(seat)
            if found is None:
                found = counted[seat] = PlayerStats()
            return found

        for i, event in enumerate(events):
            if isinstance(event, StreetStarted):
                street = event.street
                level = 0
                wagers = 0
                bets = {}
                wagered = set()
                bettor = -1
                checked = False
                continue
            if not isinstance(event, Acted):
                continue
            seat = event.seat
            kind = event.kind
            first = street == 3 and not brought_in
            if first:
                # 3rd street's first action is the bring-in's: post it or complete.
                brought_in.add(seat)
                if i >= start and seat != view.viewer:
                    stats = new(seat)
                    stats.bring_ins += 1
                    stats.bring_in_completes += kind.is_wager
            elif i >= start and seat != view.viewer:
                facing = level > bets.get(seat, 0)
                if facing and seat in wagered:
                    stats = new(seat)
                    folded = kind is ActionKind.FOLD
                    high = wagers >= 3  # a re-raise of his raise, not a raise of his bet
                    stats.faced_back_high[street] += high
                    stats.raises_back_high[street] += high and kind.is_wager
                    stats.folds_back_high[street] += high and folded
                    if street == 3:
                        stats.faced_back_third += 1
                        stats.folds_back_third += folded
                        stats.raises_back_third += kind.is_wager
                    else:
                        stats.faced_back += 1
                        stats.folds_back += folded
                        stats.raises_back += kind.is_wager
                        stats.faced_back_at[street] += 1
                        stats.folds_back_at[street] += folded
                else:
                    stats = new(seat)
                    self._count(stats, street, kind, facing, wagers, seat in brought_in, checked)
                    if facing and street == 3 and bettor >= 0:
                        door = view.seats[bettor].up[0]
                        if door is not None:
                            i = third_spot(seat in brought_in, door_class(view.game, door))
                            stats.faced_third_door[i] += 1
                            stats.folds_third_door[i] += kind is ActionKind.FOLD
                            stats.raises_third_door[i] += kind.is_wager
                    if facing and street >= 4 and bettor >= 0:
                        better = self._looks_better(view, bettor, seat, street)
                        led = led_before(raised.get(seat, _NO_WAGERS), street)
                        spot = board_spot(street, better, led)
                        stats.faced_board[spot] += 1
                        stats.folds_board[spot] += kind is ActionKind.FOLD
            checked |= kind is ActionKind.CHECK
            if kind.is_wager:
                wagers += 1
                wagered.add(seat)
                raised.setdefault(seat, [0] * 8)[street] += 1
                bettor = seat
            if kind is not ActionKind.FOLD and kind is not ActionKind.CHECK:
                bets[seat] = event.to
                level = max(level, event.to)
        for seat, more in counted.items():
            self.stats(seat).add(more)
            if self.pooled:
                self.population.add(more)

    @staticmethod
    def _looks_better(view: HandView, bettor: int, seat: int, street: int) -> bool:
        """Whether ``bettor``'s up cards on ``street`` look better than ``seat``'s."""
        mine = visible_up(view.seats[seat].up, street)
        theirs = visible_up(view.seats[bettor].up, street)
        return showing(view.game, theirs) > showing(view.game, mine)

    @staticmethod
    def _count(
        stats: PlayerStats,
        street: int,
        kind: ActionKind,
        facing: bool,
        wagers: int,
        bring_in: bool,
        after_check: bool = False,
    ) -> None:
        fold = kind is ActionKind.FOLD
        wager = kind.is_wager
        if street == 3:
            if wagers == 0:
                if bring_in:
                    stats.bring_ins += 1
                    stats.bring_in_completes += wager
                else:
                    stats.steal_chances += 1
                    stats.steals += wager
            elif facing:
                stats.faced_third += 1
                stats.folds_third += fold
                stats.raises_third += wager
                if bring_in:  # it posted the bring-in (had it completed, it would have wagered)
                    stats.faced_third_posted += 1
                    stats.folds_third_posted += fold
                    stats.raises_third_posted += wager
        elif facing:
            stats.faced_later += 1
            stats.folds_later += fold
            stats.raises_later += wager
            stats.faced_at[street] += 1
            stats.folds_at[street] += fold
            stats.raises_at[street] += wager
        else:
            stats.may_open += 1
            stats.opens += wager
            stats.may_open_at[street] += 1
            stats.opens_at[street] += wager
            if not after_check:
                stats.may_open_first_at[street] += 1
                stats.opens_first_at[street] += wager
