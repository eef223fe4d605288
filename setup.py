"""Opt-in compiled build: ``DRUNTER_COMPILE=1 pip install --no-build-isolation .``
compiles the engine's hot modules with mypyc (README.md, "A compiled engine, opt-in").
Without the variable this is a plain setuptools build: pyproject.toml holds the metadata."""
from __future__ import annotations

import os

from setuptools import setup

# The engine's hot path, by profile (bench/README.md, "A compiled engine"): every module here is
# mypy --strict clean and pure Python too; the package works the same either way.
COMPILED = [
    "drunter_notation/rules/grid.py",
    "drunter_notation/rules/geometry.py",
    "drunter_notation/rules/placement.py",
    "drunter_notation/rules/state.py",
    "drunter_notation/rules/turn.py",
    "drunter_notation/rules/votes.py",
    "drunter_notation/rules/game.py",
    "drunter_notation/rules/scoring.py",
    "drunter_notation/rules/playout.py",
    "drunter_notation/game/position.py",
    "drunter_notation/game/history.py",
    "drunter_notation/game/records.py",
    "drunter_notation/game/inputs.py",
    "drunter_notation/notation/lines.py",
    "drunter_notation/notation/values.py",
    "drunter_notation/replay.py",
    "drunter_notation/load.py",
    "drunter_notation/ai/table.py",
    "drunter_notation/ai/observe.py",
]

if os.environ.get("DRUNTER_COMPILE") == "1":
    from mypyc.build import mypycify  # mypy ships it: needed only for this build

    setup(ext_modules=mypycify(COMPILED, opt_level="3"))
else:
    setup()
