"""`drunter validate` on many files: worker processes, order, totals, stdin, option errors."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from drunter_notation.cli import cli

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "drunter_notation.cli", *args], cwd=ROOT, input=stdin,
                          capture_output=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def test_jobs_do_not_change_the_output_or_its_order():
    one, two = run("validate", "--jobs", "1", "replays/"), run("validate", "--jobs", "2", "replays/")
    assert (one.returncode, one.stdout, one.stderr) == (two.returncode, two.stdout, two.stderr)
    files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "replays").rglob("*.dn"))
    summaries = [line.split(": ")[0] for line in one.stdout.decode().splitlines()
                 if line.startswith("replays/") and (": valid" in line or ": invalid" in line)]
    assert summaries == files
    # piped: no progress bar, only the caret lines under syntax errors
    assert all(line.startswith("    ") for line in one.stderr.decode().splitlines())


def test_total_line_counts_valid_invalid_unreadable(tmp_path):
    shutil.copy(ROOT / "replays" / "legal-2p.dn", tmp_path / "a.dn")
    (tmp_path / "b.dn").write_text('[Players "A, B"]\n1. A S1 a1\n', encoding="utf-8")
    (tmp_path / "c.dn").write_bytes(b"\xff\xfe\x00bin")
    result = CliRunner().invoke(cli, ["validate", "-j", "2", str(tmp_path)])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == "3 files: 1 valid, 1 invalid, 1 unreadable"
    single = CliRunner().invoke(cli, ["validate", str(tmp_path / "a.dn")])
    assert single.exit_code == 0 and "files:" not in single.output


def test_dash_reads_standard_input():
    data = (ROOT / "replays" / "legal-2p.dn").read_bytes()
    result = run("validate", "-", stdin=data)
    assert result.returncode == 0
    assert result.stdout.decode().startswith("<stdin>: valid: ")


def test_unknown_rules_or_board_is_reported_once_with_a_suggestion():
    result = run("validate", "--rules", "hig-1992", "replays/")
    assert result.returncode == 2 and result.stdout == b""
    lines = result.stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("--rules: error[H004]: unknown ruleset 'hig-1992'"
                                                   " (did you mean 'hig-1991'?)")
    board = run("validate", "--board", "schilde", "replays/legal-2p.dn")
    assert board.stderr.decode().startswith("--board: error[H003]: unknown board 'schilde' (did you mean 'schilda'?)")


def test_missing_board_file_names_the_path_it_was_looked_for_at(tmp_path):
    (tmp_path / "club").mkdir()
    record = tmp_path / "club" / "night.dn"
    record.write_text('[Players "A, B"]\n[Board "boards/ours.toml"]\n1. A S1 b1\n', encoding="utf-8")
    result = CliRunner().invoke(cli, ["validate", str(record)])
    assert result.exit_code == 2
    assert f"board file boards/ours.toml: file not found (looked for at {tmp_path / 'club' / 'boards' / 'ours.toml'})" \
        in result.output


def test_validating_valid_records_loads_only_what_it_needs():
    """`drunter validate --jobs 1` over valid records imports neither Lark (the line reader reads
    them) nor what only other paths need -- the process pool, sockets and logging (--dask),
    tempfile and zipfile (writing files, importlib.resources): each is start-up time."""
    code = ("import sys; from drunter_notation.cli import main; sys.argv = ['drunter', 'validate', '--jobs', '1',"
            " 'replays/legal-2p.dn']\ntry: main()\nexcept SystemExit: pass\n"
            "loaded = {'lark', 'concurrent.futures', 'socket', 'logging', 'tempfile', 'zipfile', 'tqdm'} & set(sys.modules)\n"
            "print(sorted(loaded))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.stdout.splitlines()[-1] == "[]", out.stdout + out.stderr
