"""Benchmark: how fast does drunter-notation validate records, next to python-chess?

Prints numbers, asserts nothing (bench/README.md has the results):

1. simulates ``--games`` complete 4-player games (seeded exactly as
   ``drunter simulate --players 4 --seed S`` does) and keeps them as canonical DN
   text in memory;
2. times parsing them (``parser.parse_text``) and parsing + replaying them
   (``replay.replay``, i.e. what ``drunter validate`` does per file): records/s and
   µs per turn; and parsing each turn's move alone (``parser.parse_move``): µs per move;
3. in the same run, times python-chess reading the same number of random 80-ply
   PGN games (``chess.pgn.read_game``) and walking each mainline with a legality
   check per move, and prints the ratio of our full validation time per game to
   chess's;
4. unless ``--skip-memory``: writes 10,000 records to a temporary folder and runs
   ``drunter validate``'s per-file loop over it in-process, printing the traced
   memory (tracemalloc: what is still live after a full collection, and the peak)
   and the RSS after 1,000 and after 10,000 files: memory must not grow with the
   number of files;
5. unless ``--skip-command``: writes the records and the PGN games to two folders,
   one file each, and times the command ``drunter validate --jobs 1`` on the first
   against one Python process reading every PGN file with ``chess.pgn.read_game`` on
   the second, taking turns, ``--repeat`` rounds (at least 3): the medians and their
   ratio, one core against one (both from cached bytecode), with the load average before and after; with
   ``--before DIR`` (a checkout of an earlier version), that version's command takes
   its turn too, and both versions' parse and replay per turn are printed side by side;
6. unless ``--skip-batch``: writes ``--batch-files`` records (default 2,000) to a
   folder and times the command ``drunter validate --jobs 1`` against ``--jobs 2``
   on it (best of ``--repeat``, taking turns), says whether both printed the same,
   and prints the peak RSS of the largest process for a quarter of the files and
   for all of them.

A simulated game that does not validate stops the run (the numbers would mean
nothing); otherwise nothing is checked.

Run from the repository root:
    python bench/validate.py [--games N] [--repeat R] [--before DIR] [--skip-memory] [--skip-command]
                             [--batch-files N] [--skip-batch]
Needs python-chess (``pip install -e '.[bench]'``).
"""
from __future__ import annotations

import argparse
import compileall
import gc
import io
import os
import pathlib
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import chess
import chess.pgn

# Run as a script (python bench/validate.py), sys.path[0] is bench/: put the repository
# root first so that the working tree's package is measured, not some installed copy --
# unless --installed asks for the copy installed in this interpreter (the compiled build).
sys.path.insert(0, sys.path[0] if "--installed" in sys.argv[1:] else str(Path(__file__).resolve().parent.parent))

from drunter_notation import __version__ as dn_version
from drunter_notation.cli.common import record_paths
from drunter_notation.cli.validate import summary_line
from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.deal import game_rng, player_names
from drunter_notation.errors import DnError
from drunter_notation.load import judge
from drunter_notation.notation.formatter import format_placement, format_record
from drunter_notation.notation.parser import parse_file, parse_move, parse_text
from drunter_notation.simulate import simulate_game

CHESS_PLIES = 80
MEMORY_FILES = 10_000
MEMORY_CHECKPOINT = 1_000
ROOT = Path(__file__).resolve().parent.parent
INSTALLED = "--installed" in sys.argv[1:]


def simulate_records(n: int, seed: int) -> list[str]:
    """``n`` complete 4-player games on the default board as canonical DN text."""
    board, ruleset, players = load_board("schilda"), load_ruleset("hig-1991"), player_names(4)
    return [format_record(simulate_game(board, ruleset, players, game_rng(seed, i))) for i in range(1, n + 1)]


