"""Invariants of the step machine under any deal, player count, variant and ruleset:
a decision is always due until the game is over, legal actions are ascending and in
range, observations stay in [0, 1], no seat's view changes when another player's
secret cards do, and the game ends zero-sum with a record validate accepts."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numpy")  # the 'ai' extra; the test extra installs it

import numpy as np

from drunter_notation.ai import observe
from drunter_notation.ai.table import Phase, Table
from drunter_notation.game import Game
from drunter_notation.load import judge
from drunter_notation.notation.model import BUILDINGS, GOALS
from drunter_notation.notation.parser import parse_text


def swapped(table: Table, other: int) -> Table:
    """A copy in which player ``other`` holds different secret cards (not held by anyone)."""
    t = table.copy()
    game = t.game
    held = {c for p in game.players for c in game.cards[p]}
    pool = [c for c in (BUILDINGS if game.variant == "base" else GOALS) if c not in held]
    name = game.players[other]
    game.cards = dict(game.cards) | {name: tuple(pool[:len(game.cards[name])])}
    if other in t.keepers:
        t.keepers = dict(t.keepers) | {other: pool[0]}
    return t


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 4), variant=st.sampled_from(["base", "expert"]),
       rules=st.sampled_from(["hig-1991", "webley-en", "deskovehry-cz", "deskovehry-cz-house"]))
def test_every_step_keeps_the_invariants(seed, players, variant, rules):
    game = Game.new(["Anna", "Ben", "Cleo", "Dora"][:players], rules=rules, variant=variant, seed=seed)
    table, rng = Table(game), random.Random(seed)
    size = observe.size(game.board)
    while table.phase is not Phase.OVER:
        legal = table.legal_actions()
        assert legal and legal == sorted(set(legal)) and 0 <= legal[0] and legal[-1] < table.enc.size
        seat = table.current()
        other = (seat + rng.randrange(1, players)) % players
        twin = swapped(table, other)
        viewer = (other + rng.randrange(1, players)) % players  # anyone but the one whose cards changed
        mine = observe.tensor(table, viewer, history=True)
        assert mine.shape == (size + 225 + 32,) and 0 <= mine.min() and mine.max() <= 1
        assert np.array_equal(mine, observe.tensor(twin, viewer, history=True))
        assert observe.history_text(table, viewer) == observe.history_text(twin, viewer)
        assert observe.text(table, viewer) == observe.text(twin, viewer)
        table.apply(rng.choice(legal))
    assert table.legal_actions() == [] and table.current() is None
    returns = table.returns()
    assert sum(returns) == pytest.approx(0) and (max(returns) > 0 or returns == [0.0] * players)  # all tied: 0
    assert judge(parse_text(game.to_dn())).valid


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 4), variant=st.sampled_from(["base", "expert"]))
def test_the_tensors_kept_between_calls_are_the_tensors_built_afresh(seed, players, variant):
    """observe.tensor keeps each view of a table and brings it up to date part by part; a copy of
    the table starts its views afresh. Seats look now and then, so a view skips turns and votes."""
    game = Game.new(["Anna", "Ben", "Cleo", "Dora"][:players], variant=variant, seed=seed)
    table, rng = Table(game), random.Random(seed)
    while table.phase is not Phase.OVER:
        for viewer in range(players):
            for history in (False, True):
                if rng.random() < 0.4:
                    kept = observe.tensor(table, viewer, history=history)
                    assert np.array_equal(kept, observe.tensor(table.copy(), viewer, history=history))
                    kept[:] = 2  # a tensor handed out is the caller's: changing it changes no later one
        table.apply(rng.choice(table.legal_actions()))
    for viewer in range(players):
        assert np.array_equal(observe.tensor(table, viewer), observe.tensor(table.copy(), viewer))
