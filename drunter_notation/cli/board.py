"""``drunter board``: show a board as a text map, check a board file, start a new one
(the format and its checks: docs/boards.md)."""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

import click

from drunter_notation.cli.common import DiagnosticError
from drunter_notation.data.boardfile import (
    FORMAT,
    MAX_HEIGHT,
    MAX_WIDTH,
    MIN_HEIGHT,
    MIN_WIDTH,
    load_board,
    load_board_file,
)
from drunter_notation.errors import DnError, fail, printable, printable_lines
from drunter_notation.explain.boardtext import render_board
from drunter_notation.files import os_reason, write_atomic
from drunter_notation.i18n import N_, _, ngettext
from drunter_notation.notation.model import square_name
from drunter_notation.rules.board import DEFAULT_BOX

_ID_RE = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}\Z")
_SIZE_RE = re.compile(r"([0-9]{1,3})x([0-9]{1,3})\Z")  # ASCII digits, as every number option (docs/cli.md)


@click.group("board", help=N_("Show and check boards (built-in ids or board files ending in .toml), or start a"
                               " board file."))
def board() -> None:
    pass


@board.command("show", help=N_("Print a board with its map and legend.\n\n"
                                "ID|PATH is a built-in board id or a board file ending in .toml (default:"
                                " schilda)."))
@click.argument("ref", default="schilda", metavar="[ID|PATH]")
def show(ref: str) -> None:
    try:
        b = load_board(ref)
    except DnError as e:
        raise DiagnosticError(e, e.path or ref) from None
    click.echo(printable(_("{name} (id {id}), {width}x{height}").format(name=b.name, id=b.id, width=b.width,
                                                                         height=b.height)))
    if b.note:
        note = " ".join(b.note.split())  # a shipped board's note is in the catalogs, whitespace collapsed
        click.echo(printable_lines(textwrap.fill(_(note), width=78, initial_indent=_("Note: "),
                                                 subsequent_indent="  ")))
    click.echo("")
    click.echo(printable_lines(render_board(b)), nl=False)


@board.command("check", help=N_("Check a board file.\n\n"
                                 "Prints a one-line summary and exits 0 when the file is a valid board; otherwise"
                                 " prints error H003 on stderr and exits 2."))
@click.argument("path", type=click.Path(dir_okay=True, path_type=str))
def check(path: str) -> None:
    try:
        b = load_board_file(Path(path), shown=path)
    except DnError as e:
        raise DiagnosticError(e, e.path or path) from None
    buildings = ngettext("{n} building", "{n} buildings", len(b.buildings)).format(n=len(b.buildings))
    toilets = ngettext("{n} toilet", "{n} toilets", len(b.toilets)).format(n=len(b.toilets))
    click.echo(printable(_("{path}: ok — {name}, {width}x{height}, {buildings}, {toilets}").format(
        path=path, name=b.name, width=b.width, height=b.height, buildings=buildings, toilets=toilets)))


def _size(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, int]:
    m = _SIZE_RE.match(value)
    if not m:
        raise click.BadParameter(_("{value} is not WIDTHxHEIGHT, like 15x15").format(value=repr(value)))
    width, height = int(m.group(1)), int(m.group(2))
    if not (MIN_WIDTH <= width <= MAX_WIDTH and MIN_HEIGHT <= height <= MAX_HEIGHT):
        raise click.BadParameter(_("a board is {min_width} to {max_width} columns wide and {min_height} to"
                                   " {max_height} rows high, not {width}x{height}").format(
            min_width=MIN_WIDTH, max_width=MAX_WIDTH, min_height=MIN_HEIGHT, max_height=MAX_HEIGHT, width=width,
            height=height))
    return width, height


def _board_id(ctx: click.Context, param: click.Parameter, value: str) -> str:
    if not _ID_RE.match(value):
        raise click.BadParameter(_("{value}: an id is lower-case letters, digits, - and _ (up to 40), like"
                                   " club-board").format(value=repr(value)))
    return value


@board.command("new", help=N_("Write a commented board-file template NAME.toml to fill in from a printed board.\n\n"
                               "The template is already a valid board (corners set, no buildings or toilets): add"
                               " the buildings and toilets of your board square by square, then run 'drunter board"
                               " check' on it and name it in records with [Board \"NAME.toml\"]."))
@click.argument("name", callback=_board_id)
@click.option("--size", required=True, callback=_size, metavar="WxH",
              help=N_("Columns x rows of the printed board, e.g. 15x15."))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help=N_("The file to write (default: NAME.toml in this folder)."))
@click.option("--force", is_flag=True, help=N_("Overwrite an existing file."))
def new(name: str, size: tuple[int, int], output: Path | None, force: bool) -> None:
    path = output or Path(f"{name}.toml")
    if path.exists() and not force:
        raise DiagnosticError(fail("I005", _("already exists; nothing was written"), path=str(path),
                                   hint=_("use --force to overwrite, or -o to name another file")))
    try:
        write_atomic(path, board_template(name, *size))
    except OSError as e:
        raise DiagnosticError(fail("I005", _("cannot write the file: {reason}").format(reason=os_reason(e)),
                                   path=str(path))) from None
    click.echo(_("wrote {path}: fill it in from your board, then run: drunter board check {path}").format(
        path=path), err=True)


def board_template(board_id: str, width: int, height: int) -> str:
    """The text of a new board file: valid as it stands, every key explained."""
    last_col, corners = chr(ord("a") + width - 1), [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)]
    a1, right, top, far = (square_name(sq) for sq in corners)
    box = {kind: ", ".join(map(str, counts)) for kind, counts in DEFAULT_BOX.items()}
    return f'''\
# A Drunter & Drüber board file ({FORMAT}); the format: docs/boards.md.
# Fill it in from your printed board, then check it:  drunter board check {board_id}.toml
# Squares are named like chess squares: column letter a..{last_col} from the left,
# row number 1..{height} from the bottom (the side of the board facing you).
format = "{FORMAT}"
id = "{board_id}"
name = "{board_id}"        # a name for people, e.g. "Club copy, 2nd edition"
width = {width}                 # columns a..{last_col}
height = {height}                # rows 1..{height}
note = """\\
Transcribed from a printed board."""

# Every toilet square, e.g. ["c3", "f10"]. A tile covering one is put to a vote.
toilets = []

# The four corner squares and the track that starts there: one street (the
# coaching inn), one river (the waterworks) and two walls (the watchtowers).
# Swap the kinds to match your board.
[corners]
{a1} = "street"
{right} = "wall"
{top} = "wall"
{far} = "river"

# Every building: type = {{ square = value, ... }}. The types are museum, tavern,
# school, townhall, firehouse, church (or in German: wirtshaus, schule, rathaus,
# feuerwache, kirche); the value is the number printed on the building.
# Example: museum = {{ g10 = 5, k6 = 4 }}
[buildings]

# The tiles in the box, per kind: [triples, doubles, singles]. These are the
# default board's (12 triples, 24 doubles, 24 singles in all; the split per kind
# is a reconstruction): count your box's tiles by kind and length.
[box]
wall = [{box["wall"]}]
street = [{box["street"]}]
river = [{box["river"]}]
'''
