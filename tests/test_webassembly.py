"""Where no process can be started (Python on WebAssembly, as in the browser edition),
--jobs and --dask say so in one line and the work runs in this process, with the
output it has anywhere else."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from drunter_notation.cli import cli, cluster, common


@pytest.fixture
def webassembly(monkeypatch):
    monkeypatch.setattr(common, "IN_WEBASSEMBLY", True)
    monkeypatch.setattr(cluster, "IN_WEBASSEMBLY", True)


@pytest.mark.parametrize("args, alone, line", [
    (["validate", "-j", "4", "replays/"], ["validate", "-j", "1", "replays/"],
     "drunter validate: warning: this Python cannot start worker processes (WebAssembly): --jobs 4 runs in one process"),
    (["validate", "--dask", "tcp://127.0.0.1:9", "replays/"], ["validate", "-j", "1", "replays/"],
     "drunter validate: warning: this Python cannot reach a Dask cluster (WebAssembly): --dask tcp://127.0.0.1:9 "
     "runs in this process"),
    (["tournament", "--games", "4", "--jobs", "2"], ["tournament", "--games", "4"],
     "drunter tournament: warning: this Python cannot start worker processes (WebAssembly): --jobs 2 runs in one "
     "process"),
])
def test_one_line_then_the_same_output_in_one_process(webassembly, args, alone, line):
    said = CliRunner().invoke(cli, args, prog_name="drunter")
    one = CliRunner().invoke(cli, alone, prog_name="drunter")
    assert said.stderr.splitlines().count(line) == 1
    assert said.stdout == one.stdout and said.exit_code == one.exit_code
    assert said.stderr.replace(line + "\n", "") == one.stderr
