"""Benchmark: the beliefs' calibration at five fixed 4-player tables, through the game.

The tables seat the policies of ``bench/policies.py`` the model's priors were fitted on
(``policies.FITTED``); what is held out is the *games*: the figures are on a seed the fit
and any choice made for the model never saw (``--seed``, default 7730: game i is dealt
as ``drunter simulate --seed 7730`` deals game i, so games 7730-1 to 7730-600 with the
default ``--games 600``). Tune on another seed (``--seed 4401`` was the one used for
that). The tables:

* ``honest``: four ``honest`` players;
* ``mostly-honest``: two ``honest``, one ``random-votes`` (honest moves, every ballot
  at random) and one ``decoy`` (protects a second type as if it were its card);
* ``mixed``: ``honest``, ``random``, ``bluffer``, ``builder``;
* ``bluffer`` and ``decoy``: four of that policy.

The seats rotate from game to game (game i starts the table at seat i mod 4). Each game
is played through the Game API, replayed from its record, and every player's card
marginal after turns 10, 20 and 30 and at the end (``analysis.record.walk``) is scored
against the card dealt: ECE (10 equal-width bins of the top card's probability,
bootstrap SE over games), top-1, mean top p (what the model says against how often it
is right: under-confident when it says less), the share wrong among beliefs at p >= 0.9
and log-loss, with ``bench/inference.py``'s functions; then who the model takes the seats
for, after turn 20 and at the end: each style's mean probability over the seats, and the
card dealt's probability given that style. ``--baseline-rev REV`` scores the
model at git revision REV over the same observations too. ``--json FILE`` keeps every
figure. Nothing is asserted.

Two tuning aids, refused on the held-out seed: ``--sweep`` prints the ECE of every table
after turn 20 and at the end under the shipped priors and under each of ``bench/fit.py``'s
one-prior steps (a weight a third or three times as large), on the same games (the
inference after those turns kept and weighed again); ``--search ROUNDS`` takes such steps
while they bring the tables nearer the aims (:data:`AIMS`) without making any other
figure worse by more than :data:`SLACK`, and prints the priors it found; with ``--against FILE`` (a
``--baseline-rev`` run on the same games saved with ``--json``) no figure may be worse than that
baseline's by more than half its standard error, and with ``--wide`` each round tries four random
steps of the priors and of the table-level grids instead (:func:`wide_step`).

    python bench/tables.py --games 200 --jobs 2                 # held-out games 7730-1 to 7730-200
    python bench/tables.py --seed 4401 --games 150 --jobs 2     # tuning games
    python bench/tables.py --seed 4401 --games 120 --sweep --jobs 2
    python bench/tables.py --seed 4401 --games 150 --search 3 --jobs 2
    python bench/tables.py --seed 4401 --games 400 --jobs 2 --baseline-rev 99e5e5c --json base.json
    python bench/tables.py --seed 4401 --games 400 --jobs 2 --search 40 --wide --against base.json
    python bench/tables.py --seed 4401 --games 60 --jobs 2 --set bluffs=0.08,0.2   # another grid or prior

``--set NAME=X,Y,...`` (tuning only, repeatable) scores the model with that grid or prior of
``Model`` instead of the shipped one.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import calibration  # bench/calibration.py: the figures of a list of cases
import fit  # bench/fit.py: tuning games' snapshots and the one-prior steps
import inference as bench  # bench/inference.py: today's model from git
from policies import POLICIES

from drunter_notation.analysis.inference import Inference, Model, Posterior, hypotheses
from drunter_notation.analysis.record import walk
from drunter_notation.bots.tournament import bot_game
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.load import judge

TABLES: dict[str, tuple[str, ...]] = {
    "honest": ("honest",) * 4,
    "mostly-honest": ("honest", "honest", "random-votes", "decoy"),
    "mixed": ("honest", "random", "bluffer", "builder"),
    "bluffer": ("bluffer",) * 4,
    "decoy": ("decoy",) * 4,
}
BUCKETS = calibration.BUCKETS


MODEL = [Model()]  # the model scored: the shipped one, or with --set another grid or prior (tuning only)


def changed_model(settings: list[str]) -> Model:
    """The shipped model with each ``NAME=X,Y,...`` of ``settings`` put in its field NAME (a grid or a prior;
    a grid of mixes as ``NAME=A/B,C/D``)."""
    fields: dict[str, Any] = {}
    for item in settings:
        name, _, values = item.partition("=")
        if name not in Model.__dataclass_fields__ or not isinstance(getattr(Model(), name), tuple):
            raise SystemExit(f"--set: Model has no grid or prior named {name!r}")
        nested = isinstance(getattr(Model(), name)[0], tuple)
        try:
            fields[name] = tuple(tuple(float(x) for x in v.split("/")) if nested else float(v)
                                 for v in values.split(","))
        except ValueError:
            raise SystemExit(f"--set {name}: numbers separated by commas (mixes by /), not {values!r}") from None
    return replace(Model(), **fields)


@dataclass(frozen=True)
class Job:
    table: str
    seed: int
    i: int
    rev: str


def seating(table: str, i: int) -> tuple[str, ...]:
    """The policies of game ``i`` of ``table``, seat by seat: the table started at seat i mod 4."""
    policies = TABLES[table]
    return tuple(policies[(s + i) % 4] for s in range(4))


def one_game(job: Job) -> dict[str, Any]:
    """Game ``i`` of a table: the cards dealt and, per bucket, each player's beliefs (None: the game ended
    before it), the baseline's too when asked."""
    names = bench.NAMES
    seats = seating(job.table, job.i)
    g = bot_game(names, [POLICIES[p] for p in seats], job.seed, job.i)
    t = judge(g.to_record(), keep_states=True)
    old = bench.baseline(job.rev)
    hyps = hypotheses("base", load_ruleset("hig-1991"))
    tap = calibration.Tap(Inference(names, hyps, MODEL[0]), old.Inference(names, hyps)) if old else None
    w = walk(t, MODEL[0], tap)  # type: ignore[arg-type]  # Tap stands in for the Inference
    index = {e["turn"]: k for k, e in enumerate(w.turns)}
    at = {b: index.get(int(b)) if b != "end" else len(w.turns) - 1 for b in BUCKETS}
    cards = g.cards
    assert cards is not None  # a bot game deals the cards
    truth = [cards[p][0] for p in names]
    return {"table": job.table, "game": job.i, "seats": seats, "kinds": list(seats), "truth": truth,
            "styles": {b: None if a is None else styles_of(w.posteriors[a], names, truth) for b, a in at.items()},
            "beliefs": {b: None if a is None else [w.turns[a]["beliefs"][p] for p in names] for b, a in at.items()},
            "today": None if tap is None else {b: None if a is None else [tap.old_beliefs[a][p] for p in names]
                                               for b, a in at.items()}}


