"""analyze, tournament and simulate in German and Czech: no English prose left in the
text output, the same JSON fields and numbers, and DN bytes that never depend on the
language."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from drunter_notation import i18n
from drunter_notation.errors import printable
from drunter_notation.explain import evidence
from drunter_notation.notation.model import BUILDINGS

ROOT = Path(__file__).resolve().parent.parent
RECORD = str(ROOT / "replays" / "tiny-hand-made.dn")  # 13 turns on the tiny board: seconds with few playouts

# Words of the English sentences that no German or Czech line may keep. Not "and":
# lists of turns are joined by explain.words.and_list, whose words are not this module's.
ENGLISH = {"the", "of", "when", "would", "with", "from", "after", "every", "each", "turn", "turns", "move", "moves",
           "player", "chance", "playouts", "playout", "card", "cards", "spared", "covered", "voted", "plays", "like",
           "none", "better", "mistake", "gain", "standard", "error", "points", "win", "holds", "evidence", "sure",
           "probably", "perhaps", "likely", "stands", "out", "examined", "figure", "placements", "tile", "hand"}


def _drunter(*args: str, lang_env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(lang_env or {})
    return subprocess.run([sys.executable, "-c", "from drunter_notation.cli import main; main()", *args],
                          capture_output=True, env=env)


def _english_words(text: str) -> list[tuple[str, str]]:
    text = text.replace(RECORD, "FILE")  # the record's name is the user's
    return [(word, line) for line in text.splitlines() for word in re.findall(r"[A-Za-z]+", line)
            if word in ENGLISH]


@pytest.fixture(scope="module")
def english() -> str:
    done = _drunter("analyze", RECORD, "--playouts", "20", "--lang", "en")
    assert done.returncode == 0, done.stderr
    return done.stdout.decode()


@pytest.mark.parametrize("lang, words", [
    ("de", ["13 Züge, Grundspiel", "Sieg %", "verschonte", "Wendepunkte", "Spielweise: zufällig", "Zug  11"]),
    ("cs", ["13 tahů, základní hra", "výhra %", "ušetřil(a)", "Zlomové tahy", "styl hry: náhodný", "tah  11"])])
def test_analyze_text_has_no_english_prose(english, lang, words):
    done = _drunter("analyze", RECORD, "--playouts", "20", "--lang", lang)
    assert done.returncode == 0, done.stderr
    text = done.stdout.decode()
    assert _english_words(english), "the scan finds the English it looks for"
    assert _english_words(text) == []
    for word in words:
        assert word in text
    assert "\u00a0%" in text and "\\x" not in text  # the language's no-break space before %, printed as it is
    # the same table: as many lines, the same turn numbers, moves and win figures
    rows = [line for line in english.splitlines() if re.match(r"^ +\d+  ", line)]
    assert [re.sub(r"\s+", " ", r) for r in rows] == [re.sub(r"\s+", " ", r.replace(" (nein)", " (no)").replace(
        " (ne)", " (no)")) for r in text.splitlines() if re.match(r"^ +\d+  ", r)]


def test_analyze_json_is_data_the_same_in_every_language(english):
    """The JSON carries data (kinds, building ids, squares, numbers); every reader words it."""
    runs = {lang: _drunter("analyze", RECORD, "--playouts", "0", "--format", "json", "--lang", lang).stdout
            for lang in ("en", "de", "cs")}
    assert runs["en"] == runs["de"] == runs["cs"]
    final = json.loads(runs["cs"])["final"]
    assert {item["kind"] for item in final["evidence"]["Anna"]} <= {"covered", "spared", "voted"}
    assert all(item["building"] in BUILDINGS for item in final["evidence"]["Anna"] if item["kind"] != "voted")
    assert "summary" not in final and set(final["favourite"]) == {"Anna", "Ben"}
    with i18n.using("cs"):
        said = [evidence.said("Anna", item) for item in final["evidence"]["Anna"]]
    assert said and all(s and s.startswith("Anna ") for s in said)
    assert any("ušetřil(a)" in s or "zastavěl(a)" in s or "hlasoval(a)" in s for s in said)


@pytest.mark.parametrize("item", [{"kind": "spared"}, {"kind": "covered", "building": "spa", "square": "a1",
                                                       "value": 1, "turn": 2}, {"kind": "voted", "side": "maybe"},
                                  {"kind": "spared", "building": "school", "square": "b4", "value": "x",
                                   "turns": [1]}, {"kind": 7}, {}])
def test_an_evidence_item_this_release_cannot_read_is_left_out(item):
    assert evidence.said("Anna", item) is None


def test_analyze_workers_speak_the_callers_language(tmp_path):
    """With --jobs over several records the sentences are written in worker processes."""
    (tmp_path / "boards").mkdir()
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "boards")  # the records' Board tag
    for name in ("a.dn", "b.dn"):
        (tmp_path / name).write_bytes(Path(RECORD).read_bytes())
    done = _drunter("analyze", str(tmp_path), "--playouts", "0", "--jobs", "2", "--format", "json",
                    lang_env={"LANG": "de_DE.UTF-8"})
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 2
    for result in lines:  # the JSON is data: the same in every language
        assert all(isinstance(item, dict) for item in result["final"]["evidence"]["Anna"])
    done = _drunter("analyze", str(tmp_path / "missing"), "--jobs", "2", lang_env={"LANG": "de_DE.UTF-8"})
    assert done.returncode == 2 and "Fehler" in done.stderr.decode()


def test_tournament_table_in_czech():
    done = _drunter("tournament", "--games", "3", "--players", "2", "--bots", "random", "--lang", "cs")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines[0].startswith("3 hry, 2 hráči, schilda")
    assert lines[1].split() == ["účastník", "výhry", "podíl", "výher", "95%", "interval"]
    assert lines[4].startswith("místo ") and "spravedlivý podíl 50,0\u00a0%" in lines[4]
    assert lines[5].startswith("místo 1 ")
    assert re.search(r"\d,\d\u00a0% - +\d+,\d\u00a0%$", lines[5])
    assert _english_words("\n".join(lines)) == []


def test_tournament_error_in_german():
    done = _drunter("tournament", "--bots", "random,greedy,cautious,greedy,random", "--lang", "de")
    assert done.returncode == 2
    assert "--bots nennt 5 Bots, aber eine Partie hat 2 bis 4 Spieler" in done.stderr.decode()


@pytest.mark.parametrize("args", [
    ["--players", "3", "--seed", "7"],
    ["--players", "2", "--seed", "7", "--bots", "greedy,random"]])
def test_simulate_writes_the_same_bytes_in_every_language(args):
    outputs = [_drunter("simulate", *args, "--lang", lang).stdout for lang in ("en", "de", "cs")]
    outputs.append(_drunter("simulate", *args, lang_env={"LANG": "cs_CZ.UTF-8"}).stdout)
    assert outputs[0].startswith(b"[") and len(set(outputs)) == 1


def test_simulate_files_are_the_same_and_only_the_message_is_translated(tmp_path):
    said = {}
    for lang in ("en", "cs"):
        done = _drunter("simulate", "--players", "2", "--seed", "4", "--count", "2", "--out", str(tmp_path / lang),
                        "--lang", lang)
        assert done.returncode == 0, done.stderr
        said[lang] = done.stderr.decode()
    assert said["en"].startswith("wrote 2 games to ") and said["cs"].startswith(f"do {tmp_path / 'cs'} zapsány 2 hry")
    for name in ("game-4-1.dn", "game-4-2.dn"):
        assert (tmp_path / "en" / name).read_bytes() == (tmp_path / "cs" / name).read_bytes()


@pytest.mark.parametrize("command, words", [("tournament", "Bots spielen N Partien"),
                                            ("simulate", "Vollständige zufällige"),
                                            ("analyze", "Simulationen je Stellung")])
def test_help_in_german(command, words):
    done = _drunter(command, "--help", "--lang", "de")
    assert done.returncode == 0
    assert words in done.stdout.decode()


@pytest.mark.parametrize("lang, expected", [("en", "83 %"), ("de", "83\u00a0%"), ("cs", "83\u00a0%")])
def test_percent_follows_the_language(lang, expected):
    with i18n.using(lang):
        assert evidence.percent(0.834) == expected
        assert evidence.percent(0.9999) == expected.replace("83", "99")  # never 100 for what is not certain


@pytest.mark.parametrize("count, de, cs", [
    (1, "einmal, obwohl", "jednou ušetřil(a)"), (2, "zweimal, obwohl", "dvakrát ušetřil(a)"),
    (7, "7-mal, obwohl", "7krát ušetřil(a)")])
def test_spared_counts_in_both_languages(count, de, cs):
    turns = [4] if count == 1 else [4, 9] if count == 2 else list(range(1, 8))
    with i18n.using("de"):
        assert de in evidence.spared("Jana", "school", "b4", 3, turns)
        assert "die Schule auf b4 (Wert 3)" in evidence.spared("Jana", "school", "b4", 3, turns)
    with i18n.using("cs"):
        text = evidence.spared("Jana", "school", "b4", 3, turns)
        assert cs in text and "školu na b4 (hodnota 3)" in text
        assert ("(tah 4)" if count == 1 else "(tahy ") in text


def test_no_break_spaces_are_printable_and_controls_are_not():
    assert printable("12,5\u00a0% a\u202fb") == "12,5\u00a0% a\u202fb"
    assert printable("x\u202ey\u00a0") == "x\\u202ey\u00a0"


def test_analyze_bytes_speaks_the_language_it_is_given():
    """What a Dask worker runs: its own process speaks English, the caller's language is passed."""
    from drunter_notation.analysis import Settings, analyze_bytes

    data = (ROOT / "replays" / "legal-2p.dn").read_bytes()
    kind, result = analyze_bytes(data, "legal-2p.dn", Settings(playouts=0), "cs")
    assert kind == "ok" and i18n.language() == "en"
    assert result == analyze_bytes(data, "legal-2p.dn", Settings(playouts=0), "en")[1]  # data, not sentences
    kind, result = analyze_bytes(b"[Players \"A, B\"]\n\n1. A W1 a2\n", "x.dn", Settings(playouts=0), "de")
    assert kind == "error" and "hand-Zeilen" in result[0]
