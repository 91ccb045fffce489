"""Bots see their seat's view and nothing more: no hidden card reaches them, by any path."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from stud.bots import RoomBot, StrongBot, make_bot, play_hand, view_from_dict
from stud.cards import Deck
from stud.game import (
    Acted,
    Action,
    ActionKind,
    CardsDealt,
    Hand,
    HandView,
    TableConfig,
    variant,
)
from stud.table import Table, TableSettings
from stud.table.engine import EngineHand, start_engine_hand
from stud.table.port import Legal

GAMES = ("stud", "stud8", "razz")


def _config(game: str, seats: int, stack: int) -> TableConfig:
    """A small-stakes table: ante 1, bring-in 2, bets 4 and 8."""
    return TableConfig(
        game=variant(game), ante=1, bring_in=2, small_bet=4, big_bet=8, stacks=(stack,) * seats
    )


class Recorder:
    """Plays like another bot and keeps every view it was given."""

    def __init__(self, inner: str, seed: int) -> None:
        self.inner = make_bot(inner, seed)
        self.views: list[HandView] = []

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        self.views.append(view)
        return self.inner.choose(view, legal)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_views_handed_to_bots_hold_no_foreign_down_card(game: str) -> None:
    config = _config(game, 5, 80)
    for seed in range(8):
        hand = Hand(config, deck=Deck(seed=seed))
        bots = [Recorder(("strong", "random", "station")[s % 3], seed + s) for s in range(5)]
        play_hand(hand, bots)
        for seat, bot in enumerate(bots):
            for view in bot.views:
                assert view.viewer == seat == view.to_act
                for other in view.seats:
                    if other.seat != seat:
                        assert all(c is None for c in other.down)
                    else:
                        assert list(other.down) == list(hand.down_cards(seat)[: len(other.down)])
                for event in view.events:
                    if isinstance(event, CardsDealt) and event.seat != seat:
                        assert all(c is None for c in event.down)


def _swapped(order: list[int], seats: int) -> list[int]:
    """The same deck with every opponent's two first down cards swapped for undealt ones."""
    other = list(order)
    bottom = 51
    for seat in range(1, seats):
        for position in (seat, seats + seat):  # first and second down card of ``seat``
            other[position], other[bottom] = other[bottom], other[position]
            bottom -= 1
    return other


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_strong_bot_plays_the_same_whatever_the_hidden_cards(game: str) -> None:
    """Two deals that differ only in cards seat 0 cannot see: its play must not differ."""
    seats = 3
    config = _config(game, seats, 200)
    differing = 0
    for seed in range(25):
        order = Deck(seed=seed).peek_remaining()
        plays: list[list[Action]] = []
        results = []
        for cards in (order, _swapped([int(c) for c in order], seats)):
            hand = Hand(config, deck=Deck.stacked(cards))
            play_hand(hand, [StrongBot(seed=seed), make_bot("station"), make_bot("station")])
            plays.append(_actions_of(hand, 0))
            results.append(hand.result)
        assert plays[0] == plays[1]
        differing += results[0] != results[1]
    assert differing > 0  # the hidden cards did matter to the outcome, just not to the bot


def _actions_of(hand: Hand, seat: int) -> list[Action]:
    return [
        Action(e.kind, e.to, e.seat) for e in hand.events if isinstance(e, Acted) and e.seat == seat
    ]


@pytest.mark.parametrize("game", GAMES)
def test_view_dict_round_trip(game: str) -> None:
    config = _config(game, 4, 60)
    hand = Hand(config, deck=Deck(seed=11))
    station = make_bot("station")
    while not hand.is_over:
        seat = hand.to_act
        assert seat is not None
        view = hand.view(seat)
        assert view_from_dict(view.to_dict()) == view
        hand.act(station.choose(view, hand.legal_actions()))


@pytest.mark.parametrize("game", GAMES)
def test_room_bot_reads_the_tables_view_with_table_seat_numbers(game: str) -> None:
    config = _config(game, 3, 60)
    table_seats = [1, 4, 6]
    port = EngineHand(Hand(config, deck=Deck(seed=3)), table_seats)
    room_bots = [RoomBot(make_bot("strong", s)) for s in range(3)]
    acted = 0
    while not port.over:
        player = port.actor
        assert player is not None
        view = {"hand": port.view(player, events=True), "you": table_seats[player]}
        rebuilt = view_from_dict(view)
        assert rebuilt == port.hand.view(player)  # engine seat numbers, nothing more
        legal = port.legal()
        choice = room_bots[player].choose(view, legal)
        assert isinstance(choice, Legal) and choice in legal
        port.act(player, choice.action, choice.to)
        acted += 1
    assert acted >= 3


def test_room_bot_takes_the_servers_hand_view_or_the_whole_table_view() -> None:
    """The server hands a bot ``table.view(seat)["hand"]``; the whole view reads the same."""
    settings = TableSettings(
        name="t", game="stud", ante=1, bring_in=2, small_bet=4, big_bet=8, seats=6,
        pause_between_hands=1.0,
    )  # fmt: skip
    table = Table(settings, start_engine_hand, seed=7)
    now = 1000.0
    for seat, player in ((1, 11), (3, 12), (4, 13)):
        table.sit(player, f"p{player}", 100, now, seat=seat)
    before = table.view(1)
    assert before["hand"] is None
    with pytest.raises(ValueError, match="no hand in progress"):
        view_from_dict(before)
    table.tick(now + 5)
    acted = 0
    while table.hand is not None and acted < 6:
        to_act = table.actor_seat
        assert to_act is not None
        whole = table.view(to_act)
        inner = whole["hand"]  # what the server's actor passes
        assert "viewer" in inner and "viewer" not in whole and "seats" in whole
        rebuilt = view_from_dict(inner)
        assert view_from_dict(whole) == rebuilt
        assert rebuilt.viewer == table.hand_seats.index(to_act)
        legal = table.legal()
        choice = RoomBot(make_bot("strong", acted)).choose(inner, legal)
        assert RoomBot(make_bot("strong", acted)).choose(whole, legal) == choice
        sitter = table.seats[to_act]
        assert sitter is not None
        table.act(sitter.id, choice.action, choice.to, table.turn_id, now + 6 + acted)
        acted += 1
    assert acted > 0


def test_a_dict_that_is_no_view_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"'viewer' key.*'hand' key"):
        view_from_dict({"seats": [], "you": 1})


def test_room_bot_without_events_still_sees_the_bet_to_match() -> None:
    config = _config("razz", 3, 60)
    hand = Hand(config, deck=Deck(seed=5))
    hand.act("bring-in")
    hand.act(ActionKind.COMPLETE)
    port = EngineHand(hand, [0, 1, 2])
    view = port.view(port.actor)  # no events, as the room sends by default
    assert "events" not in view
    rebuilt = view_from_dict(view)
    assert rebuilt.events == () and rebuilt.level == 4
    choice = RoomBot(make_bot("strong", 1)).choose(view, port.legal())
    assert choice in port.legal()


def test_a_spectator_view_is_refused() -> None:
    config = _config("stud", 2, 60)
    hand = Hand(config, deck=Deck(seed=1))
    with pytest.raises(ValueError, match="spectator"):
        StrongBot(1).choose(hand.view(None), tuple(hand.legal_actions()))
