"""``--dask ADDRESS`` on validate, tournament and simulate, on a real scheduler and two
worker processes on 127.0.0.1: the same bytes as ``--jobs 1``, a worker killed mid-run
costs nothing, an address where no scheduler answers is one line and exit status 2."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import LONG, drunter_here

distributed = pytest.importorskip("dask.distributed", reason="dask is an optional extra: pip install "
                                                            "'drunter-notation[dask]'")

ROOT = Path(__file__).resolve().parent.parent
DEAD = "tcp://127.0.0.1:1"  # nothing listens on port 1


def drunter(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from drunter_notation.cli import main; main()", *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, **kw)


def start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "from drunter_notation.cli import main; main()", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)


@pytest.fixture(scope="module")
def cluster():
    """A scheduler and two single-threaded worker processes (each under a nanny, which
    starts a killed one again), and a client of the test's own to watch them."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  protocol="tcp", dashboard_address=":0") as c, distributed.Client(c) as client:
        yield c.scheduler_address, client


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> Path:
    """Program-made records (drunter simulate), the shipped samples, and a file that
    is not a record."""
    folder = tmp_path_factory.mktemp("records")
    assert drunter_here("simulate", "--players", "3", "--seed", "4", "--count", "60", "--out", str(folder)).returncode == 0
    for sample in ("legal-2p.dn", "legal-4p.dn", "legal-expert-4p.dn"):
        shutil.copy(ROOT / "replays" / sample, folder / sample)
    shutil.copy(next((ROOT / "replays" / "illegal").glob("*.dn")), folder / "illegal.dn")
    (folder / "noise.dn").write_bytes(b"\x00\x01 not a record")
    return folder


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_validate_prints_the_same_bytes_as_one_job(cluster, records, tmp_path, fmt):
    fifo = tmp_path / "pipe.dn"  # read by the client, refused there (I001): its line stays in its place
    os.mkfifo(fifo)
    args = ("validate", "--format", fmt, str(records), str(fifo), "replays/legal-3p.dn")
    one, dask = drunter_here(*args, "--jobs", "1"), drunter_here(*args, "--dask", cluster[0])
    assert one.returncode == 2 and "I001" in one.stdout + one.stderr and "I003" in one.stdout + one.stderr
    assert (dask.returncode, dask.stdout, dask.stderr) == (one.returncode, one.stdout, one.stderr)
    assert len(one.stdout.splitlines()) >= 66


def test_validate_expect_and_standard_input(cluster, records):
    args = ("validate", "--expect", "replays/illegal", str(records / "legal-2p.dn"))
    one, dask = drunter_here(*args, "--jobs", "1"), drunter_here(*args, "--dask", cluster[0])
    assert (dask.returncode, dask.stdout, dask.stderr) == (one.returncode, one.stdout, one.stderr)
    data = (ROOT / "replays" / "legal-4p.dn").read_text()
    one, dask = drunter("validate", "-", input=data), drunter("validate", "-", "--dask", cluster[0], input=data)
    assert one.returncode == 0 and (dask.returncode, dask.stdout) == (0, one.stdout)


def test_tournament_prints_the_same_table(cluster):
    args = ("tournament", "--bots", "greedy,cautious,random", "--games", "60", "--seed", "3")
    one, dask = drunter_here(*args, "--jobs", "1"), drunter_here(*args, "--dask", cluster[0])
    assert one.returncode == 0 and "60 games" in one.stdout
    assert (dask.returncode, dask.stdout, dask.stderr) == (0, one.stdout, one.stderr)


@pytest.mark.parametrize("bots", [None, "greedy"])
def test_simulate_writes_the_same_files(cluster, tmp_path, bots):
    extra = () if bots is None else ("--bots", bots)
    runs = {}
    for how in ("one", "dask"):
        out = tmp_path / how
        done = drunter_here("simulate", "--players", "4", "--seed", "9", "--count", "12" if bots else "40",
                       "--out", str(out), *extra, *(("--dask", cluster[0]) if how == "dask" else ()))
        assert done.returncode == 0 and done.stdout == ""
        runs[how] = (done.stderr.replace(str(out), "OUT"), {p.name: p.read_bytes() for p in out.iterdir()})
    assert runs["one"] == runs["dask"] and len(runs["one"][1]) == (12 if bots else 40)


@pytest.mark.parametrize("command", [("validate", "replays/legal-2p.dn"), ("tournament", "--games", "4"),
                                     ("simulate", "--players", "2", "--seed", "1", "--count", "2", "--out", "OUT"),
                                     ("simulate", "--players", "2", "--seed", "1"), ("tournament", "--games", "1")])
def test_no_scheduler_at_the_address_is_one_line_and_exit_2(tmp_path, command):
    began = time.monotonic()
    done = drunter(*(str(tmp_path / a) if a == "OUT" else a for a in command), "--dask", DEAD)
    assert time.monotonic() - began < 30
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [f"drunter {command[0]}: error: cannot reach the Dask scheduler at {DEAD} "
                                        f"within 5 s: the connection was refused; see drunter {command[0]} --help"]
    assert not list(tmp_path.rglob("*.dn"))


