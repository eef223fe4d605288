"""Benchmark: ``drunter analyze``'s beliefs and win chances through the game, at ordinary tables.

Every player is a *held-out* policy of ``bench/policies.py`` (``policies.HELD_OUT``):
written after the model was frozen, never used to fit its priors (those were fitted
on ``policies.FITTED``), and deliberately unlike the model. Each is *honest* (plays
for its own card all game, whatever its style) or a *deceiver* (its moves or ballots
point at another card for some or all of the game):

| kind | policies |
|---|---|
| honest | attacker, steady, coin-voter, sloppy |
| deceiver | switcher, vote-liar, shield, feint |

The ``random`` player is in neither pool. A table of n players (``--players``,
default 4, 3 and 2) of *composition* k has k deceivers and n - k honest players:
each game draws its k deceivers and n - k honest players at random from the two
pools (with replacement, seeded by ``--seed``, the game and the composition) and
seats them in random order. Game j of composition k is dealt as ``drunter
simulate --seed S`` deals game 1000 k + j (``bots.tournament.bot_game``), played
through the Game API, replayed from its record, and the beliefs after each turn
taken from ``analysis.record.walk`` (the card marginal of each player) and scored
against the card dealt after turns 10, 20, 30 (the record's turn numbers, as
``walk`` numbers them) and at the end. A game that ends before a turn does not
count for that turn.

Per (players, composition, turn), and pooled over the *mixed* compositions (0 < k
< n): top-1 (± binomial SE), ECE (10 equal-width bins of the top card's
probability; ± bootstrap SE over games), the share wrong among beliefs with top p
>= 0.9 (how many, and its 95 % Wilson interval), mean top p, log-loss of the true
card minus ln 6 (negative: better than knowing nothing; ± SE) and the top-1 of the
honest seats alone. Win chances: on the first ``--win-games`` games of each
composition, each player's chance to win after turns 10, 20 and 30 as ``drunter
analyze`` computes it (``analysis.evaluate.estimate`` on ``walk``'s position and
posterior, each seat its inferred style mix; ``--win-playouts`` playouts), its
Brier score against who won (a win shared by k counts 1/k) and its skill against
the uniform 1/n (± bootstrap SE over games; ``bench/winchance.py``'s functions).

Prints markdown tables, writes every figure to ``--json`` and reliability diagrams
(4 players: per turn pooled over the compositions, and per composition at the end)
to ``--svg-dir``. ``--baseline-rev REV`` also scores the beliefs of the model at git
revision REV (``bench/inference.py``'s ``baseline``) over the same observations.
The default seed, 9001, was used for nothing else. Nothing is asserted.

    python bench/calibration.py --jobs 2 --json calibration.json
    python bench/calibration.py --quick --players 4
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import inference as bench  # bench/inference.py: the belief metrics, the diagram, today's model from git
import winchance  # bench/winchance.py: Brier score and skill
from policies import HELD_OUT, POLICIES

from drunter_notation.analysis.evaluate import estimate
from drunter_notation.analysis.inference import Inference, Model, hypotheses
from drunter_notation.analysis.record import walk
from drunter_notation.bots.tournament import bot_game, wilson
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.load import judge

HONEST = tuple(p for p, kind in HELD_OUT.items() if kind == "honest")
DECEIVERS = tuple(p for p, kind in HELD_OUT.items() if kind == "deceiver")
BUCKETS = ("10", "20", "30", "end")  # after turn 10, 20, 30, and the final beliefs
EVERY = "every composition"
Beliefs = dict[str, float]
Case = tuple[int, Beliefs, str]  # (game, one player's beliefs, the card dealt)


@dataclass(frozen=True)
class Job:
    """Game ``j`` of composition ``k`` (deceivers) at ``n`` players; ``playouts`` 0: no win chances."""

    n: int
    k: int
    j: int
    seed: int
    playouts: int
    rev: str

    @property
    def number(self) -> int:
        return 1000 * self.k + self.j


def seating(n: int, k: int, seed: int, j: int) -> tuple[str, ...]:
    """The policies of game ``j`` of composition ``k``, seat by seat: k deceivers and n - k
    honest players drawn from the pools, in random order."""
    rng = random.Random(f"calibration-{seed}-{n}-{k}-{j}")
    drawn = [rng.choice(DECEIVERS) for _ in range(k)] + [rng.choice(HONEST) for _ in range(n - k)]
    rng.shuffle(drawn)
    return tuple(drawn)


class Tap:
    """``walk``'s inference: the model's own, and today's (``old``) told the same
    observations, whose beliefs after every turn are kept."""

    def __init__(self, new: Inference, old: Any):
        self.new, self.old = new, old
        self.old_beliefs: list[dict[str, Beliefs]] = []

    def observe_move(self, *a: Any) -> None:
        self.new.observe_move(*a)
        self.old.observe_move(*a)

    def observe_ballot(self, *a: Any) -> None:
        self.new.observe_ballot(*a)
        self.old.observe_ballot(*a)

    def posterior(self) -> Any:
        self.old_beliefs.append(self.old.beliefs())
        return self.new.posterior()


def one_game(job: Job) -> dict[str, Any]:
    """One game: who sat where, the cards, per bucket the beliefs (None: the game ended
    before it), today's when asked, the win chances and who won."""
    names = bench.NAMES[:job.n]
    table = seating(job.n, job.k, job.seed, job.j)
    g = bot_game(names, [POLICIES[s] for s in table], job.seed, job.number)
    t = judge(g.to_record(), keep_states=True)
    old = bench.baseline(job.rev)
    hyps = hypotheses("base", load_ruleset("hig-1991"))
    tap = Tap(Inference(names, hyps, Model()), old.Inference(names, hyps)) if old else None
    w = walk(t, Model(), tap)  # type: ignore[arg-type]  # Tap stands in for the Inference
    index = {e["turn"]: k for k, e in enumerate(w.turns)}
    at: dict[str, int | None] = {b: index.get(int(b)) if b != "end" else len(w.turns) - 1 for b in BUCKETS}
    result, cards = g.result(), g.cards
    if result is None or cards is None:  # a bot game is played to the end, its cards dealt
        raise RuntimeError(f"game {job.number} did not end")
    win = {}
    for b in BUCKETS[:-1] if job.playouts else ():
        a = at[b]
        if a is not None:
            win[b] = estimate(w.positions[a], w.posteriors[a], job.playouts,
                              f"calibration-{job.seed}-{job.number}-{b}").win
    won = result.winners
    return {"n": job.n, "k": job.k, "game": job.number, "seats": table, "kinds": [HELD_OUT[s] for s in table],
            "truth": [cards[p][0] for p in names],
            "beliefs": {b: None if a is None else [w.turns[a]["beliefs"][p] for p in names] for b, a in at.items()},
            "today": None if tap is None else {b: None if a is None else [tap.old_beliefs[a][p] for p in names]
                                               for b, a in at.items()},
            "win": win, "outcome": [1 / len(won) if p in won else 0.0 for p in names]}


