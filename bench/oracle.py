"""Benchmark: what the best possible reading of the record could do at the honest, bluffer and
decoy tables of ``bench/tables.py``, after turn 20 and at the end.

The reading here is not the model's: it knows the bench players' own code (``bench/policies.py``)
and computes, for every move and ballot of the record, its exact probability under every card
and second type a player may hold, for each of the three tables: at the honest table every
player plays the best move for its card (ties at random) and votes by it; at the bluffer table
a player makes each move for its card with probability 0.7 and for its second type with 0.3,
and votes for its card; at the decoy table it plays and votes for both. What it does not know
is which of the three tables it sits at, only a prior over them; with that prior its beliefs
are the exact posterior (cards all distinct; the second type uniform over the other five). So
no reading of the same records, with the same prior over those tables, is better calibrated
on average over them, and where its per-table ECE stays above an aim, the records themselves
do not tell the tables apart well enough for that table.

The games are those of ``bench/tables.py`` (game i of seed S, the same deal and bots): the
figures use the held-out seed 7730; nothing here is fitted. Prints, for each prior over the
three tables (and for a reading told which table it sits at), the ECE after turn 20 and at
the end per table, with ``bench/inference.py``'s metrics. Nothing is asserted.

``--frontier STEP`` also plays the model on the same games (as ``bench/tables.py`` scores it) and
reads them under every prior over the three tables in steps of 1/STEP, none nil: of the priors
that meet the honest table's aim after turn 20, those least above the model's figures elsewhere,
and for the first three their difference from the model, the games drawn together for both.

    python bench/oracle.py --games 400 --jobs 2
    python bench/oracle.py --games 400 --jobs 2 --frontier 40
"""
from __future__ import annotations

import argparse
import itertools
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import inference as bench  # bench/inference.py: the names and the metrics
import policies  # bench/policies.py: the players
import tables  # bench/tables.py: the model's beliefs in the same games

from drunter_notation.bots.tournament import bot_game
from drunter_notation.notation.model import BUILDINGS, CARD_NAMES

TABLES = ("honest", "bluffer", "decoy")
NB = len(BUILDINGS)
CUT = 20  # the turn after which the mid-game beliefs are read, as bench/tables.py reads them
# The priors over the three tables: the honest table's weight, the rest shared equally.
HONEST_WEIGHTS = (0.2, 1 / 3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8, 0.95)
BLUFF = 0.3  # policies.Bluffer's share of moves made for its second type


def vector(pl: Any, move: Any) -> tuple[int, ...]:
    """The points of each building type the move destroys."""
    v = [0] * NB
    for s in move[3]:
        points = pl.tables.bvalue[s]
        if points:
            v[pl.tables.btype[s]] += points
    return tuple(v)


def recording(cls: type, logs: list[list[tuple[Any, ...]]]) -> Any:
    """``cls`` (a bench player) that also logs its decisions: each move with every legal move's
    points per type, and each ballot on another player's tile with its cards held."""
    class Recorded(cls):  # type: ignore[misc, valid-type]
        def begin(self, seat: int, goals: Any) -> None:
            super().begin(seat, goals)
            self.log: list[tuple[Any, ...]] = []
            logs.append(self.log)

        def pick(self, pl: Any, moves: Any) -> int:
            vectors = [vector(pl, m) for m in moves]
            chosen = super().pick(pl, moves)
            self.log.append(("move", pl.number + 1, vectors, chosen))
            return int(chosen)

        def lay(self, pl: Any, move: Any) -> Any:
            held = tuple(pl.cards[self.seat])
            cards = super().lay(pl, move)
            if pl.seat != self.seat:
                self.log.append(("ballot", pl.number + 1, vector(pl, move), held, tuple(cards)))
            return cards
    return Recorded


def best(vectors: list[tuple[int, ...]], types: tuple[int, ...]) -> set[int]:
    """The moves a bench player protecting ``types`` plays (score: the others' points - 4 x its own)."""
    scores = [sum(v) - 5 * sum(v[t] for t in types) for v in vectors]
    top = max(scores)
    return {i for i, s in enumerate(scores) if s == top}


