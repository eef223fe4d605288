"""The browser edition's engine (Pyodide in Node, from the built site) gives the same bytes as
CPython's ``drunter``: every record of replays/, the disputes turn by turn, docs/api.md's examples.

Needs a built site: ``bash scripts/site.sh DIR`` and ``DRUNTER_SITE=DIR``; skipped otherwise
(.ci/run builds one and runs these).
"""
from __future__ import annotations

import difflib
import doctest
import json
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import RUN_CLI
from site_engine import NodeEngine, site_dir

ROOT = Path(__file__).resolve().parent.parent
REPLAYS = ROOT / "replays"
RECORDS = sorted(p.relative_to(REPLAYS).as_posix() for p in REPLAYS.rglob("*.dn"))
DISPUTES = [r for r in RECORDS if r.startswith("disputes/")]
RULESETS = ("hig-1991", "webley-en", "deskovehry-cz")

pytestmark = [pytest.mark.slow, pytest.mark.site]


@pytest.fixture(scope="module", params=["first start", "second start"])
def engine(request):
    """The site's engine as a page starts it first (from the sources), and as it starts again
    from the modules the first start kept compiled: every test is asked of both."""
    site = site_dir()
    if site is None:
        pytest.skip("no built site: bash scripts/site.sh DIR, then DRUNTER_SITE=DIR")
    e = NodeEngine(site, compiled=request.param == "second start")
    if request.param == "second start":  # the engine's modules and the standard library's run from bytecode
        files = e.python("import json, drunter_notation.replay as r; json.dumps([r.__file__, json.__file__])")
        assert isinstance(files, list) and all(str(f).endswith(".pyc") for f in files), files
    yield e
    e.close()


def files_for(record: str) -> dict[str, str]:
    """The record and the board files beside it, laid out as in replays/."""
    files = {record: (REPLAYS / record).read_text("utf-8")}
    files.update({p.relative_to(REPLAYS).as_posix(): p.read_text("utf-8") for p in (REPLAYS / "boards").glob("*.toml")})
    return files


def cpython(command: tuple[list[str], str]) -> dict[str, object]:
    """``drunter ARGS`` of the test venv, run in a new folder holding the record's files: what
    it printed, its status and the files it wrote."""
    args, record = command
    given = files_for(record)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, text in given.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(text.encode("utf-8"))
        # No program on PATH: no Graphviz, as in the browser (a report's flow diagram says it needs one).
        done = subprocess.run([sys.executable, "-c", RUN_CLI, *args], cwd=folder, capture_output=True, timeout=300,
                              env={"PATH": str(folder), "PYTHONPATH": str(ROOT)})
        written = {p.relative_to(folder).as_posix(): p.read_text("utf-8", "replace")
                   for p in sorted(folder.rglob("*")) if p.is_file()}
    return {"status": done.returncode, "stdout": done.stdout.decode("utf-8", "replace"),
            "stderr": done.stderr.decode("utf-8", "replace"),
            "files": {p: t for p, t in written.items() if given.get(p) != t}}


def comparable(result: object) -> object:
    """A result less what names the folder it ran in (the reports' manifest.json)."""
    assert isinstance(result, dict)
    return {**result, "files": {p: t for p, t in result["files"].items() if not p.endswith("manifest.json")}}


def compare(engine: NodeEngine, commands: list[tuple[list[str], str]]) -> None:
    with ThreadPoolExecutor(2) as pool:
        expected = list(pool.map(cpython, commands))
    wrong = []
    for (args, record), want in zip(commands, expected, strict=True):
        got, want = comparable(engine.call("cli", args=args, files=files_for(record))), comparable(want)
        if got != want:
            wrong.append(f"drunter {' '.join(args)}: CPython, then Pyodide:\n" + "\n".join(difflib.unified_diff(
                json.dumps(want, indent=1).splitlines(), json.dumps(got, indent=1).splitlines(), lineterm="", n=0)))
    assert not wrong, f"{len(wrong)} of {len(commands)} differ:\n" + "\n".join(wrong[:5])


