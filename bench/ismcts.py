"""Benchmark: how strong is the ``ismcts`` search bot? One ``ismcts`` seat against
three ``greedy`` seats, 4 players, the seats rotating every game (game i as
``drunter tournament --bots ismcts,greedy,greedy,greedy --seed S`` plays it).

Prints the bot's win share (a win shared by k counts 1/k) with its 95 % Wilson
interval, against the fair share 0.25, and the time of each of its decisions
(placements apart from ballots, JEIN sides and expert choices): mean and max of
the wall time and of the process's CPU time (what a quiet core would take, when
other work shares the cores), and the simulations run. ``--tune`` first plays a grid of exploration constants and
rollout policies on tuning games (``--tune-seed``, never the reported seed) and
reports with the best setting. The machine's load average is printed at the start
and at the end: times per move measured under load are longer than on a quiet
core.

    python bench/ismcts.py [--games 200] [--seed 2001] [--sims 200] [--time T] [--c 0.7]
                           [--policy greedy] [--opponent greedy] [--jobs 1]
                           [--tune --tune-games 40 --tune-seed 1001]
"""
from __future__ import annotations

import argparse
import functools
import os
import platform
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from drunter_notation.bots import IsmctsBot, make_bot
from drunter_notation.bots.tournament import Match, lean_game, summarize

KINDS = ("pick", "lay", "side", "keep")


class Timed(IsmctsBot):
    """The bot, keeping (kind, seconds, simulations) of each decision it makes."""

    def begin(self, seat, goals):
        super().begin(seat, goals)
        self.log: list[tuple[str, float, int]] = []

    def _timed(self, kind, method, *args):
        self.simulations = 0
        start, cpu = time.perf_counter(), time.process_time()
        answer = method(*args)
        self.log.append((kind, time.perf_counter() - start, self.simulations, time.process_time() - cpu))
        return answer

    def pick(self, pl, moves):
        return self._timed("pick", super().pick, pl, moves)

    def lay(self, pl, move):
        return self._timed("lay", super().lay, pl, move)

    def side(self, pl, move, laid):
        return self._timed("side", super().side, pl, move, laid)

    def keep(self, pl, goals):
        return self._timed("keep", super().keep, pl, goals)


def _make(settings: dict, made: list, name: str, seed: str):
    if name != "ismcts":
        return make_bot(name, seed)
    bot = Timed(seed, **settings)
    made.append(bot)
    return bot


def game(match: Match, settings: dict, i: int):
    """Game ``i``: (entrant per seat, winners, the ismcts bot's decision log)."""
    made: list = []
    seats, winners = lean_game(match, i, functools.partial(_make, settings, made))
    return seats, winners, made[0].log


def run(seed: int, games: int, settings: dict, jobs: int, opponent: str = "greedy"):
    match = Match(("ismcts", opponent, opponent, opponent), seed)
    play = functools.partial(game, match, settings)
    results = []
    with ProcessPoolExecutor(jobs) as pool:
        for i, (seats, winners, log) in enumerate(pool.map(play, range(1, games + 1)), start=1):
            results.append((seats, winners, log))
            won = sum(1 / len(winners) for w in winners if seats[w] == 0)
            print(f"  game {i}: ismcts in seat {seats.index(0) + 1}, won {won:.2f}", file=sys.stderr, flush=True)
    entrants, _ = summarize(match.names, [(s, w) for s, w, _ in results])
    return entrants[0], [entry for _, _, log in results for entry in log]


def describe(label: str, rate, log) -> None:
    print(f"{label}: ismcts won {rate.wins:.1f} of {rate.games} games: {rate.rate:.3f}, "
          f"95 % interval {rate.low:.3f} - {rate.high:.3f} (fair share 0.250)")
    for kind in KINDS:
        times = [t for k, t, s, _ in log if k == kind and s]
        cpu = [c for k, _, s, c in log if k == kind and s]
        sims = [s for k, _, s, _ in log if k == kind and s]
        alone = sum(1 for k, _, s, _ in log if k == kind and not s)
        if times:
            print(f"  {kind:<5} {len(times):6d} searched ({alone} with one option, not searched)  "
                  f"wall time mean {statistics.mean(times):.3f} s  max {max(times):.3f} s;  "
                  f"CPU time mean {statistics.mean(cpu):.3f} s  max {max(cpu):.3f} s;  "
                  f"simulations mean {statistics.mean(sims):.0f}")


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2001, help="the reported games' seed")
    ap.add_argument("--sims", type=int, default=200)
    ap.add_argument("--time", type=float, default=None)
    ap.add_argument("--c", type=float, default=0.7)
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--opponent", default="greedy", help="the bot in the three other seats (reported games only)")
    ap.add_argument("--tune", action="store_true", help="choose c and the policy on the tuning games first")
    ap.add_argument("--tune-games", type=int, default=40)
    ap.add_argument("--tune-seed", type=int, default=1001)
    ap.add_argument("--grid-c", default="0.3,0.7,1.5")
    ap.add_argument("--grid-policy", default="greedy")
    args = ap.parse_args()
    if args.tune_seed == args.seed:
        sys.exit("bench/ismcts.py: the tuning seed must differ from the reported seed")
    print(f"Python {platform.python_version()}, {os.cpu_count()} cores; load average at the start {load()}")
    settings = {"sims": args.sims, "time": args.time, "c": args.c, "policy": args.policy}
    if args.tune:
        best = None
        for policy in args.grid_policy.split(","):
            for c in (float(x) for x in args.grid_c.split(",")):
                tried = dict(settings, c=c, policy=policy)
                rate, log = run(args.tune_seed, args.tune_games, tried, args.jobs)
                describe(f"tuning, seed {args.tune_seed}, c {c}, policy {policy}", rate, log)
                if best is None or rate.rate > best[0]:
                    best = (rate.rate, tried)
        settings = best[1]
        print(f"chosen on the tuning games: c {settings['c']}, policy {settings['policy']}")
    started = time.perf_counter()
    rate, log = run(args.seed, args.games, settings, args.jobs, args.opponent)
    describe(f"reported, against 3 {args.opponent}, seed {args.seed}, sims {settings['sims']}, time {settings['time']}, c {settings['c']}, "
             f"policy {settings['policy']}", rate, log)
    print(f"{time.perf_counter() - started:.0f} s of wall time, --jobs {args.jobs}; "
          f"load average at the end {load()}")


if __name__ == "__main__":
    main()
