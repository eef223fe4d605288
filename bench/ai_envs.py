"""Steps per second of the AI environments, side by side with PettingZoo's own
connect_four_v3 and OpenSpiel's python_tic_tac_toe, python_kuhn_poker and tic_tac_toe,
in one run.

    pip install -e '.[ai,bench]'
    python bench/ai_envs.py [--seconds 10] [--seed 1]

Every environment plays uniformly random legal actions, game after game, for about
``--seconds`` each (whole games only; the measurements take turns over three rounds and
the best round counts). A step is one decision applied: PettingZoo ``step`` with an
action (reading ``last()`` first, as every PettingZoo loop does), OpenSpiel
``apply_action`` at a player's node (chance nodes are applied too, in the time, and counted
apart: the deal of ``python_drunter`` is 4 to 8 of them a player). Seconds are this process's
CPU time, not wall time: the machine is shared, and a busy neighbour slows every row alike.
It prints the ratios of this game's environments to their peers, and the load average
before and after.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import open_spiel.python.games  # noqa: F401  (registers python_tic_tac_toe and python_kuhn_poker)
import pyspiel
from pettingzoo.classic import connect_four_v3

import drunter_notation.ai.openspiel  # noqa: F401  (registers python_drunter)
from drunter_notation.ai.pettingzoo import env as drunter_env


def pettingzoo_games(make, seconds: float, seed: int) -> tuple[int, int, float, int]:
    """(games, steps, seconds, 0) of random play in a PettingZoo AEC environment."""
    e = make()
    rng = np.random.default_rng(seed)
    games = steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        e.reset(seed=int(rng.integers(2 ** 31)))
        for _ in e.agent_iter():
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        games += 1
    return games, steps, time.process_time() - start, 0


def openspiel_games(game, seconds: float, seed: int, tensor: bool = False) -> tuple[int, int, float, int]:
    """(games, player steps, seconds, chance steps) of random play in an OpenSpiel game; with
    ``tensor`` the player to act reads its information state tensor before each step."""
    rng = np.random.default_rng(seed)
    games = steps = chance = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes(), strict=True)
                s.apply_action(int(rng.choice(outcomes, p=probs)))
                chance += 1
                continue
            if tensor:
                s.information_state_tensor(s.current_player())
            s.apply_action(int(rng.choice(s.legal_actions())))
            steps += 1
        games += 1
    return games, steps, time.process_time() - start, chance


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=10.0, help="seconds per measurement and round (default 10)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if not 0 < args.seconds <= 600:
        ap.error("--seconds is from 0 to 600")
    runs = {
        "PettingZoo drunter, 4 players": lambda s: pettingzoo_games(lambda: drunter_env(players=4), s, args.seed),
        "PettingZoo drunter, 2 players": lambda s: pettingzoo_games(lambda: drunter_env(players=2), s, args.seed),
        "PettingZoo connect_four_v3": lambda s: pettingzoo_games(connect_four_v3.env, s, args.seed),
        "OpenSpiel python_drunter, 4 players": lambda s: openspiel_games(
            pyspiel.load_game("python_drunter", {"players": 4}), s, args.seed),
        "OpenSpiel python_drunter, 4 players, info-state tensor": lambda s: openspiel_games(
            pyspiel.load_game("python_drunter", {"players": 4}), s, args.seed, tensor=True),
        "OpenSpiel python_tic_tac_toe": lambda s: openspiel_games(pyspiel.load_game("python_tic_tac_toe"), s,
                                                                  args.seed),
        "OpenSpiel python_kuhn_poker": lambda s: openspiel_games(pyspiel.load_game("python_kuhn_poker"), s, args.seed),
        "OpenSpiel python_kuhn_poker, info-state tensor": lambda s: openspiel_games(
            pyspiel.load_game("python_kuhn_poker"), s, args.seed, tensor=True),
        "OpenSpiel tic_tac_toe (C++)": lambda s: openspiel_games(pyspiel.load_game("tic_tac_toe"), s, args.seed),
    }
    print(f"load average before: {open('/proc/loadavg').read().split()[:3]}")
    best: dict[str, tuple[int, int, float, int]] = {}
    for _ in range(3):  # rounds: every environment runs once per round, so load hits them alike
        for name, run in runs.items():
            got = run(args.seconds / 3)
            if name not in best or got[1] / got[2] > best[name][1] / best[name][2]:
                best[name] = got
    print(f"{'environment':56} {'steps/s':>10} {'steps/game':>11} {'chance/game':>12} {'games':>6}")
    for name, (games, steps, secs, chance) in best.items():
        print(f"{name:56} {steps / secs:10,.0f} {steps / games:11.1f} {chance / games:12.1f} {games:6}")
    rate = {name: steps / secs for name, (_, steps, secs, _) in best.items()}
    for ours, peer in (("PettingZoo drunter, 4 players", "PettingZoo connect_four_v3"),
                       ("PettingZoo drunter, 2 players", "PettingZoo connect_four_v3"),
                       ("OpenSpiel python_drunter, 4 players", "OpenSpiel python_tic_tac_toe")):
        print(f"ratio {ours} / {peer.split(' ', 1)[1]}: {rate[ours] / rate[peer]:.2f}")
    print(f"load average after: {open('/proc/loadavg').read().split()[:3]}")


if __name__ == "__main__":
    main()
