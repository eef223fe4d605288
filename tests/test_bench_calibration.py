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


def test_the_mid_game_table_compares_each_table_with_its_end_and_means_only_single_compositions(calib, capsys,
                                                                                                tmp_path):
    def beliefs(ece, se, said, right):
        m = {"ece": ece, "ece_se": se, "mean_top": said, "top1": right, "top1_se": 0.02, "games": 60, "sure": 0,
             "wrong90": 0.0, "wrong90_interval": [0.0, 0.0], "logloss_vs_uniform": -0.5, "logloss_se": 0.02}
        return {"beliefs": m, "honest": m, "win": None}

    def row(t20, t30, end):
        return {"10": beliefs(0.1, 0.01, 0.3, 0.3), "20": t20, "30": t30, "end": end}

    honest = row(beliefs(0.09, 0.016, 0.53, 0.62), beliefs(0.10, 0.012, 0.6, 0.7), beliefs(0.078, 0.008, 0.81, 0.88))
    deceivers = row(beliefs(0.05, 0.014, 0.54, 0.54), beliefs(0.04, 0.01, 0.6, 0.6), beliefs(0.08, 0.019, 0.72, 0.66))
    pooled = row(beliefs(0.05, 0.008, 0.53, 0.57), beliefs(0.04, 0.008, 0.6, 0.6), beliefs(0.03, 0.006, 0.76, 0.76))
    fig = {"0 deceivers (all honest)": honest, "all 2 deceivers": deceivers, calib.EVERY: pooled}
    lines = calib.midgame_table(fig)
    assert "| 0 deceivers (all honest) | 0.090 ±0.016 |" in lines[2] and "+0.012 ±0.018 |" in lines[2]
    assert lines[2].endswith("| 0.53 / 0.62 | 0.81 / 0.88 |")
    # the pooled row is shown but not averaged: the mean is over the two single compositions
    assert lines[-1].startswith("| mean over the 2 compositions | 0.070 | 0.070 | 0.079 | -0.009 | -0.009 |")
    saved = tmp_path / "run.json"
    saved.write_text(calib.json.dumps({"baseline": "none", "figures": {"2": fig},
                                        "by_policy": {"2": {"steady": None}}}))
    calib.main(["--tables-from", str(saved)])
    out = capsys.readouterr().out
    assert "### 2 players: mid-game against the end, per table" in out and lines[-1] in out
