"""The bot docs are real: docs/bots.md's example bot plays every game legally in under 50
lines, and every command docs/bots.md and docs/gauntlet.md give is one the CLI takes."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from stud.bots import Bot, make_bot, parse_bots, play_hand
from stud.cards import Deck
from stud.cli import build_parser
from stud.game import Hand, TableConfig, variant
from stud.sim import SimConfig, player_rates, simulate

DOCS = Path(__file__).resolve().parent.parent / "docs"
DOC = DOCS / "bots.md"
PAGES = (DOC, DOCS / "gauntlet.md")
COMMAND = re.compile(
    r"`(stud (?:gauntlet|sim|play) [^`]+)`|^(stud (?:gauntlet|sim|play) .+)$", re.MULTILINE
)


def _example() -> tuple[str, dict[str, Any]]:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) == 1, "docs/bots.md has exactly one runnable example"
    namespace: dict[str, Any] = {"__name__": "docs_bots_example"}
    exec(compile(blocks[0], str(DOC), "exec"), namespace)
    return blocks[0], namespace


def test_example_is_under_fifty_lines() -> None:
    code, _ = _example()
    assert len(code.splitlines()) < 50


@pytest.mark.slow
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


def _commands() -> list[str]:
    """Every ``stud gauntlet``/``sim``/``play`` command of the bot docs, placeholders filled."""
    found = []
    for page in PAGES:
        for inline, line in COMMAND.findall(page.read_text(encoding="utf-8")):
            command = (inline or line).split("  #")[0].strip()
            found.append(command.replace(" GAME ", " razz ").replace(" X ", " tag "))
    return found


def test_every_command_in_the_bot_docs_is_one_the_cli_takes() -> None:
    commands = _commands()
    assert len(commands) > 15  # the figures' table gives one per row
    parser = build_parser()
    for command in commands:
        try:
            args = parser.parse_args(shlex.split(command)[1:])
        except SystemExit:
            pytest.fail(f"the CLI refuses {command!r}")
        for names in (getattr(args, key, None) for key in ("bots", "opponents", "table")):
            if names:
                assert parse_bots(names), command


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_bot_docs_are_references(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 600
    headings = re.findall(r"^#+ .*$", text, re.M)
    assert not [h for h in headings if re.search(r"\bpass\b|\bissue\b|\bround\b", h, re.I)]
