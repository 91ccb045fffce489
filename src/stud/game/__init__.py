"""The hand engine: Seven Card Stud, Stud Hi/Lo and Razz, every rule of rules.md.

>>> from stud.cards import Deck
>>> from stud.game import RAZZ, TableConfig, Hand
>>> hand = Hand(TableConfig(game=RAZZ, ante=1, bring_in=2, small_bet=4, big_bet=8,
...                         stacks=(100, 100, 100)), deck=Deck(seed=7))
>>> while not hand.is_over:
...     _ = hand.act(hand.legal_actions()[1])   # check or call every time
>>> sum(hand.result.stacks)
300
"""

from stud._compiled import check_fresh
from stud.game.actions import WAGERS, Action, ActionKind, IllegalActionError
from stud.game.config import MAX_SEATS, MIN_SEATS, RAISE_CAP, TableConfig
from stud.game.dealing import CardSource, DeckCards, ScriptedCards
from stud.game.events import (
    EVENT_TYPES,
    Acted,
    ActorTrusted,
    AntePosted,
    BettingCapped,
    CardBurned,
    CardsDealt,
    CommunityCard,
    DoubleBetAllowed,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HandStarted,
    NoLowHand,
    Pot,
    PotAwarded,
    PotsFormed,
    ShowdownOrder,
    StreetStarted,
    UncalledBetReturned,
    event_from_dict,
)
from stud.game.state import Hand, HandResult
from stud.game.variants import (
    RAZZ,
    STUD,
    STUD8,
    VARIANTS,
    DoorCard,
    Showing,
    Split,
    Variant,
    variant,
)
from stud.game.views import HandView, SeatView, visible_events

check_fresh()  # a compiled engine older than its source would run old code

__all__ = [
    "EVENT_TYPES",
    "MAX_SEATS",
    "MIN_SEATS",
    "RAISE_CAP",
    "RAZZ",
    "STUD",
    "STUD8",
    "VARIANTS",
    "WAGERS",
    "Acted",
    "Action",
    "ActionKind",
    "ActorTrusted",
    "AntePosted",
    "BettingCapped",
    "CardBurned",
    "CardSource",
    "CardsDealt",
    "CommunityCard",
    "DeckCards",
    "DoorCard",
    "DoubleBetAllowed",
    "Event",
    "Hand",
    "HandEnded",
    "HandMucked",
    "HandResult",
    "HandShown",
    "HandStarted",
    "HandView",
    "IllegalActionError",
    "NoLowHand",
    "Pot",
    "PotAwarded",
    "PotsFormed",
    "ScriptedCards",
    "SeatView",
    "ShowdownOrder",
    "Showing",
    "Split",
    "StreetStarted",
    "TableConfig",
    "UncalledBetReturned",
    "Variant",
    "event_from_dict",
    "variant",
    "visible_events",
]
