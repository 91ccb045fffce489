"""The reinforcement-learning environment's pure core: observation offsets and the encoder.

It imports only NumPy and the engine (no PettingZoo, no Gymnasium), so
setup.py can compile the encoder with mypyc like the engine's hot modules
(``stud.game.compiled.COMPILED_MODULES``); :mod:`stud.env` builds the
environment on it. Importing it checks that a compiled encoder is not older
than its source, as importing :mod:`stud.game` does for the engine.
"""

from stud.envcore.core import Core
from stud.envcore.encoder import Encoder
from stud.game.compiled import check_fresh

__all__ = ["Core", "Encoder"]

check_fresh()  # a compiled encoder older than its source would run old code
