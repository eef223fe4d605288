"""Games between bots, and what they say: win rates with 95 % intervals, seat effects.

Game ``i`` (from 1) of a run with seed ``S`` is dealt by ``deal.game_rng(S, i)``, as
``drunter simulate`` deals it; seat ``k`` is played by entrant ``(k + i - 1) mod n``
of the ``--bots`` list, so that over ``n`` games every entrant sits in every seat
once. The games run on the lean playout path; :func:`bot_game` plays the same game
through the Game API as a record (``drunter simulate --bots``).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from drunter_notation.bots import Bot, Player, make_bot, play_game, play_out
from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.deal import deal_goals, deal_hands, game_rng
from drunter_notation.game import Game
from drunter_notation.i18n import _
from drunter_notation.rules import turn
from drunter_notation.rules.playout import Playout

Z95 = 1.959963984540054  # the standard normal's 97.5 % point


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (a shared win counts its share)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def seating(names: Sequence[str], i: int) -> tuple[int, ...]:
    """Per seat, the index of the entrant playing it in game ``i``."""
    n = len(names)
    return tuple((k + i - 1) % n for k in range(n))


def bot_seed(seed: int, i: int, seat: int) -> str:
    return f"{seed}-{i}-{seat}"


@dataclass(frozen=True)
class Match:
    """What one tournament game needs; picklable, for worker processes."""

    names: tuple[str, ...]
    seed: int
    board: str = "schilda"
    rules: str = "hig-1991"
    variant: Literal["base", "expert"] = "base"
    rotate: bool = True


def lean_game(match: Match, i: int,
              make: Callable[[str, str], Bot] = make_bot) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Game ``i`` of ``match`` on the lean path: (entrant per seat, winning seats);
    ``make(name, seed)`` makes each seat's bot."""
    board, ruleset = load_board(match.board), load_ruleset(match.rules)
    players = tuple(f"P{k + 1}" for k in range(len(match.names)))
    rng = game_rng(match.seed, i)
    hands, cards = deal_hands(board, players, rng), deal_goals(ruleset, players, match.variant, rng)
    pl = Playout.from_state(turn.new_game(board, ruleset.options, players, hands, match.variant))
    seats = seating(match.names, i) if match.rotate else tuple(range(len(players)))
    bots = [make(match.names[e], bot_seed(match.seed, i, k)) for k, e in enumerate(seats)]
    for k, bot in enumerate(bots):
        bot.begin(k, cards[players[k]])
    return seats, play_out(pl, bots, [cards[p] for p in players])


def bot_game(players: Sequence[str], names: Sequence[str | Callable[[str], Player]], seed: int, i: int,
             board: str = "schilda", rules: str = "hig-1991", variant: Literal["base", "expert"] = "base",
             tags: Mapping[str, str] | None = None) -> Game:
    """Game ``i`` with seed ``seed``, seat ``k`` played by bot ``names[k]`` (a shipped
    bot's name, or a function of the bot's seed that makes a Player), through the
    Game API (its record: ``.to_dn()``). Dealt as :func:`lean_game` deals."""
    loaded, ruleset = load_board(board), load_ruleset(rules)
    rng = game_rng(seed, i)
    hands, cards = deal_hands(loaded, tuple(players), rng), deal_goals(ruleset, tuple(players), variant, rng)
    g = Game.new(players, board=board, rules=rules, variant=variant, hands=hands, cards=cards, tags=tags)
    def player(k: int) -> Player:
        entrant, bot_seeded = names[k], bot_seed(seed, i, k)
        return make_bot(entrant, bot_seeded) if isinstance(entrant, str) else entrant(bot_seeded)
    return play_game(g, {p: player(k) for k, p in enumerate(players)})


@dataclass(frozen=True)
class Rate:
    label: str
    games: int
    wins: float  # shared wins count their share
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def summarize(names: Sequence[str],
              results: Sequence[tuple[Sequence[int], Sequence[int]]]) -> tuple[list[Rate], list[Rate]]:
    """Per entrant and per seat: games, wins and the 95 % interval of the win rate."""
    n = len(names)
    by_entrant, by_seat = [0.0] * n, [0.0] * n
    for seats, winners in results:
        for w in winners:
            by_entrant[seats[w]] += 1 / len(winners)
            by_seat[w] += 1 / len(winners)
    games = len(results)
    entrant_rates = [Rate(f"{e + 1}. {names[e]}", games, by_entrant[e], *wilson(by_entrant[e], games))
                     for e in range(n)]
    seat_rates = [Rate(_("seat {k}").format(k=k + 1), games, by_seat[k], *wilson(by_seat[k], games)) for k in range(n)]
    return entrant_rates, seat_rates
