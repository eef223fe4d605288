"""The command line in German and Czech: click's own words, every help text of
validate, fmt, position and board, validate's verdicts and totals (with Czech's three
plural forms), the input layer's errors; JSON keeps its field names and DN its bytes."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from drunter_notation import i18n
from drunter_notation.cli import cli
from drunter_notation.cli.common import _run
from drunter_notation.cli.validate import total_line

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "replays" / "legal-2p.dn"
HELPED = (["validate"], ["fmt"], ["position"], ["board"], ["board", "show"], ["board", "check"], ["board", "new"], [])


def run(*args: str, env: dict[str, str] | None = None, code: str | None = None) -> subprocess.CompletedProcess:
    """The CLI in a process of its own, as a user starts it (``--lang`` read before click parses)."""
    base = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")}
    argv = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "drunter_notation.cli", *args]
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env={**base, **(env or {})}, timeout=120)


@pytest.fixture(autouse=True)
def english_afterwards():
    """``--lang`` sets the process's language: in-process runs leave it as they found it."""
    yield
    i18n.set_language(i18n.SOURCE)


def invoke(*args: str) -> click.testing.Result:
    return CliRunner().invoke(cli, list(args))


def english_help(command: list[str]) -> list[str]:
    return [line.strip() for line in invoke("--lang", "en", *command, "--help").output.splitlines() if line.strip()]


@pytest.mark.parametrize("lang, usage, options", [("de", "Aufruf:", "Optionen:"), ("cs", "Použití:", "Volby:")])
@pytest.mark.parametrize("command", HELPED, ids=lambda c: " ".join(c) or "drunter")
def test_every_line_of_the_help_is_translated(command, lang, usage, options):
    english = english_help(command)
    result = invoke("--lang", lang, *command, "--help")
    assert result.exit_code == 0
    shown = result.output.splitlines()
    assert shown[0].startswith(usage) and options in shown
    left = [line for line in english if line in {s.strip() for s in shown}]
    assert not left, f"English left in the {lang} help: {left}"


def test_the_command_list_and_its_title():
    out = invoke("--lang", "cs", "--help").output
    assert "Příkazy:" in out and "Zkontrolovat záznamy tah po tahu podle pravidel." in out
    assert "Befehle:" in invoke("--lang", "de", "--help").output


@pytest.mark.parametrize("args, env", [
    (["validate", "--lang", "de", "--help"], {}),
    (["validate", "--help", "--lang", "de"], {}),  # --help first: the language is read before click parses
    (["validate", "--help"], {"LANG": "de_DE.UTF-8"}),
])
def test_german_help_from_the_flag_anywhere_or_the_environment(args, env):
    result = run(*args, env=env)
    assert result.returncode == 0
    assert result.stdout.startswith("Aufruf: drunter validate")
    assert "Optionen:" in result.stdout and "Arbeitsprozesse (Standard: einer pro Kern)." in result.stdout
    assert "Worker processes" not in result.stdout and "Show this message" not in result.stdout


def test_czech_root_help_in_its_own_process():
    result = run("--lang", "cs", "--help")
    assert result.stdout.startswith("Použití: drunter") and "Zobrazit verzi a skončit." in result.stdout


def test_a_usage_error_is_one_translated_line():
    result = run("validate", "--lang", "de", "--zzz", str(RECORD))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "drunter validate: Fehler: Keine solche Option: '--zzz'; siehe drunter validate --help"]


def test_aborted_in_czech(capsys):
    @click.command()
    def stops() -> None:
        raise click.Abort()

    i18n.set_language("cs")
    sys.argv = ["drunter"]
    assert _run(stops) == 1
    assert capsys.readouterr().err == "Přerušeno!\n"


def test_unknown_language_one_warning_then_english():
    result = run("--lang", "fr", "validate", "--lang", "fr", str(RECORD))
    assert result.stderr.splitlines() == ["drunter: warning: unknown language 'fr' (known: en, de, cs); using English"]
    assert result.stdout == f"{RECORD}: valid: 59 turns, 11 votes, winner Ben 9 (hig-1991, schilda)\n"
    assert result.returncode == 0


@pytest.mark.parametrize("lang, line", [
    ("de", "gültig: 59 Züge, 11 Abstimmungen, Sieger Ben 9 (hig-1991, schilda)"),
    ("cs", "platný: 59 tahů, 11 hlasování, vítěz Ben 9 (hig-1991, schilda)"),
])
def test_the_verdict_line(lang, line):
    assert invoke("validate", "--lang", lang, str(RECORD)).output == f"{RECORD}: {line}\n"


@pytest.mark.parametrize("files, kinds, line", [
    (1, (1, 0, 0), "1 soubor: 1 platný, 0 neplatných, 0 nečitelných"),
    (2, (2, 2, 2), "2 soubory: 2 platné, 2 neplatné, 2 nečitelné"),
    (5, (5, 5, 5), "5 souborů: 5 platných, 5 neplatných, 5 nečitelných"),
])
def test_czech_totals_take_the_form_of_each_count(files, kinds, line):
    with i18n.using("cs"):
        assert total_line(files, dict(zip(("valid", "invalid", "unreadable"), kinds))) == line


