"""Reading and writing files safely.

Reading: every file the project reads -- records, board files -- comes through
:func:`read_regular`: it opens without blocking (a FIFO cannot hang the command),
refuses anything that is not a regular file (devices such as ``/dev/zero``, FIFOs,
sockets, directories) before reading a byte, reads at most a fixed size, and turns
every OS failure (missing, permission, name too long, a file that vanishes) into
one :class:`~drunter_notation.errors.DnError` with the caller's code.

Writing: the CLI's outputs and the live game files of ``drunter play`` go through
:func:`write_atomic`, so a reader never sees half of a file, and nothing that is not a
regular file (a device such as ``/dev/full``, a FIFO, a directory) is ever replaced.

Standard input is read through :func:`read_stream`, with the same size cap as a file.
"""
from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, NamedTuple

from drunter_notation.errors import DnError, fail
from drunter_notation.i18n import N_, _, language, ngettext

MAX_RECORD_BYTES = 16 * 1024 * 1024  # a 200,000-turn record is about 5 MB
MAX_BOARD_BYTES = 1024 * 1024  # a 26x99 board with every square named is far below this


@dataclass(frozen=True)
class Kind:
    """What is read, for the words of its errors (English, marked with ``N_``,
    translated when an error is made: whole sentences, since the noun's gender
    changes the words around it)."""

    code: str  # I001 for a record, H003 for a board file
    limit: int  # bytes
    missing: str  # the words for a file that does not exist
    missing_hint: str | None
    directory: str  # "is a directory, not a DN record"
    directory_hint: str | None
    special: str  # "is {what}, not a DN record; nothing was read"


RECORD = Kind("I001", MAX_RECORD_BYTES, N_("no such file"), N_("check the path"),
              N_("is a directory, not a DN record"), N_("name a .dn file, or use a command that walks directories"),
              N_("is {what}, not a DN record; nothing was read"))
# any other file read (an analysis, the report manifest): worded without naming what it should be
FILE = Kind("I001", MAX_RECORD_BYTES, N_("no such file"), N_("check the path"),
            N_("is a directory, not a regular file"), None, N_("is {what}, not a regular file; nothing was read"))
BOARD = Kind("H003", MAX_BOARD_BYTES, N_("file not found"), None, N_("is a directory, not a board file"), None,
             N_("is {what}, not a board file; nothing was read"))

_SPECIAL = ((stat.S_ISFIFO, N_("a FIFO (named pipe)")), (stat.S_ISSOCK, N_("a socket")),
            (stat.S_ISCHR, N_("a character device")), (stat.S_ISBLK, N_("a block device")))


def _special(mode: int) -> str:
    """What a file that is neither regular nor a directory is, in words."""
    return _(next((name for test, name in _SPECIAL if test(mode)), N_("not a regular file")))