def test_every_record_validates_formats_and_positions_the_same(engine):
    commands = []
    for record in RECORDS:
        commands += [(["validate", record], record), (["validate", "--format", "json", record], record),
                     (["--lang", "de", "validate", record], record), (["--lang", "cs", "validate", record], record),
                     (["fmt", record], record), (["position", record], record)]
    assert len(RECORDS) > 50
    compare(engine, commands)


def turns(record: str) -> int:
    return len(re.findall(r"^\d+\.", (REPLAYS / record).read_text("utf-8"), re.M))


def test_every_dispute_is_adjudicated_the_same_at_every_turn(engine):
    commands = []
    for record in DISPUTES:
        for n in range(1, turns(record) + 1):
            commands += [(["adjudicate", record, "--turn", str(n), "--all-rulesets"], record),
                         (["--lang", "de", "adjudicate", record, "--turn", str(n), "--format", "json"], record)]
        commands += [(["validate", "--rules", r, "--format", "json", record], record) for r in RULESETS]
    assert len(DISPUTES) >= 7
    compare(engine, commands)


def test_reports_rules_and_analysis_are_the_same(engine):
    record = "legal-2p.dn"
    commands = [(["rules", "list"], record), (["rules", "diff", "hig-1991", "webley-en"], record),
                (["--lang", "cs", "rules", "show", "deskovehry-cz"], record),
                (["report", record, "-o", "out/game.html"], record),
                (["report", "illegal/A001-bridge-run.dn", "--out-dir", "out"], "illegal/A001-bridge-run.dn")]
    compare(engine, commands)


def test_analysis_is_the_same(engine):
    """The analysis sums its floats with math.fsum (exactly rounded), so the test venv's
    Python 3.11 and Pyodide's 3.14, whose sum() is compensated, write the same bytes."""
    compare(engine, [(["analyze", record, "--playouts", "20", "--format", "json"], record)
                     for record in ("legal-2p.dn", "legal-4p.dn", "legal-expert-4p.dn")]
            + [(["--lang", "de", "analyze", "legal-3p.dn", "--playouts", "10"], "legal-3p.dn")])


RUN_EXAMPLES = r'''
import contextlib, io, json, os

def run_examples(sources, folder):
    """Each example of a doc run in turn in one namespace, as doctest runs them: what it prints."""
    os.chdir(folder)
    ns = {"__name__": "__main__"}
    outs = []
    for source in sources:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            try:
                exec(compile(source, "<api.md>", "single"), ns)
            except Exception as e:
                print(f"{type(e).__name__}: {e}")
        outs.append(out.getvalue())
    return outs
'''


def test_api_doc_examples_print_the_same(engine):
    sources = [e.source for e in doctest.DocTestParser().get_examples((ROOT / "docs" / "api.md").read_text("utf-8"))]
    assert len(sources) > 20
    ns: dict[str, object] = {}
    exec(RUN_EXAMPLES, ns)
    cwd = Path.cwd()
    try:
        want = ns["run_examples"](sources, str(ROOT))  # type: ignore[operator]
    finally:
        import os
        os.chdir(cwd)
    files = {f"replays/{p.relative_to(REPLAYS).as_posix()}": p.read_text("utf-8")
             for p in REPLAYS.rglob("*") if p.is_file()}
    got = engine.python(RUN_EXAMPLES + f'''
import pathlib
for name, text in json.loads({json.dumps(json.dumps(files))}).items():
    path = pathlib.Path("/repo", name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
json.dumps(run_examples(json.loads({json.dumps(json.dumps(sources))}), "/repo"))
''')
    assert got == want


def test_the_table_core_answers_a_call_without_a_token_or_a_language_as_the_play_page_makes_it(engine):
    made = engine.call("table.ask", method="POST", path="/api/games", token=None, lang=None,
                       body={"name": "node-1", "players": ["Ann", "Bob"], "deal": "random", "bots": {"Bob": "easy"}})
    assert isinstance(made, dict) and made["status"] == 201, made
    seen = engine.call("table.ask", method="GET", path=f"/api/games/{made['body']['name']}", body=None, token=None)
    assert isinstance(seen, dict) and seen["status"] == 200 and seen["body"]["players"][0]["name"] == "Ann", seen
    refused = engine.call("table.ask", method="GET", path="/api/games", body=None, token=5)
    assert isinstance(refused, dict) and refused["error"]["code"] == "U002", refused
