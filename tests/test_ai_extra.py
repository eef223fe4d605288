"""The core is free of the optional 'ai' extra: with numpy, pettingzoo, gymnasium and
open-spiel blocked, every module outside ``ai/`` imports and the CLI works; the AI
modules say in one line what to install."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "drunter_notation"
EXTRA = ("numpy", "pettingzoo", "gymnasium", "pyspiel", "open_spiel")

BLOCK = f"""
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {EXTRA!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}} (blocked)")
sys.meta_path.insert(0, Block())
"""


def run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", BLOCK + code], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def test_no_module_outside_ai_imports_the_extra():
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE).parts[0] == "ai":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.split(".")[0] in EXTRA for n in names), f"{path.relative_to(ROOT)} imports {names}"


def test_the_package_and_the_cli_work_without_the_extra():
    modules = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                     for p in PACKAGE.rglob("*.py") if p.relative_to(PACKAGE).parts[0] != "ai" and p.stem != "__main__")
    code = f"""
import importlib
for m in {modules!r}:
    importlib.import_module(m)
import drunter_notation
g = drunter_notation.Game.new(["Anna", "Ben"], seed=1)
assert g.legal_moves()
from drunter_notation.cli import cli
from click.testing import CliRunner
r = CliRunner().invoke(cli, ["validate", "replays/legal-2p.dn"])
assert r.exit_code == 0, r.output
print("ok", len({modules!r}))
"""
    out = run(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok ")


def test_the_ai_modules_say_what_to_install_in_one_line():
    for module in ("drunter_notation.ai.pettingzoo", "drunter_notation.ai.openspiel"):
        out = run(f"""
from drunter_notation.ai import MissingExtra
try:
    import {module}
except MissingExtra as e:
    print(e)
""")
        assert out.returncode == 0, out.stderr
        line = out.stdout.strip()
        assert "\n" not in line
        assert line.startswith("drunter: the AI environments need the 'ai' extra: pip install 'drunter-notation[ai]'")
