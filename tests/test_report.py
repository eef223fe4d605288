"""HTML replay reports and the archive index: content, escaping, the manifest, CLI."""
from __future__ import annotations

import base64
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from markupsafe import Markup

from drunter_notation.cli.report import report
from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.errors import DnError
from drunter_notation.explain.findings import arithmetic, card_lines
from drunter_notation.load import judge
from drunter_notation.notation.formatter import format_record
from drunter_notation.notation.parser import parse_text
from drunter_notation.report import (
    failed_entry,
    index_entry,
    render_error,
    render_index,
    render_report,
    script_json,
    shown,
)
from drunter_notation.report.diagram import NO_DOT
from drunter_notation.report.index import display_names, entries_from_manifest, manifest_text, merge
from drunter_notation.simulate import simulate_game

EVIL = "<script>alert(1)</script>"
REPLAYS = Path(__file__).resolve().parent.parent / "replays"

# A partial record: turn 5 lays S1 c1 onto the street tile of turn 1 (A004).
INVALID = """[Event "Club night"]
[Players "Anna, Ben"]
1. Anna S2 b1-c1
2. Ben W1 n1
3. Anna S1 c2
4. Ben W1 m1
5. Anna S1 c1
6. Ben W1 l1
"""


def game_text(players=("Anna", "Ben", "Cleo", "Dora"), seed=1) -> str:
    """A complete random legal game on the default board, as DN text."""
    record = simulate_game(load_board("schilda"), load_ruleset("hig-1991"), players, random.Random(seed))
    return format_record(record)


def report_of(text: str, path: str = "game.dn") -> str:
    return render_report(judge(parse_text(text, path), path, keep_states=True), text)


def frames_of(html: str) -> list:
    return json.loads(re.search(r'<script type="application/json" id="frames">(.*?)</script>', html, re.S)[1])


@pytest.fixture(scope="module")
def game() -> tuple[str, str]:
    text = game_text()
    return text, report_of(text)


def test_report_is_one_self_contained_page(game):
    text, html = game
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    body = html.replace('<meta http-equiv="Content-Security-Policy"', "", 1)  # the policy's own tag
    for outside in ("http", "src=", "<link", "@import", "url("):
        assert outside not in body, outside
    assert html.count("<script") == 2  # the frames' JSON and the page's own script
    assert '<svg id="board"' in html and '<svg class="chart"' in html


def test_report_has_a_frame_per_event_and_the_end(game):
    text, html = game
    record = parse_text(text)
    frames = frames_of(html)
    assert len(frames) == 1 + len(record.events) + 1  # start, every event, the end of the game
    assert frames[0]["n"] == 0 and frames[-1]["n"] == html.count('<g class="tile ')
    assert [f["n"] for f in frames] == sorted(f["n"] for f in frames)  # tiles are only ever added
    for number in (1, len(record.turns)):
        assert f'data-frame="{number}"><button type="button" data-frame="{number}">{number}. ' in html


def test_report_shows_votes_scores_and_cards(game):
    text, html = game
    t = judge(parse_text(text), keep_states=True)
    vote = next(s for s in t.steps if s.tally is not None)
    assert arithmetic(vote.tally) in html
    for line in card_lines(vote.tally):
        assert line in html
    assert t.tie_break in html
    # no spoiler toggle (docs/report.md says why): the reveal is shown like any line
    revealed = re.search(r"^reveal .*$", text, re.M)[0]
    assert f'<div class="dn">{revealed}' in html
    assert "spoiler" not in html and "cards hidden" not in html


def test_user_text_is_escaped_everywhere():
    text = game_text(players=("Anna", EVIL), seed=2)
    text = '[Event "<i>Club</i> & co"]\n' + text.replace(
        "\n1. ", "\n# <b>bold</b> <img src=x onerror=alert(2)>\n1. ", 1)
    record = parse_text(text)
    assert EVIL in record.players and record.turns[0].comments
    html = report_of(text)
    for markup in (EVIL, "<img", "<b>bold", "<i>Club"):
        assert markup not in html, markup
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;b&gt;bold&lt;/b&gt; &lt;img src=x onerror=alert(2)&gt;" in html
    assert "&lt;i&gt;Club&lt;/i&gt; &amp; co" in html
    assert html.count("<script") == 2


