"""The browser edition's second start, made fast (docs/browser.md): the modules a page's
engine has imported, compiled to bytecode once, after its first start, so that the next
start loads them instead of compiling their sources again.

Pyodide writes no bytecode (a page's files vanish with it), so every start compiled the
standard library's and the packages' sources anew. :class:`Compiler` makes the two zips
a later start loads in their place: the standard library's zip and the packages' zip, each
with its imported modules as bytecode and everything else as it was. The page's worker
compiles a few modules at a time between calls and keeps the zips in the browser, under a
key of the site's files (site/pages/worker.js).
"""
from __future__ import annotations

import io
import marshal
import os
import sys
import zipfile
from importlib.util import MAGIC_NUMBER

CHUNK = 5  # modules compiled per step: a step takes some tens of milliseconds, a call waits no longer


def _pyc(source: bytes, shown: str) -> bytes:
    """``source`` compiled, as a .pyc file that needs no source beside it (PEP 552's header:
    no hash, the source's size; a start that finds no source never checks either)."""
    code = compile(source, shown, "exec", dont_inherit=True)
    return MAGIC_NUMBER + bytes(8) + (len(source) & 0xFFFFFFFF).to_bytes(4, "little") + marshal.dumps(code)


def _imported(prefix: str) -> set[str]:
    """The files under ``prefix`` of every module imported so far, relative to it."""
    found = set()
    for module in list(sys.modules.values()):
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.startswith(prefix) and path.endswith(".py"):
            found.add(path[len(prefix):])
    return found


class Compiler:
    """Compiles, step by step, the imported modules of the standard library's zip
    (the one on ``sys.path``) and of the packages unpacked in ``folder``."""

    def __init__(self, folder: str) -> None:
        self.stdlib = zipfile.ZipFile(next(p for p in sys.path if p.endswith(".zip")))
        self.folder = folder + "/"
        self.packages = sorted(os.path.relpath(os.path.join(d, f), folder)
                               for d, _, files in os.walk(folder) for f in files)
        stdlib = str(self.stdlib.filename) + "/"
        self.todo = [(stdlib, name) for name in sorted(_imported(stdlib)) if name in self.stdlib.NameToInfo]
        self.todo += [(self.folder, name) for name in sorted(_imported(self.folder))]
        self.done: dict[str, bytes] = {}  # the path of each compiled module's source -> its .pyc

    def step(self) -> bool:
        """Compile the next :data:`CHUNK` modules; True when none is left."""
        for where, name in self.todo[:CHUNK]:
            source = self.stdlib.read(name) if where != self.folder else self._read(name)
            self.done[where + name] = _pyc(source, where + name)
        del self.todo[:CHUNK]
        return not self.todo

    def zips(self) -> tuple[bytes, bytes]:
        """The standard library's zip and the packages' zip, each compiled module as its
        ``.pyc`` in the place of its ``.py``."""
        stdlib = str(self.stdlib.filename) + "/"
        return (self._zip(stdlib, [(i.filename, i) for i in self.stdlib.infolist()]),
                self._zip(self.folder, [(name, None) for name in self.packages]))

    def _read(self, name: str) -> bytes:
        with open(self.folder + name, "rb") as f:
            return f.read()

    def _zip(self, where: str, entries: list[tuple[str, zipfile.ZipInfo | None]]) -> bytes:
        out = io.BytesIO()
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:  # it stays in the browser
            for name, info in entries:
                compiled = self.done.get(where + name)
                if compiled is not None:
                    z.writestr(name + "c", compiled)
                elif info is not None:
                    z.writestr(info, self.stdlib.read(info))
                else:
                    z.writestr(name, self._read(name))
        return out.getvalue()
