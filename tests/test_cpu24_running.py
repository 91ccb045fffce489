"""A hand's words read from running sums, a card added at a time, are the words read afresh.

:class:`stud.evaluate.sofar.Running` keeps a hand's sums as its cards come, and a table
adds only each seat's new cards to what its earlier ones made (``EngineHand.words``).
Here the running words are held to the words the evaluators read from every card again
(``high_so_far``, ``razz_so_far``, ``eight_low_so_far``: the showdown's evaluators) after
every card of thousands of random deals, flush-heavy ones among them, and at every step of
random hands of each game, for every viewer and every seat's board; and a table's action
taken as the engine's own legal ``Action`` plays exactly as a new one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from stud.evaluate.sofar import (
    NOTHING,
    Running,
    eight_code,
    eight_low_so_far,
    high_so_far,
    low_of_code,
    razz_code,
    razz_so_far,
    running_high,
)
from stud.game import Action, ActionKind
from stud.table.engine import EngineHand, start_engine_hand
from stud.table.errors import TableError
from stud.table.events import HandEvent
from stud.table.readout import readout_running

GAMES = ("stud", "stud8", "razz")


def _check_words(sums: Running, cards: list[int]) -> None:
    """Every word of ``sums`` against the words of ``cards`` read afresh."""
    assert sums.count == len(cards)
    assert running_high(sums) == high_so_far(cards), cards
    assert low_of_code(razz_code(sums)) == razz_so_far(cards), cards
    for to_come in range(7):
        assert low_of_code(eight_code(sums, to_come)) == eight_low_so_far(cards, to_come), cards


def test_running_words_equal_fresh_words_after_every_card() -> None:
    rng = random.Random("cpu24-running")
    for deal in range(3000):
        # Every third deal from two suits only: flushes and straight flushes come often.
        pool = [c for c in range(52) if c & 3 in (0, 1)] if deal % 3 == 0 else list(range(52))
        cards = rng.sample(pool, 7)
        sums, held = NOTHING, list[int]()
        while len(held) < 7:
            new = cards[len(held) : len(held) + rng.randint(1, 3)]  # one card or a few at once
            before = sums
            sums = sums.plus(new)
            held += new
            assert before.count == len(held) - len(new)  # the sums added to are unchanged
            _check_words(sums, held)


def test_unknown_cards_are_left_out_and_no_card_or_too_many_are_refused() -> None:
    sums = NOTHING.plus([None, 51, None, 0])
    _check_words(sums, [51, 0])
    assert readout_running("stud", NOTHING, 3) is None
    with pytest.raises(ValueError, match="1 to 7 cards, not 8"):
        running_high(NOTHING.plus(range(8)))
    with pytest.raises(ValueError, match="1 to 7 cards, not 0"):
        razz_code(NOTHING)


def test_the_same_words_are_one_dict() -> None:
    """Two hands with the same words (any cards) share one readout dict, never changed; the
    table keeps the dict's JSON by its identity."""
    kings = readout_running("stud", NOTHING.plus([44, 45, 0]), 4)  # Kc Kd 2c
    also = readout_running("stud", NOTHING.plus([46, 47, 4]), 4)  # Kh Ks 3c
    assert kings is also and kings == {"high": "a pair of Kings", "low": None}
    low = readout_running("stud8", NOTHING.plus([0, 4, 8]), 4)
    assert low == {"high": "high card Four", "low": {"ranks": "4,3,2", "made": False,
                                                     "possible": True}}  # fmt: skip
    assert readout_running("stud8", NOTHING.plus([0, 4, 8]), 1) == {
        "high": "high card Four",
        "low": {"ranks": "4,3,2", "made": False, "possible": False},
    }


def _expected(game: str, cards: list[int], to_come: int) -> dict[str, Any] | None:
    """A readout made from the words read afresh (the evaluators, every card again)."""
    if not cards:
        return None
    if game == "razz":
        low = razz_so_far(cards)
        return {"high": None, "low": low and {"ranks": low.ranks, "made": low.made,
                                               "possible": low.possible}}  # fmt: skip
    high = high_so_far(cards)
    eight = eight_low_so_far(cards, max(0, to_come)) if game == "stud8" else None
    low_words = None
    if eight is not None:
        low_words = {"ranks": eight.ranks, "made": eight.made, "possible": eight.possible}
    return {"high": high, "low": low_words}


