"""Hostile input and faults through the real CLI: one line per error, no traceback.

Every case runs ``drunter`` as a subprocess (a fresh interpreter, real file
descriptors, real signals) unless it needs to act in the middle of a command (a
save by an editor between reading and writing): those patch one function and run
the command in-process.
"""
from __future__ import annotations

import importlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from drunter_notation.cli import cli

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "replays" / "legal-2p.dn"
TINY = ROOT / "replays" / "boards" / "tiny.toml"
LINE = re.compile(r"^.+?: (?:error|warning)\[[A-Z]\d{3}\]: .+$")
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def nobody_can_run() -> bool:
    """Whether the unprivileged user can import the package from here (a checkout in a
    private temporary folder, as CI makes, is out of its reach)."""
    if not shutil.which("setpriv"):
        return False
    done = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", sys.executable, "-c",
                           "import drunter_notation.cli"], capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          cwd="/", timeout=60)
    return done.returncode == 0


def drunter(*args, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, as_nobody=False, timeout=60, env=None):
    """Run the CLI in a subprocess; (exit status, stdout, stderr) as text."""
    cmd = [sys.executable, "-c", "from drunter_notation.cli import main; main()", *map(str, args)]
    if as_nobody:  # permissions mean nothing to root: drop to nobody
        cmd = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *cmd]
    full_env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    done = subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, stdin=stdin, timeout=timeout,
                          env=full_env, cwd=ROOT)
    out = done.stdout.decode("utf-8", "replace") if done.stdout is not None else ""
    return done.returncode, out, done.stderr.decode("utf-8", "replace")


def one_error(stderr: str, code: str) -> str:
    """The one diagnostic line of ``stderr`` (carets aside), of ``code``; no traceback."""
    assert "Traceback" not in stderr
    lines = [x for x in stderr.splitlines() if x and not x.startswith("    ")]
    assert len(lines) == 1 and LINE.match(lines[0]) and f"error[{code}]" in lines[0], stderr
    return lines[0]


# -- numbers -----------------------------------------------------------------------

BIG = "7" * 5000


@pytest.mark.parametrize("body, line", [
    (f"{BIG}. Anna S1 a2", 2), (f"hand Anna: W1x{BIG}", 2), (f"1. Anna S1 a{BIG}", 2),
    (f"1. Anna S1 a2 vote {{ Anna: JA, Ben: NE }} -> accepted {BIG}:0", 2),
    (f"reveal Anna: museum, Ben: tavern\nscore Anna: {BIG}, Ben: 0", 3)],
    ids=["turn", "hand count", "row", "tally", "score"])
def test_a_5000_digit_number_is_a_located_error(tmp_path, body, line):
    path = tmp_path / "big.dn"
    path.write_text(f'[Players "Anna, Ben"]\n{body}\n')
    status, out, err = drunter("validate", path)
    assert status == 1 and "Traceback" not in err
    assert re.search(rf"big\.dn:{line}:\d+: error\[P001\]: ", out)


def test_a_5000_digit_date_is_a_located_error(tmp_path):
    path = tmp_path / "date.dn"
    path.write_text(f'[Players "Anna, Ben"]\n[Date "{BIG}-01-01"]\n')
    status, out, _ = drunter("validate", path)
    assert status == 1 and re.search(r"date\.dn:2:1: error\[H002\]: Date", out)


@pytest.mark.parametrize("old, new, key", [
    ("width = 6", f"width = {BIG}", "thousands of digits"),
    ("width = 6", "width = 6\nx = " + "[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ("river = [1, 2, 2]", "river = [99999999999, 2, 2]", "box.river[0]"),
    ("museum = { d4 = 5 }", "museum = { d4 = 10000000000 }", "from 1 to 99")])
def test_board_files_with_absurd_numbers_or_nesting(tmp_path, old, new, key):
    text = TINY.read_text().replace(old, new, 1)
    path = tmp_path / "absurd.toml"
    path.write_text(text)
    status, _, err = drunter("board", "check", path)
    assert status == 2 and key in one_error(err, "H003")


def test_cli_numbers_are_bounded():
    status, _, err = drunter("rules", "diff", "hig-1991", "webley-en", "--width", "1000000000")
    assert status == 2 and "--width" in err and "Traceback" not in err
    status, _, err = drunter("simulate", "--players", "2", "--seed", "1", "--count", "1000000000000", "--out",
                             "/nonexistent-never-created")
    assert status == 2 and "--count" in err and not Path("/nonexistent-never-created").exists()


def test_simulate_refuses_a_box_without_tiles(tmp_path):
    board = tmp_path / "empty-box.toml"
    board.write_text(TINY.read_text().split("[box]")[0] + "[box]\nwall = [0, 0, 0]\nstreet = [0, 0, 0]\n"
                                                           "river = [0, 0, 0]\n")
    status, out, err = drunter("simulate", "--players", "2", "--seed", "1", "--board", board)
    assert status == 2 and out == "" and "no tiles" in one_error(err, "D002")


# -- special files and OS errors ------------------------------------------------------

@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "link-to-urandom"])
def test_special_files_are_refused_before_any_read(tmp_path, kind):
    path = tmp_path / "record.dn"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero" if kind == "dev-zero" else "/dev/urandom")
    for command in (["validate"], ["fmt"], ["report", "--out-dir", tmp_path / "out"], ["adjudicate", "--turn", "1"]):
        status, out, err = drunter(*command, path, timeout=30)
        shown = err if command[0] != "validate" else "\n".join(x for x in out.splitlines() if "error[" in x)
        assert status == 2 and "nothing was read" in one_error(shown, "I001")


