"""bench/inference.py: what a table is, and that its figures are computed right."""
from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import LONG, load_bench

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "bench" / "inference.py"


@pytest.fixture(scope="module")
def bench():
    return load_bench("inference")


def test_a_mixed_table_is_one_table_and_a_list_of_policies_is_many(bench):
    many = bench.tables("honest,random,builder,honest", [])
    assert [t.seats for t in many] == [("honest",) * 4, ("random",) * 4, ("builder",) * 4, ("honest",) * 4]
    one = bench.tables(None, ["honest,random,builder,honest"])
    assert [t.seats for t in one] == [("honest", "random", "builder", "honest")]
    assert one[0].name == "mixed honest+random+builder+honest" and one[0].at(2) == ("honest", "random")
    with pytest.raises(ValueError, match="four seats"):
        bench.tables(None, ["honest,random"])
    with pytest.raises(ValueError, match="no policy named 'greedy'"):
        bench.tables("greedy", [])


def test_the_old_styles_option_is_refused_not_misread():
    run = subprocess.run([sys.executable, str(SCRIPT), "--styles", "greedy,random,cautious,greedy"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "unrecognized arguments: --styles" in run.stderr


def test_the_tuning_and_test_seeds_must_differ():
    run = subprocess.run([sys.executable, str(SCRIPT), "--seed", "5", "--tune-seed", "5"], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 2 and "must differ" in run.stderr


def test_metrics_of_uniform_and_of_sure_beliefs(bench):
    cards = ("museum", "tavern", "school", "townhall", "firehouse", "church")
    uniform = [(g, {c: 1 / 6 for c in cards}, cards[g % 6]) for g in range(60)]
    m = bench.metrics(uniform, boot=20)
    assert m["logloss"] == pytest.approx(math.log(6)) and m["sure"] == 0 and m["mean_top"] == pytest.approx(1 / 6)
    sure = [(g, {c: (0.95 if c == "museum" else 0.01) for c in cards}, "museum" if g % 10 else "tavern")
            for g in range(100)]
    m = bench.metrics(sure, boot=20)
    assert m["top1"] == pytest.approx(0.9) and m["wrong90"] == pytest.approx(0.1) and m["sure"] == 100
    assert m["ece"] == pytest.approx(0.05)  # one bin: confidence 0.95, accuracy 0.9


@pytest.mark.slow
@LONG
def test_a_small_run_reports_one_mixed_table_beside_today(tmp_path):
    run = subprocess.run([sys.executable, str(SCRIPT), "--policies", "honest", "--table",
                          "honest,random,bluffer,builder", "--games", "2", "--tune-games", "2", "--players", "4",
                          "--tune-policies", "soft,decoy",  # two tuning tables: a fit for each table, quickly
                          "--svg-dir", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert "tuning seed 1001" in out and "test seed 2001" in out
    assert out.count("mixed honest+random+bluffer+builder, 4 players, 2 games, final beliefs") == 1
    assert out.count("honest, 4 players, 2 games, final beliefs") == 1
    # today's model is read from git; a copy of the files without history runs without it
    history = subprocess.run(["git", "cat-file", "-e", "d40a9f4"], cwd=ROOT, capture_output=True).returncode == 0
    assert out.count("  today " if history else "  today: not run") == 4 and out.count("  new ") == 4
    assert {p.name for p in tmp_path.iterdir()} == {"reliability-honest.svg",
                                                    "reliability-mixed-honest-random-bluffer-builder.svg"}
