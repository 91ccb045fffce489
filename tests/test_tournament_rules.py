"""The tournament's rules one at a time: structure, payouts, places and ties, registration,
refunds, Sit & Go start and bot fill, late registration, levels between hands, moving a
player, and away players anteing off."""

from __future__ import annotations

import json
from collections import Counter
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stud.table import Effect, Event
from stud.tournament import (
    CANCELLED,
    REGISTERING,
    RUNNING,
    Bust,
    Standings,
    Structure,
    TableOut,
    Tournament,
    TournamentError,
    TournamentSettings,
    TourneyOut,
    balanced,
    paid_places,
    prizes,
)


def sng(seats: int = 4, **extra: Any) -> TournamentSettings:
    values: dict[str, Any] = {"id": 7, "name": "sng", "game": "stud", "kind": "sng"}
    values.update(extra)
    return TournamentSettings(table_seats=seats, **values)


def mtt(**extra: Any) -> TournamentSettings:
    values: dict[str, Any] = {
        "id": 9,
        "name": "mtt",
        "game": "razz",
        "kind": "mtt",
        "start_at": 100.0,
    }
    values.update(extra)
    return TournamentSettings(**values)


def effects(outs: list[TourneyOut], kind: str) -> list[dict[str, Any]]:
    return [o.data for o in outs if isinstance(o, Effect) and o.kind == kind]


def events(outs: list[TourneyOut], kind: str) -> list[dict[str, Any]]:
    return [o.data for o in outs if isinstance(o, Event) and o.kind == kind]


def table_items(outs: list[TourneyOut], kind: str) -> list[TableOut]:
    return [o for o in outs if isinstance(o, TableOut) and o.item.kind == kind]


# -- structure -----------------------------------------------------------------------------


def test_levels_keep_the_pokerstars_ratios() -> None:
    structure = Structure()
    # As in the corpus: Level IV 50/100 with a 10 ante and a 15 bring-in; 250/500: 50 and 75.
    assert structure.level(4).stakes == (10, 15, 50, 100)
    assert next(lv for lv in structure.levels if lv.small_bet == 250).stakes == (50, 75, 250, 500)
    for level in structure.levels:
        assert level.big_bet == 2 * level.small_bet
        assert level.ante == round(level.small_bet / 5)
        assert level.ante < level.bring_in <= level.small_bet
    for a, b in zip(structure.levels, structure.levels[1:], strict=False):
        assert b.ante >= a.ante and b.bring_in > a.bring_in and b.small_bet > a.small_bet
    last = structure.levels[-1]
    past = structure.level(len(structure.levels) + 2)
    assert past.stakes == tuple(4 * x for x in last.stakes)


def test_the_level_follows_the_clock() -> None:
    structure = Structure(level_seconds=300)
    assert [structure.number_at(t) for t in (0, 299.9, 300, 900)] == [1, 1, 2, 4]
    assert structure.ends_at(2) == 600
    assert Structure.from_dict(structure.to_dict()) == structure
    with pytest.raises(ValueError, match="numbered"):
        Structure(levels=(structure.level(2),))


# -- payouts -------------------------------------------------------------------------------


def test_small_fields_pay_as_sit_and_gos_do() -> None:
    assert prizes(200, 2) == [200]
    assert prizes(300, 3) == [300]
    assert prizes(600, 6) == [390, 210]
    assert prizes(800, 8) == [400, 240, 160]
    assert prizes(1000, 10) == [500, 300, 200]


@pytest.mark.parametrize("entrants", [*range(1, 60), 99, 100, 101, 180, 500, 1000, 2500])
def test_prizes_add_up_to_the_pool_and_fall_with_the_place(entrants: int) -> None:
    for pool in (0, 1, 7, entrants * 100, entrants * 100 + 13):
        amounts = prizes(pool, entrants)
        assert sum(amounts) == pool
        assert amounts == sorted(amounts, reverse=True)
        assert len(amounts) == paid_places(entrants) <= entrants
    if entrants > 10:
        assert paid_places(entrants) == max(3, round(entrants * 0.15))
        # The last paid place wins back more than its buy-in.
        assert prizes(entrants * 100, entrants)[-1] > 100