def cases(results: Iterable[dict[str, Any]], bucket: str, which: str = "beliefs", only: str | None = None
          ) -> list[Case]:
    """Per player-game that reached ``bucket``: (game, beliefs, card dealt); ``only`` (a kind or a
    policy): those seats alone."""
    out = []
    for r in results:
        per_seat = r[which] and r[which][bucket]
        for b, truth, kind, policy in zip(per_seat or [], r["truth"], r["kinds"], r["seats"], strict=False):
            if only in (None, kind, policy):
                out.append((r["game"], b, truth))
    return out


def belief_figures(cs: list[Case]) -> dict[str, Any] | None:
    """``bench/inference.py``'s metrics, with the games counted, the wrong-when-sure count and its
    Wilson interval, and the log-loss against uniform; None when nothing reached the bucket."""
    if len(cs) < 2:
        return None
    m = bench.metrics(cs)
    wrong = round(m["wrong90"] * m["sure"])
    m.update(games=len({g for g, _, _ in cs}), wrong=wrong, wrong90_interval=wilson(wrong, m["sure"]),
             logloss_vs_uniform=m["logloss"] - bench.UNIFORM)
    return m


def win_figures(results: Iterable[dict[str, Any]], bucket: str) -> dict[str, Any] | None:
    """Brier score (± SE over games) and skill against 1/n (± bootstrap SE) of the win chances at ``bucket``."""
    rows = [({"inferred": r["win"][bucket]}, r["seats"], r["outcome"]) for r in results if bucket in r["win"]]
    if len(rows) < 2:
        return None
    scores = winchance.brier(rows, "inferred")
    n = len(rows[0][2])
    mean = sum(scores) / len(scores)
    value, se = winchance.skill(rows, "inferred")
    base = sum(sum((1 / n - y) ** 2 for y in out) / n for _, _, out in rows) / len(rows)
    return {"games": len(rows), "brier": mean,
            "brier_se": math.sqrt(sum((x - mean) ** 2 for x in scores) / (len(scores) - 1) / len(scores)),
            "uniform_brier": base, "skill": value, "skill_se": se}