def ballot(vector_: tuple[int, ...], held: tuple[int, ...], types: tuple[int, ...]) -> tuple[int, ...]:
    """The ballot a bench player protecting ``types`` lays on another player's tile."""
    own = sum(vector_[t] for t in types)
    want = "no" if own else "yes" if sum(vector_) - own >= 2 else None
    if want is None:
        return (CARD_NAMES.index("?"),)
    for c in policies._NO if want == "no" else policies._YES:
        if held[c]:
            return (c,)
    return (CARD_NAMES.index("?"),)


def log_likelihoods(log: list[tuple[Any, ...]]) -> tuple[dict[str, list[list[float]]], dict[str, list[list[float]]]]:
    """Per table, per card h and second type d (d == h unused): the log-probability of the seat's
    decisions up to turn 20, and of all of them."""
    upto, whole = ({t: [[0.0] * NB for _ in range(NB)] for t in TABLES} for _ in range(2))
    pairs = [(h, d) for h in range(NB) for d in range(NB) if h != d]
    for entry in log:
        if entry[0] == "move":
            _, _, vectors, chosen = entry
            alone = [best(vectors, (h,)) for h in range(NB)]
            share = [(chosen in b) / len(b) for b in alone]
            both = {(h, d): best(vectors, (h, d)) for h, d in pairs if h < d}
            p = {(h, d): ((share[h], (1 - BLUFF) * share[h] + BLUFF * share[d],
                           (chosen in both[min(h, d), max(h, d)]) / len(both[min(h, d), max(h, d)])))
                 for h, d in pairs}
        else:
            _, _, v, held, cards = entry
            mine = [float(cards == ballot(v, held, (h,))) for h in range(NB)]
            p = {(h, d): (mine[h], mine[h], float(cards == ballot(v, held, (h, d)))) for h, d in pairs}
        for (h, d), ps in p.items():
            for t, x in zip(TABLES, ps, strict=True):
                lx = math.log(x) if x > 0 else -math.inf
                whole[t][h][d] += lx
                if entry[1] <= CUT:
                    upto[t][h][d] += lx
    return upto, whole


def one_game(args: tuple[str, int, int]) -> dict[str, Any]:
    """Game i of a table: the cards dealt and, after turn 20 and at the end, each seat's log-likelihoods
    per table, card and second type (None after turn 20 when the game ended before it)."""
    table, seed, i = args
    logs: list[list[tuple[Any, ...]]] = []
    cls = recording(policies.POLICIES[table], logs)
    g = bot_game(bench.NAMES, [cls] * 4, seed, i)
    assert g.cards is not None  # a bot game deals the cards
    last = max((e[1] for log in logs for e in log), default=0)
    lls = [log_likelihoods(log) for log in logs]
    return {"table": table, "game": i, "truth": [BUILDINGS.index(g.cards[p][0]) for p in bench.NAMES],
            "20": [u for u, _ in lls] if last > CUT else None, "end": [w for _, w in lls]}


def _lse(xs: list[float]) -> float:
    top = max(xs)
    return top if top == -math.inf else top + math.log(math.fsum(math.exp(x - top) for x in xs))


def readings(seats: list[dict[str, list[list[float]]]]) -> list[tuple[float, list[list[float]]]]:
    """Per table (``TABLES``' order): the log-probability of the seats' decisions there and each
    seat's card marginal, exact given that table (cards all distinct; the second type uniform over
    the other five). A prior over the tables only mixes these (:func:`mixed`)."""
    out = []
    for t in TABLES:
        # per seat and card: the log-likelihood, the second type summed out
        card = [[(ll[t][h][(h + 1) % NB] if t == "honest" else
                  _lse([ll[t][h][d] for d in range(NB) if d != h]) - math.log(NB - 1)) for h in range(NB)]
                for ll in seats]
        joint = {}
        for deal in itertools.permutations(range(NB), len(seats)):
            joint[deal] = sum(card[k][h] for k, h in enumerate(deal))
        total = _lse(list(joint.values()))
        marg = [[0.0] * NB for _ in seats]
        if total != -math.inf:
            for deal, lj in joint.items():
                p = math.exp(lj - total)
                for k, h in enumerate(deal):
                    marg[k][h] += p
        out.append((total, marg))
    return out


