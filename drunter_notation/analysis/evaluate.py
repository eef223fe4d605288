"""Win chances from playouts, and the turning points of a game.

With every card known, the chance that a player wins from a position is estimated
by playing it to the end ``n`` times on the lean path
(:mod:`drunter_notation.rules.playout`) with one bot style (the *policy*) in every
seat, each bot knowing its own true card(s). A win shared by k players counts 1/k
to each. The standard error is that of the mean over the playouts.

Every estimate draws from its own generator, ``random.Random(f"{seed}-{label}")``:
the same seed gives the same numbers however the work is spread over processes.
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from drunter_notation.bots import Bot, make_bot, play_out, play_turn
from drunter_notation.bots.styles import effect, worths
from drunter_notation.rules.playout import Playout
from drunter_notation.rules.state import State


@dataclass(frozen=True)
class Estimate:
    """Per seat: the mean win share over the playouts and its standard error."""

    win: tuple[float, ...]
    se: tuple[float, ...]
    playouts: int


def seat_goals(state: State, cards: Sequence[Sequence[str]], kept: Sequence[str] | None) -> list[tuple[str, ...]]:
    """Per seat, the goals a playout scores: the building card (base); in the expert
    game the kept card first once the choice is made, else both (the bots choose)."""
    if kept is None or not state.chosen:
        return [tuple(c) for c in cards]
    return [(k,) + tuple(g for g in c if g != k) for c, k in zip(cards, kept)]


def _bots(policy: str, pl: Playout, goals, rng: random.Random) -> list[Bot]:
    bots = [make_bot(policy, rng) for _ in pl.players]
    for seat, bot in enumerate(bots):
        bot.begin(seat, goals[seat])
    return bots


def estimate(state: State, goals: Sequence[Sequence[str]], policy: str, n: int, seed: str,
             first: tuple | None = None) -> Estimate:
    """Win chances from ``state`` over ``n`` playouts by ``policy`` bots; with
    ``first`` (a lean move of the player to move) every playout begins with it."""
    pl = Playout.from_state(state)
    rng = random.Random(seed)
    seats = len(pl.players)
    sums, squares = [0.0] * seats, [0.0] * seats
    for _ in range(n):
        q = pl.copy()
        bots = _bots(policy, q, goals, rng)
        if first is not None:
            play_turn(q, bots, first)
        winners = play_out(q, bots, goals)
        for w in winners:
            share = 1 / len(winners)
            sums[w] += share
            squares[w] += share * share
    win = tuple(s / n for s in sums)
    se = tuple(math.sqrt(max(q / n - m * m, 0.0) / (n - 1)) if n > 1 else 0.0 for q, m in zip(squares, win))
    return Estimate(win, se, n)


def candidates(state: State, goals: Sequence[Sequence[str]], played: tuple, width: int) -> list[tuple]:
    """Up to ``width`` legal moves of the player to move worth trying instead of
    ``played``: the best for the mover's own goals by the greedy bot's measure (the
    points of others' buildings destroyed, less ten times their own), then in the
    legal order. Distinct by what they cover."""
    pl = Playout.from_state(state)
    seat = pl.seat
    worth = worths(pl, goals[seat])
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
