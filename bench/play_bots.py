"""The bots of ``drunter play`` on this machine: how long the default strong bot takes
to answer, and whether the table stays quick and fair while bots think.

1. The strong bot (``table.bots.LEVELS["strong"]``) decides at positions taken from
   greedy games (every few turns of two 4-player games on schilda): median, p90, max.
2. A ``drunter play`` server on loopback (127.0.0.1): a light table (4 greedy bots, no
   pause between actions) alone for ``--seconds`` (the heavy tables paused), then beside ten
   heavy tables (4 bots each at a table's maximum, ``ismcts:sims=TABLE_SIMS``) for as long,
   ``--rounds`` times in turn: its turns per minute side by side (a light game that ends is
   deleted and made anew). Meanwhile a
   table of people is asked (the game's view, a move): p50/p95/max of its answers.
3. Every bot table paused: the server's CPU (its process and its workers) per second
   of wall time over ``--seconds``, side by side with the same while they played.
   Bounded: ``--positions`` decisions, ``--requests`` requests, ``--seconds`` per phase.

    python bench/play_bots.py
    python bench/play_bots.py --positions 10 --requests 60 --seconds 10
    python bench/play_bots.py --positions 4 --seconds 10 --rounds 4
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
from drunter_notation.table.bots import LEVELS, TABLE_SIMS, Job, decide

RUN_CLI = "import sys; from drunter_notation.cli import main; sys.argv[0] = 'drunter'; main()"
PLAYERS = ["Anna", "Ben", "Cleo", "Dora"]
TABLES = 10  # heavy tables beside the light one


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
    for again in (True, False):  # a connection idle past the server's keep-alive is closed: open it anew, once
        try:
            conn.request(method, path, None if body is None else json.dumps(body), {"Content-Type": "application/json"})
            r = conn.getresponse()
            return r.status, json.loads(r.read())
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            conn.close()
            if not again:
                raise
    raise AssertionError("unreachable")


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


def cpu_seconds(group: int) -> float:
    """CPU seconds used so far by the live processes of the process group ``group`` (Linux /proc)."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


class Light:
    """The light table: 4 greedy bots; its turns counted across the games it plays."""

    def __init__(self, conn: http.client.HTTPConnection):
        self.conn, self.turns, self.games = conn, 0, 0
        self.make()

    def make(self) -> None:
        self.games += 1
        status, _ = call(self.conn, "POST", "/api/games", {"name": "light", "players": PLAYERS, "deal": "random",
                                                           "bots": {p: "easy" for p in PLAYERS}})
        assert status == 201, status
        call(self.conn, "POST", "/api/games/light/autoplay", {"delay_ms": 0})
        self.base = 1

    def now(self) -> int:
        """Turns played so far (a game over is deleted and another made)."""
        _, g = call(self.conn, "GET", "/api/games/light")
        if g["over"]:
            self.turns += g["turn"] - self.base
            call(self.conn, "DELETE", "/api/games/light", {})
            self.make()
            return self.turns
        return self.turns + g["turn"] - self.base


def per_minute(light: Light, seconds: float, work=None) -> float:
    """The light table's turns per minute over ``seconds`` (``work()``, if given, runs meanwhile)."""
    start, t0 = light.now(), time.monotonic()
    while time.monotonic() - t0 < seconds:
        if work is not None:
            work()
        else:
            time.sleep(0.2)
        light.now()
    return (light.now() - start) * 60 / (time.monotonic() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=24)
    ap.add_argument("--requests", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--rounds", type=int, default=1, help="alone and beside the heavy tables in turn, this many times")
    args = ap.parse_args()
    answers = strong_answers(args.positions)
    print(f"strong bot ({LEVELS['strong']}), {len(answers)} decisions: median {statistics.median(answers):.2f} s, "
          f"p90 {sorted(answers)[int(0.9 * (len(answers) - 1))]:.2f} s, max {max(answers):.2f} s")
    heavy = f"ismcts:sims={TABLE_SIMS}"
    with tempfile.TemporaryDirectory() as folder:
        proc = subprocess.Popen([sys.executable, "-c", RUN_CLI, "play", folder, "--port", "0", "--no-browser"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, start_new_session=True)
        try:
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
            assert found, "drunter play did not start"
            conn = http.client.HTTPConnection("127.0.0.1", int(found[1]), timeout=60)
            light = Light(conn)
            heavy_tables = [f"heavy-{t}" for t in range(TABLES)]
            for name in heavy_tables:
                status, answer = call(conn, "POST", "/api/games", {"name": name, "players": PLAYERS, "deal": "random",
                                                                    "bots": {p: heavy for p in PLAYERS}})
                assert status == 201, answer
                call(conn, "POST", f"/api/games/{name}/autoplay", {"paused": True, "delay_ms": 0})
            assert call(conn, "POST", "/api/games", {"name": "people", "players": PLAYERS, "deal": "random"})[0] == 201
            asked: list[float] = []
            pairs: list[tuple[float, float]] = []
            for _ in range(args.rounds):  # alone and beside in turn, so the machine's drift falls on both alike
                time.sleep(1)  # the pause reaches the workers (they are killed within a second)
                alone = per_minute(light, args.seconds)
                for name in heavy_tables:
                    call(conn, "POST", f"/api/games/{name}/autoplay", {"paused": False})
                cpu0, wall0 = cpu_seconds(proc.pid), time.monotonic()
                beside = per_minute(light, args.seconds, lambda: asked.extend(timed(conn, "people", 1))
                                    if len(asked) < 2 * args.requests else time.sleep(0.2))
                playing = (cpu_seconds(proc.pid) - cpu0) / (time.monotonic() - wall0)
                pairs.append((alone, beside))
                for name in heavy_tables:
                    call(conn, "POST", f"/api/games/{name}/autoplay", {"paused": True})
            load = os.getloadavg()[0]
            call(conn, "POST", "/api/games/light/autoplay", {"paused": True})
            time.sleep(1)  # the pause reaches the workers (they are killed within a second)
            cpu0, wall0 = cpu_seconds(proc.pid), time.monotonic()
            quiet = timed(conn, "people", args.requests // 4)
            time.sleep(max(0.0, args.seconds - (time.monotonic() - wall0)))
            paused = (cpu_seconds(proc.pid) - cpu0) / (time.monotonic() - wall0)
            turns = [call(conn, "GET", f"/api/games/heavy-{t}")[1]["turn"] for t in range(TABLES)]
        finally:
            proc.terminate()
            proc.wait(30)
    for alone, beside in pairs:
        print(f"the light table (4 x greedy), turns per minute: alone {alone:.0f}, beside {TABLES} tables of "
              f"4 x {heavy} {beside:.0f} ({beside / alone:.0%})")
    print(f"its pace beside them, median of {len(pairs)} rounds: "
          f"{statistics.median(b / a for a, b in pairs):.0%} of its pace alone ({light.games} games)")
    print(f"the people's table beside them (load average {load:.1f} on {os.cpu_count()} cores), "
          f"{len(asked)} answers: {figures(asked)}; the bots paused: {figures(quiet)}")
    print(f"the server's CPU per second: while the bots play {playing:.2f} s, all paused {paused:.2f} s")
    print(f"turns the heavy tables reached meanwhile: {turns}")


if __name__ == "__main__":
    main()
