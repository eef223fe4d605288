"""Fit the hidden-card model's priors on tuning tables, the way the shipped ``Model`` was fitted.

The tuning tables seat only the policies the model is *fitted* on (``policies.FITTED``):
never one of the held-out policies ``bench/calibration.py`` judges it on. Each game
draws its table's make-up at random -- how many deceivers (``bluffer``, ``decoy``,
``hider``), from none to all, each other seat an honest kind (``honest``,
``random-votes``, ``soft``, ``builder``) or, one time in ten, ``random`` -- and seats
them in random order. The beliefs are taken after turn 10, 20, 30 and at the end, and the
priors (``Model``'s fields named ``*_prior`` and ``*_mix``) are fitted by
coordinate search on the mean log-loss of the true card over all of them, so that
mid-game beliefs weigh as much as final ones. Prints the fitted priors as Python.

    python bench/fit.py --jobs 2                  # what the shipped Model's priors come from
"""
from __future__ import annotations

import argparse
import copy
import math
import random
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from policies import POLICIES

from drunter_notation.analysis.inference import Inference, Model, hypotheses
from drunter_notation.analysis.record import walk
from drunter_notation.bots.tournament import bot_game
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.load import judge

NAMES = ("Anna", "Ben", "Cleo", "Dora")
BUCKETS = (10, 20, 30)  # turns after which beliefs are judged, besides the end
HONEST_POOL = ("honest", "random-votes", "soft", "builder")
DECEIVER_POOL = ("bluffer", "decoy", "hider")  # hider: hides its game for eight moves
RANDOM_SHARE = 0.1  # the chance that an honest seat is taken by the random policy instead


def draw_table(players: int, rng: random.Random) -> tuple[str, ...]:
    """A tuning table: a number of deceivers from 0 to all, uniformly, the rest honest (or random), shuffled."""
    k = rng.randrange(players + 1)
    seats = [rng.choice(DECEIVER_POOL) for _ in range(k)]
    seats += ["random" if rng.random() < RANDOM_SHARE else rng.choice(HONEST_POOL) for _ in range(players - k)]
    rng.shuffle(seats)
    return tuple(seats)


class Snapshots:
    """An inference that keeps a copy of itself after the turns of :data:`BUCKETS`."""

    def __init__(self, players: tuple[str, ...]):
        self.inf = Inference(players, hypotheses("base", load_ruleset("hig-1991")), Model())
        self.turn, self.kept = 0, []
        self.uniform = self.inf.posterior()

    def observe_move(self, *a: Any) -> None:
        self.inf.observe_move(*a)

    def observe_ballot(self, *a: Any) -> None:
        self.inf.observe_ballot(*a)

    def posterior(self) -> Any:
        if self.turn in BUCKETS:
            self.kept.append(copy.deepcopy(self.inf))
        self.turn += 1
        return self.uniform  # walk's own per-turn beliefs are not used here


def one_game(job: tuple[tuple[str, ...], int, int]) -> tuple[dict[str, str], list[Inference]]:
    """Tuning game ``i`` of ``seed`` at ``seats``: the cards dealt, the inferences at each bucket and the end."""
    seats, seed, i = job
    names = NAMES[:len(seats)]
    g = bot_game(names, [POLICIES[s] for s in seats], seed, i)
    snaps = Snapshots(names)
    walk(judge(g.to_record(), keep_states=True), Model(), snaps)  # type: ignore[arg-type]  # duck-typed
    return {p: g.cards[p][0] for p in names}, [*snaps.kept, snaps.inf]


def loss(games: list[tuple[dict[str, str], list[Inference]]], model: Model) -> float:
    total = n = 0.0
    for truth, infs in games:
        for inf in infs:
            for p, b in inf.beliefs(model).items():
                total -= math.log(max(b[truth[p]], 1e-12))
                n += 1
    return total / n


def candidates(base: Model) -> Iterator[Model]:
    """One prior at a time: each of its weights a third or three times as large."""
    for name, xs in asdict(base).items():
        if name.endswith(("_prior", "_mix")):
            for k in range(len(xs)):
                for f in (1 / 3, 3.0):
                    yield base.with_priors(**{name: [x * (f if j == k else 1) for j, x in enumerate(xs)]})


def priors(model: Model) -> str:
    """The model's priors, one line."""
    return "; ".join(f"{name} " + "/".join(f"{x:.3f}" for x in xs)
                     for name, xs in asdict(model).items() if name.endswith(("_prior", "_mix")))


def _loss_job(args: tuple[list[tuple[dict[str, str], list[Inference]]], Model]) -> float:
    return loss(*args)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=160, help="tuning games with 4 players (3 and 2: half each)")
    ap.add_argument("--seed", type=int, default=1001, help="the tuning games' seed")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    jobs = max(1, min(args.jobs, 64))
    start = time.perf_counter()
    rng = random.Random(args.seed)
    todo = [(draw_table(n, rng), args.seed, i) for n, count in ((4, args.games), (3, args.games // 2),
                                                             (2, args.games // 2)) for i in range(1, count + 1)]
    with ProcessPoolExecutor(jobs) as pool:
        games = list(pool.map(one_game, todo, chunksize=4))
        best = Model()
        # Split the games so that the workers share each candidate's loss.
        parts = [games[w::jobs] for w in range(jobs)]

        def score(m: Model) -> float:
            return sum(pool.map(_loss_job, [(part, m) for part in parts])) / jobs

        best_loss = score(best)
        print(f"{len(games)} tuning games (seed {args.seed}) in {time.perf_counter() - start:.0f} s; "
              f"the default's log-loss {best_loss:.4f}", flush=True)
        for r in range(args.rounds):
            for m in list(candidates(best)):
                x = score(m)
                if x < best_loss - 1e-4:
                    best, best_loss = m, x
            print(f"round {r + 1}: log-loss {best_loss:.4f} ({time.perf_counter() - start:.0f} s)", flush=True)
    for name, xs in asdict(best).items():
        if name.endswith(("_prior", "_mix")):
            print(f"    {name}: tuple[float, ...] = ({', '.join(f'{x:.3f}' for x in xs)})")


if __name__ == "__main__":
    main()
