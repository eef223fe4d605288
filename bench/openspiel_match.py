"""Benchmark: our ``ismcts`` against OpenSpiel's own ``ISMCTSBot`` on ``python_drunter``,
at an equal budget of simulations per decision.

Two players, the seats swapped every game; the deal is drawn from ``--seed`` (game i
from seed + i), so both bots see the same deals from both seats. OpenSpiel's bot runs
as its documentation shows it (``RandomRolloutEvaluator`` with one rollout, UCT
constant 2, worlds from ``state.resample_from_infostate``); ours is
``drunter_notation.ai.bots.OpenSpielBot("ismcts:sims=N")``, the shipped bot as a
``pyspiel.Bot``. Prints the share of games our bot won (a shared win counts 1/k) with
its 95 % Wilson interval, and each bot's mean CPU time per decision, with the load
average at the start and at the end.

    python bench/openspiel_match.py [--games 40] [--sims 100] [--seed 5001] [--jobs 1]
"""
from __future__ import annotations

import argparse
import math
import os
import time
from concurrent.futures import ProcessPoolExecutor


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def one_game(i: int, sims: int, seed: int) -> tuple[float, float, int, float, int]:
    """Game i: (our share, our CPU seconds, our decisions, their CPU seconds, their decisions)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import drunter_notation.ai.openspiel  # noqa: F401  (registers python_drunter)
    from drunter_notation.ai.bots import OpenSpielBot

    game = pyspiel.load_game("python_drunter", {"players": 2})
    rs = np.random.RandomState(seed + i)
    ours_seat = i % 2
    theirs = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=2.0, max_simulations=sims,
                              random_state=rs)
    theirs.set_resampler(lambda state, player: state.resample_from_infostate(
        player, pyspiel.UniformProbabilitySampler(int(rs.randint(2 ** 31)), 0., 1.)))
    ours = OpenSpielBot(game, ours_seat, f"ismcts:sims={sims}", seed=seed + i)
    deal = np.random.RandomState(10_000 + seed + i)
    state = game.new_initial_state()
    spent = [0.0, 0.0]
    count = [0, 0]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(deal.choice(outcomes, p=probs)))
            continue
        mine = state.current_player() == ours_seat
        start = time.process_time()
        action = ours.step(state) if mine else theirs.step(state)
        spent[0 if mine else 1] += time.process_time() - start
        count[0 if mine else 1] += 1
        state.apply_action(action)
    returns = state.returns()
    winners = [p for p, r in enumerate(returns) if r == max(returns)]
    share = 1 / len(winners) if ours_seat in winners else 0.0
    return share, spent[0], count[0], spent[1], count[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--sims", type=int, default=100)
    parser.add_argument("--seed", type=int, default=5001)
    parser.add_argument("--jobs", type=int, default=1)
    a = parser.parse_args()
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"python_drunter, 2 players, {a.games} games, seats swapped, {a.sims} simulations a decision each")
    with ProcessPoolExecutor(max(1, a.jobs)) as pool:
        results = list(pool.map(one_game, range(a.games), [a.sims] * a.games, [a.seed] * a.games))
    wins = sum(r[0] for r in results)
    low, high = wilson(wins, a.games)
    ours = sum(r[1] for r in results) / max(1, sum(r[2] for r in results))
    theirs = sum(r[3] for r in results) / max(1, sum(r[4] for r in results))
    print(f"ours (ismcts:sims={a.sims}) won {wins:g} of {a.games}: {wins / a.games:.3f}, "
          f"Wilson 95 % {low:.3f} - {high:.3f} (fair share 0.5)")
    print(f"CPU per decision: ours {ours * 1000:.1f} ms, OpenSpiel's ISMCTSBot {theirs * 1000:.1f} ms "
          f"(ratio {theirs / ours if ours else float('nan'):.1f})")
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
