"""``ismcts``: an information-set Monte Carlo tree search on the lean playout path.

What a player does not know is the others' secret cards (S3, X1): the tiles in
every hand are public (S1) and every vote card laid is shown (B2, B7), so the
position is otherwise open. Each simulation of a decision therefore

1. *determinizes*: deals the others' cards at random from those the player does
   not hold, as the deal does (:func:`deal.deal_unseen`), and orders the others'
   expert pairs at random once the choice (X2) is made, since which card they kept
   is hidden;
2. *selects* with UCT (UCB1, exploration constant ``c``) over the player's own
   decisions -- placements, ballots, JEIN sides, the expert choice -- in a tree of
   information sets: a node is the public position at one of the player's
   decisions (kind, turn, covered squares, gangs, own vote cards), its children
   the public positions of the player's next decision after each option. The
   others' decisions in between are made by the rollout policy holding the
   determinized cards, so one node gathers the simulations of every deal that
   leads to the same public position;
3. *expands* one node and *rolls out* to the end of the game, every seat played by
   the rollout policy (``greedy`` by default; the player with its own cards);
4. *backs up* the player's win share: 1 for a win, 1/k for a win shared by k
   players, 0 otherwise.

The move played is the root option simulated most often (ties: the better
mean). All play goes through :func:`play_out` and :func:`play_turn`, the lean
path's own drivers: no rule is decided here.

The budget is per decision: ``sims`` simulations, and at most ``time`` seconds
when given (then the result depends on the machine's speed; with ``sims`` alone
the bot is reproducible from its seed). A decision with one option is not
searched. ``ismcts:sims=400:time=1:c=0.7:policy=greedy`` spells all settings
(:func:`.spec`).
"""
from __future__ import annotations

import math
import random
import re
import time as clock
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from drunter_notation.bots.player import Bot
from drunter_notation.bots.styles import BOTS as STYLES
from drunter_notation.deal import deal_unseen
from drunter_notation.errors import fail
from drunter_notation.i18n import _, format_number
from drunter_notation.rules.playout import ABSTAIN, Playout, play_out, play_turn

if TYPE_CHECKING:
    from drunter_notation.rules.playout import LeanMove

SIMS = 200  # default simulations per decision: 0.15 s of CPU on average, 0.33 s at most (bench/README.md)
C = 0.7  # default UCT exploration constant (tuned on seeds apart from the reported ones: bench/ismcts.py)
MAX_SIMS = 100_000
MAX_TIME = 60.0
YES_NO = (True, False)


class Node:
    """An information set of the player: per option, visits and reward sum; the
    children by (option, key of the next decision's information set)."""

    __slots__ = ("children", "n", "rewards", "visits")

    def __init__(self, options: int):
        self.n = 0
        self.visits = [0] * options
        self.rewards = [0.0] * options
        self.children: dict[tuple[object, ...], Node] = {}  # by the decision's option, kind and position

    def select(self, c: float, rng: random.Random) -> int:
        """UCB1; an option never tried first (at random among them)."""
        untried = [i for i, v in enumerate(self.visits) if not v]
        if untried:
            return untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
        log_n = math.log(self.n)
        best, top = 0, -1.0
        for i, (v, w) in enumerate(zip(self.visits, self.rewards, strict=True)):
            u = w / v + c * math.sqrt(log_n / v)
            if u > top:
                best, top = i, u
        return best

    def best(self) -> int:
        return max(range(len(self.visits)), key=lambda i: (self.visits[i], self.rewards[i] / max(1, self.visits[i])))


def ballots(held: Sequence[int]) -> list[tuple[int, ...]]:
    """The ballots the search considers: ``?`` alone, or one card of a kind held."""
    return [(ABSTAIN,), *((c,) for c, n in enumerate(held) if n and c != ABSTAIN)]


class _Walker(Bot):
    """The searching player's seat in one simulation: its decisions follow the tree
    (UCT) down to the first node added, then its rollout policy."""

    def __init__(self, search: IsmctsBot, root: Node, policy: Bot):
        super().__init__(search.rng)
        self.seat, self.goals, self.search, self.policy = search.seat, policy.goals, search, policy
        self.at: Node | None = root  # the node of the next decision, when known (the root)
        self.edge: tuple[Node, int] | None = None  # (node, option) the last decision took, while in the tree
        self.path: list[tuple[Node, int]] = []

    def _decide(self, pl: Playout, kind: str, extra: object, options: int) -> int | None:
        """The option UCT takes, or None outside the tree."""
        new = False
        if self.at is not None:  # the root
            node, self.at = self.at, None
        elif self.edge is not None:
            parent, option = self.edge
            key = (option, kind, pl.number, bytes(pl.blocked), tuple(pl.gang), tuple(pl.cards[self.seat]), extra)
            found = parent.children.get(key)
            if found is None:
                node = parent.children[key] = Node(options)
                new = True
            elif len(found.visits) != options:
                self.edge = None
                return None
            else:
                node = found
        else:
            return None
        option = node.select(self.search.c, self.rng)
        self.path.append((node, option))
        self.edge = None if new else (node, option)  # one node added per simulation, then the rollout
        return option

    def backup(self, reward: float) -> None:
        for node, option in self.path:
            node.n += 1
            node.visits[option] += 1
            node.rewards[option] += reward

    def pick(self, pl: Playout, moves: list[LeanMove]) -> int:
        option = self._decide(pl, "pick", None, len(moves))
        return self.policy.pick(pl, moves) if option is None else option

    def lay(self, pl: Playout, move: LeanMove) -> tuple[int, ...]:
        default = self.policy.lay(pl, move)  # also sets the policy's JEIN intent
        options = ballots(pl.cards[self.seat])
        option = self._decide(pl, "lay", move[3], len(options)) if len(options) > 1 else None
        return default if option is None else options[option]

    def side(self, pl: Playout, move: LeanMove, laid: Sequence[tuple[int, ...]]) -> bool:
        option = self._decide(pl, "side", (move[3], tuple(laid)), 2)
        return self.policy.side(pl, move, laid) if option is None else YES_NO[option]

    def keep(self, pl: Playout, goals: Sequence[str]) -> str:
        option = self._decide(pl, "keep", tuple(goals), len(goals))
        return self.policy.keep(pl, goals) if option is None else goals[option]


