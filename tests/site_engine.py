"""The built browser edition's engine in Node (site/node-run.mjs), for the tests and the benchmark:
the site's own Pyodide files and packages.zip, booted as the pages' worker boots them."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE = "/usr/bin/node"


def site_dir() -> Path | None:
    """The built site named by ``DRUNTER_SITE`` (``bash scripts/site.sh DIR`` writes one), if any."""
    value = os.environ.get("DRUNTER_SITE")
    return Path(value) if value and (Path(value) / "packages.zip").is_file() else None


class NodeEngine:
    """One Node process running the site's engine; :meth:`call` is the worker's call. ``compiled``:
    the engine of a second start, from the modules the first one kept compiled (every module)."""

    def __init__(self, site: Path, compiled: bool = False):
        argv = [NODE, str(ROOT / "site" / "node-run.mjs"), str(site), *(["compiled"] if compiled else [])]
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, encoding="utf-8")
        first = self.proc.stdout.readline()  # type: ignore[union-attr]
        if json.loads(first or "{}").get("ready") is not True:
            raise RuntimeError(f"the site's engine did not start in Node: {first!r}")

    def call(self, call: str, /, **args: object) -> object:
        self.proc.stdin.write(json.dumps({"name": call, "args": args}) + "\n")  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]
        answer = json.loads(self.proc.stdout.readline())  # type: ignore[union-attr]
        if "failed" in answer:
            raise RuntimeError(answer["failed"])
        return answer["value"]

    def python(self, code: str) -> object:
        """``code`` run by the engine's Python; the value of its last line (JSON)."""
        return self.call("python", code=code)

    def close(self) -> None:
        self.proc.stdin.close()  # type: ignore[union-attr]
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self.proc.stdout.close()  # type: ignore[union-attr]


@contextmanager
def serving(site: Path) -> Iterator[tuple[subprocess.Popen, str]]:
    """``python3 -m http.server`` over the site on a free loopback port: the server and its base URL."""
    proc = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory",
                             str(site)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        found = re.search(r"port (\d+)", proc.stdout.readline())  # type: ignore[union-attr]
        assert found, "the static server did not start"
        yield proc, f"http://127.0.0.1:{found[1]}/"
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait(10)
        proc.stdout.close()  # type: ignore[union-attr]
