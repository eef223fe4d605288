"""Benchmark: complete random games through the public API and on the lean playout
path, next to python-chess.

Plays complete random 4-player games of Drunter & Drüber through ``Game.legal_moves()``
and ``Game.push()`` (a uniformly random legal move, random ballots when a vote is
held); the same number on the lean playout path (``rules/playout.py``: dealt as
``Game.new(seed=...)`` deals, then played by four ``random`` bots sharing one
generator, no record built); and, in the same run, python-chess random games of 80
plies through ``Board.legal_moves`` and ``Board.push``. Prints games per second of
each and the ratios. Timings are the best of ``--repeat`` runs, interleaved so all
see the same machine load; nothing is asserted. One process: one core.

    python bench/playout.py [--games 100] [--repeat 7] [--seed 1]
"""
from __future__ import annotations

import argparse
import platform
import random
import time

import chess

import drunter_notation
from drunter_notation import Game
from drunter_notation.bots import make_bot, play_out
from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.deal import deal_goals, deal_hands, game_rng
from drunter_notation.rules import turn
from drunter_notation.rules.playout import Playout

PLAYERS = ("Anna", "Ben", "Cleo", "Dora")


def dn_game(seed: int) -> int:
    """One complete random 4-player game through the API; returns the turns played."""
    rng = random.Random(seed)
    g = Game.new(PLAYERS, seed=seed)
    while not g.is_over():
        if g.choice_due:
            g.push("choose")
            continue
        moves = g.legal_moves()
        if not moves:
            g.push("pass")
            continue
        move = rng.choice(moves)
        vote = None
        if move.needs_vote:
            vote = {p: [rng.choice([c for c, n in g.state.cards[p].items() if n])] for p in g.players}
        g.push(move, vote=vote, jein={p: rng.choice(("yes", "no")) for p in g.players} if vote else None)
    return g.turn - 1


BOARD, RULES = load_board("schilda"), load_ruleset("hig-1991")


def lean_game(seed: int) -> int:
    """One complete random 4-player game on the lean playout path; returns the turns played."""
    rng = game_rng(seed)
    hands, cards = deal_hands(BOARD, PLAYERS, rng), deal_goals(RULES, PLAYERS, "base", rng)
    pl = Playout.from_state(turn.new_game(BOARD, RULES.options, PLAYERS, hands))
    shared = random.Random(seed)
    bots = [make_bot("random", shared) for _ in PLAYERS]
    for seat, bot in enumerate(bots):
        bot.begin(seat, cards[PLAYERS[seat]])
    play_out(pl, bots, [cards[p] for p in PLAYERS])
    return pl.number


def chess_game(seed: int, plies: int = 80) -> int:
    """One random game of python-chess, ``plies`` half-moves or until it ends."""
    rng = random.Random(seed)
    board = chess.Board()
    n = 0
    while n < plies and not board.is_game_over(claim_draw=False):
        board.push(rng.choice(list(board.legal_moves)))
        n += 1
    return n


def timed(fn, games: int, seed: int) -> tuple[float, int]:
    start = time.perf_counter()
    total = sum(fn(seed + i) for i in range(games))
    return time.perf_counter() - start, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print(f"drunter-notation {drunter_notation.__version__}, python-chess {chess.__version__}, "
          f"Python {platform.python_version()}; {args.games} games each, best of {args.repeat}")
    dn_game(0)  # warm up: the parser and the board's tables are built once per process
    lean_game(0)
    runs = [(timed(dn_game, args.games, args.seed), timed(lean_game, args.games, args.seed),
             timed(chess_game, args.games, args.seed))
            for _ in range(args.repeat)]  # interleaved, so all see the same machine load
    (dn, dn_turns), (lean, lean_turns), (ch, chess_plies) = (min(r[k] for r in runs) for k in range(3))
    dn_rate, lean_rate, ch_rate = args.games / dn, args.games / lean, args.games / ch
    print(f"  Game API, 4-player random games   {dn_rate:8.1f} games/s  "
          f"{dn / dn_turns * 1e6:7.1f} µs/turn  ({dn_turns / args.games:.1f} turns/game)")
    print(f"  lean playouts, 4-player random    {lean_rate:8.1f} games/s  "
          f"{lean / lean_turns * 1e6:7.1f} µs/turn  ({lean_turns / args.games:.1f} turns/game)")
    print(f"  python-chess, 80-ply random games {ch_rate:8.1f} games/s  "
          f"{ch / chess_plies * 1e6:7.1f} µs/ply   ({chess_plies / args.games:.1f} plies/game)")
    print(f"ratio, games/s of the Game API / python-chess: {dn_rate / ch_rate:.2f} (goal >= 3)")
    print(f"ratio, games/s of the lean playouts / python-chess: {lean_rate / ch_rate:.2f} (goal >= 10)")


if __name__ == "__main__":
    main()
