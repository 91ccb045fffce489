"""A player who changes gear: loose stretches and tight ones, each of a length nobody can count on.

A read that pools a player's whole history is wrong about him after every
change of gear, and stays wrong for as long as the old evidence outweighs the
new. :class:`GearBot` (``shifter``) is the gauntlet's test of that: it
alternates between a loose gear (stealing and probing: completes whenever
nobody has, bets whenever checked to, defends wide) and a tight one (the
nit, or the tag). Each stretch's style is drawn from its gear and its length,
counted in the shifter's own hands, log-uniformly between
:data:`MIN_STRETCH` and :data:`MAX_STRETCH`: no fixed period to learn.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence

from stud.bots.gauntlet import Style, StyleBot
from stud.bots.reads import hand_key
from stud.game import Action, HandView

LOOSE = Style(open=0.55, defend=0.45, reraise=0.90, value=0.03, always_steal=True, probe=True)
"""The loosest gear: steals and probes like the stealer and the prober together, defends
the top 55% of starts, bets and raises thinner."""

LOOSE_STYLES = ("loose", "stealer", "prober")
"""The styles of a loose stretch."""

TIGHT_STYLES = ("nit", "tag")
"""The styles of a tight stretch."""

MIN_STRETCH = 100
"""The shortest stretch in one gear, in the shifter's own hands ..."""
MAX_STRETCH = 1000
"""... and the longest."""


class GearBot:
    """Plays stretches of a loose style and of a tight one in turn (see the module's doc)."""

    name = "shifter"

    def __init__(
        self,
        seed: int | None = None,
        *,
        stretches: tuple[int, int] = (MIN_STRETCH, MAX_STRETCH),
        loose_first: bool | None = None,
        styles: tuple[Sequence[str], Sequence[str]] = (LOOSE_STYLES, TIGHT_STYLES),
    ) -> None:
        self._rng = random.Random(seed)
        self._shortest, self._longest = stretches
        self._gears = styles
        """The styles of a loose stretch, and of a tight one."""
        self._styles = {
            name: StyleBot(
                name, self._rng.getrandbits(64), traits=LOOSE if name == "loose" else None
            )
            for name in dict.fromkeys((*styles[0], *styles[1]))
        }
        self.loose = self._rng.random() < 0.5 if loose_first is None else loose_first
        """Whether the stretch now is a loose one."""
        self.hands = 0
        """The hands it has been dealt so far."""
        self.stretches: list[tuple[int, str]] = []
        """Each stretch so far: the hand it began on (1 for the first) and its style."""
        self._left = 0
        self._hand: tuple[int | None, ...] = ()

    @property
    def style(self) -> str:
        """The style of the stretch now."""
        return self.stretches[-1][1] if self.stretches else ""

    def _stretch(self) -> int:
        """A stretch's length in hands, log-uniform between the shortest and the longest."""
        low, high = math.log(self._shortest), math.log(self._longest)
        return round(math.exp(self._rng.uniform(low, high)))

    def _dealt(self, view: HandView) -> None:
        """Count a hand the first time one of its views is seen; change gear when due."""
        key = hand_key(view)
        if len(key) == 1 or key == self._hand:
            return
        self._hand = key
        self.next_hand()

    def next_hand(self) -> None:
        """Count one more hand dealt to it; change gear when the stretch is over.

        The schedule depends on the seed alone, so a measurement can replay it (which
        style each of its hands was played in) without the views.
        """
        self.hands += 1
        if self._left <= 0:
            if self.stretches:
                self.loose = not self.loose
            styles = self._gears[0] if self.loose else self._gears[1]
            self.stretches.append((self.hands, self._rng.choice(list(styles))))
            self._left = self._stretch()
        self._left -= 1

    def observe(self, view: HandView, players: Sequence[Hashable] | None = None) -> None:
        """Count the hands it is dealt (the table shows each hand when it is dealt)."""
        if view.viewer is not None:
            self._dealt(view)

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        self._dealt(view)
        return self._styles[self.style].choose(view, legal)
