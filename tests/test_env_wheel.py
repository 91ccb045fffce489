"""``python -m build`` makes a wheel and an sdist that install in a fresh venv and deal a hand.

The package is not on PyPI: docs/rl.md and the README install it from a
checkout (``pip install -e '.[rl]'``) or from this wheel. Nothing is
downloaded: the build uses this environment's build tools
(``--no-isolation``), and each fresh venv installs the package alone
(``--no-deps --no-index``) and sees this environment's packages (NumPy and
the rest) through a ``.pth`` file, after its own.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SMOKE = """
import sys
from pathlib import Path

import stud
from stud._compiled import compiled_modules
from stud.game import Hand, TableConfig
from stud.game.state import play_out

assert Path(stud.__file__).resolve().is_relative_to(Path(sys.prefix).resolve()), stud.__file__
config = TableConfig(game="razz", ante=1, bring_in=2, small_bet=4, big_bet=8, stacks=(100, 100))
hand = Hand(config, deck=list(range(52)))
while not hand.is_over:
    hand.act(hand.legal_actions()[-1])
assert hand.result is not None and sum(hand.result.net) == 0
print(" ".join(compiled_modules()))
"""


def _run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(part) for part in command],
        capture_output=True,
        text=True,
        timeout=1500,
        check=False,
        cwd=cwd,
        env=env,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def _fresh_venv(where: Path) -> Path:
    """A new venv that sees this environment's packages after its own; its python."""
    _run(sys.executable, "-m", "venv", where)
    python = where / "bin" / "python"
    purelib = _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])")
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(purelib.strip()) / "outer.pth").write_text("\n".join(sorted(ours)) + "\n")
    # Python 3.11's venv brings an old setuptools of its own, which would shadow this
    # environment's (the build needs the one pyproject.toml's build-system names).
    _run(python, "-m", "pip", "uninstall", "--yes", "setuptools")
    return python


@pytest.mark.slow
def test_the_wheel_and_the_sdist_install_in_a_fresh_venv_and_deal_a_hand(tmp_path: Path) -> None:
    # The pure-Python build (STUD_NO_MYPYC=1) keeps this test short: what it checks is the
    # packaging (modules, data files, metadata); the compiled build is the same source.
    environment = {**os.environ, "STUD_NO_MYPYC": "1"}
    dist = tmp_path / "dist"
    _run(
        sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, ROOT,
        cwd=tmp_path, env=environment,
    )  # fmt: skip
    (wheel,) = dist.glob("stud-*.whl")
    (sdist,) = dist.glob("stud-*.tar.gz")

    python = _fresh_venv(tmp_path / "from-wheel")
    _run(python, "-m", "pip", "install", "--no-deps", "--no-index", wheel)
    assert _run(python, "-c", SMOKE, cwd=tmp_path).split() == []

    # The sdist builds again on install.
    python = _fresh_venv(tmp_path / "from-sdist")
    _run(
        python,
        "-m",
        "pip",
        "install",
        "--no-deps",
        "--no-index",
        "--no-build-isolation",
        sdist,
        env=environment,
    )
    assert _run(python, "-c", SMOKE, cwd=tmp_path).split() == []