def groups(n: int) -> list[tuple[str, tuple[int, ...]]]:
    """The rows of a table of ``n`` players: each composition, the mixed ones pooled, all pooled."""
    label = {0: "0 deceivers (all honest)", 1: "1 deceiver", n: f"all {n} deceivers"}
    out: list[tuple[str, tuple[int, ...]]] = [(label.get(k, f"{k} deceivers"), (k,)) for k in range(n + 1)]
    if n > 2:  # with 2 players the one mixed composition is its own row
        out.insert(n, (f"mixed (1-{n - 1} deceivers)", tuple(range(1, n))))
    return [*out, (EVERY, tuple(range(n + 1)))]


def figures(results: list[dict[str, Any]], n: int, today: bool) -> dict[str, dict[str, Any]]:
    """Every figure of ``n`` players: per row of :func:`groups`, per bucket."""
    out: dict[str, dict[str, Any]] = {}
    for name, ks in groups(n):
        rs = [r for r in results if r["n"] == n and r["k"] in ks]
        out[name] = {}
        for b in BUCKETS:
            out[name][b] = {"beliefs": belief_figures(cases(rs, b)),
                            "honest": belief_figures(cases(rs, b, only="honest")),
                            "deceivers": belief_figures(cases(rs, b, only="deceiver")),
                            "today": belief_figures(cases(rs, b, "today")) if today else None,
                            "today_honest": belief_figures(cases(rs, b, "today", "honest")) if today else None,
                            "win": win_figures(rs, b) if b != "end" else None}
    return out


def pc(x: float) -> str:
    return f"{100 * x:.1f} %"


def by_policy(results: list[dict[str, Any]], n: int) -> dict[str, dict[str, Any] | None]:
    """The final beliefs about each held-out policy's seats, over every composition of ``n`` players."""
    rs = [r for r in results if r["n"] == n]
    return {p: belief_figures(cases(rs, "end", only=p)) for p in HELD_OUT}


def policy_table(fig: dict[str, dict[str, Any] | None]) -> list[str]:
    lines = ["| policy | kind | seats | top-1 | wrong at p ≥ 0.9 | mean top p | log-loss − ln 6 |",
             "|---|---|---|---|---|---|---|"]
    for p, m in fig.items():
        if m is not None:
            lines.append(f"| {p} | {HELD_OUT[p]} | {m['n']} | {pc(m['top1'])} ±{100 * m['top1_se']:.1f} | "
                         f"{pc(m['wrong90'])} of {m['sure']} | {m['mean_top']:.3f} | "
                         f"{m['logloss_vs_uniform']:+.3f} ±{m['logloss_se']:.3f} |")
    return lines


def when(bucket: str) -> str:
    return "end" if bucket == "end" else f"turn {bucket}"


def belief_table(fig: dict[str, dict[str, Any]], which: str = "beliefs") -> list[str]:
    lines = ["| composition | after | games | top-1 | ECE | wrong at p ≥ 0.9 (95 % interval) | mean top p "
             "| log-loss − ln 6 | honest seats' top-1 |", "|---|---|---|---|---|---|---|---|---|"]
    for name, row in fig.items():
        for b in BUCKETS:
            m, h = row[b][which], row[b]["honest" if which == "beliefs" else "today_honest"]
            if m is None:
                lines.append(f"| {name} | {when(b)} | 0 | | | | | | |")
                continue
            low, high = m["wrong90_interval"]
            sure = f"{pc(m['wrong90'])} of {m['sure']} ({pc(low)}-{pc(high)})" if m["sure"] else "- of 0"
            lines.append(
                f"| {name} | {when(b)} | {m['games']} | {pc(m['top1'])} ±{100 * m['top1_se']:.1f} | "
                f"{m['ece']:.3f} ±{m['ece_se']:.3f} | {sure} | {m['mean_top']:.3f} | "
                f"{m['logloss_vs_uniform']:+.3f} ±{m['logloss_se']:.3f} | "
                + (f"{pc(h['top1'])} ±{100 * h['top1_se']:.1f} |" if h else "- |"))
    return lines