def styles_of(post: Posterior, names: tuple[str, ...], truth: list[str]) -> list[dict[str, tuple[float, float]]]:
    """Per player, per style: its probability, and the probability of that style with the card dealt."""
    out = []
    for i, (p, card) in enumerate(zip(names, truth, strict=True)):
        row = post.joint[post.players.index(p)][post.cards.index(card)]
        out.append({s: (mass, row[k]) for k, (s, mass) in enumerate(post.style_marginal(names[i]).items())})
    return out


def style_lines(results: list[dict[str, Any]]) -> list[str]:
    """Per table, after turn 20 and at the end: each style's mean probability over the seats, and the card
    dealt's probability given that style (mass-weighted): where the doubt about a seat's card lies."""
    styles = list(next(r["styles"]["end"][0] for r in results))
    lines = ["| table | after | " + " | ".join(styles) + " |", "|---|---|" + "---|" * len(styles)]
    for table in TABLES:
        for b in ("20", "end"):
            seats = [seat for r in results if r["table"] == table and r["styles"][b] is not None
                     for seat in r["styles"][b]]
            if not seats:
                continue
            cells = []
            for s in styles:
                mass = sum(seat[s][0] for seat in seats)
                cells.append(f"{mass / len(seats):.3f} / {sum(seat[s][1] for seat in seats) / mass:.2f}"
                             if mass > 0 else "0")
            lines.append(f"| {table} | {calibration.when(b)} | " + " | ".join(cells) + " |")
    return lines


