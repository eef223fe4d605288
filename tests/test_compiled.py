"""The compiled build (setup.py with DRUNTER_COMPILE=1: the engine's hot modules built by
mypyc) plays and judges exactly as the pure Python package: the same games move by move,
the same decisions, playouts, verdicts and messages, and the same steps and observations of
the AI environments' step machine. Skipped unless the engine here is compiled; README.md
("A compiled engine, opt-in") has the command that runs it with that build."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import COMPILED, ROOT

pytestmark = pytest.mark.skipif(not COMPILED, reason="the engine here is pure Python: nothing to compare")

# Prints, as JSON, what a run of the engine gives: whether it is compiled, then random games
# through the Game API (every move's text, decision rules, vote and the result), lean playouts
# (turns, winners) and the findings of every record under replays/ with their messages.
FINGERPRINT = r"""
import json, random, sys
from pathlib import Path
from drunter_notation import Game
from drunter_notation.bots import make_bot, play_out
from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.deal import deal_goals, deal_hands, game_rng
from drunter_notation.errors import DnError
from drunter_notation.load import judge
from drunter_notation.notation.parser import parse_bytes
from drunter_notation.rules import placement, turn
from drunter_notation.rules.playout import Playout

out = {"compiled": not placement.__file__.endswith(".py"), "games": [], "playouts": [], "records": [], "tables": []}
for seed in range(12):
    players = ("Anna", "Ben", "Cleo", "Dora")[: 2 + seed % 3]
    rng = random.Random(seed)
    g = Game.new(players, seed=seed, variant="expert" if seed % 4 == 3 else "base")
    log = []
    while not g.is_over():
        if g.choice_due:
            g.push("choose")
            log.append("choose")
            continue
        moves = g.legal_moves()
        if not moves:
            log.append([str(d.rules) for d in [g.push("pass")]])
            continue
        move = rng.choice(moves)
        vote = None
        if move.needs_vote:
            vote = {p: [rng.choice([c for c, n in g.state.cards[p].items() if n])] for p in g.players}
        d = g.push(move, vote=vote, jein={p: rng.choice(("yes", "no")) for p in g.players} if vote else None)
        log.append([str(move), len(moves), d.rules, d.accepted, [list(r) for r in d.removed]])
        if seed % 5 == 0 and len(log) % 7 == 0:
            g.pop()
            log.append(["pop", g.position()])
    r = g.result()
    out["games"].append([log, g.position(), None if r is None else [r.scores, list(r.winners), r.explanation]])
board, rules = load_board("schilda"), load_ruleset("hig-1991")
for seed in range(40):
    players = ("Anna", "Ben", "Cleo", "Dora")[: 2 + seed % 3]
    rng = game_rng(seed)
    hands, cards = deal_hands(board, players, rng), deal_goals(rules, players, "base", rng)
    pl = Playout.from_state(turn.new_game(board, rules.options, players, hands))
    shared = random.Random(seed)
    bots = [make_bot(("random", "greedy", "cautious")[(seed + i) % 3], shared) for i in range(len(players))]
    for seat, bot in enumerate(bots):
        bot.begin(seat, cards[players[seat]])
    winners = play_out(pl, bots, [cards[p] for p in players])
    out["playouts"].append([pl.number, list(winners) if winners is not None else None, list(pl.standing())])
for path in sorted(Path(sys.argv[1]).rglob("*.dn")):
    try:
        t = judge(parse_bytes(path.read_bytes(), str(path)), str(path))
    except DnError as e:  # a syntax error: the parser's, not the engine's, but shown all the same
        out["records"].append([path.name, str(e)])
        continue
    out["records"].append([path.name, [[d.code, d.turn, d.message, d.hint] for d in t.diagnostics], t.scores])
import hashlib
from drunter_notation.ai import observe
from drunter_notation.ai.table import Table
for seed in range(6):  # the AI environments' step machine and observations, decision by decision
    players = ("Anna", "Ben", "Cleo", "Dora")[: 2 + seed % 3]
    rng = random.Random(seed)
    table = Table(Game.new(players, seed=seed, variant="expert" if seed % 3 == 2 else "base"))
    log, digest = [], hashlib.sha256()
    while table.current() is not None:
        legal = table.legal_actions()
        for seat in range(table.n):
            digest.update(observe.tensor(table, seat, history=seat % 2 == 1).tobytes())
        if len(log) % 9 == 4:
            table = table.copy()
        action = rng.choice(legal)
        table.apply(action)
        log.append([action, len(legal)])
    out["tables"].append([log, table.returns(), digest.hexdigest(), observe.history_text(table, 0)])
print(json.dumps(out))
"""


def fingerprint(env: dict[str, str], cwd: str) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-c", FINGERPRINT, str(ROOT / "replays")], capture_output=True,
                          text=True, env=env, cwd=cwd, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def test_the_compiled_engine_plays_and_judges_as_the_pure_one(tmp_path):
    compiled = fingerprint(dict(os.environ), str(tmp_path))  # the installed (compiled) package
    pure = fingerprint({**os.environ, "PYTHONPATH": str(ROOT)}, str(ROOT))  # the checkout's Python source
    assert compiled["compiled"] and not pure["compiled"]
    assert compiled["records"] and len(compiled["games"]) == 12 and len(compiled["playouts"]) == 40
    assert len(compiled["tables"]) == 6
    for part in ("games", "playouts", "records", "tables"):
        assert compiled[part] == pure[part], part
