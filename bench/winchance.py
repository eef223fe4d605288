"""Benchmark: are ``drunter analyze``'s win chances right, and do its better moves hold up?

**Win chances** (default). Plays games of a mixed table (``--table``, one bot
style per seat, the seats rotating from game to game as ``drunter tournament``
rotates them) through the Game API, runs the inference over each record up to
turn ``--turn`` (the reveal is never looked at) and estimates each player's chance
to win from that position in three ways, on the same games and playout seeds:

* ``today``: the greedy bot in every seat, every card known (what the analysis did
  before the model of styles);
* ``greedy, beliefs``: the greedy bot in every seat, the cards drawn from the beliefs;
* ``inferred``: each seat the style mix inferred for it, the cards drawn from the
  beliefs (what ``drunter analyze`` does now).

Each is scored by the Brier score against who won (a win shared by k counts 1/k),
and its skill against the uniform forecast 1/n (skill = 1 - Brier / Brier of 1/n;
the standard error from 1,000 bootstrap resamples of the games). Then the
calibration table of ``inferred`` (10 bins of predicted probability: count, mean
prediction, observed win rate and its standard error) and, per style at the
table, the mean prediction against the observed win rate.

**Turning points** (``--turning``). Runs the whole analysis (``analysis.record.
analyze_record``, as ``drunter analyze`` runs it) over games of the mixed table and
re-evaluates every better move it reports with ``--confirm`` new playouts each for
it and for the move played (common random numbers between the two, seeds the
analysis never used): a better move is confirmed when it is still ahead. Prints
the share confirmed with its 95 % Wilson interval.

The default seed, 7001, was used for nothing else: no parameter of the model or of
the playouts was chosen by looking at its games. Nothing is asserted.

    python bench/winchance.py --games 200 --jobs 2
    python bench/winchance.py --turning --games 12 --seed 7003 --jobs 2
"""
from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor

from drunter_notation.analysis.evaluate import difference, estimate, shares
from drunter_notation.analysis.inference import Model
from drunter_notation.analysis.record import Settings, analyze_record, walk
from drunter_notation.bots.tournament import bot_game, seating, wilson
from drunter_notation.load import judge
from drunter_notation.notation.parser import parse_text
from drunter_notation.rules.playout import Playout

PLAYERS = ("Anna", "Ben", "Cleo", "Dora", "Emil")
METHODS = ("today", "greedy, beliefs", "inferred")


def _game(table: tuple[str, ...], seed: int, i: int):
    players = PLAYERS[:len(table)]
    seats = seating(table, i)
    g = bot_game(players, [table[e] for e in seats], seed, i)
    return players, seats, g


def forecast(job):
    """Game ``i``: per method, each seat's predicted chance at turn ``turn``; the
    seats' styles and each seat's share of the win."""
    table, seed, i, turn, n = job
    players, seats, g = _game(table, seed, i)
    t = judge(g.to_record(), keep_states=True)
    w = walk(t, Model())
    at = max(k for k, e in enumerate(w.turns) if e["turn"] <= turn)
    if w.turns[at]["turn"] < turn:
        return None  # the game ended before that turn
    known = {p: g.cards[p][0] for p in players}
    how = {"today": (known, "greedy"), "greedy, beliefs": (None, "greedy"), "inferred": (None, None)}
    label = f"{seed}-{i}-{turn}"
    predicted = {m: estimate(w.positions[at], w.posteriors[at], n, label, None, given, policy).win
                 for m, (given, policy) in how.items()}
    won = g.result().winners
    outcome = tuple(1 / len(won) if p in won else 0.0 for p in players)
    return predicted, tuple(table[e] for e in seats), outcome


def brier(rows, method: str) -> list[float]:
    """Per game, the Brier score of ``method`` (mean over seats)."""
    return [sum((p - y) ** 2 for p, y in zip(pred[method], out)) / len(out) for pred, _, out in rows]


def skill(rows, method: str, draws: int = 1000) -> tuple[float, float]:
    """Brier skill against 1/n, and its bootstrap standard error over games."""
    n = len(rows[0][2])
    ours = brier(rows, method)
    base = [sum((1 / n - y) ** 2 for y in out) / n for _, _, out in rows]
    value = 1 - sum(ours) / sum(base)
    rng = random.Random(0)
    boots = []
    for _ in range(draws):
        pick = [rng.randrange(len(rows)) for _ in rows]
        boots.append(1 - sum(ours[k] for k in pick) / sum(base[k] for k in pick))
    m = sum(boots) / draws
    return value, math.sqrt(sum((b - m) ** 2 for b in boots) / (draws - 1))


def calibration(rows, method: str) -> list[str]:
    bins = [[0, 0.0, 0.0] for _ in range(10)]
    for pred, _, out in rows:
        for p, y in zip(pred[method], out):
            b = bins[min(int(p * 10), 9)]
            b[0], b[1], b[2] = b[0] + 1, b[1] + p, b[2] + y
    lines = ["| predicted | seats | mean predicted | won | standard error |", "|---|---|---|---|---|"]
    for k, (count, total, hits) in enumerate(bins):
        if count:
            rate = hits / count
            lines.append(f"| {k / 10:.1f}-{(k + 1) / 10:.1f} | {count} | {total / count:.3f} | {rate:.3f} | "
                         f"{math.sqrt(rate * (1 - rate) / count):.3f} |")
    return lines


