"""bench/calibration.py: who sits at a table, what one game yields, which beliefs count where."""
from __future__ import annotations

import math
import sys

import pytest
from conftest import load_bench


@pytest.fixture(scope="module")
def calib():
    return load_bench("calibration")


def test_a_composition_seats_that_many_deceivers_in_random_order(calib):
    kinds = calib.HELD_OUT
    assert set(calib.HONEST) == {"attacker", "steady", "coin-voter", "sloppy"}
    assert set(calib.DECEIVERS) == {"switcher", "vote-liar", "shield", "feint"}
    assert "random" not in kinds and not set(kinds) & set(sys.modules["policies"].FITTED)
    for n in (2, 3, 4):
        for k in range(n + 1):
            tables = [calib.seating(n, k, 9001, j) for j in range(1, 41)]
            assert all(len(t) == n and sum(kinds[p] == "deceiver" for p in t) == k for t in tables)
            assert tables[0] == calib.seating(n, k, 9001, 1)  # seeded
            if 0 < k < n:  # the deceivers do not always sit in the same seats
                assert len({tuple(kinds[p] for p in t) for t in tables}) > 1


def test_every_held_out_policy_plays_a_whole_game(calib):
    for name in calib.HELD_OUT:
        g = calib.bot_game(("Anna", "Ben", "Cleo", "Dora"), [calib.POLICIES[name]] * 4, 9001, 1)
        assert g.result() is not None


def test_one_game_gives_beliefs_per_turn_and_win_chances(calib):
    r = calib.one_game(calib.Job(2, 1, 1, 9001, 8, "none"))
    assert r["game"] == 1001 and sorted(r["kinds"]) == ["deceiver", "honest"]
    assert set(r["beliefs"]) == {"10", "20", "30", "end"} and r["today"] is None
    for beliefs in r["beliefs"].values():
        assert len(beliefs) == 2 and all(math.isclose(sum(b.values()), 1) and len(b) == 6 for b in beliefs)
    assert set(r["win"]) == {"10", "20", "30"} and all(math.isclose(sum(w), 1) for w in r["win"].values())
    assert math.isclose(sum(r["outcome"]), 1)


def test_a_game_over_before_a_turn_does_not_count_for_it(calib):
    short = {"game": 1, "truth": ["museum", "school"], "kinds": ["honest", "deceiver"], "seats": ["steady", "feint"],
             "beliefs": {"30": None, "end": [{"museum": 1.0}, {"school": 1.0}]}}
    long = dict(short, game=2, beliefs={"30": [{"museum": 0.5}, {"school": 0.5}], "end": short["beliefs"]["end"]})
    assert [g for g, _, _ in calib.cases([short, long], "30")] == [2, 2]
    assert [g for g, _, _ in calib.cases([short, long], "end")] == [1, 1, 2, 2]
    assert [t for _, _, t in calib.cases([short, long], "end", only="deceiver")] == ["school", "school"]
    assert [t for _, _, t in calib.cases([short, long], "end", only="steady")] == ["museum", "museum"]
    assert calib.belief_figures(calib.cases([short], "30")) is None
