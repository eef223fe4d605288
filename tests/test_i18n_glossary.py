"""One word per concept and one form of address per language: the German and Czech
catalogs use no word the glossary (docs/glossary.toml) keeps out for a concept, and
docs/glossary.md is the page made from that data."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]


def _glossary():
    spec = importlib.util.spec_from_file_location("glossary", ROOT / "scripts" / "glossary.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _catalog(lang: str) -> Catalog:
    with open(ROOT / "drunter_notation" / "locale" / lang / "LC_MESSAGES" / "drunter.po", "rb") as f:
        return read_po(f)


def _rules(data: dict, lang: str) -> list[tuple[str, str | None, str]]:
    """(concept, pattern on the English, pattern the translation must not contain)."""
    rules = [("form of address", None, p) for p in data["address"][f"avoid_{lang}"]]
    for section in data["section"]:
        for term in section["term"]:
            rules += [(term["en"], term.get("when"), p) for p in term.get(f"avoid_{lang}", [])]
    return rules


def misused(catalog: Catalog, rules: list[tuple[str, str | None, str]]) -> list[str]:
    """Every message whose translation uses a word the glossary keeps out, with the concept."""
    found = []
    for m in catalog:
        if not m.id:
            continue
        english = " ".join(m.id) if isinstance(m.id, (list, tuple)) else m.id
        english = f"{m.context}: {english}" if m.context else english  # a context is another concept's word
        for text in m.string if isinstance(m.string, (list, tuple)) else (m.string,):
            for concept, when, pattern in rules:
                if (when is None or re.search(when, english)) and re.search(pattern, text, re.M):
                    found.append(f"{concept}: {pattern!r} in {text[:120]!r} (for {english[:60]!r})")
    return found


def test_the_page_is_made_from_the_data():
    assert _glossary().main(["check"]) == 0


def test_every_concept_has_its_german_and_czech_word():
    data = _glossary().load()
    terms = [t for s in data["section"] for t in s["term"]]
    assert len(terms) > 50 and len({t["en"] for t in terms}) == len(terms)
    assert all(t["de"].strip() and t["cs"].strip() for t in terms)
    assert data["address"]["de"] == "du" and data["address"]["cs"].startswith("vy")


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_the_catalog_uses_one_word_per_concept_and_one_form_of_address(lang):
    problems = misused(_catalog(lang), _rules(_glossary().load(), lang))
    assert not problems, f"{len(problems)} messages:\n" + "\n".join(problems[:40])


@pytest.mark.parametrize("lang, english, translation, concept", [
    ("de", "the record is empty", "die Aufzeichnung ist leer", "record"),
    ("de", "check the path", "prüfen Sie den Pfad", "form of address"),
    ("de", "seat {n}", "Platz {n}", "seat"),
    ("de", "{player} passes: no legal placement.", "{player} setzt aus: keine erlaubte Legemöglichkeit.", "legal"),
    ("cs", "back to hand", "zpět do ruky", "hand, stock"),
    ("cs", "seat {n}", "{n}. místo", "seat"),
    ("cs", "a hint is for your own turn", "nápověda je jen pro tvůj tah", "form of address"),
    ("cs", "expert game", "rozšířená hra", "expert variant"),
    ("de", "Replay", "Wiederholen", "replay (taken-back turns"),
])
def test_a_word_kept_out_is_found(lang, english, translation, concept):
    catalog = Catalog(locale=lang)
    catalog.add(english, translation)
    problems = misused(catalog, _rules(_glossary().load(), lang))
    assert problems and all(p.startswith(concept) for p in problems), problems


@pytest.mark.parametrize("lang, english, translation", [
    ("de", "{players} still tie and share place {rank}", "{players} bleiben gleichauf und teilen sich Platz {rank}"),
    ("de", "It may not be extended any further.", "Sie darf nicht weiter verlängert werden."),
    ("cs", "{players} still tie and share place {rank}", "{players} se dělí o {rank}. místo"),
    ("de", "warnings allowed", "Warnungen erlaubt")])
def test_the_same_word_in_another_sense_is_allowed(lang, english, translation):
    catalog = Catalog(locale=lang)
    catalog.add(english, translation)
    assert misused(catalog, _rules(_glossary().load(), lang)) == []


def test_a_message_context_names_another_concept():
    catalog = Catalog(locale="de")
    catalog.add("Replay", "Wiederholen", context="taken-back turns")
    catalog.add("Replay", "Nachspielen")
    assert misused(catalog, _rules(_glossary().load(), "de")) == []
