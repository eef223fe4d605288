"""Floods of ``drunter play`` on loopback: can a client keep another table's hint from answering,
and how fast does a table answer while twenty clients hammer it?

1. Hints: ``--flooders`` threads each make a fresh game with the coach after another and ask
   its hint at once (asking again at once when refused), for as long as the test lasts.
   Meanwhile a person's table (two people, the coach) asks a hint on each of its turns,
   ``--rounds`` times, a second apart, as the pages ask (a refusal because the coach is
   busy asked again a second later, for up to 8 s): the seconds each took until answered,
   side by side with the flood's own answers and refusals.
2. Twenty clients (``--clients``) on one table (a person, three ``medium`` bots, the coach)
   for ``--seconds``, each request at random among the page, the game's view, its rev, the
   board, the list of games, the person's move, an undo, the person's hint, a take-back, a
   replay, an adjudication, a pause or resume and a malformed move: p50/p95/max per kind,
   and whether any answer was a 5xx.
In both, the page and another table's view are asked every 0.1 s meanwhile.
Bounded: ``--rounds`` hints, ``--seconds`` of flood.

    python bench/play_flood.py
    python bench/play_flood.py --flooders 8 --rounds 5 --clients 20 --seconds 20
    python bench/play_flood.py --heavy 10      # beside ten tables of bots searching at a table's maximum
    python bench/play_flood.py --source /tmp/old-checkout   # the same floods on another version's server
"""
from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from play_bots import RUN_CLI, call, figures  # noqa: E402

from drunter_notation.table.bots import TABLE_SIMS  # noqa: E402

PEOPLE = ["Anna", "Ben"]


def seat_tokens(conn: http.client.HTTPConnection, game: str) -> dict[str, str]:
    _, seats = call(conn, "GET", f"/api/games/{game}/seats")
    return {s["player"]: s["links"][0].split("#")[1] for s in seats["seats"]}


def hint(conn: http.client.HTTPConnection, game: str, token: str) -> tuple[int, float]:
    start = time.perf_counter()
    conn.request("GET", f"/api/seat/{game}/hint", headers={"X-Drunter-Seat": token})
    r = conn.getresponse()
    r.read()
    return r.status, time.perf_counter() - start


def as_the_page_asks(conn: http.client.HTTPConnection, game: str, token: str) -> tuple[int, float]:
    """A hint as the pages ask it: refused because the coach is busy, asked again a second later, for up to 8 s."""
    start = time.perf_counter()
    status, _ = hint(conn, game, token)
    for _ in range(8):
        if status != 429:
            break
        time.sleep(1)
        status, _ = hint(conn, game, token)
    return status, time.perf_counter() - start


def free_move(conn: http.client.HTTPConnection, game: str) -> float:
    """The player to move plays a move that needs no vote (or passes); the seconds the move took."""
    _, g = call(conn, "GET", f"/api/games/{game}")
    free = [m["move"] for m in g["legal"] if not m["needs_vote"]]
    start = time.perf_counter()
    call(conn, "POST", f"/api/games/{game}/moves", {"move": free[0] if free else "pass", "turn": g["turn"]})
    return time.perf_counter() - start


class Probe(threading.Thread):
    """The page and another table's view, each asked every 0.1 s until stopped."""

    def __init__(self, port: int, game: str, stop: threading.Event):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.game, self.stop = game, stop
        self.page: list[float] = []
        self.view: list[float] = []

    def run(self) -> None:
        while not self.stop.is_set():
            for path, times in (("/", self.page), (f"/api/games/{self.game}", self.view)):
                start = time.perf_counter()
                self.conn.request("GET", path)
                self.conn.getresponse().read()
                times.append(time.perf_counter() - start)
            time.sleep(0.1)

    def report(self) -> str:
        return f"the page {figures(self.page)}; another table's view {figures(self.view)}"