class _Shown(Bot):
    """A voter whose ballot is already shown: lays it; its JEIN side is its bot's
    (a policy is asked for the ballot it would lay, which sets its JEIN intent)."""

    def __init__(self, bot: Bot, laid: tuple[int, ...], policy: bool):
        super().__init__(bot.rng)
        self.bot, self.laid, self.policy = bot, laid, policy

    def lay(self, pl: Playout, move: LeanMove) -> tuple[int, ...]:
        if self.policy:
            self.bot.lay(pl, move)
        return self.laid

    def side(self, pl: Playout, move: LeanMove, laid: Sequence[tuple[int, ...]]) -> bool:
        return self.bot.side(pl, move, laid)


class IsmctsBot(Bot):
    name = "ismcts"

    def __init__(self, seed: int | str | random.Random | None = None, sims: int = SIMS, time: float | None = None,
                 c: float = C, policy: str = "greedy"):
        super().__init__(seed)
        if not 1 <= sims <= MAX_SIMS:
            raise fail("U002", _("ismcts: sims must be 1 to {most}, not {sims}").format(most=format_number(MAX_SIMS),
                                                                                         sims=sims))
        if time is not None and not 0 < time <= MAX_TIME:
            raise fail("U002", _("ismcts: time must be above 0 and at most {most} seconds, not {time}").format(
                most=f"{MAX_TIME:g}", time=given(time)))
        if not 0 <= c <= 10:
            raise fail("U002", _("ismcts: c must be 0 to 10, not {c}").format(c=given(c)))
        if policy not in STYLES:
            raise fail("U002", _("ismcts: no rollout policy named {name}; the policies are {policies}").format(
                name=repr(policy), policies=", ".join(STYLES)))
        self.sims, self.time, self.c, self.policy = sims, time, c, policy
        self.kept: str | None = None
        self.simulations = 0  # run for the last decision searched
        self._bots: dict[tuple[int, tuple[str, ...]], Bot] = {}  # the rollout policy by seat and goals

    def begin(self, seat: int, goals: Sequence[str]) -> None:
        super().begin(seat, goals)
        self.kept = None
        self._bots = {}

    def _bot(self, seat: int, goals: tuple[str, ...]) -> Bot:
        """The rollout policy at ``seat`` holding ``goals`` (kept across simulations: its
        caches depend only on these two)."""
        bot = self._bots.get((seat, goals))
        if bot is None:
            bot = self._bots[(seat, goals)] = STYLES[self.policy](self.rng)
            bot.begin(seat, goals)
        return bot

    def _deal(self, pl: Playout) -> list[tuple[str, ...]]:
        """One determinization: every seat's cards, this player's the true ones (its
        kept card first once chosen)."""
        n = len(pl.players)
        dealt = iter(deal_unseen(self.goals, n - 1, "expert" if pl.expert else "base", pl.goal_deal, self.rng))
        mine = self.goals if self.kept is None else (self.kept, *tuple(g for g in self.goals if g != self.kept))
        return [mine if k == self.seat else next(dealt) for k in range(n)]

    def _search(self, pl: Playout, options: int,
                first: Callable[[Playout, list[Bot], list[tuple[str, ...]]], None] | None) -> int:
        """The option of the decision at ``pl`` to take; ``first`` plays the decision's
        own turn in a simulation (None: the decision is the first ``play_out`` asks)."""
        if options == 1:
            return 0
        root = Node(options)
        deadline = None if self.time is None else clock.perf_counter() + self.time
        done = 0
        while done < self.sims and (deadline is None or clock.perf_counter() < deadline):
            goals = self._deal(pl)
            sim = pl.copy()
            walker = _Walker(self, root, self._bot(self.seat, goals[self.seat]))
            bots = [walker if k == self.seat else self._bot(k, goals[k]) for k in range(len(goals))]
            if first is not None:
                first(sim, bots, goals)
            winners = play_out(sim, bots, goals)
            walker.backup(1 / len(winners) if self.seat in winners else 0.0)
            done += 1
        self.simulations = done
        return root.best()

    # -- the decisions -----------------------------------------------------------------------
    def pick(self, pl: Playout, moves: list[LeanMove]) -> int:
        return self._search(pl, len(moves), None)

    def lay(self, pl: Playout, move: LeanMove) -> tuple[int, ...]:
        options = ballots(pl.cards[self.seat])
        return options[self._search(pl, len(options), lambda sim, bots, goals: play_turn(sim, bots, move))]

    def side(self, pl: Playout, move: LeanMove, laid: Sequence[tuple[int, ...]]) -> bool:
        n, placer = len(pl.players), pl.seat

        def turn(sim: Playout, bots: list[Bot], goals: list[tuple[str, ...]]) -> None:
            shown = [_Shown(bots[k], laid[(k - placer) % n], k != self.seat) for k in range(n)]
            play_turn(sim, shown, move)
        return YES_NO[self._search(pl, 2, turn)]

    def keep(self, pl: Playout, goals: Sequence[str]) -> str:
        base = pl.copy()
        base.due = True  # the choice is made in the simulation's first step, not again by play_out

        def choose(sim: Playout, bots: list[Bot], dealt: list[tuple[str, ...]]) -> None:
            for k, bot in enumerate(bots):
                kept = bot.keep(sim, dealt[k])
                dealt[k] = (kept, *tuple(g for g in dealt[k] if g != kept))
        self.kept = goals[self._search(base, len(goals), choose)]
        return self.kept


