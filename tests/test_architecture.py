"""The shape of the source: no import cycle, imports only down the layers, small modules."""

from __future__ import annotations

from import_graph import SRC, breaches, cycles, graph

MAX_MODULE_LINES = 800


def test_no_import_cycle() -> None:
    """Not one cycle in src/stud, counting imports under TYPE_CHECKING and inside functions."""
    assert cycles(graph()) == []


def test_imports_go_down_the_layers() -> None:
    """cards → evaluate → game → … → server → cli/web: never up; in the server,
    http/ws → room → actors → storage."""
    assert breaches(graph()) == []


def test_no_module_over_800_lines() -> None:
    long = {
        str(path.relative_to(SRC)): n
        for path in SRC.rglob("*.py")
        if (n := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def test_the_graph_sees_cycles_and_breaches() -> None:
    """The checks can fail: a made-up cycle and an upward import are found."""
    edges = {"stud.game.a": {"stud.game.b"}, "stud.game.b": {"stud.game.a", "stud.server.x"}}
    assert cycles(edges) == [["stud.game.a", "stud.game.b"]]
    assert breaches(edges) == ["stud.game.b -> stud.server.x"]
