"""The games of ``drunter play`` on the server: one DN file per game in a folder
(:class:`FileStorage`), the moves not yet in it in a journal beside it
(:mod:`.journal`), and the threads that keep them: a lock per table, and a compactor
that writes a quiet journal into its record. The games' logic is the table core's
(:mod:`drunter_notation.table.store`).
"""
from __future__ import annotations

import contextlib
import json
import os
import secrets
import threading
from collections.abc import Hashable
from pathlib import Path

from drunter_notation.errors import DnError, fail
from drunter_notation.files import FILE, RECORD, Kind, read_record, read_regular, write_atomic
from drunter_notation.i18n import N_, _
from drunter_notation.table.seats import KEY_FILE
from drunter_notation.table.store import JOURNAL_LIMIT, NAME, QUIET, JSONObject, Refused, Tables, apply
from drunter_notation.web.journal import SUFFIX, Journal, pending

__all__ = ["JOURNAL_LIMIT", "FileStorage", "Store", "apply"]  # what the server's callers and tests take from here

KEY = Kind("I001", 1024, N_("no such file"), None, N_("is a directory, not the seat key"), None,
           N_("is {what}, not the seat key; nothing was read"))


class FileStorage:
    """The table core's storage in a folder: ``NAME.dn`` (written atomically and durably),
    ``NAME.cards.json`` (a base game's cards known early), ``NAME.dn.journal``, the seat
    key ``.drunter-seats.key`` and a game's seat salt ``.NAME.salt``; a link out of the
    folder is neither read nor written (403)."""

    def __init__(self, root: str | Path):
        self.root = Path(root).resolve()
        self._journals: dict[str, Journal] = {}
        self._key_lock = threading.Lock()
        self._salts: dict[str, str] = {}  # read once: every seat request asks for its game's

    def names(self) -> list[str]:
        return sorted(p.stem for p in self.root.glob("*.dn") if NAME.fullmatch(p.stem))

    def boards(self) -> list[str]:
        return sorted(p.relative_to(self.root).as_posix() for p in self.root.rglob("*.toml")
                      if not any(part.startswith(".") for part in p.relative_to(self.root).parts) and self.inside(p))

    def inside(self, path: Path) -> bool:
        """Whether ``path``, its links followed, stays in the games folder (a link out is never followed)."""
        return Path(os.path.realpath(path)).is_relative_to(self.root)

    def _guard(self, path: Path) -> Path:
        if not self.inside(path):
            raise Refused(403, _("{file} is a link to a place outside the games folder; it is neither read nor "
                                 "written (copy the file into the folder to play it)").format(file=path.name))
        return path

    def _record(self, name: str) -> Path:
        return self.root / f"{name}.dn"

    def _cards(self, name: str) -> Path:
        return self.root / f"{name}.cards.json"

    def _salt(self, name: str) -> Path:
        return self.root / f".{name}.salt"

    def _journal(self, name: str) -> Journal:
        if name not in self._journals:  # an open journal is written through its descriptor: checked when opened
            self._journals[name] = Journal(self._guard(self.root / f"{name}.dn{SUFFIX}"))
        return self._journals[name]

    def exists(self, name: str) -> bool:
        return os.path.lexists(self._record(name))

    def stamp(self, name: str) -> Hashable | None:
        try:
            st = self._guard(self._record(name)).stat()
        except FileNotFoundError:
            return None
        return st.st_mtime_ns, st.st_size

    def read(self, name: str) -> str:
        return read_record(self._record(name)).decode("utf-8", errors="replace")

    def cards(self, name: str) -> object:
        path = self._cards(name)
        if not os.path.lexists(path):
            return None
        return json.loads(read_regular(self._guard(path), RECORD))

    def journaled(self, name: str, base: str) -> list[JSONObject]:
        return pending(self.root / f"{name}.dn{SUFFIX}", base)

    def write(self, name: str, text: str, cards: JSONObject | None = None, salt: str | None = None) -> Hashable:
        path = self._guard(self._record(name))
        made: list[Path] = []
        try:
            if salt is not None:
                salt_path = self._guard(self._salt(name))
                made.append(salt_path)
                write_atomic(salt_path, salt + "\n", durable=True)
            if cards is not None:
                card_path = self._guard(self._cards(name))
                if not os.path.lexists(card_path):
                    made.append(card_path)
                write_atomic(card_path, json.dumps(cards, ensure_ascii=False) + "\n", durable=True)
            if not os.path.lexists(path):
                made.append(path)
            write_atomic(path, text, durable=True)
            st = path.stat()
        except BaseException:  # nothing new stays: a card file made for a game that is not there would mislead
            for each in made:
                with contextlib.suppress(OSError):
                    if os.path.lexists(each) and self.inside(each):
                        os.unlink(each)
            raise
        if salt is not None:
            self._salts[name] = salt
        # after the file: a crash between leaves a journal naming the record before, which is not replayed
        self.clear(name)
        return st.st_mtime_ns, st.st_size

    def append(self, name: str, base: str, op: JSONObject, *, first: bool) -> None:
        self._journal(name).append(base, op, first=first)

    def clear(self, name: str) -> None:
        (self._journals.get(name) or Journal(self.root / f"{name}.dn{SUFFIX}")).clear()

    def replace(self, name: str, text: str) -> None:
        self._copy(name, ".bak")
        write_atomic(self._guard(self._record(name)), text, durable=True)
        self.clear(name)

    def keep_original(self, name: str) -> None:
        self._copy(name, ".orig")

    def _copy(self, name: str, suffix: str) -> None:
        """The record as it is now, beside it as NAME.dn + ``suffix`` (atomically, durably)."""
        path = self._guard(self._record(name))
        copy = self._guard(path.with_name(path.name + suffix))
        write_atomic(copy, read_record(path).decode("utf-8", errors="replace"), durable=True)

    def close(self, name: str, *, remove: bool) -> None:
        journal = self._journals.pop(name, None)
        if journal is not None:
            journal.close(remove=remove)

    def archive(self, name: str) -> str:
        """The record (its cards and backup too) moved to ``archive/`` in the folder, under a
        name no earlier game took there; the emptied journal removed."""
        folder = self._guard(self.root / "archive")
        folder.mkdir(exist_ok=True)
        stem, n = name, 1
        while os.path.lexists(folder / f"{stem}.dn"):
            n += 1
            stem = f"{name}-{n}"
        record = self._guard(self._record(name))
        for suffix in (".cards.json", ".dn.bak", ".dn.orig"):
            each = self.root / f"{name}{suffix}"
            if os.path.lexists(each) and self.inside(each):
                os.replace(each, folder / f"{stem}{suffix}")
        os.replace(record, folder / f"{stem}.dn")  # the record last: till then the game is all there
        self._salts.pop(name, None)
        with contextlib.suppress(OSError):  # the salt goes with the game: its links open nothing any more
            salt = self._salt(name)
            if os.path.lexists(salt) and self.inside(salt):
                os.unlink(salt)
        journal = self.root / f"{name}.dn{SUFFIX}"
        with contextlib.suppress(OSError):
            if os.path.isfile(journal) and not os.path.islink(journal) and not os.path.getsize(journal):
                os.unlink(journal)
        return f"archive/{stem}.dn"

    def salt(self, name: str) -> str:
        if name not in self._salts:
            path = self._salt(name)
            try:  # none, or one that cannot be read (a link out, a directory): the links of the name alone
                text = read_regular(self._guard(path), FILE).decode("ascii").strip() if os.path.lexists(path) else ""
            except (OSError, DnError, Refused, UnicodeDecodeError):
                text = ""
            self._salts[name] = text[:64]
        return self._salts[name]

    def secret(self) -> bytes:
        path = self.root / KEY_FILE
        with self._key_lock:
            try:  # O_EXCL and 0600: a secret, made once, never written over anything
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
            except FileExistsError:
                pass
            else:
                with os.fdopen(fd, "w") as f:
                    f.write(secrets.token_hex(32) + "\n")
            key = read_regular(path, KEY).strip()
        if len(key) < 32:
            raise fail("I001", _("the seat key is shorter than 32 characters: delete it, a new one is made "
                                 "(every seat link changes)"), path=str(path))
        return key


class Store(Tables):
    """The games in ``root`` (``*.dn`` files directly in it; board files anywhere below
    it), each behind a thread lock, with a compactor thread while a journal holds changes."""

    def __init__(self, root: str | Path):
        self.files = FileStorage(root)
        super().__init__(self.files, threading.Lock)
        self._compactor: threading.Thread | None = None
        self._stop = threading.Event()

    def journaled(self) -> None:
        self._start_compactor()

    def _start_compactor(self) -> None:
        with self._lock:
            if self._compactor is None:
                self._compactor = threading.Thread(target=self._compact_quiet, name="drunter-compactor", daemon=True)
                self._compactor.start()

    def _compact_quiet(self) -> None:
        """Write a game's file whole once its journal has been quiet for QUIET seconds;
        ends when no journal holds anything (the next change starts it again)."""
        while not self._stop.wait(QUIET / 2):
            self.compact(quiet=QUIET)
            with self._lock:  # a change journaled after this look starts a new compactor
                if not any(t.pending for t in self._tables.values()):
                    self._compactor = None
                    return

    def close(self) -> None:
        """At shutdown: every journal compacted into its file, and removed."""
        self._stop.set()
        super().close()
