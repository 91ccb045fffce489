"""The engine as OpenSpiel games (stud.spiel): OpenSpiel's own checks, privacy, returns, clones."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="the openspiel extra is NOT installed: pip install -e '.[openspiel]'"
)

import stud.spiel  # noqa: E402,F401  # registers the games
from stud.spiel import GAMES  # noqa: E402

TABLES = [
    ("python_razz", {}),
    ("python_stud", {"players": 3, "stack": 60}),  # short stacks: all-ins and run-outs
    ("python_stud8", {"players": 5, "stack": 150}),
    ("python_razz", {"players": 8, "stack": 400}),  # R12: a community card on 7th street
]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "params"), TABLES)
def test_openspiel_random_simulation_and_serialisation(name: str, params: dict[str, int]) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=8, serialize=True, verbose=False)


def _play(game: object, seed: int, swap: dict[int, int] | None = None) -> list[object]:
    """A random hand; ``swap`` changes chance's choices (card -> card). The states at each turn."""
    rng = np.random.default_rng(seed)
    deck = iter(int(card) for card in rng.permutation(52))
    state = game.new_initial_state()  # type: ignore[attr-defined]
    turns = []
    while not state.is_terminal():
        if state.is_chance_node():
            card = next(deck)
            state.apply_action((swap or {}).get(card, card))
        else:
            turns.append(state.clone())
            state.apply_action(int(rng.choice(state.legal_actions())))
    turns.append(state)
    return turns


def test_another_seats_down_card_never_reaches_a_seat() -> None:
    """Swap one of seat 1's down cards for an undealt card: seat 0 sees the same everything."""
    game = pyspiel.load_game("python_stud", {"players": 3})
    compared = 0
    for seed in range(20):
        plain = _play(game, seed)
        hand = plain[-1].hand  # type: ignore[attr-defined]
        hidden = next(c for c in hand.down_cards(1) if c is not None)
        unused = next(c for c in range(52) if c not in plain[-1].cards)  # type: ignore[attr-defined]
        swapped = _play(game, seed, {hidden: unused})
        for a, b in zip(plain[:-1], swapped[:-1], strict=True):
            assert a.information_state_string(0) == b.information_state_string(0)  # type: ignore[attr-defined]
            assert a.observation_string(0) == b.observation_string(0)  # type: ignore[attr-defined]
            assert a.information_state_tensor(0) == b.information_state_tensor(0)  # type: ignore[attr-defined]
            assert a.observation_tensor(0) == b.observation_tensor(0)  # type: ignore[attr-defined]
            compared += 1
        assert plain[1].information_state_string(1) != swapped[1].information_state_string(1)  # type: ignore[attr-defined]
    assert compared > 50


@pytest.mark.parametrize("name", sorted(GAMES))
def test_returns_are_the_engines_chips_in_big_bets(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 4, "stack": 200, "big_bet": 40})
    for seed in range(10):
        final = _play(game, seed)[-1]
        result = final.hand.result  # type: ignore[attr-defined]
        assert final.returns() == [net / 40 for net in result.net]  # type: ignore[attr-defined]
        assert sum(result.net) == 0


def test_a_clone_and_an_unpickled_state_go_on_alone() -> None:
    game = pyspiel.load_game("python_razz", {"players": 3})
    state = _play(game, 3)[2]
    clone = state.clone()  # type: ignore[attr-defined]
    thawed = pickle.loads(pickle.dumps(state))
    assert str(thawed) == str(state)
    assert thawed.information_state_tensor(1) == state.information_state_tensor(1)  # type: ignore[attr-defined]
    before = str(state)
    clone.apply_action(clone.legal_actions()[-1])
    assert str(state) == before
    thawed.apply_action(thawed.legal_actions()[-1])
    assert str(thawed) == str(clone)


def test_a_card_already_dealt_is_refused() -> None:
    state = pyspiel.load_game("python_razz").new_initial_state()
    state.apply_action(7)
    with pytest.raises(Exception, match="card 7 is not in the deck now"):
        state.apply_action(7)
    assert state.history() == [7]


def test_bad_parameters_get_the_engines_words() -> None:
    with pytest.raises(Exception, match="big"):
        pyspiel.load_game("python_razz", {"small_bet": 40, "big_bet": 20})
