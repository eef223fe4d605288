"""The journal beside a game's record (``NAME.dn.journal``): every change since the
record was last written, one JSON line each, appended and flushed to the disk (one
fsync) before the change is acknowledged. Rewriting the whole record durably takes
two fsyncs and a rename per move; the store does that only now and then (it
*compacts* the journal into the record, see :mod:`.store`).

The first line names the record the journal continues (a hash of its text): a
journal whose record was rewritten since (compacted, or edited by hand) is stale
and is not replayed. A last line cut short by a crash was never acknowledged and is
dropped.
"""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

from drunter_notation.errors import DnError
from drunter_notation.files import RECORD, NotRegularFile, read_regular
from drunter_notation.table.store import base_of

__all__ = ["SUFFIX", "Journal", "base_of", "pending"]

SUFFIX = ".journal"


class Journal:
    """The journal of one game, open for appending while the server runs."""

    def __init__(self, path: Path):
        self.path = path
        self._fd: int | None = None

    def append(self, base: str, op: dict[str, Any], *, first: bool) -> None:
        """Add ``op`` durably; ``first``: it is the first change since the record named
        ``base`` was written, so the journal starts anew with the header naming it
        (whatever it held is stale). On any failure nothing new stays (OSError raised)."""
        if self._fd is None:
            self._fd = _open(self.path)
        data = json.dumps(op, ensure_ascii=False, separators=(",", ":")) + "\n"
        if first:
            os.ftruncate(self._fd, 0)
            data = json.dumps({"base": base}) + "\n" + data
        size = os.fstat(self._fd).st_size
        try:
            view = memoryview(data.encode("utf-8"))
            while view:
                view = view[os.write(self._fd, view):]
            os.fsync(self._fd)
        except OSError:
            os.ftruncate(self._fd, size)
            raise

    def clear(self) -> None:
        """Empty the journal (its record now holds every change), durably."""
        if self._fd is None:
            if not os.path.isfile(self.path) or os.path.islink(self.path) or not os.path.getsize(self.path):
                return  # nothing to empty (a link is never followed)
            self._fd = _open(self.path)
        os.ftruncate(self._fd, 0)
        os.fsync(self._fd)

    def close(self, *, remove: bool = False) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        if remove and os.path.lexists(self.path) and os.path.isfile(self.path) \
                and not os.path.islink(self.path) and os.path.getsize(self.path) == 0:
            os.unlink(self.path)


def pending(path: Path, base: str) -> list[dict[str, Any]]:
    """The changes the journal at ``path`` holds on top of the record named ``base``
    (none when there is no journal, or it continues another record)."""
    if not os.path.lexists(path) or os.path.islink(path):
        return []
    try:
        lines = read_regular(path, RECORD).decode("utf-8", errors="replace").split("\n")
    except DnError:  # an unreadable journal holds nothing to replay
        return []
    ops = []
    for i, line in enumerate(lines[:-1]):  # the text after the last newline was never acknowledged
        try:
            entry = json.loads(line)
        except ValueError:
            break
        if not isinstance(entry, dict):
            break
        if i == 0:
            if entry.get("base") != base:
                return []
            continue
        ops.append(entry)
    return ops


def _open(path: Path) -> int:
    """The journal opened for appending: never through a link, never anything but a regular file."""
    existed = os.path.lexists(path)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise NotRegularFile(0, "is not a regular file, so it was not written", str(path))
    if not existed:  # the new name lives in the folder: flush it once
        folder = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)
    return fd
