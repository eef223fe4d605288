"""Shared by the tests: no hypothesis deadline; for the play tests a real server in a subprocess on a
free loopback port; for the browser tests one Chromium per test process."""
from __future__ import annotations

import importlib.util
import os
import re
import select
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import settings

from drunter_notation.rules import placement

ROOT = Path(__file__).resolve().parent.parent
# The expected outputs are English unless a test asks for a language: the machine's own
# locale must not change them (a test of the environment's choice sets its own variables).
for _name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
    os.environ.pop(_name, None)
# Bytecode is written as the tests import, whatever the environment says: with PYTHONDONTWRITEBYTECODE every
# command a test starts would compile every module it loads again.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False
# Tests never time things: no hypothesis deadline (a busy machine made it flake).
settings.register_profile("drunter", deadline=None)
settings.load_profile("drunter")

# The rules engine as built by mypyc (setup.py, DRUNTER_COMPILE=1): its modules call one another
# directly, so a monkeypatch of one cannot reach the others.
COMPILED = not placement.__file__.endswith(".py")
RUN_CLI = "import sys; from drunter_notation.cli import main; sys.argv[0] = 'drunter'; main()"
# Debian's headless shell (the build Playwright itself runs headless) draws the same pages with half the CPU of the
# full browser; DRUNTER_CHROMIUM names another (CI's long pass runs the full /usr/bin/chromium)
CHROMIUM = os.environ.get("DRUNTER_CHROMIUM") or next(
    (b for b in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium") if os.access(b, os.X_OK)), "/usr/bin/chromium")
# As root the sandbox must be off; without the networking flags Chromium keeps trying to reach hosts it cannot.
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = ROOT / "test-artifacts"  # the browser tests' screenshots


# CI's long pass (.ci/run sets DRUNTER_LONG_TESTS=1) runs every test at full size; the README's three-minute
# test command leaves out the tests marked LONG (the longest proofs, the other sizes and languages of the pages
# checked at a phone's) and draws a quarter of the examples (`examples`)
LONG_RUN = bool(os.environ.get("DRUNTER_LONG_TESTS"))
LONG = pytest.mark.long


def pytest_collection_modifyitems(config, items):
    if not LONG_RUN:
        skip = pytest.mark.skip(reason="CI's long pass: DRUNTER_LONG_TESTS=1")
        for item in items:
            if item.get_closest_marker("long"):
                item.add_marker(skip)


def examples(n: int) -> int:
    """A property test's number of examples: ``n`` in CI's long pass, a quarter of it (at least 10) in the
    README's test command."""
    return n if LONG_RUN else max(10, n // 4)


def drunter_here(*args: str, cwd: Path = ROOT, merged: bool = False,
                 env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``drunter ARGS`` run in this test's process as a shell starts it from ``cwd``: standard input
    empty, stdout and stderr pipes (one pipe for both if ``merged``, as ``2>&1``), no language in the
    environment unless ``env`` sets one (``--lang`` is read before click parses, as ever). A process
    of its own costs each call 0.15 to 0.3 s of start-up; the language checks make some hundred calls.
    The tests that need a real process (signals, limits, a closed stream) start one."""
    import gc
    import io
    from unittest import mock

    from drunter_notation import i18n
    from drunter_notation.cli import main
    from drunter_notation.cli.language import forget_warnings

    def stream(buffer: io.BytesIO) -> io.TextIOWrapper:
        return io.TextIOWrapper(buffer, encoding="utf-8", errors="strict", newline="\n", write_through=True)

    out = io.BytesIO()
    err = out if merged else io.BytesIO()
    saved = sys.argv, sys.stdin, sys.stdout, sys.stderr, os.getcwd(), gc.get_threshold()
    forget_warnings()
    sys.argv = ["drunter", *args]
    streams = stream(io.BytesIO()), stream(out), stream(err)  # held here: a wrapper let go closes its buffer
    sys.stdin, sys.stdout, sys.stderr = streams
    status = 0
    try:
        os.chdir(cwd)
        with i18n.as_a_process(), mock.patch.dict(os.environ, env or {}):
            try:
                main()
            except SystemExit as e:
                status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        texts = [buffer.getvalue().decode("utf-8", "replace") for buffer in (out, err)]
        if merged:
            texts[1] = ""
    finally:
        sys.argv, sys.stdin, sys.stdout, sys.stderr = saved[:4]
        os.chdir(saved[4])
        gc.unfreeze()  # main() freezes what it loaded and tunes the collector for a short process
        gc.set_threshold(*saved[5])
        gc.enable()
    return subprocess.CompletedProcess(["drunter", *args], status, *texts)


def wait(check, what: str, tries: int = 1500):
    """Poll ``check`` until it gives something true (bounded; no time is asserted)."""
    import time

    for _ in range(tries):
        got = check()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError(f"never happened: {what}")


def run_async(coroutine):
    """``asyncio.run(coroutine)`` on a thread of its own: a browser test earlier in this
    xdist worker may still hold the main thread's event loop (Playwright's sync API)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def load_bench(name: str):
    """``bench/NAME.py`` as a module (the benchmarks are scripts, not a package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "bench" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@contextmanager
def running_play(directory: Path, *options: str):
    """``drunter play DIRECTORY --port 0 --no-browser`` in a subprocess; yields
    (process, base URL) once it listens, and stops it afterwards."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-c", RUN_CLI, "play", str(directory), "--port", "0", "--no-browser",
                             *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        line = proc.stdout.readline() if ready else ""
        found = re.search(r"(http://\S+?/)(\?token=\S+)?$", line.strip())
        assert found, f"drunter play did not start: {line!r} {proc.stderr.read() if proc.poll() is not None else ''}"
        yield proc, found[1], (found[2] or "")[len("?token="):] or None
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()


def start_game(page, name: str, players=("Anna", "Ben"), board: str = "tiny.toml", deal: str = "random") -> None:
    """A new game started from the host page's form, as a person fills it; returns once its board is drawn."""
    page.fill("#ng-name", name)
    for i, player in enumerate(players):
        page.locator(".ng-player").nth(i).fill(player)
    page.select_option("#ng-board", board)
    page.check(f"input[name=deal][value={deal}]")
    page.click("#ng-start")
    page.wait_for_selector("#board rect.hit")


@pytest.fixture
def play_server():
    return running_play


@pytest.fixture(scope="session")
def playwright_api():
    """Playwright's sync API; the test is skipped only where the browser or the package is missing."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"no browser: {CHROMIUM} is missing (as root: bash scripts/system-packages.sh --test)")
    return pytest.importorskip("playwright.sync_api", reason="the Python package playwright is not installed")


@pytest.fixture(scope="session")
def chromium(playwright_api):
    """One Chromium for every browser test of this process (a launch costs about a second)."""
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        yield b
        b.close()


@pytest.fixture
def browser(chromium):
    """The shared Chromium; every page and context a test opened is closed after it, so no page of
    one test (its scripts, its event streams) runs on into the next."""
    yield chromium
    for context in chromium.contexts:
        context.close()


@pytest.fixture(scope="session")
def expect(playwright_api):
    """Playwright's expect(): it waits for a condition (the pages' CSP forbids wait_for_function), here up
    to 15 s like the pages' own default, not 5: a busy machine is slow, not wrong."""
    playwright_api.expect.set_options(timeout=15_000)
    return playwright_api.expect
