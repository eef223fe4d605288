"""``drunter report``: one self-contained HTML replay page per record, and the archive index.

Every record that can be read gets a page: an invalid one shows its turns up to the
violation, one that does not parse shows the syntax error (P001). Records that
cannot be judged at all -- an unreadable file, an unknown board or ruleset (exit
status 2, as for ``validate``) -- get no page: the error line says why.

The output folder is an archive: ``manifest.json`` beside the pages lists every
report written there, by any run, and ``--index`` rebuilds ``index.html`` from it.
A record keeps its page across runs; a new record whose page name is taken by
another record gets the name with ``-2``, ``-3``... added.
"""
from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from drunter_notation.cli.common import DiagnosticError, record_paths, report_error
from drunter_notation.cli.validate import EXIT_2_CODES, summary_line
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.errors import Diagnostic, DnError, fail, printable
from drunter_notation.files import FILE, check_target, os_reason, read_record, read_regular, write_atomic
from drunter_notation.i18n import N_, _, format_number, ngettext
from drunter_notation.load import judge
from drunter_notation.notation.model import Record
from drunter_notation.notation.parser import parse_bytes
from drunter_notation.replay import Timeline
from drunter_notation.report import (
    IndexEntry,
    failed_entry,
    index_entry,
    record_count,
    render_error,
    render_index,
    render_report,
)
from drunter_notation.report.index import entries_from_manifest, manifest_text, merge

DEFAULT_OUT_DIR = "reports"
MAX_REPORT_TURNS = 1000  # a page shows at most this many turns (a real game has about 60)
MANIFEST = "manifest.json"
MAX_MANIFEST_BYTES = 256 * 1024 * 1024  # a report's line is under 1 kB: room for far more than any archive


def load_archive(folder: Path) -> list[IndexEntry]:
    """The entries of ``folder``'s manifest (none when there is no manifest yet).
    Raises DiagnosticError (I005) for a manifest that cannot be read: the run must
    not replace it with one that forgets the earlier reports."""
    path = folder / MANIFEST
    if not os.path.lexists(path):
        return []
    check_outputs([path])  # a FIFO, a device or a link is refused before a byte is read: it could hang the run
    try:  # I005, not the reader's I001: what cannot be read here cannot be rewritten either
        data = read_regular(path, replace(FILE, code="I005", limit=MAX_MANIFEST_BYTES))
        return entries_from_manifest(json.loads(data.decode("utf-8")))
    except DnError as e:
        raise DiagnosticError(e, str(path)) from None
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, RecursionError):  # Python's words are English
        raise DiagnosticError(fail("I005", _("cannot read the report manifest: it is not the JSON this command "
                                             "writes"),
                                   hint=_("move it away to start a new archive in this folder")), str(path)) from None


def check_outputs(paths: Sequence[Path]) -> None:
    """Refuse (I005, exit 2) before any work an output that is a link, a FIFO, a device or a folder."""
    for path in paths:
        try:
            check_target(path, links=False)
        except OSError as e:
            raise DiagnosticError(fail("I005", _("cannot write {name}: {reason}").format(
                name=path.name, reason=os_reason(e))), str(path)) from None


def _check_final(analysis: dict[str, Any]) -> None:
    """Raise TypeError or KeyError unless each player's end beliefs and styles are
    numbers by name and their evidence a list: what the report words."""
    final = analysis["final"]
    for player in analysis["players"]:
        for table in (final["beliefs"][player], final["styles"][player]):
            if not isinstance(table, dict) or not table or not all(isinstance(v, (int, float))
                                                                   for v in table.values()):
                raise TypeError(player)
        if not isinstance(final["evidence"][player], list):
            raise TypeError(player)


def _no_constant(name: str) -> None:
    raise ValueError(name)  # NaN and Infinity: JSON has no such number, and analyze writes none


def load_analyses(path: str) -> dict[str, tuple[int, dict[str, Any]]]:
    """The analyses in a ``drunter analyze --format json`` file, each with its line, by the
    absolute path of the record each is of. Raises DiagnosticError (I001, U004)."""
    try:  # a regular file of at most the record size, read once, every problem one line
        lines = read_regular(path, FILE).decode("utf-8").splitlines()
    except DnError as e:
        raise DiagnosticError(e, path) from None
    except UnicodeDecodeError as e:
        raise DiagnosticError(fail("I001", _("cannot read the analysis: byte {offset} is not UTF-8").format(
            offset=e.start + 1)), path) from None
    out = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            a = json.loads(line, parse_constant=_no_constant)
            out[os.path.abspath(a["file"])] = n, a
            a["turns"][0]["beliefs"]
            _check_final(a)
        except (ValueError, KeyError, IndexError, TypeError, RecursionError):  # RecursionError: [[[[... nested deep
            raise DiagnosticError(fail("U004", _("not a line of `drunter analyze --format json` output"), line=n,
                                       column=1), path) from None
    return out


def _href(out: Path, folder: Path) -> str:
    return Path(os.path.relpath(out, folder)).as_posix()