def _to_come(hand: EngineHand, player: int, held: int) -> int:
    engine = hand.hand
    if engine.is_over or not engine.live[player]:
        return 0
    return 7 - held - (1 if engine.community is not None else 0)


@pytest.mark.parametrize("game", GAMES)
def test_a_tables_running_words_are_the_fresh_words_at_every_step(game: str) -> None:
    rng = random.Random(f"cpu24-steps-{game}")
    for number in range(60):
        players = rng.randint(2, 8)  # eight players run out of cards: a community card
        seats = sorted(rng.sample(range(8), players))
        stacks = [rng.choice([3, 20, 400]) for _ in seats]
        hand, _ = start_engine_hand(game, 1, 2, 4, 8, stacks, seats, 7000 + number)
        assert isinstance(hand, EngineHand)
        engine = hand.hand
        while True:
            viewers: list[int | None] = [None, *range(players)]
            rng.shuffle(viewers)
            for viewer in viewers:
                own, boards = hand.words(viewer)
                community = [] if engine.community is None else [engine.community]
                if viewer is not None:
                    down, up = engine.down_cards(viewer), engine.up_cards(viewer)
                    cards = [c for c in (*down, *up, *community) if c is not None]
                    to_come = _to_come(hand, viewer, len(down) + len(up))
                    assert own == _expected(game, cards, to_come), (number, viewer)
                expected_boards = {}
                for p in range(players):
                    board = [c for c in engine.up_cards(p) if c is not None]
                    held = len(engine.down_cards(p)) + len(engine.up_cards(p))
                    words = _expected(game, board, _to_come(hand, p, held))
                    if words is not None:
                        expected_boards[str(seats[p])] = words
                assert boards == expected_boards, number
            if hand.over:
                break
            choice = rng.choice(hand.legal())
            assert hand.actor is not None
            hand.act(hand.actor, choice.action, choice.to)


@pytest.mark.parametrize("game", GAMES)
def test_an_action_taken_as_the_engines_legal_one_plays_as_a_new_action(game: str) -> None:
    """``EngineHand.act`` hands the engine its own legal ``Action`` (the engine's fast path):
    the same events, hand and refusals as a new ``Action`` given to the engine directly."""
    rng = random.Random(f"cpu24-act-{game}")
    for number in range(30):
        stacks = [rng.choice([3, 20, 400]) for _ in range(4)]
        table_hand, _ = start_engine_hand(game, 1, 2, 4, 8, stacks, [0, 2, 4, 6], number)
        twin, _ = start_engine_hand(game, 1, 2, 4, 8, stacks, [0, 2, 4, 6], number)
        assert isinstance(table_hand, EngineHand) and isinstance(twin, EngineHand)
        while not table_hand.over:
            actor = table_hand.actor
            assert actor is not None
            legal = table_hand.legal()
            wrong = (actor + 1) % 4
            with pytest.raises(TableError):  # not this player's turn: refused
                table_hand.act(wrong, legal[0].action, legal[0].to)
            with pytest.raises(TableError):  # an amount nobody may wager: refused
                table_hand.act(actor, "raise", 10**6)
            with pytest.raises(TableError):  # not an action at all
                table_hand.act(actor, "dance", 0)
            choice = rng.choice(legal)
            events = table_hand.act(actor, choice.action, choice.to)
            direct = twin.hand.act(Action(ActionKind(choice.action), choice.to, actor))
            twin._step += 1  # the twin's views are not asked for: only its engine is compared
            assert [e.TYPE for e in direct] == [e.kind for e in events]
            assert table_hand.hand.events == twin.hand.events
        assert table_hand.hand.result == twin.hand.result


def test_a_hand_event_keeps_its_own_private_parts() -> None:
    first, second = HandEvent("action", {"seat": 1}), HandEvent("action", {"seat": 1})
    first.private[1] = {"down": ["As"]}
    assert second.private == {} and first != second
    dealt = HandEvent("dealt", {}, {2: {"down": ["Kd"]}})
    assert dealt == HandEvent("dealt", {}, {2: {"down": ["Kd"]}})
    assert repr(dealt) == "HandEvent(kind='dealt', data={}, private={2: {'down': ['Kd']}})"
