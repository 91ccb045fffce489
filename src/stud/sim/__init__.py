"""Simulations: bots against bots over many hands, win rates with confidence, charts.

>>> from stud.sim import SimConfig, simulate, player_rates
>>> result = simulate(SimConfig("razz", ("station", "random"), hands=20, seed=1))
>>> result.net.shape, int(result.net.sum())
((20, 2), 0)
"""

from stud.sim.chart import draw_chart
from stud.sim.run import CHUNK, SESSION, SimConfig, SimResult, Stakes, play_session, simulate
from stud.sim.stats import Rate, bot_rates, player_rates, summary
from stud.sim.workers import Workers

__all__ = [
    "CHUNK",
    "SESSION",
    "Rate",
    "SimConfig",
    "SimResult",
    "Stakes",
    "Workers",
    "bot_rates",
    "draw_chart",
    "play_session",
    "player_rates",
    "simulate",
    "summary",
]