def test_a_board_that_is_a_device_is_refused(tmp_path):
    board = tmp_path / "dev.toml"
    board.symlink_to("/dev/zero")
    status, _, err = drunter("board", "check", board, timeout=30)
    assert status == 2 and "nothing was read" in one_error(err, "H003")


def test_a_record_over_the_size_cap_is_refused(tmp_path):
    path = tmp_path / "huge.dn"
    with open(path, "wb") as f:
        f.truncate(17 * 1024 * 1024)  # sparse: no disk used
    status, _, err = drunter("fmt", path)
    assert status == 2 and "too large" in one_error(err, "I001")


@pytest.mark.parametrize("command", [["validate", "NAME.dn"], ["fmt", "--write", "NAME.dn"],
                                     ["report", SAMPLE, "-o", "/tmp/NAME.html"], ["board", "check", "NAME.toml"],
                                     ["adjudicate", "NAME.dn", "--turn", "1"],
                                     ["simulate", "--players", "2", "--seed", "1", "--out", "SIM/NAME"]])
def test_a_name_too_long_for_the_file_system_is_one_line(tmp_path, command):
    args = [str(a).replace("NAME", "x" * 5000).replace("SIM", str(tmp_path / "sim")) for a in command]
    status, out, err = drunter(*args)
    assert status == 2 and "the name is too long" in out + err and "Traceback" not in err
    assert len([x for x in err.splitlines() if "error[" in x]) <= 1


@pytest.mark.skipif(AS_ROOT and not nobody_can_run(), reason="as root, needs setpriv and a checkout the "
                    "unprivileged user can read, to drop root (permissions mean nothing to root)")
def test_permission_denied_and_unreadable_folders_are_reported():
    base = Path(tempfile.mkdtemp())  # not under pytest's tmp_path: nobody must reach it
    base.chmod(0o755)
    locked = base / "locked"
    locked.mkdir()
    shutil.copy(SAMPLE, locked / "game.dn")
    shutil.copy(SAMPLE, base / "open.dn")
    locked.chmod(0)
    try:
        status, out, err = drunter("validate", base, as_nobody=AS_ROOT)
        assert status == 2 and "locked" in one_error(err, "I001") and "open.dn: valid" in out
        status, _, err = drunter("fmt", locked / "game.dn", as_nobody=AS_ROOT)
        assert status == 2 and "denied" in one_error(err, "I001")
    finally:
        locked.chmod(0o755)
        shutil.rmtree(base)


# -- output that cannot be written ------------------------------------------------------

@pytest.mark.parametrize("command", [["validate", "replays"], ["fmt", SAMPLE],
                                     ["simulate", "--players", "2", "--seed", "1"]])
def test_a_full_device_on_stdout_is_one_line(command):
    with open("/dev/full", "wb") as full:
        status, _, err = drunter(*command, stdout=full)
    assert status == 2 and "no space is left on the device" in one_error(err, "I005")


