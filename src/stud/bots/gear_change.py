"""A test for a change of gear: a player's recent decisions set against his older ones.

Decayed reads (:class:`stud.bots.players.PlayerReads`) follow a player who
changes gear only as fast as their half-life lets the old evidence fade: a
half-life after the change, the read is still half his old self. So each
player is also counted in a short memory (:data:`RECENT_HALF_LIFE`), and at
each hand he is dealt his recent decisions are tested against his older ones
(the reads' counts less the recent ones: each decision weighs what the long
half-life gives it less what the short one does, nothing for the newest,
most about two short half-lives back). The test is a likelihood ratio of
"one rate throughout" against "a recent rate and an older one", summed over
his main rates (:data:`RATES`). When it passes :data:`THRESHOLD` the reads
restart from the recent memory: the old gear's evidence is dropped at once,
and what the recent hands do not cover is filled in by the population's
rates, instead of a half-life of reading him as someone he no longer is.
"""

from __future__ import annotations

import math

from stud.bots.player_stats import PlayerStats

RECENT_HALF_LIFE = 20.0
"""The short memory's half-life, in the player's own hands: about 29 hands' worth of his
decisions, enough for a stealer's 3rd street to look nothing like a nit's."""

RATES = (
    ("steals", "steal_chances"),
    ("bring_in_completes", "bring_ins"),
    ("folds_third", "faced_third"),
    ("raises_third", "faced_third"),
    ("opens", "may_open"),
    ("folds_later", "faced_later"),
    ("raises_later", "faced_later"),
)
"""The rates tested, as (hits, chances) counts of :class:`PlayerStats`: what tells one gear
from another (how often he steals, defends, bets, folds and raises)."""

THRESHOLD = 16.0
"""The summed likelihood-ratio statistic (twice the log of the ratio) that calls a change of
gear. Tested at every hand on overlapping windows, so it is set by what players who keep
their gear give: against each gauntlet style alone the statistic stays under 13 over
thousands of hands, heads-up and six-handed, in every game; a switch between a loose
stretch and a tight one passes 16 within about 15 to 60 hands."""

ANSWERS_KEPT = 0.1
"""At a restart, the weight left to his answers to the bot's wagers (they have no recent
copy): the old gear's answers no longer lead the model check, the new ones soon do."""

_PSEUDO = 0.5
"""Added to each side's hits and misses, so that an empty side or a rate of 0 or 1 is finite."""


def _log_likelihood(hits: float, chances: float, rate: float) -> float:
    return hits * math.log(rate) + (chances - hits) * math.log(1.0 - rate)


def _ratio(hits: float, chances: float, old_hits: float, old_chances: float) -> float:
    """Twice the log-likelihood ratio of two rates (recent, old) against one."""
    if chances < 1.0 or old_chances < 1.0:
        return 0.0
    recent = (hits + _PSEUDO) / (chances + 2 * _PSEUDO)
    old = (old_hits + _PSEUDO) / (old_chances + 2 * _PSEUDO)
    both = (hits + old_hits + _PSEUDO) / (chances + old_chances + 2 * _PSEUDO)
    apart = _log_likelihood(hits, chances, recent) + _log_likelihood(old_hits, old_chances, old)
    together = _log_likelihood(hits + old_hits, chances + old_chances, both)
    return max(0.0, 2.0 * (apart - together))


def statistic(reads: PlayerStats, recent: PlayerStats) -> float:
    """How unlikely ``recent``'s decisions are under the older ones in ``reads`` (its counts
    less ``recent``'s), summed over :data:`RATES`: about the rates' count when nothing
    changed, far more when he changed gear."""
    total = 0.0
    for hits_name, chances_name in RATES:
        hits = getattr(recent, hits_name)
        chances = getattr(recent, chances_name)
        old_hits = max(0.0, getattr(reads, hits_name) - hits)
        old_chances = max(0.0, getattr(reads, chances_name) - chances)
        total += _ratio(hits, chances, min(old_hits, old_chances), old_chances)
    return total


def changed_gear(reads: PlayerStats, recent: PlayerStats) -> bool:
    """Whether his recent decisions say he plays another game than his older ones."""
    return statistic(reads, recent) > THRESHOLD


def restart(reads: PlayerStats, recent: PlayerStats) -> None:
    """Make ``reads`` his recent counts only, his answers to the bot's wagers weighed down
    to :data:`ANSWERS_KEPT`."""
    reads.copy_counts(recent)
    reads.calibration.decay(ANSWERS_KEPT)