# -- places --------------------------------------------------------------------------------


def test_same_hand_busts_are_placed_by_their_chips_and_ties_split() -> None:
    standings = Standings()
    standings.add([Bust(1, 300, 0)])  # 10th of 10
    standings.add([Bust(2, 100, 0), Bust(3, 500, 1), Bust(4, 100, 2)])  # 9th, then 7th tied
    finishes = {f.account_id: f for f in standings.finishes(10, 1000)}
    assert finishes[1].place == 10
    assert finishes[3].place == 7
    assert finishes[2].place == finishes[4].place == 8
    standings.add([Bust(5, 50, 1), Bust(6, 50, 0)])  # tied for 5th and 6th of 10
    standings.add([Bust(7, 10, 0)])  # 4th
    standings.add([Bust(8, 20, 1), Bust(9, 20, 0)])  # tied for 2nd and 3rd: 300 + 200 = 500
    standings.winner = 10
    finishes = {f.account_id: f for f in standings.finishes(10, 1000)}
    assert finishes[10].place == 1 and finishes[10].prize == 500
    assert finishes[8].place == finishes[9].place == 2
    assert finishes[8].prize == finishes[9].prize == 250
    odd = {f.account_id: f.prize for f in Standings(standings.groups).finishes(10, 1001)}
    # 1001: 501/300/200 -- the tied pair split 500 evenly.
    assert odd[8] + odd[9] == 500
    standings = Standings()
    standings.add([Bust(1, 5, 1), Bust(2, 5, 0)])
    standings.add([Bust(3, 8, 0)])
    standings.winner = 4
    # Four entrants pay 65/35 of 101: 66 and 35; the two tied for 3rd split nothing.
    got = {f.account_id: (f.place, f.prize) for f in standings.finishes(4, 101)}
    assert got == {4: (1, 66), 3: (2, 35), 1: (3, 0), 2: (3, 0)}
    # Two tied for 2nd and 3rd of five (65/35 of 101: 66 and 35) split 35: the one dealt
    # first (order 0) takes the odd unit.
    standings = Standings()
    standings.add([Bust(1, 1, 0)])
    standings.add([Bust(2, 9, 0)])
    standings.add([Bust(3, 4, 1), Bust(4, 4, 0)])
    standings.winner = 5
    got = {f.account_id: (f.place, f.prize) for f in standings.finishes(5, 101)}
    assert got == {5: (1, 66), 4: (2, 18), 3: (2, 17), 2: (4, 0), 1: (5, 0)}


# -- registration --------------------------------------------------------------------------


def test_a_sit_and_go_starts_when_full_and_refunds_only_before() -> None:
    tournament = Tournament(sng(3), seed=1)
    outs = tournament.register(1, "ann", 0.0)
    assert effects(outs, "buy_in") == [{"account_id": 1, "buy_in": 100, "fee": 10, "bot": False}]
    with pytest.raises(TournamentError, match="already registered"):
        tournament.register(1, "ann", 1.0)
    tournament.register(2, "bob", 1.0)
    outs = tournament.unregister(2, 2.0)
    assert effects(outs, "refund") == [{"account_id": 2, "buy_in": 100, "fee": 10, "bot": False}]
    with pytest.raises(TournamentError, match="not registered"):
        tournament.unregister(2, 2.0)
    tournament.register(2, "bob", 3.0)
    assert tournament.state == REGISTERING
    outs = tournament.register(3, "cy", 4.0)
    assert tournament.state == RUNNING and events(outs, "started")
    assert len(table_items(outs, "new_hand")) == 0  # dealt after the pause
    assert sorted(tournament.alive()) == [1, 2, 3] and tournament.chips_in_play() == 4500
    with pytest.raises(TournamentError, match="started"):
        tournament.unregister(1, 5.0)
    with pytest.raises(TournamentError, match="registration is closed"):
        tournament.register(4, "dee", 5.0)
    outs = tournament.tick(4.0 + tournament.settings.pause_between_hands)
    assert len(table_items(outs, "new_hand")) == 1


