"""Whether the engine runs compiled (mypyc, see setup.py), and a guard against stale builds.

The list also holds the reinforcement-learning encoder (:mod:`stud.envcore`,
pure: NumPy and the engine only), compiled the same way, and the card room's
per-step modules (the table layer, the partial-hand words, a table's event
channel); each is imported only where it is used, so a module counts here once
it is imported.

An editable install puts each compiled module (a ``.so``) beside its
``.py``, and Python imports the ``.so`` first: after an edit to the source,
the old compiled engine would run unseen. :func:`check_fresh` refuses that.
"""

from __future__ import annotations

import sys
from pathlib import Path

COMPILED_MODULES = (
    "stud.game.state",
    "stud.game.betting",
    "stud.game.order",
    "stud.game.pots",
    "stud.game.showdown",
    "stud.game.ctor",
    "stud.envcore.offsets",
    "stud.envcore.encoder",
    "stud.envcore.turns",
    "stud.envcore.history",
    "stud.envcore.core",
    "stud.envcore.views",
    "stud.envcore.recycle",
    "stud.envcore.protocol",
    "stud.envcore.batch",
    "stud.evaluate.sofar",
    "stud.table.readout",
    "stud.table.port",
    "stud.table.engine",
    "stud.table.events",
    "stud.table.player",
    "stud.table.views",
    "stud.table.table",
    "stud.server.actors.channel",
    "stud.server.actors.audience",
)
"""The modules setup.py compiles with mypyc (when it can); setup.py reads this list.

The ``stud.table`` and ``stud.server`` ones are the room's per-step work on the
event loop (docs/performance.md): a table's step, its events, players and views,
the words of new cards, the hand's events as the table takes them (the port), each
watcher's texts, and who may see each text (called per watcher and event)."""

ENGINE_MODULES = tuple(name for name in COMPILED_MODULES if name.startswith("stud.game."))
"""The compiled modules that importing :mod:`stud.game` loads."""

_SLACK_SECONDS = 2.0  # an install writes the .py and the .so moments apart


def compiled_modules() -> tuple[str, ...]:
    """The modules of the list imported so far, from a compiled extension rather than .py."""
    return tuple(
        name
        for name in COMPILED_MODULES
        if name in sys.modules
        and not str(getattr(sys.modules[name], "__file__", "") or "").endswith(".py")
    )


def check_fresh() -> None:
    """ImportError if an imported compiled module is older than its .py source (a stale build)."""
    for name in compiled_modules():
        module = sys.modules.get(name)
        built = Path(str(getattr(module, "__file__", "") or ""))
        source = built.parent / (name.rsplit(".", 1)[1] + ".py")
        stale = (
            built.is_file()
            and source.is_file()
            and source.stat().st_mtime > built.stat().st_mtime + _SLACK_SECONDS
        )
        if stale:
            raise ImportError(
                f"{built.name} was compiled before {source} last changed: rebuild it "
                "(`make test` does, or `pip install -e .`), or reinstall with "
                "STUD_NO_MYPYC=1 for the pure-Python engine"
            )
