"""Players' stats against values counted by hand on a fixed set of hands (tests/data/stats),
on SQLite and PostgreSQL: each seat's facts, a player's sums as seen by itself and by
another player (only the hands both were dealt into), and an account's results by game
and session (docs/rest.md, "Player stats").
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from stud.history import read_phh_file
from stud.server.storage import Database
from stud.server.storage.facts import FLAGS, hand_facts
from stud.server.storage.stats import SESSION_GAP, own_stats, player_stats, store_facts

DATA = Path(__file__).resolve().parent / "data" / "stats"
ACCOUNTS = {"Ann": 1, "Bob": 2, "Cy": 3, "Dee": 4, "Eve": 5}
AT = {1: 1000.0, 2: 1060.0, 3: 1060.0 + SESSION_GAP + 1, 4: 1060.0 + SESSION_GAP + 100}
"""When each hand ended: hands 1 and 2 are one session, 3 and 4 the next."""

# Each seat's facts, counted by hand from the hands' comments and actions:
# (vpip, raised, steal_chance, stole, fold4_chance, folded4, saw4, showdown, won_showdown, net)
COUNTED: dict[int, dict[str, tuple[int, ...]]] = {
    1: {
        "Ann": (0, 0, 0, 0, 0, 0, 0, 0, 0, -3),
        "Bob": (0, 0, 1, 0, 0, 0, 0, 0, 0, -1),
        "Cy": (0, 0, 1, 0, 0, 0, 0, 0, 0, -1),
        "Dee": (1, 1, 1, 1, 0, 0, 0, 0, 0, 5),
    },
    2: {
        "Ann": (1, 0, 0, 0, 1, 1, 1, 0, 0, -6),
        "Bob": (1, 0, 1, 0, 1, 0, 1, 1, 0, -11),
        "Cy": (1, 1, 0, 0, 0, 0, 1, 1, 1, 18),
        "Dee": (0, 0, 0, 0, 0, 0, 0, 0, 0, -1),
    },
    3: {
        "Ann": (1, 1, 0, 0, 0, 0, 1, 0, 0, 15),
        "Bob": (0, 0, 0, 0, 0, 0, 0, 0, 0, -3),
        "Cy": (0, 0, 1, 0, 0, 0, 0, 0, 0, -1),
        "Dee": (1, 1, 1, 1, 1, 1, 1, 0, 0, -11),
    },
    4: {
        "Ann": (0, 0, 0, 0, 0, 0, 0, 0, 0, -3),
        "Bob": (1, 1, 0, 0, 0, 0, 0, 0, 0, 6),
        "Cy": (0, 0, 0, 0, 0, 0, 0, 0, 0, -1),
        "Dee": (0, 0, 0, 0, 0, 0, 0, 0, 0, -1),
        "Eve": (0, 0, 0, 0, 0, 0, 0, 0, 0, -1),
    },
}
COLUMNS = (*FLAGS, "net")


def facts_of(number: int) -> list[dict[str, Any]]:
    record = read_phh_file(DATA / f"h{number}.phh").hands[0]
    accounts = [ACCOUNTS[name] for name in record.names]
    return hand_facts(record, accounts, hand_id=number, at=AT[number])


@pytest.mark.parametrize("number", sorted(COUNTED))
def test_each_seat_facts_are_the_hand_counted_ones(number: int) -> None:
    by_account = {row["account_id"]: row for row in facts_of(number)}
    for name, counted in COUNTED[number].items():
        row = by_account[ACCOUNTS[name]]
        assert tuple(row[c] for c in COLUMNS) == counted, (number, name)
    assert sum(row["net"] for row in by_account.values()) == 0  # chips conserved


def test_a_seat_without_an_account_has_no_row() -> None:
    record = read_phh_file(DATA / "h1.phh").hands[0]
    rows = hand_facts(record, [1, None, None, 4], hand_id=1, at=0.0, source="import")
    assert [(r["account_id"], r["source"]) for r in rows] == [(1, "import"), (4, "import")]
    with pytest.raises(ValueError, match="3 accounts for a hand of 4 seats"):
        hand_facts(record, [1, 2, 3], hand_id=1, at=0.0)


def summed(name: str, hands: list[int]) -> dict[str, int]:
    """The hand-counted facts of ``name`` summed over ``hands``."""
    counts = {"hands": 0, **dict.fromkeys(FLAGS, 0)}
    for number in hands:
        if name in COUNTED[number]:
            counts["hands"] += 1
            for column, value in zip(FLAGS, COUNTED[number][name], strict=False):
                counts[column] += value
    return counts


@pytest.fixture(params=["sqlite", "postgres"])
def stored(request: pytest.FixtureRequest, database_factory: Callable[[str], str]) -> Database:
    db = Database(database_factory(request.param))
    db.create_schema()
    for number in COUNTED:
        rows = facts_of(number)
        db.write_sync(lambda c, rows=rows: store_facts(c, rows))  # type: ignore[misc]
    request.addfinalizer(db.close)
    return db


def test_own_stats_sum_every_hand(stored: Database) -> None:
    for name, account in ACCOUNTS.items():
        stats = stored.read_sync(lambda c, a=account: player_stats(c, a, a))  # type: ignore[misc]
        assert stats == summed(name, [1, 2, 3, 4]), name
        own, _ = stored.read_sync(lambda c, a=account: own_stats(c, a))  # type: ignore[misc]
        assert own == stats, name


def test_another_players_stats_count_only_shared_hands(stored: Database) -> None:
    # Eve was dealt only hand 4: of Bob she sees that hand alone, and he of her the same.
    assert stored.read_sync(lambda c: player_stats(c, 2, 5)) == summed("Bob", [4])
    assert stored.read_sync(lambda c: player_stats(c, 5, 2)) == summed("Eve", [4])
    assert stored.read_sync(lambda c: player_stats(c, 4, 1)) == summed("Dee", [1, 2, 3, 4])
    # An account dealt into none of them sees nothing of anyone.
    assert stored.read_sync(lambda c: player_stats(c, 1, 99)) == summed("Ann", [])


def test_imported_hands_count_only_for_their_account(stored: Database) -> None:
    """An imported hand has only its importer's row: another player never sees it counted."""
    record = read_phh_file(DATA / "h3.phh").hands[0]
    rows = hand_facts(record, [None, None, None, 5], hand_id=3, at=AT[3], source="import")
    stored.write_sync(lambda c: store_facts(c, rows))
    assert stored.read_sync(lambda c: player_stats(c, 5, 5))["hands"] == 2
    own, results = stored.read_sync(lambda c: own_stats(c, 5))  # the rollup has it too
    assert own == stored.read_sync(lambda c: player_stats(c, 5, 5))
    # Its results are in the hand's own money (none given: the room's chips), one session.
    assert [s["hands"] for s in results["by_session"]] == [2]
    assert stored.read_sync(lambda c: player_stats(c, 5, 4)) == summed("Eve", [4])
    assert stored.read_sync(lambda c: player_stats(c, 4, 5)) == summed("Dee", [4])


