"""Benchmark: what no reading of the evidence can do at the honest and the decoy table after turn 20.

``bench/tables.py``'s honest table (four ``honest`` players) is under-confident after turn 20
and its decoy table (four ``decoy`` players) over-confident. This measures, on the same games
(seed 7730 by default, the held-out one), why one reading of the evidence cannot serve both,
with the policies' own code as the ground truth (``bench/policies.py``):

1. **The same record.** A ``decoy`` player is an ``honest`` one that also spares a second type
   (drawn by its own random generator, as every ``honest`` player draws one and ignores it),
   so game i of the honest table and game i of the decoy table (the same deal, the same
   seeds) have the very same record up to the first decision that a player's second type
   changes. Printed: the share of games whose records are the same through turn T; and per seat
   of the honest table, the share whose record is the same as if that seat alone were a decoy,
   and of those the share whose second type no other player holds: by point 2, their record is
   then just as likely from a decoy holding that second type, so whatever a reading of the
   record names for the seat is wrong for one of the two.
2. **The exchange.** A ``decoy`` holding h with second type d plays exactly as one holding d
   with second type h (both draw their second type one in five, then protect {h, d}): when d
   is not dealt to another player, both deals are equally likely and give the same records, so
   whatever a reading of the record names for that seat is right in at most one of the two.
   Printed: the share of decoy seats so exchangeable and the ceiling it puts on any reading's
   top-1 (1 - half that share), against the model's top-1.
3. **Said against right.** After turn 20, per tenth of the probability the model gives the card
   it names: how many seats, what it says and how often it is right, at either table.
4. **Recalibrated by the evidence.** The seats of all five tables after turn 20, grouped in cells
   of what the model computes from the evidence: the named card's probability in tenths (``p``);
   with it the seat's probability of the decoy style in three bands (``p,decoy``); and the other
   seats' mean of it in three bands (``p,decoy,table``). A recalibration that is a function of
   the cell shifts the named card's probability by one amount per cell (the other cards scaled
   to share the rest; no shift is the model). Its *cell error* at a table is the mean over
   seats of |hit rate - mean probability said| per cell: beliefs right as often as they say
   *given that evidence* have none, and it is at most the ECE with bins of a cell and a tenth
   of the probability said (the ten-bin ECE pools the cells of a tenth, whose errors may
   cancel: it is another, weaker measure, and a shift may move it either way). A linear programme
   finds the least cell error at the honest table over every such shift that keeps every other
   target: the other tables' cell error and every table's log-loss no worse than the model's by
   more than its standard error, and the beliefs at p >= 0.9 at p >= 0.9 and no others. It is
   fitted on the very games it is judged on, so it flatters what a recalibration fitted
   elsewhere could do: a least value above 0.08 means no such recalibration meets the aim.
5. **Fitted elsewhere.** Such shifts, and recalibrations that give each cell one probability
   chosen for the least ten-bin ECE at the honest table (a mixed-integer programme: which tenth
   a cell's probability falls in is a 0/1 choice; among equal choices, the one with the least
   ECE at the other tables, weighed a hundredth; the other tables' ECE and log-loss no worse
   than the model's, or than its probabilities flattened to their mean per cell, by more than
   the standard error), fitted on the tuning games (``--fit-seed``, default 4401) and judged on
   these: every table's ten-bin ECE and the honest table's cell error.

    python bench/indistinct.py --games 400 --jobs 2     # held out: games 7730-1 to 7730-400, fitted on 4401's too
"""
from __future__ import annotations

import argparse
import math
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, linprog, milp
from scipy.sparse import coo_matrix

sys.path.insert(0, str(Path(__file__).resolve().parent))

import inference as bench  # bench/inference.py: the metrics
import tables  # bench/tables.py: the five tables and their games
from policies import POLICIES

from drunter_notation.analysis.inference import Model
from drunter_notation.bots.tournament import bot_game, bot_seed
from drunter_notation.notation.model import BUILDINGS

TURN = re.compile(r"^(\d+)\. ", re.M)
CELLS = ("p", "p,decoy", "p,decoy,table")
TANGENTS = np.linspace(0.01, 0.999, 120)
TIE = 0.01  # the weight of the other tables' ECE in the mixed-integer programme's objective, to choose among equals  # where -log c and -log(1 - c) are bounded below by their tangents


def turns(dn: str, upto: int) -> list[str]:
    """The record's turn lines up to turn ``upto`` (all with 0)."""
    return [line for line in dn.splitlines() if (m := TURN.match(line)) and (not upto or int(m[1]) <= upto)]


