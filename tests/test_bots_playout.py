"""The lean playout path and the bots: the lean path agrees with the Game API move
for move, bots play legal games, tournaments' intervals cover known odds."""
from __future__ import annotations

import random
import subprocess
import sys

import pytest
from conftest import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from drunter_notation import Game
from drunter_notation.bots import STYLES, Player, make_bot, parse_bots, play_game, play_out
from drunter_notation.bots.tournament import Match, bot_game, lean_game, seating, summarize, wilson
from drunter_notation.errors import DnError
from drunter_notation.load import judge
from drunter_notation.rules.playout import Playout

PLAYERS = ("Anna", "Ben", "Cleo", "Dora")


def _both_ways(seed: int, styles, variant: str, rules: str, players=PLAYERS):
    """The same game played through the Game API and on the lean path, checking at
    every position of the API game that the lean path offers the same legal moves."""
    g = Game.new(players, seed=seed, variant=variant, rules=rules)
    pl = Playout.from_state(g.state)
    api = {p: make_bot(styles[k], f"{seed}-{k}") for k, p in enumerate(players)}
    lean = [make_bot(styles[k], f"{seed}-{k}") for k in range(len(players))]
    for k, bot in enumerate(lean):
        bot.begin(k, g.cards[players[k]])
    winners = play_out(pl, lean, [g.cards[p] for p in players])
    play_game(g, api)
    return g, pl, winners


@settings(max_examples=examples(40), deadline=None)
@given(seed=st.integers(0, 10**6), styles=st.lists(st.sampled_from(sorted(STYLES)), min_size=4, max_size=4),
       variant=st.sampled_from(["base", "expert"]),
       rules=st.sampled_from(["hig-1991", "webley-en", "deskovehry-cz", "deskovehry-cz-house"]))
def test_lean_path_plays_the_same_game_as_the_game_api(seed, styles, variant, rules):
    g, pl, winners = _both_ways(seed, styles, variant, rules)
    assert pl.number == g.turn - 1
    assert tuple(g.players[w] for w in winners) == g.result().winners
    covered = {pl.tables.square(i) for i, b in enumerate(pl.blocked) if b} - set(g.board.corners)
    assert covered == set(g.state.covered)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(["hig-1991", "webley-en", "deskovehry-cz"]),
       n=st.sampled_from([2, 4]))
def test_lean_legal_moves_equal_the_game_apis_at_every_position(seed, rules, n):
    g = Game.new(PLAYERS[:n], seed=seed, rules=rules)
    rng = random.Random(seed)
    while not g.is_over():
        pl = Playout.from_state(g.state)
        moves = g.legal_moves()
        assert [str(pl.to_move(m)) for m in pl.legal()] == [str(m) for m in moves]
        assert [pl.to_move(m) for m in pl.legal()] == moves
        assert pl.over() == g.is_over()
        if not moves:
            g.push("pass")
            continue
        move = rng.choice(moves)
        g.push(move, vote={p: ["?"] for p in g.players} if move.needs_vote else None)
    assert Playout.from_state(g.state).over()


def test_bot_games_are_valid_records_and_reproducible():
    for styles in (["greedy"] * 4, ["random", "cautious", "greedy", "random"]):
        a = bot_game(PLAYERS, styles, 11, 2).to_dn()
        assert a == bot_game(PLAYERS, styles, 11, 2).to_dn()
        t = judge(Game.from_dn(a).to_record(), keep_states=False)
        assert t.valid and t.complete


def test_greedy_never_destroys_its_own_building_when_it_need_not():
    spared = 0
    for seed in range(6):
        g = Game.new(PLAYERS, seed=seed)
        bots = {p: make_bot("greedy", seed) for p in PLAYERS}
        for p in PLAYERS:
            bots[p].start(g, p, g.cards[p])
        while not g.is_over():
            moves = g.legal_moves()
            if not moves:
                g.push("pass")
                continue
            me = g.to_move
            mine = g.cards[me][0]
            move = bots[me].choose_move(g, moves)
            own = [m for m in moves if any(g.board.buildings.get(s, ("",))[0] == mine for s in m.squares)]
            if len(own) < len(moves):
                assert move not in own
                spared += bool(own)
            vote = {p: bots[p].cast_ballot(g, move) for p in PLAYERS} if move.needs_vote else None
            g.push(move, vote=vote, jein={p: "yes" for p in PLAYERS if vote and "JEIN" in vote[p]} or None)
    assert spared > 0  # the check above was exercised


