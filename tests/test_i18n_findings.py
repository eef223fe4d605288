"""Every finding of the rules and the replay speaks the reader's language: German and
Czech for each illegal sample record, in the text and the JSON output, in worker
processes too, chosen by --lang or by the environment; golden outputs for three."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import drunter_here

from drunter_notation import i18n
from drunter_notation.explain.scoring import tie_break
from drunter_notation.rules.scoring import Ranking, Standing

ROOT = Path(__file__).resolve().parent.parent
ILLEGAL = sorted((ROOT / "replays" / "illegal").glob("*.dn"))
GOLDEN = ROOT / "tests" / "golden"
GOLDEN_RECORDS = ("A002-wrong-way-at-named-corner", "D002-wrong-deal", "E004-wrong-result")
# worded by the parser and the board and ruleset loaders, not by the findings
ELSEWHERE = {"P001", "H003", "H004"}
ENGLISH = (" the ", " is ", " not ", " and ", " with ", " must ", " but ", " tile ", " turn ", " of ", " was ",
           " player ", " vote ", " gang ", " write ", " hands ", " cannot ", " already ", " there ")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|\[[^\]]*\]")  # DN text quoted in a message: tags, values, claims


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    base = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-m", "drunter_notation.cli", *args], cwd=ROOT, capture_output=True,
                          text=True, env={**base, **(env or {})}, timeout=300)


def diagnostics(lang: str) -> dict[tuple[str, str, int], str]:
    """Every diagnostic's message of the illegal records, by file, code and line."""
    out = drunter_here("validate", "--lang", lang, "--format", "json", *(str(p.relative_to(ROOT)) for p in ILLEGAL))
    found = {}
    for line in out.stdout.splitlines():
        record = json.loads(line)
        for d in record["diagnostics"]:
            found[(record["file"], d["code"], d["line"])] = d["message"]
    return found


@pytest.fixture(scope="module")
def english() -> dict[tuple[str, str, int], str]:
    return diagnostics("en")


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_every_finding_of_the_illegal_records_is_worded_in_the_language(lang, english):
    translated = diagnostics(lang)
    assert translated.keys() == english.keys()
    assert {code for _file, code, _line in english} - ELSEWHERE >= {p.name[:4] for p in ILLEGAL} - ELSEWHERE
    for key, message in translated.items():
        if key[1] in ELSEWHERE:
            continue
        assert message != english[key], key
        prose = " " + re.sub(r"[,;:()]", " ", _QUOTED.sub(" ", message)) + " "
        assert not [w for w in ENGLISH if w in prose], (key, message)


@pytest.mark.parametrize("lang", ["de", "cs"])
@pytest.mark.parametrize("name", GOLDEN_RECORDS)
def test_golden_output(lang, name):
    out = drunter_here("validate", "--lang", lang, f"replays/illegal/{name}.dn")
    assert out.returncode == 1
    assert out.stdout == (GOLDEN / f"validate-{lang}-{name}.txt").read_text(encoding="utf-8")


def test_worker_processes_speak_the_language_chosen():
    one = run("validate", "--lang", "cs", "--jobs", "1", "replays/illegal/")
    two = run("validate", "--lang", "cs", "--jobs", "2", "replays/illegal/")
    assert one.stdout == two.stdout
    assert "zakrývá kadibudku na c3: musí se hlasovat" in two.stdout


def test_the_environment_chooses_german_without_a_flag():
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    out = run("validate", "replays/illegal/T002-wrong-player.dn", env={**env, "LANG": "de_DE.UTF-8"})
    assert "Fehler[T002]: Anna ist nicht am Zug: Zug 2 gehört Ben — Regel T1" in out.stdout


@pytest.mark.parametrize("lang, expected", [
    ("en", "Ben wins with 5 points. Ben and Anna tie on 5 points; second card: Ben 3, Anna 1. Cleo and Dora tie on "
           "2 points; second card: Cleo 2, Dora 2; votes left: Cleo 2, Dora 2; Cleo and Dora still tie and share "
           "place 3."),
    ("de", "Ben gewinnt mit 5 Punkten. Ben und Anna sind mit 5 Punkten gleichauf; zweite Karte: Ben 3, Anna 1. "
           "Cleo und Dora sind mit 2 Punkten gleichauf; zweite Karte: Cleo 2, Dora 2; übrige Stimmen: Cleo 2, "
           "Dora 2; Cleo und Dora bleiben gleichauf und teilen sich Platz 3."),
    ("cs", "Ben vítězí s 5 body. Ben a Anna mají shodně 5 bodů; druhá karta: Ben 3, Anna 1. Cleo a Dora mají "
           "shodně 2 body; druhá karta: Cleo 2, Dora 2; zbylé hlasy: Cleo 2, Dora 2; Cleo a Dora zůstávají "
           "nerozhodně a dělí se o 3. místo."),
])
def test_an_expert_tie_break_in_every_language(lang, expected):
    standings = (Standing("Ben", 5, 3, 2, 1), Standing("Anna", 5, 1, 6, 2), Standing("Cleo", 2, 2, 2, 3),
                 Standing("Dora", 2, 2, 2, 3))
    with i18n.using(lang):
        assert tie_break(Ranking(standings, ("Ben",), True)) == expected
