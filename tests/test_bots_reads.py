"""Per-opponent reads: they see every action (the folds that end a hand too), follow players, last.

The strong bot's reads (:mod:`stud.bots.players`) are fed by the observation
hook at the end of every hand, so a fold that ends a hand, which the bot never
sees from its own turns, is counted; they are keyed by player, not seat, and
a simulation or a room keeps them from hand to hand.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import pytest

from stud.bots import BOTS, RoomBot, StrongBot, make_bot, play_hand
from stud.bots.players import PlayerReads
from stud.bots.registry import parse_bots
from stud.cards import Deck
from stud.game import Acted, Action, ActionKind, Hand, HandView, StreetStarted, TableConfig, variant
from stud.sim import SimConfig, play_session, simulate
from stud.table import Table, TableSettings
from stud.table.engine import start_engine_hand

GAMES = ("stud", "stud8", "razz")


def _config(game: str, seats: int) -> TableConfig:
    return TableConfig(
        game=variant(game), ante=2, bring_in=5, small_bet=20, big_bet=40, stacks=(4000,) * seats
    )


class Folder:
    """Folds to any wager; otherwise checks or posts the bring-in."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        kinds = {a.kind: a for a in legal}
        for kind in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.BRING_IN, ActionKind.CALL):
            if kind in kinds:
                return kinds[kind]
        return legal[0]


def _folds_to_a_completion(hand: Hand, seat: int) -> int:
    """How often ``seat`` folded on 3rd street once someone had completed."""
    street = 0
    wagered = False
    folds = 0
    for event in hand.events:
        if isinstance(event, StreetStarted):
            street = event.street
        elif isinstance(event, Acted) and street == 3:
            if event.seat == seat and event.kind is ActionKind.FOLD and wagered:
                folds += 1
            wagered = wagered or event.kind.is_wager
    return folds


@pytest.mark.parametrize("game", GAMES)
def test_reads_count_the_folds_that_end_a_hand(game: str) -> None:
    """Heads-up, every fold ends the hand: the bot's turns never show one, the end of hand does."""
    strong = StrongBot(seed=3, half_life=None)  # whole counts: nothing weighed down
    folder = Folder()
    config = _config(game, 2)
    folds = 0
    for seed in range(40):
        seats = [seed % 2, 1 - seed % 2]  # player 0 is the strong bot, player 1 the folder
        bots = [strong if p == 0 else folder for p in seats]
        hand = Hand(config, deck=Deck(seed=seed))
        play_hand(hand, bots, seats)
        folds += _folds_to_a_completion(hand, seats.index(1))
    assert folds > 10
    stats = strong.reads.players[1]
    assert stats.folds_third == folds
    assert stats.fold_third > 0.8  # the read says what the player is, whatever its seat
    assert stats.hands == 40
    assert set(strong.reads.players) == {1}


def test_without_the_hook_the_folds_would_be_missed() -> None:
    """The same hands seen only from the bot's own turns (the old way) count no fold at all."""
    reads = PlayerReads()
    strong = StrongBot(seed=3)
    config = _config("stud", 2)
    for seed in range(30):
        hand = Hand(config, deck=Deck(seed=seed))
        while not hand.is_over:
            seat = hand.to_act
            assert seat is not None
            view = hand.view(seat)
            if seat == 0:
                reads.update(view, [0, 1])
                hand.act(strong.choose(view, tuple(hand.legal_actions())))
            else:
                hand.act(Folder().choose(view, tuple(hand.legal_actions())))
    assert reads.players[1].folds_third == 0
    assert reads.players[1].faced_third == 0


def test_each_action_is_counted_once_however_often_it_is_seen() -> None:
    config = _config("razz", 3)
    hand = Hand(config, deck=Deck(seed=5))
    bots = [make_bot("tag", 1), make_bot("maniac", 2), make_bot("station")]
    play_hand(hand, bots)
    once, twice = PlayerReads(), PlayerReads()
    once.update(hand.view(0), ["a", "b", "c"])
    for _ in range(2):
        twice.update(hand.view(0), ["a", "b", "c"])
    assert once.players == twice.players
    assert set(once.players) == {"b", "c"}  # the viewer does not read itself
    assert once.players["b"].decisions > 0


