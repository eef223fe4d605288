"""Who holds which card, and how they play: the hidden-card inference
(``docs/analysis.md`` has the model and its figures).

Each player's secret card (base game: one building card, all distinct; expert: a
pair of goal cards, no card dealt twice) is a *hypothesis* ``h``; alongside it, the
player has one *style* for the whole game (:data:`STYLES`):

* ``random``: every legal move equally likely; ballot sides with the frequencies
  of random cards (:data:`RANDOM_SIDES`);
* ``purposeful``: picks move ``m`` with probability proportional to
  ``exp(beta * u(m))``, ``u = other - own_weight * own`` (``own``: the points of
  ``h`` the tile destroys, ``other``: the points of the other buildings), and with
  probability ``lapse`` a move at random instead;
* ``bluffer`` (base game): purposeful, but a share ``bluffs`` of its moves are
  made as if its card were a decoy ``d`` (unknown: averaged over the other five);
* ``decoy`` (base game): the same as purposeful, but protecting a second building type ``d`` as
  if it were its own (``d`` unknown: averaged over the other five);
* ``builder``: destroys as little as it can, its own type least of all, and avoids
  tiles that need a vote: ``u = -(other + own_weight * own) - vote_cost * vote``;
* ``soft``: purposeful with a small ``beta`` (``soft_betas``): protects its card but
  does not always see the best move.

The rationality is not one fixed value: ``beta`` and ``lapse`` are marginalised
over small grids (:class:`Model`), each player keeping theirs for the whole game.
A ballot on someone else's tile says what the style intends (purposeful, soft,
decoy: no when it would destroy something of theirs, yes when it destroys only
others', neither otherwise; builder: no to save its own, neither otherwise) except
with probability ``noise``, when it is a random ballot; ``noise`` is marginalised
over its own grid. Moves with one legal option, passes and the placer's own ballot
carry no evidence.

The posterior over (card, style) per player respects the deal (no card twice):
summed exactly over every deal by a dynamic programme over the sets of cards the
other players hold (:func:`marginals`; 64 sets in the base game, 1,024 in the
expert one).

**The interface for playouts** is :class:`Posterior`, a frozen value per turn
(``analysis.record.walk`` returns one per entry of its turns): per player the
joint probability of each (card, style), the card and style marginals, and
:meth:`Posterior.sample`, a whole deal with a style per player drawn from the
joint posterior (exact, cards all distinct). Each style names the bots that play
it (:attr:`Style.policy`, a weight mix of shipped bot names): a playout plays a
seat as "the style mix inferred for them" by drawing a (card, style) from the
posterior and then a bot from that style's mix.
"""
from __future__ import annotations

import functools
import itertools
import math
import operator
import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from math import fsum  # exactly rounded: the same beliefs on every Python (3.12's sum() is compensated, 3.11's not)
from typing import TYPE_CHECKING, Any, NamedTuple

from drunter_notation.bots.styles import goal_worth
from drunter_notation.notation.model import BUILDINGS, GOALS, SPECIAL_GOALS
from drunter_notation.rules.options import ExpertDeal, Ruleset
from drunter_notation.rules.playout import Playout

if TYPE_CHECKING:
    from drunter_notation.rules.playout import LeanMove

RANDOM_SIDES = {"yes": 0.45, "no": 0.45, "neither": 0.10}  # a random voter's side, from random cards
_NEG = float("-inf")


@dataclass(frozen=True)
class Style:
    """A way of playing the model knows: its ``name`` (JSON's key), one line on what
    it does, and the shipped bots that play it in a playout: ``policy`` pairs a bot
    name (``bots.BOTS``) with the share of playouts (per seat) it plays."""

    name: str
    description: str
    policy: tuple[tuple[str, float], ...]

    def bot(self, rng: random.Random) -> str:
        """A bot name drawn from :attr:`policy`."""
        names = [name for name, _ in self.policy]
        return names[0] if len(names) == 1 else rng.choices(names, [weight for _, weight in self.policy])[0]


