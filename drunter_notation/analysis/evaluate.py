"""Win chances from playouts, and the turning points of a game.

The chance that a player wins from a position is estimated by playing it to the end
``n`` times on the lean path (:mod:`drunter_notation.rules.playout`). What the
playouts know of the players is a :class:`View`: per seat, a weight for each
(hypothesis, style) pair -- the posterior of the hidden-card model, or one style
given for every seat. Each playout draws a whole deal at once (no card twice: the
draw is exact over the deals, :class:`Deals`), then each seat's style given its
card, and seats the bot of that style (a :mod:`drunter_notation.bots` player)
knowing the card drawn. A win shared by k players counts 1/k to each.

Playout ``j`` of an estimate with seed ``S`` draws everything -- the deal, the
styles, then one seed for each seat's bot, whose choices draw from it alone --
from ``random.Random(f"{S}-{j}")``: the same
seed gives the same numbers however the work is spread over processes, and two
estimates with the same seed compare moves on common random numbers (the same
deals and styles, the same bots' dice), which is what :func:`compare` relies on.
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from drunter_notation.bots import make_bot, play_out, play_turn
from drunter_notation.bots.styles import effect, worths
from drunter_notation.rules.playout import Playout
from drunter_notation.rules.state import State

Weights = tuple[tuple[float, ...], ...]  # per hypothesis, per style: a posterior weight (need not sum to 1)


@dataclass(frozen=True)
class View:
    """What the playouts know of the players: the hypotheses (what a player may
    hold), the styles (bot names) and per seat the weight of each (hypothesis,
    style) pair. The deal is drawn from the product of the seats' weights over
    the deals of distinct cards."""

    hyps: tuple[tuple[str, ...], ...]
    styles: tuple[str, ...]
    weights: tuple[Weights, ...]

    @classmethod
    def known(cls, hyps, cards: Sequence[Sequence[str]], style: str) -> View:
        """Every seat's card(s) known (``cards``) and played by ``style``."""
        hyps = tuple(tuple(h) for h in hyps)
        return cls(hyps, (style,), tuple(tuple((1.0 if h == tuple(c) else 0.0,) for h in hyps) for c in cards))

    def given(self, seat: int, card: Sequence[str]) -> View:
        """The same view with ``seat``'s card known to be ``card`` (its styles keep their weights)."""
        h = self.hyps.index(tuple(card))
        row = tuple(w if j == h else tuple(0.0 for _ in w) for j, w in enumerate(self.weights[seat]))
        return replace(self, weights=self.weights[:seat] + (row,) + self.weights[seat + 1:])

    def styled(self, mixes: Sequence[Sequence[float]], styles: Sequence[str]) -> View:
        """The same card weights with each seat's style mix replaced by ``mixes[seat]``
        (weights over ``styles``): the style taken as independent of the card."""
        rows = tuple(tuple(tuple(sum(w) * m for m in mix) for w in seat) for seat, mix in zip(self.weights, mixes))
        return View(self.hyps, tuple(styles), rows)


class Deals:
    """Draws whole deals from a :class:`View`: seat by seat, each card with its
    weight times the total weight of the ways the later seats can still be dealt
    (summed over sets of cards once, then kept), so that a draw is exact over the
    joint posterior and never deals a card twice."""

    def __init__(self, view: View):
        self.view = view
        goals = tuple(dict.fromkeys(g for h in view.hyps for g in h))
        self.masks = [sum(1 << goals.index(g) for g in h) for h in view.hyps]
        self.card = [[sum(w) for w in seat] for seat in view.weights]
        self._total: dict[tuple[int, int], float] = {}
        self._cum: dict[tuple[int, int], tuple[list[float], list[int]]] = {}

    def total(self, seat: int, used: int) -> float:
        """The weight of every way to deal seats ``seat``.. avoiding the cards ``used``."""
        if seat == len(self.card):
            return 1.0
        k = (seat, used)
        if k not in self._total:
            self._total[k] = sum(w * self.total(seat + 1, used | m) for w, m in zip(self.card[seat], self.masks)
                                 if w and not used & m)
        return self._total[k]

    def _choices(self, seat: int, used: int) -> tuple[list[float], list[int]]:
        k = (seat, used)
        if k not in self._cum:
            cum, idx, run = [], [], 0.0
            for h, (w, m) in enumerate(zip(self.card[seat], self.masks)):
                if w and not used & m:
                    x = w * self.total(seat + 1, used | m)
                    if x > 0:
                        run += x
                        cum.append(run)
                        idx.append(h)
            if not idx:
                raise ValueError("no deal has any weight in this view")
            self._cum[k] = (cum, idx)
        return self._cum[k]

    def draw(self, rng: random.Random) -> list[tuple[int, int]]:
        """Per seat, (hypothesis index, style index)."""
        out, used = [], 0
        for seat in range(len(self.card)):
            cum, idx = self._choices(seat, used)
            h = idx[_pick(cum, rng)]
            used |= self.masks[h]
            styles = self.view.weights[seat][h]
            out.append((h, 0 if len(styles) == 1 else _pick(list(_running(styles)), rng)))
        return out


