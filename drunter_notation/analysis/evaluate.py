"""Win chances from playouts, and the turning points of a game.

The chance that a player wins from a position is estimated by playing it to the end
``n`` times on the lean path (:mod:`drunter_notation.rules.playout`). What the
playouts know of the players is the model's :class:`Posterior` after the turn:
each playout draws a whole deal from it at once (the joint posterior over who
holds what, no card twice) with a style per player given their card, and seats for
each player a bot of that style's policy (a :mod:`drunter_notation.bots` player)
knowing the card drawn. A win shared by k players counts 1/k to each.

Playout ``j`` of an estimate with seed ``S`` draws everything -- the deal, the
styles, then one seed for each seat's bot, whose choices draw from it alone --
from ``random.Random(f"{S}-{j}")``: the same seed gives the same numbers however
the work is spread over processes, and two estimates with the same seed compare
moves on common random numbers (the same deals and styles, the same bots' dice).
"""
from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from drunter_notation.analysis.inference import STYLES, Posterior
from drunter_notation.bots import make_bot, play_out, play_turn
from drunter_notation.bots.styles import effect, worths
from drunter_notation.rules.playout import Playout
from drunter_notation.rules.state import State

if TYPE_CHECKING:
    from drunter_notation.rules.playout import LeanMove


def shares(state: State, post: Posterior, n: int, seed: str, first: LeanMove | None = None,
           given: Mapping[str, str] | None = None, policy: str | None = None) -> list[tuple[float, ...]]:
    """Per playout, each seat's share of the win, from ``state`` over ``n`` playouts
    (playout ``j`` from ``random.Random(f"{seed}-{j}")``). ``first`` (a lean move of
    the player to move): every playout begins with it, else the mover's bot chooses;
    ``given``: player -> card key known; ``policy``: one bot name for every seat
    instead of the styles' own."""
    pl = Playout.from_state(state)
    seats = len(pl.players)
    out = []
    for j in range(n):
        rng = random.Random(f"{seed}-{j}")
        q = pl.copy()
        drawn = post.sample(rng, given)
        goals, bots = [], []
        for seat, player in enumerate(pl.players):
            card, style = drawn[player]
            bot = make_bot(policy or STYLES[style].bot(rng), random.Random(seat_seed(rng)))  # a stream per seat
            goal = tuple(card.split("+"))
            if state.chosen and len(goal) > 1:  # the expert choice is made: the kept card scores first
                kept = bot.keep(q, goal)
                goal = (kept, *tuple(g for g in goal if g != kept))
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


_MODULUS = (1 << 61) - 1  # 64-bit CPython's numeric hash modulus


def seat_seed(rng: random.Random) -> int:
    """An integer seed from ``rng``'s next float: the number 64-bit CPython's
    ``random.Random(float)`` seeds with (the float's hash), worked out here so that
    wasm32, whose hash has 31 bits, draws the same streams."""
    n, d = rng.random().as_integer_ratio()
    return n * pow(d, -1, _MODULUS) % _MODULUS


@dataclass(frozen=True)
class Estimate:
    """Per seat: the mean win share over the playouts and its standard error."""

    win: tuple[float, ...]
    se: tuple[float, ...]
    playouts: int


def mean_se(xs: Sequence[float]) -> tuple[float, float]:
    """The mean of ``xs`` and its standard error."""
    n = len(xs)
    m = math.fsum(xs) / n  # exactly rounded: the same on every Python (3.12's sum() is compensated)
    if n < 2:
        return m, 0.0
    return m, math.sqrt(max(math.fsum(x * x for x in xs) / n - m * m, 0.0) / (n - 1))


def estimate(state: State, post: Posterior, n: int, seed: str, first: LeanMove | None = None,
             given: Mapping[str, str] | None = None, policy: str | None = None) -> Estimate:
    """Win chances from ``state`` over ``n`` playouts (:func:`shares`)."""
    rows = shares(state, post, n, seed, first, given, policy)
    stats = [mean_se([r[seat] for r in rows]) for seat in range(len(rows[0]))]
    return Estimate(tuple(m for m, _ in stats), tuple(s for _, s in stats), n)


def difference(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The mean of ``a - b`` over paired playouts (common random numbers) and its
    standard error."""
    return mean_se([x - y for x, y in zip(a, b, strict=True)])


def candidates(state: State, goals: Sequence[str], played: LeanMove | None, width: int) -> list[LeanMove]:
    """Up to ``width`` legal moves of the player to move worth trying instead of
    ``played`` (None: no move played yet): the best for the mover's ``goals`` by the greedy bot's measure (the
    points of others' buildings destroyed, less ten times their own), then in the
    legal order. Distinct by what they cover."""
    pl = Playout.from_state(state)
    worth = worths(pl, goals)
    scored = []
    for i, m in enumerate(pl.legal()):
        own, other = effect(pl, m, worth)
        scored.append((-(other - 10 * own), i, m))
    scored.sort()
    out, seen = [], set() if played is None else {played[3]}
    for _, _, m in scored:
        if m[3] not in seen:
            seen.add(m[3])
            out.append(m)
        if len(out) == width:
            break
    return out
