"""Whole bot tournaments through the real table layer, checked after every call.

A 100-player multi-table tournament and a Sit & Go are played to a winner on an
accelerated clock (:mod:`stud.tournament.offline`). After every call: every chip
is still in play, no table holds more than its seats; whenever no table is in
a hand, the tables are balanced (differ by at most one, none left to break).
At the end: places 1..N, prizes adding up to the pool, the ledger's effects.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from functools import partial

import pytest

from stud.table import Effect, Event
from stud.tournament import (
    FINISHED,
    RUNNING,
    TableOut,
    Tournament,
    TourneyOut,
    balanced,
    paid_places,
)
from stud.tournament.offline import offline_settings, run_offline


class Checker:
    """Watches a tournament call by call and keeps what it needs for the final checks."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.effects: list[Effect] = []
        self.events: list[Event] = []
        self.hands = 0
        self.idle_checks = 0
        self.levels: set[int] = set()

    def __call__(self, tournament: Tournament, outs: list[TourneyOut], now: float) -> None:
        for out in outs:
            if isinstance(out, Effect):
                self.effects.append(out)
            elif isinstance(out, Event):
                self.events.append(out)
            elif isinstance(out.item, Effect) and out.item.kind == "hand_started":
                ante = tournament.tables[out.table].settings.ante
                assert ante == tournament.settings.structure.level(out.level).ante
                self.levels.add(out.level)
            elif isinstance(out.item, Effect) and out.item.kind == "hand_finished":
                self.hands += 1
        if tournament.started_at is None:
            return
        assert tournament.chips_in_play() == self.total
        seats = tournament.settings.table_seats
        counts = tournament.head_counts()
        assert all(0 < n <= seats for n in counts.values()), counts
        if all(t.hand is None for t in tournament.tables.values()):
            assert balanced(counts, seats), counts
            self.idle_checks += 1

    def kinds(self, kind: str) -> list[Effect]:
        return [e for e in self.effects if e.kind == kind]


def check_finished(tournament: Tournament, checker: Checker, entrants: int) -> None:
    assert tournament.state == FINISHED
    finishes = tournament.finishes()
    assert sorted(f.account_id for f in finishes) == list(range(1, entrants + 1))
    assert finishes[0].place == 1 and len(tournament.alive()) == 1
    assert finishes[0].account_id == tournament.alive()[0]
    # Places run 1..N; tied players share the best of their places.
    places = Counter(f.place for f in finishes)
    expected = 1
    for place in sorted(places):
        assert place == expected
        expected += places[place]
    assert sum(f.prize for f in finishes) == tournament.pool
    prizes = checker.kinds("prize")
    assert sum(e.data["amount"] for e in prizes) == tournament.pool
    assert len(prizes) >= paid_places(entrants)
    assert {e.data["account_id"] for e in prizes} == {f.account_id for f in finishes if f.prize}
    buy_ins = checker.kinds("buy_in")
    assert len(buy_ins) == entrants and not checker.kinds("refund")
    assert sum(e.data["buy_in"] for e in buy_ins) == tournament.pool
    busted = [e for e in checker.events if e.kind == "busted"]
    assert len(busted) == entrants - 1
    finished = next(e for e in checker.events if e.kind == "finished")
    assert finished.data["winner"] == finishes[0].account_id


@pytest.mark.slow  # a 100-player tournament to its end
def test_a_hundred_bots_play_a_multi_table_tournament_to_a_winner() -> None:
    settings = offline_settings("stud", 100, level_hands=8)
    checker = Checker(100 * settings.structure.starting_chips)
    result = run_offline(settings, ["random", "station"], 100, seed=11, watch=checker)
    tournament = result.tournament
    check_finished(tournament, checker, 100)
    assert checker.hands == result.hands > 100
    assert checker.idle_checks > 50
    assert len(checker.levels) > 3  # the stakes rose with the clock
    kinds = Counter(e.kind for e in checker.events)
    assert kinds["moved"] > 0 and kinds["table_closed"] == 12 and kinds["final_table"] == 1
    assert kinds["hand_for_hand"] == 1 and tournament.rounds_played >= 1  # on the bubble
    assert kinds["started"] == 1 and kinds["registered"] == 100


