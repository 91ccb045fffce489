"""Which free leases a process may take (stud.server.cluster.claims), without Redis."""

from __future__ import annotations

from typing import Any

from stud.server.cluster.claims import Claims


def no_leases() -> Any:
    raise AssertionError("choosing what is free reads no lease")


def test_a_free_lease_whose_lost_actor_still_runs_here_is_not_taken_again() -> None:
    claims = Claims("tournament", no_leases)
    owners: dict[int, tuple[str, int]] = {3: ("b", 4), 4: ("b", 2)}
    found: dict[int, tuple[str, int] | None] = {1: None, 2: None, 3: None, 4: ("c", 5)}
    stopping = {2: object()}  # its lease lapsed; its actor has not seen it yet
    assert claims.free(found, owners, stopping) == [1, 3]
    assert owners == {4: ("c", 5)}  # who holds what is learnt all the same
    # Once the old actor has stopped, the lease is free to take like any other.
    assert claims.free(found, owners, {}) == [1, 2, 3]