def coupled(job: tables.Job) -> dict[str, Any]:
    """Game i at the honest and at the decoy table: the last turn their records share; per seat, whether the
    second type it draws was dealt to another player, and the last turn its honest record shares with the
    game where it alone is a decoy."""
    honest = bot_game(bench.NAMES, [POLICIES["honest"]] * 4, job.seed, job.i)
    decoy = bot_game(bench.NAMES, [POLICIES["decoy"]] * 4, job.seed, job.i)
    a, b = turns(honest.to_dn(), 0), turns(decoy.to_dn(), 0)
    same = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    cards = decoy.cards
    assert cards is not None  # a bot game deals the cards
    dealt = {cards[p][0] for p in bench.NAMES}
    free = []
    for k, p in enumerate(bench.NAMES):
        bot = POLICIES["decoy"](bot_seed(job.seed, job.i, k))
        bot.begin(k, cards[p])  # draws the second type as in the game
        second = BUILDINGS[next(iter(bot.decoy))]
        free.append(second not in dealt)
    alone = []  # per seat: the turns its record shares with the game where that seat alone is a decoy
    for k in range(4):
        c = turns(bot_game(bench.NAMES, [POLICIES["decoy" if s == k else "honest"] for s in range(4)],
                           job.seed, job.i).to_dn(), 0)
        alone.append(next((t for t, (x, y) in enumerate(zip(a, c, strict=False)) if x != y), min(len(a), len(c))))
    return {"game": job.i, "same_turns": same, "turns": len(a), "free": free, "alone": alone}


def seats(job: tables.Job) -> list[dict[str, Any]]:
    """Game i of a table, after turn 20 and at the end: per seat what a recalibration may use (the top
    card's probability, the seat's probability of the decoy style, the others' mean of it), the hit and
    the true card's probability."""
    table, g = tables.snapshots(job)
    out: list[dict[str, Any]] = []
    if len(g.infs) < 3:
        return out
    model = Model()
    for when, inf in (("20", g.infs[1]), ("end", g.infs[-1])):
        post = inf.posterior(model)
        decoy = {p: post.style_marginal(p)["decoy"] for p in inf.players}
        for k, p in enumerate(inf.players):
            b = post.card_marginal(p)
            top = max(b, key=lambda c: b[c])
            out.append({"table": table, "game": job.i, "seat": k, "when": when, "p": b[top],
                        "hit": top == g.truth[p], "q": b[g.truth[p]], "decoy": decoy[p],
                        "others": sum(v for o, v in decoy.items() if o != p) / (len(decoy) - 1)})
    return out


def cell(s: dict[str, Any], scheme: str) -> tuple[int, ...]:
    """The cell of a seat: the top probability in tenths, then the bands the scheme adds."""
    key = [min(int(s["p"] * 10), 9)]
    if "decoy" in scheme:
        key.append(0 if s["decoy"] < 0.1 else 1 if s["decoy"] < 0.3 else 2)
    if "table" in scheme:
        key.append(0 if s["others"] < 0.1 else 1 if s["others"] < 0.3 else 2)
    return tuple(key)


def recalibrated(s: dict[str, Any], c: float) -> dict[str, float]:
    """A seat's beliefs as the figures need them after the named card is given ``c``: the top card
    (hit or not) and the true card's probability, the rest scaled to share 1 - c."""
    q = c if s["hit"] else s["q"] * (1 - c) / max(1 - s["p"], 1e-12)
    return {"top": c, "truth": q}


def figures(ss: list[dict[str, Any]], probs: list[float] | None = None) -> dict[str, float]:
    """Ten-bin ECE (with its bootstrap SE) and log-loss (with its SE) of the seats, as given or with the
    named card's probability replaced by ``probs``."""
    cases = []
    for k, s in enumerate(ss):
        c = s["p"] if probs is None else probs[k]
        q = recalibrated(s, c)["truth"] if probs is not None else s["q"]
        # bench.metrics reads a belief as a dict: the named card and, when it is wrong, the true card
        b = {"named": c, "truth": q} if not s["hit"] else {"named": c}
        cases.append((s["game"], b, "named" if s["hit"] else "truth"))
    m = bench.metrics(cases, boot=200)
    return {"ece": m["ece"], "ece_se": m["ece_se"], "logloss": m["logloss"], "logloss_se": m["logloss_se"],
            "top1": m["top1"], "mean_top": m["mean_top"], "sure": m["sure"]}