def _ece_gap(a: dict[str, Any], b: dict[str, Any]) -> str:
    """``a``'s ECE minus ``b``'s, ± their errors combined as if independent."""
    return f"{a['ece'] - b['ece']:+.3f} ±{math.hypot(a['ece_se'], b['ece_se']):.3f}"


def midgame_table(fig: dict[str, dict[str, Any]]) -> list[str]:
    """Per table, the ECE after turn 20 and 30 against the end's, and what the model said and was right
    (mean top p / top-1): the difference's error is the two errors combined as if independent (the same
    games on both sides: the true error is smaller). Last, each figure's mean over the compositions."""
    lines = ["| composition | ECE turn 20 | ECE turn 30 | ECE end | turn 20 - end | turn 30 - end "
             "| said / right, turn 20 | said / right, end |", "|---|---|---|---|---|---|---|---|"]
    single: list[tuple[float, float, float]] = []
    for name, row in fig.items():
        m = {b: row[b]["beliefs"] for b in ("20", "30", "end")}
        if any(x is None for x in m.values()):
            continue
        t20, t30, end = m["20"], m["30"], m["end"]
        if not name.startswith(("mixed", EVERY)):
            single.append((t20["ece"], t30["ece"], end["ece"]))
        lines.append(f"| {name} | {t20['ece']:.3f} ±{t20['ece_se']:.3f} | {t30['ece']:.3f} ±{t30['ece_se']:.3f} | "
                     f"{end['ece']:.3f} ±{end['ece_se']:.3f} | {_ece_gap(t20, end)} | {_ece_gap(t30, end)} | "
                     f"{t20['mean_top']:.2f} / {t20['top1']:.2f} | {end['mean_top']:.2f} / {end['top1']:.2f} |")
    if single:
        mean = [sum(x[i] for x in single) / len(single) for i in range(3)]
        lines.append(f"| mean over the {len(single)} compositions | {mean[0]:.3f} | {mean[1]:.3f} | {mean[2]:.3f} | "
                     f"{mean[0] - mean[2]:+.3f} | {mean[1] - mean[2]:+.3f} | | |")
    return lines


def win_table(fig: dict[str, dict[str, Any]]) -> list[str]:
    lines = ["| composition | after | games | Brier ±SE | uniform 1/n | skill ±SE |", "|---|---|---|---|---|---|"]
    for name, row in fig.items():
        for b in BUCKETS[:-1]:
            w = row[b]["win"]
            if w is not None:
                lines.append(f"| {name} | {when(b)} | {w['games']} | {w['brier']:.4f} ±{w['brier_se']:.4f} | "
                             f"{w['uniform_brier']:.4f} | {100 * w['skill']:+.1f} % ±{100 * w['skill_se']:.1f} |")
    return lines


def diagrams(fig: dict[str, dict[str, Any]], svg_dir: Path) -> None:
    """4 players: one diagram per bucket over every composition, one per composition at the end."""
    svg_dir.mkdir(parents=True, exist_ok=True)
    for b in BUCKETS:
        row = fig[EVERY][b]
        if row["beliefs"]:
            bench.svg(svg_dir / f"reliability-4p-{when(b).replace(' ', '')}.svg",
                      f"4 players, {'at the end' if b == 'end' else 'after ' + when(b)}, every table",
                      row["beliefs"], row["today"] or {})
    for name, ks in groups(4):
        row = fig[name]["end"]
        if row["beliefs"] and len(ks) == 1:
            bench.svg(svg_dir / f"reliability-4p-end-{ks[0]}-deceivers.svg", f"4 players, end, {name}",
                      row["beliefs"], row["today"] or {})


