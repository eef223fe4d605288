"""One record analysed: beliefs after every turn, win chances, turning points, evidence.

:func:`analyze_text` is the per-game function every way of running the analysis
shares (one file, ``--jobs``, ``--dask``): a pure function of the record's text, its
path and the :class:`Settings`, returning the JSON-ready result. ``mapper`` (default
the built-in ``map``) runs the playout estimates, so that one long game can spread
them over processes; the numbers do not depend on how they are spread.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field

from drunter_notation.analysis.evaluate import Estimate, candidates, estimate, seat_goals
from drunter_notation.analysis.inference import Inference, Model, hypotheses, key
from drunter_notation.bots import lean_move
from drunter_notation.errors import DnError, fail
from drunter_notation.explain import evidence as words
from drunter_notation.load import judge
from drunter_notation.replay import Timeline
from drunter_notation.notation.model import GOALS, Hand, Record, Vote
from drunter_notation.notation.parser import parse_bytes, parse_text
from drunter_notation.rules.playout import Playout
from drunter_notation.rules.votes import tally

__all__ = ["Settings", "analyze_bytes", "analyze_record", "analyze_text"]


@dataclass(frozen=True)
class Settings:
    """How to analyse: ``playouts`` per position (0: no win chances), the bot style
    that plays them (``policy``), the ``seed``, how many turning points of each kind
    to list and how many other moves to try at each (``alternatives``)."""

    playouts: int = 200
    policy: str = "greedy"
    seed: int = 0
    turning_points: int = 3
    alternatives: int = 6
    model: Model = field(default_factory=Model)


def _side(cards) -> tuple[str, str]:
    """A ballot's side (yes, no, neither) and its cards as DN writes them."""
    yes = sum(c.value for c in cards if c.side == "yes")
    no = sum(c.value for c in cards if c.side == "no")
    return ("yes" if yes > no else "no" if no > yes else "neither"), " ".join(c.card for c in cards)


class _Evidence:
    """What each player covered, spared and voted, for the sentences."""

    def __init__(self, board):
        self.board = board
        self.spared: dict[tuple[str, tuple], list[int]] = defaultdict(list)
        self.items: dict[str, list[tuple[float, str]]] = defaultdict(list)

    def move(self, player: str, turn: int, pl: Playout, moves, chosen: int) -> None:
        t = pl.t
        reach = {s for m in moves for s in m[3] if t.bvalue[s]}
        hit = {s for s in moves[chosen][3] if t.bvalue[s]}
        for s in sorted(reach - hit):
            self.spared[(player, t.square(s))].append(turn)
        for s in sorted(hit):
            kind, value = self.board.buildings[t.square(s)]
            self.items[player].append((value, words.covered(player, kind, t.square(s), value, turn)))

    def vote(self, voter: str, side: str, cards: str, turn: int, placer: str, squares) -> None:
        targets = [(*self.board.buildings[sq], sq) for sq in squares if sq in self.board.buildings]
        if targets:
            self.items[voter].append((sum(v for _, v, _ in targets), words.voted(
                voter, side, cards, turn, placer, [(k, sq, v) for k, v, sq in targets])))

    def sentences(self, player: str, most: int = 5) -> list[str]:
        items = list(self.items[player])
        for (p, sq), turns in self.spared.items():
            if p == player:
                kind, value = self.board.buildings[sq]
                items.append((value * len(turns), words.spared(player, kind, sq, value, turns)))
        items.sort(key=lambda i: -i[0])
        return [text for _, text in items[:most]]


def _estimate_job(job) -> Estimate:
    return estimate(*job)


def analyze_text(text: str, path: str = "<input>", settings: Settings = Settings(),
                 mapper: Callable = map) -> dict:
    """The analysis of the record ``text`` (see the module docstring). Raises DnError
    for a record that does not parse (P001), is not valid (its first error) or has
    no hands (U003)."""
    return analyze_record(parse_text(text, path), path, settings, mapper)


def analyze_bytes(data: bytes, path: str, settings: Settings = Settings()) -> tuple[str, object]:
    """The per-game function of ``drunter analyze DIR`` (``--jobs``, ``--dask``): the
    file's bytes in, ``("ok", analysis)`` or ``("error", (message line, exit status))``
    out -- plain values, so that any worker can send them back."""
    try:
        return "ok", analyze_record(parse_bytes(data, path), path, settings)
    except DnError as e:
        return "error", (e.format(path), e.exit_code)


