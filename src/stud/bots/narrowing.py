"""How an opponent's reads narrow his range: every action read by how rarely he takes it.

A player who takes an action with a share ``q`` of his hands takes it with
his top ``q``, so his hand's percentile within his range is weighted to the
power ``2 (1 - q) / q`` (:func:`range_exponent`): a completion from a stealer
says nothing, one from a nit "top 8%", a prober's bet little, a nit's bet
much, a check "not the top". :func:`read_range` builds the strong bot's
:class:`stud.bots.ranges.Range` for one opponent from his line and his own
rates (:class:`stud.bots.player_stats.PlayerStats`): how his play narrows his
hidden cards, and how he meets a wager now and on the next street.
"""

from __future__ import annotations

from stud.bots.boards import door_class, showing
from stud.bots.player_stats import PRIOR_FOLD_LATER, PlayerStats, led_before
from stud.bots.ranges import Range
from stud.bots.seen import Opponent, Seen

MAX_EXPONENT = 6.0
"""The sharpest narrowing of a range by one street's play (a top-15% range, about)."""


MAX_START_EXPONENT = 38.0
"""The sharpest narrowing by 3rd street's play (a top-5% range): those down cards are dealt
from the range (:attr:`stud.bots.estimate.Estimator.sample_starts`), not weighed, so a
narrow range costs no run-outs."""


MAX_LATER_EXPONENT = 2 * MAX_EXPONENT
"""The sharpest narrowing by 4th to 7th street's play, all actions together. From 4th to
6th street the down cards are dealt from the range (:func:`stud.bots.ranges.pair_range`),
so it costs no run-outs; the reads' own cap (38) there won nothing more against
``strong-v1``."""


def range_exponent(rate: float, cap: float = MAX_EXPONENT) -> float:
    """The exponent ``a`` of ``percentile ** a`` for a player who acts so with a ``rate`` share.

    A player taking an action with its top ``q`` of hands holds, on average, a
    hand at the percentile ``1 - q/2``; weighting percentiles by ``p ** a``
    gives the mean ``(a + 1) / (a + 2)``, so ``a = 2 (1 - q) / q``: 0 for a
    player who always does it (the action says nothing), 6 for the top 25%.
    """
    q = min(1.0, max(0.05, rate))
    return min(cap, 2.0 * (1.0 - q) / q)


def call_exponent(fold: float, raises: float, cap: float = MAX_EXPONENT) -> float:
    """The exponent for a call by a player who folds a ``fold`` share and raises a ``raises`` one.

    He calls with the band of his hands between the two, whose mean percentile
    is ``(fold + 1 - raises) / 2``: the mean of a top ``1 - fold + raises``
    (:func:`range_exponent`). A tight player's call says "a strong hand" as
    surely as a raise would; a calling station's says nothing.
    """
    return range_exponent(1.0 - fold + raises, cap)


def _reraises(seen: Seen) -> bool:
    """Whether my wager now would re-raise a raise (the street's third wager or more): after
    his own wager, the level his folds and re-raises are read at."""
    return seen.wagers >= 2


