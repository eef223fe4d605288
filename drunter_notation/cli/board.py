"""``drunter board``: show a board as a text map, check a board file (DN-SPEC §4)."""
from __future__ import annotations

import textwrap

import click

from drunter_notation.data.boardfile import load_board, load_board_file
from drunter_notation.explain.boardtext import render_board
from drunter_notation.errors import DnError


def _fail(ctx: click.Context, e: DnError, where: str) -> None:
    """Print the error as one line on stderr and exit with its code (never a traceback)."""
    click.echo(e.format(e.path or where), err=True)
    ctx.exit(e.exit_code)


@click.group("board")
def board() -> None:
    """Show and check boards (built-in ids or board files ending in .toml)."""


@board.command("show")
@click.argument("ref", default="schilda", metavar="[ID|PATH]")
@click.pass_context
def show(ctx: click.Context, ref: str) -> None:
    """Print a board with its map and legend.

    ID|PATH is a built-in board id or a board file ending in .toml (default: schilda).
    """
    try:
        b = load_board(ref)
    except DnError as e:
        _fail(ctx, e, ref)
        return
    click.echo(f"{b.name} (id {b.id}), {b.width}x{b.height}")
    if b.note:
        click.echo(textwrap.fill(b.note, width=78, initial_indent="Note: ", subsequent_indent="  "))
    click.echo("")
    click.echo(render_board(b), nl=False)


@board.command("check")
@click.argument("path", type=click.Path(dir_okay=True, path_type=str))
@click.pass_context
def check(ctx: click.Context, path: str) -> None:
    """Check a board file.

    Prints a one-line summary and exits 0 when the file is a valid board;
    otherwise prints error H003 on stderr and exits 2.
    """
    try:
        b = load_board_file(path, shown=path)
    except DnError as e:
        _fail(ctx, e, path)
        return
    click.echo(f"{path}: ok — {b.name}, {b.width}x{b.height}, "
               f"{len(b.buildings)} buildings, {len(b.toilets)} toilets")