def mixed(per_table: list[tuple[float, list[list[float]]]], prior: tuple[float, ...]) -> list[dict[str, float]]:
    """Each seat's card marginal: the exact posterior with ``prior`` over the tables."""
    logs = [math.log(w) + total if w > 0 else -math.inf for w, (total, _) in zip(prior, per_table, strict=True)]
    z = _lse(logs)
    shares = [math.exp(x - z) for x in logs]
    n = len(per_table[0][1])
    return [{BUILDINGS[h]: math.fsum(s * marg[k][h] for s, (_, marg) in zip(shares, per_table, strict=True) if s)
             for h in range(NB)} for k in range(n)]


def beliefs(seats: list[dict[str, list[list[float]]]], prior: tuple[float, ...]) -> list[dict[str, float]]:
    """Each seat's card marginal: the exact posterior over the table (``prior``), the cards (all
    distinct) and the second types (uniform over the other five)."""
    return mixed(readings(seats), prior)


def ece(cases: list[tuple[int, dict[str, float], str]]) -> float:
    """``bench/inference.py``'s ECE (ten equal bins of the top card's probability), without its bootstrap."""
    bins = [[0, 0.0, 0] for _ in range(10)]
    for _, b, truth in cases:
        card, conf = max(b.items(), key=lambda kv: kv[1])
        k = min(int(conf * 10), 9)
        bins[k][0] += 1
        bins[k][1] += conf
        bins[k][2] += card == truth
    return sum(abs(hits - said) for _, said, hits in bins) / len(cases)


def paired(a: dict[int, list[Any]], b: dict[int, list[Any]], boot: int = 400) -> tuple[float, float]:
    """ECE of ``a`` minus ECE of ``b`` (cases keyed by game, the same games) and its bootstrap SE,
    the games drawn together for both."""
    games = sorted(set(a) & set(b))
    rng = random.Random(0)
    diffs = []
    for _ in range(boot):
        pick = rng.choices(games, k=len(games))
        diffs.append(ece([c for g in pick for c in a[g]]) - ece([c for g in pick for c in b[g]]))
    value = ece([c for g in games for c in a[g]]) - ece([c for g in games for c in b[g]])
    mean = math.fsum(diffs) / boot
    return value, math.sqrt(math.fsum((x - mean) ** 2 for x in diffs) / (boot - 1))


def model_game(args: tuple[str, int, int]) -> dict[str, Any]:
    """The shipped model's beliefs in game i of a table, as ``bench/tables.py`` scores them."""
    table, seed, i = args
    return tables.one_game(tables.Job(table, seed, i, "none"))