def test_a_sit_and_go_of_razz_pays_three_places() -> None:
    settings = offline_settings("razz", 8)
    checker = Checker(8 * settings.structure.starting_chips)
    result = run_offline(settings, ["station", "random"], 8, seed=5, watch=checker)
    check_finished(result.tournament, checker, 8)
    assert [f.prize for f in result.finishes()[:3]] == [400, 240, 160]


def test_stud_hi_lo_six_handed_tables() -> None:
    settings = offline_settings("stud8", 23, table_seats=6, level_hands=5)
    checker = Checker(23 * settings.structure.starting_chips)
    result = run_offline(settings, ["random"], 23, seed=2, watch=checker)
    check_finished(result.tournament, checker, 23)


def test_tables_at_their_own_pace_stay_balanced_between_their_hands() -> None:
    """Bots that take their time: each table's hands start and end when they will, as in the
    room. After every call, no table between hands has two players more than the smallest
    (unless a table that should break is still in its hand), chips add up, and nobody was
    moved out of a hand (the table would refuse). It still ends with a winner."""
    from stud.bots import ask, make_bot
    from stud.table.engine import EngineHand
    from stud.tournament import tables_to_break

    settings = offline_settings("stud", 40, table_seats=6, level_hands=6)
    tournament = Tournament(settings, seed=21)
    brains = {}
    for account in range(1, 41):
        tournament.register(account, f"bot-{account}", 0.0, bot=True)
        brains[account] = make_bot(("random", "station")[account % 2], account)
    rng = random.Random(21)
    total = 40 * settings.structure.starting_chips
    now = 0.0
    busy_checks = 0

    def check() -> None:
        nonlocal busy_checks
        assert tournament.chips_in_play() == total
        counts = tournament.head_counts()
        busy = {t for t, table in tournament.tables.items() if table.hand is not None}
        if any(t in busy for t in tables_to_break(counts, settings.table_seats)):
            return
        smallest = min(counts.values())
        for table_id, count in counts.items():
            if table_id not in busy:
                assert count <= smallest + 1, (counts, busy)
        busy_checks += bool(busy) and len(busy) < len(counts)

    rounds: list[str] = []

    def watch(call: Callable[[float], list[TourneyOut]], at: float) -> None:
        """On the bubble, no table deals while another is still in its hand."""
        holding = tournament.hand_for_hand()
        busy = any(t.hand is not None for t in tournament.tables.values())
        able = sum(len(t.players()) >= 2 for t in tournament.tables.values())
        outs = call(at)
        dealt = [
            o
            for o in outs
            if isinstance(o, TableOut)
            and isinstance(o.item, Effect)
            and o.item.kind == "hand_started"
        ]
        if holding and busy:
            assert not dealt
        if holding and dealt:
            assert len(dealt) == able  # they deal together
        rounds.extend(o.kind for o in outs if isinstance(o, Event) and o.kind == "hand_for_hand")

    tournament.tick(0.0)
    while tournament.state == RUNNING:
        now += rng.uniform(0.5, 20.0)
        watch(tournament.tick, now)
        check()
        for table in list(tournament.tables.values()):
            seat = table.actor_seat
            if seat is None or rng.random() < 0.5:
                continue  # this table's bot is still thinking
            player = table.seats[seat]
            hand = table.hand
            assert player is not None and player.index is not None
            assert isinstance(hand, EngineHand)
            action = ask(brains[player.id], hand.hand, player.index)
            move = partial(tournament.act, player.id, action.kind.value, action.to, table.turn_id)
            watch(move, now)
            check()
    assert tournament.state == FINISHED
    assert busy_checks > 100  # the tables really were out of step
    assert rounds == ["hand_for_hand"] and tournament.rounds_played >= 1
    assert sum(f.prize for f in tournament.finishes()) == tournament.pool
