"""The running totals of a simulation as a PNG (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from stud.sim.run import SimResult
from stud.sim.stats import labels

MAX_POINTS = 4000
"""A line is thinned to about this many points: the eye sees no more, the file stays small."""


def draw_chart(result: SimResult, path: str | Path) -> Path:
    """Draw each player's cumulative result in big bets against hands played; return the path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    config = result.config
    totals = np.cumsum(result.net, axis=0) / config.stakes.big_bet
    hands = np.arange(1, totals.shape[0] + 1)
    step = max(1, len(hands) // MAX_POINTS)
    keep = np.unique(np.append(np.arange(0, len(hands), step), len(hands) - 1))
    figure, axes = plt.subplots(figsize=(9, 5), dpi=110)
    for p, label in enumerate(labels(config.bots)):
        axes.plot(hands[keep], totals[keep, p], label=label, linewidth=1.2)
    axes.axhline(0, color="grey", linewidth=0.8)
    axes.set_xlabel("hands")
    axes.set_ylabel("big bets won")
    axes.set_title(f"{config.game}: {', '.join(config.bots)} ({len(hands):,} hands)")
    axes.legend(loc="best")
    axes.grid(True, alpha=0.3)
    figure.tight_layout()
    out = Path(path)
    figure.savefig(out)
    plt.close(figure)
    return out