def read_range(stats: PlayerStats, seen: Seen, opp: Opponent, hindsight: float = 0.0) -> Range:
    """How ``opp``'s play narrows its hidden cards, as much as its habits (``stats``) say it
    does, and how it meets a wager of mine now and on the next street. ``hindsight``: see
    :attr:`stud.bots.strong.StrongBot.hindsight`."""
    line = opp.line
    start = 0.0
    cap = MAX_START_EXPONENT
    if line.opened[3]:
        # The first wager says what this player's rate of first wagers says: the
        # bring-in's completions and the steals from other seats are read apart.
        start += range_exponent(stats.open_third(line.had_bring_in), cap)
    raised_third = line.aggressive[3] - line.opened[3]
    # What he answered on 3rd street was a wager from a door like the scariest that wagered.
    door = _third_door(seen, opp)
    if raised_third:
        # A raise says what this player's raising rate says (a bully's, little).
        start += range_exponent(stats.raise_third_as(line.brought_in, door), cap) * raised_third
    if line.called_wager[3]:
        # A call of my raise after wagering himself is read by how he meets a raise then.
        back = line.aggressive[3] > 0
        posted = line.brought_in
        start += call_exponent(
            stats.fold_rate(3, wagered=back, posted=posted, door=door),
            stats.raise_rate(3, wagered=back, posted=posted, door=door),
            cap,
        )
    elif line.calls[3]:
        start += 0.3
    start = min(cap, start)
    # Later streets: each action narrows the range by how rarely this player takes it.
    cap = MAX_LATER_EXPONENT
    bets: list[float] = []
    checks: list[float] = []
    for street in range(4, seen.street + 1):
        opened = int(line.opened[street])
        bet = opened * range_exponent(stats.open_at(street), cap)
        bet += (line.aggressive[street] - opened) * range_exponent(stats.raise_at(street), cap)
        back = line.aggressive[street] > 0
        bet += line.calls[street] * call_exponent(
            stats.fold_rate(street, wagered=back), stats.raise_rate(street, wagered=back), cap
        )
        bets.append(bet)
        checks.append(line.checks[street] * 0.5 * range_exponent(1.0 - stats.open_at(street)))
    # The caps hold for the whole line: a long line is scaled down street by street.
    later, checked = min(cap, sum(bets)), min(MAX_EXPONENT, sum(checks))
    scale_bets = later / sum(bets) if later > 0 else 0.0
    scale_checks = checked / sum(checks) if checked > 0 else 0.0
    later_at = tuple((b * scale_bets, c * scale_checks) for b, c in zip(bets, checks, strict=True))
    fold = _fold_rate(seen, opp, stats)
    wagered = opp.line.aggressive[seen.street] > 0
    posted = opp.line.brought_in
    mine = door_class(seen.game, seen.mine_up[0]) if seen.street == 3 else None
    high = _reraises(seen)
    # How many spots his raise rate was counted in, over ranges his line had narrowed as
    # it has here: the seen rate takes over from the model's mapping as they accumulate.
    raise_evidence = 0.0
    if not opp.all_in and (wagered or seen.street >= 4):
        raise_evidence = (
            stats.raised_back_spots(seen.street, high) if wagered else stats.faced_at[seen.street]
        )
    raises = (
        0.0
        if opp.all_in
        else stats.raise_rate(seen.street, wagered=wagered, posted=posted, door=mine, high=high)
    )
    # A player who folds more than a sound one folds some winners too.
    late = 0.0 if seen.street == 3 else hindsight * min(1.0, PRIOR_FOLD_LATER / max(fold, 1e-6))
    upcoming = min(7, seen.street + 1)
    next_fold = 0.0 if opp.all_in else stats.fold_at(upcoming)
    next_open = 0.0 if opp.all_in else stats.open_at(upcoming, first=False)
    next_open_first = 0.0 if opp.all_in else stats.open_at(upcoming, first=True)
    fold_seen, evidence = _folds_seen(seen, opp, stats)
    # Next street: his folds seen there after leading the betting (as he has, if he
    # bet or raised on this street or before; into 4th, if he wagered on 3rd) or not,
    # whatever the boards.
    led = led_before(line.aggressive, seen.street + 1)
    next_seen, next_evidence = stats.fold_facing(upcoming, None, led)
    if opp.all_in or seen.street >= 7:
        next_evidence = 0
    calibration = stats.calibration
    return Range(
        opp, start, 0.0, fold, raises, late, later, checked, next_fold, next_open,
        fold_seen, evidence, next_seen, next_evidence, next_open_first,
        raise_evidence, later_at,
        fold_shift=calibration.shift(seen.street, wagered),
        next_fold_shift=calibration.shift(upcoming) if seen.street < 7 else 0.0,
    )  # fmt: skip


def _folds_seen(seen: Seen, opp: Opponent, stats: PlayerStats) -> tuple[float, float]:
    """How often ``opp`` was seen folding to a bet in spots like this one, and in how many:
    the same street, my board looking better than his or not, his having led the betting
    on an earlier street or not (4th to 7th street, before he has wagered on it); or,
    once he has wagered on this street, raised back after wagering on it. That rate is
    counted in exactly such spots, over the ranges he brings to them: it is what he does
    there, not a cut of his whole range (a player who folds a raised bet half the time
    is not one who never folds because his bet showed strength). On 3rd street before
    he wagers the read rate is not mapped and stands alone."""
    if opp.all_in:
        return 0.0, 0
    if opp.line.aggressive[seen.street] > 0:
        high = _reraises(seen)
        return (
            stats.fold_back_as(seen.street, high),
            stats.raised_back_spots(seen.street, high),
        )
    if seen.street < 4:
        return 0.0, 0
    better = showing(seen.game, seen.mine_up) > showing(seen.game, opp.up)
    led = led_before(opp.line.aggressive, seen.street)
    return stats.fold_facing(seen.street, better, led)


def _fold_rate(seen: Seen, opp: Opponent, stats: PlayerStats) -> float:
    """How often ``opp`` folds to my next wager now (less once it has wagered itself)."""
    if opp.all_in:
        return 0.0
    wagered = opp.line.aggressive[seen.street] > 0
    door = door_class(seen.game, seen.mine_up[0]) if seen.street == 3 else None
    high = _reraises(seen) if wagered else None
    return stats.fold_rate(
        seen.street, wagered=wagered, posted=opp.line.brought_in, door=door, high=high
    )


def _third_door(seen: Seen, opp: Opponent) -> int | None:
    """The class of the scariest door among the others who wagered on 3rd street (me
    included): what ``opp``'s 3rd-street answers answered (None: nobody did)."""
    doors = [seen.mine_up[0]] if seen.my_line.aggressive[3] else []
    doors += [o.up[0] for o in seen.opponents if o is not opp and o.line.aggressive[3]]
    if not doors:
        return None
    return max(door_class(seen.game, card) for card in doors)
