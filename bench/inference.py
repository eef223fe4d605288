"""Benchmark: how well ``drunter analyze`` finds the hidden building cards, on players it never saw.

The players are the policies of ``bench/policies.py``, written for this benchmark
alone (none is the model's code or a shipped bot). A *table* seats one policy per
seat: ``--policies a,b,c`` is three tables, each with one policy in every seat;
``--table a,b,c,d`` (repeatable) is one mixed table, one policy per seat (with
fewer players, its first seats). Games are dealt as ``drunter simulate --seed S``
deals game i (``bots.tournament.bot_game``), played through the Game API, replayed
from their records, and the beliefs (``analysis.record.walk``) scored against the
cards dealt, at mid-game (after half the turns) and at the end:

* top-1 (chance 1/6), ECE (10 equal-width bins of the top card's probability),
  the share wrong among beliefs with top p >= 0.9, mean top p, log-loss of the
  true card (uniform: ln 6 = 1.792), with standard errors (ECE: bootstrap over
  games);
* side by side with today's model: ``main``'s inference module as of
  ``--baseline-rev``, read from git and driven over the same games.

**Leave one policy out**: the model's free parameters (its priors over styles,
lapses and ballot noise) are fitted, for each table, by log-loss on *tuning* games
(``--tune-seed``) of the 4-player one-policy tables of ``--tune-policies`` (default:
the eight the shipped priors were fitted on) whose policy does not sit at that
table; the figures are on *test* games (``--seed``). The policies written after the
model was frozen (``policies.LATER``) are never tuned on by default. Both seeds are printed.
A reliability diagram per 4-player table is written to ``--svg-dir``. Nothing is
asserted; it prints numbers.

    python bench/inference.py --jobs 2                      # what docs/analysis.md reports
    python bench/inference.py --policies honest,bluffer --table honest,random,bluffer,builder --games 50
"""
from __future__ import annotations

import argparse
import copy
import functools
import math
import random
import subprocess
import sys
import time
import types
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fit import candidates, priors
from policies import FITTED, POLICIES

from drunter_notation.analysis.inference import Inference, Model, hypotheses
from drunter_notation.analysis.record import walk
from drunter_notation.bots.tournament import bot_game
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.load import judge

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("Anna", "Ben", "Cleo", "Dora")
UNIFORM = math.log(6)


@dataclass(frozen=True)
class Table:
    """Who sits where: one policy per seat (a one-policy table repeats it)."""

    seats: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.seats[0] if len(set(self.seats)) == 1 else "mixed " + "+".join(self.seats)

    def at(self, players: int) -> tuple[str, ...]:
        return self.seats[:players]


def tables(policies: str | None, mixed: list[str]) -> list[Table]:
    """``--policies`` (each a table of one policy) and ``--table`` (each one mixed
    table of four seats): the tables to report on. Raises ValueError on an unknown
    policy or a table that is not four seats."""
    out = []
    for name in (policies.split(",") if policies else []):
        out.append(Table((name.strip(),) * 4))
    for text in mixed:
        seats = tuple(s.strip() for s in text.split(","))
        if len(seats) != 4:
            raise ValueError(f"--table {text!r}: give one policy for each of the four seats")
        out.append(Table(seats))
    for t in out:
        for s in t.seats:
            if s not in POLICIES:
                raise ValueError(f"no policy named {s!r}; the policies are {', '.join(POLICIES)}")
    return out


@functools.cache
def baseline(rev: str) -> types.ModuleType | None:
    """Today's model: ``drunter_notation/analysis/inference.py`` as of ``rev``, from git;
    None for ``none`` or outside a git clone (a copy of the files has no history)."""
    run = subprocess.run(["git", "show", f"{rev}:drunter_notation/analysis/inference.py"], cwd=ROOT,
                         capture_output=True, text=True) if rev != "none" else None
    if run is None or run.returncode:
        return None
    src = run.stdout.replace("pl.t.", "pl.tables.")  # the lean position's tables were called ``t`` then
    mod = types.ModuleType("baseline_inference")
    sys.modules[mod.__name__] = mod
    exec(compile(src, f"{rev}:inference.py", "exec"), mod.__dict__)
    return mod


