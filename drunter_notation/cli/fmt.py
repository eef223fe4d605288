"""``drunter fmt``: print, check or rewrite records in canonical DN."""
from __future__ import annotations

import sys

import click

from drunter_notation.cli.common import record_paths, report_error
from drunter_notation.errors import DnError, fail, printable
from drunter_notation.files import FileChanged, os_reason, read_snapshot, write_atomic
from drunter_notation.i18n import N_, _
from drunter_notation.notation.formatter import format_record
from drunter_notation.notation.parser import parse_bytes


@click.command(help=N_("Print FILES in the canonical DN form (directories are walked for *.dn)."))
@click.argument("files", nargs=-1, required=True)
@click.option("--check", is_flag=True, help=N_("Exit 1 and name every file that is not canonical."))
@click.option("--write", is_flag=True,
              help=N_("Rewrite files in place (atomically) when not canonical; a file changed since it was read is"
                      " left alone, a symlink keeps pointing at the rewritten file."))
def fmt(files: tuple[str, ...], check: bool, write: bool) -> None:
    if check and write:
        raise click.UsageError(_("--check and --write exclude each other"))
    paths, status = record_paths(files)
    for path in paths:
        try:
            snapshot = read_snapshot(path)
            text = format_record(parse_bytes(snapshot.data, path))
        except DnError as e:
            report_error(e, path)
            status = max(status, e.exit_code)
            continue
        canonical = snapshot.data == text.encode("utf-8")
        if check:
            if not canonical:
                click.echo(printable(_("{path}: not canonical (run: drunter fmt --write {path})").format(path=path)))
                status = max(status, 1)
        elif write:
            if not canonical:
                try:
                    write_atomic(path, text, replaces=snapshot)
                except FileChanged:
                    report_error(fail("I005", _("the file changed while it was being formatted; it is left as it"
                                                " is now"), path=path, hint=_("run drunter fmt --write on it again")))
                    status = max(status, 2)
                    continue
                except OSError as e:
                    report_error(fail("I005", _("cannot rewrite the file ({reason}); it is unchanged").format(
                        reason=os_reason(e)), path=path))
                    status = max(status, 2)
                    continue
                click.echo(printable(_("{path}: reformatted").format(path=path)), err=True)
        else:
            sys.stdout.write(text)
    sys.exit(status)