def cell_error(ss: list[dict[str, Any]], scheme: str, probs: dict[tuple[int, ...], float] | None = None) -> float:
    """The mean over seats of |hit rate - probability said| per cell: the model's own (its mean per cell)
    or a recalibration's (``probs``, one per cell)."""
    gaps: dict[tuple[int, ...], float] = {}
    for s in ss:
        k = cell(s, scheme)
        gaps[k] = gaps.get(k, 0.0) + s["hit"] - (s["p"] if probs is None else probs[k])
    return sum(map(abs, gaps.values())) / len(ss)


def least_cell_error(ss: list[dict[str, Any]], scheme: str) -> dict[str, Any]:
    """The linear programme of the module's points 4 and 5 on the seats ``ss`` (one moment of the game): per cell
    a shift d of the named card's probability (d = 0 everywhere is the model); per table the cell error
    and the log-loss (per table and cell a convex function of d, bounded below by its tangents)."""
    keys = sorted({cell(s, scheme) for s in ss})
    index = {k: j for j, k in enumerate(keys)}
    n, names = len(keys), list(tables.TABLES)
    by = {t: [s for s in ss if s["table"] == t] for t in names}
    model = {t: figures(by[t]) for t in names}
    span = []  # per cell, the shifts that keep every p + d in (0, 1) and the sure beliefs (p >= 0.9) alone sure
    for k in keys:
        ps = [s["p"] for s in ss if cell(s, scheme) == k]
        span.append((0.9 - min(ps), 1 - 1e-6 - max(ps)) if k[0] == 9 else (1e-6 - min(ps), 0.9 - 1e-9 - max(ps)))
    # variables: d per cell, then per table and cell its log-loss l and its |gap| u
    l0, u0 = n, n + len(names) * n
    nv = u0 + len(names) * n
    entries: list[tuple[int, int, float]] = []
    high: list[float] = []

    def row(coefs: dict[int, float], hi: float) -> None:
        entries.extend((len(high), k, v) for k, v in coefs.items())
        high.append(hi)

    for ti, t in enumerate(names):
        total = len(by[t])
        members: list[list[dict[str, Any]]] = [[] for _ in keys]
        for s in by[t]:
            members[index[cell(s, scheme)]].append(s)
        for z, xs in enumerate(members):
            if not xs:
                continue
            gap = sum(s["hit"] - s["p"] for s in xs) / total  # the gap at d = 0; d lowers it by len(xs) / total
            row({z: -len(xs) / total, u0 + ti * n + z: -1}, -gap)
            row({z: len(xs) / total, u0 + ti * n + z: -1}, gap)
            const = sum(-math.log(max(s["q"], 1e-12)) + math.log(max(1 - s["p"], 1e-12)) for s in xs if not s["hit"])
            for d in np.linspace(*span[z], 40):
                f = const - sum(math.log(s["p"] + d) if s["hit"] else math.log(1 - s["p"] - d) for s in xs)
                slope = sum(-1 / (s["p"] + d) if s["hit"] else 1 / (1 - s["p"] - d) for s in xs)
                row({z: slope / total, l0 + ti * n + z: -1 / total}, slope * d / total - f / total)
        row({l0 + ti * n + z: 1 / total for z in range(n)}, model[t]["logloss"] + model[t]["logloss_se"])
        if t != "honest":
            row({u0 + ti * n + z: 1 for z in range(n)}, cell_error(by[t], scheme) + model[t]["ece_se"])
    cost = np.zeros(nv)
    cost[u0:u0 + n] = 1  # the honest table's cell error
    matrix = coo_matrix(([v for _, _, v in entries], ([r for r, _, _ in entries], [k for _, k, _ in entries])),
                        shape=(len(high), nv))
    res = linprog(cost, A_ub=matrix.tocsr(), b_ub=high, bounds=span + [(0, None)] * (nv - n), method="highs")
    return {"cells": n, "least": float(res.fun) if res.status == 0 else None, "now": cell_error(by["honest"], scheme),
            "shift": {k: float(res.x[z]) for z, k in enumerate(keys)} if res.status == 0 else None}


