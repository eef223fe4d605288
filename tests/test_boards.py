"""Board files (docs/boards.md): built-in and test boards, every load check, the text map, the CLI."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from drunter_notation.cli.board import board as board_cli
from drunter_notation.data.boardfile import builtin_boards, load_board, load_board_file
from drunter_notation.errors import DnError
from drunter_notation.explain.boardtext import render_board
from drunter_notation.notation.model import BUILDINGS, parse_square
from drunter_notation.rules.board import Board

REPO = Path(__file__).resolve().parent.parent
TINY = REPO / "replays" / "boards" / "tiny.toml"

# A valid 5x5 board; the broken boards below are small edits of it.
GOOD = """\
format = "drunter-board/1"
id = "t"
name = "T"
width = 5
height = 5
note = "test"
toilets = ["c2", "b4"]

[corners]
a1 = "street"
e1 = "wall"
a5 = "wall"
e5 = "river"

[buildings]
museum = { c3 = 5, b2 = 1 }
kirche = { d4 = 2 }

[box]
wall = [2, 4, 4]
street = [1, 2, 2]
river = [1, 2, 2]
"""


def write(tmp_path: Path, text: str | bytes, name: str = "b.toml") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def edit(old: str, new: str) -> str:
    assert old in GOOD, old
    return GOOD.replace(old, new, 1)


def h003(path_or_ref, base_dir=None) -> DnError:
    """Load and expect H003 with exit code 2; return the error."""
    with pytest.raises(DnError) as info:
        load_board(str(path_or_ref), base_dir=base_dir)
    e = info.value
    assert e.diagnostic.code == "H003"
    assert e.exit_code == 2
    assert "\n" not in e.format()
    return e


# ------------------------------------------------------------------ built-in boards


def test_builtin_ids():
    assert "schilda" in builtin_boards()


def test_schilda_facts():
    b = load_board("schilda")
    assert isinstance(b, Board)
    assert (b.id, b.width, b.height) == ("schilda", 15, 15)
    assert b.path is None
    assert b.corners == {parse_square("a1"): "street", parse_square("o15"): "river",
                         parse_square("o1"): "wall", parse_square("a15"): "wall"}
    assert len(b.buildings) == 30
    for btype in BUILDINGS:
        values = sorted(v for t, v in b.buildings.values() if t == btype)
        assert values == [1, 2, 3, 4, 5], btype
    assert sum(sum(counts) for counts in b.box.values()) == 60
    assert b.box == {"wall": (6, 12, 12), "street": (3, 6, 6), "river": (3, 6, 6)}
    assert 20 <= len(b.toilets) <= 25
    assert "reconstruction" in b.note


def test_schilda_values_rise_toward_centre():
    b = load_board("schilda")
    centre = (7, 7)
    for btype in BUILDINGS:
        by_value = sorted((v, sq) for sq, (t, v) in b.buildings.items() if t == btype)
        dist = [max(abs(sq[0] - centre[0]), abs(sq[1] - centre[1])) for _, sq in by_value]
        assert dist == sorted(dist, reverse=True) and len(set(dist)) == 5, btype


def test_schilda_squares_next_to_corners_are_plain():
    b = load_board("schilda")
    for c, r in b.corners:
        for dc, dr in ((0, 1), (1, 0), (0, -1), (-1, 0)):
            sq = (c + dc, r + dr)
            if b.on_board(sq):
                assert sq not in b.toilets and sq not in b.buildings, sq


def test_tiny_board():
    b = load_board(str(TINY))
    assert (b.id, b.width, b.height) == ("tiny", 6, 6)
    assert {t for t, _ in b.buildings.values()} == set(BUILDINGS)
    assert {v for _, v in b.buildings.values()} == {1, 2, 3, 4, 5}
    assert len(b.toilets) == 3
    by_length = [sum(counts[i] for counts in b.box.values()) for i in range(3)]
    assert by_length == [4, 8, 8]
    assert b.path == str(TINY)


def test_relative_path_uses_base_dir():
    b = load_board("boards/tiny.toml", base_dir=REPO / "replays")
    assert b.id == "tiny"


def test_good_board_and_german_alias(tmp_path):
    b = load_board(str(write(tmp_path, GOOD)))
    assert b.buildings[parse_square("d4")] == ("church", 2)
    assert b.toilets == frozenset({parse_square("c2"), parse_square("b4")})
    assert b.box["wall"] == (2, 4, 4)


def test_box_is_optional(tmp_path):
    text = GOOD.split("[box]")[0]
    b = load_board(str(write(tmp_path, text)))
    assert sum(sum(c) for c in b.box.values()) == 60


# ------------------------------------------------------------------ every check of docs/boards.md

BROKEN = [
    # (edit old, edit new, key named in the message, words of the message)
    ("width = 5", "width = 2", "width", "from 3 to 26"),
    ("width = 5", "width = 27", "width", "got 27"),
    ("height = 5", "height = 100", "height", "from 3 to 99"),
    ("width = 5", 'width = "5"', "width", "integer"),
    ("width = 5", "width = true", "width", "got true"),
    ('format = "drunter-board/1"', 'format = "drunter-board/2"', "format", "drunter-board/1"),
    ('id = "t"', "id = 3", "id", "string"),
    ('name = "T"', 'name = ""', "name", "empty"),
    ('e5 = "river"\n', "", "corners.e5", "missing"),
    ('e5 = "river"', 'd5 = "river"', "corners.d5", "not a corner square"),
    ('e5 = "river"', 'e5 = "street"', "corners", "one street, one river and two walls"),
    ('e5 = "river"', 'e5 = "lava"', "corners.e5", "track kind"),
    ('toilets = ["c2", "b4"]', 'toilets = ["c2", "f4"]', "toilets[1]", "off the 5x5 board"),
    ('toilets = ["c2", "b4"]', 'toilets = ["c2", "b6"]', "toilets[1]", "off the"),
    ('toilets = ["c2", "b4"]', 'toilets = ["c2", "B4"]', "toilets[1]", "not a square name"),
    ('toilets = ["c2", "b4"]', 'toilets = ["c2", "b04"]', "toilets[1]", "not a square name"),
    ('toilets = ["c2", "b4"]', 'toilets = ["c2", "c3"]', "buildings.museum.c3", "already used by toilets[1]"),
    ('toilets = ["c2", "b4"]', 'toilets = ["c2", "c2"]', "toilets[1]", "already used by toilets[0]"),
    ('toilets = ["c2", "b4"]', 'toilets = ["c2", "a1"]', "toilets[1]", "already used by corners.a1"),
    ('toilets = ["c2", "b4"]', 'toilets = "c2"', "toilets", "array"),
    ("kirche = { d4 = 2 }", "church = { c3 = 2 }", "buildings.church.c3", "already used by buildings.museum.c3"),
    ("kirche = { d4 = 2 }", "chapel = { d4 = 2 }", "buildings.chapel", "unknown building type"),
    ("kirche = { d4 = 2 }", "kirche = { d4 = 2 }\nchurch = { d2 = 1 }", "buildings.church",
     "already given as buildings.kirche"),
    ("museum = { c3 = 5, b2 = 1 }", "museum = { c3 = 5, b2 = 0 }", "buildings.museum.b2",
     "value must be an integer from 1 to 99, got 0"),
    ("museum = { c3 = 5, b2 = 1 }", "museum = { c3 = 5, b2 = 1.5 }", "buildings.museum.b2", "got 1.5"),
    ("museum = { c3 = 5, b2 = 1 }", "museum = { c3 = 5, z2 = 1 }", "buildings.museum.z2", "off the"),
    ("museum = { c3 = 5, b2 = 1 }", 'museum = ["c3"]', "buildings.museum", "table"),
    ("wall = [2, 4, 4]", "wall = [2, 4]", "box.wall", "three counts"),
    ("wall = [2, 4, 4]", "wall = [2, -1, 4]", "box.wall[1]", "doubles count must be an integer from 0 to 99"),
    ("wall = [2, 4, 4]", "wall = [2, 100, 4]", "box.wall[1]", "from 0 to 99, got 100"),  # a hand line holds 99
    ("wall = [2, 4, 4]", 'wall = [2, "4", 4]', "box.wall[1]", "integer"),
    ("river = [1, 2, 2]\n", "", "box.river", "missing"),
    ("river = [1, 2, 2]", "river = [1, 2, 2]\nbridge = [1, 1, 1]", "box.bridge", "unknown tile kind"),
    ('note = "test"', 'note = "test"\ncolour = "red"', "colour", "unknown key"),
    ('name = "T"\n', "", "name", "missing"),
]


@pytest.mark.parametrize("old,new,key,words", BROKEN, ids=[f"{b[2]}:{b[3]}" for b in BROKEN])
def test_broken_board(tmp_path, old, new, key, words):
    path = write(tmp_path, edit(old, new))
    e = h003(path)
    message = e.diagnostic.message
    assert f"board file {path}" in message
    assert f": {key}: " in message
    assert words in message
    assert e.path == str(path)


def test_message_does_not_echo_the_file(tmp_path):
    secret = "x" * 200
    e = h003(write(tmp_path, edit('name = "T"', f'name = "T"\nsecret = "{secret}"')))
    assert "secret" in e.diagnostic.message and "xxxxx" not in e.format()
    e = h003(write(tmp_path, edit('id = "t"', f'id = ["{secret}"]')))
    assert "xxxxx" not in e.format()


def test_invalid_toml_names_the_line(tmp_path):
    e = h003(write(tmp_path, edit("height = 5", "height = = 5")))
    assert "invalid TOML" in e.diagnostic.message
    assert "line 5" in e.diagnostic.message


def test_missing_file(tmp_path):
    e = h003(tmp_path / "nope.toml")
    assert "not found" in e.diagnostic.message


def test_directory(tmp_path):
    (tmp_path / "dir.toml").mkdir()
    e = h003(tmp_path / "dir.toml")
    assert "directory" in e.diagnostic.message


def test_invalid_utf8(tmp_path):
    data = GOOD.replace('name = "T"', 'name = "T\xe9"').encode("latin-1")
    e = h003(write(tmp_path, data))
    assert "UTF-8" in e.diagnostic.message and "line 3" in e.diagnostic.message


def test_bom_is_accepted(tmp_path):
    assert load_board(str(write(tmp_path, "\ufeff" + GOOD))).id == "t"


def test_unknown_builtin_lists_ids():
    e = h003("no-such-board")
    assert "no-such-board" in e.diagnostic.message and "schilda" in e.diagnostic.message


def test_larger_corners_follow_the_size(tmp_path):
    text = edit("width = 5", "width = 7").replace("e1 =", "g1 =").replace("e5 =", "g5 =")
    b = load_board(str(write(tmp_path, text)))
    assert b.corners[(6, 0)] == "wall" and b.corners[(6, 4)] == "river"
    e = h003(write(tmp_path, edit("width = 5", "width = 7"), "c.toml"))
    assert ": corners.e1: " in e.diagnostic.message


def test_load_board_file_any_name(tmp_path):
    assert load_board_file(write(tmp_path, GOOD, "board.txt")).id == "t"


# ------------------------------------------------------------------ text map


def test_render_board_schilda():
    b = load_board("schilda")
    text = render_board(b)
    lines = text.splitlines()
    assert lines[0].split() == list("abcdefghijklmno")
    assert lines[16].split() == list("abcdefghijklmno")
    assert lines[1].startswith("15 ") and lines[1].endswith(" 15")
    assert lines[15].split()[0] == "1" and lines[15].split()[-1] == "1"
    assert text.isascii()
    row8 = lines[1 + 15 - 8]
    assert row8.split()[1 + 7] == "H5"  # h8 is the townhall worth 5
    assert lines[15].split()[1] == "*S" and lines[1].split()[-2] == "*R"
    assert "museum" in text and "(total 15)" in text and "Toilets" in text
    assert render_board(b) == text  # deterministic


def test_render_board_cells_are_three_wide():
    b = load_board(str(TINY))
    lines = render_board(b).splitlines()
    header = lines[0]
    for r in range(1, 7):
        row = lines[r]
        for c in range(6):
            letter_col = header.index("abcdef"[c])
            assert row[letter_col - 1] == " "
            assert row[letter_col] != " "


def test_render_board_overlays():
    b = load_board(str(TINY))
    text = render_board(b, covered={(1, 0): "S", (2, 0): "S>"}, marks={(2, 0): "@"})
    bottom = text.splitlines()[6].split()
    assert bottom[:5] == ["1", "*S", "S", "@", "C1"]
    with pytest.raises(ValueError):
        render_board(b, marks={(9, 9): "@"})


# ------------------------------------------------------------------ CLI


def test_cli_show_schilda():
    result = CliRunner().invoke(board_cli, ["show", "schilda"])
    assert result.exit_code == 0, result.output
    assert "Schilda" in result.stdout and "15x15" in result.stdout
    assert "reconstruction" in result.stdout
    assert " H5 " in result.stdout


def test_cli_show_default_and_unknown():
    result = CliRunner().invoke(board_cli, ["show"])
    assert result.exit_code == 0 and "schilda" in result.stdout
    result = CliRunner().invoke(board_cli, ["show", "nowhere"])
    assert result.exit_code == 2
    assert "error[H003]" in result.stderr and "Traceback" not in result.output


def test_cli_check_ok():
    result = CliRunner().invoke(board_cli, ["check", str(TINY)])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"{TINY}: ok — Tiny test board, 6x6, 7 buildings, 3 toilets"


def test_cli_check_broken(tmp_path):
    path = write(tmp_path, edit("museum = { c3 = 5, b2 = 1 }", "museum = { c3 = 5, b2 = 0 }"))
    result = CliRunner().invoke(board_cli, ["check", str(path)])
    assert result.exit_code == 2
    assert result.stdout == ""
    err = result.stderr.strip()
    assert "\n" not in err
    assert "error[H003]" in err and "buildings.museum.b2" in err
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_cli_check_directory(tmp_path):
    result = CliRunner().invoke(board_cli, ["check", str(tmp_path)])
    assert result.exit_code == 2 and "error[H003]" in result.stderr
