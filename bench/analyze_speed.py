"""Benchmark and guard: is `drunter analyze` as fast as a previous release?

Checks the release ``--rev`` out into a temporary git worktree, simulates ``--games``
4-player games with this tree (``drunter simulate --players 4 --seed S``, hands
recorded), and then, taking turns for ``--rounds`` rounds, runs ``drunter analyze
--playouts P --jobs 1 --format json`` on the folder with the release's code and with
this tree's (each its own process, both from cached bytecode, the same Python). It
prints each round's wall and CPU time, the medians and their ratio, and a verdict:
``slower`` (exit status 1) when this tree's median CPU time is more than
``--tolerance`` above the release's, ``as fast`` (exit 0) otherwise. Nothing is
asserted elsewhere and no test runs it: run it after a change to the analysis.

    python bench/analyze_speed.py                        # 60 games against 2026-11-25's last commit
    python bench/analyze_speed.py --rev 8ed9d27 --games 20 --rounds 5
    python bench/analyze_speed.py --playouts 50 --games 4

The default ``--rev`` is the last commit of 2026-11-25 (UTC), the release the
analysis is measured against in ``bench/README.md``.
"""
from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RELEASE = "526d25a"  # git log -1 --before=2026-11-26T00:00:00Z: the last state of 2026-11-25


def git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout


def load_average() -> str:
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def run(tree: Path, argv: list[str], cwd: Path, out: Path) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of ``python -m drunter_notation.cli ARGV`` with ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with open(out, "wb") as f:
        proc = subprocess.run([sys.executable, "-m", "drunter_notation.cli", *argv], stdout=f, env=env, cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{tree}: drunter {' '.join(argv[:3])} ... exited with status {proc.returncode}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rev", default=RELEASE, help=f"the release to compare with (default {RELEASE})")
    ap.add_argument("--games", type=int, default=60, help="simulated 4-player games (default 60)")
    ap.add_argument("--seed", type=int, default=1, help="drunter simulate's seed (default 1)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds, each running both in turn (default 3)")
    ap.add_argument("--playouts", type=int, default=0, help="drunter analyze --playouts (default 0: the inference)")
    ap.add_argument("--tolerance", type=float, default=0.05,
                    help="how much more CPU time than the release still counts as as fast (default 0.05: 5 %%)")
    args = ap.parse_args()
    if not 1 <= args.games <= 10_000 or not 1 <= args.rounds <= 50 or not 0 <= args.playouts <= 100_000:
        ap.error("--games 1-10000, --rounds 1-50, --playouts 0-100000")
    rev = git("rev-parse", "--short", args.rev).strip()
    here = git("rev-parse", "--short", "HEAD").strip() + (" + changes" if git("status", "--porcelain", "--",
                                                                              "drunter_notation") else "")
    with tempfile.TemporaryDirectory(prefix="drunter-analyze-speed-") as tmp:
        work = Path(tmp)
        release = work / "release"
        git("worktree", "add", "--detach", str(release), rev)
        try:
            games = work / "games"
            subprocess.run([sys.executable, "-m", "drunter_notation.cli", "simulate", "--players", "4",
                            "--seed", str(args.seed), "--count", str(args.games), "--out", str(games)],
                           check=True, cwd=work, env={**os.environ, "PYTHONPATH": str(ROOT)},
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for tree in (release, ROOT):  # both from cached bytecode, as an installed package runs
                compileall.compile_dir(tree / "drunter_notation", quiet=1)
            argv = ["analyze", "--playouts", str(args.playouts), "--jobs", "1", "--format", "json", str(games)]
            print(f"drunter analyze --playouts {args.playouts} --jobs 1, {args.games} simulated 4-player games "
                  f"(seed {args.seed}), Python {sys.version.split()[0]}; release {rev} against this tree ({here})")
            print(f"load average before: {load_average()}")
            times: dict[str, list[tuple[float, float]]] = {"release": [], "this tree": []}
            for r in range(1, args.rounds + 1):
                for name, tree in (("release", release), ("this tree", ROOT)):
                    wall, cpu = run(tree, argv, work, work / f"{name.replace(' ', '-')}.jsonl")
                    times[name].append((wall, cpu))
                    print(f"  round {r}, {name:9}: {wall:6.2f} s wall, {cpu:6.2f} s CPU  (load {load_average()})")
        finally:
            git("worktree", "remove", "--force", str(release))
    old_wall, old_cpu = (statistics.median(t[k] for t in times["release"]) for k in (0, 1))
    new_wall, new_cpu = (statistics.median(t[k] for t in times["this tree"]) for k in (0, 1))
    ratio = new_cpu / old_cpu
    print(f"medians: release {old_wall:.2f} s wall, {old_cpu:.2f} s CPU; this tree {new_wall:.2f} s wall, "
          f"{new_cpu:.2f} s CPU")
    print(f"this tree / release: {ratio:.2f} of the CPU time ({new_wall / old_wall:.2f} of the wall time)")
    if ratio > 1 + args.tolerance:
        print(f"verdict: SLOWER than {rev} (by {ratio - 1:.0%}, more than the {args.tolerance:.0%} allowed)")
        return 1
    print(f"verdict: as fast as {rev} or faster ({ratio:.2f}x its CPU time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
