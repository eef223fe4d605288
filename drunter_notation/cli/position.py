"""``drunter position``: the one-line position string of a record's position, for
``drunter adjudicate --position``, ``Game.from_position`` or a message to a friend."""
from __future__ import annotations

import dataclasses

import click

from drunter_notation.adjudication import turn_index
from drunter_notation.cli.common import DiagnosticError
from drunter_notation.errors import DnError
from drunter_notation.i18n import N_
from drunter_notation.load import judge
from drunter_notation.notation.parser import parse_file
from drunter_notation.position import format_position


@click.command(help=N_("Print the position string (dn1 ...) of FILE after its last turn, or before turn N:"
                        " everything needed to judge the next move (docs/notation.md).\n\n"
                        "The turns up to there are replayed and judged as validate judges them: an illegal one"
                        " stops with its error line. Exit status: 0 the string was printed, 1 a syntax or rule"
                        " error before that position, 2 an unreadable file, no such turn, unknown board or"
                        " ruleset."))
@click.argument("file")
@click.option("--turn", "turn", type=click.IntRange(1, 999_999), metavar="N",
              help=N_("The position before turn N (default: after the last turn of the record)."))
def position(file: str, turn: int | None) -> None:
    try:
        record = parse_file(file)
        end = len(record.events) if turn is None else turn_index(record, file, turn, "--turn")
        t = judge(dataclasses.replace(record, events=record.events[:end], reveal=None, score=None), file)
        if not t.valid:
            raise DnError(t.errors[0], path=file)
    except DnError as e:
        raise DiagnosticError(e, e.path or file) from None
    assert t.state is not None and t.ruleset is not None  # a valid record's judgement has both
    click.echo(format_position(t.state, t.ruleset))