@pytest.mark.parametrize("files, line", [(1, "1 Datei: 1 gültig, 0 ungültig, 0 unlesbar"),
                                         (2, "2 Dateien: 1 gültig, 0 ungültig, 1 unlesbar")])
def test_german_totals(files, line):
    with i18n.using("de"):
        assert total_line(files, {"valid": 1, "invalid": 0, "unreadable": files - 1}) == line
    with i18n.using("en"):
        assert total_line(2, {"valid": 1, "invalid": 1, "unreadable": 0}) == "2 files: 1 valid, 1 invalid, 0 unreadable"


def test_the_total_line_of_a_czech_run_in_worker_processes_started_afresh(tmp_path):
    """Workers that are not forked (the spawn start method) still speak the language."""
    for name in ("a", "b", "c", "d", "e"):
        shutil.copy(RECORD, tmp_path / f"{name}.dn")
    spawn = ("import multiprocessing, sys; multiprocessing.set_start_method('spawn'); "
             "sys.argv = ['drunter', *sys.argv[1:]]; from drunter_notation.cli import main; main()")
    result = run("--lang", "cs", "validate", "-j", "2", str(tmp_path), code=spawn)
    lines = result.stdout.splitlines()
    assert lines[-1] == "5 souborů: 5 platných, 0 neplatných, 0 nečitelných"
    assert lines[:-1] == [f"{tmp_path / n}.dn: platný: 59 tahů, 11 hlasování, vítěz Ben 9 (hig-1991, schilda)"
                          for n in "abcde"]


def test_expect_in_czech(tmp_path):
    good, wrong = tmp_path / "good.dn", tmp_path / "wrong.dn"
    good.write_bytes(b"# expect: valid\n" + RECORD.read_bytes())
    wrong.write_bytes(b"# expect: error A001 line 9\n" + RECORD.read_bytes())
    result = invoke("validate", "--lang", "cs", "--expect", str(good), str(wrong))
    assert result.output.splitlines() == [
        f"{good}: ok: valid",
        f"{wrong}: NESHODA: valid (hlavička uvádí: error A001 line 9)",
        "1 z 2 souborů nedostal ohlášený verdikt",
    ]
    assert result.exit_code == 1


def test_json_keeps_its_fields_and_says_the_message_in_german(tmp_path):
    missing = str(tmp_path / "missing.dn")
    english = json.loads(invoke("validate", "--lang", "en", "--format", "json", missing).output)
    german = json.loads(invoke("validate", "--lang", "de", "--format", "json", missing).output)
    assert german.keys() == english.keys()
    assert german["diagnostics"][0].keys() == english["diagnostics"][0].keys()
    assert german["diagnostics"][0]["code"] == "I001" and german["valid"] is False
    assert english["diagnostics"][0]["message"] == "no such file"
    assert german["diagnostics"][0]["message"] == "keine solche Datei"


def test_a_syntax_error_in_czech(tmp_path):
    bad = tmp_path / "bad.dn"
    bad.write_text('[Players "A, B"]\n1. A W3 b1\u2013d1\n', encoding="utf-8")
    result = invoke("validate", "--lang", "cs", str(bad))
    assert "chyba[P001]: krátká pomlčka '–' (U+2013) tam, kde DN má obyčejný spojovník" in result.output
    assert f"{bad}: neplatný: P001, záznam nelze přečíst" in result.output


def test_fmt_writes_the_same_bytes_in_every_language(tmp_path):
    untidy = RECORD.read_text(encoding="utf-8").replace("] ", "]").replace("\n1. ", "\n\n1.  ", 1)
    printed, written = {}, {}
    for lang in ("en", "de", "cs"):
        path = tmp_path / f"{lang}.dn"
        path.write_text(untidy, encoding="utf-8")
        printed[lang] = run("fmt", "--lang", lang, str(path)).stdout
        assert run("fmt", "--lang", lang, "--write", str(path)).returncode == 0
        written[lang] = path.read_bytes()
    assert printed["en"] == printed["de"] == printed["cs"] and '[Players "Anna, Ben"]' in printed["en"]
    assert written["en"] == written["de"] == written["cs"] == printed["en"].encode("utf-8") != untidy.encode()


def test_position_string_does_not_depend_on_the_language():
    assert invoke("position", "--lang", "cs", str(RECORD)).output == invoke("position", "--lang", "en",
                                                                           str(RECORD)).output


def test_board_check_in_german_and_czech():
    board = ROOT / "drunter_notation" / "data" / "boards" / "schilda.toml"
    assert invoke("board", "check", "--lang", "de", str(board)).output == \
        f"{board}: in Ordnung — Schilda, 15x15, 30 Gebäude, 23 Toilettenhäuschen\n"
    assert invoke("board", "check", "--lang", "cs", str(board)).output == \
        f"{board}: v pořádku — Schilda, 15x15, 30 budov, 23 kadibudek\n"