def least_ece(ss: list[dict[str, Any]], scheme: str, seconds: float) -> dict[str, Any]:
    """The mixed-integer programme of the module's point 5 on the seats ``ss`` (one moment of the game): a
    probability c per cell and which tenth it falls in; per table and tenth the calibration gap, linearised
    (c times the 0/1 choice of its tenth as a variable of its own; -log c and -log(1 - c) bounded below by
    tangents)."""
    keys = sorted({cell(s, scheme) for s in ss})
    index = {k: j for j, k in enumerate(keys)}
    n, names, nb = len(keys), list(tables.TABLES), 10
    by = {t: [s for s in ss if s["table"] == t] for t in names}
    # The caps: the model's figures, or those of its probabilities flattened to their mean per cell when
    # worse, so that the flattened model is itself one of the recalibrations weighed.
    mean = {k: float(np.mean([s["p"] for s in ss if cell(s, scheme) == k])) for k in keys}
    model = {t: figures(by[t]) for t in names}
    flat = {t: figures(by[t], [mean[cell(s, scheme)] for s in by[t]]) for t in names}
    caps = {t: {f: max(model[t][f], flat[t][f]) + model[t][f + "_se"] for f in ("ece", "logloss")} for t in names}
    # variables: c, a >= -log c, b >= -log(1 - c) per cell; y (cell z in tenth k) and w = c y per cell and
    # tenth; per table and tenth the gap's absolute value u
    c0, a0, b0, y0, w0, u0 = 0, n, 2 * n, 3 * n, 3 * n + n * nb, 3 * n + 2 * n * nb
    nv = u0 + len(names) * nb
    rows: list[np.ndarray] = []
    low: list[float] = []
    high: list[float] = []

    def row(entries: dict[int, float], lo: float, hi: float) -> None:
        r = np.zeros(nv)
        for k, v in entries.items():
            r[k] += v
        rows.append(r)
        low.append(lo)
        high.append(hi)

    inf = np.inf
    for z in range(n):
        for x in TANGENTS:  # -log c >= -log x - (c - x) / x; -log(1 - c) >= -log(1 - x) + (c - x) / (1 - x)
            row({c0 + z: -1 / x, a0 + z: -1}, -inf, math.log(x) - 1)
            row({c0 + z: 1 / (1 - x), b0 + z: -1}, -inf, math.log(1 - x) + x / (1 - x))
        row({y0 + z * nb + k: 1 for k in range(nb)}, 1, 1)
        row({c0 + z: 1} | {y0 + z * nb + k: -(k / nb + 1e-9) for k in range(nb)}, 0, inf)
        row({c0 + z: 1} | {y0 + z * nb + k: -((k + 1) / nb - 1e-9) for k in range(nb)}, -inf, 0)
        for k in range(nb):
            y, w = y0 + z * nb + k, w0 + z * nb + k
            row({w: 1, y: -1}, -inf, 0)
            row({w: 1, c0 + z: -1}, -inf, 0)
            row({w: 1, c0 + z: -1, y: -1}, -1, inf)
    for ti, t in enumerate(names):
        count, hits = np.zeros(n), np.zeros(n)
        misses = 0.0  # the misses' log-loss that does not depend on c: -log q + log(1 - p)
        for s in by[t]:
            z = index[cell(s, scheme)]
            count[z] += 1
            hits[z] += s["hit"]
            if not s["hit"]:
                misses += -math.log(max(s["q"], 1e-12)) + math.log(max(1 - s["p"], 1e-12))
        total = len(by[t])
        for k in range(nb):
            gap = {y0 + z * nb + k: hits[z] / total for z in range(n)} | {w0 + z * nb + k: -count[z] / total
                                                                        for z in range(n)}
            row({**gap, u0 + ti * nb + k: -1}, -inf, 0)
            row({**{v: -x for v, x in gap.items()}, u0 + ti * nb + k: -1}, -inf, 0)
        if t != "honest":
            row({u0 + ti * nb + k: 1 for k in range(nb)}, -inf, caps[t]["ece"])
        row({a0 + z: hits[z] / total for z in range(n)} | {b0 + z: (count[z] - hits[z]) / total for z in range(n)},
            -inf, caps[t]["logloss"] - misses / total)
    lb, ub = np.zeros(nv), np.full(nv, inf)
    ub[c0:c0 + n] = 1
    ub[y0:w0] = 1
    for z, k in enumerate(keys):  # the sure beliefs (p >= 0.9) kept sure, and no others
        lb[y0 + z * nb + nb - 1] = ub[y0 + z * nb + nb - 1] = 1.0 if k[0] == 9 else 0.0
    cost = np.zeros(nv)
    cost[u0:u0 + nb] = 1  # the honest table's ECE; then, among the ways to reach it, the others' least
    cost[u0 + nb:] = TIE
    integrality = np.zeros(nv)
    integrality[y0:w0] = 1
    res = milp(cost, constraints=LinearConstraint(np.array(rows), low, high), bounds=Bounds(lb, ub),
               integrality=integrality, options={"time_limit": seconds})
    bound = res.fun if res.status == 0 else getattr(res, "mip_dual_bound", None)  # stopped: the proven bound
    out: dict[str, Any] = {"cells": n, "before": model, "optimal": res.status == 0,
                           "least": float(bound) if bound is not None and math.isfinite(bound) else None}
    if res.x is not None:
        c = res.x[c0:c0 + n]
        out["map"] = {k: float(c[z]) for z, k in enumerate(keys)}
        out["after"] = {t: figures(by[t], [float(c[index[cell(s, scheme)]]) for s in by[t]]) for t in names}
        out["cell_error"] = {t: cell_error(by[t], scheme, out["map"]) for t in names}
    return out


