"""What every command shares: finding record files, printing errors, safe writes."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from drunter_notation.errors import DnError


class DiagnosticError(click.ClickException):
    """The one way a command stops on a diagnostic: its line, then its caret line, on
    stderr; the exit status is the code's exit class unless the command says otherwise
    (an error in what the options named is a usage error: exit 2)."""

    def __init__(self, error: DnError, path: str | None = None, exit_code: int | None = None):
        super().__init__(error.format(path))
        self.error = error
        self.exit_code = error.exit_code if exit_code is None else exit_code

    def show(self, file=None) -> None:
        report_error(self.error, None, self.message)


class UsageLine(click.UsageError):
    """A usage error as one line (``drunter adjudicate: error: ...; see --help``), exit 2."""

    def show(self, file=None) -> None:
        where = self.ctx.command_path if self.ctx is not None else "drunter"
        click.echo(f"{where}: error: {self.message}; see {where} --help", err=True)


def run_group(group: click.Group) -> None:
    """Run the CLI; a DnError that escapes a command is one line on stderr, never a traceback."""
    try:
        group.main(prog_name="drunter", standalone_mode=True)
    except DnError as e:  # pragma: no cover - commands catch their own; this is the last guard
        click.echo(e.format(), err=True)
        sys.exit(e.exit_code)


def record_paths(args: tuple[str, ...]) -> list[str]:
    """The files named, with directories walked for ``*.dn`` (sorted); other names kept as given."""
    out = []
    for a in args:
        p = Path(a)
        if p.is_dir():
            found = sorted(p.rglob("*.dn"))
            if not found:
                click.echo(f"{a}: warning: no *.dn files in this directory", err=True)
            out.extend(str(f) for f in found)
        else:
            out.append(a)
    if not out:
        raise click.UsageError("no record files to work on")
    return out


def report_error(e: DnError, path: str | None = None, line: str | None = None) -> None:
    """Print a DnError as its one line (plus the caret context for syntax errors) on stderr."""
    click.echo(line or e.format(path), err=True)
    caret = e.diagnostic.caret()
    if caret:
        click.echo(caret, err=True)
