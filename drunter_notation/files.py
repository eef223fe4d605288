"""Writing files so that a reader never sees half of one: the CLI's outputs and the
live game files of ``drunter play`` both go through :func:`write_atomic`."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: str | Path, text: str, durable: bool = False) -> None:
    """Replace ``path`` with ``text`` via a temp file in the same folder and a rename,
    so the old file stays whole until the new one is complete. ``durable``: also
    flush the file and the folder to the disk before returning (a power cut then
    keeps the new text; a killed process keeps it either way)."""
    path = Path(path)
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