def test_own_results_by_game_and_session(stored: Database) -> None:
    _, results = stored.read_sync(lambda c: own_stats(c, 1))
    assert results["hands"] == 4
    assert results["net"] == -3 - 6 + 15 - 3
    assert results["by_game"] == [{"game": "stud", "unit": "chips", "hands": 4, "net": 3}]
    sessions = [(s["hands"], s["net"], s["start"], s["end"]) for s in results["by_session"]]
    assert sessions == [(2, 12, AT[3], AT[4]), (2, -9, AT[1], AT[2])]  # newest first
    assert {s["unit"] for s in results["by_session"]} == {"chips"}
    assert stored.read_sync(lambda c: own_stats(c, 99))[1]["by_session"] == []


def test_the_rollup_sums_every_flag() -> None:
    from stud.server.storage import schema

    assert set(FLAGS) <= set(schema.player_rollup.c.keys())
    assert set(FLAGS) <= set(schema.hand_facts.c.keys())


def test_net_agrees_with_the_stacks_on_random_hands() -> None:
    """Every seat's ``net`` is its finishing stack less its starting one (all-ins, uncalled
    bets given back, side pots, rake), over random hands of every game and size."""
    from stud.history.samples import sample_hands

    for record in sample_hands(120, seed=38):
        rows = hand_facts(record, list(range(len(record.seats))), hand_id=1, at=0.0)
        assert record.finishing_stacks is not None
        for row in rows:
            seat = row["seat"]
            expected = record.finishing_stacks[seat] - record.seats[seat].stack
            assert row["net"] == expected, (record.label, seat)
            assert row["showdown"] >= row["won_showdown"] and row["saw4"] >= row["fold4_chance"]
            assert row["vpip"] >= row["raised"] and row["steal_chance"] >= row["stole"]
        assert sum(row["net"] for row in rows) == -record.rake


def test_results_of_each_money_are_kept_apart(stored: Database) -> None:
    """An imported hand's ``net`` counts its file's money: never added to the room's chips,
    nor to another money, in the results by game or by session."""
    record = read_phh_file(DATA / "h2.phh").hands[0]
    for hand_id, unit, at in ((7, "USD", AT[1] + 10), (8, "tourney", AT[2]), (9, "USD", AT[4])):
        rows = hand_facts(record, [None, None, 3, None], hand_id=hand_id, at=at, source="import")
        stored.write_sync(lambda c, rows=rows, unit=unit: store_facts(  # type: ignore[misc]
            c, [{**row, "unit": unit} for row in rows]))  # fmt: skip
    counts, results = stored.read_sync(lambda c: own_stats(c, 3))
    assert counts == {k: a + 3 * b for (k, a), b in zip(
        summed("Cy", [1, 2, 3, 4]).items(), summed("Cy", [2]).values(), strict=True)}  # fmt: skip
    assert results["hands"] == 4 and results["net"] == -1 + 18 - 1 - 1  # the room's alone
    assert results["by_game"] == [
        {"game": "stud", "unit": "chips", "hands": 4, "net": 15},
        {"game": "stud", "unit": "USD", "hands": 2, "net": 36},
        {"game": "stud", "unit": "tourney", "hands": 1, "net": 18},
    ]
    sessions = [(x["unit"], x["hands"], x["net"]) for x in results["by_session"]]
    assert sessions == [
        ("USD", 1, 18),
        ("chips", 2, -2),
        ("tourney", 1, 18),
        ("USD", 1, 18),
        ("chips", 2, 17),
    ]  # newest first, each money's sessions its own