def random_pgns(n: int, seed: int) -> list[str]:
    """``n`` games of random legal moves, each exactly ``CHESS_PLIES`` plies, as PGN text.
    A game that ends early (mate, stalemate) is thrown away and drawn again."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        for _ in range(CHESS_PLIES):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            node = node.add_variation(move)
            board.push(move)
        else:
            out.append(str(game))
    return out


def best_times(repeat: int, *fns) -> list[float]:
    """For each of ``fns``, the fastest of ``repeat`` runs in seconds (the one least
    disturbed by the rest of the machine). The runs take turns -- one of each per
    round -- so that a busy spell on the machine does not fall on one of them only.
    The garbage collector stays on, as in real use."""
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t0)
    return best


def parse_all(texts: list[str]) -> None:
    for text in texts:
        parse_text(text)


def parse_moves(moves: list[str]) -> None:
    for move in moves:
        parse_move(move)


def validate_all(texts: list[str]) -> None:
    for text in texts:
        t = judge(parse_text(text))
        if not t.valid:  # a simulated game must validate; a failure here makes the numbers meaningless
            raise SystemExit(f"simulated game does not validate: {t.errors[0].format('<bench>')}")


def chess_all(pgns: list[str]) -> None:
    for pgn in pgns:
        game = chess.pgn.read_game(io.StringIO(pgn))
        if game.errors:
            raise SystemExit(f"python-chess rejects a generated game: {game.errors[0]}")
        board = game.board()
        for move in game.mainline_moves():
            if not board.is_legal(move):
                raise SystemExit(f"illegal move {move} in a generated game")
            board.push(move)


def chess_read_only(pgns: list[str]) -> None:
    for pgn in pgns:
        chess.pgn.read_game(io.StringIO(pgn))


def _proc_status_mb(key: str) -> float:
    """A memory figure of /proc/self/status (Linux), in MB; NaN elsewhere."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) * 1024 / 1e6  # the kernel writes kB (KiB)
    except OSError:
        pass
    return float("nan")


def rss_mb() -> float:
    return _proc_status_mb("VmRSS")  # resident set size now


def peak_rss_mb() -> float:
    return _proc_status_mb("VmHWM")  # the highest resident set size so far


def memory_check(texts: list[str]) -> None:
    """``drunter validate DIR`` over 10,000 files, in-process: the same per-file loop
    (record_paths, parse_file, replay, the summary line) with its output dropped.

    At each checkpoint: the memory still traced after a full collection (what the
    loop keeps: it must not grow with the number of files), the part of it that is
    the interpreter's table of interned strings, the traced peak since the previous
    checkpoint, and the RSS. Two things of CPython's would otherwise read as growth:
    freed small tuples are kept for reuse (up to 2000 of each size), and tracemalloc
    counts them until ``gc.collect()`` empties those free lists; and pathlib interns
    every file name (``Path(path)`` in parse_file), so the interpreter's table of
    interned strings is rebuilt now and then -- one block of the same size however
    many files went by, counted once it was rebuilt under tracemalloc."""
    with tempfile.TemporaryDirectory(prefix="dn-bench-") as tmp:
        folder = Path(tmp)
        for i in range(MEMORY_FILES):  # the simulated games, over and over, one file each
            (folder / f"game-{i:05d}.dn").write_text(texts[i % len(texts)], encoding="utf-8")
        paths, _ = record_paths((str(folder),))
        gc.collect()
        print(f"  {len(paths)} files in {tmp}; RSS before: {rss_mb():.1f} MB")
        print(f"  {'after':>12} {'traced, live':>13} {'(interned)':>11} {'traced, peak':>13} "
              f"{'RSS now':>9} {'RSS peak':>9}")
        tracemalloc.start()
        t0 = time.perf_counter()
        invalid = 0
        for n, path in enumerate(paths, 1):
            try:
                record = parse_file(path)
            except DnError:
                invalid += 1
            else:
                t = judge(record, path)
                invalid += not t.valid
                summary_line(t)  # what the CLI prints per file; dropped here
            if n in (MEMORY_CHECKPOINT, len(paths)):
                record = t = None
                gc.collect()
                live, peak = tracemalloc.get_traced_memory()
                interned = sum(stat.size for stat in tracemalloc.take_snapshot().statistics("filename")
                               if stat.traceback[0].filename == pathlib.__file__)
                tracemalloc.reset_peak()
                print(f"  {n:>6} files {live / 1e6:>10.2f} MB {interned / 1e6:>8.2f} MB {peak / 1e6:>10.2f} MB "
                      f"{rss_mb():>6.1f} MB {peak_rss_mb():>6.1f} MB")
        tracemalloc.stop()
        print(f"  ({len(paths)} files in {time.perf_counter() - t0:.0f} s under tracemalloc; invalid: {invalid})")


