"""``drunter report``: one self-contained HTML replay page per record, and an index.

Every record that can be read gets a page: an invalid one shows its turns up to the
violation, one that does not parse shows the syntax error (P001). Records that
cannot be judged at all -- an unreadable file, an unknown board or ruleset (exit
status 2, as for ``validate``) -- get no page: the error line says why.
"""
from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

import click

from drunter_notation.errors import DnError
from drunter_notation.notation.parser import parse_file
from drunter_notation.load import judge
from drunter_notation.report import IndexEntry, failed_entry, index_entry, render_error, render_index, render_report
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.cli.common import record_paths, report_error, write_atomic
from drunter_notation.cli.validate import EXIT_2_CODES

DEFAULT_OUT_DIR = "reports"


def plan(files: tuple[str, ...], out_dir: Path) -> list[tuple[str, Path]]:
    """(record path, report path) for every record: ``<out>/<stem>.html`` for a file
    named, ``<out>/<path inside the directory>.html`` for files found in a directory
    (so reports of ``replays/`` mirror its folders). Raises click.UsageError when
    two records would write the same report."""
    pairs: dict[Path, str] = {}
    for arg in files:
        root = Path(arg)
        for path in record_paths((arg,)):
            rel = Path(path).relative_to(root) if root.is_dir() else Path(Path(path).name)
            out = out_dir / rel.with_suffix(".html")
            if pairs.get(out, path) != path:
                raise click.UsageError(f"{pairs[out]} and {path} would both be reported to {out}; "
                                       "report them in separate runs with different --out-dir")
            pairs[out] = path
    return [(path, out) for out, path in pairs.items()]


def _text(path: str) -> str:
    # Only called once parse_file has read and decoded the file, so this read succeeds.
    return Path(path).read_text(encoding="utf-8-sig")


def _write(out: Path, html: str) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, html)


@click.command("report")
@click.argument("files", nargs=-1, required=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="The report file, for a single record.")
@click.option("--out-dir", type=click.Path(file_okay=False, path_type=Path),
              help=f"Folder for the reports (default: {DEFAULT_OUT_DIR}/).")
@click.option("--rules", metavar="ID", help="Ruleset to judge by, overriding the records' Rules tags.")
@click.option("--index", "with_index", is_flag=True,
              help="Also write index.html in the output folder, over the reports written in this run.")
@click.pass_context
def report(ctx: click.Context, files, output, out_dir, rules, with_index):
    """Write an HTML replay report for each DN record.

    FILES may be record files or directories (walked for *.dn). Each report is one
    self-contained page (no network needed) that steps through the game with the
    arrow keys. Exit status: 0 all records valid, 1 some record breaks a rule or does
    not parse (its report shows where), 2 unreadable file, unknown board or ruleset
    (no report), or a usage error.
    """
    if output is not None and out_dir is not None:
        raise click.UsageError("give -o/--output or --out-dir, not both")
    if rules is not None:
        try:
            load_ruleset(rules)
        except DnError as e:
            report_error(e, "--rules")
            ctx.exit(2)
    folder = output.parent if output is not None else (out_dir or Path(DEFAULT_OUT_DIR))
    jobs = plan(files, folder)
    if output is not None:
        if len(jobs) != 1:
            raise click.UsageError(f"-o/--output takes exactly one record; {len(jobs)} were given")
        if output.exists() and output.suffix.lower() not in (".html", ".htm"):
            # a report only ever replaces an earlier report, never a record or other file
            raise click.UsageError(f"{output} exists and is not an .html file; refusing to overwrite it")
        jobs = [(jobs[0][0], output)]
    status = 0
    entries: list[IndexEntry] = []
    for path, out in jobs:
        href = quote(Path(os.path.relpath(out, folder)).as_posix())
        try:
            record = parse_file(path)
        except DnError as e:
            report_error(e, path)
            status = max(status, e.exit_code)
            if e.exit_code == 2:
                continue
            html, entry, note = render_error(path, e.diagnostic, _text(path)), failed_entry(
                href, Path(path).name, e.diagnostic), f"{e.diagnostic.code}, not readable as DN"
        else:
            t = judge(record, path, rules=rules, keep_states=True)
            for d in t.errors:
                click.echo(d.format(path), err=True)
            if t.errors:
                fatal = any(d.code in EXIT_2_CODES for d in t.errors)
                status = max(status, 2 if fatal else 1)
                if fatal:
                    continue
            html, entry = render_report(t, _text(path)), index_entry(t, href, Path(path).name)
            s = t.summary()
            note = (f"invalid: {t.errors[0].code}" + (f" at turn {t.stopped_at}" if t.stopped_at else "")
                    if t.errors else f"{'valid' if t.complete else 'valid partial record'}, {s['turns']} turns")
        try:
            _write(out, html)
        except OSError as e:
            click.echo(f"{out}: cannot write the report: {e.strerror}", err=True)
            status = 2
            continue
        entries.append(entry)
        click.echo(f"wrote {out} ({note})")
    if with_index:
        index = folder / "index.html"
        try:
            _write(index, render_index(entries))
        except OSError as e:
            click.echo(f"{index}: cannot write the index: {e.strerror}", err=True)
            ctx.exit(2)
        click.echo(f"wrote {index} ({len(entries)} games)")
    ctx.exit(status)
