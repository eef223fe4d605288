"""Hardening, second round: every size, count and worker pool bounded where it is
read, analyze's output escaped, writes that never replace a special file, and the
small things a newcomer hits (commands through the real CLI, as a user runs them).
"""
from __future__ import annotations

import json
import os
import re
import resource
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from drunter_notation.cli import cli
from drunter_notation.errors import printable
from drunter_notation.files import write_atomic

ROOT = Path(__file__).resolve().parents[1]
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
NASTY = "Ev\x1b[31mil\x07\u202eX\u2028Y"  # ESC, BEL, a bidi override and a line separator in one name
ESCAPE_CUT = re.compile(r"\\(?:x(?![0-9a-f]{2})|u(?![0-9a-f]{4}))")


def _small_memory():  # the command under test may not take more than 1.5 GB (main took 3.7 GB)
    resource.setrlimit(resource.RLIMIT_AS, (1536 * 1024 * 1024, 1536 * 1024 * 1024))


def drunter(*args, stdin=subprocess.DEVNULL, timeout=120):
    """Run the CLI in a subprocess with a memory cap; (exit status, stdout, stderr)."""
    done = subprocess.run([sys.executable, "-c", "from drunter_notation.cli import main; main()", *map(str, args)],
                          stdin=stdin, capture_output=True, timeout=timeout, preexec_fn=_small_memory,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT)
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def one_line(err: str, code: str) -> str:
    assert "Traceback" not in err
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and (f"error[{code}]" in lines[0] or code == "usage"), err
    return lines[0]


# -- sizes and counts ------------------------------------------------------------

def test_standard_input_has_the_size_cap_of_a_file():
    with open("/dev/zero", "rb") as zero:
        status, out, err = drunter("validate", "-", stdin=zero)
    assert status == 2 and out == ""
    assert "too large" in one_line(err, "I001") and err.startswith("<stdin>")