STYLES: dict[str, Style] = {s.name: s for s in (
    Style("random", "plays any legal move, votes at random", (("random", 1.0),)),
    Style("purposeful", "spares its own buildings, destroys the others'", (("greedy", 1.0),)),
    Style("bluffer", "plays for its card, but some of its moves for a decoy card", (("greedy", 1.0),)),
    Style("decoy", "spares its own buildings and those of a second type, as a decoy",
          (("greedy", 1.0),)),  # the second type is not known: its playouts protect the card alone
    Style("builder", "destroys as little as it can, its own type least of all; avoids votes",
          (("cautious", 1.0),)),
    Style("soft", "spares its own buildings, but often misses the best move", (("greedy", 0.5), ("random", 0.5))),
)}
STYLE_NAMES = tuple(STYLES)


# Which styles deceive (they protect a card that is not theirs); "random" is neither kind.
DECEIVERS = ("bluffer", "decoy")
HONEST = ("purposeful", "builder", "soft")


@dataclass(frozen=True)
class Model:
    """The model's grids and priors. The grids (``betas``, ``soft_betas``,
    ``lapses``, ``noises``) are what is marginalised per player; the table's make-up
    is marginalised too: its share of random players (``random_shares``) and of
    deceivers among the rest (``deceiver_shares``) are unknown, each with a prior
    over its grid, and are learned from every player's evidence (:meth:`table_types`).
    The priors are the free parameters ``bench/fit.py`` fits on its tuning tables;
    the rest is set by hand (``docs/analysis.md``)."""

    # Who a table's honest players are (purposeful, builder, soft) is unknown too: one of these mixes.
    honest_mixes: tuple[tuple[float, ...], ...] = ((0.9, 0.05, 0.05), (0.5, 0.3, 0.2), (0.15, 0.7, 0.15),
                                                   (0.15, 0.15, 0.7))
    honest_mix_prior: tuple[float, ...] = (0.167, 0.5, 0.167, 0.167)
    # Who a table's deceivers are (bluffer, decoy) is unknown too: one of these mixes.
    deceiver_mixes: tuple[tuple[float, ...], ...] = ((0.9, 0.1), (0.3, 0.7))
    deceiver_mix_prior: tuple[float, ...] = (0.7, 0.3)
    random_shares: tuple[float, ...] = (0.02, 0.3, 0.9)  # a table's share of random players: one of these
    random_share_prior: tuple[float, ...] = (0.6, 0.3, 0.1)
    deceiver_shares: tuple[float, ...] = (0.02, 0.2, 0.5, 0.9)  # the non-random players' share of deceivers
    deceiver_share_prior: tuple[float, ...] = (0.333, 0.25, 0.167, 0.25)
    betas: tuple[float, ...] = (1.0, 3.0, 10.0, 32.0)  # purposeful, bluffer, decoy, builder: how sharply
    soft_betas: tuple[float, ...] = (0.2, 0.5)
    lapses: tuple[float, ...] = (0.02, 0.25)  # share of moves made at random by a non-random style
    # How sharply a table plays is unknown too: per kind of table (sharp, ordinary, loose), a prior over
    # each player's beta and over their lapse, the kind itself learned as the share of deceivers is.
    beta_priors: tuple[tuple[float, ...], ...] = ((0.02, 0.08, 0.3, 0.6), (0.25, 0.25, 0.25, 0.25),
                                                  (0.5, 0.3, 0.15, 0.05))
    lapse_priors: tuple[tuple[float, ...], ...] = ((0.97, 0.03), (0.75, 0.25), (0.4, 0.6))
    sharpness_prior: tuple[float, ...] = (0.818, 0.091, 0.091)
    bluffs: tuple[float, ...] = (0.15, 0.35)  # a bluffer's share of moves made for its decoy card: uniform
    noises: tuple[float, ...] = (0.05, 0.3, 1.0)  # share of a style's ballots cast at random
    noise_prior: tuple[float, ...] = (0.871, 0.032, 0.097)
    own_weight: float = 10.0  # a point of one's own goal against a point of someone else's
    vote_cost: float = 0.5  # a builder's reluctance, in points, to lay a tile that needs a vote

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    def table_types(self) -> list[tuple[float, tuple[float, ...], int]]:
        """Every make-up of a table the model allows: (its prior probability, the
        style prior of a player at such a table in STYLE_NAMES order, the index of
        its sharpness in ``beta_priors`` and ``lapse_priors``)."""
        out = []
        grids = itertools.product(zip(self.random_shares, self.random_share_prior, strict=True),
                                  zip(self.deceiver_shares, self.deceiver_share_prior, strict=True),
                                  zip(self.honest_mixes, self.honest_mix_prior, strict=True),
                                  zip(self.deceiver_mixes, self.deceiver_mix_prior, strict=True))
        for (rho, p_rho), (delta, p_delta), (mix, p_mix), (fake, p_fake) in grids:
            share = {"random": rho}
            share |= {s: (1 - rho) * (1 - delta) * w for s, w in zip(HONEST, mix, strict=True)}
            share |= {s: (1 - rho) * delta * w for s, w in zip(DECEIVERS, fake, strict=True)}
            prior = tuple(share[s] for s in STYLE_NAMES)
            out += [(p_rho * p_delta * p_mix * p_fake * p_sharp, prior, k)
                    for k, p_sharp in enumerate(self.sharpness_prior)]
        return out

    def with_priors(self, **priors: Sequence[float]) -> Model:
        """The same grids with other priors (``honest_mix_prior=...``, ``noise_prior=...``:
        any field named ``*_prior``), each normalised."""
        fields = dict(asdict(self))
        for name, xs in priors.items():
            if not name.endswith("_prior") or name not in fields:
                raise TypeError(f"Model has no prior named {name!r}")
            fields[name] = tuple(x / fsum(xs) for x in xs)
        return Model(**fields)