def _running(xs):
    run = 0.0
    for x in xs:
        run += x
        yield run


def _pick(cum: list[float], rng: random.Random) -> int:
    """An index drawn with the weights whose running sums are ``cum``."""
    x = rng.random() * cum[-1]
    for i, c in enumerate(cum):
        if x < c:
            return i
    return len(cum) - 1


def shares(state: State, view: View, n: int, seed: str, first: tuple | None = None) -> list[tuple[float, ...]]:
    """Per playout, each seat's share of the win, from ``state`` over ``n`` playouts
    (playout ``j`` from ``random.Random(f"{seed}-{j}")``); with ``first`` (a lean
    move of the player to move) every playout begins with it, else the mover's bot
    chooses."""
    pl = Playout.from_state(state)
    deals = Deals(view)
    seats = len(pl.players)
    out = []
    for j in range(n):
        rng = random.Random(f"{seed}-{j}")
        q = pl.copy()
        goals, bots = [], []
        for seat, (h, s) in enumerate(deals.draw(rng)):
            bot = make_bot(view.styles[s], random.Random(rng.random()))  # a stream per seat: CRN survive a change
            goal = view.hyps[h]
            if state.chosen and len(goal) > 1:  # the expert choice is made: the kept card scores first
                kept = bot.keep(q, goal)
                goal = (kept,) + tuple(g for g in goal if g != kept)
            bot.begin(seat, goal)
            goals.append(goal)
            bots.append(bot)
        if first is not None:
            play_turn(q, bots, first)
        winners = play_out(q, bots, goals)
        row = [0.0] * seats
        for w in winners:
            row[w] = 1 / len(winners)
        out.append(tuple(row))
    return out


@dataclass(frozen=True)
class Estimate:
    """Per seat: the mean win share over the playouts and its standard error."""

    win: tuple[float, ...]
    se: tuple[float, ...]
    playouts: int


def mean_se(xs: Sequence[float]) -> tuple[float, float]:
    """The mean of ``xs`` and its standard error."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    return m, math.sqrt(max(sum(x * x for x in xs) / n - m * m, 0.0) / (n - 1))


def estimate(state: State, view: View, n: int, seed: str, first: tuple | None = None) -> Estimate:
    """Win chances from ``state`` over ``n`` playouts (:func:`shares`)."""
    rows = shares(state, view, n, seed, first)
    stats = [mean_se([r[seat] for r in rows]) for seat in range(len(rows[0]))]
    return Estimate(tuple(m for m, _ in stats), tuple(s for _, s in stats), n)


def difference(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The mean of ``a - b`` over paired playouts (common random numbers) and its
    standard error."""
    return mean_se([x - y for x, y in zip(a, b)])


def candidates(state: State, goals: Sequence[str], played: tuple, width: int) -> list[tuple]:
    """Up to ``width`` legal moves of the player to move worth trying instead of
    ``played``: the best for the mover's ``goals`` by the greedy bot's measure (the
    points of others' buildings destroyed, less ten times their own), then in the
    legal order. Distinct by what they cover."""
    pl = Playout.from_state(state)
    worth = worths(pl, goals)
    scored = []
    for i, m in enumerate(pl.legal()):
        own, other = effect(pl, m, worth)
        scored.append((-(other - 10 * own), i, m))
    scored.sort()
    out, seen = [], {played[3]}
    for _, _, m in scored:
        if m[3] not in seen:
            seen.add(m[3])
            out.append(m)
        if len(out) == width:
            break
    return out