def analyze_record(record: Record, path: str = "<input>", settings: Settings = Settings(),
                   mapper: Callable = map) -> dict:
    """The analysis of a parsed record (:func:`analyze_text`)."""
    if not any(isinstance(s, Hand) for s in record.setup):  # known from the parse: no replay to learn it
        raise fail("U003", "the record has no hand lines: the analysis needs to know which moves each player "
                           "could have made", path=path, hint="record the hands as dealt")
    t = judge(record, path, keep_states=True)
    if not t.valid:
        raise DnError(t.errors[0], path=path)
    players, expert = t.players, t.variant == "expert"
    inf, ev, turns, positions, played = walk(t, settings.model)
    truth = None
    if record.reveal is not None:
        truth = {e.player: e.chosen if not expert else key(sorted((e.chosen, e.other), key=GOALS.index))
                 for e in record.reveal.entries}
    out = {"file": path, "players": list(players), "variant": t.variant, "board": t.board.id,
           "rules": t.ruleset.id, "model": settings.model.as_json(), "turns": turns,
           "final": {"beliefs": turns[-1]["beliefs"], "truth": truth,
                     "evidence": {p: ev.sentences(p) for p in players}},
           "policy": settings.policy, "playouts": settings.playouts, "turning_points": []}
    if truth is None or settings.playouts <= 0:
        for e in turns:
            e["win"] = e["win_se"] = None
        return out
    entries = sorted(record.reveal.entries, key=lambda e: players.index(e.player))
    cards = [(e.chosen, e.other) if expert else (e.chosen,) for e in entries]
    kept = [e.chosen for e in entries] if expert else None
    goals = [seat_goals(s, cards, kept) for s in positions]
    jobs = [(s, g, settings.policy, settings.playouts, f"{settings.seed}-{e['turn']}")
            for s, g, e in zip(positions, goals, turns)]
    for e, est in zip(turns, mapper(_estimate_job, jobs)):
        e["win"] = {p: round(x, 4) for p, x in zip(players, est.win)}
        e["win_se"] = {p: round(x, 4) for p, x in zip(players, est.se)}
    out["turning_points"] = _turning_points(turns, positions, played, goals, settings, mapper)
    return out


def walk(t: Timeline, model: Model, keep: bool = False):
    """Go through a valid replay with hands: the inference and the evidence after
    every turn. Returns (inference, evidence, turns, positions, played): per entry
    of ``turns`` (turn 0 first) the position after it and its lean move."""
    players = t.players
    inf = Inference(players, hypotheses(t.variant, t.ruleset), model, keep)
    ev = _Evidence(t.board)
    turns = [{"turn": 0, "player": None, "move": None, "beliefs": inf.beliefs()}]
    positions = [t.initial]  # the position after each entry of ``turns``
    played: list[tuple | None] = [None]  # the lean move of each entry, at the position before it
    before = t.initial
    for step in t.steps:
        d, after = step.decision, step.state
        if d is None:  # choose: no decision of one player's
            before = after
            positions[-1] = after
            continue
        entry = {"turn": d.number, "player": d.player, "move": "pass" if d.move is None else str(d.move)}
        lean = None
        if d.move is not None:
            pl = Playout.from_state(before)
            moves = pl.legal()
            lean = lean_move(pl, d.move)
            chosen = moves.index(lean)
            inf.observe_move(d.player, pl, moves, chosen)
            ev.move(d.player, d.number, pl, moves, chosen)
            if d.vote is not None:
                entry["vote"] = "accepted" if d.vote.accepted else "rejected"
                for ballot in step.event.placement.vote.ballots:
                    if ballot.player == d.player:
                        continue
                    side, cards = _side(tally(Vote((ballot,))).cards)
                    inf.observe_ballot(ballot.player, pl, lean, side)
                    ev.vote(ballot.player, side, cards, d.number, d.player, d.move.squares)
        entry["beliefs"] = inf.beliefs()
        turns.append(entry)
        positions.append(after)
        played.append(lean)
        before = after
    return inf, ev, turns, positions, played


def _turning_points(turns, positions, played, goals, settings: Settings, mapper) -> list[dict]:
    """The placements that cost or gained their player the most win chance, each
    with the best other legal move the playouts found (tried like for like: the
    same number of playouts for the move played and for each alternative)."""
    players = list(turns[0]["beliefs"])
    swings = []
    for i in range(1, len(turns)):
        e = turns[i]
        if played[i] is None:
            continue
        p = e["player"]
        swings.append((round(e["win"][p] - turns[i - 1]["win"][p], 4), i))
    k = settings.turning_points
    chosen = sorted(s for s in swings if s[0] < 0)[:k] + sorted((s for s in swings if s[0] > 0), reverse=True)[:k]
    n = max(20, settings.playouts // 4)
    jobs, where = [], []
    for delta, i in chosen:
        before = positions[i - 1]
        alts = candidates(before, goals[i - 1], played[i], settings.alternatives)
        for j, move in enumerate([played[i]] + alts):
            jobs.append((before, goals[i - 1], settings.policy, n, f"{settings.seed}-{turns[i]['turn']}-{j}", move))
            where.append((i, move))
    results = list(mapper(_estimate_job, jobs))
    out = []
    for delta, i in chosen:
        e = turns[i]
        seat = players.index(e["player"])
        tried = [(est.win[seat], move) for (at, move), est in zip(where, results) if at == i]
        same = tried[0][0]
        best_win, best = max(tried[1:], key=lambda x: x[0], default=(None, None))
        pl = Playout.from_state(positions[i - 1])
        out.append({"turn": e["turn"], "player": e["player"], "move": e["move"], "kind": "mistake" if delta < 0
                    else "gain", "before": turns[i - 1]["win"][e["player"]], "after": e["win"][e["player"]],
                    "delta": delta, "played": round(same, 4), "playouts": n,
                    "better": None if best is None or best_win <= same else
                    {"move": str(pl.to_move(best)), "win": round(best_win, 4)}})
    out.sort(key=lambda tp: tp["turn"])
    return out
