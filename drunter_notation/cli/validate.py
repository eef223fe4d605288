"""``drunter validate``: judge records move by move, one file or thousands.

Files are judged in worker processes (``--jobs``, default: every core), each
file's output is made there as a list of lines and printed here in the order the
files were named, so the output does not depend on the number of workers.
"""
from __future__ import annotations

import contextlib
import json
import re
import sys
from dataclasses import dataclass

import click

from drunter_notation.codes import CODES, Exit, exit_status
from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.errors import Diagnostic, DnError, json_safe, printable
from drunter_notation.files import RECORD, read_record, read_stream
from drunter_notation.notation.parser import parse_bytes
from drunter_notation.load import judge as judge_record
from drunter_notation.replay import Timeline
from drunter_notation.cli.cluster import dask_option, on_cluster, with_bytes
from drunter_notation.cli.common import DiagnosticError, cores, pool_size, record_paths

# Codes that mean "could not even be judged": exit status 2.
EXIT_2_CODES = {c for c, info in CODES.items() if info.exit is Exit.CANNOT}
STDIN = "-"
STDIN_NAME = "<stdin>"
PROGRESS_DELAY = 0.5  # seconds before a bar appears: short batches never show one


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
    status = exit_status(d.code for d in errors)
    kind = "valid" if not errors else ("unreadable" if status == Exit.CANNOT else "invalid")
    if job.expect:
        declared, got = declared_verdict(data), verdict(errors)
        ok = declared == got
        line = f"{job.path}: {'ok' if ok else 'MISMATCH'}: {got}" + (
            "" if ok else f" (the header says: {declared or 'nothing'})")
        return Outcome([(False, printable(line))], status, kind, ok)
    if job.fmt == "json":
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
        lines.append((False, printable(f"{job.path}: invalid: {errors[0].code}, the record could not be read")))
    return Outcome(lines, status, kind)


def judge_all(jobs: list[Job], workers: int):
    """Each job's Outcome, in the order of ``jobs``; in ``workers`` processes when that pays."""
    workers = pool_size(workers, len(jobs))
    if workers <= 1:
        yield from map(judge, jobs)
        return
    # chunks big enough to spare the round trips, small enough to keep every worker busy to the end
    from concurrent.futures import ProcessPoolExecutor  # here: a one-core run does not pay for its import

    chunk = max(1, min(32, len(jobs) // (workers * 8)))
    judge(jobs[0])  # builds the parser and the board's tables once, here: forked workers inherit them
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(judge, jobs, chunksize=chunk)


def _progress(total: int):
    """A progress bar on stderr when it is a terminal, shown only after PROGRESS_DELAY;
    else no bar (None), and tqdm is not even imported."""
    if not sys.stderr.isatty():
        return contextlib.nullcontext()
    from tqdm import tqdm
    return tqdm(total=total, unit="file", file=sys.stderr, delay=PROGRESS_DELAY, leave=False, dynamic_ncols=True)


def _write(line: str, file) -> None:
    file.write(line + "\n")


def _check_option(kind: str, ref: str) -> None:
    """An unknown --rules or --board stops the run once, before any file is read."""
    try:
        load_ruleset(ref) if kind == "--rules" else load_board(ref)
    except DnError as e:
        raise DiagnosticError(e, kind, exit_code=Exit.CANNOT) from None


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="One line per finding and a summary per file, or one JSON object per file (JSON Lines).")
@click.option("--rules", "rules", metavar="ID", help="Ruleset to judge by, overriding the record's Rules tag.")
@click.option("--board", "board", metavar="ID|PATH", help="Board id or .toml file, overriding the Board tag.")
@click.option("--expect", is_flag=True,
              help="Compare each file's verdict with its '# expect: valid' or '# expect: error CODE line N'"
                   " header comment; exit 0 only when every file gets its declared verdict.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None, metavar="N",
              help="Worker processes (default: one per core). The output is the same for every N.")
@dask_option
def validate(files, fmt, rules, board, expect, jobs, dask_address):
    """Check DN records move by move against the rules.

    FILES may be record files, directories (walked for *.dn) or - for standard
    input. Several files end with a total line. Exit status: 0 every file valid
    (warnings allowed), 1 some file breaks a rule or does not parse, 2 unreadable
    file, unknown board or ruleset.
    """
    if rules is not None:
        _check_option("--rules", rules)
    if board is not None:
        _check_option("--board", board)
    paths, status = record_paths(files)
    try:  # standard input has the size cap of a record file
        stdin = read_stream(sys.stdin.buffer, RECORD, STDIN_NAME) if STDIN in paths else None
    except DnError as e:
        raise DiagnosticError(e) from None
    todo = [Job(STDIN_NAME if p == STDIN else p, fmt, rules, board, expect, stdin if p == STDIN else None)
            for p in paths]
    mismatches, kinds = 0, {"valid": 0, "invalid": 0, "unreadable": 0}
    with _progress(len(todo)) as bar:
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
        which = f"{mismatches} of {_n(len(todo), 'file')} " + ("does not get its" if mismatches == 1 else
                                                                 "do not get their")
        click.echo(f"{which} declared verdict" if mismatches else "every file gets its declared verdict")
        sys.exit(1 if mismatches else 0)
    if fmt == "text" and len(todo) > 1:
        click.echo(f"{_n(len(todo), 'file')}: " + ", ".join(f"{n} {kind}" for kind, n in kinds.items()))
    sys.exit(status)


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
