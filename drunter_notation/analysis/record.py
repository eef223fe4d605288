"""One record analysed: beliefs after every turn, win chances, turning points, evidence.

:func:`analyze_text` is the per-game function every way of running the analysis
shares (one file, ``--jobs``, ``--dask``): a pure function of the record's text, its
path and the :class:`Settings`, returning the JSON-ready result. ``mapper`` (default
the built-in ``map``) runs the playout estimates, so that one long game can spread
them over processes; the numbers do not depend on how they are spread.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from drunter_notation import i18n
from drunter_notation.analysis.evaluate import Estimate, candidates, difference, estimate, mean_se, shares
from drunter_notation.analysis.inference import Inference, Model, Posterior, favourite, hypotheses, key
from drunter_notation.bots import canonical_bot, lean_move, sims_per_decision
from drunter_notation.errors import DnError, fail
from drunter_notation.i18n import N_, _, format_number
from drunter_notation.load import judge
from drunter_notation.notation.model import GOALS, Hand, Record, Square, Turn, Vote, square_name
from drunter_notation.notation.parser import parse_bytes, parse_text
from drunter_notation.replay import Timeline
from drunter_notation.rules.board import Board
from drunter_notation.rules.playout import Playout
from drunter_notation.rules.state import State
from drunter_notation.rules.votes import Counted, tally

if TYPE_CHECKING:
    from drunter_notation.rules.playout import LeanMove

Json = dict[str, Any]  # a JSON object of the analysis, as json.dumps writes it
_Job = TypeVar("_Job")
_Result = TypeVar("_Result")
Mapper = Callable[[Callable[[_Job], _Result], Iterable[_Job]], Iterator[_Result]]  # map, or a pool's

__all__ = ["Settings", "Walk", "analyze_bytes", "analyze_record", "analyze_text", "walk"]


MAX_PLAYOUTS = 100_000  # per position
# The search work of one position: its playouts times the simulations the policy runs per decision (a style
# runs 1, ismcts:sims=N runs N), bounded in total so that neither cap alone lets both be asked at their most.
MAX_WORK = 100_000
ONE_PLAYOUT = N_("0 (no win chances) or at least 2: one playout gives a chance without a standard error")


@dataclass(frozen=True)
class Settings:
    """How to analyse: ``playouts`` per position (0: no win chances), who plays them
    (``policy``: ``inferred``, each seat the style mix the model inferred for it, or
    one bot name for every seat), the ``seed``, how many candidate turning points of
    each kind to examine and how many other moves to try at each (``alternatives``).
    Raises DnError (U002) for a policy that is no bot, or playouts outside 0 to
    ``MAX_PLAYOUTS``, exactly 1 (no standard error) or, times the policy's simulations per
    decision, above ``MAX_WORK``."""

    playouts: int = 200
    policy: str = "inferred"
    seed: int = 0
    turning_points: int = 3
    alternatives: int = 6
    model: Model = field(default_factory=Model)

    def __post_init__(self) -> None:
        if not 0 <= self.playouts <= MAX_PLAYOUTS:
            raise fail("U002", _("playouts must be 0 to {most}, not {playouts}").format(
                most=format_number(MAX_PLAYOUTS), playouts=format_number(self.playouts)))
        if self.playouts == 1:  # a win chance and its standard error need two playouts at least, as the CLI says
            raise fail("U002", _(ONE_PLAYOUT))
        if self.policy == "inferred":
            return
        sims = sims_per_decision(canonical_bot(self.policy))  # an unknown bot or setting: U002 here, not in a worker
        if self.playouts * sims > MAX_WORK:
            raise fail("U002", _("{playouts} playouts a position times sims={sims} for each decision in them is "
                                 "{work}, more than the {most} a position allows; give fewer playouts or fewer "
                                 "sims").format(playouts=format_number(self.playouts), sims=sims,
                                                work=format_number(self.playouts * sims),
                                                most=format_number(MAX_WORK)))


def _side(cards: Iterable[Counted]) -> tuple[str, str]:
    """A ballot's side (yes, no, neither) and its cards as DN writes them."""
    yes = sum(c.value for c in cards if c.side == "yes")
    no = sum(c.value for c in cards if c.side == "no")
    return ("yes" if yes > no else "no" if no > yes else "neither"), " ".join(c.card for c in cards)


