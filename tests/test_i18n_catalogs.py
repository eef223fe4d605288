"""The catalogs are complete and current: every message extracted from the code has a
German and a Czech translation, none fuzzy, each with the placeholders of its msgid,
and the compiled .mo files match the .po files (scripts/catalogs.py check)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from drunter_notation import i18n

ROOT = Path(__file__).resolve().parents[1]


def _catalogs():
    spec = importlib.util.spec_from_file_location("catalogs", ROOT / "scripts" / "catalogs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_message_is_translated_and_compiled():
    problems = _catalogs().problems()
    assert not problems, f"{len(problems)} problems, e.g.:\n" + "\n".join(problems[:40])


def test_a_reading_sample_is_drawn_again_by_its_seed():
    catalogs = _catalogs()
    first = catalogs.sample("cs", 100, 1)
    assert first == catalogs.sample("cs", 100, 1) != catalogs.sample("cs", 100, 2)
    assert [line for line in first.splitlines() if line.startswith("## ")][-1].startswith("## 100")
    assert "\ncs: " in first and "\nen: " in first


def test_the_shipped_languages_are_the_catalogs():
    assert sorted(_catalogs().languages()) == sorted(set(i18n.LANGUAGES) - {i18n.SOURCE})


@pytest.mark.parametrize("lang, n, form", [("cs", 1, 0), ("cs", 3, 1), ("cs", 5, 2), ("de", 1, 0), ("de", 2, 1)])
def test_czech_has_three_plural_forms_and_german_two(lang, n, form):
    assert i18n.translations(lang).plural(n) == form


@pytest.mark.parametrize("value, lang", [
    ("de_DE.UTF-8", "de"), ("cs_CZ.utf8", "cs"), ("de-AT", "de"), ("C", "en"), ("POSIX", "en"),
    ("C.UTF-8", "en"), ("fr_FR.UTF-8", None), ("", None), ("en_GB", "en")])
def test_locale_names_and_tags(value, lang):
    assert i18n.parse_tag(value) == lang


@pytest.mark.parametrize("env, lang", [
    ({"LANG": "de_DE.UTF-8"}, "de"),
    ({"LC_ALL": "cs_CZ.UTF-8", "LANG": "de_DE.UTF-8"}, "cs"),
    ({"LANGUAGE": "fr:cs", "LANG": "de_DE.UTF-8"}, "cs"),
    ({"LANGUAGE": "fr", "LANG": "de_DE.UTF-8"}, "de"),
    ({"LC_ALL": "C", "LANG": "de_DE.UTF-8"}, "en"),
    ({"LC_MESSAGES": "POSIX", "LANG": "cs_CZ"}, "en"),
    ({}, "en"), ({"LANG": "fr_FR.UTF-8"}, "en")])
def test_the_environment_as_gettext_reads_it(env, lang):
    assert i18n.from_environment(env) == lang


@pytest.mark.parametrize("header, lang", [
    ("de-DE,de;q=0.9,en;q=0.8", "de"), ("en-US,en;q=0.9,cs;q=0.8", "en"), ("fr, cs;q=0.5", "cs"),
    ("cs;q=0.4, de;q=0.6", "de"), ("de;q=0, cs", "cs"), ("", "en"), (None, "en"), ("xx;q=abc", "en"),
    (",,;;q=", "en")])
def test_accept_language(header, lang):
    assert i18n.from_accept_language(header) == lang


def test_numbers_as_each_language_writes_them():
    expected = {"en": ("12.5%", "1,234.5"), "de": ("12,5\xa0%", "1.234,5"), "cs": ("12,5\xa0%", "1\xa0234,5")}
    for lang, (percent, number) in expected.items():
        with i18n.using(lang):
            assert i18n.format_percent(0.125, 1) == percent
            assert i18n.format_number(1234.5, 1) == number


def test_a_request_language_does_not_leak():
    before = i18n.language()
    with i18n.using("cs"):
        assert i18n.language() == "cs"
    assert i18n.language() == before


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_a_msgid_that_is_also_a_plural_singular_is_translated(lang):
    """One msgid used alone and as a plural's singular ("player") has one catalog entry,
    the plural one: ``_()`` finds its singular form on every Python (3.11 does not look)."""
    from babel.messages.pofile import read_po

    with open(ROOT / "drunter_notation" / "locale" / lang / "LC_MESSAGES" / "drunter.po", "rb") as f:
        plurals = [m for m in read_po(f) if m.id and m.pluralizable and m.context is None]
    assert plurals
    with i18n.using(lang):
        for m in plurals:
            assert i18n._(m.id[0]) == i18n.ngettext(m.id[0], m.id[1], 1), m.id


def test_click_words_come_from_the_kept_list_not_the_installed_click(monkeypatch):
    catalogs = _catalogs()
    kept = {m.id for m in catalogs._read_po(catalogs.CLICK_WORDS) if m.id}
    assert "Usage:" in kept and "Show this message and exit." in kept
    monkeypatch.setattr(catalogs, "installed_click_words", lambda: pytest.fail("the check reads click"))
    assert not catalogs.problems()


def test_a_click_word_no_catalog_has_is_shown_in_english():
    import click.exceptions

    from drunter_notation.cli.language import install_click_words
    install_click_words()
    with i18n.using("de"):
        assert click.exceptions._("Usage:") != "Usage:"  # a kept word is translated
        assert click.exceptions._("a word of a later click release") == "a word of a later click release"


def test_every_sentence_a_page_script_translates_is_in_the_catalog():
    """Read apart from Babel's JavaScript lexer, which a construct it misreads (a regular expression,
    a template) can make skip the strings after it: the page would show them in English."""
    import re

    from babel.messages.pofile import read_po
    with open(ROOT / "drunter_notation" / "locale" / "drunter.pot", "rb") as f:
        ids = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(f) if m.id}
    scripts = [*(ROOT / "site" / "pages").glob("*.js"), *(ROOT / "drunter_notation" / "web" / "static").glob("*.js")]
    called = [(p.name, m[1]) for p in scripts
              for m in re.finditer(r'\b(?:_|ngettext)\(\s*"((?:[^"\\\n]|\\.)*)"', p.read_text("utf-8"))]
    assert len(called) > 100
    missing = [c for c in called if c[1].replace('\\"', '"') not in ids]
    assert not missing, missing
