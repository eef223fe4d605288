"""Fit the hidden-card model's priors on tuning tables, the way the shipped ``Model`` was fitted.

The tuning tables seat only the policies the model is *fitted* on (``policies.FITTED``):
never one of the held-out policies ``bench/calibration.py`` judges it on. Each game
draws its table's make-up at random -- how many deceivers (``bluffer``, ``decoy``,
``hider``), from none to all, each other seat an honest kind (``honest``,
``random-votes``, ``soft``, ``builder``) or, one time in ten, ``random`` -- and seats
them in random order. The beliefs are taken after turn 10, 20, 30 and at the end, and the
priors (``Model``'s fields named ``*_prior``) are fitted by
coordinate search on the mean log-loss of the true card over all of them, so that
mid-game beliefs weigh as much as final ones. Prints the fitted priors as Python.

``--map`` then fits a calibration map on the fitted model's beliefs, on the same
loss (:class:`Calibration`: a player's card probabilities raised to a power that
depends on how many of their moves carried evidence, renormalised), and prints the
tuning tables' figures per turn (top-1, ECE, mean top p, log-loss) without and with
it. ``--rounds 0 --map`` fits the map alone, on the shipped priors.

    python bench/fit.py --jobs 2                  # what the shipped Model's priors come from
    python bench/fit.py --rounds 0 --map          # the calibration map on the shipped model
"""
from __future__ import annotations

import argparse
import copy
import math
import random
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from pathlib import Path
from typing import Any, NamedTuple

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


class TuningGame(NamedTuple):
    """One tuning game: the cards dealt, the inference after each turn of :data:`BUCKETS` the game
    reached and at the end, and with each, per player, the moves that carried evidence so far."""

    truth: dict[str, str]
    infs: list[Inference]
    moves: list[dict[str, int]]


class Snapshots:
    """An inference that keeps a copy of itself after the turns of :data:`BUCKETS`."""

    def __init__(self, players: tuple[str, ...]):
        self.inf = Inference(players, hypotheses("base", load_ruleset("hig-1991")), Model())
        self.turn, self.kept, self.kept_moves = 0, [], []
        self.moves = dict.fromkeys(players, 0)
        self.uniform = self.inf.posterior()

    def observe_move(self, player: str, pl: Any, moves: Sequence[Any], chosen: int) -> None:
        self.inf.observe_move(player, pl, moves, chosen)
        self.moves[player] += len(moves) > 1  # a single legal move is no evidence

    def observe_ballot(self, *a: Any) -> None:
        self.inf.observe_ballot(*a)

    def posterior(self) -> Any:
        if self.turn in BUCKETS:
            self.kept.append(copy.deepcopy(self.inf))
            self.kept_moves.append(dict(self.moves))
        self.turn += 1
        return self.uniform  # walk's own per-turn beliefs are not used here


def one_game(job: tuple[tuple[str, ...], int, int]) -> TuningGame:
    """Tuning game ``i`` of ``seed`` at ``seats``."""
    seats, seed, i = job
    names = NAMES[:len(seats)]
    g = bot_game(names, [POLICIES[s] for s in seats], seed, i)
    snaps = Snapshots(names)
    walk(judge(g.to_record(), keep_states=True), Model(), snaps)  # type: ignore[arg-type]  # duck-typed
    return TuningGame({p: g.cards[p][0] for p in names}, [*snaps.kept, snaps.inf], [*snaps.kept_moves, snaps.moves])


def loss(games: list[TuningGame], model: Model) -> float:
    total = n = 0.0
    for truth, infs, _ in games:
        for inf in infs:
            for p, b in inf.beliefs(model).items():
                total -= math.log(max(b[truth[p]], 1e-12))
                n += 1
    return total / n


def candidates(base: Model) -> Iterator[Model]:
    """One prior at a time: each of its weights a third or three times as large."""
    for name, xs in asdict(base).items():
        if name.endswith("_prior"):
            for k in range(len(xs)):
                for f in (1 / 3, 3.0):
                    yield base.with_priors(**{name: [x * (f if j == k else 1) for j, x in enumerate(xs)]})


def priors(model: Model) -> str:
    """The model's priors, one line."""
    return "; ".join(f"{name} " + "/".join(f"{x:.3f}" for x in xs)
                     for name, xs in asdict(model).items() if name.endswith("_prior"))


def _loss_job(args: tuple[list[TuningGame], Model]) -> float:
    return loss(*args)


