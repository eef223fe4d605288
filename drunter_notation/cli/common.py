"""What every command shares: running, finding record files, printing errors."""
from __future__ import annotations

import errno
import os
import signal
import sys
import unicodedata
from pathlib import Path
from types import FrameType
from typing import IO, Any, TextIO, cast

import click

from drunter_notation.errors import DnError, fail, printable
from drunter_notation.files import os_reason
from drunter_notation.i18n import _


def display_width(text: str) -> int:
    """The columns a terminal gives ``text``: a combining mark none, a wide (East Asian) character two."""
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` columns as a terminal shows them."""
    return text + " " * max(0, width - display_width(text))


class DiagnosticError(click.ClickException):
    """The one way a command stops on a diagnostic: its line, then its caret line, on
    stderr; the exit status is the code's exit class unless the command says otherwise
    (an error in what the options named is a usage error: exit 2)."""

    def __init__(self, error: DnError, path: str | None = None, exit_code: int | None = None):
        super().__init__(error.format(path))
        self.error = error
        # per instance: click declares exit_code a class variable, but reads it from the instance
        self.exit_code = error.exit_code if exit_code is None else exit_code  # type: ignore[misc]  # click declares exit_code on the class

    def show(self, file: IO[Any] | None = None) -> None:
        report_error(self.error, None, self.message)


class UsageLine(click.UsageError):
    """A usage error as one line (``drunter adjudicate: error: ...; see --help``), exit 2."""

    def show(self, file: IO[Any] | None = None) -> None:
        show_usage_error(self)


def show_usage_error(e: click.UsageError) -> None:
    """Any usage error (click's own too) as :class:`UsageLine` shows it."""
    where = e.ctx.command_path if e.ctx is not None else "drunter"
    click.echo(printable(_("{command}: error: {message}; see {command} --help").format(
        command=where, message=e.format_message().rstrip("."))), err=True)


class OutputFailed(Exception):
    """Writing to stdout or stderr failed (a full device, a closed pipe). Not an
    OSError, so that click, which swallows a closed pipe without a word, lets it pass."""

    def __init__(self, error: OSError):
        super().__init__(os_reason(error))
        self.error = error


class _Guarded:
    """A text stream whose write and flush failures are :class:`OutputFailed`."""

    def __init__(self, stream: TextIO):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as e:
            raise OutputFailed(e) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as e:
            raise OutputFailed(e) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def run_group(group: click.Group) -> None:
    """Run the CLI. Whatever goes wrong ends in one line on stderr and an exit status,
    never a traceback: a DnError that escapes a command, and -- handled here once for
    every command -- output that cannot be written (a full device, a closed pipe)."""
    if sys.stderr is None:  # started with standard error closed (2>&-): errors go nowhere, the status tells
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    if sys.stdout is None:  # started with standard output closed (>&-): nothing could be written
        sys.exit(_output_failed(OSError(errno.EBADF, os.strerror(errno.EBADF))))
    for stream in (sys.stdout, sys.stderr):  # a terminal that cannot show a character gets its escape
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    # a stand-in with the stream's every attribute (__getattr__), so typed as the stream
    sys.stdout, sys.stderr = cast(TextIO, _Guarded(sys.stdout)), cast(TextIO, _Guarded(sys.stderr))
    signal.signal(signal.SIGTERM, _terminated)
    try:
        status = _run(group)
        sys.stdout.flush()  # what is still buffered fails here, not silently at exit
    except OutputFailed as e:
        status = _output_failed(e.error)
    sys.exit(status)


def _terminated(signum: int, frame: FrameType | None) -> None:
    """SIGTERM unwinds like an exit (status 143), so temp files are removed on the way."""
    raise SystemExit(128 + signum)


def _run(group: click.Group) -> int:
    """``group.main`` as click's standalone mode runs it, but with output errors left
    to :func:`run_group` (click would swallow a closed pipe without a word)."""
    try:
        result = group.main(prog_name="drunter", standalone_mode=False)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except click.UsageError as e:  # click's own (a bad option value, a missing argument) as ours: one line
        show_usage_error(e)
        return e.exit_code
    except click.ClickException as e:
        e.show()
        return e.exit_code
    except click.Abort:
        click.echo(_("Aborted!"), err=True)
        return 1
    except DnError as e:  # pragma: no cover - commands catch their own; this is the last guard
        click.echo(e.format(), err=True)
        return e.exit_code
    return result if isinstance(result, int) else 0


def _output_failed(e: OSError) -> int:
    """Say once, on stderr, that the output could not be written; exit status 2. Both
    streams then point at /dev/null, so nothing fails again when Python exits."""
    error = fail("I005", _("cannot write the output: {reason}").format(reason=os_reason(e)),
                 path="drunter", hint=_("check the disk or the program reading the output"))
    stdout, stderr = sys.__stdout__, sys.__stderr__
    devnull = os.open(os.devnull, os.O_WRONLY)
    for stream in (stdout, stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass  # what could not be written is dropped: the device is full or the reader gone
    if stdout is not None:
        os.dup2(devnull, stdout.fileno())
    if stderr is None:  # closed when the process started: nowhere to say it, the status tells
        return error.exit_code
    try:
        stderr.write(error.format() + "\n")
        stderr.flush()
    except (OSError, ValueError):
        os.dup2(devnull, stderr.fileno())
    return error.exit_code


# Every command's --seed: 0 <= S < 2**63, as the table app's random deals draw them (docs/cli.md).
MAX_SEED = 2 ** 63 - 1
SEED = click.IntRange(min=0, max=MAX_SEED)


WORKERS_PER_CORE = 4  # the work is CPU-bound: more processes than this per core only wait


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


# Python on WebAssembly (Pyodide in a browser) has no processes, threads or sockets
IN_WEBASSEMBLY = sys.platform in ("emscripten", "wasi")


def command_name() -> str:
    """The command running (``drunter validate``), for a line said outside its output."""
    ctx = click.get_current_context(silent=True)
    return ctx.command_path if ctx is not None else "drunter"


def pool_size(requested: int, tasks: int) -> int:
    """How many worker processes ``--jobs requested`` starts for ``tasks`` pieces of
    work: never more than the tasks, nor than :data:`WORKERS_PER_CORE` per core, so a
    huge ``--jobs`` cannot start a process per unit asked; one where none can be
    started (said in one line)."""
    size = max(1, min(requested, tasks, WORKERS_PER_CORE * cores()))
    if size > 1 and IN_WEBASSEMBLY:
        click.echo(_("{command}: warning: this Python cannot start worker processes (WebAssembly): --jobs {n} "
                     "runs in one process").format(command=command_name(), n=requested), err=True)
        return 1
    return size


def record_paths(args: tuple[str, ...]) -> tuple[list[str], int]:
    """The files named, with directories walked for ``*.dn`` (sorted); other names kept
    as given. A folder that cannot be read while walking is reported on stderr as
    I001 and makes the status (the second value) 2; nothing is skipped in silence."""
    out: list[str] = []
    status = 0
    for a in args:
        if not os.path.isdir(a):
            out.append(a)
            continue
        problems: list[OSError] = []
        found = []
        for folder, _dirs, files in os.walk(a, onerror=problems.append):
            found += [Path(folder, f) for f in files if f.endswith(".dn")]
        for e in problems:
            report_error(fail("I001", _("cannot read this folder: {reason}; its records are not checked").format(
                reason=os_reason(e)), path=str(e.filename or a)))
            status = 2
        if not found and not problems:
            click.echo(printable(_("{path}: warning: no *.dn files in this directory").format(path=a)), err=True)
        out.extend(str(f) for f in sorted(found))
    if not out and not status:
        raise click.UsageError(_("no record files to work on"))
    return out, status


def report_error(e: DnError, path: str | None = None, line: str | None = None) -> None:
    """Print a DnError as its one line (plus the caret context for syntax errors) on stderr."""
    click.echo(line or e.format(path), err=True)
    caret = e.diagnostic.caret()
    if caret:
        click.echo(caret, err=True)
