"""The CLI's number options: one spelling of an integer, and one range of seeds for every command."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from drunter_notation.cli import cli

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = "replays/legal-2p.dn"


def invoke(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.mark.parametrize("value", ["１２", "٣", "۳", "+7", " 7", "7 ", "1_000"])
@pytest.mark.parametrize("command", [("simulate", "--players", "2", "--seed"), ("tournament", "--games"),
                                     ("analyze", SAMPLE, "--playouts"), ("rules", "diff", "--width"),
                                     ("adjudicate", SAMPLE, "--turn")], ids=lambda c: c[0])
def test_an_integer_option_takes_ascii_digits_only(monkeypatch, command, value):
    monkeypatch.chdir(ROOT)
    result = invoke(*command, value)
    assert result.exit_code == 2 and f"{value!r} is not a valid integer" in result.output, result.output


def test_a_refused_integer_is_the_one_usage_line():
    done = subprocess.run([sys.executable, "-c", "from drunter_notation.cli import main; main()", "--lang", "de",
                           "simulate", "--players", "２", "--seed", "1"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == ["drunter simulate: Fehler: Ungültiger Wert für '--players': '２' ist kein "
                                        "gültiger Wert vom Typ ganze Zahl; siehe drunter simulate --help"]


def test_plain_ascii_integers_still_pass(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = invoke("simulate", "--players", "2", "--seed", "0012")
    assert result.exit_code == 0 and result.output == invoke("simulate", "--players", "2", "--seed", "12").output


@pytest.mark.parametrize("size", ["\uff16x6", "\u0666x\u0666", "6x\u00b2"])
def test_a_board_size_takes_ascii_digits_only(tmp_path, size):
    result = invoke("board", "new", "x", "--size", size, "-o", str(tmp_path / "b.toml"))
    assert result.exit_code == 2 and "is not WIDTHxHEIGHT" in result.output and not (tmp_path / "b.toml").exists()


SEEDED = [("simulate", "--players", "2"), ("tournament", "--games", "1", "--bots", "random,random"),
          ("analyze", SAMPLE, "--playouts", "0")]


@pytest.mark.parametrize("seed", ["-1", "-9", str(2 ** 63), "9" * 30])
@pytest.mark.parametrize("command", SEEDED, ids=lambda c: c[0])
def test_every_command_refuses_a_seed_outside_one_range(monkeypatch, command, seed):
    monkeypatch.chdir(ROOT)
    result = invoke(*command, "--seed", seed)
    assert result.exit_code == 2 and f"{seed} is not in the range 0<=x<=9223372036854775807" in result.output, \
        result.output


@pytest.mark.parametrize("command", SEEDED, ids=lambda c: c[0])
def test_every_command_takes_the_ends_of_the_seed_range(monkeypatch, command):
    monkeypatch.chdir(ROOT)
    for seed in ("0", str(2 ** 63 - 1)):
        result = invoke(*command, "--seed", seed)
        assert result.exit_code == 0, result.output



@pytest.mark.parametrize("command", [
    ("tournament", "--bots", "ismcts:sims=100000,greedy", "--games", "101"),
    ("tournament", "--bots", "greedy,ismcts", "--games", "50001"),
    ("simulate", "--players", "2", "--seed", "1", "--bots", "ismcts:sims=101", "--count", "100000", "--out", "OUT"),
], ids=["sims-at-most", "default-sims", "simulate"])
def test_games_times_sims_is_bounded_before_any_game(tmp_path, command):
    """Each number within its own cap, their product not: one U002 line naming both, nothing played or written."""
    result = invoke(*(str(tmp_path / "out") if a == "OUT" else a for a in command))
    assert result.exit_code == 2, result.output
    [line] = result.output.splitlines()
    assert "error[U002]" in line and "sims=" in line and "10,000,000 a run allows" in line, line
    assert not (tmp_path / "out").exists()


def test_games_times_sims_at_the_bound_is_taken():
    from drunter_notation.bots import MAX_RUN_WORK, check_run_work
    from drunter_notation.errors import DnError

    check_run_work(("ismcts:sims=100000", "greedy"), MAX_RUN_WORK // 100_000)  # exactly the bound
    check_run_work(("greedy", "random"), 100_000)  # a style runs one simulation a decision
    with pytest.raises(DnError):
        check_run_work(("greedy", "ismcts:sims=100000"), MAX_RUN_WORK // 100_000 + 1)
