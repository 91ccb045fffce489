"""Snapshots: a tournament written to JSON mid-hand and restored voids the hands in progress.

Every player of a voided hand gets back exactly the chips they had when it was
dealt, the tournament's chips add up, the level clock resumes where it stood,
and the restored tournament plays on to a winner whose prizes add up to the
pool. A damaged snapshot is refused with an error that names the problem.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from stud.bots import Bot, make_bot
from stud.table import Effect, Event
from stud.tournament import FINISHED, REGISTERING, RUNNING, Tournament, balanced
from stud.tournament.offline import bot_step, offline_settings
from stud.tournament.snapshot import restore, snapshot


def start(players: int, seed: int, *, table_seats: int = 6) -> tuple[Tournament, dict[int, Bot]]:
    settings = offline_settings("razz", players, table_seats=table_seats, level_hands=4)
    tournament = Tournament(settings, seed=seed)
    brains = {}
    for account in range(1, players + 1):
        tournament.register(account, f"bot-{account}", 0.0, bot=True)
        brains[account] = make_bot(("random", "station")[account % 2], seed * 100 + account)
    tournament.tick(0.0)
    assert tournament.state == RUNNING
    return tournament, brains


def advance(tournament: Tournament, brains: dict[int, Bot], now: float, steps: int) -> float:
    """Play ``steps`` bot actions (dealing as the clock allows); return the clock."""
    for _ in range(steps):
        if tournament.state != RUNNING:
            break
        if bot_step(tournament, brains, now) is None:
            wake = tournament.wakeup()
            assert wake is not None
            now = max(now, wake)
            tournament.tick(now)
    return now


def play_out(tournament: Tournament, brains: dict[int, Bot], now: float) -> None:
    total = tournament.chips_in_play()
    while tournament.state == RUNNING:
        now = advance(tournament, brains, now, 1)
        assert tournament.chips_in_play() == total
    assert tournament.state == FINISHED


def settled(tournament: Tournament) -> dict[int, int]:
    return {account: tournament.chips(account) for account in tournament.alive()}


@pytest.mark.slow  # many tournaments restored mid-hand
def test_restoring_mid_hand_voids_it_and_returns_exact_chips() -> None:
    rng = random.Random(4)
    for round_ in range(4):
        tournament, brains = start(26, seed=round_ + 1)
        now = advance(tournament, brains, 0.0, rng.randrange(50, 1500))
        in_hand = [t for t, table in tournament.tables.items() if table.hand is not None]
        if not in_hand:  # stop in the middle of some hand
            now = advance(tournament, brains, now, 1)
            in_hand = [t for t, table in tournament.tables.items() if table.hand is not None]
        assert in_hand and tournament.state == RUNNING
        # The chips each player had when their hand was dealt: stack + what they put in.
        expected: dict[int, int] = {}
        committed_somewhere = 0
        for table in tournament.tables.values():
            committed = table.hand.committed() if table.hand is not None else []
            committed_somewhere += sum(committed)
            for _, player in table.players():
                put = committed[player.index] if player.index is not None else 0
                expected[player.id] = player.stack + put
        assert committed_somewhere > 0
        data = json.loads(json.dumps(snapshot(tournament, now)))
        later = now + 3600.0
        restored, outs = restore(data, later)
        voided = [o for o in outs if isinstance(o, Event) and o.kind == "hand_voided"]
        assert sorted(o.data["table"] for o in voided) == sorted(in_hand)
        assert settled(restored) == expected
        assert restored.chips_in_play() == 26 * tournament.settings.structure.starting_chips
        assert all(t.hand is None for t in restored.tables.values())
        assert balanced(restored.head_counts(), restored.settings.table_seats)
        # The clock stood still while the snapshot lay on disk.
        assert restored.level_number(later) == tournament.level_number(now)
        ends = restored.level_ends_at(later)
        was = tournament.level_ends_at(now)
        assert ends is not None and was is not None and ends - later == pytest.approx(was - now)
        # A voided hand's number is not dealt again.
        for t in in_hand:
            assert restored.tables[t].hand_number == tournament.tables[t].hand_number
        assert restored.standings.to_dict() == tournament.standings.to_dict()
        assert restored.paid == tournament.paid
        play_out(restored, brains, later)
        assert sum(f.prize for f in restored.finishes()) == restored.pool


def test_a_snapshot_between_hands_restores_to_the_same_snapshot() -> None:
    tournament, brains = start(14, seed=9)
    now = advance(tournament, brains, 0.0, 400)
    while any(t.hand is not None for t in tournament.tables.values()):
        now = advance(tournament, brains, now, 1)
    data = snapshot(tournament, now)
    restored, outs = restore(json.loads(json.dumps(data)), now)
    assert not [o for o in outs if isinstance(o, Event) and o.kind == "hand_voided"]
    again = snapshot(restored, now)
    assert again == data


def test_registrations_survive_and_refunds_still_work() -> None:
    settings = offline_settings("stud", 20)  # a multi-table tournament starting at 0.0
    tournament = Tournament(settings, seed=1)
    for account in (5, 6, 7):
        tournament.register(account, f"p{account}", -100.0)
    restored, _ = restore(json.loads(json.dumps(snapshot(tournament, -50.0))), -40.0)
    assert restored.state == REGISTERING and sorted(restored.entrants) == [5, 6, 7]
    outs = restored.unregister(6, -30.0)
    refunds = [o.data for o in outs if isinstance(o, Effect) and o.kind == "refund"]
    assert refunds == [{"account_id": 6, "buy_in": 100, "fee": 10, "bot": False}]
    restored.tick(0.0)
    assert restored.state == RUNNING and restored.chips_in_play() == 2 * 1500


def damaged(data: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    copy: dict[str, Any] = json.loads(json.dumps(data))
    node: Any = copy
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return copy


def first_seat(data: dict[str, Any]) -> int:
    return next(i for i, s in enumerate(data["tables"][0]["seats"]) if s is not None)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: damaged(d, ["version"], 99), "version"),
        (lambda d: damaged(d, ["state"], "paused"), "unknown tournament state"),
        (lambda d: damaged(d, ["entrants"], KeyError), "not a tournament snapshot"),
        (lambda d: damaged(d, ["tables", 0, "seats", first_seat(d), "stack"], 1), "add up"),
        (lambda d: damaged(d, ["tables", 0, "seats", first_seat(d), "id"], 999), "no such player"),
        (lambda d: damaged(d, ["tables", 0, "seats"], [None]), "seats"),
        (lambda d: damaged(d, ["settings", "game"], "holdem"), "unknown game"),
    ],
)
def test_a_damaged_snapshot_is_refused(change: Any, message: str) -> None:
    tournament, brains = start(10, seed=3)
    now = advance(tournament, brains, 0.0, 120)
    data = snapshot(tournament, now)
    with pytest.raises(ValueError, match=message):
        restore(change(data), now)


def _paths(node: Any, path: list[Any]) -> list[list[Any]]:
    """Every place in a JSON-like value, as a key path."""
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, [*path, key])
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out += _paths(value, [*path, index])
    return out


@pytest.mark.slow
def test_any_damage_is_refused_with_a_value_error_or_restores_whole() -> None:
    """Each value of a snapshot replaced by something of another kind: restore either refuses
    with a ValueError or gives a tournament whose chips add up; nothing else escapes."""
    tournament, brains = start(8, seed=6, table_seats=4)
    now = advance(tournament, brains, 0.0, 150)
    data = snapshot(tournament, now)
    total = 8 * tournament.settings.structure.starting_chips
    rng = random.Random(1)
    paths = [p for p in _paths(data, []) if p]
    replacements: tuple[Any, ...] = (None, "x", -1, 2.5, [], {}, True, 10**12)
    for path in rng.sample(paths, min(300, len(paths))):
        for value in replacements:
            try:
                restored, _ = restore(damaged(data, path, value), now)
            except ValueError:
                continue
            if restored.state == RUNNING:
                assert restored.chips_in_play() == total


@pytest.mark.parametrize("run", range(3))
def test_restored_again_and_again_at_random_moments_it_still_finishes_whole(run: int) -> None:
    """Late registration, time passing, bots acting, and a crash and restore at random
    moments (the clock jumping while down): after every step every chip of the field is in
    play, and the tournament ends with prizes that add up to the pool."""
    from stud.tournament import Structure, TournamentError, TournamentSettings

    rng = random.Random(run)
    settings = TournamentSettings(
        id=run + 1, name="chaos", game=("stud", "razz", "stud8")[run], kind="mtt",
        start_at=10.0, late_levels=2, table_seats=(3, 4, 6)[run],
        structure=Structure(starting_chips=400, level_seconds=120.0),
        pause_between_hands=5.0, turn_seconds=10.0, time_bank=5.0,
    )  # fmt: skip
    tournament = Tournament(settings, seed=run)
    brains: dict[int, Bot] = {}
    for account in range(1, 15):
        tournament.register(account, f"p{account}", 0.0, bot=True)
        brains[account] = make_bot("random", account)
    tournament.tick(10.0)
    now, late, restores = 10.0, 100, 0
    while tournament.state == RUNNING:
        roll = rng.random()
        if roll < 0.02 and tournament.registration_open:
            late += 1
            tournament.register(late, f"late{late}", now, bot=True)
            brains[late] = make_bot("station", late)
        elif roll < 0.03:
            data = json.loads(json.dumps(snapshot(tournament, now)))
            now += rng.uniform(0, 100)
            tournament, _ = restore(data, now)
            restores += 1
        elif roll < 0.7:
            if bot_step(tournament, brains, now) is None:
                wake = tournament.wakeup()
                now = max(now, now if wake is None else wake)
                tournament.tick(now)
        else:
            now += rng.uniform(0, 8)
            tournament.tick(now)
        assert tournament.chips_in_play() == len(tournament.entrants) * 400
    assert tournament.state == FINISHED and restores > 3 and late > 100
    assert sum(f.prize for f in tournament.finishes()) == tournament.pool
    with pytest.raises(TournamentError):
        tournament.register(999, "after", now)


def test_a_crash_in_a_hand_for_hand_round_places_its_busts_on_restore() -> None:
    """A round's busts wait for every table to finish; after a crash every table is between
    hands, so the restored tournament places them at once (and keeps every chip)."""
    from stud.tournament import Bust, TournamentSettings

    settings = TournamentSettings(id=3, name="h4h", game="stud", kind="mtt", start_at=0.0,
                                  table_seats=5)  # fmt: skip
    tournament = Tournament(settings, seed=2)
    for account in range(1, 11):
        tournament.register(account, f"p{account}", 0.0)
    tournament.tick(0.0)
    table = tournament.tables[1]
    (_, out), (_, heir) = table.players()[:2]
    heir.stack += out.stack  # as if ``out`` lost every chip to ``heir`` in the round's hand
    table.take(out.id)
    players = [{"account_id": out.id, "stack": 1500}, {"account_id": heir.id, "stack": 1500}]
    tournament.round_active = True
    tournament.round_busts = [(1, table.hand_number, players, [Bust(out.id, 1500, 0)])]
    data = json.loads(json.dumps(snapshot(tournament, 1.0)))
    restored, outs = restore(data, 5.0)
    assert not restored.round_active and not restored.round_busts
    busted = [o.data for o in outs if isinstance(o, Event) and o.kind == "busted"]
    assert [(b["id"], b["place"], b["table"]) for b in busted] == [(out.id, 10, 1)]
    assert restored.chips_in_play() == 10 * 1500 and len(restored.alive()) == 9
