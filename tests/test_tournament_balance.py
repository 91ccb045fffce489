"""Breaking and balancing plans (stud.tournament.balance): properties over random head counts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stud.tournament import Move, balanced, plan, table_to_break


@st.composite
def tables(draw: st.DrawFn) -> tuple[dict[int, int], int, set[int]]:
    seats = draw(st.integers(2, 8))
    ids = draw(st.lists(st.integers(1, 40), min_size=1, max_size=14, unique=True))
    counts = {t: draw(st.integers(0, seats)) for t in ids}
    busy = {t for t in ids if counts[t] >= 2 and draw(st.booleans())}
    return counts, seats, busy


def apply(counts: dict[int, int], moves: list[Move]) -> dict[int, int]:
    after = dict(counts)
    for move in moves:
        after[move.source] -= 1
        after[move.target] += 1
    return {t: n for t, n in after.items() if n > 0 or not any(m.source == t for m in moves)}


@pytest.mark.slow
@given(tables())
@settings(max_examples=400, deadline=None)
def test_moves_respect_seats_and_busy_tables(case: tuple[dict[int, int], int, set[int]]) -> None:
    counts, seats, busy = case
    moves = plan(counts, seats, busy)
    after = dict(counts)
    for move in moves:
        assert move.source not in busy  # nobody leaves a hand in progress
        assert move.source != move.target
        after[move.source] -= 1
        after[move.target] += 1
        assert after[move.source] >= 0 and after[move.target] <= seats
    # A table either gives or takes players, never both.
    sources = {m.source for m in moves}
    assert not sources & {m.target for m in moves}
    assert sum(after.values()) == sum(counts.values())
    # A breaking table gives all its players; only one with the fewest breaks first.
    for source in {m.source for m in moves if m.breaking}:
        assert after[source] == 0


@pytest.mark.slow
@given(tables())
@settings(max_examples=400, deadline=None)
def test_with_every_table_between_hands_one_plan_balances(
    case: tuple[dict[int, int], int, set[int]],
) -> None:
    counts, seats, _ = case
    if sum(counts.values()) == 0:
        return
    after = apply(counts, plan(counts, seats))
    after = {t: n for t, n in after.items() if n > 0}  # empty tables close
    assert balanced(after, seats), (counts, after)
    assert plan(after, seats) == []  # and it stays so


@pytest.mark.slow
@given(tables())
@settings(max_examples=400, deadline=None)
def test_busy_tables_finishing_later_still_end_balanced(
    case: tuple[dict[int, int], int, set[int]],
) -> None:
    counts, seats, busy = case
    if sum(counts.values()) == 0:
        return
    after = apply(counts, plan(counts, seats, busy))
    after = {t: n for t, n in after.items() if n > 0}
    # The busy tables finish one by one; each time, plan with the rest still busy.
    waiting = set(busy) & set(after)
    while waiting:
        waiting.discard(min(waiting))
        after = apply(after, plan(after, seats, waiting & set(after)))
        after = {t: n for t, n in after.items() if n > 0}
        waiting &= set(after)
    assert balanced(after, seats), (counts, busy, after)


def test_the_fewest_breaks_first_highest_number_among_equals() -> None:
    assert table_to_break({1: 5, 2: 3, 3: 3}, 8) == 3
    moves = plan({1: 5, 2: 3, 3: 3}, 8)
    assert [m.source for m in moves] == [3, 3, 3] and all(m.breaking for m in moves)
    # Each goes to the table then with the fewest (lowest number among equals).
    assert [m.target for m in moves] == [2, 2, 1]
    assert table_to_break({1: 8, 2: 8, 3: 1}, 8) is None  # 17 players need three tables


def test_a_busy_table_to_break_waits_for_its_hand() -> None:
    assert plan({1: 4, 2: 2}, 6, busy={2}) == []
    assert plan({1: 4, 2: 2}, 6) == [Move(2, 1, breaking=True)] * 2


def test_balancing_takes_from_the_largest_table_between_hands() -> None:
    assert plan({1: 8, 2: 8, 3: 6}, 8) == [Move(1, 3)]
    assert plan({1: 8, 2: 8, 3: 6}, 8, busy={1}) == [Move(2, 3)]
    assert plan({1: 8, 2: 8, 3: 6}, 8, busy={1, 2}) == []
