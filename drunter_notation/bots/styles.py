"""The shipped bots: ``random``, ``greedy`` and ``cautious``.

* ``random``: a uniformly random legal move; one or two random cards still held
  on every vote, a JEIN declared at random; a random goal kept (what ``drunter
  simulate`` has always played).
* ``greedy``: knows its own card(s). Never destroys its own buildings when it can
  help it, and destroys the most valuable buildings of the other types it can
  reach; on a vote, lays its strongest no card against a tile that would destroy
  one of its buildings, its weakest yes card for a tile that destroys only others'
  (and for its own placements), ``?`` otherwise; keeps the goal that scores more.
* ``cautious``: a builder. Destroys as little as it can (its own buildings least
  of all) and avoids tiles that need a vote; votes only to save its own buildings
  (``?`` otherwise, keeping its cards for the tie-break); keeps the better goal.

Ties between equally good moves are broken at random (the bot's own seed).
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from drunter_notation.bots.player import Bot
from drunter_notation.notation.model import CARD_NAMES
from drunter_notation.rules.grid import BUILDING_INDEX, Tables
from drunter_notation.rules.playout import ABSTAIN, Playout
from drunter_notation.rules.scoring import goal_score

if TYPE_CHECKING:
    from drunter_notation.rules.playout import LeanMove

# Cards by strength: the strongest no first; the weakest yes first.
_NO = tuple(CARD_NAMES.index(c) for c in ("NEEE", "NEE", "NE", "JEIN"))
_YES = tuple(CARD_NAMES.index(c) for c in ("JA", "JAA", "JAAA", "JEIN"))
OWN_WEIGHT = 10  # one point of one's own buildings outweighs any attack


def goal_worth(pl: Playout, goal: str) -> list[int]:
    """Per square, the points ``goal`` would lose if the square were covered now (0
    where nothing of its stands): a building goal its type's values; the specials by
    their rule (X4; ``lowest-of-each`` counts a building while it is the lowest of
    its type still standing)."""
    t = pl.tables
    worth = [0] * len(t.btype)
    kind = BUILDING_INDEX.get(goal)
    lowest: dict[int, tuple[int, int]] = {}
    if goal == "lowest-of-each":
        for i, k, value in t.buildings:
            if not pl.blocked[i] and (k not in lowest or value < lowest[k][1]):
                lowest[k] = (i, value)
    for i, k, value in t.buildings:
        if pl.blocked[i]:
            continue
        if kind is not None:
            worth[i] = value if k == kind else 0
        elif goal == "all-threes":
            worth[i] = 3 if value == 3 else 0
        elif goal == "all-fours":
            worth[i] = 4 if value == 4 else 0
        elif goal == "one-each":
            worth[i] = 1
        elif goal == "lowest-of-each":
            worth[i] = value if lowest.get(k, (None,))[0] == i else 0
    return worth


def worths(pl: Playout, goals: Sequence[str]) -> list[int]:
    """Per square, the points all ``goals`` together would lose if it were covered now."""
    per_goal = [goal_worth(pl, g) for g in goals]
    return [sum(w) for w in zip(*per_goal, strict=True)] if len(per_goal) > 1 else per_goal[0]


def effect(pl: Playout, move: LeanMove, worth: Sequence[int]) -> tuple[int, int]:
    """What ``move`` destroys: (points of the goals ``worth`` was made for, points
    of the other buildings)."""
    own = other = 0
    bvalue = pl.tables.bvalue
    for s in move[3]:
        v = bvalue[s]
        if v:
            w = worth[s]
            own += w
            if not w:
                other += v
    return own, other


def _cards(held: Sequence[int], order: Sequence[int]) -> tuple[int, ...]:
    """The first card of ``order`` still held, or ``?``."""
    for c in order:
        if held[c]:
            return (c,)
    return (ABSTAIN,)


class RandomBot(Bot):
    name = "random"

    def pick(self, pl: Playout, moves: list[LeanMove]) -> int:
        return self.rng.randrange(len(moves))

    def lay(self, pl: Playout, move: LeanMove) -> tuple[int, ...]:
        held = [c for c, n in enumerate(pl.cards[self.seat]) if n > 0]
        rng = self.rng
        first = held.pop(rng.randrange(len(held)))
        if not held or rng.random() < 0.5:
            return (first,)
        second = held[rng.randrange(len(held))]
        return (first, second) if first < second else (second, first)

    def side(self, pl: Playout, move: LeanMove, ballots: Sequence[tuple[int, ...]]) -> bool:
        return self.rng.random() < 0.5

    def keep(self, pl: Playout, goals: Sequence[str]) -> str:
        return self.rng.choice(tuple(goals))


class _Purposeful(Bot):
    """What the greedy and cautious bots share: the worth of each move to them."""

    intent = True  # the side of the JEIN laid last

    def __init__(self, seed: int | str | random.Random | None = None):
        super().__init__(seed)
        self._fixed: tuple[Tables, list[int]] | None = None  # (tables, worth) for goals that are all buildings

    def begin(self, seat: int, goals: Sequence[str]) -> None:
        super().begin(seat, goals)
        self._fixed = None

    def worth(self, pl: Playout) -> list[int]:
        """Per square, what the bot's own goals would lose (:func:`worths`); the
        squares a move covers are free, so for building goals this is fixed."""
        if self._fixed is not None and self._fixed[0] is pl.tables:
            return self._fixed[1]
        worth = worths(pl, self.goals)
        if all(g in BUILDING_INDEX for g in self.goals):
            self._fixed = (pl.tables, worth)
        return worth

    def effect(self, pl: Playout, move: LeanMove) -> tuple[int, int]:
        return effect(pl, move, self.worth(pl))

    def best(self, scores: list[int]) -> int:
        top = max(scores)
        if scores.count(top) == 1:
            return scores.index(top)
        best = [i for i, s in enumerate(scores) if s == top]
        return best[self.rng.randrange(len(best))]

    def keep(self, pl: Playout, goals: Sequence[str]) -> str:
        covered = {pl.tables.square(i) for i, b in enumerate(pl.blocked) if b}
        return max(goals, key=lambda g: goal_score(pl.tables.board, covered, g))

    def side(self, pl: Playout, move: LeanMove, ballots: Sequence[tuple[int, ...]]) -> bool:
        return self.intent  # a JEIN counts for the side the bot laid it for


class GreedyBot(_Purposeful):
    name = "greedy"

    def pick(self, pl: Playout, moves: list[LeanMove]) -> int:
        worth, bvalue = self.worth(pl), pl.tables.bvalue
        scores = []
        for m in moves:  # other - OWN_WEIGHT * own (:func:`effect`), inlined: this is most of a playout's time
            score = 0
            for s in m[3]:
                v = bvalue[s]
                if v:
                    w = worth[s]
                    score += v if not w else -OWN_WEIGHT * w
            scores.append(score)
        return self.best(scores)

    def lay(self, pl: Playout, move: LeanMove) -> tuple[int, ...]:
        held = pl.cards[self.seat]
        own, other = (0, 1) if self.seat == pl.seat else self.effect(pl, move)
        self.intent = not own
        if own:
            return _cards(held, _NO)
        return _cards(held, _YES) if other else (ABSTAIN,)


class CautiousBot(_Purposeful):
    name = "cautious"

    def pick(self, pl: Playout, moves: list[LeanMove]) -> int:
        worth, bvalue = self.worth(pl), pl.tables.bvalue
        scores = []
        for m in moves:  # -(OWN_WEIGHT * own + other) * 2, less one for a vote (:func:`effect`, inlined)
            score = 0
            for s in m[3]:
                v = bvalue[s]
                if v:
                    w = worth[s]
                    score -= 2 * (v if not w else OWN_WEIGHT * w)
            scores.append(score - pl.needs_vote(m))
        return self.best(scores)

    def lay(self, pl: Playout, move: LeanMove) -> tuple[int, ...]:
        self.intent = False
        if self.seat != pl.seat and self.effect(pl, move)[0]:
            return _cards(pl.cards[self.seat], _NO)
        return (ABSTAIN,)


BOTS: dict[str, type[Bot]] = {b.name: b for b in (RandomBot, GreedyBot, CautiousBot)}
