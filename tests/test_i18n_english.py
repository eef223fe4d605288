"""No English word left in German or Czech: the help of every command, ``--version``,
click's usage errors for each kind of parameter, and the error line of every
diagnostic the sample records and bad files give. What stays in English is data: DN
text, codes, option names and values, command names, metavar letters, file names and
what the record itself says (quoted)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import drunter_here

from drunter_notation import i18n
from drunter_notation.cli import COMMANDS, cli
from drunter_notation.notation.model import KNOWN_TAGS, SPECIAL_GOALS

ROOT = Path(__file__).resolve().parents[1]
# English words no German or Czech line may show (none of them is a German or Czech word,
# nor a DN token, an option value or a command name).
ENGLISH = frozenset("""the of and with from is are be or not record records file files turn turns player players
game games move moves ruleset rulesets default usage options commands command value integer range boolean
directory each every which when where what than then only must its their this that invalid expected found missing
unknown cannot does should print write line column choose one two three show shows given needs need such valid""".split())
# Not language but data: the parts of a line that are the same bytes in every language
DATA = re.compile(r"""--?[a-z][\w-]*|\[[^\]\n]*\]|`[^`]*`|'[^']*'|"[^"]*"|„[^“]*“|‘[^’]*’|“[^”]*”|\S+\.(?:dn|toml|md|json|html|py)\b"""
                  r"""|\S*/\S*|\w+=\S*|\b[A-Z][A-Z0-9_]+\b|\bdrunter(?: [a-z]+){0,2}|\b(?:board|rules|show|check|new|list|diff)\b"""
                  r"""|\bdn1\b.*$|Game Cabinet|\b(?:""" + "|".join(KNOWN_TAGS + SPECIAL_GOALS) + r""")\b""", re.M)


def english_words(text: str) -> list[str]:
    return sorted({w for w in re.findall(r"[A-Za-z]+", DATA.sub(" ", text)) if w.lower() in ENGLISH})


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """The CLI as a user starts it, --lang read before click parses (in this process: see drunter_here)."""
    return drunter_here(*args, cwd=cwd)


def _commands(group: click.Group, path: list[str]) -> list[list[str]]:
    out = [path]
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        out += _commands(command, path + [name]) if isinstance(command, click.Group) else [path + [name]]
    return out


COMMAND_PATHS = _commands(cli, [])


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.set_language(i18n.SOURCE)


def test_the_scan_finds_english():
    assert english_words("Usage: drunter report [OPTIONS] FILES...\n  Write a report for each record.") == [
        "Usage", "Write", "each", "record"]
    assert english_words("'abc' ist kein gültiger Wert vom Typ integer range") == ["integer", "range"]
    assert english_words("Fehler: 'the record' in `the file` --the-option") == []


def test_every_command_is_walked():
    assert {p[0] for p in COMMAND_PATHS if p} == set(COMMANDS) and len(COMMAND_PATHS) > len(COMMANDS)


@pytest.mark.parametrize("lang", ["de", "cs"])
@pytest.mark.parametrize("command", COMMAND_PATHS, ids=lambda c: " ".join(c) or "drunter")
def test_the_help_of_every_command_has_no_english(command, lang):
    english = CliRunner().invoke(cli, ["--lang", "en", *command, "--help"]).output
    result = CliRunner().invoke(cli, ["--lang", lang, *command, "--help"])
    assert result.exit_code == 0
    assert english_words(english)  # the scan finds the English it looks for
    assert english_words(result.output) == [], result.output


@pytest.mark.parametrize("lang, line", [("de", "drunter, Version 0.1.0"), ("cs", "drunter, verze 0.1.0")])
def test_version(lang, line):
    assert run("--version", "--lang", lang).stdout.strip() == line


# Click's usage errors, one for each kind of parameter the commands have
USAGE_ERRORS = [
    ("integer range, not a number", ["tournament", "--games", "abc"]),
    ("integer range, out of range", ["tournament", "--games", "0"]),
    ("integer", ["tournament", "--seed", "x"]),
    ("choice", ["analyze", "replays/legal-2p.dn", "--policy", "nobody"]),
    ("choice of a format", ["validate", "--format", "xml", "replays/legal-2p.dn"]),
    ("path that is a folder", ["report", "replays/legal-2p.dn", "-o", "replays"]),
    ("path that is a file", ["report", "replays/legal-2p.dn", "--out-dir", "replays/legal-2p.dn"]),
    ("option without its value", ["adjudicate", "replays/legal-2p.dn", "--turn"]),
    ("no such option", ["validate", "--nope", "replays/legal-2p.dn"]),
    ("no such command", ["nope"]),
    ("missing argument", ["rules", "show"]),
    ("callback's own check", ["board", "new", "x", "--size", "abc"]),
]


@pytest.mark.parametrize("lang, error", [("de", "Fehler"), ("cs", "chyba")])
@pytest.mark.parametrize("what, args", USAGE_ERRORS, ids=[u[0] for u in USAGE_ERRORS])
def test_click_usage_errors_have_no_english(what, args, lang, error, tmp_path):
    done = run(*args, "--lang", lang)
    assert done.returncode == 2, done.stderr
    assert f": {error}: " in done.stderr and len(done.stderr.splitlines()) == 1, done.stderr
    assert english_words(done.stderr) == [], done.stderr


def _record_errors() -> list[str]:
    return sorted(str(p.relative_to(ROOT)) for p in (ROOT / "replays" / "illegal").glob("*.dn"))


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_every_diagnostic_of_the_sample_records_has_no_english(lang):
    """Each illegal sample gives its code's line (message, rule, citation, hint) in the language."""
    done = run("validate", *_record_errors(), "--lang", lang)
    assert done.returncode == 2 or done.returncode == 1
    lines = (done.stdout + done.stderr).splitlines()
    assert len(lines) > len(_record_errors())
    left = {line: english_words(line) for line in lines if english_words(line)}
    assert not left, left


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_errors_about_files_and_turns_have_no_english(lang, tmp_path):
    (tmp_path / "binary.dn").write_bytes(b"\x00\x01\x02" * 50)
    (tmp_path / "latin1.dn").write_bytes('[Players "Jürgen, B"]\n'.encode("latin-1"))
    (tmp_path / "long.dn").write_text('[Players "A, B"]\n\n1. A W1 a2 ' + "x" * 100_001 + "\n")
    (tmp_path / "empty").mkdir()
    cases = [
        run("validate", str(tmp_path / "missing.dn"), "--lang", lang),
        run("validate", str(tmp_path / "binary.dn"), str(tmp_path / "latin1.dn"), str(tmp_path / "long.dn"),
            "--lang", lang),
        run("validate", str(tmp_path / "empty"), "--lang", lang),
        run("adjudicate", "replays/disputes/all-abstain-0-0.dn", "--turn", "999", "--lang", lang),
        run("adjudicate", "replays/disputes/all-abstain-0-0.dn", "--turn", "9", "--move", "W1 b1", "--lang", lang),
        run("position", "replays/disputes/all-abstain-0-0.dn", "--turn", "9", "--lang", lang),
        run("board", "show", "nowhere", "--lang", lang),
        run("rules", "show", "nothing", "--lang", lang),
        run("analyze", "replays/illegal/A004-overlap.dn", "--playouts", "0", "--lang", lang),
    ]
    for done in cases:
        text = done.stdout + done.stderr
        assert done.returncode != 0 and text
        assert english_words(text) == [], text


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_the_shipped_board_says_its_note_in_the_language(lang):
    done = run("board", "show", "--lang", lang)
    assert done.returncode == 0
    note = done.stdout.split("\n\n")[0]
    assert english_words(note) == [] and len(note) > 400
