"""How long a bot thinks before it acts: a human-like, varied time.

People at a stud table answer an easy spot (a free check, the forced bring-in)
in about a second and think longer when facing a bet, longer still on the big
streets. A bot's time is drawn from a log-normal distribution (most answers
near the median, now and then a long think) whose median depends on the spot:

==============================  ==========
spot                            median (s)
==============================  ==========
bring-in, or checking is free   1.0
facing a bet on 3rd-5th street  1.8
facing a bet on 6th-7th street  2.6
==============================  ==========

The spread is ``sigma = 0.5`` (about two in three answers within 0.6x-1.65x of
the median), and every draw is clamped to the room's ``bot_delay`` bounds
(0.7-7 s by default); tests set narrow bounds to stay fast.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from stud.table import Legal

EASY_MEDIAN = 1.0
FACING_MEDIAN = 1.8
BIG_STREET_MEDIAN = 2.6
SIGMA = 0.5


def median_seconds(view: Mapping[str, Any], legal: Sequence[Legal]) -> float:
    """The median think time for this spot (table above)."""
    kinds = {a.action for a in legal}
    if "call" not in kinds:
        return EASY_MEDIAN
    street = int(view.get("street") or 3)
    return BIG_STREET_MEDIAN if street >= 6 else FACING_MEDIAN


def think_seconds(
    rng: random.Random,
    view: Mapping[str, Any],
    legal: Sequence[Legal],
    bounds: tuple[float, float],
) -> float:
    """One draw of a bot's think time, within ``bounds`` (low, high)."""
    low, high = bounds
    drawn = rng.lognormvariate(math.log(median_seconds(view, legal)), SIGMA)
    return min(high, max(low, drawn))
