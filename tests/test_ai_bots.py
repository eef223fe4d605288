"""The shipped bots as an OpenSpiel bot and as a PettingZoo policy: they play whole
games through those APIs with legal actions only, and they decide from their own
seat's knowledge: with the other seats' secret cards changed, every decision of a
bot is the same."""
from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel")  # the 'ai' extra; the test extra installs it

import numpy as np  # noqa: E402

import drunter_notation.ai.openspiel  # noqa: E402,F401  (registers python_drunter)
from drunter_notation.ai.bots import OpenSpielBot, PettingZooPolicy, SeatDecider  # noqa: E402
from drunter_notation.ai.pettingzoo import env as make_env  # noqa: E402
from drunter_notation.errors import DnError  # noqa: E402

SPECS = ["random", "greedy", "cautious", "ismcts:sims=8"]


def dealt(game, rng, change=None):
    """A state after the deal; ``change`` maps a slot index to another outcome."""
    s = game.new_initial_state()
    while s.is_chance_node():
        outcomes, probs = zip(*s.chance_outcomes(), strict=True)
        k = len(s.dealt)
        s.apply_action((change or {}).get(k, int(rng.choice(outcomes, p=probs))))
    return s


@pytest.mark.parametrize("spec", SPECS)
def test_each_bot_plays_an_openspiel_game_to_the_end(spec):
    game = pyspiel.load_game("python_drunter", {"players": 3})
    bots = [OpenSpielBot(game, p, spec, seed=p) for p in range(3)]
    state = dealt(game, np.random.default_rng(4))
    decisions = 0
    while not state.is_terminal():
        action = bots[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        decisions += 1
    assert decisions > 30 and sum(state.returns()) == pytest.approx(0)
    assert state.table.game.result().winners


def test_the_expert_variant_choice_is_made_by_the_bots():
    game = pyspiel.load_game("python_drunter", {"players": 2, "variant": "expert"})
    bots = [OpenSpielBot(game, p, "greedy", seed=p) for p in range(2)]
    state = dealt(game, np.random.default_rng(2))
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert "choose" in state.table.game.to_dn()


@pytest.mark.parametrize("spec", ["greedy", "ismcts:sims=4"])
def test_each_bot_is_a_pettingzoo_policy(spec):
    e = make_env(players=4)
    e.reset(seed=11)
    policies = {a: PettingZooPolicy(e, a, spec, seed=i) for i, a in enumerate(e.possible_agents)}
    for agent in e.agent_iter():
        obs, _reward, term, trunc, _info = e.last()
        e.step(None if term or trunc else policies[agent](obs))
    assert e.unwrapped.game.is_over()
    assert all(e.terminations.values()) and e.unwrapped.game.result().winners


@pytest.mark.parametrize("spec", SPECS)
def test_a_bot_decides_the_same_whatever_the_others_secret_cards(spec):
    """Two deals alike but for the building cards of seats 1-3 (rotated among them):
    the same game is played in both, and at every decision of seat 0 its bot, seeded
    alike in both worlds, answers the same."""
    game = pyspiel.load_game("python_drunter", {"players": 4})
    a = dealt(game, np.random.default_rng(9))
    card_slots = [k for k, (kind, _seat, _) in enumerate(game.slots) if kind == "card"]
    others = [k for k in card_slots if game.slots[k][1] != 0]
    rotated = {k: a.dealt[others[(i + 1) % len(others)]] for i, k in enumerate(others)}
    b = dealt(game, np.random.default_rng(9), change={**{k: a.dealt[k] for k in range(len(a.dealt))}, **rotated})
    assert a.table.game.cards["Anna"] == b.table.game.cards["Anna"]
    assert all(a.table.game.cards[p] != b.table.game.cards[p] for p in ("Ben", "Cleo", "Dora"))
    mine_a, mine_b = SeatDecider(spec, 0, seed=5), SeatDecider(spec, 0, seed=5)
    others_bots = {p: SeatDecider("greedy", p, seed=p) for p in (1, 2, 3)}
    asked = 0
    while not a.is_terminal():
        seat = a.current_player()
        assert b.current_player() == seat
        if seat == 0:
            action = mine_a.action(a.table)
            assert mine_b.action(b.table) == action
            asked += 1
        else:
            action = others_bots[seat].action(a.table)
        a.apply_action(action)
        b.apply_action(action)
    assert asked > 15


def test_a_bot_answers_only_at_its_own_seat_and_a_bad_spec_is_u002():
    game = pyspiel.load_game("python_drunter", {"players": 2})
    state = dealt(game, np.random.default_rng(1))
    other = 1 - state.current_player()
    with pytest.raises(ValueError, match="no decision"):
        SeatDecider("greedy", other).action(state.table)
    with pytest.raises(DnError) as e:
        OpenSpielBot(game, 0, "nobody")
    assert e.value.diagnostic.code == "U002"
