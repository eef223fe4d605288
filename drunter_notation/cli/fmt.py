"""``drunter fmt``: print, check or rewrite records in canonical DN."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from drunter_notation.errors import DnError
from drunter_notation.notation.formatter import format_record
from drunter_notation.notation.parser import parse_file
from drunter_notation.cli.common import record_paths, report_error
from drunter_notation.files import write_atomic


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--check", is_flag=True, help="Exit 1 and name every file that is not canonical.")
@click.option("--write", is_flag=True, help="Rewrite files in place (atomically) when not canonical.")
def fmt(files, check, write):
    """Print FILES in the canonical DN form (directories are walked for *.dn)."""
    if check and write:
        raise click.UsageError("--check and --write exclude each other")
    status = 0
    for path in record_paths(files):
        try:
            record = parse_file(path)
            text = format_record(record)
            original = Path(path).read_bytes()
        except DnError as e:
            report_error(e, path)
            status = max(status, e.exit_code)
            continue
        canonical = original == text.encode("utf-8")
        if check:
            if not canonical:
                click.echo(f"{path}: not canonical (run: drunter fmt --write {path})")
                status = max(status, 1)
        elif write:
            if not canonical:
                try:
                    write_atomic(path, text)
                except OSError as e:
                    click.echo(f"{path}: error[I005]: cannot rewrite the file ({e.strerror}); it is unchanged",
                               err=True)
                    status = max(status, 2)
                    continue
                click.echo(f"{path}: reformatted", err=True)
        else:
            sys.stdout.write(text)
    sys.exit(status)
