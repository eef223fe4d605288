"""``--dask`` against ``--jobs``: records a second, games a second, peak memory.

Prints numbers, asserts nothing (tests never time things), except that every run
prints the same bytes (else the figures would compare different work). On
127.0.0.1: a scheduler (``dask scheduler``) and two single-threaded workers (``dask
worker --no-nanny``, so their peak memory is their own), started afresh for each
measurement. Client peak memory: the ``drunter`` process's maximum resident set
(``os.wait4``); workers' and scheduler's: ``VmHWM`` of ``/proc/PID/status``.

    pip install -e '.[dask]'
    python bench/dask_scale.py                       # 100,000 records, 400 games (long)
    python bench/dask_scale.py --records 20000 --games 100

The records are program-made: ``drunter simulate --players 4 --seed S`` (random
legal games), written once to ``--folder`` and kept there for the next run. The
tournament is ismcts (default budget) against three greedy bots. Measurements of
the same kind take turns, and the load average is printed with each: the machine
may be shared.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-c", "from drunter_notation.cli import main; main()"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def peak_mb(pid: int) -> float:
    """The process's peak resident set (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


@contextmanager
def cluster(workers: int = 2):
    """(address, the worker processes, the scheduler process) of a fresh cluster on 127.0.0.1."""
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--no-dashboard"], **quiet)
    procs = [scheduler]
    try:
        procs += [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                    "--no-nanny", "--no-dashboard"], **quiet) for _ in range(workers)]
        from dask.distributed import Client
        with Client(address, timeout=60) as client:
            client.wait_for_workers(workers, timeout=120)
        yield address, procs[1:], scheduler
    finally:
        for p in procs:
            p.kill()
            p.wait()


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(args: list[str]) -> tuple[float, float, int, str, float]:
    """(wall seconds, client peak RSS in MB, exit status, sha256 of stdout, client CPU
    seconds) of one CLI run."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen(CLI + [str(a) for a in args], stdout=out, stderr=subprocess.DEVNULL,
                                stdin=subprocess.DEVNULL, cwd=ROOT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        out.seek(0)
        digest = hashlib.sha256(out.read()).hexdigest()[:12]
    return wall, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status), digest, usage.ru_utime + usage.ru_stime


def load() -> str:
    return "load %.2f %.2f %.2f" % os.getloadavg()


def measure(label: str, args: list[str], n: int, unit: str, dask: bool) -> tuple[float, str]:
    """One run, on a fresh cluster when ``dask``; prints its line; (seconds, digest)."""
    before = load()
    if dask:
        with cluster() as (address, workers, scheduler):
            idle = [cpu_seconds(w.pid) for w in workers + [scheduler]]
            wall, client, status, digest, cpu = run(args + ["--dask", address])
            used = [cpu_seconds(w.pid) - i for w, i in zip(workers + [scheduler], idle)]
            memory = (f"client {client:.0f} MB, workers " + " + ".join(f"{peak_mb(w.pid):.0f}" for w in workers)
                      + f" MB, scheduler {peak_mb(scheduler.pid):.0f} MB; CPU ms per {unit[:-1]}: client "
                      f"{cpu / n * 1000:.2f}, workers {sum(used[:-1]) / n * 1000:.2f}, scheduler "
                      f"{used[-1] / n * 1000:.3f}")
    else:
        wall, client, status, digest, cpu = run(args)
        memory = (f"peak {client:.0f} MB (the parent; --jobs 2's workers are not counted); CPU ms per "
                  f"{unit[:-1]} (children included): {cpu / n * 1000:.2f}")
    print(f"  {label:<28} {wall:8.1f} s {n / wall:9.1f} {unit}/s  exit {status}  out {digest}  {memory}  "
          f"[{before} -> {load()}]", flush=True)
    return wall, digest


def task_overhead(tasks: int = 2000) -> None:
    """The cost of one empty task, submitted, run and gathered: what a batch must outweigh."""
    from dask.distributed import Client
    with cluster() as (address, _, _), Client(address) as client:
        client.gather(client.map(abs, range(100), pure=False))  # warm
        start = time.perf_counter()
        client.gather(client.map(abs, range(tasks), pure=False))
        wall = time.perf_counter() - start
    print(f"  an empty task, round trip through the scheduler: {wall / tasks * 1000:.2f} ms "
          f"({tasks} tasks, 2 workers)  [{load()}]", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=100_000)
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "drunter-dask-bench")
    ap.add_argument("--skip-validate", action="store_true")
    ap.add_argument("--skip-tournament", action="store_true")
    a = ap.parse_args()
    print(f"{os.cpu_count()} cores; {load()}")
    task_overhead()
    if not a.skip_validate:
        folder = a.folder / f"seed-{a.seed}-{a.records}"
        if not folder.is_dir() or len(list(folder.glob("*.dn"))) < a.records:
            began = time.perf_counter()
            with cluster() as (address, _, _):
                made = run(["simulate", "--players", 4, "--seed", a.seed, "--count", a.records, "--out", folder,
                            "--force", "--dask", address])
            print(f"  made {a.records:,} records in {time.perf_counter() - began:.0f} s (exit {made[2]})")
        size = sum(p.stat().st_size for p in folder.glob("*.dn"))
        print(f"validate: {a.records:,} program-made records (drunter simulate --players 4 --seed {a.seed}: random "
              f"legal 4-player games), {size / 1e6:.0f} MB, JSON Lines")
        args = ["validate", "--format", "json", folder]
        one, d1 = measure("--jobs 1", args + ["--jobs", "1"], a.records, "records", False)
        two, d2 = measure("--jobs 2", args + ["--jobs", "2"], a.records, "records", False)
        dask, d3 = measure("--dask, 2 workers", args, a.records, "records", True)
        print(f"  speed-up against --jobs 1: --jobs 2 {one / two:.2f}x, --dask {one / dask:.2f}x; "
              f"same output: {d1 == d2 == d3}")
    if not a.skip_tournament:
        print(f"tournament: ismcts against three greedy, {a.games} games, seed {a.seed}")
        args = ["tournament", "--bots", "ismcts,greedy,greedy,greedy", "--games", a.games, "--seed", a.seed]
        one, d1 = measure("--jobs 1", args + ["--jobs", "1"], a.games, "games", False)
        dask, d2 = measure("--dask, 2 workers", args, a.games, "games", True)
        print(f"  speed-up against --jobs 1: --dask {one / dask:.2f}x; same output: {d1 == d2}")


if __name__ == "__main__":
    main()
