"""Equity: each player's share of the pot in Stud, Stud8 and Razz, given what is seen.

>>> result = equity("razz", ["As 2d | 3c 4h 5s 6d | 7c", "Kd Kc | Ks Qd Qc Qs | Jd"])
>>> result[0].equity, result.method
(1.0, 'exact')

See ``docs/equity.md`` for the notation and the method.
"""

from stud.equity.api import EquityResult, PlayerEquity, equity
from stud.equity.notation import Hand, parse_hand
from stud.equity.showdown import GAMES

__all__ = ["GAMES", "EquityResult", "Hand", "PlayerEquity", "equity", "parse_hand"]