class _Types(NamedTuple):
    """A model's table types (:meth:`Model.table_types`) as :meth:`Inference._weights`
    reads them: the log of each prior weight, each style prior, each sharpness, and per
    sharpness the indices of its types and their style priors column by column."""

    logw: list[float]
    priors: list[tuple[float, ...]]
    sharpness: list[int]
    by_sharpness: list[tuple[list[int], list[tuple[float, ...]]]]


@functools.lru_cache(maxsize=64)  # a model is a frozen value; the fit tries a few hundred, the analysis one
def _table_types(model: Model) -> _Types:
    types = model.table_types()
    by_sharpness = []
    for sh in range(len(model.sharpness_prior)):
        ts = [t for t, (_, _, k) in enumerate(types) if k == sh]
        by_sharpness.append((ts, list(zip(*[types[t][1] for t in ts], strict=True))))
    return _Types([_log(w) for w, _, _ in types], [prior for _, prior, _ in types], [k for _, _, k in types],
                  by_sharpness)


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


def favourite(probs: Mapping[str, float]) -> tuple[str, float] | None:
    """The card that stands out, with its probability: at least twice as likely as
    chance and half again as likely as the next card; None when none does (at
    turn 0, with the beliefs uniform, there is no favourite)."""
    ranked = sorted(probs.items(), key=lambda kv: -kv[1])
    card, p = ranked[0]
    runner = ranked[1][1] if len(ranked) > 1 else 0.0
    return (card, p) if p >= 2 / len(ranked) and p >= 1.5 * runner else None


def _lse(xs: Sequence[float]) -> float:
    top = max(xs)
    if top == _NEG:
        return _NEG
    return top + math.log(fsum([math.exp(x - top) for x in xs]))


def _lse2(a: float, b: float) -> float:
    """``_lse((a, b))``, the same float, without making the tuple and the list: the inner loops' case."""
    top = b if b > a else a
    if top == _NEG:
        return _NEG
    return top + math.log(math.exp(a - top) + math.exp(b - top))


def _log(x: float) -> float:
    return math.log(x) if x > 0 else _NEG