class Flooder(threading.Thread):
    """Fresh games with the coach, one after another, each asked its first hint until answered."""

    def __init__(self, port: int, index: int, stop: threading.Event):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.index, self.stop = index, stop
        self.answered: list[float] = []
        self.refused = 0
        self.other: list[int] = []

    def run(self) -> None:
        k = 0
        while not self.stop.is_set():
            name = f"flood-{self.index}-{k}"
            k += 1
            status, _ = call(self.conn, "POST", "/api/games", {"name": name, "players": PEOPLE, "hints": True,
                                                               "deal": "random"})
            if status != 201:
                self.other.append(status)
                continue
            token = seat_tokens(self.conn, name)[PEOPLE[0]]
            while not self.stop.is_set():
                status, seconds = hint(self.conn, name, token)
                if status == 200:
                    self.answered.append(seconds)
                    break
                if status == 429:
                    self.refused += 1
                else:
                    self.other.append(status)
                    break


def hints_phase(port: int, flooders: int, rounds: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    assert call(conn, "POST", "/api/games", {"name": "person", "players": PEOPLE, "hints": True,
                                              "deal": "random"})[0] == 201
    tokens = seat_tokens(conn, "person")
    status, seconds = hint(conn, "person", tokens["Anna"])
    print(f"the person's first hint, nobody else asking: {status} in {seconds:.2f} s")
    free_move(conn, "person")
    free_move(conn, "person")
    assert call(conn, "POST", "/api/games", {"name": "watched", "players": PEOPLE, "deal": "random"})[0] == 201
    stop = threading.Event()
    probe = Probe(port, "watched", stop)
    crowd = [Flooder(port, i, stop) for i in range(flooders)]
    for f in [probe, *crowd]:
        f.start()
    time.sleep(2)
    mine: list[tuple[int, float]] = []
    for _ in range(rounds):
        mine.append(as_the_page_asks(conn, "person", tokens["Anna"]))
        free_move(conn, "person")
        free_move(conn, "person")
        time.sleep(1)
    stop.set()
    for f in [probe, *crowd]:
        f.join(180)
    answered = [s for f in crowd for s in f.answered]
    print(f"the person's hints beside {flooders} clients making games and asking at once "
          f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores): "
          + ", ".join(f"{s} in {t:.2f} s" for s, t in mine))
    print(f"the flood: {len(answered)} hints answered ({figures(answered) if answered else '-'}), "
          f"{sum(f.refused for f in crowd)} refused 429, other answers {sorted(set(x for f in crowd for x in f.other))}")
    print(f"  meanwhile, every 0.1 s: {probe.report()}")


KINDS = ["page", "view", "rev", "board", "list", "move", "undo", "hint", "takeback", "replay", "adjudicate",
         "pause", "bad"]


class Client(threading.Thread):
    def __init__(self, port: int, index: int, stop: threading.Event, token: str):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.rng, self.stop, self.token = random.Random(index), stop, token
        self.times: dict[str, list[float]] = {k: [] for k in KINDS}
        self.errors: list[int] = []

    def request(self, method: str, path: str, body: str | None = None, headers: dict | None = None) -> bytes:
        self.conn.request(method, path, None if body is None else body.encode(),
                          {"Content-Type": "application/json", **(headers or {})})
        r = self.conn.getresponse()
        data = r.read()
        if r.status >= 500:
            self.errors.append(r.status)
        return data

    def run(self) -> None:
        while not self.stop.is_set():
            kind = self.rng.choices(KINDS, [3, 6, 3, 2, 1, 4, 1, 1, 1, 1, 1, 1, 1])[0]
            start = time.perf_counter()
            if kind == "page":
                self.request("GET", "/")
            elif kind == "view":
                self.request("GET", "/api/games/t")
            elif kind == "rev":
                self.request("GET", "/api/games/t/rev")
            elif kind == "board":
                self.request("GET", "/api/games/t/board.svg")
            elif kind == "list":
                self.request("GET", "/api/games")
            elif kind == "move":  # the move alone, not the view read to choose it
                self.times[kind].append(free_move(self.conn, "t"))
                continue
            elif kind == "undo":
                self.request("POST", "/api/games/t/undo", "{}")
            elif kind == "hint":
                self.request("GET", "/api/seat/t/hint", headers={"X-Drunter-Seat": self.token})
            elif kind == "takeback":
                self.request("POST", "/api/games/t/takeback", '{"keep": %d}' % self.rng.randrange(0, 40))
            elif kind == "replay":
                self.request("POST", "/api/games/t/replay", "{}")
            elif kind == "adjudicate":
                self.request("POST", "/api/games/t/adjudicate", '{"move": "S2 c3-c4"}')
            elif kind == "pause":
                self.request("POST", "/api/games/t/autoplay", '{"paused": %s}' % self.rng.choice(["true", "false"]))
            else:
                self.request("POST", "/api/games/t/moves", self.rng.choice(['{"move": 7}', "[1", '{"move": "\u202e"}']))
            self.times[kind].append(time.perf_counter() - start)