def write_folder(texts: list[str], folder: Path, n: int) -> None:
    """``n`` record files in ``folder``, the simulated games over and over."""
    folder.mkdir()
    for i in range(n):
        (folder / f"game-{i:05d}.dn").write_text(texts[i % len(texts)], encoding="utf-8")


def where(source: Path) -> tuple[dict[str, str], Path]:
    """The environment and working folder a command measuring ``source`` runs with: the
    checkout on PYTHONPATH and as cwd (-m and -c look in cwd first), or with --installed
    for this tree, the interpreter's own copy from a folder holding no package."""
    if INSTALLED and source == ROOT:
        return dict(os.environ), Path(tempfile.gettempdir())
    return {**os.environ, "PYTHONPATH": str(source)}, source


def run_validate(folder: Path, jobs: int) -> tuple[float, bytes, float]:
    """Seconds, stdout and the peak RSS (MB) of the largest process of one ``drunter validate`` run."""
    env, cwd = where(ROOT)
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "drunter_notation.cli", "validate", "--jobs", str(jobs),
                             str(folder)], stdout=subprocess.PIPE, env=env, cwd=cwd)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)  # ru_maxrss: the largest of the process and its waited-for workers
    proc.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - start, out, usage.ru_maxrss / 1024


# One process reading every PGN file of a folder, as `drunter validate --jobs 1` reads every record.
CHESS_COMMAND = """
import sys, chess.pgn
from pathlib import Path
for path in sorted(Path(sys.argv[1]).iterdir()):
    with open(path, encoding="utf-8") as f:
        game = chess.pgn.read_game(f)
    if game is None or game.errors:
        raise SystemExit(f"python-chess rejects {path}")
"""


def load_average() -> str:
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "unknown"


