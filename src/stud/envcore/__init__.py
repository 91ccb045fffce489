"""The reinforcement-learning environment's pure, compiled core, and its fast path.

It imports only NumPy, the engine and mypyc's runtime library ``librt``
(no PettingZoo, no Gymnasium), so setup.py compiles it with mypyc like the
engine's hot modules (``stud._compiled.COMPILED_MODULES``): the
observation offsets, the encoder, the turns' indexing, :class:`Core` (a
hand played by action index, observed seat by seat: also usable alone, the
fast path of docs/rl.md), the AEC bookkeeping :mod:`stud.env` builds the
environment on, and :class:`VectorEnv`, many hands stepped in one call
(its compiled loop is :mod:`stud.envcore.batch`). Importing it
checks that a compiled module is not older than its source, as importing
:mod:`stud.game` does for the engine.
"""

from stud._compiled import check_fresh
from stud.envcore.core import OVER, Core
from stud.envcore.encoder import Encoder
from stud.envcore.vector import VectorEnv

__all__ = ["OVER", "Core", "Encoder", "VectorEnv"]

check_fresh()  # a compiled module older than its source would run old code