def plan(files: tuple[str, ...], out_dir: Path, archive: Sequence[IndexEntry] = ()
         ) -> tuple[list[tuple[str, Path]], int]:
    """(record path, report path) for every record. A record already in the
    archive keeps its page; otherwise ``<out>/<stem>.html`` for a file named,
    ``<out>/<path inside the directory>.html`` for files found in a directory (so
    reports of ``replays/`` mirror its folders), with ``-2``, ``-3``... added when
    another record holds that name in the archive or in this run. The second value
    is the status of walking the folders (2: one could not be read, see
    :func:`record_paths`)."""
    kept = {e.record: e.href for e in archive}
    taken = {e.href: e.record for e in archive}
    jobs: dict[str, tuple[str, Path]] = {}  # by absolute record path: a record named twice is reported once
    status = 0
    for arg in files:
        root = Path(arg)
        paths, walked = record_paths((arg,))
        status = max(status, walked)
        for path in paths:
            record = os.path.abspath(path)
            if record in jobs:
                continue
            if record in kept:
                jobs[record] = (path, out_dir / kept[record])
                continue
            rel = Path(path).relative_to(root) if os.path.isdir(root) else Path(Path(path).name)
            stem, n = rel.with_suffix(""), 1
            while taken.get(href := _href(out_dir / f"{stem}{'' if n == 1 else f'-{n}'}.html", out_dir),
                            record) != record:
                n += 1
            taken[href] = record
            jobs[record] = (path, out_dir / href)
    return list(jobs.values()), status


def _text(data: bytes) -> str:
    # the bytes parse_bytes has already decoded: the file is read only once
    return data.decode("utf-8-sig")


def page_timeline(record: Record, path: str, rules: str | None) -> tuple[Timeline, Timeline]:
    """(the judgement that gives the verdict, the one the page shows). A record of more
    than :data:`MAX_REPORT_TURNS` events is judged whole, but its page (positions,
    frames, diagram) covers only the first ones, with a W005 notice saying so and
    giving the whole record's verdict: a page never takes minutes."""
    if len(record.events) <= MAX_REPORT_TURNS:
        t = judge(record, path, rules=rules, keep_states=True)
        return t, t
    whole = judge(record, path, rules=rules)
    shown = judge(replace(record, events=record.events[:MAX_REPORT_TURNS], reveal=None, score=None), path,
                  rules=rules, keep_states=True)
    first = record.events[0]
    shown.diagnostics.append(Diagnostic(
        "warning", "W005", _("this record has {n} turns; the page shows the first {shown}. The whole record: "
                             "{verdict}").format(n=format_number(len(record.events)),
                                                 shown=format_number(MAX_REPORT_TURNS), verdict=summary_line(whole)),
        first.line, first.column))
    return whole, shown


def written_note(code: str | None, stopped_at: int | None, complete: bool, turns: int) -> str:
    """What the line of a written report says of its record: ``valid, 70 turns``,
    ``invalid: A004 at turn 12``."""
    if code is not None:
        if stopped_at:
            return _("invalid: {code} at turn {turn}").format(code=code, turn=stopped_at)
        return _("invalid: {code}").format(code=code)
    if complete:
        return ngettext("valid, {n} turn", "valid, {n} turns", turns).format(n=turns)
    return ngettext("valid partial record, {n} turn", "valid partial record, {n} turns", turns).format(n=turns)


def _write(out: Path, text: str) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    # a link is not followed: a report never rewrites the file a link points to (a record, a system file)
    # a byte of a file name that is not UTF-8 left anywhere is written as its escape (\udcff), never a traceback
    write_atomic(out, text.encode("utf-8", "backslashreplace").decode("utf-8"), links=False)


# The command's help (shown in the language in force, so not a docstring): every
# page and the index are written in the language of the run (--lang), the DN text
# they show and the manifest stay as they are.
@click.command("report", help=N_(
    "Write an HTML replay report for each DN record.\n\n"
    "FILES may be record files or directories (walked for *.dn). Each report is one self-contained page (no "
    "network needed) that steps through the game with the arrow keys, or by swiping the board. The output "
    "folder keeps a manifest of every report written there, so games reported one at a time build one archive. "
    "Pages and the index are written in the language of the run (--lang); an index rewritten in another "
    "language is rewritten whole in it.\n\n"
    "Exit status: 0 all records valid, 1 some record breaks a rule or does not parse (its report shows where), "
    "2 unreadable file, unknown board or ruleset (no report), an unreadable manifest, or a usage error."))
@click.argument("files", nargs=-1, required=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help=N_("The report file, for a single record."))
@click.option("--out-dir", type=click.Path(file_okay=False, path_type=Path),
              help=N_("Folder for the reports (default: reports/)."))
@click.option("--rules", metavar="ID", help=N_("Ruleset to judge by, overriding the records' Rules tags."))
@click.option("--index", "with_index", is_flag=True,
              help=N_("Also write index.html in the output folder, over every report its manifest.json lists "
                      "(earlier runs' too)."))
@click.option("--analysis", "analysis_file", metavar="FILE",
              help=N_("Add the charts of `drunter analyze --format json` (its JSON Lines output, FILE) to the "
                      "reports of the records it analysed."))