class Calibration(NamedTuple):
    """A calibration map on the beliefs: a player's card probabilities raised to the power a(n) and
    renormalised, n their moves that carried evidence so far, a(n) = end + (start - end) exp(-n / moves).
    The default is no map (a = 1)."""

    start: float = 1.0
    end: float = 1.0
    moves: float = 8.0

    def apply(self, beliefs: dict[str, float], n: int) -> dict[str, float]:
        a = self.end + (self.start - self.end) * math.exp(-n / self.moves)
        powered = {c: p ** a for c, p in beliefs.items()}
        z = sum(powered.values())
        return {c: p / z for c, p in powered.items()}

    def steps(self) -> Iterator[Calibration]:
        """One parameter at a time: a power 0.2 or 0.05 up or down, the number of moves halved or doubled."""
        for step in (-0.2, -0.05, 0.05, 0.2):
            yield self._replace(start=round(self.start + step, 3))
            yield self._replace(end=round(self.end + step, 3))
        for f in (0.5, 2.0):
            yield self._replace(moves=max(1.0, self.moves * f))


# Per tuning game, per snapshot: (the true cards, per player their beliefs and their moves with evidence).
Scored = list[list[tuple[dict[str, str], dict[str, dict[str, float]], dict[str, int]]]]


def scored(games: list[TuningGame], model: Model) -> Scored:
    return [[(g.truth, inf.beliefs(model), moves) for inf, moves in zip(g.infs, g.moves, strict=True)] for g in games]


def map_loss(beliefs: Scored, cal: Calibration) -> float:
    """The fit's loss (:func:`loss`) of beliefs under the map ``cal``."""
    total, n = 0.0, 0
    for game in beliefs:
        for truth, per_player, moves in game:
            for p, b in per_player.items():
                total -= math.log(max(cal.apply(b, moves[p])[truth[p]], 1e-12))
                n += 1
    return total / n


def fit_map(beliefs: Scored, rounds: int = 6) -> tuple[Calibration, float]:
    """The map of least :func:`map_loss`, by coordinate search from no map."""
    best = Calibration()
    best_loss = map_loss(beliefs, best)
    for _ in range(rounds):
        for cal in list(best.steps()):
            x = map_loss(beliefs, cal)
            if x < best_loss - 1e-5:
                best, best_loss = cal, x
    return best, best_loss


def by_turn(beliefs: Scored, cal: Calibration) -> list[str]:
    """The tuning tables' beliefs under the map ``cal``, per turn of :data:`BUCKETS` and at the end:
    top-1, ECE (± bootstrap SE over games), mean top p, log-loss (``bench/inference.py``'s metrics)."""
    from inference import metrics  # imported here: bench/inference.py imports this module

    lines = []
    for b, label in enumerate([*(f"after turn {t}" for t in BUCKETS), "at the end"]):
        cases = [(g, cal.apply(x, moves[p]), truth[p]) for g, game in enumerate(beliefs)
                 if b == len(BUCKETS) or b < len(game) - 1
                 for truth, per_player, moves in [game[-1 if b == len(BUCKETS) else b]]
                 for p, x in per_player.items()]
        m = metrics(cases)
        lines.append(f"  {label}: {m['n']} beliefs, top-1 {m['top1']:.3f} ±{m['top1_se']:.3f}, ECE {m['ece']:.3f} "
                     f"±{m['ece_se']:.3f}, mean top p {m['mean_top']:.3f}, log-loss {m['logloss']:.4f} "
                     f"±{m['logloss_se']:.4f}")
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=160, help="tuning games with 4 players (3 and 2: half each)")
    ap.add_argument("--seed", type=int, default=1001, help="the tuning games' seed")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--map", action="store_true", help="then fit a calibration map on the fitted model's beliefs")
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
        if name.endswith("_prior"):
            print(f"    {name}: tuple[float, ...] = ({', '.join(f'{x:.3f}' for x in xs)})")
    if args.map:
        beliefs = scored(games, best)
        cal, cal_loss = fit_map(beliefs)
        print(f"\nThe calibration map: a(n) = {cal.end:.3f} + ({cal.start:.3f} - {cal.end:.3f}) exp(-n / {cal.moves:.1f}); "
              f"log-loss {map_loss(beliefs, Calibration()):.4f} without it, {cal_loss:.4f} with it")
        for label, c in (("without the map", Calibration()), ("with the map", cal)):
            print(f"The tuning tables {label}:", *by_turn(beliefs, c), sep="\n")


if __name__ == "__main__":
    main()
