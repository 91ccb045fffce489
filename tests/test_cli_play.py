"""``stud play``, driven headless through Textual's pilot: keys act, bots answer, hands end."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import RichLog

from stud.cards import Card
from stud.cli import main
from stud.tui import KEYS, PlayApp, PlaySettings


def _settings(**changes: object) -> PlaySettings:
    base: dict[str, object] = {
        "game": "stud8",
        "bots": ("strong", "random", "station"),
        "seed": 5,
        "delay": 0.0,
    }
    base.update(changes)
    return PlaySettings(**base)  # type: ignore[arg-type]


def _log_text(app: PlayApp) -> str:
    return "\n".join(line.text for line in app.query_one("#log", RichLog).lines)


async def _play_out(app: PlayApp, pilot: object, prefer: tuple[str, ...]) -> None:
    """Press a legal key (the first of ``prefer`` that is legal) until the hand is over."""
    for _ in range(400):
        await pilot.pause()  # type: ignore[attr-defined]
        assert app.hand is not None
        if app.hand.is_over:
            return
        moves = app.legal_moves()
        if moves:
            move = next((m for m in prefer if m in moves), next(iter(moves)))
            await pilot.press(KEYS[move])  # type: ignore[attr-defined]
    raise AssertionError("the hand did not end")


@pytest.mark.slow
def test_a_hand_played_by_keys_ends_with_showdown_and_history() -> None:
    async def scenario() -> None:
        app = PlayApp(_settings())
        async with app.run_test(size=(120, 50)) as pilot:
            await _play_out(app, pilot, ("call", "check", "bring-in"))
            text = _log_text(app)
            assert app.hand is not None and app.hand.is_over
            assert len(app.histories) == 1 and len(app.results) == 1
            history = app.histories[0]
            assert history.startswith("PokerStars Hand #1:  7 Card Stud Hi/Lo Limit")
            assert "*** SUMMARY ***" in history and "*** SUMMARY ***" in text
            assert "Dealt to You [" in history
            # The history is the player's: another seat's unshown down cards never appear.
            hand = app.hand
            for seat, name in enumerate(app.seat_names()):
                if seat == app.hero_seat or hand.view(app.hero_seat).seats[seat].shown:
                    continue
                hidden = {str(Card(c)) for c in hand.down_cards(seat) if c is not None}
                for line in history.splitlines():
                    if line.startswith((f"Dealt to {name} ", f"Seat {app.order[seat] + 1}: ")):
                        assert not any(card in line for card in hidden), line
            assert " wins " in text or " win " in text  # the showdown (or the walk) explained
            assert "You call" in text or "You check" in text or "You bring in" in text
            # Only 'next hand' and 'quit' are offered now.
            keys = set(app.screen.active_bindings)
            assert {"n", "q"} <= keys and not keys & {KEYS["fold"], KEYS["call"], KEYS["wager"]}
            hand_before = app.hand
            await pilot.press("n")
            await pilot.pause()
            assert app.hand is not hand_before and app.hand_number == 2
            assert app.hero_seat == 1  # seats turned one place: position is shared fairly

    asyncio.run(scenario())


def test_folding_lets_the_bots_finish_the_hand() -> None:
    async def scenario() -> None:
        app = PlayApp(_settings(game="razz", seed=8))
        async with app.run_test(size=(120, 50)) as pilot:
            await _play_out(app, pilot, ("fold", "bring-in"))
            assert app.hand is not None and app.hand.is_over
            text = _log_text(app)
            assert "*** SUMMARY ***" in text
            result = app.hand.result
            assert result is not None and sum(result.net) == 0

    asyncio.run(scenario())


def test_keys_of_illegal_moves_do_nothing_and_are_hidden() -> None:
    async def scenario() -> None:
        for seed in range(40):
            app = PlayApp(_settings(game="stud", seed=seed))
            async with app.run_test(size=(120, 50)) as pilot:
                await pilot.pause()
                moves = app.legal_moves()
                if not moves:
                    continue
                hidden = [m for m in KEYS if m not in moves]
                keys = set(app.screen.active_bindings)
                for move in hidden:
                    assert KEYS[move] not in keys
                assert {KEYS[m] for m in moves} <= keys
                assert app.hand is not None
                events = len(app.hand.events)
                await pilot.press(KEYS[hidden[0]])
                await pilot.pause()
                assert len(app.hand.events) == events  # nothing happened
                return
        pytest.fail("the player never got to act first")

    asyncio.run(scenario())


def test_history_file_is_appended(tmp_path: Path) -> None:
    out = tmp_path / "hands.txt"

    async def scenario() -> None:
        app = PlayApp(_settings(history_file=out, seed=2))
        async with app.run_test(size=(120, 50)) as pilot:
            await _play_out(app, pilot, ("fold", "bring-in"))

    asyncio.run(scenario())
    assert out.read_text().startswith("PokerStars Hand #1:")


def test_play_command_rejects_unknown_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "razz", "--bots", "strong,shark"]) == 2
    assert "unknown bot 'shark'" in capsys.readouterr().err