class Both:
    """Drives the new inference and today's over the same observations (``walk``'s
    ``inference``), keeping both at mid-game."""

    def __init__(self, players, hyps, model, old, mid):
        self.new, self.old = Inference(players, hyps, model), old and old.Inference(players, hyps)
        self.uniform = Inference(players, hyps, model).posterior()
        self.calls, self.mid = 0, mid
        self.at_mid = None

    def observe_move(self, *a):
        self.new.observe_move(*a)
        if self.old:
            self.old.observe_move(*a)

    def observe_ballot(self, *a):
        self.new.observe_ballot(*a)
        if self.old:
            self.old.observe_ballot(*a)

    def posterior(self):
        if self.calls == self.mid:
            self.at_mid = (copy.deepcopy(self.new), self.old and self.old.beliefs())
        self.calls += 1
        return self.uniform  # walk's per-turn beliefs are not scored here


@dataclass(frozen=True)
class Job:
    seats: tuple[str, ...]
    seed: int
    i: int
    rev: str


def one_game(job: Job) -> dict:
    """Game ``i``: the truth, and each model's evidence or beliefs at mid-game and at the end."""
    names = NAMES[:len(job.seats)]
    makers = [functools.partial(POLICIES[s]) for s in job.seats]
    g = bot_game(names, makers, job.seed, job.i)
    t = judge(g.to_record(), keep_states=True)
    turns = sum(1 for s in t.steps if s.decision is not None)
    both = Both(names, hypotheses("base", load_ruleset("hig-1991")), Model(), baseline(job.rev), turns // 2)
    walk(t, Model(), both)
    return {"truth": {p: g.cards[p][0] for p in names}, "seats": job.seats, "mid": both.at_mid[0],
            "end": both.new, "old_mid": both.at_mid[1], "old_end": both.old and both.old.beliefs()}


def play(seats, seed, games, jobs, rev, pool) -> list[dict]:
    todo = [Job(seats, seed, i, rev) for i in range(1, games + 1)]
    return list(pool.map(one_game, todo, chunksize=4)) if pool else [one_game(j) for j in todo]


def metrics(cases: list[tuple[int, dict, str]], boot: int = 200) -> dict:
    """``cases``: (game, beliefs of one player, true card). The figures and their standard errors."""
    rows = []
    for game, b, truth in cases:
        card, conf = max(b.items(), key=lambda kv: kv[1])
        rows.append((game, conf, card == truth, -math.log(max(b[truth], 1e-12))))
    n = len(rows)

    def ece(rs):
        bins = [[0, 0.0, 0] for _ in range(10)]
        for _, conf, hit, _ in rs:
            k = min(int(conf * 10), 9)
            bins[k][0] += 1
            bins[k][1] += conf
            bins[k][2] += hit
        return sum(abs(b[2] - b[1]) for b in bins if b[0]) / len(rs), bins

    value, bins = ece(rows)
    by_game: dict[int, list] = {}
    for r in rows:
        by_game.setdefault(r[0], []).append(r)
    games = list(by_game)
    rng = random.Random(0)
    boots = [ece([r for g in rng.choices(games, k=len(games)) for r in by_game[g]])[0] for _ in range(boot)]
    mean_boot = sum(boots) / boot
    top1 = sum(r[2] for r in rows) / n
    sure = [r for r in rows if r[1] >= 0.9]
    wrong = sum(not r[2] for r in sure) / len(sure) if sure else 0.0
    ll = [r[3] for r in rows]
    mll = sum(ll) / n
    return {"n": n, "top1": top1, "top1_se": math.sqrt(top1 * (1 - top1) / n), "ece": value,
            "ece_se": math.sqrt(sum((x - mean_boot) ** 2 for x in boots) / (boot - 1)),
            "sure": len(sure), "wrong90": wrong,
            "wrong90_se": math.sqrt(wrong * (1 - wrong) / len(sure)) if sure else 0.0,
            "mean_top": sum(r[1] for r in rows) / n, "logloss": mll,
            "logloss_se": math.sqrt(sum((x - mll) ** 2 for x in ll) / (n - 1) / n),
            "bins": [(b[0], b[1] / b[0], b[2] / b[0]) for b in bins if b[0]]}


def cases(results, when: str, model: Model | None) -> list:
    """Per player-game: (game, beliefs, truth) at ``when`` (mid, end) by the new
    model with ``model``'s priors, or by today's model (``model`` None)."""
    out = []
    for g, r in enumerate(results):
        beliefs = r["old_" + when] if model is None else r[when].beliefs(model)
        out += [(g, beliefs[p], r["truth"][p]) for p in r["truth"]]
    return out


# Where every fit starts: the hand-set priors of ``Model``'s own defaults would be the shipped ones (fitted by
# bench/fit.py on the tuning tables), so the leave-one-out fits start from flat priors instead.
START = Model().with_priors(honest_mix_prior=(1, 1, 1, 1), deceiver_mix_prior=(1, 1), random_share_prior=(1, 1, 1),
                            deceiver_share_prior=(1, 1, 1, 1), sharpness_prior=(1, 1, 1), noise_prior=(1, 1, 1))


def fit(tuning: list[dict], rounds: int = 2) -> tuple[Model, float]:
    """The priors with the lowest mean log-loss (mid-game and end) on ``tuning``:
    coordinate search from the default, ``rounds`` passes."""
    if not tuning:  # every policy of the run sits at this table: nothing left to fit on
        return START, float("nan")

    def loss(m):
        cs = cases(tuning, "end", m) + cases(tuning, "mid", m)
        return sum(-math.log(max(b[t], 1e-12)) for _, b, t in cs) / len(cs)

    best = START
    best_loss = loss(best)
    for _ in range(rounds):
        for m in list(candidates(best)):
            x = loss(m)
            if x < best_loss - 1e-4:
                best, best_loss = m, x
    return best, best_loss


def _fit_job(args):
    return fit(*args)


def svg(path: Path, title: str, new: dict, old: dict) -> None:
    """A reliability diagram: per bin of the top card's probability, its accuracy
    (circles sized by the number of beliefs), the new model and today's."""
    size, pad = 260, 36
    span = size - 2 * pad

    def xy(c, a):
        return pad + c * span, size - pad - a * span

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size + 26}" width="{size}" '
             f'height="{size + 26}" font-family="sans-serif" font-size="10">',
             f'<rect width="{size}" height="{size + 26}" fill="#fff"/>',
             f'<text x="{size / 2}" y="14" text-anchor="middle" font-size="11" font-weight="700">{title}</text>']
    for v in (0, 0.5, 1):
        x, y = xy(v, v)
        parts.append(f'<line x1="{pad}" x2="{size - pad}" y1="{y}" y2="{y}" stroke="#ddd"/>'
                     f'<text x="{pad - 4}" y="{y + 3}" text-anchor="end">{v:.1f}</text>'
                     f'<text x="{x}" y="{size - pad + 13}" text-anchor="middle">{v:.1f}</text>')
    x0, y0 = xy(0, 0)
    x1, y1 = xy(1, 1)
    parts.append(f'<line x1="{x0}" y1="{y0}" x2="{x1}" y2="{y1}" stroke="#999" stroke-dasharray="4 3"/>')
    for m, colour, dy in ((old, "#c0392b", 0), (new, "#1f5fa8", 0)) if old else ((new, "#1f5fa8", 0),):
        total = sum(n for n, _, _ in m["bins"])
        pts = []
        for n, c, a in m["bins"]:
            x, y = xy(c, a)
            pts.append(f"{x:.1f},{y + dy:.1f}")
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{2 + 8 * math.sqrt(n / total):.1f}" '
                         f'fill="{colour}" fill-opacity="0.45" stroke="{colour}"/>')
        parts.append(f'<polyline fill="none" stroke="{colour}" points="{" ".join(pts)}"/>')
    parts.append(f'<text x="{size / 2}" y="{size - 8}" text-anchor="middle">probability of the top card</text>'
                 f'<text x="12" y="{size / 2}" transform="rotate(-90 12 {size / 2})" text-anchor="middle">'
                 f'share right</text>'
                 f'<circle cx="{pad}" cy="{size + 12}" r="4" fill="#1f5fa8"/><text x="{pad + 8}" y="{size + 15}">'
                 f'new: ECE {new["ece"]:.3f}</text>'
                 + (f'<circle cx="{pad + 110}" cy="{size + 12}" r="4" fill="#c0392b"/>'
                    f'<text x="{pad + 118}" y="{size + 15}">today: ECE {old["ece"]:.3f}</text>' if old else "")
                 + '</svg>')
    path.write_text("\n".join(parts) + "\n")


