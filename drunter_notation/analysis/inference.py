"""Who holds which card: the hidden-card inference (``docs/analysis.md`` has the model).

Each player's secret card (base game: one building card, all distinct; expert: a
pair of goal cards, no card dealt twice) is a *hypothesis* ``h``. A player is, for
the whole game, either *purposeful* or *random* (prior ``p_random``):

* purposeful: among the legal moves the player picks ``m`` with probability
  proportional to ``exp(beta * u_h(m))`` (a *sharp* player; a *soft* one, share
  ``p_soft``, with ``soft_beta``), ``u_h(m) = attack * other_h(m) -
  own_weight * own_h(m)``, where ``own_h`` is the points of ``h`` the tile destroys
  and ``other_h`` the points of the other buildings it destroys; on a vote about
  someone else's tile the ballot's side (yes, no, neither) has probability
  proportional to ``exp(vote_beta * u_h)``, ``exp(-vote_beta * u_h)`` and
  ``exp(abstain)``.
* random: every legal move equally likely; ballot sides with the frequencies of
  random cards (:data:`RANDOM_SIDES`).

The likelihood of a player's actions is the mixture of the two, and the joint
posterior over who holds what respects the deal (no card twice): the marginals are
summed exactly over all deals by a dynamic programme over sets of cards
(:func:`marginals`), 64 sets in the base game, 1,024 in the expert one.
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from drunter_notation.bots.styles import goal_worth
from drunter_notation.notation.model import BUILDINGS, GOALS, SPECIAL_GOALS
from drunter_notation.rules.options import ExpertDeal, Ruleset
from drunter_notation.rules.playout import Playout

RANDOM_SIDES = {"yes": 0.45, "no": 0.45, "neither": 0.10}  # a random voter's side, from random cards


@dataclass(frozen=True)
class Model:
    """The model's parameters: ``beta``, ``vote_beta``, ``abstain`` and ``p_random``
    fitted on bots' games by ``bench/inference.py --tune``; ``soft_beta`` and
    ``p_soft`` set by hand (``docs/analysis.md``)."""

    beta: float = 32.0  # how surely a sharp purposeful player picks the best move for their card
    soft_beta: float = 1.0  # the same for a soft one, who sees the best move less often
    p_soft: float = 0.1  # of the purposeful players, the share of soft ones (set by hand: docs/analysis.md)
    own_weight: float = 10.0  # a point of one's own goal against a point of someone else's
    attack: float = 1.0
    vote_beta: float = 1.0
    abstain: float = -1.0  # the weight (log) of a ballot that says neither yes nor no
    p_random: float = 0.7  # prior: the player plays at random, whatever their card

    def as_json(self) -> dict:
        return asdict(self)


def hypotheses(variant: str, ruleset: Ruleset) -> tuple[tuple[str, ...], ...]:
    """What a player may hold: one building card each (base), or a pair of goal cards
    (expert; one special and one building under ``one-special-one-building``), each
    pair in GOALS order."""
    if variant == "base":
        return tuple((b,) for b in BUILDINGS)
    if ruleset.options.expert_deal is ExpertDeal.ONE_SPECIAL_ONE_BUILDING:
        return tuple(tuple(sorted(pair, key=GOALS.index)) for pair in itertools.product(SPECIAL_GOALS, BUILDINGS))
    return tuple(itertools.combinations(GOALS, 2))


def key(h: Sequence[str]) -> str:
    """A hypothesis as JSON names it: ``museum`` or ``museum+one-each``."""
    return "+".join(h)


def _logsumexp(xs: Sequence[float]) -> float:
    top = max(xs)
    return top + math.log(sum(math.exp(x - top) for x in xs))


class Inference:
    """The evidence so far, per player: the log-likelihood of their actions under the
    random style and, per hypothesis, under the purposeful one."""

    def __init__(self, players: Sequence[str], hyps: Sequence[Sequence[str]], model: Model = Model(),
                 keep: bool = False):
        self.players, self.hyps, self.model = tuple(players), tuple(tuple(h) for h in hyps), model
        self.log: list[tuple] | None = [] if keep else None  # the observations, for rescored()
        self.goals = tuple(dict.fromkeys(g for h in self.hyps for g in h))
        self.random = {p: 0.0 for p in self.players}
        self.sharp = {p: [0.0] * len(self.hyps) for p in self.players}
        self.soft = {p: [0.0] * len(self.hyps) for p in self.players}

    def utilities(self, pl: Playout, moves: Sequence[tuple]) -> list[list[float]]:
        """Per hypothesis, per move: ``u_h(m)`` (own and other points as the bots
        count them: :func:`bots.styles.effect`)."""
        m = self.model
        worth = {g: goal_worth(pl, g) for g in self.goals}
        bvalue = pl.t.bvalue
        hit = [[s for s in mv[3] if bvalue[s]] for mv in moves]  # the buildings each move destroys
        out = []
        for h in self.hyps:
            ws = [worth[g] for g in h]
            row = []
            for squares in hit:
                own = other = 0
                for s in squares:
                    w = sum(x[s] for x in ws)
                    if w:
                        own += w
                    else:
                        other += bvalue[s]
                row.append(m.attack * other - m.own_weight * own)
            out.append(row)
        return out

    def observe_move(self, player: str, pl: Playout, moves: Sequence[tuple], chosen: int) -> None:
        """The player to move at ``pl`` chose ``moves[chosen]`` of the legal ``moves``
        (a single legal move is no choice, and no evidence)."""
        if len(moves) >= 2:
            self._observe(("move", player, self.utilities(pl, moves), chosen))

    def observe_ballot(self, voter: str, pl: Playout, move: tuple, side: str) -> None:
        """``voter`` (not the placer) voted ``side`` ("yes", "no", "neither") on ``move``
        of the player to move at ``pl``."""
        self._observe(("ballot", voter, [r[0] for r in self.utilities(pl, [move])], side))

    def _observe(self, obs: tuple) -> None:
        m = self.model
        kind, player, rows, what = obs
        if kind == "move":
            for beta, into in ((m.beta, self.sharp), (m.soft_beta, self.soft)):
                _add(into[player], [beta * row[what] - _logsumexp([beta * u for u in row]) for row in rows])
            self.random[player] -= math.log(len(rows[0]))
        else:
            added = []
            for u in rows:
                logits = {"yes": m.vote_beta * u, "no": -m.vote_beta * u, "neither": m.abstain}
                added.append(logits[what] - _logsumexp(list(logits.values())))
            _add(self.sharp[player], added)
            _add(self.soft[player], added)
            self.random[player] += math.log(RANDOM_SIDES[what])
        if self.log is not None:
            self.log.append(obs)

    def rescored(self, model: Model) -> Inference:
        """The same evidence weighed by another ``model`` (all but ``own_weight`` and
        ``attack``: the utilities keep this one's weights). Needs
        ``keep=True``: for tuning."""
        other = Inference(self.players, self.hyps, model, keep=True)
        for obs in self.log:
            other._observe(obs)
        return other

    def loglik(self, player: str) -> list[float]:
        """Per hypothesis: the log-likelihood of the player's actions, the styles mixed."""
        m = self.model
        weights = ((m.p_random, None), ((1 - m.p_random) * (1 - m.p_soft), self.sharp[player]),
                   ((1 - m.p_random) * m.p_soft, self.soft[player]))
        out = []
        for j in range(len(self.hyps)):
            terms = [math.log(w) + (self.random[player] if row is None else row[j]) for w, row in weights if w > 0]
            out.append(_logsumexp(terms))
        return out

    def beliefs(self) -> dict[str, dict[str, float]]:
        """Per player, per hypothesis key: the probability that they hold it."""
        marg = marginals(self.hyps, [self.loglik(p) for p in self.players])
        return {p: {key(h): marg[i][j] for j, h in enumerate(self.hyps)} for i, p in enumerate(self.players)}


def _add(row: list[float], added: Sequence[float]) -> None:
    for i, x in enumerate(added):
        row[i] += x


def marginals(hyps: Sequence[Sequence[str]], logliks: Sequence[Sequence[float]]) -> list[list[float]]:
    """P(player i holds hypothesis j) under a uniform deal of distinct cards, each
    player's evidence weighing ``exp(logliks[i][j])``: exact, summed over every deal
    by a dynamic programme over the sets of cards the others hold."""
    goals = tuple(dict.fromkeys(g for h in hyps for g in h))
    masks = [sum(1 << goals.index(g) for g in h) for h in hyps]
    weights = []
    for row in logliks:
        top = max(row)
        weights.append([math.exp(x - top) for x in row])
    out = []
    for i in range(len(logliks)):
        sets = {0: 1.0}  # cards the other players hold -> total weight of those deals
        for o, w in enumerate(weights):
            if o == i:
                continue
            grown: dict[int, float] = {}
            for used, total in sets.items():
                for mask, x in zip(masks, w):
                    if x and not used & mask:
                        grown[used | mask] = grown.get(used | mask, 0.0) + total * x
            sets = grown
        row = [w * sum(t for used, t in sets.items() if not used & mask) for mask, w in zip(masks, weights[i])]
        z = sum(row)
        out.append([x / z for x in row] if z else [1 / len(row)] * len(row))
    return out
