"""Players written for the inference benchmark alone: the model never saw their code.

Each decides on the lean position (``bots.Bot``'s questions: ``pick``, ``lay``,
``side``) with its own scoring, deliberately unlike the model's: its own weights,
its own vote thresholds, its own noise. All know their building card (base game).
"""
from __future__ import annotations

import math

from drunter_notation.bots.player import Bot
from drunter_notation.notation.model import BUILDINGS, CARD_NAMES

_NO = tuple(CARD_NAMES.index(c) for c in ("NEEE", "NEE", "NE"))
_YES = tuple(CARD_NAMES.index(c) for c in ("JA", "JAA", "JAAA"))
_ABSTAIN = CARD_NAMES.index("?")


def points(pl, move, types) -> tuple[int, int]:
    """(points of the building ``types`` the move destroys, points of the others)."""
    own = other = 0
    for s in move[3]:
        v = pl.tables.bvalue[s]
        if v:
            if pl.tables.btype[s] in types:
                own += v
            else:
                other += v
    return own, other


def first_held(pl, seat, order) -> tuple[int, ...]:
    for c in order:
        if pl.cards[seat][c]:
            return (c,)
    return (_ABSTAIN,)


class Bench(Bot):
    """Scores every move (:meth:`score`), plays the best (ties at random); votes by
    :meth:`intent` (no, yes or None for ``?``)."""

    own_weight = 4

    def begin(self, seat, goals):
        super().begin(seat, goals)
        self.types = {BUILDINGS.index(goals[0])}
        others = [i for i in range(len(BUILDINGS)) if i not in self.types]
        self.decoy = {others[self.rng.randrange(len(others))]}
        self.said = True

    def score(self, pl, move, types) -> float:
        own, other = points(pl, move, types)
        return other - self.own_weight * own

    def choose(self, pl, moves, types) -> int:
        scores = [self.score(pl, m, types) for m in moves]
        top = max(scores)
        best = [i for i, s in enumerate(scores) if s == top]
        return best[self.rng.randrange(len(best))]

    def pick(self, pl, moves):
        return self.choose(pl, moves, self.types)

    def intent(self, pl, move):
        own, other = points(pl, move, self.types)
        return "no" if own else "yes" if other >= 2 else None

    def lay(self, pl, move):
        want = "yes" if pl.seat == self.seat else self.intent(pl, move)
        self.said = want != "no"
        return first_held(pl, self.seat, _NO if want == "no" else _YES) if want else (_ABSTAIN,)

    def side(self, pl, move, ballots):
        return self.said

    def keep(self, pl, goals):
        return goals[0]


class Honest(Bench):
    """Purposeful and honest: destroys others' buildings, spares its own (weight 4)."""


class Bluffer(Honest):
    """Honest, but 30 % of its moves are made for a decoy card, sparing that type instead."""

    def pick(self, pl, moves):
        return self.choose(pl, moves, self.decoy if self.rng.random() < 0.3 else self.types)


class Decoy(Honest):
    """Protects two types all game, its own and a decoy, and votes for both."""

    def begin(self, seat, goals):
        super().begin(seat, goals)
        self.types = self.types | self.decoy


def random_ballot(bot, pl) -> tuple[int, ...]:
    """One card still held, at random; a JEIN among them counts for a random side."""
    held = [c for c, n in enumerate(pl.cards[bot.seat]) if n]
    bot.said = bot.rng.random() < 0.5
    return (held[bot.rng.randrange(len(held))],)


class RandomVotes(Honest):
    """Purposeful moves, random ballots."""

    def lay(self, pl, move):
        return random_ballot(self, pl)


class Soft(Honest):
    """Moves drawn with probability proportional to exp(0.7 * score): sees the good moves, often not the best."""

    def pick(self, pl, moves):
        scores = [0.7 * self.score(pl, m, self.types) for m in moves]
        top = max(scores)
        return self.rng.choices(range(len(moves)), [math.exp(s - top) for s in scores])[0]


class Builder(Bench):
    """Plays for its tracks: long tiles first, avoids votes and destruction, its own type most."""

    def score(self, pl, move, types):
        own, other = points(pl, move, types)
        return 2 * move[2] - 6 * own - other - 3 * pl.needs_vote(move)

    def intent(self, pl, move):
        return "no" if points(pl, move, self.types)[0] else None


class Random(Bench):
    """Any legal move; one card at random on every vote."""

    def pick(self, pl, moves):
        return self.rng.randrange(len(moves))

    def lay(self, pl, move):
        return random_ballot(self, pl)


class Hider(Honest):
    """Plays at random for its first eight moves, then honestly: a style that changes mid-game."""

    def begin(self, seat, goals):
        super().begin(seat, goals)
        self.moves = 0

    def pick(self, pl, moves):
        self.moves += 1
        return self.rng.randrange(len(moves)) if self.moves <= 8 else super().pick(pl, moves)


