"""A hand's words and public picture, made once per step and kept across steps, are never stale.

``EngineHand`` makes the public view's pieces once per step for every viewer,
reads each seat's board and each player's own cards again only when they
changed, and hands out the same boards dict while no seat's words changed (the
table keeps its JSON by that dict's identity). Here viewers ask in random
order, at random steps, some steps not at all, and every answer is compared
with the readouts of the engine's own views built from nothing; the boards
read only up cards, and the cards are read by index exactly as by name.
"""

from __future__ import annotations

import json
import random
from typing import Any

import orjson
import pytest

from stud.cards import Card
from stud.table.engine import EngineHand, start_engine_hand
from stud.table.readout import board_readouts, own_readout, readout, readout_of
from test_table_view_json import _act_first, _seated_table, _send_and_compare, _state

GAMES = ("stud", "stud8", "razz")


def _fresh_words(
    hand: EngineHand, viewer: int | None
) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """The words read from the engine's own views (with their event logs: built afresh)."""
    seat = None if viewer is None else hand.seats[viewer]
    own = own_readout(hand.view(viewer, events=True), seat)
    return own, board_readouts(hand.view(None, events=True))


def _act_at_random(hand: EngineHand, rng: random.Random) -> None:
    """The player to act takes one of their legal actions."""
    choice = rng.choice(hand.legal())
    assert hand.actor is not None
    hand.act(hand.actor, choice.action, choice.to)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_words_asked_at_random_steps_and_in_any_order_are_the_fresh_ones(game: str) -> None:
    rng = random.Random(f"cpu23-words-{game}")
    for number in range(40):
        players = rng.randint(2, 8)
        seats = sorted(rng.sample(range(8), players))
        stacks = [rng.choice([2, 9, 30, 400]) for _ in seats]
        hand, _ = start_engine_hand(game, 1, 2, 4, 8, stacks, seats, 1000 + number)
        assert isinstance(hand, EngineHand)
        last_boards: dict[str, Any] | None = None
        last_text = b""
        while True:
            if rng.random() < 0.6:  # some steps nobody looks
                viewers: list[int | None] = [None, *range(players)]
                rng.shuffle(viewers)
                for viewer in viewers[: rng.randint(1, len(viewers))]:
                    fresh = _fresh_words(hand, viewer)
                    words = hand.words(viewer)
                    assert words == fresh, (number, viewer)
                    boards = words[1]
                    if boards is last_boards:  # kept: its JSON must still be the fresh one's
                        assert orjson.dumps(boards) == last_text
                    last_boards, last_text = boards, orjson.dumps(fresh[1])
                    engines = hand.view(viewer, events=True)  # from the engine's own view
                    del engines["events"]
                    assert json.loads(hand.view_json(viewer)) == engines, (number, viewer)
            if hand.over:
                break
            _act_at_random(hand, rng)


@pytest.mark.parametrize("game", GAMES)
def test_the_boards_read_up_cards_only_and_keep_one_dict_while_they_hold(game: str) -> None:
    rng = random.Random(f"cpu23-boards-{game}")
    kept = changed = 0
    for number in range(20):
        hand, _ = start_engine_hand(game, 1, 2, 4, 8, [400, 400, 400], [0, 3, 5], number)
        assert isinstance(hand, EngineHand)
        before: dict[str, Any] | None = None
        while True:
            boards = hand.words(None)[1]
            spectator = hand.view(None)
            for entry in spectator["seats"]:
                up = [c for c in entry["up"] if c]
                to_come = 0 if hand.over or not entry["live"] else 7 - len(entry["down"]) - len(up)
                to_come -= 1 if spectator["community"] and to_come else 0
                expected = readout(game, up, to_come)
                assert boards.get(str(entry["seat"])) == expected
            if before is not None:
                if boards is before:
                    kept += 1
                else:  # made again: a seat's cards, liveness or the hand's end changed
                    changed += 1
            before = boards
            if hand.over:
                break
            _act_at_random(hand, rng)
    assert kept > changed > 0, (kept, changed)


def test_cards_read_by_index_are_read_as_by_name() -> None:
    rng = random.Random("cpu23-index")
    for _ in range(2000):
        game = rng.choice(GAMES)
        cards = rng.sample(range(52), rng.randint(0, 7))
        to_come = rng.randint(-1, 6)
        texts = [str(Card(c)) for c in cards]
        assert readout_of(game, tuple(cards), to_come) == readout(game, texts, to_come)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ((52,), "not a card: 52"),
        ((-1,), "not a card: -1"),
        ((3, 3), "appears more than once"),
        (tuple(range(8)), "expected 1, 2, 3, 4, 5, 6 or 7 cards, got 8"),
    ],
)
def test_bad_card_indexes_are_refused_by_name(cards: tuple[int, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        readout_of("stud", cards, 3)


def test_a_kept_own_settings_piece_is_made_again_when_its_values_change() -> None:
    """Each seat's ``mine`` (its player's own settings) is kept as JSON between steps: the
    automatic rebuy, chips bought during a hand, the buy-in and the showdown and bring-in
    choices reach their player at once, and nobody else's state carries them."""
    actor, table, watchers = _seated_table()
    _send_and_compare(actor)
    assert _state(watchers[12])["mine"] == mine(False, 0, 200)
    table.set_auto_rebuy(12, True)
    table.top_up(12, 30, 0.0)  # between hands: the stack and the buy-in
    _send_and_compare(actor)
    assert _state(watchers[12])["mine"] == mine(True, 0, 230)
    table.tick(1.0)
    assert table.hand is not None
    table.top_up(12, 20, 1.0)  # in a hand: pending until it ends
    _send_and_compare(actor)
    assert _state(watchers[12])["mine"] == mine(True, 20, 250)
    assert _state(watchers[11])["mine"] == mine(False, 0, 200)
    hand, now = table.hand, 2.0
    while table.hand is hand:  # the hand ends: the chips bought join the stack
        _act_first(table, ("check", "call", "bring-in"), now)
        now += 1.0
    _send_and_compare(actor)
    assert _state(watchers[12])["mine"] == mine(True, 0, 250)
    table.set_auto_rebuy(12, False)
    _send_and_compare(actor)
    assert _state(watchers[12])["mine"]["auto_rebuy"] is False
    table.set_show_losing(12, True)  # the showdown choice and the bring-in's, likewise
    table.sit_out_after_bring_in(12, True)
    _send_and_compare(actor)
    assert _state(watchers[12])["mine"] == {
        **mine(False, 0, 250),
        "muck_losing_hands": False,
        "sit_out_after_bring_in": True,
    }
    assert _state(watchers[11])["mine"] == mine(False, 0, 200)


def mine(auto_rebuy: bool, pending: int, buy_in: int) -> dict[str, object]:
    """A player's own settings with the room's defaults for the showdown and the bring-in."""
    return {"auto_rebuy": auto_rebuy, "pending": pending, "buy_in": buy_in,
            "muck_losing_hands": True, "sit_out_after_bring_in": False}  # fmt: skip