@pytest.mark.parametrize("lang, letters", [("de", "MWSRFK"), ("cs", "MHSRZK")])
def test_the_board_map_uses_the_languages_initials(lang, letters):
    """The same map, each building by the initial of its name in the language (German
    Kirche K, Czech kostel K), the six distinct; squares, values and corners stay."""
    english, said = invoke("board", "show", "--lang", "en").output, invoke("board", "show", "--lang", lang).output
    swap = str.maketrans("MTSHFC", letters)
    lines = [re.sub(r"\b([A-Z])(\d)", lambda m: m.group(1).translate(swap) + m.group(2), line)
             for line in english.split("\n\n")[1].splitlines()]
    assert said.split("\n\n")[1].splitlines() == lines
    assert len(set(letters)) == 6


def test_the_board_legend_in_german():
    german = invoke("board", "show", "--lang", "de").output
    assert "  F Feuerwache j6=5 e11=4 l11=3 c6=2 i1=1  (Summe 15)" in german.splitlines()
    assert "  K Kirche     g6=5 i11=4 d9=3 c12=2 o5=1  (Summe 15)" in german.splitlines()
    assert "Hinweis: Eine Rekonstruktion des Spielplans" in german
    assert "Ecken: a1 Straße (*S), o1 Mauer (*W), a15 Mauer (*W), o15 Fluss (*R)" in german.splitlines()


def test_board_file_and_ruleset_errors_in_czech(tmp_path):
    board = tmp_path / "club.toml"
    board.write_text('format = "drunter-board/1"\nid = "club"\nname = "Club"\nwidth = 4\nheight = 200\n'
                     'corners = {}\nbuildings = {}\n', encoding="utf-8")
    result = invoke("board", "check", "--lang", "cs", str(board))
    assert result.exit_code == 2
    assert f"chyba[H003]: soubor s plánem {board}: height: musí být celé číslo od " in result.output
    assert result.output.rstrip().endswith(", je však 200")
    result = invoke("validate", "--lang", "de", "--rules", "nope", str(RECORD))
    assert "Fehler[H004]: unbekanntes Regelwerk 'nope'" in result.output
    assert "bekannte Regelwerke: " in result.output and result.exit_code == 2


@pytest.mark.parametrize("lang, reason", [("de", "ein Teil des Pfads ist kein Ordner"),
                                          ("cs", "část cesty není složka")])
def test_the_systems_reason_is_in_the_language(lang, reason):
    """The OS's reason after the product's sentence is the language's too, not the C library's English."""
    done = subprocess.run([sys.executable, "-m", "drunter_notation.cli", "simulate", "--players", "2", "--seed", "1",
                           "--out", "/etc/passwd/x", "--lang", lang], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stderr.strip().endswith(reason), done.stderr


def test_a_broken_manifest_and_analysis_are_said_in_the_language_not_in_pythons_words(tmp_path):
    (tmp_path / "manifest.json").write_text("{bad", encoding="utf-8")
    (tmp_path / "bad.jsonl").write_bytes(b"\xff\xfe")
    run = [sys.executable, "-m", "drunter_notation.cli", "report", "replays/legal-2p.dn", "--lang", "de"]
    root = Path(__file__).resolve().parent.parent
    manifest = subprocess.run([*run, "--out-dir", str(tmp_path), "--index"], cwd=root, capture_output=True,
                              text=True, timeout=60)
    assert manifest.returncode == 2 and "es ist nicht das JSON, das dieser Befehl schreibt" in manifest.stderr
    analysis = subprocess.run([*run, "--analysis", str(tmp_path / "bad.jsonl"), "-o", str(tmp_path / "x.html")],
                              cwd=root, capture_output=True, text=True, timeout=60)
    assert analysis.returncode == 2 and "Byte 1 ist kein UTF-8" in analysis.stderr
    assert "Expecting" not in manifest.stderr + analysis.stderr and "codec" not in analysis.stderr


@pytest.mark.parametrize("text, words", [('width = 15 16\n', "auf einen Wert darf in seiner Zeile nur ein Kommentar"),
                                         ('[a]\n[a]\n', "die Tabelle a ist zweimal angelegt"),
                                         ('width = @\n', "das ist kein Wert")])
def test_a_board_files_toml_error_is_said_in_the_language(tmp_path, text, words):
    from drunter_notation.data.boardfile import load_board
    from drunter_notation.errors import DnError

    (tmp_path / "b.toml").write_text(text, encoding="utf-8")
    with i18n.using("de"), pytest.raises(DnError) as refused:
        load_board(str(tmp_path / "b.toml"))
    assert words in refused.value.diagnostic.message and "(in Zeile" in refused.value.diagnostic.message
