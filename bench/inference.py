"""Benchmark: how well ``drunter analyze`` finds the hidden building cards.

Plays games of four bots of one style through the Game API (``bots.tournament.
bot_game``: dealt as ``drunter simulate --seed S`` deals game i), runs the
inference over each record (``analysis.record.walk``) and scores its beliefs at the
end of the game against the revealed cards:

* top-1: how often the true card is the most probable one (chance: 1/6);
* ECE: expected calibration error of the most probable card (10 equal-width bins
  of confidence: |accuracy - confidence| weighted by the bin's share), and the same
  over every (player, card) probability ("ECE, all cards");
* mean top probability, and the log-loss of the true card.

``--tune`` first searches the model's free parameters (beta, vote_beta, abstain,
p_random; ``p_soft`` and ``soft_beta`` stay as set by hand: they describe a player
who is purposeful but misses the best move, whom no bot here plays) by log-loss on games of the *tuning* seed (default 1001), as many of
each style of ``--tune-styles`` (default greedy and random: a population of
purposeful and random players, which is what ``p_random`` describes), then reports
on the *report* seed (default 2001): tuned and reported games never overlap, and
the cautious bots are never tuned on. Nothing is asserted; it prints numbers.

    python bench/inference.py --games 1000 --styles greedy,cautious,random --jobs 2
    python bench/inference.py --tune --tune-games 200 --games 1000 --jobs 2   # what docs/analysis.md reports
"""
from __future__ import annotations

import argparse
import itertools
import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

from drunter_notation.analysis.inference import Model
from drunter_notation.analysis.record import walk
from drunter_notation.bots.tournament import bot_game
from drunter_notation.load import judge

PLAYERS = ("Anna", "Ben", "Cleo", "Dora")


def one_game(job):
    """(final beliefs, truth, evidence log or None) of game ``i`` with ``style`` bots."""
    style, seed, i, model, keep = job
    g = bot_game(PLAYERS, [style] * 4 if "," not in style else style.split(","), seed, i)
    t = judge(g.to_record(), keep_states=True)
    inf, _, turns, _, _ = walk(t, model, keep)
    truth = {p: g.cards[p][0] for p in PLAYERS}
    return turns[-1]["beliefs"], truth, inf if keep else None


def metrics(finals) -> dict:
    top1 = confs = logloss = 0.0
    bins_top = [[0, 0.0, 0.0] for _ in range(10)]  # count, sum of confidence, hits
    bins_all = [[0, 0.0, 0.0] for _ in range(10)]
    n = 0
    for beliefs, truth in finals:
        for p, b in beliefs.items():
            n += 1
            card, conf = max(b.items(), key=lambda kv: kv[1])
            hit = card == truth[p]
            top1 += hit
            confs += conf
            logloss -= math.log(max(b[truth[p]], 1e-12))
            k = min(int(conf * 10), 9)
            bins_top[k][0] += 1
            bins_top[k][1] += conf
            bins_top[k][2] += hit
            for c, x in b.items():
                k = min(int(x * 10), 9)
                bins_all[k][0] += 1
                bins_all[k][1] += x
                bins_all[k][2] += c == truth[p]

    def ece(bins):
        total = sum(b[0] for b in bins)
        return sum(abs(b[2] - b[1]) for b in bins if b[0]) / total

    return {"player-games": n, "top1": top1 / n, "ece": ece(bins_top), "ece_all": ece(bins_all),
            "mean_top": confs / n, "logloss": logloss / n, "bins": [(b[0], b[1] / b[0], b[2] / b[0]) for b in bins_top
                                                                      if b[0]]}


def run(style, seed, games, model, jobs, keep=False):
    jobs_list = [(style, seed, i, model, keep) for i in range(1, games + 1)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            return list(pool.map(one_game, jobs_list, chunksize=8))
    return [one_game(j) for j in jobs_list]


def tune(results, base: Model) -> Model:
    """The grid point with the lowest log-loss on ``results`` (kept evidence)."""
    best = None
    grid = itertools.product((4.0, 8.0, 16.0, 32.0), (0.3, 1.0, 3.0), (-1.0, 0.0, 1.0), (0.3, 0.5, 0.7))
    for beta, vote_beta, abstain, p_random in grid:
        model = replace(base, beta=beta, vote_beta=vote_beta, abstain=abstain, p_random=p_random)
        finals = [(inf.rescored(model).beliefs(), truth) for _, truth, inf in results]
        m = metrics(finals)
        if best is None or m["logloss"] < best[0]["logloss"]:
            best = (m, model)
    print(f"tuned on {len(results)} games: {best[1]} -> log-loss {best[0]['logloss']:.3f}, top-1 "
          f"{best[0]['top1']:.1%}, ECE {best[0]['ece']:.3f}")
    return best[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="games per style reported")
    ap.add_argument("--styles", default="greedy,cautious,random",
                    help="bot styles to report on, one after another (4 bots of the style)")
    ap.add_argument("--seed", type=int, default=2001, help="seed of the reported games")
    ap.add_argument("--tune", action="store_true", help="search the model's parameters first")
    ap.add_argument("--tune-games", type=int, default=200)
    ap.add_argument("--tune-seed", type=int, default=1001)
    ap.add_argument("--tune-styles", default="greedy,random")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    model = Model()
    if args.tune:
        start = time.perf_counter()
        results = [r for style in args.tune_styles.split(",")
                   for r in run(style, args.tune_seed, args.tune_games, model, args.jobs, keep=True)]
        model = tune(results, model)
        print(f"  ({time.perf_counter() - start:.0f} s)")
    print(f"model: {model}")
    print(f"{'bots':<10} {'games':>6} {'top-1':>7} {'ECE':>6} {'ECE all':>8} {'mean top p':>11} {'log-loss':>9}")
    for style in args.styles.split(","):
        start = time.perf_counter()
        m = metrics([(b, t) for b, t, _ in run(style, args.seed, args.games, model, args.jobs)])
        print(f"{style:<10} {args.games:>6} {m['top1']:7.1%} {m['ece']:6.3f} {m['ece_all']:8.3f} "
              f"{m['mean_top']:11.3f} {m['logloss']:9.3f}   ({time.perf_counter() - start:.0f} s)")
        print("           reliability (confidence bin: n, mean confidence, accuracy): "
              + ", ".join(f"{n} {c:.2f} {a:.2f}" for n, c, a in m["bins"]))


if __name__ == "__main__":
    main()
