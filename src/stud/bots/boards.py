"""What boards and starts look like to a stud player: door cards, up boards, bricks, liveness.

Shared by the bots: how scary a door card is, how the engine ranks up
boards, whether a Razz board just caught a brick, and how the cards seen
elsewhere move a 3rd-street start.
"""

from __future__ import annotations

from collections.abc import Sequence

from stud.bots.seen import Seen
from stud.evaluate import showing_high_value, showing_razz_value


def low_rank(card: int) -> int:
    """Ace-low rank: ace 0, deuce 1, ... king 12."""
    return ((card >> 2) + 1) % 13


def door_quality(game: str, card: int) -> int:
    """How much a door card scares the table in ``game`` (bigger: scarier)."""
    rank = card >> 2
    if game == "razz":
        return 12 - low_rank(card)
    if game == "stud":
        return rank
    if rank == 12:
        return 13  # Stud8: an ace is both the best low card and the best high card
    low = low_rank(card)
    return 10 - low if low <= 7 else -rank


DOOR_CLASSES = 3
"""Door cards fall in this many classes by how they look (:func:`door_class`)."""


def door_class(game: str, card: int) -> int:
    """How a door card looks to the table: 2 scary, 1 middling, 0 weak.

    Razz: ace to four, five to eight, nine to king. Stud: jack to ace, seven to
    ten, deuce to six. Stud8: ace to four (both halves), five to eight, nine to
    king. A player who folds by how his hand stands against the completer's
    door folds more to a scary one: reads are kept per class.
    """
    if game == "stud":
        rank = card >> 2
        return 2 if rank >= 9 else 1 if rank >= 5 else 0
    low = low_rank(card)
    return 2 if low <= 3 else 1 if low <= 7 else 0


def showing(game: str, cards: Sequence[int]) -> int:
    """The value of an up board, as the engine ranks who acts first (bigger: better)."""
    if game == "razz":
        return showing_razz_value(list(cards))
    return showing_high_value(list(cards))


def bricked(up: Sequence[int]) -> bool:
    """Razz: the last up card is a brick (above an eight, or pairs the board)."""
    if len(up) < 2:
        return False
    last = low_rank(up[-1])
    return last > 7 or any(low_rank(c) == last for c in up[:-1])


def liveness(seen: Seen) -> float:
    """How the cards seen elsewhere move my 3rd-street start (a percentile correction).

    Cards I need that lie face up elsewhere are dead: a pair whose trips card is
    showing, a flush suit spread around the table, low cards in others' doors
    in the low games. Cards that would pair me being dead helps in Razz.
    """
    game = seen.game
    mine = seen.mine_down[:2] + seen.mine_up[:1]
    visible = [c for o in seen.opponents for c in o.up] + seen.dead
    my_ranks = [c >> 2 for c in mine]
    adjust = 0.0
    if game in ("razz", "stud8"):
        my_lows = {low_rank(c) for c in mine}
        wanted = [c for c in visible if low_rank(c) <= 7 and low_rank(c) not in my_lows]
        expected = len(visible) * (8 - len([x for x in my_lows if x <= 7])) / 49
        adjust -= 0.02 * (len(wanted) - expected)
        if game == "razz":
            adjust += 0.01 * sum(1 for c in visible if low_rank(c) in my_lows)
    if game in ("stud", "stud8"):
        for rank in set(my_ranks):
            if my_ranks.count(rank) >= 2:
                adjust -= 0.08 * sum(1 for c in visible if c >> 2 == rank)
        suits = [c & 3 for c in mine]
        if suits.count(suits[0]) == 3:
            adjust -= 0.025 * sum(1 for c in visible if c & 3 == suits[0])
    return max(-0.25, min(0.08, adjust))
