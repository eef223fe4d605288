"""``drunter validate``: judge records move by move (DN-SPEC §3)."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import click

from drunter_notation.errors import Diagnostic, DnError
from drunter_notation.notation.parser import parse_file
from drunter_notation.load import judge
from drunter_notation.replay import Timeline
from drunter_notation.cli.common import record_paths

# Codes that mean "could not even be judged": exit status 2 (DN-SPEC §3).
EXIT_2_CODES = {"I001", "I002", "I003", "H003", "H004"}


def summary_line(t: Timeline) -> str:
    """``valid: 58 turns, 3 votes, winner Ben 12 (hig-1991, schilda)`` and its invalid twin."""
    s = t.summary()
    rules = f"{s['ruleset'] or '?'}, {s['board'] or '?'}"
    counts = f"{_n(s['turns'], 'turn')}, {_n(s['votes'], 'vote')}"
    if not t.valid:
        first = t.errors[0]
        if t.stopped_at:
            return f"invalid: {first.code} at turn {t.stopped_at}; later turns are not judged ({rules})"
        where = f" at line {first.line}" if first.line else ""
        return f"invalid: {first.code}{where} ({rules})"
    if t.scores is not None:
        win = " and ".join(f"{w} {t.scores[w]}" for w in t.winners)
        word = "winner" if len(t.winners) == 1 else "shared win"
        return f"valid: {counts}, {word} {win} ({rules})"
    return f"valid (partial record): {counts} ({rules})"


def _n(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _json(path: str, t: Timeline | None, diags: list[Diagnostic]) -> dict:
    out = {
        "file": path,
        "valid": not any(d.severity == "error" for d in diags),
        "ruleset": t.ruleset.id if t and t.ruleset else None,
        "board": t.board.id if t and t.board else None,
        "diagnostics": [d.as_json() for d in diags],
        "summary": t.summary() if t else None,
    }
    if t is not None and not t.valid:
        out["stopped_at_turn"] = t.stopped_at
        out["note"] = "replay stops at the first rule violation; later turns are not judged"
    return out


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="One line per finding and a summary per file, or one JSON object per file (JSON Lines).")
@click.option("--rules", "rules", metavar="ID", help="Ruleset to judge by, overriding the record's Rules tag.")
@click.option("--board", "board", metavar="ID|PATH", help="Board id or .toml file, overriding the Board tag.")
@click.option("--expect", is_flag=True,
              help="Compare each file's verdict with its '# expect: valid' or '# expect: error CODE line N'"
                   " header comment; exit 0 only when every file gets its declared verdict.")
def validate(files, fmt, rules, board, expect):
    """Check DN records move by move against the rules.

    FILES may be record files or directories (walked for *.dn). Exit status: 0 every
    file valid (warnings allowed), 1 some file breaks a rule or does not parse,
    2 unreadable file, unknown board or ruleset.
    """
    status = 0
    mismatches = 0
    paths = record_paths(files)
    for path in paths:
        t = None
        try:
            record = parse_file(path)
        except DnError as e:
            diags = [e.diagnostic]
        else:
            t = judge(record, path, rules=rules, board=board)
            diags = t.diagnostics
        errors = [d for d in diags if d.severity == "error"]
        if expect:
            declared, got = declared_verdict(path), verdict(errors)
            ok = declared == got
            mismatches += not ok
            click.echo(f"{path}: {'ok' if ok else 'MISMATCH'}: {got}"
                       + ("" if ok else f" (the header says: {declared or 'nothing'})"))
            continue
        if errors:
            status = max(status, 2 if any(d.code in EXIT_2_CODES for d in errors) else 1)
        if fmt == "json":
            click.echo(json.dumps(_json(path, t, diags), ensure_ascii=False))
            continue
        for d in diags:
            click.echo(d.format(path))
            caret = d.caret()
            if caret:
                click.echo(caret, err=True)
        if t is not None:
            click.echo(f"{path}: {summary_line(t)}")
        else:
            click.echo(f"{path}: invalid: {errors[0].code}, the record could not be read")
    if expect:
        click.echo(f"{mismatches} of {len(paths)} file(s) do not get their declared verdict"
                   if mismatches else "every file gets its declared verdict")
        sys.exit(1 if mismatches else 0)
    sys.exit(status)


_EXPECT = re.compile(r"^#\s*expect:\s*(.+?)\s*$", re.M)


def declared_verdict(path: str) -> str | None:
    """The verdict a sample declares in its ``# expect: ...`` comment, normalised."""
    try:
        head = Path(path).read_bytes()[:4096].decode("utf-8", "replace").lstrip("\ufeff")
    except OSError:
        return None
    m = _EXPECT.search(head)
    return " ".join(m.group(1).split()) if m else None


def verdict(errors: list[Diagnostic]) -> str:
    """``valid`` or ``error CODE line N`` for the first error."""
    return "valid" if not errors else f"error {errors[0].code} line {errors[0].line}"
