"""Shared by the tests: no hypothesis deadline, and for the play tests a real server in a subprocess on a
free loopback port."""
from __future__ import annotations

import os
import re
import select
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent
# Tests never time things: no hypothesis deadline (a busy machine made it flake).
settings.register_profile("drunter", deadline=None)
settings.load_profile("drunter")

RUN_CLI = "import sys; from drunter_notation.cli import main; sys.argv[0] = 'drunter'; main()"


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


@pytest.fixture
def play_server():
    return running_play
