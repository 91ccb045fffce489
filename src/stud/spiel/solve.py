"""Solve a small game of :mod:`stud.spiel` with OpenSpiel's CFR+ and measure its exploitability.

OpenSpiel's CFR walks the whole tree on every iteration; a Python game pays a
clone and an engine step at every node, so the tree is walked once here:
:func:`game_tree` writes the engine's game (chance's cards and their
probabilities, each seat's information states as :class:`StudState` names
them, the returns) as an EFG tree, which OpenSpiel loads as a C++ game
(``pyspiel.load_efg_game``). Its C++ ``CFRPlusSolver`` and ``exploitability``
then run on exactly the engine's game, and :class:`SolvedPolicy` carries the
average policy back to the Python game by information-state string, where
:func:`stud.spiel.policy_bot` seats it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyspiel

from stud.spiel.game import StudGame, StudState


@dataclass(frozen=True)
class GameTree:
    """The engine's game as EFG text, and each EFG information set's own name."""

    efg: str
    """The tree in Gambit's EFG format (OpenSpiel's ``load_efg_game`` reads it)."""
    names: dict[str, str]
    """EFG information-set name (a number per player, ``"p0:17"``) -> the Python game's string."""
    legal: dict[str, list[int]]
    """EFG information-set name -> the action indices legal there."""
    nodes: int
    """Nodes in the tree (chance, decision and terminal)."""

    def load(self) -> pyspiel.Game:
        """The tree as an OpenSpiel (C++) game."""
        return pyspiel.load_efg_game(self.efg)


def game_tree(game: StudGame) -> GameTree:
    """Walk ``game`` once, from the deal to every end, into a :class:`GameTree`."""
    players = game.num_players()
    lines = [
        f'EFG 2 R "{game.get_type().short_name}" '
        f"{{ {' '.join(f'{chr(34)}p{p}{chr(34)}' for p in range(players))} }}",
        "",
    ]
    numbers: list[dict[str, int]] = [{} for _ in range(players)]
    names: dict[str, str] = {}
    legal_at: dict[str, list[int]] = {}
    counters = {"chance": 0, "outcome": 0, "nodes": 0}

    def walk(state: StudState) -> None:
        counters["nodes"] += 1
        if state.is_terminal():
            counters["outcome"] += 1
            payoffs = " ".join(repr(float(r)) for r in state.returns())
            lines.append(f't "" {counters["outcome"]} "" {{ {payoffs} }}')
            return
        if state.is_chance_node():
            counters["chance"] += 1
            outcomes = state.chance_outcomes()
            share = f"1/{len(outcomes)}"  # chance deals each card left as likely
            moves = " ".join(f'"c{card}" {share}' for card, _ in outcomes)
            lines.append(f'c "" {counters["chance"]} "" {{ {moves} }} 0')
            for card, _ in outcomes:
                walk(state.child(card))
            return
        player = state.current_player()
        info = state.information_state_string(player)
        number = numbers[player].setdefault(info, len(numbers[player]) + 1)
        name = f"p{player}:{number}"
        names[name] = info
        legal = state.legal_actions()
        legal_at[name] = legal
        moves = " ".join(f'"a{index}"' for index in legal)
        lines.append(f'p "" {player + 1} {number} "p{player}:{number}" {{ {moves} }} 0')
        for index in legal:
            walk(state.child(index))

    walk(game.new_initial_state())
    return GameTree("\n".join(lines) + "\n", names, legal_at, counters["nodes"])


class SolvedPolicy:
    """A policy of the Python game by information-state string (``action_probabilities``).

    What :func:`stud.spiel.policy_bot` seats. An information state the solve
    never reached (another game's) raises KeyError naming it.
    """

    def __init__(self, table: dict[str, dict[int, float]]) -> None:
        self.table = table

    def action_probabilities(self, state: Any, player: int | None = None) -> dict[int, float]:
        seat = state.current_player() if player is None else player
        info = state.information_state_string(seat)
        try:
            return dict(self.table[info])
        except KeyError:
            raise KeyError(f"the solved policy has no information state {info!r}") from None

    @classmethod
    def of(cls, tree: GameTree, policy: Any) -> SolvedPolicy:
        """The Python game's policy from ``policy``, a tabular policy of ``tree``'s EFG game."""
        table: dict[str, dict[int, float]] = {}
        for key, probabilities in policy.policy_table().items():
            name = key.rsplit("-", 1)[1]  # OpenSpiel's key ends with the EFG name
            legal = tree.legal[name]
            if len(probabilities) != len(legal):
                raise ValueError(f"EFG information set {name} has other actions than the game's")
            # An EFG node's action ids, in order, stand for its actions as listed (ascending).
            ordered = sorted(probabilities)
            table[tree.names[name]] = {
                index: float(p) for index, (_, p) in zip(legal, ordered, strict=True)
            }
        return cls(table)

    def save(self, path: str | Path) -> None:
        """Write the policy as JSON (information state -> {index: probability})."""
        Path(path).write_text(json.dumps(self.table), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> SolvedPolicy:
        """Read a policy :meth:`save` wrote."""
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
        return cls(
            {info: {int(i): float(p) for i, p in probs.items()} for info, probs in raw.items()}
        )


@dataclass(frozen=True)
class Step:
    """One point of a CFR+ run: the iterations so far and the average policy's exploitability."""

    iterations: int
    exploitability: float
    """OpenSpiel's exploitability (NashConv / players) in big bets per hand."""
    seconds: float
    """Solver time so far (walking the tree excluded)."""


def cfr_plus(tree: GameTree, checkpoints: list[int]) -> Iterator[tuple[Step, Any]]:
    """Run OpenSpiel's CFR+ on ``tree``; at each checkpoint the step and the average policy."""
    import time

    efg_game = tree.load()
    solver = pyspiel.CFRPlusSolver(efg_game)
    done = 0
    spent = 0.0
    for checkpoint in sorted(checkpoints):
        started = time.process_time()
        while done < checkpoint:
            solver.evaluate_and_update_policy()
            done += 1
        spent += time.process_time() - started
        policy = solver.tabular_average_policy()
        value = pyspiel.exploitability(efg_game, policy)
        yield Step(done, value, spent), policy