def test_invalid_record_shows_the_violation_at_its_turn():
    html = report_of(INVALID)
    frames = frames_of(html)
    assert len(frames) == 1 + 4 + 1  # start, turns 1-4, the violation of turn 5
    item = re.search(r'<li class="violation" data-frame="5"><button[^>]*><span class="code">A004</span>'
                     r"5\. Anna S1 c1</button></li>", html)
    assert item, "the turn list marks turn 5 with its code"
    detail = re.search(r'<section class="detail violation off" data-frame="5"[^>]*>(.*?)<table class="hands">', html, re.S)[1]
    assert "A004" in detail and "overlaps the street tile laid on turn 1" in detail and "HiG 1991" in detail
    assert re.search(r'<g class="mark off" data-frame="5"><rect class="bad" data-sym="violation" x="\d+" y="\d+"', html)
    assert '<li class="unjudged"' in html and "6. Ben W1 l1" in html  # listed, not judged


@pytest.mark.parametrize("path", sorted(REPLAYS.glob("illegal/*.dn")), ids=lambda p: p.stem)
def test_every_illegal_sample_shows_its_code(path):
    """The samples are named after the code they break (``A004-overlap.dn``)."""
    code = path.stem.split("-")[0]
    text = path.read_text(encoding="utf-8")
    try:
        html = report_of(text, str(path))
    except DnError as e:
        html = render_error(str(path), e.diagnostic, text)
    assert f'<span class="code error">{code}</span>' in html


def test_record_stopped_in_the_setup_still_gets_a_page():
    html = report_of('[Players "Anna"]\n1. Anna S2 b1-c1\n')
    assert "H001" in html and frames_of(html) == []
    assert '<li class="unjudged"' in html


def test_unparsable_record_gets_an_error_page():
    text = '[Players "Anna, Ben"]\n1. Anna S9 b1\n'
    with pytest.raises(DnError) as e:
        parse_text(text, "bad.dn")
    html = render_error("bad.dn", e.value.diagnostic, text)
    assert "P001" in html and "http" not in html.replace("http-equiv", "")
    assert '<span class="l bad" data-n="2">1. Anna S9 b1</span>' in html


def test_no_dot_gives_a_notice_in_place_of_the_diagram(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda *args, **kwargs: None)
    html = report_of(INVALID)
    assert NO_DOT.replace("'", "&#39;") in html
    assert '<svg id="board"' in html


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz 'dot' is not installed")
def test_diagram_marks_votes_endings_and_the_violation(game):
    text, html = game
    diagram = re.search(r'<div class="diagram">(.*?)</div>', html, re.S)[1]
    assert diagram.startswith("<svg") and "xmlns" not in diagram
    assert "back to hand" in diagram and "stands" in diagram and "winner:" in diagram
    assert "A004: " in re.search(r'<div class="diagram">(.*?)</div>', report_of(INVALID), re.S)[1]


def test_index_counts_complete_valid_games_and_lists_the_others_apart():
    texts = [game_text(seed=s) for s in (3, 4)]
    timelines = [judge(parse_text(t), keep_states=True) for t in texts]
    entries = [index_entry(t, f"g{i}.html", f"/club/g{i}.dn") for i, t in enumerate(timelines)]
    entries.append(index_entry(judge(parse_text(INVALID), keep_states=True), "bad.html", "/club/old/bad.dn"))
    partial = INVALID.replace("5. Anna S1 c1\n6. Ben W1 l1\n", "")
    entries.append(index_entry(judge(parse_text(partial), keep_states=True), "part.html", "/club/part.dn"))
    with pytest.raises(DnError) as e:
        parse_text("1. ?", "worse.dn")
    entries.append(failed_entry("worse.html", "/club/worse.dn", e.value.diagnostic))
    html = render_index(entries)
    assert html.count('<tr class="game ') == 5
    for href, name in (("g0.html", "g0.dn"), ("g1.html", "g1.dn"), ("bad.html", "old/bad.dn"),
                       ("worse.html", "worse.dn"), ("part.html", "part.dn")):
        assert f'<a href="{href}">{name}</a>' in html
    sections = re.split(r'<h2 id="(?:partial|invalid)">', html)
    assert len(sections) == 3 and "bad.dn" in sections[2] and "part.dn" in sections[1]
    assert "bad.dn" not in sections[0] and "part.dn" not in sections[0]
    assert html.count('<svg class="heatmap"') == 1  # both complete games are on schilda under hig-1991
    votes = sum(t.summary()["votes"] for t in timelines)  # the invalid game's votes are not counted
    assert f'<div class="n">{votes} / ' in html
    assert "2 complete valid games, 1 partial record, 2 invalid records" in html
    for plot in ("wins by seat", "wins by building card", "games by length", "vote outcomes"):
        assert f'aria-label="{plot}"' in html
    assert "http" not in html.replace("http-equiv", "") and "<script" not in html


