"""How fast a move reaches the other devices of ``drunter play``, on loopback.

A 4-player game is played through the seats' API; a host page and the four seats
listen as the pages do (the event stream, then their own view fetched on each change),
and each records when it holds the new turn's view. Side by side in the same run, the
peer: a client that polls ``/rev`` every 1.5 s as the page did before the push (then
fetches the game). Prints p50/p95/max per listener kind and the load average; bounded
(``--moves``, default 200).

    python bench/play_push.py
    python bench/play_push.py --moves 60
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUN_CLI = "import sys; from drunter_notation.cli import main; sys.argv[0] = 'drunter'; main()"
PLAYERS = ["Anna", "Ben", "Cleo", "Dora"]
POLL = 1.5  # seconds: the interval of the page's former polling


def call(conn: http.client.HTTPConnection, method: str, path: str, body=None, headers=None) -> tuple[int, dict]:
    conn.request(method, path, None if body is None else json.dumps(body),
                 {"Content-Type": "application/json", **(headers or {})})
    r = conn.getresponse()
    return r.status, json.loads(r.read())


class Listener(threading.Thread):
    """A page: the game's event stream, and on each change its own view fetched; notes
    when it first holds each turn."""

    def __init__(self, port: int, game: str, token: str | None):
        super().__init__(daemon=True)
        self.port, self.game, self.token = port, game, token
        self.seen: dict[int, float] = {}  # turn -> when this page first held it
        self.ready = threading.Event()

    def run(self):
        headers = {"X-Drunter-Seat": self.token} if self.token else {}
        view = f"/api/seat/{self.game}" if self.token else f"/api/games/{self.game}"
        fetch = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        stream = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        stream.request("GET", view + "/events" if self.token else f"/api/games/{self.game}/events", headers=headers)
        r = stream.getresponse()
        while True:
            line = r.readline()
            if not line:
                return
            if line.startswith(b"event: change"):
                _, state = call(fetch, "GET", view, headers=headers)
                self.seen.setdefault(state["turn"], time.perf_counter())
                self.ready.set()


class Poller(threading.Thread):
    """The peer: the page as it was, polling /rev every 1.5 s and fetching the game on a change."""

    def __init__(self, port: int, game: str, stop: threading.Event):
        super().__init__(daemon=True)
        self.port, self.game, self.stop = port, game, stop
        self.seen: dict[int, float] = {}

    def run(self):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        rev = None
        while not self.stop.wait(POLL):
            _, r = call(conn, "GET", f"/api/games/{self.game}/rev")
            if r["rev"] != rev:
                rev = r["rev"]
                _, state = call(conn, "GET", f"/api/games/{self.game}")
                self.seen.setdefault(state["turn"], time.perf_counter())


def figures(delays: list[float]) -> str:
    ms = sorted(d * 1000 for d in delays)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return f"n={len(ms)}  p50 {statistics.median(ms):7.1f} ms  p95 {p95:7.1f} ms  max {ms[-1]:7.1f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=200, help="moves to measure, 1 to 5,000 (default 200)")
    args = ap.parse_args()
    moves = max(1, min(args.moves, 5000))
    folder = tempfile.mkdtemp(prefix="play-push-")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    server = subprocess.Popen([sys.executable, "-c", RUN_CLI, "play", folder, "--port", "0", "--no-browser"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        port = int(re.search(r":(\d+)/", server.stdout.readline())[1])
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        delays: dict[str, list[float]] = {"host page": [], "other seats": [], "polling peer": []}
        k = done = 0
        while done < moves:
            game = f"push-{k}"
            k += 1
            status, state = call(conn, "POST", "/api/games", {"name": game, "players": PLAYERS, "deal": "random"})
            assert status == 201, state
            _, links = call(conn, "GET", f"/api/games/{game}/seats")
            tokens = {s["player"]: s["links"][0].split("#")[1] for s in links["seats"]}
            host = Listener(port, game, None)
            seats = {p: Listener(port, game, t) for p, t in tokens.items()}
            stop = threading.Event()
            poller = Poller(port, game, stop)
            for t in (host, *seats.values(), poller):
                t.start()
            for t in (host, *seats.values()):
                t.ready.wait(10)
            sent: dict[int, tuple[float, str]] = {}
            while not state["over"] and done < moves:
                mover, turn = state["to_move"], state["turn"]
                plain = [m for m in state["legal"] if not m["needs_vote"]]
                if plain or not state["legal"]:
                    body, path, headers = {"move": plain[0]["move"] if plain else "pass", "turn": turn}, \
                        f"/api/seat/{game}/moves", {"X-Drunter-Seat": tokens[mover]}
                else:  # only a vote is possible: the host enters it, the cards turned over at the table
                    body, path, headers = {"move": state["legal"][0]["move"], "turn": turn,
                                           "vote": {p: ["?"] for p in PLAYERS}}, f"/api/games/{game}/moves", {}
                sent[turn + 1] = (time.perf_counter(), mover)
                status, state = call(conn, "POST", path, body, headers)
                assert status == 200, state
                done += 1
                time.sleep(POLL / 3)  # a table's pace, and the poller's phase varies from move to move
            time.sleep(POLL + 0.2)
            stop.set()
            for turn, (at, mover) in sent.items():
                for kind, pages in (("host page", [host]), ("other seats", [s for p, s in seats.items() if p != mover]),
                                    ("polling peer", [poller])):
                    for page in pages:  # when the page first held this turn or a later one
                        held = [when for t, when in page.seen.items() if t >= turn]
                        if held:
                            delays[kind].append(min(held) - at)
        print(f"drunter play, a move until the other devices show it, {done} moves, loopback "
              f"(load average {open('/proc/loadavg').read().split()[0]}):")
        for kind, d in delays.items():
            print(f"  {kind:13} {figures(d)}")
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main()
