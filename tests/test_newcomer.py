"""Messages and commands a newcomer meets first: look-alike dashes, slipped tags, help
texts, a fast start, a board template to fill in."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from drunter_notation.cli import COMMANDS, cli
from drunter_notation.data.boardfile import load_board_file
from drunter_notation.errors import DnError
from drunter_notation.load import judge
from drunter_notation.notation.parser import parse_text

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("dash", ["\u2013", "\u2014", "\u2212", "\u2011"])
def test_a_look_alike_dash_says_use_hyphen(dash):
    with pytest.raises(DnError) as e:
        parse_text(f'[Players "A, B"]\n1. A W3 b1{dash}d1\n')
    d = e.value.diagnostic
    assert (d.code, d.line, d.column) == ("P001", 2, 11)
    assert f"U+{ord(dash):04X}" in d.message and "use - (as in b1-d1" in d.message


def test_a_slipped_tag_is_named():
    t = judge(parse_text('[players "A, B"]\n[Rule "webley-en"]\n[Table "2"]\n1. A S1 b1\n'))
    w004 = [d.message for d in t.diagnostics if d.code == "W004"]
    assert w004 == ["unknown tag [players] is kept but not used; did you mean [Players]?",
                    "unknown tag [Rule] is kept but not used; did you mean [Rules]?"]  # [Table] is a free tag


def test_top_level_help_lists_every_command_in_whole_sentences():
    out = CliRunner().invoke(cli, ["--help"]).output
    listed = out.split("Commands:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in listed] == sorted(COMMANDS)
    assert all(line.rstrip().endswith(".") and "..." not in line for line in listed)


def test_every_option_of_simulate_has_help():
    out = " ".join(CliRunner().invoke(cli, ["simulate", "--help"]).output.split())
    assert "--variant [base|expert] base: one secret goal card each; expert: two goal cards each" in out


def test_version_imports_no_subcommand():
    code = ("import sys; from drunter_notation.cli import main; sys.argv = ['drunter', '--version'];\n"
            "try: main()\nexcept SystemExit: pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('drunter_notation.') and m.count('.') > 1"
            " or m in ('lark', 'jinja2', 'tqdm')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.stdout.splitlines() == ["drunter, version 0.1.0", "['drunter_notation.cli.common', 'drunter_notation.cli.language']"]


def test_board_new_writes_a_valid_commented_template(tmp_path, monkeypatch):
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(cli, ["board", "new", "club", "--size", "12x9"])
    assert result.exit_code == 0, result.output
    text = Path("club.toml").read_text(encoding="utf-8")
    board = load_board_file(Path("club.toml"))
    assert (board.id, board.width, board.height) == ("club", 12, 9)
    assert set(board.corners) == {(0, 0), (11, 0), (0, 8), (11, 8)}
    assert "[buildings]" in text and "toilets = []" in text and text.count("\n#") > 10
    again = runner.invoke(cli, ["board", "new", "club", "--size", "12x9"])
    assert again.exit_code == 2 and "club.toml: error[I005]: already exists" in again.output
    assert runner.invoke(cli, ["board", "new", "club", "--size", "30x9"]).exit_code == 2
    assert runner.invoke(cli, ["board", "new", "Club Board", "--size", "9x9"]).exit_code == 2