def test_closed_standard_input_is_one_i001_line():
    # `drunter validate - <&-`: Python starts with sys.stdin None
    done = subprocess.run([sys.executable, "-m", "drunter_notation.cli", "validate", "-"], capture_output=True,
                          text=True, timeout=120, preexec_fn=lambda: os.close(0), cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2 and done.stdout == ""
    assert one_line(done.stderr, "I001") == "<stdin>: error[I001]: cannot be read: the file descriptor is not open"


@pytest.mark.parametrize("closed, command", [(1, ["rules", "list"]), (1, ["--help"]), (1, ["validate", "replays/"]),
                                             (2, ["validate", "nosuch.dn"]), (2, ["rules", "show", "nope"])])
def test_closed_standard_output_or_error_is_one_line_or_none_and_status_2(closed, command):
    """`drunter ... >&-` or `2>&-`: Python starts with sys.stdout or sys.stderr None."""
    done = subprocess.run([sys.executable, "-m", "drunter_notation.cli", "--lang", "de", *command],
                          capture_output=True, text=True, timeout=120, preexec_fn=lambda: os.close(closed), cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 2 and "Traceback" not in done.stderr + done.stdout
    if closed == 1:
        assert done.stderr.splitlines() == ["drunter: Fehler[I005]: die Ausgabe lässt sich nicht schreiben: der "
                                            "Dateideskriptor ist nicht geöffnet; prüfe den Datenträger oder das "
                                            "Programm, das die Ausgabe liest"]
    else:
        assert done.stderr == ""


def test_a_closed_pipe_is_said_in_the_language():
    reader = subprocess.Popen(["head", "-c", "1"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    done = subprocess.run([sys.executable, "-m", "drunter_notation.cli", "--lang", "cs", "validate", "replays/"],
                          stdout=reader.stdin, stderr=subprocess.PIPE, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    reader.stdin.close()
    reader.wait()
    assert done.returncode == 2 and "Broken pipe" not in done.stderr
    assert done.stderr.splitlines() == ["drunter: chyba[I005]: výstup nelze zapsat: program, který ho čte, přestal "
                                        "číst; zkontrolujte disk nebo program, který výstup čte"]


@pytest.mark.parametrize("command", [["adjudicate", "{}", "--turn", "1"], ["analyze", "{}", "--playouts", "0"]])
def test_a_line_feed_in_a_file_name_is_escaped_in_the_text(tmp_path, command):
    record = tmp_path / "a\nb.dn"
    record.write_bytes((ROOT / "replays" / "legal-2p.dn").read_bytes())
    status, out, err = drunter(*[str(record) if a == "{}" else a for a in command])
    assert status == 0, err
    assert "a\\x0ab.dn" in out.splitlines()[0] and not any(line == str(tmp_path / "a") for line in out.splitlines())


def test_standard_input_within_the_cap_is_judged(tmp_path):
    record = tmp_path / "r.dn"
    record.write_bytes((ROOT / "replays" / "legal-2p.dn").read_bytes())
    with open(record, "rb") as f:
        status, out, _ = drunter("validate", "-", stdin=f)
    assert status == 0 and out.strip().endswith("(hig-1991, schilda)") and out.startswith("<stdin>")


def test_one_playout_is_refused_as_it_would_give_no_standard_error():
    status, out, err = drunter("analyze", "--playouts", "1", "replays/legal-2p.dn")
    assert status == 2 and out == "" and "at least 2" in one_line(err, "usage")


def test_tournament_games_are_bounded_where_read():
    status, out, err = drunter("tournament", "--games", "1000000000000", timeout=60)
    assert status == 2 and out == ""
    assert "--games" in one_line(err, "usage") and "100000" in err


class _Pool:
    """A stand-in for ProcessPoolExecutor that records the size asked and runs in-process."""

    sizes: list[int] = []

    def __init__(self, max_workers=None, **kw):
        _Pool.sizes.append(max_workers)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def map(self, fn, *iterables, chunksize=1):
        return map(fn, *iterables)

    def shutdown(self, *a, **kw):
        pass


@pytest.mark.parametrize("module, args", [
    ("tournament", ["tournament", "--bots", "greedy,random", "--games", "3"]),
    ("analyze", ["analyze", "--playouts", "2", "--turning-points", "0", "replays/legal-2p.dn"]),
    ("analyze", ["analyze", "--playouts", "0", "replays/legal-2p.dn", "replays/legal-3p.dn"]),
], ids=["tournament", "analyze-one-record", "analyze-records"])
def test_a_huge_jobs_starts_no_more_workers_than_work_or_cores(monkeypatch, module, args):
    monkeypatch.setattr(f"drunter_notation.cli.{module}.ProcessPoolExecutor", _Pool)
    monkeypatch.chdir(ROOT)
    _Pool.sizes = []
    result = CliRunner().invoke(cli, [*args, "--jobs", "1000000000"])
    assert result.exit_code == 0, result.output
    assert _Pool.sizes and all(n <= 4 * len(os.sched_getaffinity(0)) for n in _Pool.sizes), _Pool.sizes


def test_the_pool_size_is_capped_by_the_work_and_the_cores():
    from drunter_notation.cli.common import pool_size
    assert pool_size(10 ** 9, 3) == 3
    assert pool_size(10 ** 9, 10 ** 9) == 4 * len(os.sched_getaffinity(0))
    assert pool_size(1, 100) == 1 and pool_size(8, 0) == 1


@pytest.mark.parametrize("command", [("simulate", "--players", "2"), ("tournament",)])
def test_a_huge_bad_seed_is_echoed_shortened(command):
    status, _, err = drunter(*command, "--seed", "9" * 5000)
    line = one_line(err, "usage")
    assert status == 2 and f"'{'9' * 40}…' is not a valid integer" in line and len(line) < 200


def test_tournament_with_five_bots_is_a_usage_diagnostic_like_simulate():
    status, out, err = drunter("tournament", "--bots", "greedy,greedy,random,cautious,random", "--games", "2")
    assert status == 2 and out == ""
    assert "2 to 4 players" in one_line(err, "U002")


def test_a_box_the_players_cannot_share_is_one_line_before_any_game_as_in_simulate():
    tiny = str(ROOT / "replays" / "boards" / "tiny.toml")
    for command in (("tournament", "--games", "2"), ("simulate", "--seed", "1")):
        status, out, err = drunter(*command, "--players", "3", "--board", tiny)
        assert status == 2 and out == "" and err.startswith(f"{command[0]}: error[D002]: ") and "<input>" not in err


def test_tournament_without_bots_plays_the_documented_default():
    status, out, err = drunter("tournament", "--games", "3")
    assert status == 0, err
    assert out.startswith("3 games, 3 players")
    assert [line.split()[1] for line in out.splitlines()[2:5]] == ["greedy", "cautious", "random"]
    status, out, err = drunter("tournament", "--games", "2", "--players", "4")
    assert status == 0 and [line.split()[1] for line in out.splitlines()[2:6]] == [
        "greedy", "cautious", "random", "greedy"]


# -- analyze: escaped output, early U003, an unreachable scheduler ------------------

@pytest.fixture(scope="module")
def nasty_record(tmp_path_factory) -> Path:
    """A valid game with hands whose first player's name holds control and bidi characters."""
    text = (ROOT / "replays" / "legal-2p.dn").read_text()
    names = re.search(r'\[Players "([^"]+)"\]', text).group(1).split(", ")
    first = names[0]
    text = text.replace(f'[Players "{", ".join(names)}"]', f'[Players "{NASTY}, {", ".join(names[1:])}"]')
    text = re.sub(r'\[Result "[^"]*"\]\n', "", text)
    text = re.sub(rf"\b{first}\b(?=[ :])", f'"{NASTY}"', text)
    path = tmp_path_factory.mktemp("nasty") / "nasty.dn"
    path.write_text(text, encoding="utf-8")
    status, out, err = drunter("validate", path)
    assert status == 0, out + err
    return path


def test_analyze_text_escapes_names_and_never_cuts_an_escape(nasty_record):
    status, out, err = drunter("analyze", "--playouts", "4", "--turning-points", "1", nasty_record)
    assert status == 0, err
    assert all(line.isprintable() for line in out.split("\n")), [c for c in out if not c.isprintable()]
    assert "\\x1b[31mil\\x07\\u202eX" in out
    assert not ESCAPE_CUT.search(out)


def test_analyze_json_escapes_names_and_keeps_the_value(nasty_record):
    status, out, err = drunter("analyze", "--playouts", "0", "--format", "json", nasty_record)
    assert status == 0, err
    assert all(c.isprintable() for c in out.rstrip("\n")), [c for c in out if not c.isprintable()]
    assert json.loads(out)["players"][0] == NASTY


def test_a_file_name_that_is_not_utf8_is_shown_by_analyze_as_validate_shows_it_and_found_again(tmp_path):
    def run(*args: str) -> str:
        return CliRunner().invoke(cli, list(args)).output

    path = str(tmp_path / os.fsdecode(b"g\xff.dn"))
    Path(path).write_bytes((ROOT / "replays" / "legal-2p.dn").read_bytes())
    assert f"{tmp_path}/g\\udcff.dn: valid" in run("validate", path)  # in text, a visible escape
    assert f"{tmp_path}/g\\udcff.dn: 59 turns" in run("analyze", path, "--playouts", "0")
    for command, *more in (("validate",), ("analyze", "--playouts", "0")):  # in JSON, the JSON escape
        line = run(command, path, "--format", "json", *more).splitlines()[0]
        assert "g\\udcff.dn" in line and json.loads(line)["file"] == path, line
    (tmp_path / "an.jsonl").write_text(line + "\n", "utf-8")  # analyze's: report --analysis finds the record by it
    said = run("report", path, "--analysis", str(tmp_path / "an.jsonl"), "-o", str(tmp_path / "g.html"))
    assert "protects" in (tmp_path / "g.html").read_text("utf-8"), said


@given(st.text(max_size=30), st.integers(0, 40))
def test_printable_with_a_limit_cuts_only_between_whole_escapes(text, limit):
    cut = printable(text, limit)
    pieces = [printable(c) for c in text]
    assert len(cut) <= limit and printable(text).startswith(cut)
    assert cut in {"".join(pieces[:k]) for k in range(len(pieces) + 1)}


def test_analyze_says_u003_right_after_the_parse(monkeypatch):
    from drunter_notation.analysis import record as analysis
    from drunter_notation.errors import DnError

    def no_replay(*a, **kw):
        raise AssertionError("the record was replayed before U003")
    monkeypatch.setattr(analysis, "judge", no_replay)
    with pytest.raises(DnError) as caught:
        analysis.analyze_text('[Players "Anna, Ben"]\n1. Anna S2 b1-c1\n2. Ben W1 n1\n', "x.dn")
    assert caught.value.diagnostic.code == "U003"


@pytest.mark.slow
def test_analyze_with_an_unreachable_dask_scheduler_fails_fast_in_one_line():
    status, out, err = drunter("analyze", "--dask", "tcp://127.0.0.1:1", "replays/legal-2p.dn", timeout=25)
    assert status == 2 and out == ""
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in one_line(err, "usage")


# -- writes never replace anything but a regular file -------------------------------

def _no_temp_left(folder: Path) -> None:
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_write_atomic_leaves_a_fifo_alone(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="FIFO .*not a regular file"):
        write_atomic(fifo, "text")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    _no_temp_left(tmp_path)


def test_write_atomic_leaves_a_directory_alone(tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "kept").write_text("x")
    with pytest.raises(OSError, match="a directory, not a regular file"):
        write_atomic(folder, "text")
    assert (folder / "kept").read_text() == "x"
    _no_temp_left(tmp_path)


@pytest.mark.skipif(not AS_ROOT, reason="making a device node needs root")
def test_board_new_force_never_replaces_a_device(tmp_path):
    device = tmp_path / "full"
    os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 7))  # a copy of /dev/full's node
    status, out, err = drunter("board", "new", "x", "--size", "15x15", "-o", device, "--force")
    assert status == 2 and "wrote" not in err
    assert "character device, not a regular file" in one_line(err, "I005")
    assert stat.S_ISCHR(os.lstat(device).st_mode)
    _no_temp_left(tmp_path)


def test_board_new_force_never_replaces_a_fifo_but_follows_a_link_to_a_file(tmp_path):
    fifo = tmp_path / "b.toml"
    os.mkfifo(fifo)
    status, _, err = drunter("board", "new", "x", "--size", "6x6", "-o", fifo, "--force")
    assert status == 2 and "FIFO" in one_line(err, "I005") and stat.S_ISFIFO(os.lstat(fifo).st_mode)
    target, link = tmp_path / "real.toml", tmp_path / "link.toml"
    target.write_text("old\n")
    link.symlink_to(target.name)
    status, _, err = drunter("board", "new", "x", "--size", "6x6", "-o", link, "--force")
    assert status == 0, err
    assert link.is_symlink() and "drunter-board/1" in target.read_text()
    _no_temp_left(tmp_path)


# -- rule decisions ------------------------------------------------------------------

def _validate(path: str) -> list[str]:
    result = CliRunner().invoke(cli, ["validate", str(ROOT / path)])
    return [line for line in result.output.splitlines() if "error[" in line]


def test_a_named_corner_whose_gang_the_tile_touches_the_wrong_way_is_judged_for_that_track():
    [line] = _validate("replays/illegal/A002-wrong-way-at-named-corner.dn")
    assert ":12:1: error[A002]: W2 d1-c1 runs west from d1, but a tile laid there runs south, away from the gang " \
           "on d2 — rule A3" in line
    assert line.endswith("; the wall from f1 takes W2 d1-c1 as written: write @f1")


def test_a_complete_expert_record_without_choose_is_x002():
    [line] = _validate("replays/illegal/X002-choose-never.dn")
    assert ":23:1: error[X002]: 'choose' is missing: the game ended" in line


def test_a_complete_expert_record_without_choose_is_x002_through_the_game_api_too():
    from drunter_notation.errors import DnError
    from drunter_notation.game import Game
    with pytest.raises(DnError) as caught:
        path = ROOT / "replays/illegal/X002-choose-never.dn"
        Game.from_dn(path.read_text(), str(path))
    assert caught.value.diagnostic.code == "X002"


def test_d003_says_the_split_per_kind_is_not_the_booklets():
    [line] = _validate("replays/illegal/D003-box-mismatch.dn")
    assert "rule S1 (HiG 1991, Spielvorbereitung, Abs. 4–6; the booklet gives the tiles per length, not per " \
           "kind: the split per kind is the board file's, for schilda this project's reconstruction)" in line


# -- the Game API: what a player has left ---------------------------------------------

def test_game_says_what_vote_cards_and_tiles_a_player_has_left():
    from drunter_notation import DnError, Game
    g = Game.new(["Anna", "Ben"], seed=7)
    assert g.vote_cards_left("Ben") == {c: 1 for c in ("JA", "JAA", "JAAA", "NE", "NEE", "NEEE", "JEIN", "?")}
    before = g.tiles_left("Anna")
    g.push("S2 b1-c1")
    after = g.tiles_left("Anna")
    assert before["S2"] == 1 and "S2" not in after and sum(before.values()) == sum(after.values()) + 1
    assert Game.new(["Anna", "Ben"]).tiles_left("Anna") is None
    with pytest.raises(DnError):
        g.vote_cards_left("anna")


# -- drunter position, and the position string in adjudicate's JSON ---------------------

def test_position_prints_the_string_the_game_api_makes():
    from drunter_notation import Game
    g = Game.from_dn((ROOT / "replays/legal-2p.dn").read_text())
    status, out, err = drunter("position", "replays/legal-2p.dn")
    assert status == 0 and err == "" and out == g.position() + "\n"
    while g.turn > 3:
        g.pop()
    status, out, _ = drunter("position", "replays/legal-2p.dn", "--turn", "3")
    assert status == 0 and out == g.position() + "\n"
    assert Game.from_position(out.strip()) == g


@pytest.mark.parametrize("args, status, code", [
    (["replays/legal-2p.dn", "--turn", "999"], 2, "U001"),
    (["replays/illegal/A004-overlap.dn"], 1, "A004"),
    (["replays/no-such.dn"], 2, "I001"),
    (["replays/illegal/H003-unknown-board.dn"], 2, "H003"),
], ids=["no-such-turn", "illegal-turn", "missing-file", "unknown-board"])
def test_position_errors_are_one_line_like_every_command(args, status, code):
    got, out, err = drunter("position", *args)
    assert got == status and out == ""
    one_line(err, code)


def test_position_before_an_illegal_turn_is_given():
    status, out, _ = drunter("position", "replays/illegal/A004-overlap.dn", "--turn", "2")
    assert status == 0 and out.startswith("dn1 schilda hig-1991 base Anna,Ben 2 S3b1-d1@a1:1 ")


def test_adjudicate_json_carries_the_position_string():
    _, position, _ = drunter("position", "replays/disputes/tie-vote-1-1.dn", "--turn", "3")
    status, out, err = drunter("adjudicate", "replays/disputes/tie-vote-1-1.dn", "--turn", "3", "--all-rulesets",
                               "--format", "json")
    assert status == 0, err
    verdicts = json.loads(out)["verdicts"]
    assert verdicts[0]["position_string"] == position.strip()
    assert all(v["position_string"].startswith("dn1 replays/boards/tiny.toml " + v["ruleset"] + " base ")
               for v in verdicts)