@pytest.mark.parametrize(
    ("name", "message"),
    [("", "needs a name"), ("   ", "needs a name"), ("x" * 65, "at most 64"),
     ("a\nb", r"U\+000A"), ("a\x00", r"U\+0000"), ("bad\u2028line", r"U\+2028")],
)  # fmt: skip
def test_a_bad_name_is_refused_and_changes_nothing(name: str, message: str) -> None:
    tournament = Tournament(sng(3), seed=1)
    with pytest.raises(TournamentError, match=message):
        tournament.register(1, name, 0.0)
    assert tournament.entrants == {} and tournament.pool == 0
    assert tournament.register(1, "Zoë 🂡", 0.0)  # any printable Unicode is welcome


def test_bots_fill_a_sit_and_go() -> None:
    tournament = Tournament(sng(5), seed=1)
    with pytest.raises(TournamentError, match="must register"):
        tournament.fill_with_bots([(90, "b")] * 5, 0.0)
    tournament.register(1, "ann", 0.0)
    with pytest.raises(TournamentError, match="4 bots"):
        tournament.fill_with_bots([(90, "b0")], 0.0)
    rest = [(92, "d"), (93, "e")]
    for bad in ([(90, "b"), (90, "c"), *rest], [(1, "b"), (91, "c"), *rest],
                [(90, "b"), (91, ""), *rest]):  # fmt: skip
        with pytest.raises(TournamentError):
            tournament.fill_with_bots(bad, 1.0)
        assert list(tournament.entrants) == [1]  # nothing changed
    outs = tournament.fill_with_bots([(90 + k, f"bot{k}") for k in range(6)], 1.0)
    assert tournament.state == RUNNING and len(tournament.alive()) == 5
    assert [e["bot"] for e in effects(outs, "buy_in")] == [True] * 4


def test_a_multi_table_tournament_without_a_field_is_cancelled_and_refunded() -> None:
    tournament = Tournament(mtt(), seed=1)
    tournament.register(1, "ann", 0.0)
    assert tournament.tick(99.0) == []
    outs = tournament.tick(100.0)
    assert tournament.state == CANCELLED
    assert effects(outs, "refund") == [{"account_id": 1, "buy_in": 100, "fee": 10, "bot": False}]
    with pytest.raises(TournamentError, match="over"):
        tournament.register(2, "bob", 101.0)


def test_bad_settings_are_refused() -> None:
    for bad in ({"game": "holdem"}, {"kind": "ring"}, {"buy_in": -1}, {"fee": -5}):
        with pytest.raises(ValueError):
            sng(**bad)
    with pytest.raises(ValueError, match="2 to 8 seats"):
        sng(9)
    with pytest.raises(ValueError, match="start time"):
        TournamentSettings(id=1, name="x", game="stud", kind="mtt")
    with pytest.raises(ValueError, match="late registration"):
        sng(late_levels=2)


def test_late_registration_seats_at_the_smallest_table_until_it_closes() -> None:
    structure = Structure(level_seconds=60.0)
    tournament = Tournament(mtt(late_levels=2, table_seats=4, structure=structure), seed=3)
    for account in range(1, 9):
        tournament.register(account, f"p{account}", 0.0)
    tournament.tick(100.0)
    assert tournament.state == RUNNING and tournament.head_counts() == {1: 4, 2: 4}
    assert tournament.late_registration and tournament.registration_closes_at() == 220.0
    outs = tournament.register(9, "late", 150.0)
    assert tournament.table_of(9) == 3  # every table was full: a new one, then balanced
    assert tournament.chips(9) == structure.starting_chips
    assert effects(outs, "buy_in")[0]["account_id"] == 9
    assert tournament.summary(150.0)["state"] == "late_registration"
    tournament.tick(219.0)
    counts = tournament.head_counts()
    assert sum(counts.values()) == 9
    outs = tournament.tick(220.0)
    assert events(outs, "registration_closed")[0]["entrants"] == 9
    with pytest.raises(TournamentError, match="closed"):
        tournament.register(10, "too late", 221.0)
    assert tournament.summary(221.0)["state"] == "running"
    assert tournament.pool == 900