def test_statistics_are_per_board_and_ruleset():
    tiny = (REPLAYS / "tiny-hand-made.dn").read_text(encoding="utf-8")
    timelines = [judge(parse_text(game_text(seed=3)), keep_states=True),
                 judge(parse_text(tiny), str(REPLAYS / "tiny-hand-made.dn"), keep_states=True),
                 judge(parse_text(game_text(seed=4)), rules="webley-en", keep_states=True)]
    assert all(t.valid for t in timelines)
    html = render_index([index_entry(t, f"{i}.html", f"/c/{i}.dn") for i, t in enumerate(timelines)])
    titles = re.findall(r'<section class="group" id="group-\d+">\s*<h2>(.*?)</h2>', html)
    assert sorted(titles) == ["Schilda · hig-1991 · base — 1 game", "Schilda · webley-en · base — 1 game",
                              "Tiny test board · hig-1991 · base — 1 game"]
    assert "(1 games)" not in html and "1 players" not in html


def test_names_are_relative_to_the_common_root_and_distinct():
    diag = parse_error("1. ?")
    entries = [failed_entry("a.html", "/club/2024/disputes/forced-pass.dn", diag),
               failed_entry("b.html", "/club/2024/edge/forced-pass.dn", diag)]
    assert display_names(entries) == {"/club/2024/disputes/forced-pass.dn": "disputes/forced-pass.dn",
                                      "/club/2024/edge/forced-pass.dn": "edge/forced-pass.dn"}
    assert display_names(entries[:1]) == {"/club/2024/disputes/forced-pass.dn": "forced-pass.dn"}


def parse_error(text: str):
    with pytest.raises(DnError) as e:
        parse_text(text)
    return e.value.diagnostic


def test_manifest_round_trip_keeps_every_figure():
    t = judge(parse_text(game_text(seed=3)), keep_states=True)
    entries = [index_entry(t, "g.html", "/c/g.dn"), failed_entry("w.html", "/c/w.dn", parse_error("1. ?")),
               index_entry(judge(parse_text(INVALID), keep_states=True), "bad.html", "/c/bad.dn")]
    back = entries_from_manifest(json.loads(manifest_text(entries)))
    assert sorted(back, key=lambda e: e.href) == sorted(entries, key=lambda e: e.href)
    assert render_index(back) == render_index(entries)


def test_merge_replaces_the_same_page_or_record():
    diag = parse_error("1. ?")
    old = [failed_entry("a.html", "/c/a.dn", diag), failed_entry("b.html", "/c/b.dn", diag)]
    new = [failed_entry("a.html", "/c/a.dn", diag), failed_entry("b2.html", "/c/b.dn", diag),
           failed_entry("c.html", "/c/c.dn", diag)]
    assert sorted(e.href for e in merge(old, new)) == ["a.html", "b2.html", "c.html"]


# --- the command ---------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(report, [str(a) for a in args])