@click.pass_context
def report(ctx: click.Context, files: tuple[str, ...], output: Path | None, out_dir: Path | None, rules: str | None,
           with_index: bool, analysis_file: str | None) -> None:
    _check_options(output, out_dir, rules)
    analyses = {} if analysis_file is None else load_analyses(analysis_file)
    folder = output.parent if output is not None else (out_dir or Path(DEFAULT_OUT_DIR))
    check_outputs(([output] if output is not None else []) + ([folder / "index.html"] if with_index else []))
    archive = load_archive(folder)
    jobs, status = plan(files, folder, archive)
    if output is not None:
        jobs = [(_single(jobs, output), output)]
    entries: list[IndexEntry] = []
    for path, out in jobs:
        page, page_status = _page(path, _href(out, folder), rules, analyses, analysis_file)
        status = max(status, page_status)
        if page is None:
            continue
        html, entry, note = page
        try:
            _write(out, html)
        except OSError as e:
            report_error(fail("I005", _("cannot write the report: {reason}").format(reason=os_reason(e))), str(out))
            status = 2
            continue
        entries.append(entry)
        click.echo(printable(_("wrote {path} ({note})").format(path=out, note=note)))
    if not entries and not with_index:
        ctx.exit(status)  # nothing written: the archive stays as it was
    _write_archive(folder, archive, entries, with_index=with_index)
    ctx.exit(status)


def _check_options(output: Path | None, out_dir: Path | None, rules: str | None) -> None:
    """Usage errors in the options, before any file is read."""
    if output is not None and out_dir is not None:
        raise click.UsageError(_("give -o/--output or --out-dir, not both"))
    if rules is not None:
        try:
            load_ruleset(rules)
        except DnError as e:
            raise DiagnosticError(e, "--rules") from None


def _single(jobs: list[tuple[str, Path]], output: Path) -> str:
    """The one record ``-o/--output`` reports; a usage error for more or fewer, or an output that is no page."""
    if len(jobs) != 1:
        raise click.UsageError(ngettext("-o/--output takes exactly one record; {n} was given",
                                        "-o/--output takes exactly one record; {n} were given",
                                        len(jobs)).format(n=len(jobs)))
    if os.path.exists(output) and output.suffix.lower() not in (".html", ".htm"):
        # a report only ever replaces an earlier report, never a record or other file
        raise click.UsageError(_("{path} exists and is not an .html file; refusing to overwrite it").format(
            path=output))
    return jobs[0][0]


def _page(path: str, href: str, rules: str | None, analyses: dict[str, tuple[int, dict[str, Any]]],
          analysis_file: str | None) -> tuple[tuple[str, IndexEntry, str] | None, int]:
    """(the page of the record at ``path``: its HTML, its index entry, the note of its line; or None when it
    gets none), and the status it makes. Its problems are printed on stderr."""
    try:
        data = read_record(path)
        record = parse_bytes(data, path)
    except DnError as e:
        report_error(e, path)
        if e.exit_code == 2:
            return None, e.exit_code
        html, entry = render_error(path, e.diagnostic, _text(data)), failed_entry(href, path, e.diagnostic)
        return (html, entry, _("{code}, not readable as DN").format(code=e.diagnostic.code)), e.exit_code
    t, shown = page_timeline(record, path, rules)
    for d in t.errors:
        click.echo(d.format(path), err=True)
    status = 0
    if t.errors:
        fatal = any(d.code in EXIT_2_CODES for d in t.errors)
        status = 2 if fatal else 1
        if fatal:
            return None, status
    line, analysis = analyses.get(os.path.abspath(path), (0, None))
    try:
        html = render_report(shown, _text(data), analysis)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        if analysis is None:
            raise
        # the analysis is the one input not judged before: what the page cannot read in it is not analyze's output
        report_error(fail("U004", _("not a line of `drunter analyze --format json` output"), line=line, column=1),
                     analysis_file or "--analysis")
        return None, 2
    note = written_note(t.errors[0].code if t.errors else None, t.stopped_at, t.complete, t.summary()["turns"])
    return (html, index_entry(t, href, path), note), status


def _write_archive(folder: Path, archive: list[IndexEntry], entries: list[IndexEntry], *, with_index: bool) -> None:
    """The manifest with this run's ``entries``, and with ``with_index`` the index page over it."""
    # the manifest lists the pages still on disk: a page deleted by hand leaves the archive
    archive = [e for e in merge(archive, entries) if os.path.isfile(folder / e.href)]
    written = [(folder / MANIFEST, manifest_text(archive))]
    if with_index:
        written.append((folder / "index.html", render_index(archive)))
    for target, text in written:
        try:
            _write(target, text)
        except OSError as e:
            raise DiagnosticError(fail("I005", _("cannot write {name}: {reason}").format(
                name=target.name, reason=os_reason(e))), str(target)) from None
    if with_index:
        click.echo(printable(_("wrote {path} ({records} in the archive)").format(
            path=folder / "index.html", records=record_count(len(archive)))))
