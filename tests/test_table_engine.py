"""The engine adapter: its per-step views equal the engine's own, in table seats."""

from __future__ import annotations

import random
from typing import Any

import pytest

from stud.game import CardsDealt, visible_events
from stud.table.engine import SUMMARY_EVENTS, EngineHand, start_engine_hand, table_seats


def _random_hand(rng: random.Random, game: str, number: int) -> tuple[EngineHand, list[Any]]:
    """A hand of 2 to 8 players in random table seats, some short-stacked (all-ins, side pots)."""
    players = rng.randint(2, 8)
    seats = sorted(rng.sample(range(8), players))
    stacks = [rng.choice([3, 20, 60, 400]) for _ in seats]
    hand, started = start_engine_hand(game, 1, 2, 4, 8, stacks, seats, number)
    assert isinstance(hand, EngineHand)
    return hand, list(started)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_fast_views_equal_the_engines_views_less_the_log(game: str) -> None:
    rng = random.Random(game)
    for number in range(30):
        hand, _ = _random_hand(rng, game, number)
        while True:
            for viewer in [None, *range(len(hand.seats))]:
                fast = hand.view(viewer)
                slow = hand.view(viewer, events=True)
                del slow["events"]
                assert fast == slow, (game, number, viewer)
            if hand.over:
                break
            choice = rng.choice(hand.legal())
            assert hand.actor is not None
            hand.act(hand.actor, choice.action, choice.to)


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_live_events_equal_the_engines_events_renamed_field_by_field(game: str) -> None:
    """Each event the table sends is the engine's spectator event in table seats (the generic
    walk, :func:`table_seats`), and a deal's down cards go, as text, to its seat alone."""
    rng = random.Random(f"events-{game}")
    kinds: set[str] = set()
    for number in range(40):
        hand, started = _random_hand(rng, game, number)
        seats = hand.seats
        emitted = list(started)
        while not hand.over:
            choice = rng.choice(hand.legal())
            assert hand.actor is not None
            emitted += hand.act(hand.actor, choice.action, choice.to)
        engine_events = hand.hand.events
        assert len(emitted) == len(engine_events)
        for sent, event in zip(emitted, engine_events, strict=True):
            expected = table_seats(visible_events([event], None)[0].to_dict(), seats)
            assert {"type": sent.kind, **sent.data} == expected
            kinds.add(sent.kind)
            if isinstance(event, CardsDealt) and event.down:
                own = table_seats(event.to_dict(), seats)
                assert sent.private == {own["seat"]: {"down": own["down"]}}
                assert all(card is None for card in sent.data["down"])
            else:
                assert sent.private == {}
        summary = hand.summary()
        results = [e for e in engine_events if isinstance(e, SUMMARY_EVENTS)]
        assert summary["results"] == [table_seats(e.to_dict(), seats) for e in results]
    # Every kind of event a hand can send was compared.
    assert {"hand_started", "ante", "street", "dealt", "action", "pots", "award"} <= kinds
    assert {"show", "hand_ended", "uncalled"} <= kinds