def timed(argv: list[str], source: Path = ROOT) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, the process and its children) of one command."""
    env, cwd = where(source)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, env=env, cwd=cwd)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{argv[:4]} exited with status {proc.returncode}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def cache_bytecode(before: Path | None) -> None:
    """Both sides start from cached bytecode, as an installed package does: python-chess's
    was written when pip installed it, a checkout's is written at its first run -- unless
    PYTHONDONTWRITEBYTECODE is set, when every run would compile our modules again (about
    50 ms of each command's start-up)."""
    folders = [Path(chess.__file__).parent] + [tree / "drunter_notation" for tree in (ROOT, before)
                                               if tree is not None and not (INSTALLED and tree == ROOT)]
    for folder in folders:
        compileall.compile_dir(folder, quiet=1)


def command_check(texts: list[str], pgns: list[str], repeat: int, before: Path | None) -> None:
    """`drunter validate --jobs 1 FOLDER` against one python-chess process over as many
    PGN files, taking turns: one core against one, interpreter start-up on both sides.
    With ``before``, that checkout's `drunter validate` takes its turn too, and the
    parse and replay per turn of both trees are measured in-process, taking turns."""
    cache_bytecode(before)
    with tempfile.TemporaryDirectory() as tmp:
        records, games = Path(tmp) / "dn", Path(tmp) / "pgn"
        write_folder(texts, records, len(texts))
        games.mkdir()
        for i, pgn in enumerate(pgns):
            (games / f"game-{i:05d}.pgn").write_text(pgn + "\n", encoding="utf-8")
        if before is not None:
            per_turn_check(records, repeat, before)
        dn_argv = [sys.executable, "-m", "drunter_notation.cli", "validate", "--jobs", "1", str(records)]
        chess_argv = [sys.executable, "-c", CHESS_COMMAND, str(games)]
        print(f"  load average before: {load_average()}")
        dn, ch, old = [], [], []
        for _ in range(max(3, repeat)):
            if before is not None:
                old.append(timed(dn_argv, before))
            dn.append(timed(dn_argv))
            ch.append(timed(chess_argv))
            was = f"(before: {old[-1][0]:5.2f} s)  " if old else ""
            print(f"    drunter validate --jobs 1 {dn[-1][0]:6.2f} s {was}  python-chess {ch[-1][0]:6.2f} s   "
                  f"ratio {dn[-1][0] / ch[-1][0]:.2f}   (CPU {dn[-1][1]:.2f} s / {ch[-1][1]:.2f} s; "
                  f"load {load_average()})")
        (dn_m, dn_cpu), (ch_m, ch_cpu) = (map(statistics.median, zip(*runs)) for runs in (dn, ch))
        print(f"  medians: drunter validate --jobs 1 {dn_m:.2f} s, python-chess {ch_m:.2f} s; "
              f"ratio {dn_m / ch_m:.2f} (aim <= 0.8); CPU time {dn_cpu:.2f} s / {ch_cpu:.2f} s, "
              f"ratio {dn_cpu / ch_cpu:.2f}; load average after: {load_average()}")
        if old:
            old_m, old_cpu = map(statistics.median, zip(*old))
            print(f"  before ({before}): {old_m:.2f} s, ratio {old_m / ch_m:.2f}; "
                  f"CPU time {old_cpu:.2f} s, ratio {old_cpu / ch_cpu:.2f}")


# Parse and parse + replay of every record file of a folder, in one process, through the
# functions every version has had: run with PYTHONPATH set to the checkout measured.
PER_TURN_COMMAND = """
import os, sys, time
from drunter_notation.load import judge
from drunter_notation.notation.parser import parse_bytes
folder, repeat = sys.argv[1], int(sys.argv[2])
files = [(str(p), open(p, "rb").read()) for p in sorted(os.scandir(folder), key=lambda e: e.name)]
turns = sum(len(parse_bytes(data, path).turns) for path, data in files)
parse = full = float("inf")
for _ in range(repeat):  # CPU time: what another busy process on the machine changes least
    t0 = time.process_time()
    for path, data in files:
        parse_bytes(data, path)
    t1 = time.process_time()
    for path, data in files:
        judge(parse_bytes(data, path), path)
    t2 = time.process_time()
    parse, full = min(parse, t1 - t0), min(full, t2 - t1)
print(parse / turns * 1e6, full / turns * 1e6)
"""


def per_turn_check(records: Path, repeat: int, before: Path) -> None:
    """µs per turn of parse, replay and both, for the checkout ``before`` and this one,
    each in its own process, taking turns (medians of 3 rounds, best of ``repeat`` within)."""
    figures: dict[Path, list[list[float]]] = {before: [], ROOT: []}
    for _ in range(3):
        for source in figures:
            env, cwd = where(source)
            out = subprocess.run([sys.executable, "-c", PER_TURN_COMMAND, str(records), str(repeat)],
                                 capture_output=True, text=True, env=env, cwd=cwd)
            if out.returncode != 0:
                raise SystemExit(f"the per-turn run of {source} failed: {out.stderr.strip()[-500:]}")
            figures[source].append([float(x) for x in out.stdout.split()])
    medians = {source: [statistics.median(col) for col in zip(*rows)] for source, rows in figures.items()}
    print(f"  per turn, in-process (µs of CPU time; medians of 3 rounds, best of {repeat}): before {before}, after this tree")
    for label, i in (("parse", 0), ("replay (full minus parse)", None), ("full validation", 1)):
        old, new = ((m[1] - m[0]) if i is None else m[i] for m in (medians[before], medians[ROOT]))
        print(f"    {label:<28} {old:7.1f} -> {new:7.1f}   ({new / old:.2f}x)")


def batch_check(texts: list[str], files: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        quarter, full = Path(tmp) / "quarter", Path(tmp) / "full"
        write_folder(texts, quarter, files // 4)
        write_folder(texts, full, files)
        best = {1: float("inf"), 2: float("inf")}
        outputs = {}
        for _ in range(repeat):
            for jobs in (1, 2):
                seconds, out, _ = run_validate(full, jobs)
                best[jobs] = min(best[jobs], seconds)
                outputs[jobs] = out
        for jobs in (1, 2):
            print(f"  --jobs {jobs}: {best[jobs]:6.2f} s, {files / best[jobs]:6.0f} files/s")
        print(f"  speed-up --jobs 2 / --jobs 1: {best[1] / best[2]:.2f}x; output identical: "
              f"{'yes' if outputs[1] == outputs[2] else 'NO'}")
        for jobs in (1, 2):
            rss = [run_validate(folder, jobs)[2] for folder in (quarter, full)]
            print(f"  peak RSS of the largest process, --jobs {jobs}: {rss[0]:.1f} MB for {files // 4} files,"
                  f" {rss[1]:.1f} MB for {files}")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="games to simulate and validate (default 1000)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the simulated and the chess games (default 1)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per measurement; the best counts (default 3)")
    ap.add_argument("--skip-memory", action="store_true", help="skip the 10,000-file memory check")
    ap.add_argument("--skip-command", action="store_true",
                    help="skip the drunter validate --jobs 1 / python-chess command run")
    ap.add_argument("--before", type=Path, metavar="DIR",
                    help="a checkout of an earlier version (e.g. git worktree add /tmp/before REV): its per-turn "
                         "figures and its drunter validate --jobs 1 run beside this tree's")
    ap.add_argument("--batch-files", type=int, default=2000, help="files of the --jobs 1 / --jobs 2 run (default 2000)")
    ap.add_argument("--skip-batch", action="store_true", help="skip the --jobs 1 / --jobs 2 run")
    ap.add_argument("--installed", action="store_true",
                    help="measure the package installed in this interpreter (e.g. the compiled build), not the checkout")
    args = ap.parse_args(argv)
    n = args.games

    print(f"drunter-notation {dn_version}, python-chess {chess.__version__}, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs; best of {args.repeat} runs; load average {load_average()}")
    t0 = time.perf_counter()
    texts = simulate_records(n, args.seed)
    records = [parse_text(t) for t in texts]
    turns = sum(len(r.turns) for r in records)
    votes = sum(1 for r in records for t in r.turns if t.placement is not None and t.placement.vote is not None)
    # every turn's move on its own, as a what-if move or a Game.push would hand it over
    moves = [format_placement(t.placement) if t.placement is not None else "pass" for r in records for t in r.turns]
    size = sum(len(t.encode("utf-8")) for t in texts)
    del records
    print(f"simulated {n} 4-player games in {time.perf_counter() - t0:.1f} s: {turns / n:.1f} turns, "
          f"{votes / n:.1f} votes, {size / n / 1000:.2f} kB per record")
    pgns = random_pgns(n, args.seed)

    parse_s, full_s, chess_s, chess_read_s, moves_s = best_times(
        args.repeat, lambda: parse_all(texts), lambda: validate_all(texts), lambda: chess_all(pgns),
        lambda: chess_read_only(pgns), lambda: parse_moves(moves))

    def row(label: str, seconds: float, per: int, unit: str) -> None:
        print(f"  {label:<44} {n / seconds:>8.0f} records/s {seconds / n * 1e3:>7.3f} ms/record "
              f"{seconds / per * 1e6:>7.1f} µs/{unit}")

    print(f"DN, {n} records, {turns} turns:")
    row("parse only (parse_text)", parse_s, turns, "turn")
    row("parse + replay (full validation)", full_s, turns, "turn")
    row("(replay alone: the difference)", full_s - parse_s, turns, "turn")
    print(f"  {'parse_move, each move alone':<44} {len(moves) / moves_s:>8.0f} moves/s   "
          f"{moves_s / len(moves) * 1e6:>7.1f} µs/move")
    print(f"python-chess, {n} games of {CHESS_PLIES} plies:")
    row("read_game + legality walk of the mainline", chess_s, n * CHESS_PLIES, "ply")
    row("read_game only", chess_read_s, n * CHESS_PLIES, "ply")
    print(f"ratio, DN full validation per game / python-chess per game: {full_s / chess_s:.2f}"
          f" (against read_game only: {full_s / chess_read_s:.2f}); aim <= 1.0, must <= 2.0")

    print(f"  (load average {load_average()})")
    if not args.skip_command:
        print(f"one core against one: drunter validate --jobs 1 on {n} record files, python-chess on {n} PGN files:")
        command_check(texts, pgns, args.repeat, args.before)
    if not args.skip_memory:
        print(f"memory, validating a folder of {MEMORY_FILES} records:")
        memory_check(texts)
    if not args.skip_batch:
        print(f"drunter validate on a folder of {args.batch_files} records:")
        batch_check(texts, args.batch_files, args.repeat)


if __name__ == "__main__":
    main()