def read_regular(path: str | Path, kind: Kind, label: str | None = None, missing: str | None = None) -> bytes:
    """The bytes of the regular file ``path``; anything else is ``DnError`` ``kind.code``,
    its message started by ``label`` if given (``missing``: other words for a file
    that does not exist)."""

    def refuse(problem: str, hint: str | None = None) -> DnError:
        return fail(kind.code, f"{label}: {problem}" if label else problem, path=str(path), hint=hint)

    def hint(text: str | None) -> str | None:
        return _(text) if text else None

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise refuse(missing or _(kind.missing), hint(kind.missing_hint)) from None
    except IsADirectoryError:
        raise refuse(_(kind.directory), hint(kind.directory_hint)) from None
    except PermissionError:
        raise refuse(_("cannot be read: permission denied")) from None
    except (OSError, ValueError) as e:  # name too long, a loop of links, a NUL in the name ...
        raise refuse(_cannot_read(e)) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise refuse(_(kind.directory), hint(kind.directory_hint))
        if not stat.S_ISREG(info.st_mode):
            raise refuse(_(kind.special).format(what=_special(info.st_mode)), _("give a regular file"))
        if info.st_size > kind.limit:
            raise refuse(_("is too large ({size}; at most {limit} is read)").format(size=_size(info.st_size),
                                                                                   limit=_size(kind.limit)))
        chunks: list[bytes] = []
        total = 0
        while True:  # the size may have changed since fstat: stop at the limit whatever it says
            chunk = os.read(fd, min(1 << 20, kind.limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > kind.limit:
                raise refuse(_("is too large (more than {limit})").format(limit=_size(kind.limit)))
        return b"".join(chunks)
    except OSError as e:
        raise refuse(_cannot_read(e)) from None
    finally:
        os.close(fd)


def read_stream(stream: BinaryIO | None, kind: Kind, label: str) -> bytes:
    """At most ``kind.limit`` bytes of a binary stream (standard input), read in
    chunks; more is ``DnError`` ``kind.code`` as soon as the limit is passed, so an
    endless stream (``< /dev/zero``) costs no more than the limit. None -- Python
    has no ``sys.stdin`` when the command was started with it closed (``<&-``) --
    is ``DnError`` ``kind.code`` too."""
    chunks: list[bytes] = []
    total = 0
    try:
        if stream is None:
            raise OSError(errno.EBADF, os.strerror(errno.EBADF))
        while total <= kind.limit:
            chunk = stream.read(min(1 << 20, kind.limit + 1 - total))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            total += len(chunk)
    except OSError as e:
        raise fail(kind.code, _cannot_read(e), path=label) from None
    raise fail(kind.code, _("is too large (more than {limit}); nothing was judged").format(limit=_size(kind.limit)),
               path=label, hint=_("give the record as a file of at most that size"))


def read_record(path: str | Path) -> bytes:
    """The bytes of a record file, read once; a DnError I001 when it cannot be."""
    return read_regular(path, RECORD)


def _cannot_read(e: BaseException) -> str:
    return _("cannot be read: {reason}").format(reason=os_reason(e))


# The system's reasons a user meets, in the user's language (the C library words them in English only).
_OS_REASONS = {
    errno.ENOENT: N_("there is no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("the operation is not permitted"),
    errno.EEXIST: N_("something of that name is there already"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.ENOSPC: N_("no space is left on the device"),
    errno.EDQUOT: N_("the disk quota is used up"),
    errno.EROFS: N_("the file system is read-only"),
    errno.ELOOP: N_("too many symbolic links"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.EBADF: N_("the file descriptor is not open"),
    errno.EMFILE: N_("too many files are open"),
    errno.EIO: N_("an input/output error"),
    errno.EPIPE: N_("the program reading it has stopped reading"),
    errno.EBUSY: N_("the device or file is busy"),
    errno.EXDEV: N_("it is on another file system"),
    errno.EADDRINUSE: N_("the address is in use"),
    errno.EADDRNOTAVAIL: N_("the address is not one of this machine's"),
    errno.ECONNREFUSED: N_("the connection was refused"),
    errno.ECONNRESET: N_("the connection was reset"),
    errno.ETIMEDOUT: N_("the connection timed out"),
    errno.EHOSTUNREACH: N_("the host cannot be reached"),
    errno.ENETUNREACH: N_("the network cannot be reached"),
}


def os_reason(e: BaseException) -> str:
    """Why the system refused ``e``'s call, in the user's language; a rare error in the C
    library's own words, and a :class:`NotRegularFile` in the product's."""
    number = getattr(e, "errno", None)
    if number in _OS_REASONS and not isinstance(e, NotRegularFile):
        return _(_OS_REASONS[number])
    return getattr(e, "strerror", None) or str(e) or type(e).__name__


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        from babel.numbers import format_decimal  # only on this error's path

        # no grouping of thousands, as ever; the decimal sign is the language's (16,0 MB)
        return _("{size} MB").format(size=format_decimal(n / (1024 * 1024), format="0.0", locale=language()))
    return ngettext("{n} byte", "{n} bytes", n).format(n=n)


class Fingerprint(NamedTuple):
    """What identifies a file's content: two equal ones mean it was not replaced or written in between."""

    device: int
    inode: int
    size: int
    mtime_ns: int
    ctime_ns: int


def fingerprint(path: str | Path) -> Fingerprint | None:
    """What identifies the content of ``path`` now (device, inode, size, change time
    in ns), or None when it cannot be stat'ed: two equal fingerprints mean the file
    was not replaced or written in between."""
    try:
        s = os.stat(path)
    except (OSError, ValueError):
        return None
    return Fingerprint(s.st_dev, s.st_ino, s.st_size, s.st_mtime_ns, s.st_ctime_ns)


class NotRegularFile(OSError):
    """The target of a write exists and is not a regular file: it was left alone."""


def _refuse_special(path: Path, links: bool = True) -> None:
    """Raise :class:`NotRegularFile` when ``path`` (links already followed) exists
    and is not a regular file; ``links=False``: a symlink there is refused too."""
    try:
        mode = (os.stat if links else os.lstat)(path).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISREG(mode):
        return
    what = _("a directory") if stat.S_ISDIR(mode) else _("a symbolic link") if stat.S_ISLNK(mode) else _special(mode)
    raise NotRegularFile(errno.EEXIST, _("it is {what}, not a regular file; nothing was written, it is left as it"
                                         " is").format(what=what), str(path))


def check_target(path: str | Path, *, links: bool = True) -> Path:
    """The path :func:`write_atomic` writes for ``path`` (a symlink followed unless
    ``links=False``); :class:`NotRegularFile` when what is there may not be replaced,
    so a command can refuse an output before it does any work."""
    if links:
        target = Path(os.path.realpath(path))
    else:  # the folder's links are followed either way: only the last component may be refused as a link
        absolute = os.path.abspath(path)
        target = Path(os.path.realpath(os.path.dirname(absolute)), os.path.basename(absolute))
    _refuse_special(target, links)
    return target


class FileChanged(Exception):
    """The file is no longer what the command read: it was not replaced."""


@dataclass(frozen=True)
class Snapshot:
    """A file's bytes as one read, and its fingerprint from just before that read."""

    data: bytes
    fingerprint: Fingerprint | None


def read_snapshot(path: str | Path) -> Snapshot:
    """Read a record file once (I001 on any problem), remembering what it was."""
    before = fingerprint(path)
    return Snapshot(read_record(path), before)


def write_atomic(path: str | Path, text: str, *, durable: bool = False, replaces: Snapshot | None = None,
                 links: bool = True) -> None:
    """Replace ``path`` with ``text`` via a temp file in the same folder and a rename,
    so the old file stays whole until the new one is complete. ``durable``: also
    flush the file and the folder to the disk before returning (a power cut then
    keeps the new text; a killed process keeps it either way).

    A symlink is followed: its target is rewritten and the link stays; with
    ``links=False`` a symlink at ``path`` is refused like a device
    (:class:`NotRegularFile`), so a link can never redirect the write. A target that
    exists and is not a regular file (a device, a FIFO, a socket, a directory) is
    never replaced: :class:`NotRegularFile` (an ``OSError``), checked before the temp
    file is made and again just before the rename. With
    ``replaces``, the file must still be exactly what was read (same fingerprint, same
    bytes) just before the rename, else :class:`FileChanged` and nothing is replaced:
    a save made meanwhile (an editor's) is never overwritten. The temp file is removed
    on any failure, SIGINT and SIGTERM included (the CLI turns SIGTERM into an exit
    that unwinds). Anything at ``path`` that is not a regular file (a folder, FIFO,
    device, socket) is never replaced: :class:`NotRegularFile`."""
    path = check_target(path, links=links)
    import tempfile  # here: the commands that only read (validate) do not load it

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        else:  # mkstemp makes 0600; a new file gets the usual umask-based mode
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        if replaces is not None and not _still(path, replaces):
            raise FileChanged(str(path))
        _refuse_special(path, links)  # again: a FIFO, folder or link may have been put there meanwhile
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    if durable:  # the rename itself lives in the folder
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def _still(path: Path, snapshot: Snapshot) -> bool:
    """Is ``path`` still the file of ``snapshot``? (A compare, not a second reading.)"""
    if fingerprint(path) != snapshot.fingerprint:
        return False
    try:
        return read_record(path) == snapshot.data
    except DnError:
        return False