def play(seed: int, games: int, pool: ProcessPoolExecutor) -> list[dict[str, Any]]:
    """Every seat of games 1 to ``games`` of the five tables, after turn 20 and at the end."""
    todo = [tables.Job(t, seed, i, "none") for t in tables.TABLES for i in range(1, games + 1)]
    return [s for game in pool.map(seats, todo, chunksize=4) for s in game]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400, help="games per table (default 400)")
    ap.add_argument("--seed", type=int, default=7730, help="the games' seed (default 7730: the held-out games)")
    ap.add_argument("--fit-seed", type=int, default=4401, help="also fit the recalibrations on this seed's games "
                    "and judge them on --seed's (default 4401, the tuning games; 0: not)")
    ap.add_argument("--fit-games", type=int, default=200, help="games per table of --fit-seed (default 200)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (1 to 64)")
    ap.add_argument("--seconds", type=float, default=60, help="the solver's time per programme (default 60)")
    args = ap.parse_args()
    if (not 1 <= args.games <= 100_000 or not 1 <= args.fit_games <= 100_000 or not 1 <= args.jobs <= 64
            or not 1 <= args.seconds <= 3600 or args.fit_seed == args.seed):
        ap.error("--games and --fit-games 1-100000, --jobs 1-64, --seconds 1-3600, --fit-seed other than --seed")
    start = time.time()
    with ProcessPoolExecutor(args.jobs) as pool:
        pairs = list(pool.map(coupled, [tables.Job("honest", args.seed, i, "none")
                                        for i in range(1, args.games + 1)], chunksize=8))
        ss = play(args.seed, args.games, pool)
        tuning = play(args.fit_seed, args.fit_games, pool) if args.fit_seed else []
    print(f"seed {args.seed}, games {args.seed}-1 to {args.seed}-{args.games} per table, 4 players; "
          f"{time.time() - start:.0f} s\n")
    print("1. The honest and the decoy table's records, game by game (the same deal and seeds):\n")
    for upto in (10, 20, 30):
        same = sum(p["same_turns"] >= upto for p in pairs)
        print(f"   the same through turn {upto}: {same} of {len(pairs)} games ({same / len(pairs):.1%})")
    same = sum(p["same_turns"] == p["turns"] for p in pairs)
    print(f"   the same to the end: {same} of {len(pairs)} games ({same / len(pairs):.1%})\n")
    n = 4 * len(pairs)
    print("   Per seat of the honest table, its record the same as if it alone were a decoy (the same deal and "
          "seeds), and also that of a decoy holding its second type instead of its card (no other player holds "
          "that type):")
    for upto in (20, 0):
        alone = [(p["alone"][k] >= (upto or p["turns"]), p["free"][k]) for p in pairs for k in range(4)]
        same, twin = sum(a for a, _ in alone), sum(a and f for a, f in alone)
        print(f"   {'through turn 20' if upto else 'to the end'}: {same} of {n} seats ({same / n:.1%}); "
              f"{twin} ({twin / n:.1%}) also a decoy's holding another card")
        twins = {(p["game"], k) for p in pairs for k in range(4) if p["alone"][k] >= (upto or p["turns"])
                 and p["free"][k]}
        xs = [s for s in ss if s["table"] == "honest" and s["when"] == (str(upto) if upto else "end")
              and (s["game"], s["seat"]) in twins]
        if xs:
            right = sum(s["hit"] for s in xs) / len(xs)
            print(f"     the model on those {len(xs)}: says {sum(s['p'] for s in xs) / len(xs):.2f}, right {right:.2f}; "
                  f"their twins right at most {1 - right:.2f}; one value for both errs by at least "
                  f"{2 * right - 1:.2f} on the two together, {len(xs) / n * (2 * right - 1):.3f} over every seat")
    print()
    free = sum(f for p in pairs for f in p["free"])
    print(f"2. Decoy seats whose second type no other player holds: {free} of {n} ({free / n:.1%}); any reading of "
          f"the record is right at most {1 - free / n / 2:.1%} of the time at the decoy table.")
    for when in ("20", "end"):
        hits = [s["hit"] for s in ss if s["table"] == "decoy" and s["when"] == when]
        print(f"   the model's top-1 there, {tables.calibration.when(when)}: {sum(hits) / len(hits):.1%}")
    after20 = [s for s in ss if s["when"] == "20"]
    print("\n3. After turn 20, per tenth of the named card's probability: seats, said / right, at the honest and "
          "the decoy table\n\n| tenth | honest | decoy |\n|---|---|---|")
    for k in range(10):
        cols = []
        for t in ("honest", "decoy"):
            xs = [s for s in after20 if s["table"] == t and cell(s, "p") == (k,)]
            cols.append(f"{len(xs)}: {sum(s['p'] for s in xs) / len(xs):.2f} / {sum(s['hit'] for s in xs) / len(xs):.2f}"
                        if xs else "-")
        if cols != ["-", "-"]:
            print(f"| {k / 10:.1f}-{(k + 1) / 10:.1f} | {cols[0]} | {cols[1]} |")
    base = {t: figures([s for s in after20 if s["table"] == t]) for t in tables.TABLES}
    print("\n   the model now, ten-bin ECE / log-loss (± SE): " + "; ".join(
        f"{t} {m['ece']:.3f} ±{m['ece_se']:.3f} / {m['logloss']:.3f} ±{m['logloss_se']:.3f}" for t, m in base.items()))
    print("\n4. The least cell error at the honest table after turn 20, the named card's probability shifted "
          "by one amount per cell, fitted on these very games, every other target kept:\n\n"
          "| cells | how many | the model's | the least |\n|---|---|---|---|")
    for scheme in CELLS:
        r = least_cell_error(after20, scheme)
        least = "none keeps the other targets" if r["least"] is None else f"**{r['least']:.3f}**"
        print(f"| {scheme} | {r['cells']} | {r['now']:.3f} | {least} |", flush=True)
    if not tuning:
        return
    fit20 = [s for s in tuning if s["when"] == "20"]
    print(f"\n5. The same recalibrations fitted on games {args.fit_seed}-1 to {args.fit_seed}-{args.fit_games} and "
          "judged on these, after turn 20: ten-bin ECE (the model's ± SE) and the honest table's cell error\n\n"
          "| recalibration | cells | " + " | ".join(tables.TABLES) + " | honest, cell error |\n|---|---|"
          + "---|" * (len(tables.TABLES) + 1))
    for scheme in CELLS:
        shift = least_cell_error(fit20, scheme)["shift"]
        fitted = least_ece(fit20, scheme, args.seconds)
        stopped = "" if fitted["optimal"] else ", stopped at the time limit"
        for kind, probs in (("a shift per cell (the least cell error)", shift),
                            (f"one probability per cell (the least ten-bin ECE{stopped})", fitted.get("map"))):
            if probs is None:
                print(f"| {kind} | {scheme} | none found |")
                continue

            def said(s: dict[str, Any], kind: str = kind, probs: dict[tuple[int, ...], float] = probs,
                     scheme: str = scheme) -> float:
                k = cell(s, scheme)
                value = s["p"] + probs.get(k, 0.0) if kind.startswith("a shift") else probs.get(k, s["p"])
                return min(max(value, 1e-6), 1 - 1e-6)
            cols = []
            for t in tables.TABLES:
                xs = [s for s in after20 if s["table"] == t]
                m = figures(xs, [said(s) for s in xs])
                cols.append(f"{m['ece']:.3f} ({base[t]['ece']:.3f} ±{base[t]['ece_se']:.3f})")
            honest = [s for s in after20 if s["table"] == "honest"]
            gaps: dict[tuple[int, ...], float] = {}
            for s in honest:
                gaps[cell(s, scheme)] = gaps.get(cell(s, scheme), 0.0) + s["hit"] - said(s)
            print(f"| {kind} | {scheme} | " + " | ".join(cols)
                  + f" | {sum(map(abs, gaps.values())) / len(honest):.3f} |", flush=True)


if __name__ == "__main__":
    main()
