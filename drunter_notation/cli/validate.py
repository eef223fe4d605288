"""``drunter validate``: judge records move by move, one file or thousands.

Files are judged in worker processes (``--jobs``, default: every core), each
file's output is made there as a list of lines and printed here in the order the
files were named, so the output does not depend on the number of workers.
"""
from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, TextIO

import click

from drunter_notation import i18n
from drunter_notation.cli.cluster import dask_option, on_cluster, progress, with_bytes
from drunter_notation.cli.common import DiagnosticError, cores, pool_size, record_paths
from drunter_notation.codes import CODES, Exit, exit_status
from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.errors import Diagnostic, DnError, json_safe, printable
from drunter_notation.files import RECORD, read_record, read_stream
from drunter_notation.i18n import N_, _, ngettext, pgettext
from drunter_notation.load import judge as judge_record
from drunter_notation.notation.parser import parse_bytes
from drunter_notation.replay import Timeline

# Codes that mean "could not even be judged": exit status 2.
EXIT_2_CODES = {c for c, info in CODES.items() if info.exit is Exit.CANNOT}
STDIN = "-"
STDIN_NAME = "<stdin>"


def summary_line(t: Timeline) -> str:
    """``valid: 58 turns, 3 votes, winner Ben 12 (hig-1991, schilda)`` and its invalid twin."""
    turns, votes = t.counts()  # not the whole summary: this line shows two of its figures
    rules = f"{(t.ruleset.id if t.ruleset else None) or '?'}, {(t.board.id if t.board else None) or '?'}"
    counts = ", ".join((ngettext("{n} turn", "{n} turns", turns).format(n=turns),
                        ngettext("{n} vote", "{n} votes", votes).format(n=votes)))
    if not t.valid:
        first = t.errors[0]
        if t.stopped_at:
            return _("invalid: {code} at turn {turn}; later turns are not judged ({rules})").format(
                code=first.code, turn=t.stopped_at, rules=rules)
        if first.line:
            return _("invalid: {code} at line {line} ({rules})").format(code=first.code, line=first.line, rules=rules)
        return _("invalid: {code} ({rules})").format(code=first.code, rules=rules)
    if t.scores is not None:
        scores = [f"{w} {t.scores[w]}" for w in t.winners or ()]
        if len(scores) == 1:
            return _("valid: {counts}, winner {winner} ({rules})").format(counts=counts, winner=scores[0],
                                                                         rules=rules)
        win = scores[0]
        for score in scores[1:]:
            win = _("{first} and {second}").format(first=win, second=score)
        return _("valid: {counts}, shared win {winners} ({rules})").format(counts=counts, winners=win, rules=rules)
    return _("valid (partial record): {counts} ({rules})").format(counts=counts, rules=rules)


def _files(count: int) -> str:
    return ngettext("{n} file", "{n} files", count).format(n=count)


def _json(path: str, t: Timeline | None, diags: list[Diagnostic]) -> dict[str, Any]:
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
        out["note"] = _("replay stops at the first rule violation; later turns are not judged")
    return out


@dataclass(frozen=True)
class Job:
    """One file to judge and how; ``data`` holds standard input's bytes for ``-``."""

    path: str
    fmt: str
    rules: str | None
    board: str | None
    expect: bool
    data: bytes | None = None


@dataclass(frozen=True)
class Outcome:
    """What judging one file printed (``(to_stderr, line)`` pairs) and what it found."""

    lines: list[tuple[bool, str]]
    status: int
    kind: str  # "valid", "invalid" or "unreadable"
    matches: bool = True  # --expect: the verdict is the declared one


def judge(job: Job) -> Outcome:
    """Read (once), parse and replay one file; everything it prints, as lines, each
    one safe to print (:func:`errors.printable`; runs in a worker)."""
    t, data = None, job.data
    try:
        if data is None:
            data = read_record(job.path)
        record = parse_bytes(data, job.path)
    except DnError as e:
        diags = [e.diagnostic]
    else:
        t = judge_record(record, job.path, rules=job.rules, board=job.board)
        diags = t.diagnostics
    errors = [d for d in diags if d.severity == "error"]
    status = exit_status(d.code for d in errors) if errors else Exit.OK  # mostly valid: no generator made
    kind = "valid" if not errors else ("unreadable" if status == Exit.CANNOT else "invalid")
    if job.expect:
        declared, got = declared_verdict(data), verdict(errors)
        ok = declared == got
        # the verdicts stay as the header writes them (``valid``, ``error A001 line 9``): they are compared
        line = (_("{path}: ok: {verdict}").format(path=job.path, verdict=got) if ok else
                _("{path}: MISMATCH: {verdict} (the header says: {declared})").format(
                    path=job.path, verdict=got, declared=declared or _("nothing")))
        return Outcome([(False, printable(line))], status, kind, ok)
    if job.fmt == "json":
        import json  # here: a text run does not pay for its import

        return Outcome([(False, json_safe(json.dumps(_json(job.path, t, diags), ensure_ascii=False)))], status,
                       kind)
    lines = []
    for d in diags:
        lines.append((False, d.format(job.path)))
        caret = d.caret()
        if caret:
            lines.append((True, caret))
    if t is not None:
        lines.append((False, printable(f"{job.path}: {summary_line(t)}")))
    else:
        lines.append((False, printable(_("{path}: invalid: {code}, the record could not be read").format(
            path=job.path, code=errors[0].code))))
    return Outcome(lines, status, kind)