SPEC_LIMIT = 80  # characters in a bot's name with its settings
# The settings' values: ASCII digits only (no "２００", "1_000", "1e3", "inf"), so one spec has one spelling;
# their ranges are the bot's (IsmctsBot), at most DECIMALS digits after the point.
VALUES = {"sims": re.compile(r"[0-9]+"), "time": re.compile(r"[0-9]+(?:\.[0-9]+)?"),
          "c": re.compile(r"[0-9]+(?:\.[0-9]+)?"), "policy": re.compile(r"[a-z]{1,20}")}
DECIMALS = 6
EXAMPLES = {"sims": "sims=400", "time": "time=0.5", "c": "c=1.4"}


def spec(text: str) -> tuple[str, dict[str, int | float | str]]:
    """A bot as named on the command line, in the API and in a record's ``Bots`` tag:
    ``NAME`` or ``NAME:key=value:...``, each key once; only ``ismcts`` takes settings
    (``sims``, ``time``, ``c``, ``policy``), numbers in ASCII digits. Raises DnError (U002)."""
    if len(text) > SPEC_LIMIT:
        raise fail("U002", _("a bot is named in at most {most} characters, e.g. {example}").format(
            most=SPEC_LIMIT, example="ismcts:sims=400"))
    name, *settings = text.split(":")
    params: dict[str, int | float | str] = {}
    if settings and name != IsmctsBot.name:
        raise fail("U002", _("bot {name} takes no settings ({text})").format(name=repr(name), text=repr(text)))
    for item in settings:
        key, eq, value = item.partition("=")
        if not eq or key not in VALUES:
            raise fail("U002", _("ismcts: {item} is not a setting; give sims=N, time=SECONDS, c=X or policy=NAME")
                       .format(item=repr(item)))
        if key in params:
            raise fail("U002", _("ismcts: {key} is given twice").format(key=key))
        if not VALUES[key].fullmatch(value):
            if key == "policy":
                raise fail("U002", _("ismcts: no rollout policy named {name}; the policies are {policies}").format(
                    name=repr(value[:20]), policies=", ".join(STYLES)))
            raise fail("U002", _("ismcts: {key}={value} must be a number in ASCII digits, without a sign or an "
                                 "exponent, like {example}").format(
                key=key, value=repr(value[:20]), example=EXAMPLES[key]))
        if len(value.partition(".")[2]) > DECIMALS:
            raise fail("U002", _("ismcts: {key}={value} has more than {most} digits after the point").format(
                key=key, value=repr(value[:20]), most=DECIMALS))
        params[key] = int(value) if key == "sims" else value if key == "policy" else float(value)
    return name, params


def canonical(name: str, params: dict[str, int | float | str]) -> str:
    """The one spelling of a bot and its settings (as :func:`spec` read them): the settings
    in a fixed order, numbers without a needless ``.0``."""
    return ":".join([name, *(f"{k}={number(params[k])}" for k in VALUES if k in params)])


def given(v: float) -> str:
    """A setting out of range as it came: as typed where the digits hold it, else as Python spells it (1e-07, not 0)."""
    return number(v) if float(number(v)) == v else repr(v)


def number(v: int | float | str) -> str:
    """A setting as it is typed: a float without a needless ``.0`` and never with an exponent (``1e-05``)."""
    return f"{v:.{DECIMALS}f}".rstrip("0").removesuffix(".") if isinstance(v, float) else str(v)