def test_cli_writes_reports_and_index(tmp_path, monkeypatch):
    (tmp_path / "games" / "old").mkdir(parents=True)
    (tmp_path / "games" / "a.dn").write_text(game_text(seed=5))
    (tmp_path / "games" / "old" / "b.dn").write_text(INVALID)
    monkeypatch.chdir(tmp_path)
    result = run("games", "--index")
    assert result.exit_code == 1, result.output  # b.dn breaks a rule; its report is still written
    assert "games/old/b.dn:7:1: error[A004]" in result.stderr
    assert result.stdout.splitlines() == [f"wrote reports/a.html (valid, {len(parse_text(game_text(seed=5)).turns)} turns)", "wrote reports/old/b.html (invalid: A004 at turn 5)",
        "wrote reports/index.html (2 records in the archive)"]
    index = (tmp_path / "reports" / "index.html").read_text()
    assert '<a href="a.html">a.dn</a>' in index and '<a href="old/b.html">old/b.dn</a>' in index
    assert "A004" in (tmp_path / "reports" / "old" / "b.html").read_text()


def test_cli_output_file_and_atomic_replace(tmp_path):
    rec = tmp_path / "g.dn"
    rec.write_text(game_text(seed=6))
    out = tmp_path / "out.html"
    out.write_text("old report")
    result = run(rec, "-o", out)
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.dn", "manifest.json", "out.html"]  # no temp file left


def test_cli_syntax_error_writes_the_error_page(tmp_path):
    rec = tmp_path / "bad.dn"
    rec.write_text('[Players "Anna, Ben"]\n1. Anna S9 b1\n')
    result = run(rec, "--out-dir", tmp_path / "r")
    assert result.exit_code == 1
    assert "error[P001]" in result.stderr and len(result.stderr.strip().splitlines()) <= 3  # line + caret
    assert "P001" in (tmp_path / "r" / "bad.html").read_text()


@pytest.mark.parametrize("args, needle", [
    (["missing.dn"], "I001"),
    (["{rec}", "--rules", "no-such-rules"], "H004"),
    (["{rec}", "{rec2}", "-o", "x.html"], "exactly one record"),
    (["{rec}", "-o", "x.html", "--out-dir", "r"], "not both"),
])
def test_cli_errors_write_nothing(tmp_path, monkeypatch, args, needle):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "g.dn").write_text(INVALID)
    (tmp_path / "h.dn").write_text(INVALID)
    result = run(*(a.format(rec="g.dn", rec2="h.dn") for a in args))
    assert result.exit_code == 2
    assert needle in result.stderr and "Traceback" not in result.output + result.stderr
    assert not (tmp_path / "reports").exists() and not (tmp_path / "x.html").exists()


def test_cli_unknown_board_writes_nothing(tmp_path):
    rec = tmp_path / "g.dn"
    rec.write_text('[Players "Anna, Ben"] [Board "atlantis"]\n1. Anna S2 b1-c1\n')
    result = run(rec, "--out-dir", tmp_path / "r")
    assert result.exit_code == 2 and "H003" in result.stderr
    assert not (tmp_path / "r" / "g.html").exists()