def test_a_builders_player_needs_only_the_protocol():
    class FirstMove:
        def start(self, game, name, cards):
            self.name = name

        def choose_move(self, game, moves):
            return moves[0]

        def cast_ballot(self, game, move):
            return ["?"]

        def declare_joker(self, game, move, ballots):
            return "no"

        def choose_goal(self, game, cards):
            return cards[0]

    assert isinstance(FirstMove(), Player)
    g = play_game(Game.new(PLAYERS[:2], seed=3, variant="expert"), {"Anna": FirstMove(), "Ben": make_bot("greedy", 1)})
    assert g.is_over() and g.result() is not None and set(g.kept) == {"Anna", "Ben"}


def test_parse_bots():
    assert parse_bots("greedy", 3) == ("greedy",) * 3
    assert parse_bots("greedy, random", 2) == ("greedy", "random")
    with pytest.raises(DnError) as e:
        parse_bots("greedy,random", 4)
    assert e.value.diagnostic.code == "U002"
    with pytest.raises(DnError):
        parse_bots("clever", 2)


def test_wilson_interval_covers_known_odds_about_95_percent_of_the_time():
    rng = random.Random(5)
    trials, covered = 1000, 0
    for _ in range(trials):
        wins = sum(rng.random() < 0.3 for _ in range(200))
        low, high = wilson(wins, 200)
        covered += low <= 0.3 <= high
    assert 0.93 <= covered / trials <= 0.97


def test_seats_rotate_so_every_entrant_plays_every_seat():
    names = ("greedy", "random", "cautious")
    seen = {(k, seating(names, i)[k]) for i in range(1, 4) for k in range(3)}
    assert len(seen) == 9


def test_twin_random_entrants_have_even_odds_within_their_interval():
    """Two random bots, seats rotating: by symmetry each wins half the games. Over
    six tournaments of 300 games, a 95 % interval misses 1/2 about once in twenty:
    at most one may; the rates add up to 1."""
    missed = 0
    for seed in range(1, 7):
        match = Match(("random", "random"), seed=seed)
        entrants, seats = summarize(match.names, [lean_game(match, i) for i in range(1, 301)])
        assert sum(r.wins for r in entrants) == pytest.approx(300)
        assert sum(r.wins for r in seats) == pytest.approx(300)
        missed += not entrants[0].low <= 0.5 <= entrants[0].high
    assert missed <= 1


def _drunter(*args, cwd=None):
    return subprocess.run([sys.executable, "-c", "from drunter_notation.cli import main; main()", *args],
                          capture_output=True, text=True, cwd=cwd)


def test_cli_simulate_with_bots_writes_valid_records(tmp_path):
    out = _drunter("simulate", "--players", "4", "--seed", "3", "--bots", "greedy,random,greedy,cautious")
    assert out.returncode == 0, out.stderr
    assert '[Bots "greedy, random, greedy, cautious"]' in out.stdout
    path = tmp_path / "g.dn"
    path.write_text(out.stdout)
    check = _drunter("validate", str(path))
    assert check.returncode == 0 and "valid:" in check.stdout
    bad = _drunter("simulate", "--players", "3", "--seed", "3", "--bots", "greedy,random")
    assert bad.returncode == 2 and "error[U002]" in bad.stderr and "Traceback" not in bad.stderr


def test_cli_tournament_prints_rates_and_the_same_numbers_with_jobs():
    one = _drunter("tournament", "--bots", "greedy,random", "--games", "40", "--seed", "2")
    two = _drunter("tournament", "--bots", "greedy,random", "--games", "40", "--seed", "2", "--jobs", "2")
    assert one.returncode == 0, one.stderr
    assert one.stdout == two.stdout
    assert "1. greedy" in one.stdout and "seat 2" in one.stdout and "95 %" in one.stdout
