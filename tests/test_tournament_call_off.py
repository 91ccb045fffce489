"""A tournament called off by the operator (docs/admin.md): before the start everyone is
refunded; once running, the prizes already paid stand and the rest of the pool is shared by
chips (a chip chop), so the prizes paid add up to the pool; the tables close, and the
snapshot of the cancelled tournament restores."""

from __future__ import annotations

import pytest

from stud.table import Effect, Event
from stud.tournament import CANCELLED, Tournament, TournamentError, TourneyOut
from stud.tournament.offline import offline_settings, run_offline
from stud.tournament.snapshot import restore, snapshot
from stud.tournament.tournament import chip_chop


class CalledOff(Exception):
    """Stops the offline run once the tournament is called off."""


def test_the_chop_shares_in_proportion_and_keeps_every_chip() -> None:
    assert chip_chop(100, {1: 1, 2: 1, 3: 1}) == {1: 34, 2: 33, 3: 33}
    assert chip_chop(1000, {7: 3000, 3: 1000, 5: 1000}) == {7: 600, 3: 200, 5: 200}
    shares = chip_chop(997, {4: 12_345, 9: 678, 2: 12_345, 5: 1})
    assert sum(shares.values()) == 997 and shares[2] >= shares[4] >= shares[9] >= shares[5]
    assert chip_chop(0, {1: 5, 2: 6}) == {1: 0, 2: 0}


def test_called_off_before_the_start_refunds_everyone() -> None:
    t = Tournament(offline_settings("razz", 6), seed=1)
    for account in (1, 2, 3):
        t.register(account, f"p{account}", 0.0)
    outs = t.call_off(1.0)
    refunds = [o.data for o in outs if isinstance(o, Effect) and o.kind == "refund"]
    assert sorted(r["account_id"] for r in refunds) == [1, 2, 3]
    assert all((r["buy_in"], r["fee"]) == (100, 10) for r in refunds)
    assert t.state == CANCELLED
    with pytest.raises(TournamentError, match="over"):
        t.call_off(2.0)


@pytest.mark.parametrize("left", [7, 3])
def test_called_off_while_running_pays_the_whole_pool(left: int) -> None:
    """Called off with ``left`` players still in (3: some places already paid)."""
    settings = offline_settings("stud", 30, table_seats=6, level_hands=4)
    prizes: list[Effect] = []
    cancelled: list[TourneyOut] = []

    def watch(t: Tournament, outs: list[TourneyOut], now: float) -> None:
        prizes.extend(o for o in outs if isinstance(o, Effect) and o.kind == "prize")
        if t.state == "running" and len(t.alive()) <= left and not cancelled:
            chips = sum(t.chips(a) for a in t.alive())
            assert chips == 30 * settings.structure.starting_chips
            cancelled.extend(t.call_off(now))
            raise CalledOff

    with pytest.raises(CalledOff):
        run_offline(settings, ["random", "station"], 30, seed=3, watch=watch)
    shares = [o for o in cancelled if isinstance(o, Effect) and o.kind == "prize"]
    assert shares and len(shares) <= left
    assert bool(prizes) == (left == 3)  # with three left, places in the money were paid
    paid = sum(int(e.data["amount"]) for e in prizes + shares)
    assert paid == 30 * settings.buy_in
    assert len({int(e.data["account_id"]) for e in prizes + shares}) == len(prizes + shares)
    (event,) = [o for o in cancelled if isinstance(o, Event)]
    assert event.kind == "cancelled" and event.data["reason"] == "called_off"


def test_a_cancelled_tournament_restores_from_its_snapshot() -> None:
    settings = offline_settings("razz", 4)
    t = Tournament(settings, seed=2)
    for account in range(1, 5):
        t.register(account, f"p{account}", 0.0)
    t.tick(0.0)
    t.call_off(5.0)
    again, _ = restore(snapshot(t, 6.0), 7.0)
    assert again.state == CANCELLED and not again.tables and again.alive() == []