def line(label: str, m: dict) -> str:
    return (f"  {label:<6} {m['top1']:6.1%} ±{m['top1_se']:4.1%}  {m['ece']:.3f} ±{m['ece_se']:.3f}  "
            f"{m['wrong90']:6.1%} of {m['sure']:>4} ±{m['wrong90_se']:4.1%}  {m['mean_top']:.3f}  "
            f"{m['logloss']:.3f} ±{m['logloss_se']:.3f} ({m['logloss'] - UNIFORM:+.3f})")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--policies", default=",".join(POLICIES),
                    help="comma-separated: each is a table with that one policy in every seat")
    ap.add_argument("--table", action="append", default=None,
                    help="one mixed table: four policies, one per seat, comma-separated (repeatable)")
    ap.add_argument("--players", default="4,3,2", help="player counts to report (tuning: always 4 players)")
    ap.add_argument("--games", type=int, default=150, help="test games per table with 4 players")
    ap.add_argument("--small-games", type=int, default=60, help="test games per table with 2 or 3 players")
    ap.add_argument("--tune-games", type=int, default=40, help="tuning games per one-policy table")
    ap.add_argument("--seed", type=int, default=2001, help="seed of the test games")
    ap.add_argument("--tune-seed", type=int, default=1001, help="seed of the tuning games")
    ap.add_argument("--tune-policies", default=",".join(FITTED),
                    help="the policies whose tuning games the fits use (each table's own left out)")
    ap.add_argument("--baseline-rev", default="d40a9f4",
                    help="the git revision whose model is 'today'; 'none' (or no git clone) leaves it out")
    ap.add_argument("--svg-dir", default=str(ROOT / "docs" / "img"), help="where the reliability diagrams go")
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)
    mixed = args.table if args.table is not None else ["honest,random,bluffer,builder", "soft,decoy,random-votes,hider"]
    try:
        todo = tables(args.policies, mixed)
        singles = [t.seats[0] for t in tables(args.tune_policies, [])]
    except ValueError as e:
        ap.error(str(e))
    if args.tune_seed == args.seed:
        ap.error("--tune-seed and --seed must differ: the figures are on games the fit never saw")
    counts = [int(x) for x in args.players.split(",")]
    start = time.perf_counter()
    print(f"tuning seed {args.tune_seed} ({args.tune_games} games per policy, 4 players); test seed {args.seed}; "
          f"baseline {args.baseline_rev}; load {open('/proc/loadavg').read().split()[:3]}")
    pool = ProcessPoolExecutor(args.jobs) if args.jobs > 1 else None
    tuning = {s: play((s,) * 4, args.tune_seed, args.tune_games, args.jobs, args.baseline_rev, pool)
              for s in singles}
    fits = {}
    fit_jobs = [(t.name, [r for s, rs in tuning.items() if s not in t.seats for r in rs]) for t in todo]
    mapper = pool.map if pool else map
    for (name, _), (model, loss) in zip(fit_jobs, mapper(_fit_job, [(rs,) for _, rs in fit_jobs])):
        fits[name] = model
        left = ",".join(s for s in singles if s not in dict((t.name, t) for t in todo)[name].seats)
        print(f"fit for {name} (on {left}): log-loss {loss:.3f}; {priors(model)}")
    print(f"  ({time.perf_counter() - start:.0f} s)")
    print("per table: top-1 ±se, ECE ±se, wrong among top p >= 0.9 (of how many) ±se, mean top p, "
          f"log-loss ±se (against uniform {UNIFORM:.3f})")
    svg_dir = Path(args.svg_dir)
    svg_dir.mkdir(parents=True, exist_ok=True)
    for n in counts:
        for t in todo:
            games = args.games if n == 4 else args.small_games
            results = play(t.at(n), args.seed, games, args.jobs, args.baseline_rev, pool)
            for when in ("end", "mid"):
                new = metrics(cases(results, when, fits[t.name]))
                old = metrics(cases(results, when, None)) if results[0]["old_end"] is not None else None
                print(f"{t.name}, {n} players, {games} games, {'final beliefs' if when == 'end' else 'mid-game'}:")
                print(line("new", new))
                print(line("today", old) if old else "  today: not run (no git history of its revision here)")
                if n == 4 and when == "end":
                    svg(svg_dir / f"reliability-{t.name.replace(' ', '-').replace('+', '-')}.svg",
                        f"{t.name}, 4 players, {games} games", new, old)
            sys.stdout.flush()
    if pool:
        pool.shutdown()
    print(f"({time.perf_counter() - start:.0f} s; load {open('/proc/loadavg').read().split()[:3]})")


if __name__ == "__main__":
    main()
