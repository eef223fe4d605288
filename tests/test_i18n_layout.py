"""Layout in every language: ``rules diff`` pads its columns by the width a terminal
shows (a wide or combining character counts as it is drawn), and a long option line
widens its column instead of pushing the next one out of line."""
from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from drunter_notation import i18n
from drunter_notation.cli import cli
from drunter_notation.cli.common import display_width, pad
from drunter_notation.cli.rules import _diff_table
from drunter_notation.data.rulesets import DiffRow, load_ruleset


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language(i18n.SOURCE)


def bars(line: str) -> list[int]:
    """The display columns of the table's column separators on ``line``."""
    return [display_width(line[:m.start()]) for m in re.finditer(r" \|(?: |$)|-\+-", line)]


def test_display_width():
    assert display_width("Zug") == 3 and display_width("žluťoučký") == 9
    assert display_width("e\u0301") == 1 and display_width("盤面") == 4
    assert pad("盤面", 6) == "盤面  " and pad("too long", 3) == "too long"


@pytest.mark.parametrize("lang", ["en", "de", "cs"])
@pytest.mark.parametrize("width", [60, 100, 160])
def test_the_columns_line_up_in_every_language(lang, width):
    out = CliRunner().invoke(cli, ["--lang", lang, "rules", "diff", "hig-1991", "webley-en", "--all", "--width",
                                   str(width)]).output
    rows = [line for line in out.splitlines() if " | " in line or "-+-" in line]
    assert len(rows) > 20
    first = bars(rows[0])
    assert len(first) == 2 and all(bars(line)[:2] == first for line in rows), out


def test_wide_and_combining_characters_and_a_long_option_line_keep_the_columns():
    ra, rb = load_ruleset("hig-1991"), load_ruleset("webley-en")
    rows = [DiffRow("t", "Spielplan 盤面 e\u0301", "B9", "x" * 70, "short", "HiG 1991, Spielregel A.3", "Webley, §2",
                    option="vote_outcome", wording_a="Ein Plättchen 盤面 über e\u0301 " * 6, wording_b="žluťoučký kůň")]
    out = _diff_table(ra, rb, rows, 100)
    lines = out.splitlines()
    first = bars(lines[0])
    assert all(bars(line)[:2] == first for line in lines), out
    assert f"vote_outcome = {'x' * 70}" in out  # never broken
