"""The example bot of docs/bots.md is real: under 50 lines, and it plays every game legally."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from stud.bots import Bot, make_bot, play_hand
from stud.cards import Deck
from stud.game import Hand, TableConfig, variant
from stud.sim import SimConfig, player_rates, simulate

DOC = Path(__file__).resolve().parent.parent / "docs" / "bots.md"


def _example() -> tuple[str, dict[str, Any]]:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) == 1, "docs/bots.md has exactly one runnable example"
    namespace: dict[str, Any] = {"__name__": "docs_bots_example"}
    exec(compile(blocks[0], str(DOC), "exec"), namespace)
    return blocks[0], namespace


def test_example_is_under_fifty_lines() -> None:
    code, _ = _example()
    assert len(code.splitlines()) < 50


@pytest.mark.parametrize("game", ["stud", "stud8", "razz"])
def test_example_bot_plays_whole_hands(game: str) -> None:
    _, namespace = _example()
    bot: Bot = namespace["PairsAndLowsBot"]()
    assert isinstance(bot, Bot)
    config = TableConfig(
        game=variant(game), ante=1, bring_in=3, small_bet=10, big_bet=20, stacks=(400,) * 3
    )
    for seed in range(20):
        hand = Hand(config, deck=Deck(seed=seed))
        play_hand(hand, [bot, make_bot("station"), make_bot("strong", seed)])
        assert hand.result is not None and sum(hand.result.net) == 0


def test_example_bot_runs_in_the_simulator(monkeypatch: pytest.MonkeyPatch) -> None:
    from stud.bots import registry

    _, namespace = _example()
    monkeypatch.setitem(registry.BOTS, "pairs", lambda seed: namespace["PairsAndLowsBot"]())
    result = simulate(SimConfig("razz", ("pairs", "random"), hands=200, seed=1))
    pairs, random_ = player_rates(result)
    assert pairs.label == "pairs" and pairs.hands == 200
    assert pairs.total_bb == pytest.approx(-random_.total_bb)
