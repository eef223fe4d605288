"""German and Czech for ``drunter rules`` and ``drunter adjudicate``: the rule texts
of the shipped rulesets reach the catalogs (scripts/babel_toml.py) and are shown
translated, no English sentence is left in them, the verdict words follow the
language while JSON keeps its fields and codes, and a dispute's verdicts in German
match a golden file.

The golden file holds the whole output, so sentences other modules word (the tally
lines, a violation's message) are in it too; after their wording changes, rewrite it
with ``DRUNTER_UPDATE_GOLDEN=1`` and read the diff.
"""
from __future__ import annotations

import io
import json
import os
import re
import sys
import tomllib
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

from drunter_notation import i18n
from drunter_notation.cli import cli
from drunter_notation.data.rulesets import catalogue, cite, list_rulesets, load_ruleset, topics

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import babel_toml  # noqa: E402  (the extractor is a script, not a package module)

RULESETS = ROOT / "drunter_notation" / "data" / "rulesets"
TIE = ROOT / "replays" / "disputes" / "tie-vote-1-1.dn"
GOLDEN = ROOT / "tests" / "golden" / "adjudicate-tie-vote-1-1-turn-3-de.txt"
OWN_FILES = ("cli/rules.py", "cli/adjudicate.py", "adjudication/", "explain/boardtext.py", "data/rulesets/")
# Words no German or Czech sentence contains but nearly every English one does.
ENGLISH = re.compile(r"\b(the|and|of|is|are|which|when|with|that|not|may|every|player|tile|vote)\b")
# Titles that are the game's own word in German (and JEIN in Czech too).
SAME_WORD = {"Legezwang", "JEIN"}
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
CODES = re.compile(r"`[^`]*`|\w+(?:[-_]\w+)+")  # DN, option names and card ids (lowest-of-each)


def english_words(text: str) -> list[str]:
    return ENGLISH.findall(CODES.sub(" ", text))


def run(*args: object):
    return CliRunner().invoke(cli, [str(a) for a in args])


@pytest.fixture(autouse=True)
def english_after():
    yield
    i18n.set_language("en")


def rule_texts() -> list[str]:
    """Every rule and topic title and every wording of every shipped ruleset, in English."""
    texts = [r.title for r in catalogue().values()] + [r.wording for r in catalogue().values()]
    texts += [t.title for t in topics().values()]
    for r in list_rulesets():
        texts += [r.name, *r.wording.values()]
    return texts


def test_the_extractor_yields_every_rule_text_as_the_loader_collapses_it():
    extracted = set()
    for path in RULESETS.glob("*.toml"):
        with open(path, "rb") as f:
            for line, funcname, text, _comments in babel_toml.extract(f, None, None, None):
                assert funcname == "_" and line > 0, (path.name, text)
                assert text == " ".join(text.split())
                extracted.add(text)
    assert set(rule_texts()) <= extracted
    places = {section for r in list_rulesets() for section in (*r.sections.values(), *r.topic_sections.values())}
    assert places <= extracted
    data = tomllib.loads((RULESETS / "hig-1991.toml").read_text(encoding="utf-8"))
    assert data["options"]["vote_outcome"] not in extracted  # option values are data, never words
    assert "de-hig-1991-a.txt" not in extracted


def test_every_rule_text_is_in_the_template():
    template = read_po(open(ROOT / "drunter_notation" / "locale" / "drunter.pot", "rb"))
    assert set(rule_texts()) <= {m.id for m in template if isinstance(m.id, str)}


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_rules_show_leaves_no_english_sentence(lang):
    for r in list_rulesets():
        english = json.loads(run("rules", "show", r.id, "--format", "json", "--lang", "en").output)
        shown = json.loads(run("rules", "show", r.id, "--format", "json", "--lang", lang).output)
        assert shown["name"] != english["name"]
        for kind in ("rules", "topics"):
            for en, tr in zip(english[kind], shown[kind]):
                assert (tr["id"], tr.get("section")) == (en["id"], en.get("section"))  # data unchanged
                for field in ("title", "wording"):
                    if en[field] in SAME_WORD:  # German keeps Legezwang, Czech has its own words
                        continue
                    assert tr[field] != en[field], (lang, r.id, en["id"], field)
                    assert not english_words(tr[field]), (lang, r.id, en["id"], field, tr[field])
                assert tr["citation"].startswith(r.label + ", ")


@pytest.mark.parametrize("lang, heading", [("de", "REGELN"), ("cs", "PRAVIDLA")])
def test_rules_show_text_is_translated_and_places_stay_as_the_source_names_them(lang, heading):
    out = run("rules", "show", "hig-1991", "--lang", lang).output
    assert heading in out.splitlines()
    assert "(HiG 1991, Spielregel A.2)" in out  # a place in the source is a fact
    assert "RULES" not in out and "OPTIONS" not in out
    assert "vote_outcome = yes-at-least-no" in out  # option values are data