# -- play ----------------------------------------------------------------------------------


def heads_up(**extra: Any) -> Tournament:
    tournament = Tournament(sng(2, **extra), seed=2)
    tournament.register(1, "ann", 0.0)
    tournament.register(2, "bob", 0.0)
    return tournament


PASSIVE = ("check", "call", "bring-in")
AGGRESSIVE = ("complete", "bet", "raise", *PASSIVE)


def finish_hand(
    tournament: Tournament, now: float, choices: tuple[str, ...] = PASSIVE
) -> list[TourneyOut]:
    """The players take the first of ``choices`` that is legal (never fold) until the end."""
    table = tournament.tables[1]
    outs: list[TourneyOut] = []
    while table.hand is not None:
        seat = table.actor_seat
        assert seat is not None
        player = table.seats[seat]
        assert player is not None
        legal = {a.action: a.to for a in table.legal()}
        action = next(a for a in choices if a in legal)
        outs += tournament.act(player.id, action, legal[action], table.turn_id, now)
    return outs


def test_a_hand_in_progress_finishes_at_its_level_and_the_next_is_dealt_at_the_new_one() -> None:
    tournament = heads_up(structure=Structure(level_seconds=100.0))
    pause = tournament.settings.pause_between_hands
    outs = tournament.tick(pause)
    started = table_items(outs, "hand_started")
    assert started and started[0].level == 1
    table = tournament.tables[1]
    assert table.hand is not None and table.settings.ante == 4
    tournament.tick(150.0)  # level 2 began during the hand
    assert table.hand is not None
    outs = finish_hand(tournament, 151.0)
    finished = table_items(outs, "hand_finished")
    assert finished and finished[0].level == 1
    assert tournament.chips_in_play() == 3000
    outs = tournament.tick(151.0 + pause)
    assert table_items(outs, "hand_started")[0].level == 2
    assert table.settings.ante == 6 and table.hand is not None


def test_an_away_player_is_dealt_in_and_antes_off() -> None:
    tournament = heads_up()

    def table_seat(account: int) -> int | None:
        return tournament.tables[1].seat_of(account)

    pause = tournament.settings.pause_between_hands
    tournament.sit_out(2, 0.5)
    now = 0.0
    ante = tournament.settings.structure.level(1).ante
    for _ in range(5):
        before = tournament.chips(2)
        now += pause
        outs = tournament.tick(now)
        started = table_items(outs, "hand_started")
        assert started  # bob is dealt in, away or not
        dealt = {p["account_id"] for p in started[0].item.data["players"]}
        assert dealt == {1, 2}
        antes = [o for o in table_items(outs, "ante") if o.item.data["seat"] == table_seat(2)]
        assert antes and antes[0].item.data["amount"] == ante
        outs += finish_hand(tournament, now, AGGRESSIVE)  # ann bets; bob, away, folds
        assert table_items(outs, "hand_finished")
        # He paid his ante (and the bring-in when his card made him), and won nothing.
        assert before - tournament.chips(2) >= ante
    assert tournament.chips(1) + tournament.chips(2) == 3000


def test_a_player_who_does_not_act_times_out_and_is_then_away() -> None:
    tournament = heads_up(turn_seconds=5.0, time_bank=0.0, timeouts_to_sit_out=2)
    table = tournament.tables[1]
    now = 0.0
    timeouts: list[TableOut] = []
    away: list[TableOut] = []
    hands = 0
    for _ in range(40):
        now += 5.0
        outs = tournament.tick(now)
        timeouts += table_items(outs, "timeout")
        away += table_items(outs, "sat_out")
        hands += len(table_items(outs, "hand_finished"))
    assert hands >= 3 and len(timeouts) >= 4
    # Each player is away after their second time-out, and still dealt in: hands go on.
    assert sorted(o.item.data["seat"] for o in away) == sorted(s for s, _ in table.players())
    assert all(p.sitting_out for _, p in table.players())
    assert tournament.chips_in_play() == 3000