class _Evidence:
    """What each player covered, spared and voted, as data (the JSON's ``evidence``;
    :func:`..explain.evidence.said` words an item)."""

    def __init__(self, board: Board):
        self.board = board
        self.spared: dict[tuple[str, Square], list[int]] = defaultdict(list)
        self.items: dict[str, list[tuple[float, dict[str, Any]]]] = defaultdict(list)

    def _building(self, sq: Square) -> dict[str, Any]:
        kind, value = self.board.buildings[sq]
        return {"building": kind, "square": square_name(sq), "value": value}

    def move(self, player: str, turn: int, pl: Playout, moves: Sequence[LeanMove], chosen: int) -> None:
        t = pl.tables
        reach = {s for m in moves for s in m[3] if t.bvalue[s]}
        hit = {s for s in moves[chosen][3] if t.bvalue[s]}
        for s in sorted(reach - hit):
            self.spared[(player, t.square(s))].append(turn)
        for s in sorted(hit):
            item = self._building(t.square(s))
            self.items[player].append((item["value"], {"kind": "covered", **item, "turn": turn}))

    def vote(self, voter: str, side: str, cards: str, turn: int, placer: str, squares: Iterable[Square]) -> None:
        targets = [self._building(sq) for sq in squares if sq in self.board.buildings]
        if targets:
            self.items[voter].append((sum(t["value"] for t in targets), {
                "kind": "voted", "side": side, "cards": cards, "turn": turn, "placer": placer, "buildings": targets}))

    def evidence(self, player: str, most: int = 5) -> list[dict[str, Any]]:
        """The ``most`` items that weigh most: a building's value, times the turns it was spared."""
        items = list(self.items[player])
        for (p, sq), turns in self.spared.items():
            if p == player:
                item = self._building(sq)
                items.append((item["value"] * len(turns), {"kind": "spared", **item, "turns": turns}))
        items.sort(key=lambda i: -i[0])
        return [item for _, item in items[:most]]


class PlayoutJob(NamedTuple):
    """The playouts of one position, as a worker runs them (:func:`.evaluate.shares`)."""

    state: State
    posterior: Posterior
    playouts: int
    seed: str
    first: LeanMove | None = None
    given: Mapping[str, str] | None = None
    policy: str | None = None


class ShareJob(NamedTuple):
    """The playouts of one option of a turning point, from the mover's ``seat``."""

    seat: int
    playouts: PlayoutJob


def _estimate_job(job: PlayoutJob) -> Estimate:
    return estimate(*job)


def _shares_job(job: ShareJob) -> list[float]:
    """One option of a turning point: the mover's share of the win in each playout."""
    return [row[job.seat] for row in shares(*job.playouts)]


def analyze_text(text: str, path: str = "<input>", settings: Settings = Settings(),
                 mapper: Mapper[Any, Any] = map) -> Json:
    """The analysis of the record ``text`` (see the module docstring). Raises DnError
    for a record that does not parse (P001), is not valid (its first error) or has
    no hands (U003)."""
    return analyze_record(parse_text(text, path), path, settings, mapper)


def analyze_bytes(data: bytes, path: str, settings: Settings = Settings(), lang: str | None = None
                  ) -> tuple[str, object]:
    """The per-game function of ``drunter analyze DIR`` (``--jobs``, ``--dask``): the
    file's bytes in, ``("ok", analysis)`` or ``("error", (message line, exit status))``
    out -- plain values, so that any worker can send them back. An error's message is in
    ``lang`` (default the language in force): a worker does not know the caller's."""
    with i18n.using(lang or i18n.language()):
        try:
            return "ok", analyze_record(parse_bytes(data, path), path, settings)
        except DnError as e:
            return "error", (e.format(path), e.exit_code)