def frontier(results: list[dict[str, Any]], models: list[dict[str, Any]], step: int) -> None:
    """Every prior over the three tables in steps of 1/``step`` (none nil): which meet the honest table's aim after
    turn 20, and how far each of the other five figures then is from the model's on the same games."""
    # Every table keeps some weight: with none on the true one, a record may be impossible everywhere.
    priors = [(a / step, b / step, (step - a - b) / step) for a in range(1, step) for b in range(1, step - a)]
    by: dict[tuple[str, str], dict[int, Any]] = {}
    for r in results:
        for w in ("20", "end"):
            if r[w] is not None:
                by.setdefault((r["table"], w), {})[r["game"]] = (readings(r[w]), r["truth"])
    mine: dict[tuple[str, str], dict[int, list[Any]]] = {}
    for r in models:
        for w in ("20", "end"):
            if r["beliefs"][w] is not None:
                mine.setdefault((r["table"], w), {})[r["game"]] = [
                    (r["game"], b, t) for b, t in zip(r["beliefs"][w], r["truth"], strict=True)]
    keys = [(t, w) for w in ("20", "end") for t in TABLES]

    def cases_at(prior: tuple[float, ...], k: tuple[str, str]) -> dict[int, list[Any]]:
        return {g: [(g, b, BUILDINGS[h]) for b, h in zip(mixed(per, prior), truth, strict=True)]
                for g, (per, truth) in by[k].items() if g in mine[k]}

    model_ece = {k: ece([c for g in sorted(set(by[k]) & set(mine[k])) for c in mine[k][g]]) for k in keys}
    print("the model on the same games (ECE): " + ", ".join(f"{t} {w} {model_ece[t, w]:.3f}" for t, w in keys))
    rows = []
    for prior in priors:
        figures = {k: ece([c for cs in cases_at(prior, k).values() for c in cs]) for k in keys}
        rows.append((prior, figures))
    meet = [(p, f) for p, f in rows if f["honest", "20"] <= 0.08]
    print(f"{len(priors)} priors; {len(meet)} meet the honest table's aim after turn 20 (ECE <= 0.08)")
    # Of those, the one whose worst other figure is least above the model's.
    def worst(f: dict[tuple[str, str], float]) -> float:
        return max(f[k] - model_ece[k] for k in keys if k != ("honest", "20"))
    meet.sort(key=lambda pf: worst(pf[1]))
    print(f"{'prior (honest, bluffer, decoy)':32} " + " ".join(f"{t[:7]} {w:>3}" for t, w in keys))
    for prior, f in meet[:8]:
        print(f"{tuple(round(x, 2) for x in prior)!s:32} " + " ".join(f"{f[k]:11.3f}" for k in keys))
    for prior, _ in meet[:3]:
        print(f"\nprior {tuple(round(x, 2) for x in prior)}, minus the model, paired over games (± bootstrap SE):")
        for k in keys:
            d, se = paired(cases_at(prior, k), mine[k])
            print(f"  {k[0]:8} {k[1]:>3}: {d:+.3f} ±{se:.3f} ({d / se:+.1f} SE)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=400, help="games per table (default 400)")
    ap.add_argument("--seed", type=int, default=7730, help="the games' seed (default 7730: the held-out games)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (1 to 64)")
    ap.add_argument("--frontier", type=int, default=0, metavar="STEP",
                    help="scan every prior over the three tables in steps of 1/STEP against the model on the same games")
    args = ap.parse_args()
    if not 1 <= args.games <= 100_000 or not 1 <= args.jobs <= 64 or not 0 <= args.frontier <= 100:
        ap.error("--games 1-100000, --jobs 1-64, --frontier 0-100")
    start = time.time()
    todo = [(t, args.seed, i) for t in TABLES for i in range(1, args.games + 1)]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(one_game, todo, chunksize=4))
        models = list(pool.map(model_game, todo, chunksize=4)) if args.frontier else []
    print(f"seed {args.seed}, games {args.seed}-1 to {args.seed}-{args.games} per table, 4 players; "
          f"{time.time() - start:.0f} s of play\n")
    if args.frontier:
        frontier(results, models, args.frontier)
        return
    readings: dict[str, tuple[float, ...] | None] = {
        f"honest table {w:.2f}, the others {(1 - w) / 2:.3f}": (w, (1 - w) / 2, (1 - w) / 2) for w in HONEST_WEIGHTS}
    readings["told the table"] = None
    print(f"{'reading':44} {'table':8} {'ECE turn 20':>16} {'said/right 20':>14} {'ECE end':>16} {'said/right end':>15}")
    for label, prior in readings.items():
        for table in TABLES:
            row = []
            for when in ("20", "end"):
                cases = []
                for r in results:
                    if r["table"] != table or r[when] is None:
                        continue
                    told = tuple(float(t == table) for t in TABLES)
                    bs = beliefs(r[when], prior or told)
                    cases += [(r["game"], b, BUILDINGS[h]) for b, h in zip(bs, r["truth"], strict=True)]
                m = bench.metrics(cases)
                row.append(f"{m['ece']:.3f} ±{m['ece_se']:.3f}")
                row.append(f"{m['mean_top']:.2f} / {m['top1']:.2f}")
            print(f"{label:44} {table:8} {row[0]:>16} {row[1]:>14} {row[2]:>16} {row[3]:>15}")
        print()


if __name__ == "__main__":
    main()
