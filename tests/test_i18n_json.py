"""JSON carries data: the citations and the numbers of every JSON output are the same
in every language; only a message (a text for people) follows the language, and a
number in it reads as in the text line, no-break space included."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import drunter_here

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("en", "de", "cs")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return drunter_here(*args)


def citations(value: object) -> list[object]:
    """Every ``citation``, ``cite_a`` and ``cite_b`` in a JSON value, in order."""
    if isinstance(value, dict):
        return [v for k, v in value.items() if k in ("citation", "cite_a", "cite_b")] + [
            c for k, v in value.items() for c in citations(v)]
    if isinstance(value, list):
        return [c for v in value for c in citations(v)]
    return []


def parsed(out: str) -> list[list[object]]:
    """The citations of one indented JSON object, or of each line of JSON Lines."""
    try:
        return [citations(json.loads(out))]
    except json.JSONDecodeError:
        return [citations(json.loads(line)) for line in out.splitlines()]


@pytest.mark.parametrize("args", [
    ["validate", "--format", "json", "replays/illegal/D003-box-mismatch.dn", "replays/illegal/A005-corner.dn"],
    ["adjudicate", "replays/disputes/tie-vote-1-1.dn", "--turn", "3", "--all-rulesets", "--format", "json"],
    ["rules", "show", "webley-en", "--format", "json"],
    ["rules", "diff", "hig-1991", "deskovehry-cz", "--all", "--format", "json"],
], ids=["validate", "adjudicate", "rules show", "rules diff"])
def test_citations_are_the_same_in_every_language(args):
    found = {lang: parsed(run(*args, "--lang", lang).stdout) for lang in LANGS}
    assert any(c for c in found["en"]), found["en"]
    assert found["de"] == found["en"] and found["cs"] == found["en"]


@pytest.mark.parametrize("lang, said", [
    ("de", "HiG 1991, Spielvorbereitung, Abs. 4–6; die Spielregel nennt die Plättchen nach Länge"),
    ("cs", "HiG 1991, Spielvorbereitung, Abs. 4–6; pravidla uvádějí placky podle délky")])
def test_the_text_line_says_the_citation_in_the_language(lang, said):
    out = run("validate", "replays/illegal/D003-box-mismatch.dn", "--lang", lang).stdout
    assert said in out


def test_a_number_in_a_czech_message_reads_the_same_in_json_and_text(tmp_path):
    record = tmp_path / "long.dn"
    record.write_text('[Players "A, B"]\n\n1. A W1 a2 ' + "x" * 100_001 + "\n")
    text = run("validate", str(record), "--lang", "cs").stdout
    out = run("validate", str(record), "--lang", "cs", "--format", "json").stdout
    assert "100\u00a0012" in text and "100\u00a0012" in out and "\\u00a0" not in out
    message = json.loads(out)["diagnostics"][0]["message"]
    assert message in text and json.loads(out)["diagnostics"][0]["column"] == 100_001


def _analysis() -> dict:
    out = run("analyze", "replays/tiny-hand-made.dn", "--playouts", "0", "--format", "json").stdout
    return json.loads(out)


@pytest.mark.parametrize("spoil", [
    lambda a: a["final"]["beliefs"].update(Anna=[1, 2]),
    lambda a: a["final"]["styles"].update(Ben={"random": "much"}),
    lambda a: a["final"]["evidence"].update(Anna="a sentence"),
    lambda a: a["final"].pop("styles"),
    lambda a: a["turns"][2].update(beliefs=None),  # read only when the page is drawn
    lambda a: a["turns"][1]["beliefs"]["Anna"].update(museum=float("nan")),  # json.dumps writes NaN
], ids=["beliefs a list", "a style not a number", "evidence a sentence", "no styles", "a turn's beliefs null",
        "a belief not a number"])
def test_an_analysis_the_report_cannot_word_is_one_error_line(tmp_path, spoil):
    analysis = _analysis()
    spoil(analysis)
    path = tmp_path / "analysis.json"
    path.write_text(json.dumps(analysis) + "\n")
    done = run("report", "replays/tiny-hand-made.dn", "--analysis", str(path), "-o", str(tmp_path / "r.html"),
               "--lang", "de")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().endswith("Fehler[U004]: keine Zeile einer Ausgabe von `drunter analyze --format json`")


def test_an_analysis_item_of_another_release_is_left_out(tmp_path):
    analysis = _analysis()
    analysis["final"]["evidence"]["Anna"] = ["an English sentence of an older release", {"kind": "dreamt"}]
    del analysis["final"]["favourite"]
    path = tmp_path / "analysis.json"
    path.write_text(json.dumps(analysis) + "\n")
    done = run("report", "replays/tiny-hand-made.dn", "--analysis", str(path), "-o", str(tmp_path / "r.html"),
               "--lang", "cs")
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "an English sentence" not in html and "žádná karta nevyčnívá" in html
