"""Scale and hostile inputs through the real CLI: time, peak memory, lines, exit status.

Prints numbers, asserts nothing (tests never time things). Every case is one
``drunter`` subprocess; its peak memory is the child's maximum resident set size
(``os.wait4``). The cases: records of 25,000 to 200,000 turns (``validate`` and
``report``: is the time linear in the length?), 5 MB lines of several kinds, a hand
of 2.7 million tiles over as many lines, 5,000-digit numbers, a 90,000-character
name before a syntax error, special files, absurd board files and CLI numbers.

    python bench/scale.py            # every case (about 3 minutes)
    python bench/scale.py --quick    # without the 100,000- and 200,000-turn records
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "replays" / "boards" / "tiny.toml"
BIG = "7" * 5000


def passes(n: int) -> str:
    """A partial record of ``n`` turns, every one a pass (no hands: each is legal)."""
    turns = "\n".join(f"{i}. {'Anna' if i % 2 else 'Ben'} pass" for i in range(1, n + 1))
    return f'[Players "Anna, Ben"]\n\n{turns}\n'


def run(args: list[str], cwd: Path) -> tuple[float, float, int, int]:
    """(wall seconds, peak RSS in MB, exit status, stderr lines) of one CLI run."""
    cmd = [sys.executable, "-c", "from drunter_notation.cli import main; main()", *map(str, args)]
    start = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL, cwd=cwd,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        err.seek(0)
        lines = len(err.read().splitlines())
    return wall, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), lines


def cases(folder: Path, quick: bool) -> list[tuple[str, list]]:
    def write(name: str, text: str | bytes) -> Path:
        path = folder / name
        path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        return path

    out = []
    for n in (25_000, 50_000) + (() if quick else (100_000, 200_000)):
        path = write(f"passes-{n}.dn", passes(n))
        out.append((f"validate, {n:,} turns ({path.stat().st_size / 1e6:.1f} MB)", ["validate", path]))
        out.append((f"report, {n:,} turns", ["report", path, "--out-dir", folder / "out"]))
    header = '[Players "Anna, Ben"]\n'
    out += [
        ("validate, 5 MB line: one tag value", ["validate", write("tag.dn", header + f'[Event "{"x" * 5_000_000}"]\n')]),
        ("validate, 5 MB line: 650,000 tags", ["validate", write("tags.dn", '[A "b"]' * 650_000 + "\n")]),
        ("validate, 5 MB line: a hand of 1.7 M tiles", ["validate", write("hand.dn", header + "hand Anna: " + "W1 " * 1_700_000)]),
        ("validate, 5 MB of tags, one per line", ["validate", write("tag-lines.dn", '[A "b"]\n' * 650_000)]),
        ("validate, a hand of 2.7 M tiles, one per line", ["validate", write("hand-lines.dn", header + "hand Anna:\n" + "W1\n" * 2_700_000)]),
        ("validate, 90,000-character name, syntax error", ["validate", write("name.dn", header + "1. " + "A" * 90_000 + " -\n")]),
        ("validate, 5,000-digit turn number", ["validate", write("turn.dn", header + f"{BIG}. Anna S1 a2\n")]),
        ("validate, 5,000-digit score", ["validate", write("score.dn", header + f"reveal Anna: museum, Ben: tavern\nscore Anna: {BIG}, Ben: 0\n")]),
    ]
    fifo = folder / "fifo.dn"
    os.mkfifo(fifo)
    zero = folder / "zero.dn"
    zero.symlink_to("/dev/zero")
    text = TINY.read_text()
    out += [
        ("validate, a FIFO", ["validate", fifo]),
        ("validate, a link to /dev/zero", ["validate", zero]),
        ("validate, 5,000-character file name", ["validate", "x" * 5000 + ".dn"]),
        ("board check, 5,000-digit width", ["board", "check", write("wide.toml", text.replace("width = 6", f"width = {BIG}"))]),
        ("board check, arrays nested 100,000 deep", ["board", "check", write("deep.toml", text.replace("width = 6", "width = 6\nx = " + "[" * 100_000 + "]" * 100_000))]),
        ("simulate, a box of 10^11 tiles", ["simulate", "--players", "2", "--seed", "1", "--board", write("box.toml", text.replace("river = [1, 2, 2]", "river = [99999999999, 2, 2]"))]),
        ("rules diff --width 1000000000", ["rules", "diff", "hig-1991", "webley-en", "--width", "1000000000"]),
        ("simulate --count 10^12", ["simulate", "--players", "2", "--seed", "1", "--count", "1000000000000", "--out", folder / "sim"]),
    ]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="dn-scale-") as tmp:
        folder = Path(tmp)
        print(f"{'case':<50} {'time':>8} {'peak RSS':>10} {'exit':>5} {'stderr lines':>13}")
        for name, command in cases(folder, args.quick):
            wall, rss, status, lines = run(command, folder)
            print(f"{name:<50} {wall:>6.2f} s {rss:>7.0f} MB {status:>5} {lines:>13}", flush=True)


if __name__ == "__main__":
    main()
