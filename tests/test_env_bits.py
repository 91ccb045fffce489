"""Observations are bit for bit what the previous implementation gave, over thousands of hands.

The encoder writes each observation incrementally (only what an action
changed). These digests were recorded with the earlier encoder, which
rebuilt every observation from its parts each time (commit 067c135): each
is the SHA-256 of every agent's flat observation and mask at every step of
250 hands with seeded random legal actions, and of every reward, for one
table. Any change of one bit of one observation changes a digest.
``tests/test_env_incremental.py`` checks the same observations each step
against a from-scratch build instead.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from stud.env import StudEnv
from stud.game import TableConfig, variant

pytestmark = pytest.mark.slow

HANDS = 250


def _tables() -> dict[str, TableConfig]:
    """Every game at 2 to 8 seats: short random stacks, deep ones, burn cards, no heads-up cap."""
    rng = random.Random(11)
    tables = {}
    for game in ("stud", "stud8", "razz"):
        for players in (2, 3, 6, 8):
            stacks = tuple(rng.choice((3, 12, 30, 90, 400)) for _ in range(players))
            tables[f"{game}-{players}-short"] = TableConfig(
                game=variant(game), ante=1, bring_in=2, small_bet=4, big_bet=8, stacks=stacks
            )
            tables[f"{game}-{players}-deep"] = TableConfig(
                game=variant(game), ante=2, bring_in=5, small_bet=20, big_bet=40,
                stacks=(4000,) * players, burn_cards=players == 8,
                lift_cap_heads_up=players == 2,
            )  # fmt: skip
    return tables


TABLES = _tables()


def digest(config: TableConfig, hands: int = HANDS) -> str:
    """SHA-256 of every agent's observation and mask at every step, and every reward."""
    env = StudEnv(config=config, observation="flat")
    pick = random.Random(config.seats * 7 + config.stacks[0])
    sha = hashlib.sha256()
    env.reset(seed=config.seats)
    for _ in range(hands):
        env.reset()
        for agent in env.agent_iter():
            for other in env.agents:
                seen = env.observe(other)
                sha.update(seen["observation"].tobytes())
                sha.update(seen["action_mask"].tobytes())
            _, reward, terminated, _, _ = env.last()
            if terminated:
                sha.update(repr((agent, reward)).encode())
                env.step(None)
                continue
            legal = [i for i, allowed in enumerate(env.observe(agent)["action_mask"]) if allowed]
            env.step(legal[int(pick.random() * len(legal))])
    return sha.hexdigest()


RECORDED = {
    "razz-2-deep": "fba1791883d25d138482358d25feda1594c2f0ed24735934cd239f6b91a35ef8",
    "razz-2-short": "5b6054cb0e97ce2430a1887fa7c78e95c882ecde0f0efb86da040cc4684862a1",
    "razz-3-deep": "53d766e78efe085ddce1f8aa04f43aaf539c7974784a1716ec065f77e965ae41",
    "razz-3-short": "da1b47efd679a736e9bcc2873a39db74242fd9cdf4cf2746b17a8141879bd750",
    "razz-6-deep": "4062ea19e48e29502c4bcc68cbd1259d447d60f5b9f16b0e29f08694e84a3fb3",
    "razz-6-short": "2f50112b8f05bddb9751020433a247848c1ed792796373023f2f490d9498e7ca",
    "razz-8-deep": "0cd8e2d4c05caaea0a59b0049a51721f171a2ddb12a45eb91b899af8dd94e872",
    "razz-8-short": "4fddea143071d5d3cf0edaf7846a4dcfd512101ff219d77e21a698470732d036",
    "stud-2-deep": "d5b21fe48faa1d0fa74e03602dd2554a5d8690785867abc6bd31df29e3cb02c1",
    "stud-2-short": "513beb1112ad6b68d17ab8d9796a8b44d11065304a8faab42fd2b897dd91a439",
    "stud-3-deep": "e14fd31f1006bd95f6900a07dfcf6c6052d1852603a5cf4569e3041c6ab493b8",
    "stud-3-short": "66344082d54febc82491e51dcbf37183ffc49b8f12843ae0d5b6113fecc5e90f",
    "stud-6-deep": "7573b0c31d651134c0b9991a6b06977f97734ca54ca2c2636795e357ce6af1de",
    "stud-6-short": "cae7d59b1022b424c9ba03b54b63007165d2b104d40f4af69dbe6dff83c40127",
    "stud-8-deep": "da5bd784d7c0285f3c569ff1b5453192f43377c5617e8e2958dadd0c45e0b5e6",
    "stud-8-short": "ec27873e4c6cba6391acd00aa4859a3f317510f1bcd13eff756d3a4d621392a7",
    "stud8-2-deep": "7569cfb2c7d2c5a81fe2214c1d85792dbcf0a6614d3abea1945ffe512b66e4eb",
    "stud8-2-short": "4a0adc7fd9b17fbdf92c52ff3b91e740b37f6b4e7eb804927a6a07e75e97da49",
    "stud8-3-deep": "dbd3b191778b78282ff4d089e8aef045234fb35e871152ef0510153706e09d13",
    "stud8-3-short": "c468dbcf2fc70572f748005ccc5f18b603313aa3d423b7cf4e1cd69d0c4be8a3",
    "stud8-6-deep": "d8672b884ee98186ae35047f9dd215d358da08425d9cacac1b1564c92d5e2594",
    "stud8-6-short": "9e42fafac748a7d7b78414cdcf4213b782859a2995a9f7ab0395d7cc0ed447de",
    "stud8-8-deep": "1a22594ffb56945bdf2f44cf6479c9d81c8ae87c74990c0499975f26bd31243b",
    "stud8-8-short": "4bb316014a96e1dc71dfa1e1d60618b642427473a3cae0c82162388e5c6d5bed",
}


@pytest.mark.parametrize("name", sorted(TABLES))
def test_observations_are_bit_identical_to_the_previous_encoder(name: str) -> None:
    assert digest(TABLES[name]) == RECORDED[name]


if __name__ == "__main__":  # prints the digests of this build (how RECORDED was made)
    for name in sorted(TABLES):
        print(f'    "{name}": "{digest(TABLES[name])}",')
