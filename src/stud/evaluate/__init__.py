"""Hand evaluators: high, ace-to-five low (Razz) and eight-or-better low (Stud8).

Fast one-hand calls return an int (bigger is better, equal hands equal); the
``evaluate_*`` calls also give the five cards used and PokerStars words; the
``*_values`` calls take a NumPy (N, k) array of hands; the ``showing_*`` calls
order up cards for R6. See docs/evaluate.md.
"""

from stud.evaluate.batch import eight_low_values, high_values, razz_values
from stud.evaluate.describe import (
    high_category,
    high_description,
    low_category,
    low_description,
)
from stud.evaluate.handvalue import HandValue
from stud.evaluate.high import evaluate_high, high_value
from stud.evaluate.low import eight_low_value, evaluate_eight_low, evaluate_razz, razz_value
from stud.evaluate.showing import showing_high_value, showing_razz_value
from stud.evaluate.tables import HIGH_CLASSES, LOW_CLASSES
from stud.evaluate.validate import checked_cards

__all__ = [
    "HIGH_CLASSES",
    "LOW_CLASSES",
    "HandValue",
    "checked_cards",
    "eight_low_value",
    "eight_low_values",
    "evaluate_eight_low",
    "evaluate_high",
    "evaluate_razz",
    "high_category",
    "high_description",
    "high_value",
    "high_values",
    "low_category",
    "low_description",
    "razz_value",
    "razz_values",
    "showing_high_value",
    "showing_razz_value",
]