def test_a_moved_player_keeps_their_chips_and_the_tables_balance() -> None:
    structure = Structure(level_seconds=600.0)
    tournament = Tournament(mtt(table_seats=3, structure=structure), seed=5)
    for account in range(1, 6):
        tournament.register(account, f"p{account}", 0.0)
    tournament.tick(100.0)
    assert sorted(tournament.head_counts().values()) == [2, 3]
    # Take a player's chips to nothing at table 1 by hand, as if busted: rebalancing follows.
    counts = tournament.head_counts()
    big = max(counts, key=lambda t: counts[t])
    table = tournament.tables[big]
    assert table.hand is None
    stacks = {p.id: p.stack for _, p in table.players()}
    # Seat after the button moves first.
    n = table.settings.seats
    order = [(table.button + k) % n for k in range(1, n + 1)]
    first = next(table.seats[s] for s in order if table.seats[s] is not None)
    assert first is not None
    other = next(t for t in counts if t != big)
    small = tournament.tables[other]
    _, who = small.players()[0]
    first.bank, first.timeouts = 4.5, 1  # their time bank and time-outs go with them
    small.take(who.id)  # the other table loses a player (as a bust would)
    tournament.standings.add([Bust(who.id, who.stack, 0)])
    who_chips = who.stack
    outs = tournament.rebalance(101.0)
    moved = events(outs, "moved")
    assert moved and moved[0]["id"] == first.id and moved[0]["chips"] == stacks[first.id]
    assert tournament.chips(first.id) == stacks[first.id]
    assert tournament.table_of(first.id) == other
    arrived = small.seats[small.seat_of(first.id)]  # type: ignore[index]
    assert arrived is not None and (arrived.bank, arrived.timeouts) == (4.5, 1)
    assert balanced(tournament.head_counts(), 3)
    assert tournament.chips_in_play() + who_chips == 5 * structure.starting_chips


def test_a_table_view_shows_the_level_clock_and_only_the_viewers_own_cards() -> None:
    tournament = heads_up(structure=Structure(level_seconds=100.0), turn_seconds=60.0)
    assert tournament.wakeup() == tournament.settings.pause_between_hands
    tournament.tick(tournament.settings.pause_between_hands)
    assert tournament.wakeup() is not None
    mine = tournament.table_view(1, 1, 50.0)
    info = mine["tournament"]
    assert info["level"]["level"]["small_bet"] == 20 and info["level"]["next"]["small_bet"] == 30
    assert info["level"]["ends_at"] == 100.0 and info["players_left"] == 2
    seat = tournament.tables[1].seat_of(1)
    other = tournament.tables[1].seat_of(2)
    hand = mine["hand"]
    own = next(s for s in hand["seats"] if s["seat"] == seat)
    theirs = next(s for s in hand["seats"] if s["seat"] == other)
    assert all(card is not None for card in own["down"])
    assert all(card is None for card in theirs["down"])
    spectator = tournament.table_view(1, None, 50.0)["hand"]
    assert all(card is None for s in spectator["seats"] for card in s["down"])
    stranger = tournament.table_view(1, 99, 50.0)["hand"]
    assert stranger == spectator
    with pytest.raises(TournamentError, match="not running"):
        tournament.table_view(5, 1, 50.0)
    # The level's end wakes the tournament to announce the next level.
    finish_hand(tournament, 60.0)
    assert tournament.wakeup() == pytest.approx(62.0)
    tournament.tick(62.0)
    table = tournament.tables[1]
    assert table.hand is not None
    deadline = table.turn_deadline()
    assert deadline is not None and deadline > 100.0
    assert tournament.wakeup() == pytest.approx(100.0)
    assert events(tournament.tick(100.0), "level")[0]["level"]["level"] == 2


@st.composite
def bust_orders(draw: st.DrawFn) -> tuple[int, int, list[list[Bust]]]:
    entrants = draw(st.integers(2, 60))
    pool = draw(st.integers(0, 100_000))
    accounts = list(range(1, entrants + 1))
    groups: list[list[Bust]] = []
    left = accounts[:-1]  # the last one wins
    while left:
        size = draw(st.integers(1, min(len(left), 5)))
        group, left = left[:size], left[size:]
        stacks = [draw(st.integers(1, 4)) * 100 for _ in group]  # ties are common
        groups.append(
            [Bust(a, s, order) for order, (a, s) in enumerate(zip(group, stacks, strict=True))]
        )
    return entrants, pool, groups