def figures(results: list[dict[str, Any]], today: bool) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for table in TABLES:
        rs = [r for r in results if r["table"] == table]
        out[table] = {b: {"beliefs": calibration.belief_figures(calibration.cases(rs, b)),
                          "today": calibration.belief_figures(calibration.cases(rs, b, "today")) if today else None}
                      for b in BUCKETS}
    return out


def table_lines(fig: dict[str, dict[str, Any]], which: str) -> list[str]:
    lines = ["| table | after | games | ECE | top-1 | mean top p | wrong at p ≥ 0.9 | log-loss − ln 6 |",
             "|---|---|---|---|---|---|---|---|"]
    for table, row in fig.items():
        for b in BUCKETS:
            m = row[b][which]
            if m is None:
                continue
            lines.append(f"| {table} | {calibration.when(b)} | {m['games']} | {m['ece']:.3f} ±{m['ece_se']:.3f} | "
                         f"{calibration.pc(m['top1'])} ±{100 * m['top1_se']:.1f} | {m['mean_top']:.3f} | "
                         f"{m['wrong']} of {m['sure']} | {m['logloss_vs_uniform']:+.3f} ±{m['logloss_se']:.3f} |")
    return lines


def snapshots(job: Job) -> tuple[str, Any]:
    """Game ``i`` of a table as ``bench/fit.py`` keeps a tuning game: the inference after turns 10, 20, 30
    and at the end, to be weighed again by other priors."""
    return job.table, fit.one_game((seating(job.table, job.i), job.seed, job.i))


def sweep_row(args: tuple[list[tuple[str, Any]], Model]) -> dict[str, dict[str, float]]:
    """Per table, the ECE after turn 20 and at the end under ``model`` (no bootstrap)."""
    games, model = args
    out: dict[str, dict[str, float]] = {}
    for table in TABLES:
        for b, k in (("20", 1), ("end", -1)):
            cs = [(i, belief, g.truth[p]) for i, (t, g) in enumerate(games) if t == table and len(g.infs) > 3
                  for p, belief in g.infs[k].beliefs(model).items()]
            if cs:
                out.setdefault(table, {})[b] = bench.metrics(cs, boot=2)["ece"]
    return out


def sweep(todo: list[Job], jobs: int) -> None:
    """The ECE per table after turn 20 and at the end under the shipped priors and under each of
    ``bench/fit.py``'s one-prior steps (each weight a third or three times as large): which priors move
    which table, on these games. The games are played in ``jobs`` processes, the priors weighed here."""
    with ProcessPoolExecutor(jobs) as pool:
        games = list(pool.map(snapshots, todo, chunksize=4))
    shipped = fit.priors(Model()).split("; ")
    head = " | ".join(f"{t} 20 | {t} end" for t in TABLES)
    print(f"| priors | {head} |\n|---|{'---|' * 2 * len(TABLES)}")
    for m in [Model(), *fit.candidates(Model())]:
        rows = sweep_row((games, m))
        changed = [x for x, y in zip(fit.priors(m).split("; "), shipped, strict=True) if x != y]
        print(f"| {changed[0] if changed else 'shipped'} | "
              + " | ".join(f"{rows[t]['20']:.3f} | {rows[t]['end']:.3f}" for t in TABLES if t in rows) + " |",
              flush=True)