def test_our_words_around_a_place_are_translated():
    webley = load_ruleset("webley-en")
    with i18n.using("de"):
        assert cite(webley, "B3") == "Webley, Covering Toilets, para. 2"
        assert cite(webley, "A7") == "Webley, nicht geregelt (übernommen aus der deutschen Spielregel A.7)"
    with i18n.using("cs"):
        assert cite(webley, "A7") == "Webley, neuvedeno (převzato z německé Spielregel A.7)"
    assert cite(webley, "A7") == webley.cite("A7")


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_rules_diff_shows_both_wordings_translated(lang):
    english = json.loads(run("rules", "diff", "hig-1991", "webley-en", "--all", "--format", "json", "--lang",
                             "en").output)
    shown = json.loads(run("rules", "diff", "hig-1991", "webley-en", "--all", "--format", "json",
                           "--lang", lang).output)
    assert len(shown["rows"]) == len(english["rows"]) > 0
    for en, tr in zip(english["rows"], shown["rows"]):
        assert (tr["topic"], tr["rule"], tr["option"]) == (en["topic"], en["rule"], en["option"])
        if en["option"]:
            assert (tr["value_a"], tr["value_b"]) == (en["value_a"], en["value_b"])
        for field in ("wording_a", "wording_b"):
            assert tr[field] != en[field] and not english_words(tr[field]), (lang, en["topic"], field)
    text = run("rules", "diff", "hig-1991", "webley-en", "--width", "120", "--lang", lang).output
    assert "ballot_order = placer-first-clockwise" in text
    assert ("weitere Punkte" if lang == "de" else "dalších bodů") in text


def test_rules_list_names_in_czech():
    out = run("rules", "list", "--lang", "cs").output
    assert "Hans im Glück 1991, německá pravidla (výchozí)  [de-hig-1991-a.txt]" in out


def test_rules_help_is_translated():
    out = run("rules", "diff", "--lang", "de", "--help").output
    assert "Wo die Regelwerke A und B zu verschiedenen Urteilen kommen" in out
    assert "Breite der Texttabelle" in out
    out = run("adjudicate", "--lang", "cs", "--help").output
    assert "Posoudí tah N ze souboru SOUBOR" in out and "Posoudit podle každé dodávané sady pravidel." in out
    assert 'drunter adjudicate game.dn --turn 12 --move "W3 b1-d1"' in out  # the example lines stay


@pytest.mark.parametrize("lang, legal, illegal", [("de", "ZULÄSSIG", "UNZULÄSSIG — B005"),
                                                  ("cs", "PŘÍPUSTNÉ", "NEPŘÍPUSTNÉ — B005")])
def test_adjudicate_verdict_words(lang, legal, illegal):
    out = run("adjudicate", TIE, "--turn", 3, "--all-rulesets", "--lang", lang).output
    lines = out.splitlines()
    assert [line for line in lines if line.startswith("hig-1991 (")][0].endswith(": " + legal)
    assert illegal in [line for line in lines if line.startswith("webley-en (")][0]
    assert not re.search(r"\b(LEGAL|ILLEGAL|accepted when|Rules applied|Position before)\b", out)
    assert "3. Anna S1 c2 vote { Anna: JA, Ben: NE } -> accepted 1:1" in out  # DN text never changes


def test_adjudicate_json_keeps_fields_and_codes():
    english = json.loads(run("adjudicate", TIE, "--turn", 3, "--all-rulesets", "--format", "json", "--lang",
                             "en").output)
    german = json.loads(run("adjudicate", TIE, "--turn", 3, "--all-rulesets", "--format", "json",
                            "--lang", "de").output)
    assert german.keys() == english.keys()
    for en, de in zip(english["verdicts"], german["verdicts"]):
        assert de.keys() == en.keys()
        for field in ("ruleset", "legal", "code", "move", "player", "position_string", "alternatives"):
            assert de[field] == en[field], field
        assert [r["rule"] for r in de["rules"]] == [r["rule"] for r in en["rules"]]
        assert (de["vote"]["yes"], de["vote"]["no"], de["vote"]["option"]) == \
            (en["vote"]["yes"], en["vote"]["no"], en["vote"]["option"])
    assert german["verdicts"][0]["status"] == "ZULÄSSIG"


def test_adjudicate_what_if_at_a_position_in_german():
    position = json.loads(run("adjudicate", TIE, "--turn", 3, "--format", "json").output)["verdicts"][0][
        "position_string"]
    out = run("adjudicate", "--position", position, "--move", "S1 c2 vote { Anna: JA, Ben: NE }",
              "--all-rulesets", "--lang", "de").output
    assert out.startswith("position, Zug 3 (Was-wäre-wenn, nicht gespielt)\n")
    assert "Zug (Was-wäre-wenn, nicht gespielt): 3. Anna S1 c2 vote { Anna: JA, Ben: NE }" in out
    assert "Die Regelwerke sind uneins: " in out


def test_adjudicate_usage_error_in_german():
    result = run("adjudicate", TIE, "--lang", "de")
    assert result.exit_code == 2
    assert "zu einem Protokoll DATEI gehört --turn N" in result.output


def test_adjudicate_in_german_matches_the_golden_file():
    out = run("adjudicate", "replays/disputes/tie-vote-1-1.dn", "--turn", 3, "--all-rulesets", "--lang", "de")
    assert out.exit_code == 0, out.output
    if os.environ.get("DRUNTER_UPDATE_GOLDEN"):
        GOLDEN.write_text(out.output, encoding="utf-8")
    assert out.output == GOLDEN.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_placeholders_of_these_commands_survive_translation(lang):
    path = ROOT / "drunter_notation" / "locale" / lang / "LC_MESSAGES" / "drunter.po"
    catalog = read_po(io.BytesIO(path.read_bytes()))
    checked = 0
    for m in catalog:
        if not m.id or not any(own in loc for loc, _ in m.locations for own in OWN_FILES):
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        assert all(strings), (lang, ids[0])
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for s in strings:
            assert set(PLACEHOLDER.findall(s)) == wanted, (lang, ids[0], s)
        checked += 1
    assert checked > 300