@pytest.mark.slow
@given(bust_orders())
@settings(max_examples=300, deadline=None)
def test_places_and_prizes_for_any_order_of_busts(case: tuple[int, int, list[list[Bust]]]) -> None:
    entrants, pool, groups = case
    standings = Standings()
    for group in groups:
        standings.add(group)
    standings.winner = entrants
    finishes = standings.finishes(entrants, pool)
    assert sorted(f.account_id for f in finishes) == list(range(1, entrants + 1))
    assert sum(f.prize for f in finishes) == pool
    place = {f.account_id: f.place for f in finishes}
    prize = {f.account_id: f.prize for f in finishes}
    counts = Counter(place.values())
    expected = 1
    for p in sorted(counts):  # tied players share the best of the places they fill
        assert p == expected
        expected += counts[p]
    busted_before = 0
    for group in groups:
        for a in group:
            for b in group:
                if a.start_stack > b.start_stack:
                    assert place[a.account_id] < place[b.account_id]
                elif a.start_stack == b.start_stack:
                    assert place[a.account_id] == place[b.account_id]
                    assert abs(prize[a.account_id] - prize[b.account_id]) <= 1
        # Out earlier, placed lower than anyone out later.
        assert all(place[b.account_id] > entrants - busted_before - len(group) for b in group)
        busted_before += len(group)
    # A better place never wins less than a worse one (ties split within one unit).
    by_place: dict[int, list[int]] = {}
    for f in finishes:
        by_place.setdefault(f.place, []).append(f.prize)
    places = sorted(by_place)
    for better, worse in pairwise(places):
        assert min(by_place[better]) >= max(by_place[worse])


def test_views_are_plain_json_at_every_stage() -> None:
    tournament = Tournament(sng(3), seed=4)
    json.dumps(tournament.view(0.0))
    tournament.register(1, "ann", 0.0)
    tournament.register(2, "bob", 0.0)
    json.dumps(tournament.view(1.0))
    line = tournament.summary(1.0)
    assert (line["state"], line["entrants"], line["capacity"], line["level"]) == (
        "registering",
        2,
        3,
        None,
    )
    assert (line["buy_in"], line["fee"], line["starting_chips"]) == (100, 10, 1500)
    tournament.register(3, "cy", 1.0)
    line = tournament.summary(3.0)
    assert (line["state"], line["players_left"], line["level"]) == ("running", 3, 1)
    tournament.tick(3.0)
    assert tournament.tables[1].hand is not None
    for account in (1, 2, 3, None):
        json.dumps(tournament.table_view(1, account, 3.0))
    view = tournament.view(3.0)
    json.dumps(view)
    assert view["state"] == RUNNING and view["players_left"] == 3
    assert [e["chips"] for e in view["entrants"]] == [1500, 1500, 1500]
    assert view["payouts"] == [300] and view["prize_pool"] == 300


def test_a_hand_for_hand_round_places_its_busts_as_one_hand() -> None:
    """Busts at two tables in one hand-for-hand round are placed together, by their chips
    at the start of their hands: the one with more places better, equal ones tie."""
    tournament = Tournament(mtt(), seed=1)
    for account in range(1, 11):
        tournament.register(account, f"p{account}", 0.0)
    tournament.round_active = True
    players = [{"account_id": a, "stack": 0} for a in range(1, 11)]
    tournament.round_busts = [
        (2, 7, players, [Bust(1, 500, 0), Bust(3, 300, 2)]),
        (1, 9, players, [Bust(2, 300, 1)]),
    ]
    tournament.end_round(5.0)
    assert not tournament.round_active and not tournament.round_busts
    place = {f.account_id: f.place for f in tournament.finishes()}
    assert place == {1: 8, 2: 9, 3: 9}
    assert len(tournament.standings.groups) == 1  # one hand's busts