def analyze_record(record: Record, path: str = "<input>", settings: Settings = Settings(),
                   mapper: Mapper[Any, Any] = map) -> Json:
    """The analysis of a parsed record (:func:`analyze_text`)."""
    if not any(isinstance(s, Hand) for s in record.setup):  # known from the parse: no replay to learn it
        raise fail("U003", _("the record has no hand lines: the analysis needs to know which moves each player "
                             "could have made"), path=path, hint=_("record the hands as dealt"))
    t = judge(record, path, keep_states=True)
    if not t.valid:
        raise DnError(t.errors[0], path=path)
    players, expert = t.players, t.variant == "expert"
    assert t.board is not None and t.ruleset is not None  # a valid replay has both
    _inf, ev, turns, positions, played, posteriors = walk(t, settings.model)
    truth = None
    if record.reveal is not None:
        truth = {e.player: e.chosen if not expert or e.other is None else key(sorted((e.chosen, e.other),
                                                                                       key=GOALS.index))
                 for e in record.reveal.entries}
    out = {"file": path, "players": list(players), "variant": t.variant, "board": t.board.id,
           "rules": t.ruleset.id, "model": settings.model.as_json(), "turns": turns,
           "final": {"beliefs": turns[-1]["beliefs"], "styles": turns[-1]["styles"], "truth": truth,
                     "evidence": {p: ev.evidence(p) for p in players},
                     "favourite": {p: (favourite(turns[-1]["beliefs"][p]) or (None,))[0] for p in players}},
           "policy": settings.policy, "playouts": settings.playouts, "turning_points": [], "examined": 0}
    if settings.playouts <= 0:
        for e in turns:
            e["win"] = e["win_se"] = None
        return out
    policy = None if settings.policy == "inferred" else settings.policy
    jobs = [PlayoutJob(s, post, settings.playouts, f"{settings.seed}-{e['turn']}", policy=policy)
            for s, post, e in zip(positions, posteriors, turns, strict=True)]
    for e, est in zip(turns, mapper(_estimate_job, jobs), strict=True):
        e["win"] = {p: round(x, 4) for p, x in zip(players, est.win, strict=True)}
        e["win_se"] = {p: round(x, 4) for p, x in zip(players, est.se, strict=True)}
    out["turning_points"], out["examined"] = _turning_points(turns, positions, played, posteriors, truth, settings,
                                                             mapper)
    return out


class Walk(NamedTuple):
    """A replay gone through (:func:`walk`): per entry of ``turns`` (turn 0 first)
    the position after it, its lean move (at the position before it) and the
    :class:`Posterior` after it (what playouts draw opponents' cards and styles
    from); ``turns`` are the JSON-ready entries (beliefs: the card marginals,
    styles: the style marginals)."""

    inference: Inference
    evidence: _Evidence
    turns: list[Json]
    positions: list[State]
    played: list[LeanMove | None]
    posteriors: list[Posterior]


def _entry_beliefs(entry: Json, post: Posterior) -> None:
    entry["beliefs"] = {p: _shown(post.card_marginal(p)) for p in post.players}
    entry["styles"] = {p: _shown(post.style_marginal(p)) for p in post.players}


def _shown(marginal: dict[str, float]) -> dict[str, float]:
    """Probabilities to 9 significant digits: libm's exp and log may differ in the last bit
    between platforms (glibc with FMA, Pyodide's musl), and every reader, the text, the
    report and JSON, should see the same numbers everywhere."""
    return {k: float(f"{x:.9g}") for k, x in marginal.items()}


def walk(t: Timeline, model: Model, inference: Inference | None = None) -> Walk:
    """Go through a valid replay with hands: the inference and the evidence after
    every turn (:class:`Walk`). ``inference`` (default a new :class:`Inference`)
    is told every observation and asked for its ``posterior()`` after every turn."""
    players = t.players
    if t.ruleset is None or t.board is None or t.initial is None:
        raise ValueError("walk needs a valid replay with its positions kept (keep_states=True)")
    inf = inference or Inference(players, hypotheses(t.variant, t.ruleset), model)
    ev = _Evidence(t.board)
    turns: list[Json] = [{"turn": 0, "player": None, "move": None}]
    posteriors = [inf.posterior()]
    _entry_beliefs(turns[0], posteriors[0])
    positions = [t.initial]  # the position after each entry of ``turns``
    played: list[LeanMove | None] = [None]  # the lean move of each entry, at the position before it
    before = t.initial
    for step in t.steps:
        d, after = step.decision, step.state
        assert after is not None  # kept, checked above
        if d is None:  # choose: no decision of one player's
            before = after
            positions[-1] = after
            continue
        entry: Json = {"turn": d.number, "player": d.player, "move": "pass" if d.move is None else str(d.move)}
        lean = None
        if d.move is not None:
            pl = Playout.from_state(before)
            moves = pl.legal()
            lean = lean_move(pl, d.move)
            chosen = moves.index(lean)
            inf.observe_move(d.player, pl, moves, chosen)
            ev.move(d.player, d.number, pl, moves, chosen)
            placement = step.event.placement if isinstance(step.event, Turn) else None
            if d.vote is not None and placement is not None and placement.vote is not None:
                entry["vote"] = "accepted" if d.vote.accepted else "rejected"
                for ballot in placement.vote.ballots:
                    if ballot.player == d.player:
                        continue
                    side, cards = _side(tally(Vote((ballot,))).cards)
                    inf.observe_ballot(ballot.player, pl, lean, side)
                    ev.vote(ballot.player, side, cards, d.number, d.player, d.move.squares)
        posteriors.append(inf.posterior())
        _entry_beliefs(entry, posteriors[-1])
        turns.append(entry)
        positions.append(after)
        played.append(lean)
        before = after
    return Walk(inf, ev, turns, positions, played, posteriors)