# The targets the search aims at (docs/analysis.md): ECE after turn 20 <= 0.08 at the honest tables, <= 0.05 at the
# end at the mostly-honest one; every other figure no worse than the shipped priors' by more than SLACK, or with
# --against, than a baseline's by more than half its standard error.
AIMS = {("honest", "20"): 0.08, ("mostly-honest", "20"): 0.08, ("mostly-honest", "end"): 0.05}
SLACK = 0.005
# The table-level grids a wide search moves too: they only weigh the players' likelihoods, so the games kept under
# the shipped model are weighed again under them.
TABLE_GRIDS = ("honest_mixes", "deceiver_mixes", "random_shares", "deceiver_shares")


def excess(rows: dict[str, dict[str, float]], limits: dict[str, dict[str, float]]) -> float:
    """How far ``rows`` are from the aims, plus twice how far any other figure is above its limit."""
    out = 0.0
    for t, row in rows.items():
        for b, ece in row.items():
            aim = AIMS.get((t, b))
            out += max(0.0, ece - aim) if aim is not None else 2 * max(0.0, ece - limits[t][b])
    return out


def limits_from(path: str) -> dict[str, dict[str, float]]:
    """Each figure's limit from a ``--baseline-rev`` run saved with ``--json``: the baseline's ECE and half
    its standard error."""
    fig = json.loads(Path(path).read_text("utf-8"))["figures"]
    return {t: {b: fig[t][b]["today"]["ece"] + fig[t][b]["today"]["ece_se"] / 2 for b in ("20", "end")}
            for t in fig if fig[t]["20"]["today"] is not None}


def wide_step(model: Model, rng: random.Random, sigma: float) -> Model:
    """One to three of the priors and table-level grids moved at random: each weight (each share of a mix)
    times exp(N(0, sigma)), normalised; each share of a grid moved by N(0, sigma / 2) on the logit scale."""
    fields: dict[str, Any] = {}
    names = [n for n in asdict(model) if n.endswith("_prior")] + list(TABLE_GRIDS)
    for name in rng.sample(names, rng.randint(1, 3)):
        value = getattr(model, name)
        if name.endswith("_mixes"):
            fields[name] = tuple(_moved(mix, rng, sigma / 2) for mix in value)
        elif name.endswith("_shares"):
            fields[name] = tuple(sorted(min(0.99, max(0.005, 1 / (1 + math.exp(
                math.log(x / (1 - x)) - rng.gauss(0, sigma / 2))))) for x in value))
        else:
            fields[name] = _moved(value, rng, sigma)
    return replace(model, **fields)


def _moved(weights: tuple[float, ...], rng: random.Random, sigma: float) -> tuple[float, ...]:
    xs = [x * math.exp(rng.gauss(0, sigma)) for x in weights]
    return tuple(x / sum(xs) for x in xs)


_GAMES: list[tuple[str, Any]] = []  # the search's games, inherited by the workers that weigh them


def _score(model: Model) -> dict[str, dict[str, float]]:
    return sweep_row((_GAMES, model))


