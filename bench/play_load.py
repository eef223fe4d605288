"""Load test of ``drunter play`` on loopback: G games played at once through the JSON
API, M moves in all, every move's latency measured at the client. Prints p50/p95/max
and checks that no move was lost (each game's file replays to exactly the moves
acknowledged) and that no request failed. Bounded: it stops after M moves.

    python bench/play_load.py                 # 20 games, 2,000 moves
    python bench/play_load.py --games 5 --moves 300
    python bench/play_load.py --source /tmp/old-checkout   # the same load on another version's server
    python bench/play_load.py --think 0.1     # each client waits 0.1 s after each answer: busy, not saturated
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from drunter_notation import Game  # noqa: E402

RUN_CLI = "import sys; from drunter_notation.cli import main; sys.argv[0] = 'drunter'; main()"


class Player(threading.Thread):
    """Plays games one after another on one keep-alive connection until its share of moves is done."""

    def __init__(self, host: str, port: int, index: int, moves: int, think: float = 0.0):
        super().__init__()
        self.think = think
        self.conn = http.client.HTTPConnection(host, port, timeout=30)
        self.index, self.moves, self.rng = index, moves, random.Random(index)
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.acknowledged: dict[str, int] = {}  # game -> moves acknowledged

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
        self.conn.request(method, path, None if body is None else json.dumps(body),
                          {"Content-Type": "application/json"})
        r = self.conn.getresponse()
        return r.status, json.loads(r.read())

    def new_game(self, k: int) -> tuple[str, dict]:
        name = f"load-{self.index}-{k}"
        players = ["Anna", "Ben", "Cleo", "Dora"][:2 + (self.index + k) % 3]
        status, state = self.call("POST", "/api/games", {"name": name, "players": players, "deal": "random"})
        if status != 201:
            self.errors.append(f"{name}: create {status} {state.get('error')}")
        self.acknowledged[name] = 0
        return name, state

    def run(self):
        k = 0
        name, state = self.new_game(k)
        while len(self.latencies) < self.moves and not self.errors:
            if state["over"]:
                k += 1
                name, state = self.new_game(k)
                continue
            body: dict = {"turn": state["turn"]}
            if state["choice_due"]:
                body["move"] = "choose"
            elif not state["legal"]:
                body["move"] = "pass"
            else:
                move = self.rng.choice(state["legal"])
                body["move"] = move["move"]
                if move["needs_vote"]:
                    cards = {p["name"]: p["cards"] for p in state["players"]}
                    body["vote"] = {p: [self.rng.choice(cards[p])] for p in state["vote_order"]}
                    body["jein"] = {p: self.rng.choice(["yes", "no"]) for p, c in body["vote"].items() if c == ["JEIN"]}
            start = time.perf_counter()
            status, answer = self.call("POST", f"/api/games/{name}/moves", body)
            self.latencies.append(time.perf_counter() - start)
            if status != 200:
                self.errors.append(f"{name} turn {state['turn']} {body['move']}: {status} {answer.get('error')}")
                break
            self.acknowledged[name] += 1
            state = answer
            if self.think:
                time.sleep(self.rng.uniform(0.5, 1.5) * self.think)  # jittered, so the clients do not march in step
        self.conn.close()


def disk_costs(folder: Path, rounds: int = 40) -> str:
    """What a move waits for on this disk, both ways in turn: the whole record written
    durably (temporary file, fsync, rename, fsync of the folder) and one journal line
    appended with its fsync; p50 of ``rounds`` each."""
    from drunter_notation.files import write_atomic
    from drunter_notation.web.journal import Journal

    text = "1. Anna W3 b1-d1\n" * 60  # about the size of a record in mid-game
    journal = Journal(folder / "disk.dn.journal")
    whole, line = [], []
    for i in range(rounds):
        start = time.perf_counter()
        write_atomic(folder / "disk.dn", text, durable=True)
        whole.append(time.perf_counter() - start)
        start = time.perf_counter()
        journal.append("base", {"op": "push", "move": "W3 b1-d1", "vote": None}, first=i == 0)
        line.append(time.perf_counter() - start)
    journal.close()
    for name in ("disk.dn", "disk.dn.journal"):
        (folder / name).unlink()
    return (f"disk: a durable record write {statistics.median(whole) * 1000:.1f} ms, a journal line "
            f"{statistics.median(line) * 1000:.1f} ms (p50 of {rounds} each, taking turns)")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far (Linux: /proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bounded(kind, low, high):
    """An argparse type: ``kind`` between ``low`` and ``high``, else a usage error."""
    def read(text: str):
        value = kind(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{text} is not between {low} and {high}")
        return value
    return read


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=bounded(int, 1, 200), default=20, help="games played at once (default 20, at most 200)")
    ap.add_argument("--moves", type=bounded(int, 1, 1_000_000), default=2000, help="moves in all (default 2000)")
    ap.add_argument("--think", type=bounded(float, 0.0, 10.0), default=0.0,
                    help="seconds a client waits after each answer, on average (default 0: saturation)")
    ap.add_argument("--disk", action="store_true", help="measure only what one move waits for on this disk")
    ap.add_argument("--source", type=Path, default=ROOT,
                    help="the checkout whose drunter play serves (default: this one), to compare versions")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="drunter-load-"))
    if args.disk:
        print(disk_costs(folder), f"; load average {open('/proc/loadavg').read().split()[0]}")
        folder.rmdir()
        return 0
    server = subprocess.Popen([sys.executable, "-c", RUN_CLI, "play", str(folder), "--port", "0", "--no-browser"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              env={"PYTHONPATH": str(args.source.resolve()), "PATH": "/usr/bin:/bin",
                                   "PYTHONDONTWRITEBYTECODE": "1"})
    try:
        host, port = re.search(r"http://([\d.]+):(\d+)/", server.stdout.readline()).groups()
        share = [args.moves // args.games + (i < args.moves % args.games) for i in range(args.games)]
        players = [Player(host, int(port), i, share[i], args.think) for i in range(args.games)]
        server_cpu, client_cpu = cpu_seconds(server.pid), time.process_time()
        start = time.perf_counter()
        for p in players:
            p.start()
        for p in players:
            p.join(600)
        wall = time.perf_counter() - start
        server_cpu, client_cpu = cpu_seconds(server.pid) - server_cpu, time.process_time() - client_cpu
    finally:
        server.terminate()  # a clean stop: the server writes every journal into its record
        server.wait(30)
    latencies = sorted(x for p in players for x in p.latencies)
    errors = [e for p in players for e in p.errors]
    lost = []
    for p in players:
        for name, n in p.acknowledged.items():
            path = folder / f"{name}.dn"
            events = len(Game.from_dn(path.read_text(encoding="utf-8"), str(path)).events)
            if events != n:
                lost.append(f"{name}: {n} acknowledged, {events} in the file")
    q = statistics.quantiles(latencies, n=100)
    pace = f", each client thinking {args.think:g} s a move" if args.think else ", clients never pause"
    print(f"{len(players)} games at once{pace}, {len(latencies)} moves in {wall:.1f} s "
          f"({len(latencies) / wall:.0f} moves/s), {sum(len(p.acknowledged) for p in players)} games started")
    print(f"move latency: p50 {q[49] * 1000:.1f} ms, p95 {q[94] * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms")
    print(f"CPU per move: the server {server_cpu / len(latencies) * 1000:.2f} ms, the clients (this process) "
          f"{client_cpu / len(latencies) * 1000:.2f} ms")
    print(f"errors: {len(errors)}; moves lost: {len(lost)}; load average {open('/proc/loadavg').read().split()[0]}")
    for line in (errors + lost)[:10]:
        print("  " + line)
    return 1 if errors or lost else 0


if __name__ == "__main__":
    sys.exit(main())
