"""bench/tables.py: who sits where, what one game yields, and what the search counts against the aims."""
from __future__ import annotations

import pytest
from conftest import load_bench


@pytest.fixture(scope="module")
def tables():
    return load_bench("tables")


def test_the_seats_rotate_so_each_policy_sits_everywhere(tables):
    for name, policies in tables.TABLES.items():
        seen = [tables.seating(name, i) for i in range(1, 5)]
        assert all(sorted(s) == sorted(policies) for s in seen)
        for seat in range(4):
            assert sorted(s[seat] for s in seen) == sorted(policies)


def test_one_game_gives_each_players_beliefs_at_each_turn_scored(tables):
    r = tables.one_game(tables.Job("mostly-honest", 4401, 1, "none"))
    assert sorted(r["seats"]) == ["decoy", "honest", "honest", "random-votes"]
    assert set(r["beliefs"]) == {"10", "20", "30", "end"} and r["today"] is None
    for beliefs in r["beliefs"].values():
        assert beliefs is not None and len(beliefs) == 4
        assert all(abs(sum(b.values()) - 1) < 1e-8 for b in beliefs)  # each written to 9 significant digits
    assert len(r["truth"]) == 4


def test_the_search_counts_the_aims_and_any_other_figure_made_worse(tables):
    shipped = {"honest": {"20": 0.10, "end": 0.06}, "mostly-honest": {"20": 0.05, "end": 0.06},
               "decoy": {"20": 0.11, "end": 0.12}}
    assert tables.excess(shipped, shipped) == pytest.approx((0.10 - 0.08) + (0.06 - 0.05))
    better = {**shipped, "honest": {"20": 0.07, "end": 0.06}, "mostly-honest": {"20": 0.05, "end": 0.04}}
    assert tables.excess(better, shipped) == 0
    # a figure without an aim may get worse by SLACK at no cost; beyond it, twice what it lost
    worse = {**better, "decoy": {"20": 0.11 + tables.SLACK, "end": 0.12 + tables.SLACK + 0.01}}
    assert tables.excess(worse, shipped) == pytest.approx(2 * 0.01)
