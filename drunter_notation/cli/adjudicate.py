"""``drunter adjudicate``: settle a rule dispute about one turn of a record (issue 4).

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

from drunter_notation.explain.adjudicate import ALTERNATIVES_SHOWN, Verdict, adjudicate as judge, agreement, all_ruleset_ids
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


def as_json(path: str, turn: int, move_text: str | None, verdicts: list[Verdict], all_rulesets: bool) -> dict:
    """The verdicts as one JSON object (the same content as the text)."""
    return {
        "file": path,
        "turn": turn,
        "what_if": move_text is not None,
        "move": verdicts[0].move if verdicts else None,
        "verdicts": [v.as_json() for v in verdicts],
        "agreement": agreement(verdicts) if all_rulesets or len(verdicts) > 1 else None,
    }


def as_text(path: str, turn: int, move_text: str | None, verdicts: list[Verdict], all_rulesets: bool) -> str:
    out = []
    kind = "what-if, not played" if move_text is not None else "as recorded"
    out.append(f"{path}, turn {turn} ({kind})")
    positions = {v.position for v in verdicts if v.position is not None}
    shared = len(positions) == 1 and len({(v.player, v.hand) for v in verdicts if v.position}) == 1
    if shared:
        v = next(v for v in verdicts if v.position is not None)
        out += ["", f"Position before turn {turn}" + (" (the same under every ruleset judged):"
                                                      if len(verdicts) > 1 else ":"),
                v.position.rstrip("\n"), "", f"On turn: {v.player}; hand: {v.hand}"]
    elif len(positions) > 1:
        out += ["", f"The position before turn {turn} differs between the rulesets (earlier turns ended"
                    " differently under them); each verdict shows its own."]
    out.append(f"Move ({kind}): {verdicts[0].move}")
    for v in verdicts:
        out += [""] + _block(v, turn, show_position=not shared)
    if all_rulesets or len(verdicts) > 1:
        out += ["", agreement(verdicts)]
    return "\n".join(out) + "\n"


def _block(v: Verdict, turn: int, show_position: bool) -> list[str]:
    out = [f"{v.ruleset} ({v.ruleset_name}): {v.status}"]
    if show_position and v.position is not None:
        out += [f"  Position before turn {turn} under {v.ruleset}:"]
        out += ["    " + line if line else "" for line in v.position.rstrip("\n").split("\n")]
        out += [f"  On turn: {v.player}; hand: {v.hand}"]
    if v.rules:
        out.append("  Rules applied:")
        for r in v.rules:
            out.append(f"    {r.rule} {r.title} ({r.citation}): {r.how}")
    if v.vote is not None:
        c = v.vote
        out.append("  Vote, card by card:")
        out += [f"    {line}" for line in c.lines]
        result = "accepted" if c.accepted else "rejected"
        out.append(f"    {c.arithmetic} -> {c.yes}:{c.no}, {result} (vote_outcome = {c.option})")
        if c.claim is not None:
            same = c.claim.split()[0] == result
            out.append(f"    the record claims: {c.claim}" + ("" if same else f" (but it is {result})"))
    if v.forced is not None or (v.legal is not None and v.move.endswith(" pass")):
        if v.forced is True:
            out.append(f"  The pass was forced: {v.player} had no legal placement.")
        elif v.forced is False:
            n = len(v.alternatives or ())
            out.append(f"  The pass was not forced: {v.player} had {n} legal placement{'s' if n != 1 else ''}.")
        else:
            out.append("  Whether the pass was forced cannot be checked: the hands are not recorded.")
    if v.alternatives is not None and not (v.forced is True):
        alts = v.alternatives
        if not alts:
            out.append(f"  Legal alternatives for {v.player}: none")
        else:
            tried = ", every tile type tried: hands not recorded" if v.hand == "not recorded" else ""
            out.append(f"  Legal alternatives for {v.player} ({len(alts)}{tried}):")
            out += [f"    {a}" for a in alts[:ALTERNATIVES_SHOWN]]
            if len(alts) > ALTERNATIVES_SHOWN:
                out.append(f"    ... and {len(alts) - ALTERNATIVES_SHOWN} more (--format json lists them all)")
    for note in v.notes:
        out.append(f"  Note: {note}")
    return out
