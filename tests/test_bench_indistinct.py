"""bench/indistinct.py: the cells of evidence and the least error a recalibration by them can give."""
from __future__ import annotations

import pytest
from conftest import load_bench


@pytest.fixture(scope="module")
def ind():
    return load_bench("indistinct")


def seat(table: str, game: int, p: float, hit: bool, decoy: float = 0.0) -> dict:
    return {"table": table, "game": game, "seat": 0, "when": "20", "p": p, "hit": hit, "q": p if hit else (1 - p) / 5,
            "decoy": decoy, "others": 0.0}


def calibrated_elsewhere() -> list[dict]:
    """The tables other than honest and decoy: right 40 % of the time at 0.35-0.45, a cell of their own."""
    return [seat(t, g, 0.4, g % 5 < 2) for t in ("mostly-honest", "mixed", "bluffer") for g in range(50)]


def test_a_cell_is_the_tenth_said_then_the_decoy_bands(ind):
    s = seat("honest", 1, 0.93, True, decoy=0.2) | {"others": 0.35}
    assert ind.cell(s, "p") == (9,)
    assert ind.cell(s, "p,decoy") == (9, 1)
    assert ind.cell(s, "p,decoy,table") == (9, 1, 2)


def test_an_honest_cell_of_its_own_is_shifted_as_far_as_the_sure_beliefs_allow(ind):
    ss = calibrated_elsewhere() + [seat("honest", g, 0.55, True) for g in range(50)]
    ss += [seat("decoy", g, 0.25, g % 4 == 0) for g in range(50)]
    r = ind.least_cell_error(ss, "p")
    assert r["now"] == pytest.approx(0.45)
    assert r["least"] == pytest.approx(0.1, abs=1e-6)  # said 0.9 at most: the beliefs at p >= 0.9 stay the model's


def test_a_cell_shared_with_the_decoy_table_keeps_the_honest_error_but_for_the_decoys_slack(ind):
    # the same evidence, right every time at the honest table and half the time at the decoy table
    ss = calibrated_elsewhere() + [seat("honest", g, 0.55, True) for g in range(50)]
    ss += [seat("decoy", g, 0.55, g % 2 == 0) for g in range(50)]
    decoys = [s for s in ss if s["table"] == "decoy"]
    slack = ind.figures(decoys)["ece_se"]
    r = ind.least_cell_error(ss, "p")
    assert 0.45 - slack - 1e-6 <= r["least"] <= 0.45 + 1e-9  # nothing gained but what the decoy table may lose


def test_the_least_ten_bin_ece_of_an_honest_cell_of_its_own(ind):
    ss = calibrated_elsewhere() + [seat("honest", g, 0.55, True) for g in range(50)]
    ss += [seat("decoy", g, 0.25, g % 4 == 0) for g in range(50)]
    r = ind.least_ece(ss, "p", seconds=20)
    assert r["optimal"]
    assert r["after"]["honest"]["ece"] == pytest.approx(0.1, abs=1e-6)
    assert all(r["after"][t]["ece"] <= r["before"][t]["ece"] + r["before"][t]["ece_se"] + 1e-9
               for t in ("mostly-honest", "mixed", "bluffer", "decoy"))