@pytest.mark.slow
@LONG  # a fault injected: CI's long pass
def test_a_worker_killed_mid_run_costs_nothing(cluster):
    address, client = cluster
    args = ("tournament", "--bots", "ismcts:sims=15,greedy", "--games", "16", "--seed", "5")
    one = drunter(*args, "--jobs", "1")
    run = start(*args, "--dask", address)
    deadline = time.monotonic() + 60
    while not any(tasks for tasks in client.processing().values()):  # a batch is being played
        assert run.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    victim = next(w for w, tasks in client.processing().items() if tasks)
    pid = client.run(os.getpid, workers=[victim])[victim]
    os.kill(pid, signal.SIGKILL)
    out, err = run.communicate(timeout=120)
    assert (run.returncode, out, err) == (0, one.stdout, one.stderr)
    assert one.returncode == 0 and "16 games" in one.stdout
    client.wait_for_workers(2, timeout=60)  # the nanny started it again: the cluster is whole for what follows


@pytest.mark.slow
@LONG
def test_a_scheduler_lost_mid_run_is_one_line_and_nothing_half_written(tmp_path):
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", "0", "--no-dashboard", "--scheduler-file", str(tmp_path / "s.json")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    try:
        while not (tmp_path / "s.json").exists():
            time.sleep(0.1)
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", "--nthreads", "1",
                                   "--no-dashboard", "--scheduler-file", str(tmp_path / "s.json")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with distributed.Client(scheduler_file=str(tmp_path / "s.json"), timeout=30) as watch:
            watch.wait_for_workers(1, timeout=60)
            address = watch.scheduler.address
        out = tmp_path / "out"
        run = start("simulate", "--players", "4", "--seed", "2", "--count", "300", "--bots", "ismcts:sims=10",
                    "--out", str(out), "--dask", address)
        deadline = time.monotonic() + 60
        while not out.exists() or not any(out.glob("*.dn")):  # some records are written
            assert run.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        scheduler.kill()
        began = time.monotonic()
        _, err = run.communicate(timeout=60)
        assert time.monotonic() - began < 30
        assert run.returncode == 2 and "Traceback" not in err
        assert err.splitlines() == [f"drunter simulate: error: lost the Dask scheduler at {address} mid-run: "
                                    f"the connection to it was lost"]
        names = sorted(p.name for p in out.iterdir())
        assert names and all(n.endswith(".dn") for n in names) and len(names) < 300  # no temp file left
        whole = drunter("validate", str(out))  # every file written is a whole record
        assert whole.returncode == 0 and whole.stdout.endswith(f"{len(names)} valid, 0 invalid, 0 unreadable\n")
        one = drunter("simulate", "--players", "4", "--seed", "2", "--bots", "ismcts:sims=10")
        assert (out / "game-2-1.dn").read_text() == one.stdout
    finally:
        for p in (worker, scheduler):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()


@pytest.mark.parametrize("address, words", [("tcp://127.0.0.1:-1", "give the scheduler's address as HOST:PORT"),
                                             ("127.0.0.1", "give the scheduler's address as HOST:PORT"),
                                             ("inproc://x", "Dask cannot read the address")])
def test_an_address_that_cannot_be_reached_is_said_in_the_products_words(address, words):
    done = drunter("validate", "replays/legal-2p.dn", "--dask", address)
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert words in line and address in line, line


def test_a_host_name_not_known_is_said_in_the_products_words(monkeypatch):
    import socket

    import click

    from drunter_notation.cli import cluster

    def unknown(*args, **kwargs):  # the resolver's answer, without asking one (no traffic beyond loopback)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    monkeypatch.setattr(socket, "create_connection", unknown)
    with pytest.raises(click.UsageError) as refused:
        cluster.knock("tcp://scheduler.example:8786")
    assert refused.value.message.endswith("within 5 s: the host name is not known")


def test_something_else_at_the_address_is_one_line_and_exit_2(tmp_path):
    """A port where a server answers, but not Dask's: one line too, within 30 s."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]

    def answer() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"HTTP/1.0 200 OK\r\n\r\n" + b"\xff" * 64)
                time.sleep(0.5)

    threading.Thread(target=answer, daemon=True).start()
    try:
        began = time.monotonic()
        done = drunter("validate", "replays/legal-2p.dn", "--dask", f"127.0.0.1:{port}")
    finally:
        server.close()
    assert time.monotonic() - began < 30
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"drunter validate: error: cannot reach the Dask scheduler at 127.0.0.1:{port} within 5 s: ")


@LONG  # it waits out the 5 s the command allows
def test_a_silent_listener_at_the_address_is_one_line_and_exit_2(tmp_path):
    """A port that accepts and never answers: Dask's handshake gives up too (no hang)."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    port, kept = server.getsockname()[1], []

    def accept() -> None:
        while True:
            try:
                kept.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    try:
        done = drunter("validate", "replays/legal-2p.dn", "--dask", f"tcp://127.0.0.1:{port}")
    finally:
        server.close()
        for conn in kept:
            conn.close()
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.splitlines() == [
        f"drunter validate: error: cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within 5 s: something "
        "accepted the connection but did not answer as a Dask scheduler does; see drunter validate --help"]
