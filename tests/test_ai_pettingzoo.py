"""The PettingZoo environment passes PettingZoo's own api_test and seed_test, plays
whole games to their end with rewards from the scores, hides what a seat cannot see,
and renders the board as text."""
from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")  # the 'ai' extra; the test extra installs it

import numpy as np
from click.testing import CliRunner
from pettingzoo.test import api_test, seed_test

from drunter_notation.ai import observe
from drunter_notation.ai.pettingzoo import env, raw_env
from drunter_notation.ai.table import Phase
from drunter_notation.cli import cli
from drunter_notation.errors import DnError


def play(e, seed: int) -> list[int]:
    """A random game to its end; returns the actions played."""
    e.reset(seed=seed)
    rng, actions = np.random.default_rng(seed), []
    for _agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(action)
        e.step(action)
    return actions


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test(players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on Dict observations, as for PettingZoo's classic games
        api_test(env(players=players), num_cycles=1000)  # a whole game takes about 50 rounds


def test_pettingzoo_api_test_expert():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(players=3, variant="expert", rules="deskovehry-cz-house"), num_cycles=1000)


def test_pettingzoo_seed_test():
    seed_test(lambda: env(players=4), num_cycles=1000)
    seed_test(lambda: env(players=2, variant="expert"), num_cycles=1000)


def test_a_random_game_ends_with_rewards_from_the_scores_and_a_valid_record(tmp_path):
    e = env(players=4)
    play(e, seed=11)
    game = e.unwrapped.game
    assert game.is_over() and e.unwrapped.table.phase is Phase.OVER
    assert not e.agents  # every agent was done and left
    result = game.result()
    k = len(result.winners)
    rewards = dict(zip(game.players, e.unwrapped.table.returns()))
    assert all(rewards[p] == pytest.approx((4 / k - 1) / 3) for p in result.winners)
    assert all(rewards[p] == pytest.approx(-1 / 3) for p in game.players if p not in result.winners)
    assert sum(rewards.values()) == pytest.approx(0)
    path = tmp_path / "game.dn"
    path.write_text(game.to_dn(), "utf-8")
    out = CliRunner().invoke(cli, ["validate", str(path)])
    assert out.exit_code == 0, out.output
    assert f"{path}: valid" in out.output


def test_same_seed_same_game_and_seeds_differ():
    assert play(env(players=3), 5) == play(env(players=3), 5)
    assert play(env(players=3), 5) != play(env(players=3), 6)


def test_the_mask_is_the_legal_actions_and_only_for_the_agent_to_act():
    e = env(players=3)
    e.reset(seed=2)
    table = e.unwrapped.table
    for agent in e.agents:
        mask = e.observe(agent)["action_mask"]
        if agent == e.agent_selection:
            assert list(np.flatnonzero(mask)) == table.legal_actions() != []
        else:
            assert not mask.any()


def test_a_vote_is_one_step_per_card_then_the_end_of_the_ballot():
    e = raw_env(players=2)
    e.reset(seed=3)
    t = e.table
    rng = np.random.default_rng(0)
    while t.phase is not Phase.BALLOT:  # play until some placement is put to a vote
        legal = t.legal_actions()
        voted = [a for a in legal if a < t.enc.passing and next(
            m for m in t.game.legal_moves() if t.action_of(m) == a).needs_vote]
        e.step(voted[0] if voted else int(rng.choice(legal)))
    voter = e.agent_selection
    assert e.observe(voter)["action_mask"][t.enc.end_ballot] == 0  # at least one card
    e.step(t.enc.lay + 1)  # JAA
    assert e.agent_selection == voter
    mask = e.observe(voter)["action_mask"]
    assert not mask[t.enc.lay:t.enc.lay + 2].any() and mask[t.enc.end_ballot]  # ascending: JA is past
    other = next(a for a in e.agents if a != voter)
    before = e.observe(other)["observation"]
    e.step(t.enc.end_ballot)
    assert e.agent_selection == other  # the next voter
    e.step(t.enc.lay + 7)  # ?
    e.step(t.enc.end_ballot)
    assert t.game.decisions[-1].vote.tally.yes == 2  # JAA counted, ? not
    assert not np.array_equal(before, e.observe(other)["observation"])


def test_an_illegal_action_ends_the_game_with_minus_one():
    e = env(players=2)
    e.reset(seed=1)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(int(np.flatnonzero(mask == 0)[0]))
    assert e.rewards[agent] == -1 and all(e.terminations.values())


def test_ansi_render_is_the_board_as_adjudicate_prints_it():
    e = env(players=2, render_mode="ansi")
    e.reset(seed=4)
    text = e.render()
    assert "place: Anna to act" in text
    assert "\n15  @W " in text and "Hands: Anna " in text and "Marks: w s r a wall/street/river tile" in text
    assert "holds" not in text  # nobody's secret card
    plain = env(players=2)
    plain.reset(seed=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert plain.render() is None


def test_bad_parameters_are_the_engines_errors():
    with pytest.raises(DnError, match="H001"):
        env(players=5)
    with pytest.raises(DnError, match="H002"):
        env(variant="pro")
    with pytest.raises(DnError, match="H004"):
        env(rules="nope")
    with pytest.raises(ValueError):
        env(render_mode="human")
    for players in ("2", 2.0, None):
        with pytest.raises(DnError, match="H001"):
            env(players=players)


@pytest.mark.parametrize("action", [3.7, None, "3", True, np.float32(3)])
def test_an_action_that_is_no_action_number_is_refused_by_the_raw_env(action):
    e = raw_env(players=2)
    e.reset(seed=1)
    before = e.game.position()
    with pytest.raises(ValueError, match="no action number"):
        e.step(action)
    assert e.game.position() == before
    legal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    e.step(np.int64(legal))  # numpy's integers are action numbers


def test_observation_leaves_out_the_other_building_cards():
    """Two games alike but for Ben's building card: Anna's observation is the same."""
    a, b = raw_env(players=2), raw_env(players=2)
    a.reset(seed=9)
    b.reset(seed=9)
    anna, ben = b.table.game.cards["Anna"][0], b.table.game.cards["Ben"][0]
    other = next(c for c in ("museum", "tavern", "school") if c not in (anna, ben))
    b.table.game.cards["Ben"] = (other,)
    assert np.array_equal(a.observe("player_0")["observation"], b.observe("player_0")["observation"])
    assert not np.array_equal(a.observe("player_1")["observation"], b.observe("player_1")["observation"])
    assert observe.size(a.table.game.board) == a.observation_space("player_0")["observation"].shape[0]
