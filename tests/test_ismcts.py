"""The search bot ``ismcts``: legal, reproducible, within its budget, on every kind
of decision; its determinizations respect the deal; its settings are checked."""
from __future__ import annotations

import random

import pytest
from click.testing import CliRunner
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from drunter_notation import Game
from drunter_notation.bots import IsmctsBot, lean_move, make_bot, parse_bots, play_game
from drunter_notation.bots.ismcts import ballots
from drunter_notation.bots.tournament import Match, bot_game, lean_game
from drunter_notation.cli import cli
from drunter_notation.deal import deal_unseen
from drunter_notation.errors import DnError
from drunter_notation.load import judge
from drunter_notation.notation.model import BUILDINGS, CARD_NAMES, GOALS, SPECIAL_GOALS
from drunter_notation.rules.options import ExpertDeal
from drunter_notation.rules.playout import Playout

PLAYERS = ("Anna", "Ben", "Cleo", "Dora")


class Counting(IsmctsBot):
    """Records, per kind of decision, the simulations each search ran."""

    def begin(self, seat, goals):
        super().begin(seat, goals)
        self.searched: dict[str, list[int]] = {}

    def _search(self, pl, options, first):
        answer = super()._search(pl, options, first)
        kind = "pick" if first is None else first.__qualname__.split(".")[1]
        self.searched.setdefault(kind, []).append(self.simulations if options > 1 else 0)
        return answer


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), seat=st.integers(0, 3), variant=st.sampled_from(["base", "expert"]),
       rules=st.sampled_from(["hig-1991", "webley-en", "deskovehry-cz-house"]))
def test_ismcts_plays_only_legal_moves_and_its_games_are_valid_records(seed, seat, variant, rules):
    """Every answer goes through Game.push, which raises on anything illegal."""
    names = ["greedy"] * 4
    names[seat] = "ismcts:sims=6"
    g = bot_game(PLAYERS, names, seed, 1, rules=rules, variant=variant)
    assert g.is_over()
    t = judge(Game.from_dn(g.to_dn()).to_record(), keep_states=False)
    assert t.valid and t.complete


def test_ismcts_is_reproducible_from_its_seed():
    names = ["ismcts:sims=8", "greedy", "random", "greedy"]
    a = bot_game(PLAYERS, names, 5, 2, variant="expert").to_dn()
    assert a == bot_game(PLAYERS, names, 5, 2, variant="expert").to_dn()
    match = Match(("ismcts:sims=8", "greedy", "greedy"), 7)
    assert [lean_game(match, i) for i in (1, 2, 3)] == [lean_game(match, i) for i in (1, 2, 3)]


def _vote_position(seed: int, variant: str = "base") -> tuple[Game, object]:
    """A game played by greedy bots up to a move that needs a vote."""
    g = Game.new(PLAYERS, seed=seed, variant=variant)
    bots = {p: make_bot("greedy", seed) for p in PLAYERS}
    for p in PLAYERS:
        bots[p].start(g, p, g.cards[p])
    while True:
        if g.choice_due:
            g.push("choose")
            continue
        moves = g.legal_moves()
        voted = [m for m in moves if m.needs_vote]
        if voted:
            return g, voted[0]
        g.push(bots[g.to_move].choose_move(g, moves) if moves else "pass")


@pytest.mark.parametrize("sims", [1, 7, 30])
def test_every_decision_kind_is_searched_with_exactly_its_simulations(sims):
    g, move = _vote_position(4, "expert")
    mover = g.to_move
    voter = PLAYERS[(PLAYERS.index(mover) + 1) % 4]
    bot = Counting(3, sims=sims)
    bot.start(g, voter, g.cards[voter])
    laid = bot.cast_ballot(g, move)
    assert len(laid) == 1 and g.state.cards[voter][laid[0]] > 0
    shown = {p: ["JEIN"] if p == voter else ["?"] for p in PLAYERS}
    assert bot.declare_joker(g, move, shown) in ("yes", "no")
    mover_bot = Counting(3, sims=sims)
    mover_bot.start(g, mover, g.cards[mover])
    assert mover_bot.choose_move(g, g.legal_moves()) in g.legal_moves()
    assert bot.choose_goal(g, tuple(g.cards[voter])) in g.cards[voter]
    assert bot.searched == {"lay": [sims], "side": [sims], "keep": [sims]}
    assert mover_bot.searched == {"pick": [sims]}


def test_the_budget_is_counted_in_simulations_whatever_the_time_allowed():
    g, _ = _vote_position(9)
    bot = make_bot("ismcts:sims=13:time=60", 1)
    bot.start(g, g.to_move, g.cards[g.to_move])
    bot.choose_move(g, g.legal_moves())
    assert bot.simulations == 13


