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


def test_the_search_counts_the_aims_and_any_other_figure_above_its_limit(tables):
    rows = {"honest": {"20": 0.10, "end": 0.06}, "mostly-honest": {"20": 0.05, "end": 0.06},
            "decoy": {"20": 0.11, "end": 0.12}}
    limits = {"honest": {"end": 0.06}, "decoy": {"20": 0.11, "end": 0.12}}
    assert tables.excess(rows, limits) == pytest.approx((0.10 - 0.08) + (0.06 - 0.05))
    better = {**rows, "honest": {"20": 0.07, "end": 0.06}, "mostly-honest": {"20": 0.05, "end": 0.04}}
    assert tables.excess(better, limits) == 0
    # a figure without an aim costs twice what it is above its limit
    worse = {**better, "decoy": {"20": 0.11, "end": 0.12 + 0.01}}
    assert tables.excess(worse, limits) == pytest.approx(2 * 0.01)


def test_the_limits_against_a_baseline_are_its_figures_and_half_their_error(tables, tmp_path):
    today = {"ece": 0.04, "ece_se": 0.01}
    saved = {"figures": {"bluffer": {b: {"beliefs": {}, "today": today} for b in ("10", "20", "30", "end")}}}
    (tmp_path / "base.json").write_text(tables.json.dumps(saved))
    assert tables.limits_from(str(tmp_path / "base.json")) == {"bluffer": {"20": 0.045, "end": 0.045}}


def test_a_wide_step_moves_one_to_three_priors_or_grids_and_keeps_them_valid(tables):
    rng = tables.random.Random(1)
    shipped = tables.Model()
    for _ in range(200):
        m = tables.wide_step(shipped, rng, 1.2)
        moved = [n for n in tables.asdict(m) if getattr(m, n) != getattr(shipped, n)]
        assert 1 <= len(moved) <= 3 and all(n.endswith("_prior") or n in tables.TABLE_GRIDS for n in moved)
        for n in moved:
            value = getattr(m, n)
            if n.endswith("_shares"):
                assert list(value) == sorted(value) and all(0 < x < 1 for x in value)
            else:
                for weights in value if n.endswith("_mixes") else (value,):
                    assert sum(weights) == pytest.approx(1) and min(weights) >= 0
        weights = [w for w, _, _ in m.table_types()]
        assert min(weights) > 0 and sum(weights) == pytest.approx(1, abs=2e-3)  # the shipped priors sum to 1.001


def test_who_the_model_takes_the_seats_for_sums_to_one_and_prints_per_table(tables):
    r = tables.one_game(tables.Job("honest", 4401, 2, "none"))
    for seat in r["styles"]["end"]:
        assert abs(sum(mass for mass, _ in seat.values()) - 1) < 1e-6
        assert all(0 <= with_card <= mass + 1e-12 for mass, with_card in seat.values())
    lines = tables.style_lines([r])
    assert lines[0].startswith("| table | after | random | purposeful | bluffer")
    assert [line.split(" | ")[:2] for line in lines[2:]] == [["| honest", "turn 20"], ["| honest", "end"]]


def test_another_grid_or_prior_is_set_by_name_and_nothing_else(tables):
    assert tables.changed_model(["bluffs=0.08,0.2"]).bluffs == (0.08, 0.2)
    assert tables.changed_model([]) == tables.Model()
    for bad in (["own_weight=3"], ["nothing=1"], ["bluffs=a,b"]):
        with pytest.raises(SystemExit):
            tables.changed_model(bad)


def test_set_puts_a_prior_or_a_grid_of_mixes_in_the_model_and_refuses_others(tables):
    m = tables.changed_model(["honest_mix_prior=0.6,0.2,0.1,0.1", "deceiver_mixes=0.9/0.1,0.1/0.9"])
    assert m.honest_mix_prior == (0.6, 0.2, 0.1, 0.1) and m.deceiver_mixes == ((0.9, 0.1), (0.1, 0.9))
    for wrong in ("own_weight=4", "nothing=1", "betas=1,x"):
        with pytest.raises(SystemExit):
            tables.changed_model([wrong])
