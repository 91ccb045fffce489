"""The gauntlet: its bots play their styles, duplicate matches mirror, the table has its shape.

A small run, never timed: the summary has one row per opponent and one column
per table size, every match conserves chips, and a duplicate match between
two copies of a deterministic bot comes out exactly even (each seat's cards
are played once by each side).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np
import pytest

from stud.bots import GAUNTLET, make_bot, play_hand
from stud.bots.gauntlet import STYLES
from stud.cards import Deck
from stud.cli import main
from stud.game import Acted, ActionKind, Hand, StreetStarted, TableConfig, variant
from stud.sim.duplicate import MatchConfig, play_match
from stud.sim.gauntlet import gauntlet_table, run_gauntlet


def _config(game: str, seats: int) -> TableConfig:
    return TableConfig(
        game=variant(game), ante=2, bring_in=5, small_bet=20, big_bet=40, stacks=(4000,) * seats
    )


def _actions(hand: Hand, seat: int) -> list[tuple[int, ActionKind, bool]]:
    """(street, kind, whether a wager was already made on that street) of each action of seat."""
    out = []
    street = 3
    wagered = False
    for event in hand.events:
        if isinstance(event, StreetStarted):
            street, wagered = event.street, False
        elif isinstance(event, Acted):
            if event.seat == seat:
                out.append((street, event.kind, wagered))
            wagered = wagered or event.kind.is_wager
    return out


def _play(game: str, names: Sequence[str], deals: int) -> list[Hand]:
    bots = [make_bot(name, seed) for seed, name in enumerate(names)]
    hands = []
    for seed in range(deals):
        hand = Hand(_config(game, len(names)), deck=Deck(seed=seed))
        play_hand(hand, bots)
        hands.append(hand)
    return hands


@pytest.mark.parametrize("game", ["stud", "razz"])
def test_the_styles_play_as_named(game: str) -> None:
    hands = _play(game, ["stealer", "maniac", "nit", "station", "prober"], 40)
    seat_of = {"stealer": 0, "maniac": 1, "nit": 2, "station": 3, "prober": 4}
    acts = {name: [a for h in hands for a in _actions(h, seat)] for name, seat in seat_of.items()}
    assert not any(k is ActionKind.FOLD for _, k, _ in acts["maniac"])
    assert not any(k is ActionKind.FOLD or k.is_wager for _, k, _ in acts["station"])
    # The stealer completes every time nobody has and it is not the bring-in.
    first_in = [
        k for s, k, w in acts["stealer"] if s == 3 and not w and k is not ActionKind.BRING_IN
    ]
    assert first_in and all(k is ActionKind.COMPLETE for k in first_in)
    # The nit folds far more often than it puts chips in voluntarily.
    nit_folds = sum(k is ActionKind.FOLD for _, k, _ in acts["nit"])
    assert nit_folds > sum(k.is_wager for _, k, _ in acts["nit"])
    # The prober never checks behind a check on 4th street on.
    for hand in hands:
        street, checked = 3, False
        for event in hand.events:
            if isinstance(event, StreetStarted):
                street, checked = event.street, False
            elif isinstance(event, Acted) and street >= 4:
                if event.seat == seat_of["prober"] and checked:
                    assert event.kind is not ActionKind.CHECK
                checked = checked or event.kind is ActionKind.CHECK


def test_every_gauntlet_bot_is_registered() -> None:
    assert set(STYLES) <= set(GAUNTLET) | {"tag"}
    assert {"tag", "stealer", "maniac", "nit", "station", "prober", "bully"} == set(GAUNTLET)


@pytest.mark.parametrize("seats", [2, 6])
def test_a_deterministic_bot_against_itself_comes_out_exactly_even(seats: int) -> None:
    """Each seat's cards go to both sides: two stations split every deal's result to the chip."""
    result = play_match(MatchConfig("stud8", "station", "station", deals=12, seats=seats, seed=3))
    assert result.net.shape == (12, 2, seats)
    assert np.all(result.net.sum(axis=2) == 0)  # chips conserved in every hand
    hero = result.net[:, :, 0::2].sum(axis=(1, 2))
    assert np.all(hero == 0)
    assert result.hero_rate().bb_per_100 == pytest.approx(0, abs=1e-9)
    assert np.any(result.net != 0)  # the hands themselves were not all even


@pytest.mark.slow
def test_a_match_gives_the_same_result_whatever_the_workers() -> None:
    config = MatchConfig("razz", "strong", "stealer", deals=8, seats=2, seed=5, session=3)
    one = play_match(config, workers=1)
    two = play_match(config, workers=2)
    assert np.array_equal(one.net, two.net)
    assert one.hands == 16
    assert one.hero_rate().bb_per_100 == pytest.approx(-one.villain_rate().bb_per_100)


@pytest.mark.slow
def test_a_small_gauntlet_has_the_right_shape_and_conserves_chips() -> None:
    done: list[int] = []
    gauntlet = run_gauntlet(
        "razz", "strong", deals=3, seats=(2, 6), reference=("nit",), progress=done.append
    )
    assert [(r.opponent, r.seats) for r in gauntlet.rows] == [
        (o, s) for o in GAUNTLET for s in (2, 6)
    ]
    for row in gauntlet.rows:
        assert row.chips == 0
        assert row.rate.hands == 6 and row.rate.bot == "strong"
        assert row.rate.low <= row.rate.bb_per_100 <= row.rate.high
    assert [r.rate.bot for r in gauntlet.reference] == [o for o in GAUNTLET if o != "nit"]
    assert all(r.opponent == "nit" and r.chips == 0 for r in gauntlet.reference)
    assert sum(done) == 3 * (len(gauntlet.rows) + len(gauntlet.reference))
    table = gauntlet_table(gauntlet).splitlines()
    header = next(line for line in table if line.startswith("| opponent"))
    assert "heads-up" in header and "6-handed" in header
    rows = [
        line for line in table if line.startswith("| ") and line.split("|")[1].strip() in GAUNTLET
    ]
    assert len(rows) == len(GAUNTLET) + len(gauntlet.reference)


def test_the_gauntlet_command(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["gauntlet", "stud", "--deals", "2", "--opponents", "nit,maniac", "--seats", "2"]
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "stud" and data["bot"] == "strong" and data["deals"] == 2
    assert [(r["opponent"], r["seats"], r["hands"]) for r in data["rows"]] == [
        ("nit", 2, 4), ("maniac", 2, 4),
    ]  # fmt: skip
    assert main([*argv, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "| nit |" in out and "heads-up" in out and "95% CI" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["gauntlet", "stud", "--seats", "3"], "even table sizes"),
        (["gauntlet", "stud", "--opponents", "tag,shark"], "unknown bot 'shark'"),
        (["gauntlet", "poker"], "poker"),
        (["gauntlet", "stud", "--workers", "0"], "--workers"),
    ],
)
def test_the_gauntlet_command_names_bad_input(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err
