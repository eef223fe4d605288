"""One engine: the same random actions played through the PettingZoo environment, the
OpenSpiel game and the Game API (driven here from the documented action numbers alone)
give the same position after every action and the same final record, which
``drunter validate`` calls valid."""
from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")  # the 'ai' extra; the test extra installs it
pyspiel = pytest.importorskip("pyspiel")

import numpy as np  # noqa: E402
from click.testing import CliRunner  # noqa: E402

import drunter_notation.ai.openspiel  # noqa: E402,F401  (registers python_drunter)
from drunter_notation.ai.pettingzoo import env  # noqa: E402
from drunter_notation.cli import cli  # noqa: E402
from drunter_notation.game import Game  # noqa: E402
from drunter_notation.notation.model import CARD_NAMES, GOALS  # noqa: E402
from drunter_notation.rules.board import DIRECTIONS  # noqa: E402
from drunter_notation.rules.playout import TILES  # noqa: E402
from drunter_notation.rules.state import LENGTHS, deal_for  # noqa: E402
from drunter_notation.rules.votes import voting_order  # noqa: E402


class Driver:
    """The Game API played from action numbers as docs/ai.md defines them."""

    def __init__(self, game: Game):
        self.g = game
        corners = len(game.board.corners)
        self.passing = corners * 12
        self.lay, self.end = self.passing + 1, self.passing + 9
        self.yes, self.no, self.keep = self.passing + 10, self.passing + 11, self.passing + 12
        self.pending = None
        self.kept: dict[str, str] = {}

    def act(self, a: int) -> None:
        g = self.g
        if a < self.passing:
            track, rest = divmod(a, 12)
            direction, length = divmod(rest, 3)
            corner = list(g.board.corners)[track]
            move = next(m for m in g.legal_moves() if m.corner == corner and m.direction == DIRECTIONS[direction]
                        and m.tile.length == length + 1)
            if move.needs_vote:
                self.pending, self.voters = move, list(voting_order(g.state, g.to_move))
                self.ballots, self.voted, self.jein = {v: [] for v in self.voters}, 0, {}
            else:
                g.push(move)
        elif a == self.passing:
            g.push("pass")
        elif a < self.end:
            self.ballots[self.voters[self.voted]].append(CARD_NAMES[a - self.lay])
        elif a == self.end:
            self.voted += 1
            self.maybe_vote()
        elif a in (self.yes, self.no):
            declarer = next(v for v in self.voters if "JEIN" in self.ballots[v] and v not in self.jein)
            self.jein[declarer] = "yes" if a == self.yes else "no"
            self.maybe_vote()
        else:
            self.kept[g.players[len(self.kept)]] = GOALS[a - self.keep]
            if len(self.kept) == len(g.players):
                g.push("choose", keep=self.kept)
                self.kept = {}

    def maybe_vote(self) -> None:
        if self.voted == len(self.voters) and len(self.jein) == sum("JEIN" in b for b in self.ballots.values()):
            self.g.push(self.pending, vote=self.ballots, jein=self.jein)
            self.pending = None


def chance_outcomes(game: Game) -> list[int]:
    """The deal of ``game`` as the OpenSpiel game's chance outcomes."""
    n = len(game.players)
    deal = deal_for(game.board, n)
    out = []
    for length in LENGTHS:
        for p in game.players:
            tiles = [TILES.index(t) for t, k in sorted(game.dealt[p].items(), key=lambda i: i[0].order())
                     for _ in range(k) if t.length == length]
            assert len(tiles) == deal[length]
            out += tiles
    return out + [len(TILES) + GOALS.index(c) for p in game.players for c in game.cards[p]]


@pytest.mark.parametrize("players,variant,rules,seed", [(4, "base", "hig-1991", 1), (3, "expert", "webley-en", 2),
                                                        (2, "base", "deskovehry-cz", 3)])
def test_the_same_actions_give_the_same_positions_and_record(players, variant, rules, seed, tmp_path):
    pz = env(players=players, variant=variant, rules=rules)
    pz.reset(seed=seed)
    dealt = pz.unwrapped.game
    os_state = pyspiel.load_game("python_drunter", {"players": players, "variant": variant, "rules": rules}) \
        .new_initial_state()
    for outcome in chance_outcomes(dealt):
        os_state.apply_action(outcome)
    direct = Driver(Game.new(dealt.players, rules=rules, variant=variant,
                             hands={p: {str(t): k for t, k in h.items()} for p, h in dealt.dealt.items()},
                             cards={p: c[0] if variant == "base" else c for p, c in dealt.cards.items()}))
    rng = np.random.default_rng(seed)
    steps = 0
    for agent in pz.agent_iter():
        obs, _, term, trunc, _ = pz.last()
        if term or trunc:
            pz.step(None)
            continue
        assert os_state.current_player() == pz.possible_agents.index(agent)
        assert list(np.flatnonzero(obs["action_mask"])) == os_state.legal_actions()
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        pz.step(action)
        os_state.apply_action(action)
        direct.act(action)
        steps += 1
        assert pz.unwrapped.game.position() == os_state.table.game.position() == direct.g.position()
    assert os_state.is_terminal() and direct.g.is_over() and steps > 50
    record = direct.g.to_dn()
    assert record == pz.unwrapped.game.to_dn() == os_state.table.game.to_dn()
    assert "\nscore " in record
    path = tmp_path / "game.dn"
    path.write_text(record, "utf-8")
    out = CliRunner().invoke(cli, ["validate", str(path)])
    assert out.exit_code == 0 and f"{path}: valid" in out.output, out.output