def _turning_points(turns: list[Json], positions: list[State], played: list[LeanMove | None],
                    posteriors: list[Posterior], truth: dict[str, str] | None, settings: Settings,
                    mapper: Mapper[Any, Any]) -> tuple[list[Json], int]:
    """The turning points and how many placements were examined.

    The placements whose mover's chance moved most in the table (``turning_points``
    losses and gains) are examined from the mover's side: their own card known
    (when revealed), the others' from the beliefs before the move. First every
    option -- the mover's style's own choice, the move played and up to
    ``alternatives`` others -- is played out on common random numbers (the same
    playout seeds, a quarter of ``playouts`` each) to find the best alternative and
    to screen: a placement whose change and best alternative are both within one
    standard error goes no further. Then the style's own choice ("before"), the move
    played ("after") and that alternative are played out again on fresh seeds, and
    only those figures are shown (the first round chose the alternative; judging it
    on the same playouts would flatter it). A placement is a turning point when the change
    after - before exceeds twice its standard error; an alternative is shown when
    it beats the move played by more than twice the standard error of the
    difference."""
    players = list(turns[0]["beliefs"])
    policy = None if settings.policy == "inferred" else settings.policy
    swings = []
    for i in range(1, len(turns)):
        e = turns[i]
        if played[i] is None:
            continue
        p = e["player"]
        swings.append((round(e["win"][p] - turns[i - 1]["win"][p], 4), i))
    k = settings.turning_points
    chosen = sorted(s for s in swings if s[0] < 0)[:k] + sorted((s for s in swings if s[0] > 0), reverse=True)[:k]
    first, again = max(20, settings.playouts // 4), max(20, settings.playouts)
    looks = []
    for _swing, i in chosen:
        p, move_played = turns[i]["player"], played[i]
        assert move_played is not None  # a swing is a placement's
        card = truth[p] if truth else max(turns[i - 1]["beliefs"][p].items(), key=lambda kv: kv[1])[0]
        given = {p: card} if truth else None
        looks.append((i, players.index(p), given, [None, move_played, *candidates(
            positions[i - 1], card.split("+"), move_played, settings.alternatives)]))
    jobs = [ShareJob(seat, PlayoutJob(positions[i - 1], posteriors[i - 1], first,
                                      f"{settings.seed}-{turns[i]['turn']}-try", move, given, policy))
            for i, seat, given, options in looks for move in options]
    tried = iter(list(mapper(_shares_job, jobs)))
    finals = []
    for i, seat, given, options in looks:
        rows = [next(tried) for _ in options]
        best = max(range(2, len(options)), key=lambda j: sum(rows[j]), default=None)
        change, change_se = difference(rows[1], rows[0])
        gain, gain_se = (0.0, 0.0) if best is None else difference(rows[best], rows[1])
        if abs(change) > change_se or gain > gain_se:  # worth a second look; the rest is no turning point
            finals.append((i, seat, given, None if best is None else options[best]))
    jobs = []
    for i, seat, given, alt in finals:
        for move in (None, played[i]) + (() if alt is None else (alt,)):
            jobs.append(ShareJob(seat, PlayoutJob(positions[i - 1], posteriors[i - 1], again,
                                                  f"{settings.seed}-{turns[i]['turn']}-again", move, given, policy)))
    results = iter(list(mapper(_shares_job, jobs)))
    out = []
    for i, _seat, _given, alt in finals:
        e = turns[i]
        before, after = next(results), next(results)
        change, change_se = difference(after, before)
        better = None
        if alt is not None:
            other = next(results)
            gain, gain_se = difference(other, after)
            if gain > 2 * gain_se:
                win, se = mean_se(other)
                better = {"move": str(Playout.from_state(positions[i - 1]).to_move(alt)), "win": round(win, 4),
                          "se": round(se, 4), "gain": round(gain, 4), "gain_se": round(gain_se, 4)}
        if abs(change) <= 2 * change_se:
            continue
        b, b_se = mean_se(before)
        a, a_se = mean_se(after)
        out.append({"turn": e["turn"], "player": e["player"], "move": e["move"],
                    "kind": "mistake" if change < 0 else "gain", "before": round(b, 4), "before_se": round(b_se, 4),
                    "after": round(a, 4), "after_se": round(a_se, 4), "change": round(change, 4),
                    "change_se": round(change_se, 4), "playouts": again, "better": better})
    out.sort(key=lambda tp: tp["turn"])
    return out, len(chosen)
