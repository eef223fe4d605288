"""Benchmark: the coach of ``drunter play`` as a player. One seat always plays the
coach's first move (``GET /api/seat/{name}/hint``'s first entry: the same function,
:func:`drunter_notation.table.bots.hint_moves`, on the same public record and the seat's
own card); its ballots, JEIN sides and passes are the ``greedy`` bot's. The other three
seats are ``greedy`` bots. 4 players, base game, the coached seat rotating (game i:
seat i mod 4), game i dealt from seed + i.

Prints the coached seat's win share (a win shared by k counts 1/k) with its 95 % Wilson
interval, against the fair share 0.25, the seconds a hint took (mean, max) and the load
average at the start and at the end. The deals of ``--seed`` (default 7001) were used
for nothing else: the coach's settings were not tuned on them.

    python bench/coach.py [--games 400] [--seed 7001] [--jobs 1]
"""
from __future__ import annotations

import argparse
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor

from drunter_notation.bots import GreedyBot, play_game
from drunter_notation.game import Game, Move
from drunter_notation.table.bots import HintJob, hint_moves

NAMES = ["Anna", "Ben", "Cleo", "Dora"]


class Coached(GreedyBot):
    """The greedy bot, but its placements are the coach's first choice."""

    def __init__(self, seed: int, seconds: list[float]):
        super().__init__(seed)
        self.seconds = seconds

    def start(self, game: Game, name: str, cards: tuple[str, ...]) -> None:
        super().start(game, name, cards)
        self.name, self.cards = name, cards

    def choose_move(self, game: Game, moves: list[Move]) -> Move:
        started = time.monotonic()
        first = hint_moves(HintJob(game.to_dn(), "coach.dn", self.name, self.cards, game.turn))[0]["move"]
        self.seconds.append(time.monotonic() - started)
        return next(m for m in moves if str(m) == first)


def one_game(i: int, seed: int) -> tuple[float, list[float]]:
    game = Game.new(NAMES, seed=seed + i)
    coached = NAMES[i % 4]
    seconds: list[float] = []
    players = {p: Coached(seed + i, seconds) if p == coached else GreedyBot(f"{seed + i}-{p}") for p in NAMES}
    winners = play_game(game, players).result().winners
    return (1 / len(winners) if coached in winners else 0.0), seconds


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7001)
    parser.add_argument("--jobs", type=int, default=1)
    a = parser.parse_args()
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with ProcessPoolExecutor(max(1, a.jobs)) as pool:
        results = list(pool.map(one_game, range(a.games), [a.seed] * a.games))
    wins = sum(r[0] for r in results)
    seconds = [s for r in results for s in r[1]]
    low, high = wilson(wins, a.games)
    print(f"the coached seat against three greedy bots, {a.games} games, seats rotating: won {wins:g}, "
          f"{wins / a.games:.3f}, Wilson 95 % {low:.3f} - {high:.3f} (fair share 0.25)")
    print(f"a hint took {sum(seconds) / len(seconds):.2f} s on average, {max(seconds):.2f} s at most "
          f"({len(seconds)} hints)")
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