def test_games_reported_one_at_a_time_build_one_archive(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("a.dn").write_text(game_text(seed=5))
    Path("b.dn").write_text(INVALID)
    assert run("a.dn").exit_code == 0  # no --index yet: the manifest still records the report
    result = run("b.dn", "--index")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[-1] == "wrote reports/index.html (2 records in the archive)"
    index = Path("reports/index.html").read_text()
    assert '<a href="a.html">a.dn</a>' in index and '<a href="b.html">b.dn</a>' in index
    assert "1 complete valid game, 0 partial records, 1 invalid record" in index
    # reporting a game again replaces its entry; it is not counted twice
    assert run("a.dn", "--index").exit_code == 0
    assert Path("reports/index.html").read_text().count('<a href="a.html">') == 1


def test_same_named_games_in_different_folders_get_distinct_pages_and_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for d in ("disputes", "edge"):
        Path(d).mkdir()
        Path(d, "forced-pass.dn").write_text(INVALID)
    assert run("disputes/forced-pass.dn").exit_code == 1
    result = run("edge/forced-pass.dn", "--index")
    assert "wrote reports/forced-pass-2.html" in result.stdout
    index = Path("reports/index.html").read_text()
    assert '<a href="forced-pass.html">disputes/forced-pass.dn</a>' in index
    assert '<a href="forced-pass-2.html">edge/forced-pass.dn</a>' in index
    # in one run too, and a record keeps its page when reported again
    result = run("disputes/forced-pass.dn", "edge/forced-pass.dn", "--out-dir", "r2")
    assert [line.split()[1] for line in result.stdout.splitlines()] == ["r2/forced-pass.html", "r2/forced-pass-2.html"]
    result = run("edge/forced-pass.dn", "--out-dir", "r2")
    assert result.stdout.startswith("wrote r2/forced-pass-2.html")


def test_an_unreadable_manifest_stops_the_run(tmp_path):
    out = tmp_path / "r"
    out.mkdir()
    (out / "manifest.json").write_text("{not json")
    rec = tmp_path / "g.dn"
    rec.write_text(INVALID)
    result = run(rec, "--out-dir", out, "--index")
    assert result.exit_code == 2 and "error[I005]" in result.stderr and len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.output and sorted(p.name for p in out.iterdir()) == ["manifest.json"]


def test_a_page_deleted_by_hand_leaves_the_archive(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("a.dn").write_text(INVALID)
    Path("b.dn").write_text(INVALID)
    run("a.dn", "b.dn")
    Path("reports/a.html").unlink()
    run("b.dn", "--index")
    assert "a.dn" not in Path("reports/index.html").read_text()


@pytest.mark.parametrize("args", [("-o", "page.html"), ("-o", "page.html", "--index"), ("--out-dir", ".")],
                         ids=["-o", "-o --index", "--out-dir"])
def test_report_never_writes_through_a_symlink(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    Path("g.dn").write_text(INVALID)
    Path("victim.dn").write_text("kept")
    Path("g.html" if "--out-dir" in args else "page.html").symlink_to("victim.dn")
    result = run("g.dn", *args)
    assert result.exit_code == 2 and "error[I005]" in result.stderr and "symbolic link" in result.stderr
    assert "Traceback" not in result.output and Path("victim.dn").read_text() == "kept"
    assert not Path("manifest.json").exists() and not Path("index.html").exists()


@pytest.mark.parametrize("name", ["manifest.json", "index.html"])
def test_report_refuses_a_linked_manifest_or_index_before_writing_a_page(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    Path("g.dn").write_text(INVALID)
    Path("victim.txt").write_text("kept")
    Path("out").mkdir()
    Path("out", name).symlink_to(tmp_path / "victim.txt")
    result = run("g.dn", "--out-dir", "out", "--index")
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1 and "error[I005]" in result.stderr
    assert Path("victim.txt").read_text() == "kept" and sorted(p.name for p in Path("out").iterdir()) == [name]


def test_a_fifo_as_manifest_is_refused_without_reading_it(tmp_path):
    out = tmp_path / "m1"
    out.mkdir()
    os.mkfifo(out / "manifest.json")
    rec = tmp_path / "g.dn"
    rec.write_text(INVALID)
    # in a process of its own: a read of the FIFO would hang; a refusal takes well under the timeout
    done = subprocess.run([sys.executable, "-m", "drunter_notation.cli", "report", str(rec), "--out-dir", str(out)],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().endswith("manifest.json: it is a FIFO (named pipe), not a regular file; nothing was "
                                        "written, it is left as it is")
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json"]


def test_a_record_name_that_is_not_utf8_is_reported_and_kept_in_the_archive(tmp_path):
    games, out = tmp_path / "games", tmp_path / "out"
    games.mkdir()
    name = os.fsdecode(b"a\xff.dn")
    (games / name).write_text(game_text(seed=5))
    (games / os.fsdecode(b"b\xfe.dn")).write_text("not DN at all\n")  # its error page names it too
    for _ in range(2):  # the second run reads the manifest back: the page keeps its name
        result = run(games, "--out-dir", out, "--index")
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        assert sorted(os.listdir(os.fsencode(out))) == [b"a\xff.html", b"b\xfe.html", b"index.html", b"manifest.json"]
    manifest = (out / "manifest.json").read_text(encoding="utf-8")
    assert "a\\udcff.dn" in manifest
    assert entries_from_manifest(json.loads(manifest))[0].record == str(games / name)
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="a%FF.html"' in index and "a\\udcff.dn" in index
    one = run(games / name, "-o", tmp_path / "one.html")
    assert one.exit_code == 0 and (tmp_path / "one.html").is_file(), one.output


def test_a_deeply_nested_analysis_is_u004(tmp_path):
    rec, analysis = tmp_path / "g.dn", tmp_path / "an.json"
    rec.write_text(INVALID)
    analysis.write_text("[" * 100_000 + "\n")
    result = run(rec, "-o", tmp_path / "an.html", "--analysis", analysis)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.stderr.strip().endswith("error[U004]: not a line of `drunter analyze --format json` output")


def test_a_deeply_nested_manifest_is_i005(tmp_path):
    out = tmp_path / "r"
    out.mkdir()
    (out / "manifest.json").write_text("[" * 100_000)
    rec = tmp_path / "g.dn"
    rec.write_text(INVALID)
    result = run(rec, "--out-dir", out)
    assert result.exit_code == 2 and "error[I005]: cannot read the report manifest" in result.stderr
    assert "Traceback" not in result.output


def test_an_analysis_that_is_a_fifo_or_folder_is_not_called_a_record(tmp_path):
    rec = tmp_path / "g.dn"
    rec.write_text(INVALID)
    os.mkfifo(tmp_path / "an.fifo")
    result = run(rec, "-o", tmp_path / "an.html", "--analysis", tmp_path / "an.fifo")
    assert result.exit_code == 2 and "DN record" not in result.stderr
    assert result.stderr.strip().endswith("error[I001]: is a FIFO (named pipe), not a regular file; nothing was read; "
                                          "give a regular file")
    result = run(rec, "-o", tmp_path / "an.html", "--analysis", tmp_path)
    assert result.exit_code == 2 and result.stderr.strip().endswith("error[I001]: is a directory, not a regular file")


@pytest.mark.parametrize("href", ["../outside.html", "/tmp/abs.html", "a/../../b.html", "page.txt", "a\\..\\b.html"])
def test_a_manifest_cannot_send_a_page_out_of_the_folder(tmp_path, href):
    out = tmp_path / "r"
    rec = tmp_path / "g.dn"
    rec.write_text(INVALID)
    assert run(rec, "--out-dir", out).exit_code in (0, 1)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    manifest["reports"][0]["href"] = href  # the record's kept page, where its next report is written
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    result = run(rec, "--out-dir", out)
    assert result.exit_code == 2 and "error[I005]: cannot read the report manifest" in result.stderr
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


class _Inline(HTMLParser):
    """The page's first element in <head>, its inline scripts and styles (as the browser reads them) and
    whether any element has a style attribute."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.first_in_head: tuple[str, dict[str, str | None]] | None = None
        self.in_head = False
        self.blocks: list[list[str]] = []  # [kind, text]
        self.open: list[str] | None = None
        self.style_attributes = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.in_head and self.first_in_head is None:
            self.first_in_head = (tag, attrs)
        self.in_head = tag == "head" or (self.in_head and tag != "body")
        self.style_attributes += "style" in attrs
        if tag in ("script", "style"):
            runs = tag == "style" or attrs.get("type") in (None, "", "text/javascript", "module")
            self.open = [tag, ""] if runs else None
            if runs:
                self.blocks.append(self.open)

    def handle_data(self, data):
        if self.open is not None:
            self.open[1] += data

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.open = None


def policy_of(html: str) -> tuple[dict[str, list[str]], _Inline]:
    """The page's Content-Security-Policy (directive: sources), checked to be the head's first element."""
    parser = _Inline()
    parser.feed(html)
    tag, attrs = parser.first_in_head
    assert tag == "meta" and attrs["http-equiv"] == "Content-Security-Policy", parser.first_in_head
    directives = [d.split() for d in attrs["content"].split(";") if d.strip()]
    return {d[0]: d[1:] for d in directives}, parser


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def assert_strict_policy(html: str) -> dict[str, list[str]]:
    policy, page = policy_of(html)
    assert policy["default-src"] == ["'none'"] and policy["base-uri"] == ["'none'"]
    assert policy["form-action"] == ["'none'"]
    for sources in policy.values():
        for source in sources:  # keywords and hashes only: no host, no scheme, nothing 'unsafe-'
            assert source.startswith("'") and "unsafe" not in source, source
    assert "img-src" not in policy and "connect-src" not in policy  # no page uses data: pictures or the network
    assert page.style_attributes == 0  # a style="" would need 'unsafe-inline' (or 'unsafe-hashes')
    for kind in ("script", "style"):
        wanted = sorted({sha256(text) for k, text in page.blocks if k == kind})
        assert sorted(policy.get(f"{kind}-src", [])) == wanted, kind
    return policy


def test_every_page_has_a_strict_content_security_policy(game, tmp_path):
    text, html = game
    policy = assert_strict_policy(html)
    assert len(policy["script-src"]) == 1 and len(policy["style-src"]) == 1  # the JSON data block needs none
    assert_strict_policy(report_of(INVALID, "bad.dn"))
    with pytest.raises(DnError) as e:
        parse_text("1. ??? x\n", "u.dn")
    assert "script-src" not in assert_strict_policy(render_error("u.dn", e.value.diagnostic, "1. ??? x\n"))
    t = judge(parse_text(text, "g.dn"), "g.dn", keep_states=True)
    assert "script-src" not in assert_strict_policy(render_index([index_entry(t, "g.html", "/c/g.dn")]))
    rec = tmp_path / "g.dn"
    rec.write_text(text)
    assert run(rec, "--out-dir", tmp_path / "out", "--index").exit_code == 0
    for page in (tmp_path / "out").glob("*.html"):
        assert_strict_policy(page.read_text(encoding="utf-8"))


def test_a_changed_script_is_not_allowed_by_the_policy(game):
    """The hashes are of the exact text rendered: one character more and the browser would refuse it."""
    _, html = game
    policy, page = policy_of(html)
    script = next(text for kind, text in page.blocks if kind == "script")
    assert sha256(script) in policy["script-src"] and sha256(script + " ") not in policy["script-src"]


BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


def test_bidi_controls_in_user_text_are_shown_as_escapes(tmp_path):
    coder = "\U0001f469\u200d\U0001f4bb"  # woman technologist: two emoji and a zero-width joiner
    text = INVALID.replace('[Event "Club night"]', f'[Event "Club \u202enight {coder}"]\n'
                           '[Annotator "\u202eRTL <u>x</u>"]\n[Site "\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627 \u2066x\u2069"]')
    text = text.replace("3. Anna S1 c2", "3. Anna S1 c2 # good \u202emove\u200f")
    html = report_of(text, "b\u202ead.dn")
    assert not any(c in html for c in BIDI), [hex(ord(c)) for c in BIDI if c in html]
    assert "\\u202eRTL &lt;u&gt;x&lt;/u&gt;" in html and "<u>" not in html
    assert "\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627 \\u2066x\\u2069" in html  # letters kept
    assert f"Club \\u202enight {coder}" in html  # in the title, the heading and the diagram too
    assert "good \\u202emove\\u200f" in html
    # the same in the pages and the index the command writes, file names included
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "g\u202e1.dn").write_text(text)
    (tmp_path / "in" / "u\u202e2.dn").write_text('[Event "\u202ex"]\n1. ??? \u202e\n')
    run(tmp_path / "in", "--out-dir", tmp_path / "out", "--index")
    pages = sorted((tmp_path / "out").glob("*.html"))
    assert len(pages) == 3
    for page in pages:
        shown = page.read_text(encoding="utf-8")
        assert not any(c in shown for c in BIDI), page.name
        assert "\\u202e" in shown, page.name


def test_the_json_data_block_escapes_what_the_page_would_not_show():
    assert str(script_json({"a": "\u202e<\u2028\u05e9"})) == '{"a":"\\u202e\\u003c\\u2028\\u05e9"}'.replace(
        "\\u05e9", "\u05e9")
    assert json.loads(str(script_json(["\u202e\u200d"]))) == ["\u202e\u200d"]


def test_shown_leaves_markup_and_other_values_alone():
    assert shown("a\u202eb\nc") == "a\\u202eb\nc"
    assert shown(Markup("<b>\u202e</b>")) == Markup("<b>\u202e</b>") and shown(3) == 3
