"""Every command-and-output example in README.md and docs/*.md is run and compared.

An example is a fenced block whose first line starts with ``$ ``: each ``$ command``
line runs in bash (``$?`` is the status of the command before it in the same doc),
and the lines up to the next ``$ `` line are its expected stdout and stderr,
interleaved as on a terminal. A line ``...`` on its own stands for any number of
lines (a shortened output). The doc's commands run in document order in one
temporary folder that holds a copy of ``replays/``; two kinds of HTML comments
prepare it without showing in the rendered page:

* ``<!-- $ command -->`` runs a command silently (it must succeed);
* ``<!-- file: NAME -->`` on the line before a fenced block writes that block to NAME.

Only the temporary folder's path is normalised (shown as ``.``). To fix a drifted
example, run the command from a folder like that one and paste its real output.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import LONG_RUN, drunter_here

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^(\s*)(```+|~~~+)")
HIDDEN_COMMAND = re.compile(r"^\s*<!--\s*\$ (.*?)\s*-->\s*$")
FILE_MARK = re.compile(r"^\s*<!--\s*file:\s*(\S+)\s*-->\s*$")
SHORTENED = "..."
SHELL_ENV = {"COLUMNS": "80", "LANG": "C.UTF-8", "NO_COLOR": "1", "TERM": "dumb"}
# A bare `drunter ARGS` with nothing for the shell to expand runs in this process (0.2 to 0.4 s less a step);
# a pool of processes (--jobs) or anything the shell reads goes through bash as a reader types it
PLAIN = re.compile(r"^drunter(?: [\w./=:,@%+-]+)*$")
# The README's analysis plays 11,600 games (15 s of CPU, a tenth of the test command's): CI's long pass runs it
LONG_STEPS = {("README.md", "drunter analyze replays/club/2024-02-09-gruener-baum.dn --jobs 2")}


@dataclass
class Step:
    """One thing to do, in document order: a shown command, a hidden one, or a file to write."""

    line: int  # 1-based line in the doc
    command: str | None = None
    expected: list[str] = field(default_factory=list)
    hidden: bool = False
    file: str | None = None
    content: str = ""


def steps(doc: Path) -> list[Step]:
    lines = doc.read_text(encoding="utf-8").split("\n")
    out: list[Step] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        hidden = HIDDEN_COMMAND.match(lines[i])
        if hidden:
            out.append(Step(i + 1, hidden.group(1), hidden=True))
        if not m:
            i += 1
            continue
        indent, fence = m.group(1), m.group(2)
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == fence), len(lines))
        body = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[i + 1:end]]
        file_mark = FILE_MARK.match(lines[i - 1]) if i else None
        if file_mark:
            out.append(Step(i + 1, file=file_mark.group(1), content="\n".join(body) + "\n"))
        elif body and body[0].startswith("$ "):
            for k, line in enumerate(body):
                if line.startswith("$ "):
                    out.append(Step(i + 2 + k, line[2:]))
                else:
                    out[-1].expected.append(line)
        i = end + 1
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected`` with each ``...`` line standing for any lines."""
    parts = [re.escape(line) if line != SHORTENED else r"(?:[^\n]*\n)*?" for line in expected]
    pattern = "".join(p if p.startswith("(?:") else p + r"\n" for p in parts)
    return re.fullmatch(pattern, "".join(line + "\n" for line in actual)) is not None


@pytest.fixture(scope="module")
def bin_dir(tmp_path_factory) -> Path:
    """A ``drunter`` on the PATH that runs this checkout's code with this interpreter."""
    folder = tmp_path_factory.mktemp("bin")
    script = folder / "drunter"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m drunter_notation.cli "$@"\n')
    script.chmod(0o755)
    return folder


DOCS_WITH_EXAMPLES = [d for d in DOCS if any(s.command for s in steps(d))]


@pytest.mark.slow
@pytest.mark.parametrize("doc", DOCS_WITH_EXAMPLES, ids=lambda d: str(d.relative_to(ROOT)))
def test_doc_examples_are_real_output(doc, tmp_path, bin_dir):
    work = tmp_path / "work"
    shutil.copytree(ROOT / "replays", work / "replays")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "COV_"))}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1",
               **SHELL_ENV)
    name = doc.relative_to(ROOT)
    status, drifted = 0, []
    for step in steps(doc):
        if step.file:
            (work / step.file).write_text(step.content, encoding="utf-8")
            continue
        if (str(name), step.command) in LONG_STEPS and not LONG_RUN:
            continue
        if PLAIN.match(step.command) and "--jobs" not in step.command:
            run = drunter_here(*step.command.split()[1:], cwd=work, merged=True, env=SHELL_ENV)
        else:
            run = subprocess.run(["bash", "-c", f"(exit {status}); {step.command}"], cwd=work, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                 text=True, timeout=300)
        status = run.returncode
        if step.hidden:
            assert status == 0, f"{name}:{step.line}: the hidden set-up command failed: {step.command}\n{run.stdout}"
            continue
        actual = run.stdout.replace(str(work) + "/", "").replace(str(work), ".").rstrip("\n").split("\n")
        expected = step.expected
        while expected and expected[-1] == "":
            expected = expected[:-1]
        if actual == [""]:
            actual = []
        if not matches(expected, actual):
            drifted.append(f"{name}:{step.line}: the example `$ {step.command}` has drifted; its real output is:\n"
                           + textwrap.indent("\n".join(actual), "    "))
    assert not drifted, "\n\n".join(drifted)


def test_examples_are_found():
    """The parser of this test sees the examples it is meant to check."""
    readme = steps(ROOT / "README.md")
    assert any(s.command and s.command.startswith("drunter validate") for s in readme)
    for doc, command in LONG_STEPS:  # a step left to the long pass is still a step of its doc
        assert command in [s.command for s in steps(ROOT / doc)], (doc, command)
    assert matches(["a", SHORTENED, "z"], ["a", "b", "c", "z"])
    assert not matches(["a", "z"], ["a", "b", "z"])
    assert matches(["a", SHORTENED], ["a"])


def test_diagnostics_md_has_every_code_of_the_code_table():
    from drunter_notation.codes import CODES, markdown_table

    doc = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    table = doc.split("<!-- generated by: python -m drunter_notation.codes -->\n", 1)[1].split("\n<!--", 1)[0]
    assert table.strip() == markdown_table(), (
        "docs/diagnostics.md: the table of all codes is out of step with drunter_notation/codes.py; replace it"
        " (between the two <!-- --> markers) by the output of: python -m drunter_notation.codes")
    details = doc.split("## The codes in more detail", 1)[1]
    missing = [code for code in CODES if f"| {code} |" not in details]
    assert not missing, f"docs/diagnostics.md: add a row for {', '.join(missing)} under 'The codes in more detail'"