def clients_phase(port: int, clients: int, seconds: float) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    players = ["Anna", "Ben", "Cleo", "Dora"]
    assert call(conn, "POST", "/api/games", {"name": "t", "players": players, "hints": True, "deal": "random",
                                              "bots": {p: "medium" for p in players[1:]}})[0] == 201
    token = seat_tokens(conn, "t")["Anna"]
    assert call(conn, "POST", "/api/games", {"name": "other", "players": players, "deal": "random"})[0] == 201
    stop = threading.Event()
    crowd = [Client(port, i, stop, token) for i in range(clients)]
    for c in crowd:
        c.start()
    probe = Probe(port, "other", stop)
    probe.start()
    time.sleep(seconds)
    stop.set()
    for c in [probe, *crowd]:
        c.join(60)
    print(f"{clients} clients on one table for {seconds:.0f} s (load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores), 5xx answers: {sum(len(c.errors) for c in crowd)}")
    for kind in KINDS:
        xs = [t for c in crowd for t in c.times[kind]]
        print(f"  {kind:6} {len(xs):6} requests: {figures(xs) if xs else '-'}")
    print(f"  meanwhile, every 0.1 s: {probe.report()}")


def heavy(port: int, tables: int) -> None:
    """``tables`` games of four bots at a table's maximum search, playing on by themselves throughout."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    four = ["Anna", "Ben", "Cleo", "Dora"]
    for t in range(tables):
        status, answer = call(conn, "POST", "/api/games", {"name": f"heavy-{t}", "players": four, "deal": "random",
                                                            "bots": {p: f"ismcts:sims={TABLE_SIMS}" for p in four}})
        assert status == 201, answer
        call(conn, "POST", f"/api/games/heavy-{t}/autoplay", {"delay_ms": 0})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--flooders", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--skip", choices=["hints", "clients"], default=None)
    ap.add_argument("--heavy", type=int, default=0, help="games of four bots at a table's maximum search beside")
    ap.add_argument("--source", type=Path, default=ROOT,
                    help="the checkout whose drunter play serves (default: this one), to compare versions")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        proc = subprocess.Popen([sys.executable, "-c", RUN_CLI, "play", folder, "--port", "0", "--no-browser"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True,
                                env={"PYTHONPATH": str(args.source.resolve()), "PATH": "/usr/bin:/bin",
                                     "PYTHONDONTWRITEBYTECODE": "1"})
        try:
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
            assert found, "drunter play did not start"
            port = int(found[1])
            heavy(port, args.heavy)
            if args.skip != "hints":
                hints_phase(port, args.flooders, args.rounds)
            if args.skip != "clients":
                clients_phase(port, args.clients, args.seconds)
        finally:
            proc.terminate()
            proc.wait(30)


if __name__ == "__main__":
    main()
