"""The bots of ``drunter play`` on this machine: how long the default strong bot takes
to answer, and whether the table stays quick while bots think.

1. The strong bot (``table.bots.LEVELS["strong"]``) decides at positions taken from
   greedy games (every few turns of two 4-player games on schilda): median, p90, max.
2. A ``drunter play`` server on loopback (127.0.0.1) with 4 tables of 4 strong bots
   playing at once (no pause between actions), and a fifth table of people: its
   requests (the game's view, a move, the view again) timed while the bots think,
   then with the bots paused, side by side. Prints p50/p95/max and the load average.
   Bounded: ``--positions`` decisions, ``--requests`` requests per phase.

    python bench/play_bots.py
    python bench/play_bots.py --positions 10 --requests 60
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
import time

from drunter_notation.bots.tournament import bot_game
from drunter_notation.game import Game
from drunter_notation.table.bots import LEVELS, Job, decide

RUN_CLI = "import sys; from drunter_notation.cli import main; sys.argv[0] = 'drunter'; main()"
PLAYERS = ["Anna", "Ben", "Cleo", "Dora"]
TABLES = 4


def strong_answers(positions: int) -> list[float]:
    """Seconds the strong bot takes per decision, at up to ``positions`` positions."""
    times: list[float] = []
    for i in (1, 2):
        played = bot_game(PLAYERS, ["greedy"] * 4, 7, i)
        for k in range(0, len(played.events), 5):
            g = Game.from_dn(played.to_dn())
            while len(g.events) > k:
                g.pop()
            if g.is_over() or g.choice_due or len(g.legal_moves()) < 2:
                continue
            p = g.to_move
            job = Job("bench", "move", p, LEVELS["strong"], g.to_dn(), "bench.dn", tuple(g.cards[p]), g.turn)
            start = time.perf_counter()
            decide(job)
            times.append(time.perf_counter() - start)
            if len(times) == positions:
                return times
    return times


def call(conn: http.client.HTTPConnection, method: str, path: str, body=None) -> tuple[int, dict]:
    conn.request(method, path, None if body is None else json.dumps(body), {"Content-Type": "application/json"})
    r = conn.getresponse()
    return r.status, json.loads(r.read())


def timed(conn: http.client.HTTPConnection, game: str, requests: int) -> list[float]:
    """Latency of the people's table: its view, then (its turn) a move or (no move left) an undo."""
    out = []
    for _ in range(requests):
        start = time.perf_counter()
        _, g = call(conn, "GET", f"/api/games/{game}")
        out.append(time.perf_counter() - start)
        free = [m["move"] for m in g["legal"] if not m["needs_vote"]]
        start = time.perf_counter()
        if free and not g["over"]:
            call(conn, "POST", f"/api/games/{game}/moves", {"move": free[0], "turn": g["turn"]})
        else:
            call(conn, "POST", f"/api/games/{game}/undo", {})
        out.append(time.perf_counter() - start)
    return out


def figures(xs: list[float]) -> str:
    xs = sorted(xs)
    return (f"p50 {statistics.median(xs) * 1000:.0f} ms, p95 {xs[int(0.95 * (len(xs) - 1))] * 1000:.0f} ms, "
            f"max {xs[-1] * 1000:.0f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=24)
    ap.add_argument("--requests", type=int, default=100)
    args = ap.parse_args()
    answers = strong_answers(args.positions)
    print(f"strong bot ({LEVELS['strong']}), {len(answers)} decisions: median {statistics.median(answers):.2f} s, "
          f"p90 {sorted(answers)[int(0.9 * (len(answers) - 1))]:.2f} s, max {max(answers):.2f} s")
    with tempfile.TemporaryDirectory() as folder:
        proc = subprocess.Popen([sys.executable, "-c", RUN_CLI, "play", folder, "--port", "0", "--no-browser"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
            assert found, "drunter play did not start"
            conn = http.client.HTTPConnection("127.0.0.1", int(found[1]), timeout=60)
            for t in range(TABLES):
                status, _ = call(conn, "POST", "/api/games", {"name": f"bots-{t}", "players": PLAYERS, "deal": "random",
                                                               "bots": {p: "strong" for p in PLAYERS}})
                assert status == 201
                call(conn, "POST", f"/api/games/bots-{t}/autoplay", {"delay_ms": 0})
            assert call(conn, "POST", "/api/games", {"name": "people", "players": PLAYERS, "deal": "random"})[0] == 201
            busy = timed(conn, "people", args.requests)
            load = os.getloadavg()[0]
            for t in range(TABLES):
                call(conn, "POST", f"/api/games/bots-{t}/autoplay", {"paused": True})
            time.sleep(3)  # the thoughts begun finish (their answers are dropped)
            quiet = timed(conn, "people", args.requests)
            turns = [call(conn, "GET", f"/api/games/bots-{t}")[1]["turn"] for t in range(TABLES)]
        finally:
            proc.terminate()
            proc.wait(30)
    print(f"the people's table while {TABLES} tables of bots think (load average {load:.1f} on "
          f"{os.cpu_count()} cores): {figures(busy)}")
    print(f"the same, the bots paused: {figures(quiet)}")
    print(f"turns the bots' tables reached meanwhile: {turns}")


if __name__ == "__main__":
    main()
