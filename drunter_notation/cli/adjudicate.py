"""``drunter adjudicate``: settle a rule dispute about one turn, from a record or a
position string.

Prints the position before the turn, the move (as recorded, or a what-if given with
``--move``) and one verdict per ruleset: legal or not, every rule applied with its
place in that ruleset's source, a vote's tally card by card, the legal alternatives
to an illegal move, whether a pass was forced. With ``--all-rulesets`` a last line
says whether the rulesets agree. Exit status: 0 when the command worked, whatever
the verdict; 1 for a syntax error in the record, the position or ``--move``; 2 for
a usage error, an unreadable file, no such turn, an unknown board or ruleset.
"""
from __future__ import annotations

import json

import click

from drunter_notation.adjudication import adjudicate as judge
from drunter_notation.adjudication import adjudicate_position, all_ruleset_ids, as_json, as_text
from drunter_notation.cli.common import DiagnosticError, UsageLine
from drunter_notation.codes import Exit
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.errors import DnError, json_safe, printable_lines
from drunter_notation.i18n import N_, _
from drunter_notation.notation.parser import parse_file
from drunter_notation.position import parse_position

# The command's help (a module constant: one text, marked for the catalogs).
_HELP = N_("""Judge turn N of FILE, or --move at a --position, under one or all rulesets.

\b
  drunter adjudicate game.dn --turn 12 --all-rulesets
  drunter adjudicate game.dn --turn 12 --move "W3 b1-d1"
  drunter adjudicate --position "dn1 schilda ..." --move "S2 c3-c4 vote {...}"

Exit status: 0 the verdicts were given (legal or not), 1 a syntax error in the
record, the position or --move, 2 a usage error, unreadable file, missing turn,
unknown board or ruleset.""")


@click.command(help=_HELP)
@click.argument("file", required=False)
@click.option("--turn", "turn", type=click.IntRange(1, 999_999), metavar="N",
              help=N_("The turn of FILE to judge (the position before it)."))
@click.option("--position", "position", metavar='"dn1 ..."',
              help=N_("Judge --move at this position string instead of a record's turn."))
@click.option("--rules", "rules", metavar="ID", help=N_("Judge under this ruleset (default: the record's or "
                                                         "position's own)."))
@click.option("--all-rulesets", "all_rulesets", is_flag=True, help=N_("Judge under every shipped ruleset."))
@click.option("--move", "move_text", metavar='"W3 b1-d1 [vote {...}]"',
              help=N_("A move to judge at the position (with FILE: a what-if instead of turn N as recorded)."))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def adjudicate(file: str | None, turn: int | None, position: str | None, rules: str | None, all_rulesets: bool,
               move_text: str | None, fmt: str) -> None:
    if rules and all_rulesets:
        raise UsageLine(_("--rules and --all-rulesets exclude each other"))
    if (file is None) == (position is None):
        raise UsageLine(_("give a record FILE with --turn N, or --position \"...\" with --move"))
    if file is not None and turn is None:
        raise UsageLine(_("--turn N is needed with a record FILE"))
    if position is not None and (move_text is None or turn is not None):
        raise UsageLine(_("--position takes --move (the move to judge) and no --turn"))
    try:
        if position is not None:
            assert move_text is not None  # checked above: --position comes with --move
            state, _rules, own = parse_position(position)
            rulesets = [load_ruleset(r) for r in all_ruleset_ids()] if all_rulesets else [
                load_ruleset(rules) if rules else own]
            verdicts = adjudicate_position(state, rulesets, move_text)
            where, turn = "position", state.number + 1
        else:
            assert file is not None and turn is not None  # checked above: a FILE comes with --turn
            record = parse_file(file)
            ids = all_ruleset_ids() if all_rulesets else ([rules] if rules else None)
            verdicts = judge(record, file, turn, ids, move_text)
            where = file
    except DnError as e:
        usage = e.diagnostic.code == "H004" and (rules is not None)  # a ruleset the option named
        raise DiagnosticError(e, e.path or file or "--position", Exit.CANNOT if usage else None) from None
    if fmt == "json":
        click.echo(json_safe(json.dumps(as_json(where, turn, move_text, verdicts, all_rulesets=all_rulesets),
                                        ensure_ascii=False, indent=2)))
    else:  # one line per finding: names from the record are escaped (errors.printable)
        click.echo(printable_lines(as_text(where, turn, move_text, verdicts, all_rulesets=all_rulesets)), nl=False)