def test_a_decision_with_one_option_is_not_searched():
    g, move = _vote_position(2)
    voter = PLAYERS[(PLAYERS.index(g.to_move) + 1) % 4]
    pl = Playout.from_state(g.state)
    pl.cards[PLAYERS.index(voter)] = [0] * len(CARD_NAMES)
    pl.cards[PLAYERS.index(voter)][CARD_NAMES.index("?")] = 1
    bot = make_bot("ismcts:sims=50", 1)
    bot.begin(PLAYERS.index(voter), g.cards[voter])
    assert bot.lay(pl, lean_move(pl, move)) == (CARD_NAMES.index("?"),)
    assert bot.simulations == 0


def test_ismcts_lays_jein_and_declares_it_in_its_games():
    """Over a few games the search lays JEIN and is asked its side: the path of a
    JEIN decision runs through the search (not only in the unit test above)."""
    sides = 0
    for seed in range(40):
        bot = Counting(seed, sims=4)
        g = Game.new(PLAYERS, seed=seed)
        play_game(g, {p: bot if k == seed % 4 else make_bot("greedy", seed) for k, p in enumerate(PLAYERS)})
        sides += len(bot.searched.get("side", []))
        if sides:
            break
    assert sides > 0


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 4), variant=st.sampled_from(["base", "expert"]),
       deal=st.sampled_from(list(ExpertDeal)))
def test_determinizations_deal_the_unseen_cards_as_the_deal_does(seed, n, variant, deal):
    rng = random.Random(seed)
    if variant == "base":
        known = (rng.choice(BUILDINGS),)
    elif deal is ExpertDeal.ONE_SPECIAL_ONE_BUILDING:
        known = (rng.choice(SPECIAL_GOALS), rng.choice(BUILDINGS))
    else:
        known = tuple(rng.sample(GOALS, 2))
    others = deal_unseen(known, n - 1, variant, deal, rng)
    cards = [c for hand in others for c in hand]
    assert len(others) == n - 1 and len(set(cards)) == len(cards) and not set(cards) & set(known)
    assert all(len(hand) == len(known) for hand in others)
    if variant == "base":
        assert set(cards) <= set(BUILDINGS)
    elif deal is ExpertDeal.ONE_SPECIAL_ONE_BUILDING:
        assert all({c in SPECIAL_GOALS for c in hand} == {True, False} for hand in others)


@pytest.mark.parametrize("text", ["ismcts:sims=0", "ismcts:sims=100001", "ismcts:time=0", "ismcts:time=nan",
                                  "ismcts:time=61", "ismcts:c=-1", "ismcts:policy=ismcts", "ismcts:sims",
                                  "ismcts:depth=3", "greedy:sims=3", "ismcts:sims=" + "9" * 5000,
                                  "ismcts:sims=1.5", "clever"])
def test_bad_bot_settings_are_one_u002_error(text):
    with pytest.raises(DnError) as e:
        parse_bots(text, 2)
    assert e.value.diagnostic.code == "U002"
    assert len(str(e.value.diagnostic.message)) < 200


def test_bot_settings_are_read():
    bot = make_bot("ismcts:sims=400:time=1:c=0.3:policy=random")
    assert (bot.sims, bot.time, bot.c, bot.policy) == (400, 1.0, 0.3, "random")
    assert parse_bots("ismcts:sims=9, greedy", 2) == ("ismcts:sims=9", "greedy")
    assert ballots([0, 1, 0, 0, 2, 0, 1, 0]) == [(CARD_NAMES.index("?"),), (1,), (4,), (6,)]


def test_the_cli_plays_ismcts_in_tournaments_and_simulated_records(tmp_path):
    runner = CliRunner()
    out = runner.invoke(cli, ["tournament", "--bots", "ismcts:sims=3,greedy,greedy,greedy", "--games", "4"])
    assert out.exit_code == 0, out.output
    assert "1. ismcts:sims=3 " in out.output and "seat 4" in out.output
    record = runner.invoke(cli, ["simulate", "--players", "3", "--seed", "2", "--bots", "ismcts:sims=3,greedy,random"])
    assert record.exit_code == 0 and '[Bots "ismcts:sims=3, greedy, random"]' in record.output
    path = tmp_path / "g.dn"
    path.write_text(record.output)
    assert "valid:" in runner.invoke(cli, ["validate", str(path)]).output
    bad = runner.invoke(cli, ["tournament", "--bots", "ismcts:sims=0,greedy", "--games", "2"])
    assert bad.exit_code == 2 and "error[U002]" in bad.output and "sims must be 1 to 100,000" in bad.output


@pytest.mark.parametrize("command", ["tournament", "simulate"])
def test_the_help_of_tournament_and_simulate_lists_ismcts(command):
    out = " ".join(CliRunner().invoke(cli, [command, "--help"]).output.split())
    assert "ismcts" in out and "ismcts:sims=N" in out