@dataclass(frozen=True)
class Posterior:
    """Who holds what and plays how, after one turn: ``joint[i][j][k]`` is the
    probability that player ``players[i]`` holds ``cards[j]`` (a hypothesis key)
    and plays style ``styles[k]``; each player's table sums to 1. ``weights`` holds
    the same per player before the deal's constraint (for :meth:`sample`)."""

    players: tuple[str, ...]
    cards: tuple[str, ...]
    styles: tuple[str, ...]
    joint: tuple[tuple[tuple[float, ...], ...], ...]
    weights: tuple[tuple[tuple[float, ...], ...], ...]
    masks: tuple[int, ...]  # per card, the set of goal cards it uses (bits)
    _cache: dict[tuple[int, int, tuple[str, ...]], tuple[float, ...]] = field(
        default_factory=dict, compare=False, repr=False, hash=False)  # by (player, cards used, players to draw)

    def card_marginal(self, player: str) -> dict[str, float]:
        """Card key -> probability that ``player`` holds it."""
        rows = self.joint[self.players.index(player)]
        return {c: fsum(row) for c, row in zip(self.cards, rows, strict=True)}

    def style_marginal(self, player: str) -> dict[str, float]:
        """Style name -> probability that ``player`` plays it."""
        rows = self.joint[self.players.index(player)]
        return {s: fsum(row[k] for row in rows) for k, s in enumerate(self.styles)}

    def joint_of(self, player: str) -> dict[tuple[str, str], float]:
        """(card key, style name) -> probability, for ``player``."""
        rows = self.joint[self.players.index(player)]
        return {(c, s): row[k] for c, row in zip(self.cards, rows, strict=True) for k, s in enumerate(self.styles)}

    def sample(self, rng: random.Random, given: Mapping[str, str] | None = None) -> dict[str, tuple[str, str]]:
        """A deal with a style per player, drawn from the joint posterior: player ->
        (card key, style name), cards all distinct. ``given`` fixes some players'
        cards (their style is then drawn given that card)."""
        given = dict(given or {})
        used = 0
        for c in given.values():
            used |= self.masks[self.cards.index(c)]
        out = {}
        for i, p in enumerate(self.players):
            if p in given:
                j = self.cards.index(given[p])
            else:
                free = tuple(q for q in self.players[i + 1:] if q not in given)
                cond = self._conditional(i, used, free)
                j = rng.choices(range(len(self.cards)), cond)[0]
                used |= self.masks[j]
            row = self.weights[i][j]
            k = rng.choices(range(len(self.styles)), row)[0] if fsum(row) > 0 else 0
            out[p] = (self.cards[j], self.styles[k])
        return out

    def _conditional(self, i: int, used: int, free: tuple[str, ...]) -> tuple[float, ...]:
        """Per card: player ``i``'s weight, given the cards ``used`` and summed over
        the deals of the players ``free`` still to draw."""
        k = (i, used, free)
        if k not in self._cache:
            sets = _deals(self.masks, [[fsum(r) for r in self.weights[self.players.index(q)]] for q in free], used)
            own = [fsum(r) for r in self.weights[i]]
            self._cache[k] = tuple(0.0 if m & used else w * fsum(t for u, t in sets.items() if not u & m)
                                   for m, w in zip(self.masks, own, strict=True))
        return self._cache[k]


# A row of log-likelihoods over a grid, scaled once: its maximum and exp(row - maximum). A prior over the grid
# then mixes it in one product per cell (``_mix``), where the sum of logs took an exp per cell for every prior.
_Scaled = tuple[float, list[float]]


class Reduced(NamedTuple):
    """What :meth:`Inference.loglik` needs of one player that no prior changes, each
    grid row scaled (:data:`_Scaled`): per set, over (beta, lapse), the attack
    likelihoods; per hypothesis the builder's; per hypothesis the soft one (a
    number); per (card, decoy) pair, over (beta, lapse), the bluffer's (summed over
    the bluff share, uniform); the ballots per set and the builder's per hypothesis,
    over the noise."""

    attack: list[_Scaled]
    build: list[_Scaled]
    soft: list[float]
    bluff: list[_Scaled]
    ballot: list[_Scaled]
    bballot: list[_Scaled]


def _scaled(row: Sequence[float]) -> _Scaled:
    top = max(row)
    return top, [0.0] * len(row) if top == _NEG else [math.exp(x - top) for x in row]


def _mix(row: _Scaled, prior: Sequence[float]) -> float:
    """log(fsum(exp(row) * prior)): the row's grid marginalised by ``prior``."""
    top, scaled = row
    return top + _log(fsum(map(operator.mul, scaled, prior)))


class _Evidence(NamedTuple):
    """One player's evidence as :meth:`Inference.posterior` weighs it, for one model:
    ``fit``, how well each table type explains them (their likelihood summed over
    cards and styles, the styles weighed by the type's prior); ``cells``, per
    hypothesis, per style, the likelihood at each sharpness as a share of their
    largest (so a table's style prior mixes it in one product per cell)."""

    fit: list[float]
    cells: list[list[tuple[float, ...]]]


