"""``drunter adjudicate``: settle a rule dispute about one turn of a record.

Prints the position before turn N, the move (as recorded, or a what-if given with
``--move``) and one verdict per ruleset: legal or not, every rule applied with its
place in that ruleset's source, a vote's tally card by card, the legal alternatives
to an illegal move, whether a pass was forced. With ``--all-rulesets`` a last line
says whether the rulesets agree. Exit status: 0 when the command worked, whatever
the verdict; 1 for a syntax error in the record or in ``--move``; 2 for a usage
error, an unreadable file, no such turn, an unknown board or ruleset. Errors are
one line on stderr, never a traceback.
"""
from __future__ import annotations

import json
import sys

import click

from drunter_notation.explain.adjudicate import adjudicate as judge, all_ruleset_ids, as_json, as_text
from drunter_notation.errors import DnError
from drunter_notation.notation.parser import parse_file


@click.command()
@click.argument("file")
@click.option("--turn", "turn", type=int, required=True, metavar="N", help="The turn to judge.")
@click.option("--rules", "rules", metavar="ID", help="Judge under this ruleset (default: the record's own).")
@click.option("--all-rulesets", "all_rulesets", is_flag=True, help="Judge under every shipped ruleset.")
@click.option("--move", "move_text", metavar='"W3 b1-d1 [vote {...}]"',
              help="A move that was not played, judged at the position before turn N (a what-if).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def adjudicate(file, turn, rules, all_rulesets, move_text, fmt):
    """Judge turn N of FILE (or a what-if --move) under one or all rulesets.

    Exit status: 0 the verdicts were given (legal or not), 1 a syntax error in the
    record or in --move, 2 a usage error, unreadable file, missing turn, unknown
    board or ruleset.
    """
    if rules and all_rulesets:
        _usage("--rules and --all-rulesets exclude each other")
    try:
        record = parse_file(file)
        ids = all_ruleset_ids() if all_rulesets else ([rules] if rules else None)
        verdicts = judge(record, file, turn, ids, move_text)
    except DnError as e:
        click.echo(e.format(e.path or file), err=True)
        sys.exit(e.exit_code)
    if fmt == "json":
        click.echo(json.dumps(as_json(file, turn, move_text, verdicts, all_rulesets), ensure_ascii=False,
                              indent=2))
    else:
        click.echo(as_text(file, turn, move_text, verdicts, all_rulesets), nl=False)
    sys.exit(0)


def _usage(message: str) -> None:
    click.echo(f"drunter adjudicate: error: {message}", err=True)
    sys.exit(2)