def test_reads_follow_players_from_seat_to_seat_and_last_across_hands() -> None:
    """Seats rotate every hand; the bot's read of the maniac grows with every hand played."""
    strong = StrongBot(seed=1)
    maniac = make_bot("maniac", 2)
    nit = make_bot("nit", 3)
    players = {"strong": strong, "maniac": maniac, "nit": nit}
    names = list(players)
    config = _config("stud", 3)
    seen = []
    for n in range(30):
        seats = [names[(s + n) % 3] for s in range(3)]
        hand = Hand(config, deck=Deck(seed=100 + n))
        play_hand(hand, [players[name] for name in seats], seats)
        seen.append(strong.reads.players["maniac"].decisions)
    assert set(strong.reads.players) == {"maniac", "nit"}
    assert seen == sorted(seen) and seen[-1] > seen[0] > 0
    maniac_stats = strong.reads.players["maniac"]
    nit_stats = strong.reads.players["nit"]
    assert maniac_stats.hands == nit_stats.hands == 30
    # It completes at every chance, from the bring-in too (read apart from steals).
    assert maniac_stats.steals == maniac_stats.steal_chances > 5
    assert maniac_stats.bring_in_completes == maniac_stats.bring_ins > 0
    assert maniac_stats.steal_rate > 0.6 and maniac_stats.bring_in_rate > 0.3
    # Raised after its own wagers (how often depends on the strong bot), it never folds.
    assert maniac_stats.faced_back >= 3 and maniac_stats.folds_back == 0
    assert maniac_stats.fold_back < 0.2 < 0.7 < nit_stats.fold_third


class Counting:
    """Registers a bot that counts how many were made."""

    made = 0

    def __init__(self, seed: int | None) -> None:
        type(self).made += 1
        self.inner = make_bot("tag", seed)
        self.hands: set[tuple[int | None, ...]] = set()

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        return self.inner.choose(view, legal)

    def observe(self, view: HandView, players: Sequence[Hashable] | None = None) -> None:
        assert players is not None and set(players) == set(range(len(players)))


@pytest.mark.slow
def test_a_simulation_keeps_its_bots_for_a_whole_session(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "counting", Counting)
    Counting.made = 0
    config = SimConfig("razz", ("counting", "station"), hands=620, seed=1, session=620)
    play_session(config, 0, config.hands)
    assert Counting.made == 1  # one bot for 620 hands (the old simulator made one per 250)
    Counting.made = 0
    result = simulate(SimConfig("razz", ("counting", "station"), hands=300, seed=1, session=100))
    assert Counting.made == 3 and result.net.shape == (300, 2)
    assert parse_bots("counting") == ["counting"]


@pytest.mark.slow
def test_a_simulation_gives_the_same_numbers_whatever_the_workers() -> None:
    config = SimConfig("stud8", ("strong", "station"), hands=90, seed=4, session=30)
    one = simulate(config, workers=1)
    two = simulate(config, workers=2)
    assert np.array_equal(one.net, two.net)
    assert int(one.net.sum()) == 0


