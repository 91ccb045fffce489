"""R6: order 1 to 4 up cards to find who acts first on 4th street and later.

High order (Stud, Stud8): quads > trips > two pair > pair > high cards, never
straights or flushes. Razz: ace-to-five low order, pairs bad. Suits play no
part, so equal boards get equal values and the seat order breaks the tie.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from stud.evaluate.validate import checked_cards

_SIZES = (1, 2, 3, 4)


def _pattern(ranks: list[int]) -> tuple[int, int]:
    """(pairing category, ranks in group order packed 4 bits each, padded to four)."""
    counts = Counter(ranks)
    shape = sorted(counts.values(), reverse=True)
    category = {4: 4, 3: 3}.get(shape[0], 0)
    if shape[0] == 2:
        category = 2 if len(shape) > 1 and shape[1] == 2 else 1
    packed = 0
    for rank in sorted(ranks, key=lambda r: (counts[r], r), reverse=True):
        packed = packed * 16 + rank
    return category, packed << 4 * (4 - len(ranks))


def showing_high_value(up_cards: Sequence[int]) -> int:
    """The high value of 1 to 4 up cards (bigger shows better): pairs and sets, no straights."""
    cards = checked_cards(up_cards, _SIZES)
    category, packed = _pattern([(c >> 2) + 1 for c in cards])
    return category << 16 | packed


def showing_razz_value(up_cards: Sequence[int]) -> int:
    """The Razz value of 1 to 4 up cards (bigger shows a better, lower board); pairs are bad."""
    cards = checked_cards(up_cards, _SIZES)
    # Ace-low ranks 1 (ace) .. 13 (king); smaller pattern is the better low.
    category, packed = _pattern([((c >> 2) + 1) % 13 + 1 for c in cards])
    return (5 << 16) - (category << 16 | packed)