def test_a_closed_pipe_is_one_line():
    proc = subprocess.Popen([sys.executable, "-c", "from drunter_notation.cli import main; main()", "validate",
                             "replays", "replays", "replays"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    proc.stdout.read(10)
    proc.stdout.close()  # the reader goes away, like `| head -c 10`
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 2 and "the program reading it has stopped reading" in one_error(err, "I005")


# -- fmt --write: lost updates, symlinks, signals ---------------------------------------

def _messy(tmp_path: Path) -> Path:
    path = tmp_path / "messy.dn"
    path.write_text('[Players   "Anna, Ben"]\n1.   Anna S1 a2\n')
    return path


def test_fmt_write_keeps_a_save_made_while_it_ran(tmp_path, monkeypatch):
    path = _messy(tmp_path)
    fmt_module = importlib.import_module("drunter_notation.cli.fmt")
    real = fmt_module.format_record

    def editor_saves(record):  # the editor saves between fmt's read and its write
        path.write_text('[Players "Anna, Ben"]\n# the editor\'s newer text\n')
        return real(record)
    monkeypatch.setattr(fmt_module, "format_record", editor_saves)
    result = CliRunner().invoke(cli, ["fmt", "--write", str(path)])
    assert result.exit_code == 2 and "changed while it was being formatted" in result.output
    assert "newer text" in path.read_text()


def test_fmt_write_on_a_file_deleted_meanwhile_does_not_recreate_it(tmp_path, monkeypatch):
    path = _messy(tmp_path)
    fmt_module = importlib.import_module("drunter_notation.cli.fmt")
    real = fmt_module.format_record
    monkeypatch.setattr(fmt_module, "format_record", lambda r: (path.unlink(), real(r))[1])
    result = CliRunner().invoke(cli, ["fmt", "--write", str(path)])
    assert result.exit_code == 2 and "error[I005]" in result.output and not path.exists()
    assert list(tmp_path.iterdir()) == []


def test_fmt_write_through_a_symlink_keeps_the_link(tmp_path):
    target = _messy(tmp_path)
    link = tmp_path / "link.dn"
    link.symlink_to(target.name)
    status, _, _ = drunter("fmt", "--write", link)
    assert status == 0 and link.is_symlink() and target.read_text().startswith('[Players "Anna, Ben"]')


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_during_fmt_write_leaves_no_temp_file(tmp_path, signum):
    path = _messy(tmp_path)
    before = path.read_bytes()
    # a real signal, delivered at the worst moment: the temp file is written, not yet renamed
    script = (f"import os, signal; import drunter_notation.files as files\n"
              "signal.signal(signal.SIGINT, signal.default_int_handler)\n"  # as at a terminal, even under a background job
              f"files.os.replace = lambda *a: os.kill(os.getpid(), {int(signum)})\n"
              f"from drunter_notation.cli import main; main()")
    done = subprocess.run([sys.executable, "-c", script, "fmt", "--write", str(path)], capture_output=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert done.returncode != 0 and b"Traceback" not in done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["messy.dn"] and path.read_bytes() == before


# -- report --------------------------------------------------------------------------

@pytest.mark.parametrize("change", ["non-UTF-8 bytes", "deleted"])
def test_report_reads_each_record_once(tmp_path, monkeypatch, change):
    path = tmp_path / "game.dn"
    shutil.copy(SAMPLE, path)
    report_module = importlib.import_module("drunter_notation.cli.report")
    real = report_module.judge

    def replaced_meanwhile(*args, **kwargs):  # the file changes after it was read, while it is judged
        if change == "deleted":
            path.unlink(missing_ok=True)
        else:
            path.write_bytes(b"\xff\xfe\x00garbage")
        return real(*args, **kwargs)
    monkeypatch.setattr(report_module, "judge", replaced_meanwhile)
    result = CliRunner().invoke(cli, ["report", str(path), "--out-dir", str(tmp_path / "out")])
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "Ben" in (tmp_path / "out" / "game.html").read_text()


def test_a_failing_graphviz_costs_only_its_diagram(tmp_path):
    fake = tmp_path / "bin"
    fake.mkdir()
    dot = fake / "dot"
    dot.write_text("#!/bin/sh\necho 'Error: out of memory' >&2\nkill -SEGV $$\n")
    dot.chmod(0o755)
    records = tmp_path / "games"
    records.mkdir()
    shutil.copy(SAMPLE, records / "a.dn")
    (records / "b.dn").write_text(f'[Players "{"A" * 50_000}, Ben"]\n1. {"A" * 50_000} S1 a2\n')
    shutil.copy(SAMPLE, records / "c.dn")
    status, out, err = drunter("report", records, "--out-dir", tmp_path / "out", "--index",
                               env={"PATH": f"{fake}:{os.environ['PATH']}"})
    assert status == 0, err
    assert "out of memory" not in err and "Traceback" not in err
    for name in ("a", "b", "c", "index"):
        assert (tmp_path / "out" / f"{name}.html").exists()
    page = (tmp_path / "out" / "c.html").read_text()
    assert "Graphviz failed on it (it crashed with SIGSEGV)" in page and "PosixPath" not in page


def test_a_long_record_gets_a_capped_page_and_the_whole_verdict(tmp_path):
    path = tmp_path / "long.dn"
    turns = "\n".join(f"{i}. {'Anna' if i % 2 else 'Ben'} pass" for i in range(1, 3001))
    path.write_text(f'[Players "Anna, Ben"]\n{turns}\n')
    status, out, err = drunter("report", path, "--out-dir", tmp_path / "out")
    page = (tmp_path / "out" / "long.html").read_text()
    assert status == 0 and "3,000 turns; the page shows the first 1,000" in page
    assert "valid (partial record): 3000 turns" in page