def search(todo: list[Job], jobs: int, rounds: int, against: str | None = None, wide: bool = False) -> None:
    """From the shipped priors, steps kept while they bring the figures nearer the aims (:func:`excess`) on
    these games: ``bench/fit.py``'s one-prior steps, or with ``wide`` four random ones a round
    (:func:`wide_step`); prints the priors found."""
    with ProcessPoolExecutor(jobs) as pool:
        _GAMES[:] = pool.map(snapshots, todo, chunksize=4)
    shipped = _score(Model())
    limits = limits_from(against) if against else {t: {b: x + SLACK for b, x in r.items()} for t, r in shipped.items()}
    best, best_x = Model(), excess(shipped, limits)
    print(f"shipped: excess {best_x:.4f}; " + ", ".join(f"{t} {b} {x:.3f}" for t, r in shipped.items()
                                                        for b, x in r.items()), flush=True)
    rng = random.Random(0)
    with ProcessPoolExecutor(jobs) as pool:  # started now, so that its workers inherit the games
        for r in range(rounds):
            steps = [wide_step(best, rng, 1.2 if r % 3 == 0 else 0.6) for _ in range(4)] if wide \
                else list(fit.candidates(best))
            # one candidate per task: each worker weighs every game (the ECE of a table needs all its cases)
            for m, rows in zip(steps, pool.map(_score, steps), strict=True):
                x = excess(rows, limits)
                if x < best_x - 1e-4:
                    best, best_x = m, x
                    print(f"round {r + 1}: excess {x:.4f} with {fit.priors(m)}; " + ", ".join(
                        f"{t} {b} {v:.3f}" for t, row in rows.items() for b, v in row.items()), flush=True)
    print("priors found:")
    for name, xs in asdict(best).items():
        if name.endswith("_prior") or name in TABLE_GRIDS:
            print(f"    {name} = {json.dumps(xs, default=float)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=600, help="games per table (default 600)")
    ap.add_argument("--seed", type=int, default=7730, help="the games' seed (default 7730: the held-out games)")
    ap.add_argument("--tables", default=",".join(TABLES), help="which tables, comma-separated")
    ap.add_argument("--baseline-rev", default="none", help="also score the model at this git revision ('none')")
    ap.add_argument("--json", help="write every figure to this file")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (1 to 64)")
    ap.add_argument("--sweep", action="store_true",
                    help="on these games, the ECE per table under each one-prior step of bench/fit.py (tuning only)")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=X,Y",
                    help="score the model with this grid or prior instead of the shipped one (tuning only)")
    ap.add_argument("--search", type=int, default=0, metavar="ROUNDS",
                    help="on these games, search the priors toward the aims (AIMS) for ROUNDS rounds (tuning only)")
    ap.add_argument("--against", metavar="FILE",
                    help="with --search: no figure worse than in FILE (a --baseline-rev run's --json on these games) "
                         "by more than half its standard error")
    ap.add_argument("--wide", action="store_true",
                    help="with --search: random steps of the priors and the table-level grids")
    args = ap.parse_args()
    tables = args.tables.split(",")
    if not 1 <= args.games <= 100_000 or not 1 <= args.jobs <= 64 or not set(tables) <= set(TABLES):
        ap.error(f"--games 1-100000, --jobs 1-64, --tables among {', '.join(TABLES)}")
    start = time.time()
    todo = [Job(t, args.seed, i, args.baseline_rev) for t in tables for i in range(1, args.games + 1)]
    if (args.sweep or args.search or args.set) and args.seed == 7730:
        ap.error("--sweep, --search and --set tune: not on the held-out games (seed 7730)")
    MODEL[0] = changed_model(args.set)
    if args.sweep or args.search:
        return sweep(todo, args.jobs) if args.sweep else search(todo, args.jobs, args.search, args.against,
                                                                args.wide)
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(one_game, todo, chunksize=4))
    else:
        results = [one_game(j) for j in todo]
    today = args.baseline_rev != "none"
    fig = figures(results, today)
    print(f"seed {args.seed}, games {args.seed}-1 to {args.seed}-{args.games} per table, 4 players; "
          f"{time.time() - start:.0f} s\n")
    print("\n".join(table_lines(fig, "beliefs")))
    print("\nwho the model takes the seats for: per style, its mean probability / the card dealt's probability "
          "given it\n")
    print("\n".join(style_lines(results)))
    if today:
        print(f"\nthe model at {args.baseline_rev} on the same games:\n")
        print("\n".join(table_lines(fig, "today")))
    if args.json:
        Path(args.json).write_text(json.dumps({"seed": args.seed, "games": args.games, "baseline": args.baseline_rev,
                                               "figures": fig}, indent=1))


if __name__ == "__main__":
    main()
