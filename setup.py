"""Compile the engine's hot modules, the RL encoder and the room's per-step modules with mypyc.

Everything else (metadata, packages, dependencies) is in pyproject.toml. The
compiled modules are the same source, type-checked and turned into C by
mypyc; each extension is optional, so a machine without a C compiler gets
the plain .py modules and the same engine, about half as fast. Modules that
must stay interpreted: events, config and dealing (mypyc treats ClassVars
as dataclass fields, enforces field types before ``__post_init__`` checks
them, and cannot deep-copy native classes).
"""

from __future__ import annotations

import os
import runpy

from setuptools import setup

# The one list of compiled modules is stud._compiled's (read without importing stud).
COMPILED = runpy.run_path("src/stud/_compiled.py")["COMPILED_MODULES"]
MYPYC_MODULES = ["src/" + name.replace(".", "/") + ".py" for name in COMPILED]

ext_modules = []
if os.environ.get("STUD_NO_MYPYC", "") in ("", "0"):
    try:
        from mypyc.build import mypycify
    except ImportError:  # no mypy in the build environment: stay pure Python
        pass
    else:
        ext_modules = mypycify(MYPYC_MODULES, opt_level="3", group_name="stud_mypyc")
        for extension in ext_modules:
            extension.optional = True  # a failed compile falls back to the .py module

setup(ext_modules=ext_modules)
