"""Where each feature sits in the flat observation vector: offsets only, no dependency.

Kept apart from :mod:`stud.env.layout` (which adds the Gymnasium spaces and
the dict views) so the encoder, compiled with mypyc at install (setup.py),
imports nothing from the reinforcement-learning extra. docs/rl.md describes
every feature and the rule it follows.
"""

from __future__ import annotations

from typing import Final

from stud.cards import DECK_SIZE
from stud.game import MAX_SEATS

# Final ints are constants mypyc folds into the compiled encoder.

STREETS: Final = 5
"""3rd to 7th street."""

SEAT_FEATURES = ("present", "live", "all_in", "stack", "bet", "committed", "aggressor")
"""Per seat row, after its up cards: dealt in; not folded; all-in; chips behind; this
street's wager; chips put in over the hand (antes included); made the street's last wager."""

BETTING_FEATURES = ("bring_in", "check", "call", "wager", "fold")
"""Per seat and street: how many times it brought in, checked, called, completed/bet/raised,
folded (a fixed-size record of the betting so far)."""

TABLE_FEATURES = ("pot", "level", "wagers", "capped", "double_bet")
"""The pot; the street total to match; completes/bets/raises made on this street; betting
capped (R10); the 4th-street double bet allowed by an open pair (R7)."""

ACTION_COUNT: Final = 5
"""The discrete actions (see :mod:`stud.env.actions`)."""

# Offsets inside one seat row.
UP: Final = 0
PLAYER: Final = UP + DECK_SIZE
PRESENT: Final = PLAYER
LIVE: Final = PLAYER + 1
ALL_IN: Final = PLAYER + 2
STACK: Final = PLAYER + 3
BET: Final = PLAYER + 4
COMMITTED: Final = PLAYER + 5
AGGRESSOR: Final = PLAYER + 6
BETTING: Final = PLAYER + 7  # len(SEAT_FEATURES)
ROW: Final = BETTING + STREETS * 5  # len(BETTING_FEATURES) per street

# The private part (the observer's own), the seat rows, then the table.
DOWN: Final = 0
POSITION: Final = DOWN + DECK_SIZE
TO_CALL: Final = POSITION + 8  # MAX_SEATS
AMOUNTS: Final = TO_CALL + 1
SEATS: Final = AMOUNTS + ACTION_COUNT
TABLE: Final = SEATS + 8 * ROW  # MAX_SEATS rows
COMMUNITY: Final = TABLE
STREET: Final = COMMUNITY + DECK_SIZE
SCALARS: Final = STREET + STREETS
POT: Final = SCALARS
LEVEL: Final = SCALARS + 1
WAGERS: Final = SCALARS + 2
CAPPED: Final = SCALARS + 3
DOUBLE_BET: Final = SCALARS + 4
SIZE: Final = SCALARS + 5  # len(TABLE_FEATURES)
PRIVATE: Final = SEATS
"""Length of the observer's own part (down cards, position, to call, amounts)."""
PUBLIC: Final = SIZE - TABLE
"""Length of the table part (community card, street, pot, ...)."""

# The literal counts above are the feature names' (and the engine's seat limit).
assert (len(SEAT_FEATURES), STREETS * len(BETTING_FEATURES)) == (BETTING - PLAYER, ROW - BETTING)
assert (MAX_SEATS * ROW, len(TABLE_FEATURES)) == (TABLE - SEATS, SIZE - SCALARS)

# The perfect-recall history (an option, see stud.envcore.history): after the
# vector above, one fixed-size slot per action of the hand, in the order played.
HISTORY_FEATURES = (
    *(f"seat_{k}" for k in range(8)),
    "fold",
    "check_call",
    "bring_in",
    "wager",
    "double_wager",
    *(f"street_{street}" for street in range(3, 8)),
)
"""Per action slot: who acted (one-hot, relative: 0 is the observer, k the seat k places to its
left), which of the five action indices it played (one-hot), and on which street (one-hot)."""

SLOT: Final = 18  # len(HISTORY_FEATURES)
SLOT_SEAT: Final = 0
SLOT_ACTION: Final = 8  # MAX_SEATS
SLOT_STREET: Final = SLOT_ACTION + ACTION_COUNT
assert (len(HISTORY_FEATURES), SLOT_STREET + STREETS) == (SLOT, SLOT)