def report(everything: dict[str, Any]) -> None:
    """The tables of a run, from its figures (a run's own, or a saved ``--json``'s)."""
    baseline = everything["baseline"]
    for n, fig in everything["figures"].items():
        print(f"\n### {n} players: beliefs (a game that ended before a turn does not count for it)\n")
        print("\n".join(belief_table(fig)))
        if baseline != "none":
            print(f"\n{n} players, the model at {baseline} on the same games:\n")
            print("\n".join(belief_table(fig, "today")))
        print(f"\n### {n} players: mid-game against the end, per table\n")
        print("\n".join(midgame_table(fig)))
        print(f"\n### {n} players: the final beliefs per policy, over every composition\n")
        print("\n".join(policy_table(everything["by_policy"][n])))
        print(f"\n### {n} players: win chances\n")
        print("\n".join(win_table(fig)))


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", default="4,3,2", help="player counts, comma-separated (2 to 4)")
    ap.add_argument("--games", type=int, default=200, help="games per composition with 4 players")
    ap.add_argument("--small-games", type=int, default=80, help="games per composition with 2 or 3 players")
    ap.add_argument("--win-games", type=int, default=60,
                    help="of those, how many get win chances (4 players; 2 and 3: half as many)")
    ap.add_argument("--win-playouts", type=int, default=100, help="playouts per win-chance forecast")
    ap.add_argument("--seed", type=int, default=9001)
    ap.add_argument("--quick", action="store_true", help="a smoke run: 12 games, 6 with win chances, 30 playouts")
    ap.add_argument("--baseline-rev", default="none",
                    help="also score the model as of this git revision over the same games ('none': not)")
    ap.add_argument("--json", help="write every figure to this file")
    ap.add_argument("--svg-dir", default=str(bench.ROOT / "docs" / "img" / "calibration"),
                    help="where the reliability diagrams go")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (1 to 64)")
    ap.add_argument("--tables-from", metavar="JSON", help="print the tables of a run saved with --json; play nothing")
    args = ap.parse_args(argv)
    if args.tables_from:
        report(json.loads(Path(args.tables_from).read_text()))
        return
    try:
        counts = [int(x) for x in args.players.split(",")]
    except ValueError:
        ap.error("--players: comma-separated numbers")
    if any(not 2 <= n <= 4 for n in counts):
        ap.error("--players: 2, 3 or 4")
    if args.quick:
        args.games, args.small_games, args.win_games, args.win_playouts = 12, 12, 6, 30
    jobs = max(1, min(args.jobs, 64))
    if args.baseline_rev != "none" and bench.baseline(args.baseline_rev) is None:
        ap.error(f"--baseline-rev {args.baseline_rev}: no such revision in this git clone")
    today = args.baseline_rev != "none"
    start = time.perf_counter()
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    print(f"seed {args.seed}; players {args.players}; games per composition {args.games} (4 players), "
          f"{args.small_games} (2, 3); win chances on {args.win_games} (4 players), {args.win_games // 2} (2, 3) "
          f"at {args.win_playouts} playouts; baseline {args.baseline_rev}; --jobs {jobs}; load average {load}")
    todo = []
    for n in counts:
        games, wins = (args.games, args.win_games) if n == 4 else (args.small_games, args.win_games // 2)
        todo += [Job(n, k, j, args.seed, args.win_playouts if j <= wins else 0, args.baseline_rev)
                 for k in range(n + 1) for j in range(1, games + 1)]
    todo.sort(key=lambda job: -job.playouts)  # the long ones first: the pool ends together
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(one_game, todo, chunksize=4))
    else:
        results = [one_game(job) for job in todo]
    played = time.perf_counter() - start
    everything: dict[str, Any] = {"seed": args.seed, "command": " ".join(sys.argv), "baseline": args.baseline_rev,
                                  "pools": {"honest": HONEST, "deceiver": DECEIVERS}, "figures": {},
                                  "by_policy": {}}
    for n in counts:
        everything["figures"][n] = fig = figures(results, n, today)
        everything["by_policy"][n] = by_policy(results, n)
        if n == 4:
            diagrams(fig, Path(args.svg_dir))
    report(everything)
    if args.json:
        Path(args.json).write_text(json.dumps(everything, indent=1) + "\n")
    with open("/proc/loadavg") as f:
        load = " ".join(f.read().split()[:3])
    print(f"\n({len(results)} games played and analysed in {played:.0f} s, {time.perf_counter() - start:.0f} s in "
          f"all; load average {load})")


if __name__ == "__main__":
    main()