def by_style(rows, method: str) -> list[str]:
    seen: dict[str, list[float]] = {}
    for pred, styles, out in rows:
        for s, p, y in zip(styles, pred[method], out):
            acc = seen.setdefault(s, [0, 0.0, 0.0])
            acc[0], acc[1], acc[2] = acc[0] + 1, acc[1] + p, acc[2] + y
    lines = ["| style | seats | mean predicted | won (95 % interval) |", "|---|---|---|---|"]
    for s, (count, total, hits) in seen.items():
        low, high = wilson(hits, count)
        lines.append(f"| {s} | {count} | {total / count:.3f} | {hits / count:.3f} ({low:.3f}-{high:.3f}) |")
    return lines


def confirm(job):
    """Game ``i`` analysed as ``drunter analyze`` does; every better move it reports
    re-evaluated on ``n`` new playouts: (turn, gain claimed, gain found, its SE)."""
    table, seed, i, playouts, n = job
    players, _, g = _game(table, seed, i)
    path = f"game-{i}.dn"
    record = parse_text(g.to_dn(), path)
    r = analyze_record(record, path, Settings(playouts=playouts, seed=seed))
    out = []
    if not r["turning_points"]:
        return out, r["examined"]
    w = walk(judge(record, path, keep_states=True), Model())
    for tp in r["turning_points"]:
        if tp["better"] is None:
            continue
        k = next(k for k, e in enumerate(w.turns) if e["turn"] == tp["turn"])
        before, post = w.positions[k - 1], w.posteriors[k - 1]
        seat, given = players.index(tp["player"]), {tp["player"]: g.cards[tp["player"]][0]}
        pl = Playout.from_state(before)
        alt = next(m for m in pl.legal() if str(pl.to_move(m)) == tp["better"]["move"])
        label = f"confirm-{seed}-{i}-{tp['turn']}"
        mine = [row[seat] for row in shares(before, post, n, label, w.played[k], given)]
        other = [row[seat] for row in shares(before, post, n, label, alt, given)]
        gain, se = difference(other, mine)
        out.append((tp["turn"], tp["better"]["gain"], gain, se))
    return out, r["examined"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--table", default="greedy,random,cautious,greedy", help="one bot style per seat")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", type=int, default=7001)
    ap.add_argument("--turn", type=int, default=30)
    ap.add_argument("--playouts", type=int, default=200)
    ap.add_argument("--turning", action="store_true", help="check the turning points' better moves instead")
    ap.add_argument("--confirm", type=int, default=1000, help="playouts per move of the re-evaluation")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    table = tuple(s.strip() for s in a.table.split(","))
    jobs = max(1, min(a.jobs, 8))
    start = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        if a.turning:
            found = list(pool.map(confirm, [(table, a.seed, i, a.playouts, a.confirm)
                                            for i in range(1, a.games + 1)]))
        else:
            rows = [r for r in pool.map(forecast, [(table, a.seed, i, a.turn, a.playouts)
                                                   for i in range(1, a.games + 1)]) if r is not None]
    took = time.perf_counter() - start
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    print(f"one mixed table: {', '.join(table)} (seats rotate); seed {a.seed}; {took:.0f} s, --jobs {jobs}, "
          f"load average {' '.join(load)}")
    if a.turning:
        claims = [c for rows, _ in found for c in rows]
        examined = sum(e for _, e in found)
        kept = sum(1 for _, _, gain, _ in claims if gain > 0)
        low, high = wilson(kept, len(claims))
        print(f"{a.games} games analysed ({a.playouts} playouts a position), {examined} placements examined, "
              f"{len(claims)} better moves reported")
        for turn, claimed, gain, se in claims:
            print(f"  turn {turn:>3}: claimed {claimed * 100:+.1f}, re-evaluated {gain * 100:+.1f} ± {se * 100:.1f}"
                  f" ({a.confirm} playouts each)")
        if claims:
            print(f"confirmed (still ahead on {a.confirm} new playouts each): {kept}/{len(claims)} = "
                  f"{kept / len(claims):.1%} (95 % interval {low:.1%}-{high:.1%})")
        return
    print(f"{len(rows)} games reached turn {a.turn}; {a.playouts} playouts a forecast")
    print("| forecast | Brier | skill against 1/n (± SE) |")
    print("|---|---|---|")
    base = sum(sum((1 / len(out) - y) ** 2 for y in out) / len(out) for _, _, out in rows) / len(rows)
    print(f"| uniform 1/n | {base:.4f} | 0 |")
    for m in METHODS:
        b = brier(rows, m)
        value, se = skill(rows, m)
        print(f"| {m} | {sum(b) / len(b):.4f} | {value:+.1%} ± {se:.1%} |")
    print("\ncalibration of `inferred`:")
    print("\n".join(calibration(rows, "inferred")))
    for m in METHODS:
        print(f"\nby style, `{m}`:")
        print("\n".join(by_style(rows, m)))


if __name__ == "__main__":
    main()