class Inference:
    """The evidence so far, per player: the log-likelihood of their actions under
    every style, every point of the grids and every hypothesis (and, for the decoy
    style, every second type). :meth:`posterior` weighs them by a model's priors:
    :meth:`posterior` with another ``model`` of the same grids re-weighs the same
    evidence (the benchmark's fitting)."""

    def __init__(self, players: Sequence[str], hyps: Sequence[Sequence[str]], model: Model = Model()):
        self.players, self.hyps, self.model = tuple(players), tuple(tuple(h) for h in hyps), model
        self.goals = tuple(dict.fromkeys(g for h in self.hyps for g in h))
        # The protected sets: each hypothesis, then (base game) each pair of building cards for the decoy style.
        self.decoy = all(len(h) == 1 for h in self.hyps)
        pairs = tuple(itertools.combinations(range(len(self.hyps)), 2)) if self.decoy else ()
        self.pairs = pairs
        self.sets = self.hyps + tuple(self.hyps[a] + self.hyps[b] for a, b in pairs)
        m = model
        self.thetas = tuple(itertools.product(m.betas, range(len(m.lapses))))  # beta-major, as _softmax_terms
        n_sets, n_h = len(self.sets), len(self.hyps)
        self.random = {p: 0.0 for p in self.players}
        # mv[style][set][theta]: purposeful and decoy share the "attack" table over all sets.
        self.attack = {p: [[0.0] * len(self.thetas) for _ in range(n_sets)] for p in self.players}
        self.soft = {p: [[0.0] * len(m.soft_betas) for _ in range(n_h)] for p in self.players}
        self.build = {p: [[0.0] * len(self.thetas) for _ in range(n_h)] for p in self.players}
        self.ballot = {p: [[0.0] * len(m.noises) for _ in range(n_sets)] for p in self.players}
        self.bballot = {p: [[0.0] * len(m.noises) for _ in range(n_h)] for p in self.players}
        # bluff[h * n_h + d][theta * len(bluffs) + b]: the true card h, the decoy d (base game)
        self.bluff = {p: [[0.0] * (len(self.thetas) * len(m.bluffs)) for _ in range(n_h * n_h if self.decoy else 0)]
                      for p in self.players}
        self._reduced_cache: dict[str, Reduced] = {}
        # Per player, per the priors it uses: loglik's tables, until the player's next action.
        self._loglik_cache: dict[str, dict[tuple[tuple[Any, ...], ...], list[list[list[float]]]]] = {}
        # Per player, for the last model asked: their evidence as the posterior weighs it (:meth:`_evidence`),
        # as long (one model only: the fit asks for hundreds).
        self._evidence_cache: dict[str, tuple[Model, _Evidence]] = {}

    def _effects(self, pl: Playout, squares_list: Sequence[Sequence[int]]) -> list[list[tuple[int, int]]]:
        """Per protected set, per list of squares: (own points, other points) destroyed."""
        worth = {g: goal_worth(pl, g) for g in self.goals}
        bvalue = pl.tables.bvalue
        out = []
        for s_goals in self.sets:
            ws = [worth[g] for g in s_goals]
            row = []
            for squares in squares_list:
                own = other = 0
                for s in squares:
                    w = sum(x[s] for x in ws)
                    if w:
                        own += w
                    else:
                        other += bvalue[s]
                row.append((own, other))
            out.append(row)
        return out

    def observe_move(self, player: str, pl: Playout, moves: Sequence[LeanMove], chosen: int) -> None:
        """The player to move at ``pl`` chose ``moves[chosen]`` of the legal ``moves``
        (a single legal move is no choice, and no evidence)."""
        if len(moves) < 2:
            return
        bvalue = pl.tables.bvalue
        # Moves that destroy the same buildings and need a vote alike are alike to every style: one class each.
        classes: dict[tuple[tuple[int, ...], bool], int] = {}  # (buildings destroyed, needs a vote) -> moves
        for mv in moves:
            k = (tuple(s for s in mv[3] if bvalue[s]), pl.needs_vote(mv))
            classes[k] = classes.get(k, 0) + 1
        keys = list(classes)
        counts = [classes[k] for k in keys]
        mine = moves[chosen]
        c = keys.index((tuple(s for s in mine[3] if bvalue[s]), pl.needs_vote(mine)))
        effects = self._effects(pl, [k[0] for k in keys])
        m, n = self.model, len(moves)
        self._forget(player)
        self.random[player] -= math.log(n)
        lapses = [(math.log(1 - e), math.log(e / n)) for e in m.lapses]
        nh = len(self.hyps)
        single = []
        for si, eff in enumerate(effects):
            attack = [other - m.own_weight * own for own, other in eff]
            terms = _softmax_terms(attack, counts, c, m.betas, lapses)
            _add(self.attack[player][si], terms)
            if si < nh:
                single.append(terms)
                soft = _softmax_terms(attack, counts, c, m.soft_betas, [(0.0, _NEG)])
                _add(self.soft[player][si], soft)
                build = [-(other + m.own_weight * own) - m.vote_cost * k[1]
                         for (own, other), k in zip(eff, keys, strict=True)]
                _add(self.build[player][si], _softmax_terms(build, counts, c, m.betas, lapses))
        # The lapse keeps each move's probability at least lapse / n, so it is summed as a probability: no
        # log-sum-exp per cell.
        weights = [(1 - b, b) for b in m.bluffs]
        chance = [[math.exp(x) for x in row] for row in single]
        log = math.log
        for h, d in itertools.permutations(range(nh), 2) if self.decoy else ():
            _add(self.bluff[player][h * nh + d], [log(keep * x + bluff * y)
                                                  for x, y in zip(chance[h], chance[d], strict=True)
                                                  for keep, bluff in weights])

    def observe_ballot(self, voter: str, pl: Playout, move: LeanMove, side: str) -> None:
        """``voter`` (not the placer) voted ``side`` ("yes", "no", "neither") on ``move``
        of the player to move at ``pl``."""
        m = self.model
        self._forget(voter)
        self.random[voter] += math.log(RANDOM_SIDES[side])
        nh = len(self.hyps)
        for si, ((own, other),) in enumerate(self._effects(pl, [move[3]])):
            intent = "no" if own else "yes" if other else "neither"
            _add(self.ballot[voter][si], [math.log((1 - e) * (side == intent) + e * RANDOM_SIDES[side])
                                          for e in m.noises])
            if si < nh:
                intent = "no" if own else "neither"
                _add(self.bballot[voter][si], [math.log((1 - e) * (side == intent) + e * RANDOM_SIDES[side])
                                               for e in m.noises])

    def _forget(self, player: str) -> None:
        """A new action of ``player``: what was kept of their evidence is stale."""
        self._reduced_cache.pop(player, None)
        self._loglik_cache.pop(player, None)
        self._evidence_cache.pop(player, None)

    def _reduced(self, player: str) -> Reduced:
        """What :meth:`loglik` needs that no prior changes: the soft style summed over
        its uniform ``beta``, the bluffer over its uniform bluff share. Kept until the
        player's next action."""
        if player not in self._reduced_cache:
            m = self.model
            nb = len(m.bluffs)

            def over_bluffs(row: list[float]) -> _Scaled:  # theta-major, then the bluff share: its mean, scaled
                top = max(row)
                if top == _NEG:
                    return top, [0.0] * (len(row) // nb)
                ex = [math.exp(x - top) for x in row]
                if nb == 2:
                    return top, [(a + b) / 2 for a, b in zip(ex[::2], ex[1::2], strict=True)]
                return top, [fsum(ex[t:t + nb]) / nb for t in range(0, len(row), nb)]

            self._reduced_cache[player] = Reduced(
                attack=[_scaled(r) for r in self.attack[player]], build=[_scaled(r) for r in self.build[player]],
                soft=[_lse(r) - math.log(len(m.soft_betas)) for r in self.soft[player]],
                bluff=[over_bluffs(r) for r in self.bluff[player]],
                ballot=[_scaled(r) for r in self.ballot[player]], bballot=[_scaled(r) for r in self.bballot[player]])
        return self._reduced_cache[player]

    def loglik(self, player: str, model: Model | None = None) -> list[list[list[float]]]:
        """Per table sharpness (``model.beta_priors``' order), per hypothesis, per style
        (STYLE_NAMES order): the log-likelihood of the player's actions, the grids
        marginalised by ``model``'s priors (default the inference's own). No style
        prior: :meth:`posterior` weighs the styles by the table. Kept until the
        player's next action."""
        m = model or self.model
        key = (m.beta_priors, m.lapse_priors, m.noise_prior)
        cache = self._loglik_cache.setdefault(player, {})
        if key not in cache:
            cache[key] = self._loglik(player, m)
        return cache[key]

    def _loglik(self, player: str, m: Model) -> list[list[list[float]]]:
        attack_b, build_b, soft, bluff_b, ballot_b, bballot_b = self._reduced(player)
        log, mul = _log, operator.mul  # _mix inlined: this runs for every set, after every action
        pn = m.noise_prior  # the ballots' noise: the same at every sharpness
        ballot = [top + log(fsum(map(mul, e, pn))) for top, e in ballot_b]
        bballot = [top + log(fsum(map(mul, e, pn))) for top, e in bballot_b]
        nh = len(self.hyps)
        out = []
        for betas, lapses in zip(m.beta_priors, m.lapse_priors, strict=True):
            pt = [b * lapse for b in betas for lapse in lapses]  # thetas' order
            attack = [top + log(fsum(map(mul, e, pt))) for top, e in attack_b]
            decoy = [[_NEG] for _ in range(nh)]
            for pi, (a, b) in enumerate(self.pairs):
                x = attack[nh + pi] + ballot[nh + pi]
                decoy[a].append(x)
                decoy[b].append(x)
            rows = []
            for j in range(nh):
                bluffs = ([top + log(fsum(map(mul, e, pt))) for d, (top, e) in enumerate(bluff_b[j * nh:(j + 1) * nh])
                           if d != j] if self.decoy else [_NEG])
                rows.append([self.random[player], attack[j] + ballot[j],
                             _lse(bluffs) - math.log(len(bluffs)) + ballot[j],
                             _lse(decoy[j]) - math.log(nh - 1) if self.decoy else _NEG,
                             _mix(build_b[j], pt) + bballot[j], soft[j] + ballot[j]])
            out.append(rows)
        return out

    def _evidence(self, player: str, m: Model, types: _Types) -> _Evidence:
        """``player``'s evidence as :meth:`posterior` weighs it (:class:`_Evidence`). Kept
        until their next action."""
        kept = self._evidence_cache.get(player)
        if kept is not None and (kept[0] is m or kept[0] == m):
            return kept[1]
        logs = self.loglik(player, m)
        scaled = [_scaled([_lse(col) for col in zip(*rows, strict=True)]) for rows in logs]
        fit = [_mix(scaled[sh], prior) for prior, sh in zip(types.priors, types.sharpness, strict=True)]
        top = max(x for rows in logs for row in rows for x in row)
        cells = [[tuple([math.exp(rows[j][k] - top) for rows in logs]) for k in range(len(STYLE_NAMES))]
                 for j in range(len(self.hyps))]
        ev = _Evidence(fit, cells)
        self._evidence_cache[player] = (m, ev)
        return ev

    @staticmethod
    def _weights(evidence: Sequence[_Evidence], types: _Types) -> list[tuple[tuple[float, ...], ...]]:
        """Per player, per hypothesis, per style: the likelihood times the prior (as a
        share of the player's largest), the table's make-up marginalised given the
        *other* players' evidence. Each table type (:meth:`Model.table_types`) is
        weighed by how well it explains the others; a player's own evidence is left
        out there, so that it counts once, in their own likelihood. The deal's tie
        between the players' cards is left out in this step only."""
        out = []
        mul = operator.mul
        for i, ev in enumerate(evidence):
            others = [e.fit for o, e in enumerate(evidence) if o != i]
            post = ([w + fsum(col) for w, col in zip(types.logw, zip(*others, strict=True), strict=True)]
                    if others else types.logw)
            z = _lse(post)
            shares = [math.exp(x - z) for x in post]
            # Per sharpness, the style prior averaged over the table types of that sharpness.
            mixed = []
            for ts, columns in types.by_sharpness:
                mine = [shares[t] for t in ts]
                mixed.append([fsum(map(mul, mine, column)) for column in columns])
            by_style = list(zip(*mixed, strict=True))  # per style, per sharpness
            rows = [[fsum(map(mul, cell, prior)) for cell, prior in zip(row, by_style, strict=True)]
                    for row in ev.cells]
            top = max(x for row in rows for x in row) or 1.0  # all nil: the posterior falls back to uniform
            out.append(tuple(tuple(x / top for x in row) for row in rows))
        return out

    def posterior(self, model: Model | None = None) -> Posterior:
        """The posterior over (card, style) per player, exact over the deals given
        each player's weights (:meth:`_weights`)."""
        m = model or self.model
        types = _table_types(m)
        weights = self._weights([self._evidence(p, m, types) for p in self.players], types)
        masks = _masks(self.hyps)
        joint = []
        for i in range(len(self.players)):
            sets = _deals(masks, [[fsum(r) for r in w] for o, w in enumerate(weights) if o != i], 0)
            rest = [fsum(t for u, t in sets.items() if not u & mk) for mk in masks]
            cells = [[x * r for x in row] for row, r in zip(weights[i], rest, strict=True)]
            z = fsum(map(fsum, cells))
            if not z:
                cells, z = [[1.0] * len(STYLE_NAMES) for _ in masks], len(masks) * len(STYLE_NAMES)
            joint.append(tuple(tuple(x / z for x in row) for row in cells))
        return Posterior(self.players, tuple(key(h) for h in self.hyps), STYLE_NAMES, tuple(joint),
                         tuple(weights), masks)

    def beliefs(self, model: Model | None = None) -> dict[str, dict[str, float]]:
        """Per player, per hypothesis key: the probability that they hold it."""
        post = self.posterior(model)
        return {p: post.card_marginal(p) for p in self.players}


def _softmax_terms(u: Sequence[float], counts: Sequence[int], c: int, betas: Sequence[float],
                   lapses: Sequence[tuple[float, float]]) -> list[float]:
    """Per (beta, lapse) in that order: the log-probability of a move of class ``c``
    when moves are picked by ``exp(beta * u)`` (classes of ``counts`` moves), except
    a share ``lapse`` picked at random (``lapses``: (log(1 - lapse), log(lapse / n)))."""
    out = []
    top = max(u)  # each class's weight taken relative to the best: exp(<= 0), the best's 1 or more
    gaps = [x - top for x in u]
    log, exp = math.log, math.exp
    for beta in betas:
        lp = beta * gaps[c] - log(fsum([k * exp(beta * g) for k, g in zip(counts, gaps, strict=True)]))
        for keep, rand in lapses:
            out.append(_lse2(keep + lp, rand))
    return out


def _add(rows: list[float], added: Sequence[float]) -> None:
    for i, x in enumerate(added):
        rows[i] += x


def _masks(hyps: Sequence[Sequence[str]]) -> tuple[int, ...]:
    goals = tuple(dict.fromkeys(g for h in hyps for g in h))
    return tuple(sum(1 << goals.index(g) for g in h) for h in hyps)


def _deals(masks: Sequence[int], weights: Sequence[Sequence[float]], used: int) -> dict[int, float]:
    """The sets of cards the players of ``weights`` can hold besides ``used`` -> the
    total weight of those deals (each player's weight per hypothesis)."""
    sets = {used: 1.0}
    for w in weights:
        grown: dict[int, float] = {}
        for u, total in sets.items():
            for mask, x in zip(masks, w, strict=True):
                if x and not u & mask:
                    grown[u | mask] = grown.get(u | mask, 0.0) + total * x
        sets = grown
    return sets


def marginals(hyps: Sequence[Sequence[str]], logliks: Sequence[Sequence[float]]) -> list[list[float]]:
    """P(player i holds hypothesis j) under a uniform deal of distinct cards, each
    player's evidence weighing ``exp(logliks[i][j])``: exact, summed over every deal
    by a dynamic programme over the sets of cards the others hold."""
    masks = _masks(hyps)
    weights = []
    for row in logliks:
        top = max(row)
        weights.append([math.exp(x - top) for x in row])
    out = []
    for i in range(len(logliks)):
        sets = _deals(masks, [w for o, w in enumerate(weights) if o != i], 0)
        row = [w * fsum(t for u, t in sets.items() if not u & mask) for mask, w in zip(masks, weights[i], strict=True)]
        z = fsum(row)
        out.append([x / z for x in row] if z else [1 / len(row)] * len(row))
    return out