def judge_all(jobs: list[Job], workers: int) -> Iterator[Outcome]:
    """Each job's Outcome, in the order of ``jobs``; in ``workers`` processes when that pays."""
    workers = pool_size(workers, len(jobs))
    if workers <= 1:
        yield from map(judge, jobs)
        return
    # chunks big enough to spare the round trips, small enough to keep every worker busy to the end
    from concurrent.futures import ProcessPoolExecutor  # here: a one-core run does not pay for its import

    chunk = max(1, min(32, len(jobs) // (workers * 8)))
    judge(jobs[0])  # builds the parser and the board's tables once, here: forked workers inherit them
    # a worker started rather than forked (another start method) must still speak the process's language
    with ProcessPoolExecutor(max_workers=workers, initializer=i18n.set_language,
                             initargs=(i18n.language(),)) as pool:
        yield from pool.map(judge, jobs, chunksize=chunk)


def _write(line: str, file: TextIO) -> None:
    file.write(line + "\n")


def _check_option(kind: str, ref: str) -> None:
    """An unknown --rules or --board stops the run once, before any file is read."""
    try:
        load_ruleset(ref) if kind == "--rules" else load_board(ref)
    except DnError as e:
        raise DiagnosticError(e, kind, exit_code=Exit.CANNOT) from None


@click.command(help=N_("Check DN records move by move against the rules.\n\n"
                        "FILES may be record files, directories (walked for *.dn) or - for standard input."
                        " Several files end with a total line. Exit status: 0 every file valid (warnings"
                        " allowed), 1 some file breaks a rule or does not parse, 2 unreadable file, unknown"
                        " board or ruleset."))
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help=N_("One line per finding and a summary per file, or one JSON object per file (JSON Lines)."))
@click.option("--rules", "rules", metavar="ID", help=N_("Ruleset to judge by, overriding the record's Rules tag."))
@click.option("--board", "board", metavar="ID|PATH", help=N_("Board id or .toml file, overriding the Board tag."))
@click.option("--expect", is_flag=True,
              help=N_("Compare each file's verdict with its '# expect: valid' or '# expect: error CODE line N'"
                      " header comment; exit 0 only when every file gets its declared verdict."))
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help=N_("Worker processes (default: one per core). The output is the same for every N."))
@dask_option
def validate(files: tuple[str, ...], fmt: str, rules: str | None, board: str | None, expect: bool,
             jobs: int | None, dask_address: str | None) -> None:
    if rules is not None:
        _check_option("--rules", rules)
    if board is not None:
        _check_option("--board", board)
    paths, status = record_paths(files)
    try:  # standard input has the size cap of a record file
        # sys.stdin is None when the command was started with standard input closed (<&-)
        stream = None if sys.stdin is None else sys.stdin.buffer
        stdin = read_stream(stream, RECORD, STDIN_NAME) if STDIN in paths else None
    except DnError as e:
        raise DiagnosticError(e) from None
    todo = [Job(STDIN_NAME if p == STDIN else p, fmt, rules, board, expect, stdin if p == STDIN else None)
            for p in paths]
    mismatches, kinds = 0, {"valid": 0, "invalid": 0, "unreadable": 0}
    with contextlib.ExitStack() as stack:
        bar = progress(len(todo), pgettext("progress bar: files per second", "file"), stack)
        # without a bar, plain writes: the bar's own write (clear, print, redraw) costs per line
        write = _write if bar is None else lambda line, file: bar.write(line, file=file)
        outcomes = (judge_all(todo, jobs or cores()) if dask_address is None else
                    on_cluster(dask_address, judge, with_bytes(todo, judge)))
        for outcome in outcomes:
            for to_stderr, line in outcome.lines:
                write(line, sys.stderr if to_stderr else sys.stdout)
            if bar is not None:
                bar.update()
            status = max(status, outcome.status)
            mismatches += not outcome.matches
            kinds[outcome.kind] += 1
    if expect:
        if mismatches:
            of_files = ngettext("of {n} file", "of {n} files", len(todo)).format(n=len(todo))
            click.echo(ngettext("{n} {of_files} does not get its declared verdict",
                                "{n} {of_files} do not get their declared verdict", mismatches).format(
                n=mismatches, of_files=of_files))
        else:
            click.echo(_("every file gets its declared verdict"))
        sys.exit(1 if mismatches else 0)
    if fmt == "text" and len(todo) > 1:
        click.echo(total_line(len(todo), kinds))
    sys.exit(status)


def total_line(files: int, kinds: dict[str, int]) -> str:
    """``64 files: 23 valid, 39 invalid, 2 unreadable`` (the counts agree with their words in every language)."""
    valid, invalid, unreadable = kinds["valid"], kinds["invalid"], kinds["unreadable"]
    return ", ".join((f"{_files(files)}: " + ngettext("{n} valid", "{n} valid", valid).format(n=valid),
                      ngettext("{n} invalid", "{n} invalid", invalid).format(n=invalid),
                      ngettext("{n} unreadable", "{n} unreadable", unreadable).format(n=unreadable)))


_EXPECT = re.compile(r"^#\s*expect:\s*(.+?)\s*$", re.M)


def declared_verdict(data: bytes | None) -> str | None:
    """The verdict a sample declares in its ``# expect: ...`` comment (in the bytes
    already read), normalised."""
    if data is None:
        return None
    m = _EXPECT.search(data[:4096].decode("utf-8", "replace").lstrip("\ufeff"))
    return " ".join(m.group(1).split()) if m else None


def verdict(errors: list[Diagnostic]) -> str:
    """``valid`` or ``error CODE line N`` for the first error."""
    return "valid" if not errors else f"error {errors[0].code} line {errors[0].line}"