def test_the_room_bot_observes_the_tables_views_by_account() -> None:
    """What the room's actor does: the views at the deal and at the end, accounts by table seat."""
    settings = TableSettings(
        name="t", game="stud", ante=1, bring_in=2, small_bet=4, big_bet=8, seats=6,
        pause_between_hands=1.0,
    )  # fmt: skip
    table = Table(settings, start_engine_hand, seed=7)
    now = 1000.0
    accounts = {1: 11, 3: 12, 4: 13}
    for place, account in accounts.items():
        table.sit(account, f"p{account}", 400, now, seat=place)
    strong = StrongBot(seed=1, half_life=None)  # whole counts: nothing weighed down
    room_bot = RoomBot(strong)
    decisions = 0
    for hand_number in range(6):
        now += 10
        outs = table.tick(now)
        assert table.hand is not None, outs
        room_bot.observe(table.view(1, events=True), accounts)
        hand = table.hand
        index = table.hand_seats.index(1)
        while table.hand is not None:
            seat = table.actor_seat
            assert seat is not None
            legal = table.legal()
            if seat == 1:
                choice = room_bot.choose(table.view(seat, events=True)["hand"], legal)
            else:  # the others fold whenever they may
                choice = next((a for a in legal if a.action == "fold"), legal[0])
                decisions += 1  # posting the bring-in is a decision too (it might complete)
            player = table.seats[seat]
            assert player is not None
            table.act(player.id, choice.action, choice.to, table.turn_id, now)
            now += 1
        room_bot.observe(hand.view(index, events=True), accounts)
        del hand_number
    assert set(strong.reads.players) == {12, 13}
    counted = sum(s.decisions for s in strong.reads.players.values())
    assert decisions > 6 and counted == decisions  # every decision, the last folds included


class _Bettor:
    """Completes, bets and raises whenever it may."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        wagers = [a for a in legal if a.kind.is_wager]
        return wagers[0] if wagers else legal[0]


class _RiverFolder:
    """Calls every wager until 7th street, and folds to a bet there."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        kinds = {a.kind: a for a in legal}
        if view.street == 7 and ActionKind.CALL in kinds:
            return kinds[ActionKind.FOLD]
        for kind in (ActionKind.CALL, ActionKind.CHECK, ActionKind.BRING_IN):
            if kind in kinds:
                return kinds[kind]
        return legal[0]


@pytest.mark.parametrize("game", GAMES)
def test_fold_rates_are_read_street_by_street(game: str) -> None:
    """A player who calls down and gives up the river reads so, not as one average."""
    reads = PlayerReads()
    players = ("bettor", "folder")
    for n in range(40):
        hand = Hand(_config(game, 2), deck=Deck(seed=100 + n))
        play_hand(hand, [_Bettor(), _RiverFolder()], players)
        reads.update(hand.view(0), players)
    folder = reads.players["folder"]
    assert folder.faced_at[7] >= 30
    assert folder.fold_at(4) < 0.25 < folder.fold_later < 0.75 < folder.fold_at(7)
    assert folder.fold_rate(7) == folder.fold_at(7)
    assert sum(folder.faced_at) == folder.faced_later


class _DefendsUnlessBringIn:
    """Folds a completion after posting the bring-in, calls it otherwise; checks and calls later."""

    def choose(self, view: HandView, legal: Sequence[Action]) -> Action:
        kinds = {a.kind: a for a in legal}
        posted = any(
            isinstance(e, Acted) and e.seat == view.viewer and e.kind is ActionKind.BRING_IN
            for e in view.events
        )
        if view.street == 3 and posted and ActionKind.CALL in kinds:
            return kinds[ActionKind.FOLD]
        for kind in (ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL):
            if kind in kinds:
                return kinds[kind]
        return legal[0]


def test_folds_to_a_completion_are_read_apart_for_the_bring_in() -> None:
    """The bring-in meets a steal, others a completion: a player may fold one, call the other."""
    reads = PlayerReads()
    players = ("bettor", "defender")
    for n in range(40):
        hand = Hand(_config("razz", 2), deck=Deck(seed=300 + n))
        play_hand(hand, [_Bettor(), _DefendsUnlessBringIn()], players)
        reads.update(hand.view(0), players)
    defender = reads.players["defender"]
    assert 10 <= defender.faced_third_posted < defender.faced_third
    assert defender.folds_third_posted == defender.faced_third_posted
    assert defender.folds_third == defender.folds_third_posted  # it never folded otherwise
    assert (
        defender.fold_third_as(False)
        < 0.3
        < defender.fold_third
        < 0.7
        < defender.fold_third_as(True)
    )
    assert defender.fold_rate(3, posted=True) == defender.fold_third_as(True)
