"""Bots: one interface, the shipped players (the strong bot and its gauntlet), the room adapter.

>>> from stud.cards import Deck
>>> from stud.game import Hand, TableConfig
>>> from stud.bots import make_bot, play_hand
>>> config = TableConfig(game="razz", ante=1, bring_in=3, small_bet=10, big_bet=20,
...                      stacks=(500, 500, 500))
>>> hand = Hand(config, deck=Deck(seed=1))
>>> bots = [make_bot("strong", seed=1), make_bot("random", seed=2), make_bot("station")]
>>> _ = play_hand(hand, bots)
>>> hand.is_over, sum(hand.result.stacks)
(True, 1500)

See ``docs/bots.md`` for writing a bot.
"""

from stud.bots.base import Bot, BotError, Observer, ask, observe, play_hand
from stud.bots.policy import PolicyBot, from_policy, sb3_policy
from stud.bots.registry import BOTS, GAUNTLET, make_bot, parse_bots
from stud.bots.room import RoomBot, view_from_dict
from stud.bots.simple import RandomBot, StationBot
from stud.bots.strong import StrongBot
from stud.bots.strong_v1 import StrongV1Bot

__all__ = [
    "BOTS",
    "GAUNTLET",
    "Bot",
    "BotError",
    "Observer",
    "PolicyBot",
    "RandomBot",
    "RoomBot",
    "StationBot",
    "StrongBot",
    "StrongV1Bot",
    "ask",
    "from_policy",
    "make_bot",
    "observe",
    "parse_bots",
    "play_hand",
    "sb3_policy",
    "view_from_dict",
]