# Written on 2026-11-24, after the model and its priors were frozen: never used to fit or shape it.

class Attacker(Honest):
    """Cares for the damage it does far more than for its own buildings (own weight 1, not 4)."""

    own_weight = 1


class Switcher(Honest):
    """Honest for its first ten moves, then plays and votes for its decoy type instead, to the end."""

    def begin(self, seat, goals):
        super().begin(seat, goals)
        self.moves = 0

    def aim(self):
        return self.types if self.moves <= 10 else self.decoy

    def pick(self, pl, moves):
        self.moves += 1
        return self.choose(pl, moves, self.aim())

    def intent(self, pl, move):
        own, other = points(pl, move, self.aim())
        return "no" if own else "yes" if other >= 2 else None


class VoteLiar(Honest):
    """Honest moves; its ballots on others' tiles lie: yes when the tile would destroy its own type,
    no when it destroys only others'."""

    def intent(self, pl, move):
        own, other = points(pl, move, self.types)
        return "yes" if own else "no" if other >= 2 else None


# Written on 2026-11-25 for bench/calibration.py, after the model was frozen: never fitted on. Each has
# its own weights, thresholds or noise, unlike the model's and the eight fitted policies'.

def best_other(pl, move, types) -> int:
    """The value of the most valuable building not of ``types`` that the move destroys (0: none)."""
    return max((pl.tables.bvalue[s] for s in move[3] if pl.tables.bvalue[s] and pl.tables.btype[s] not in types), default=0)


class Steady(Honest):
    """Honest; its own buildings weigh 3, and it goes for the single most valuable building of the others."""

    own_weight = 3

    def score(self, pl, move, types) -> float:
        own, other = points(pl, move, types)
        return best_other(pl, move, types) + 0.5 * other - self.own_weight * own

    def intent(self, pl, move):
        own = points(pl, move, self.types)[0]
        return "no" if own else "yes" if best_other(pl, move, self.types) >= 4 else None


class CoinVoter(Steady):
    """Steady's moves; every ballot one card held at random (its own tiles' too)."""

    def lay(self, pl, move):
        return random_ballot(self, pl)


class Sloppy(Honest):
    """Honest (own weight 4) but careless: any move within 2 points of the best, at random."""

    def choose(self, pl, moves, types) -> int:
        scores = [self.score(pl, m, types) for m in moves]
        near = [i for i, s in enumerate(scores) if s >= max(scores) - 2]
        return near[self.rng.randrange(len(near))]


class Shield(Steady):
    """Protects its card (weight 3) and, harder, one fixed second type (weight 6) all game; votes no for both."""

    def score(self, pl, move, types) -> float:
        mine, _ = points(pl, move, self.types)
        shielded, _ = points(pl, move, self.decoy)
        return best_other(pl, move, self.types | self.decoy) - 3 * mine - 6 * shielded

    def intent(self, pl, move):
        own, other = points(pl, move, self.types | self.decoy)
        return "no" if own else "yes" if other >= 3 else None


class Feint(Steady):
    """Steady, but 25 % of its moves and ballots are made for one fixed decoy type instead of its card."""

    def pick(self, pl, moves):
        return self.choose(pl, moves, self.decoy if self.rng.random() < 0.25 else self.types)

    def intent(self, pl, move):
        types = self.decoy if self.rng.random() < 0.25 else self.types
        own = points(pl, move, types)[0]
        return "no" if own else "yes" if best_other(pl, move, types) >= 4 else None


POLICIES: dict[str, type[Bench]] = {
    "honest": Honest, "bluffer": Bluffer, "decoy": Decoy, "random-votes": RandomVotes, "soft": Soft,
    "builder": Builder, "random": Random, "hider": Hider,
    "attacker": Attacker, "switcher": Switcher, "vote-liar": VoteLiar,
    "steady": Steady, "coin-voter": CoinVoter, "sloppy": Sloppy, "shield": Shield, "feint": Feint}
FITTED = ("honest", "bluffer", "decoy", "random-votes", "soft", "builder", "random", "hider")  # the model's priors
LATER = tuple(p for p in POLICIES if p not in FITTED)  # written after the model was frozen: never fitted on

# The held-out policies of bench/calibration.py by kind: honest ones play for their own card all game
# (their style may be odd); deceivers' moves or ballots point at another card for some or all of the game.
HELD_OUT: dict[str, str] = {
    "attacker": "honest", "steady": "honest", "coin-voter": "honest", "sloppy": "honest",
    "switcher": "deceiver", "vote-liar": "deceiver", "shield": "deceiver", "feint": "deceiver"}
