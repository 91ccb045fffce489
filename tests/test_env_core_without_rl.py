"""stud.envcore, the environment's compiled core, needs nothing from the RL extra."""

from __future__ import annotations

import json
import subprocess
import sys

# Runs in a fresh interpreter in which PettingZoo and Gymnasium cannot be imported.
PLAY = r"""
import importlib.abc, json, random, sys
class NoExtra(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("pettingzoo", "gymnasium"):
            raise ImportError(f"{name} is not installed")
        return None
sys.meta_path.insert(0, NoExtra())
from stud.envcore import Encoder
from stud.envcore.offsets import SIZE
from stud.game import STUD, Hand, TableConfig
from stud._compiled import compiled_modules
config = TableConfig(game=STUD, ante=1, bring_in=2, small_bet=4, big_bet=8, stacks=(100,) * 4)
encoder = Encoder(4, 8)
rng = random.Random(1)
sizes = set()
for _ in range(20):
    hand = Hand(config, deck=rng.sample(range(52), 52))
    encoder.start(hand)
    while not hand.is_over:
        encoder.apply(hand.act(rng.choice(hand.legal_actions())), hand)
        sizes.update(len(encoder.observe(seat)) for seat in range(4))
loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("pettingzoo", "gymnasium"))
print(json.dumps({"sizes": sorted(sizes), "size": SIZE, "loaded": loaded,
                  "compiled": list(compiled_modules())}))
"""


def test_the_encoder_runs_without_pettingzoo_or_gymnasium() -> None:
    out = subprocess.run(
        [sys.executable, "-c", PLAY], capture_output=True, text=True, check=True, timeout=300
    )
    result = json.loads(out.stdout)
    assert result["sizes"] == [result["size"]]
    assert result["loaded"] == []
    assert all(name.startswith(("stud.game.", "stud.envcore.")) for name in result["compiled"])
