"""The reports and the club's index in German and Czech: the page says its language,
no English word is left in what a reader sees (the DN text aside, which never
depends on the language), figures are written as the language writes them, the
record embedded in the page is the same bytes in every language; and a German
report read on a phone, in a real browser (Chromium via Playwright)."""
from __future__ import annotations

import functools
import re
from html.parser import HTMLParser

import pytest
from conftest import ARTIFACTS, LONG, ROOT, drunter_here

from drunter_notation import i18n
from drunter_notation.analysis import Settings, analyze_text
from drunter_notation.data.rulesets import list_rulesets
from drunter_notation.errors import DnError
from drunter_notation.load import judge
from drunter_notation.notation.parser import parse_text
from drunter_notation.report import render_error, render_index, render_report
from drunter_notation.report.index import index_entry

SAMPLES = ("legal-4p.dn", "legal-expert-4p.dn", "illegal/A004-overlap.dn", "disputes/all-abstain-0-0.dn")
# English words a translated page must not show (whole words, case as written; not the key
# names Home and End, which Czech keyboards print as they are).
STOP = ("the", "The", "Turn", "turn", "Player", "player", "Players", "Next", "next", "Previous", "previous",
        "vote", "Vote", "votes", "winner", "Show", "Final", "scores", "Record", "record", "records", "legal",
        "points", "tile", "tiles", "gang", "wall", "street", "river", "toilet", "Board", "Ruleset", "Before",
        "flow", "Findings", "games", "wins", "seat", "rejected", "accepted", "corner", "extends", "passes",
        "Tally", "claimed", "rank", "with", "of", "and")
# Elements whose text is DN (the record, a turn's line, tiles in hand, vote cards) or the
# board's letters and coordinates: they never change with the language.
DN_CLASSES = {"dn", "source", "turns", "code"}
DN_TAGS = {"code", "pre", "script", "style", "kbd"}


class Visible(HTMLParser):
    """The text a reader sees (and the tooltips and labels a screen reader reads), DN left out."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []  # per open element: inside DN text?
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        inside = bool(self.stack and self.stack[-1]) or tag in DN_TAGS or bool(
            DN_CLASSES & set((a.get("class") or "").split())) or a.get("id") == "turns"
        if tag not in ("br", "meta", "input", "img", "line", "rect", "path", "circle", "polygon", "polyline"):
            self.stack.append(inside)
        if not inside:
            self.text += [a[k] for k in ("aria-label", "title", "alt", "data-label") if a.get(k)]

    def handle_endtag(self, tag):
        if self.stack and tag not in ("br", "meta", "input", "img"):
            self.stack.pop()

    def handle_data(self, data):
        if not (self.stack and self.stack[-1]) and data.strip():
            self.text.append(data.strip())


def visible(html: str) -> str:
    p = Visible()
    p.feed(html)
    return "\n".join(p.text)


def english_left(text: str, foreign: list[str]) -> list[str]:
    """The stop words in ``text``, once the texts of other modules (findings, tie-breaks,
    ruleset names: not this page's words) are taken out."""
    for s in sorted(foreign, key=len, reverse=True):
        text = text.replace(s, " ")
    return sorted({w for w in STOP if re.search(rf"(?<![\w-]){w}(?![\w-])", text)})


def foreign_texts(t) -> list[str]:
    out = [d.message for d in t.diagnostics] + [d.hint for d in t.diagnostics if d.hint]
    out += [t.tie_break] if t.tie_break else []
    out += [t.ruleset.name] if t.ruleset else []
    return [s for s in out if s]


def report(sample: str, lang: str, analysis: dict | None = None) -> tuple[str, object]:
    text = (ROOT / "replays" / sample).read_text(encoding="utf-8")
    with i18n.using(lang):
        t = judge(parse_text(text, sample), sample, keep_states=True)
        return render_report(t, text, analysis), t


def dn_parts(html: str) -> list[str]:
    """Every piece of DN the page embeds: the record, each turn's line, the frames' data."""
    return (re.findall(r'<pre class="source">.*?</pre>', html, re.S) + re.findall(r'<div class="dn">.*?</div>', html)
            + re.findall(r'<button type="button" data-frame="[1-9]\d*">.*?</button>', html)  # frame 0: the start
            + re.findall(r'<li class="unjudged"[^>]*>(<span>.*?</span>)', html)
            + re.findall(r'<script type="application/json" id="frames">.*?</script>', html))


@pytest.mark.parametrize("lang", ["de", "cs"])
@pytest.mark.parametrize("sample", SAMPLES)
def test_a_report_speaks_the_language_and_keeps_the_record(sample, lang):
    html, t = report(sample, lang)
    english, _t = report(sample, "en")
    assert f'<html lang="{lang}">' in html and '<html lang="en">' in english
    text = visible(html)
    assert english_left(text, foreign_texts(t)) == []
    assert english_left(visible(english), foreign_texts(t))  # the scan finds English where there is some
    assert dn_parts(html) == dn_parts(english) and dn_parts(html)


def test_the_words_are_the_languages_own():
    de, _t = report("legal-4p.dn", "de")
    cs, _t = report("legal-4p.dn", "cs")
    for word in ("Vor dem 1. Zug", "Spielplan", "Endwertung zeigen", "Bautrupp", "Toilettenhäuschen", "Legende",
                 "verlängert die", "Stimmkarten (Stimmen)", "nächster Zug"):
        assert word in de, word
    for word in ("Před 1. tahem", "Hrací plán", "Ukázat konečné skóre", "zedník", "kadibudka", "prodlužuje",
                 "hlasovací karty (hlasy)", "další tah"):
        assert word in cs, word


@functools.cache
def english_analysis(sample: str):
    """The sample's analysis made in English, once for both languages' reports (the same seed, the same analysis)."""
    path = ROOT / "replays" / sample
    with i18n.using("en"):
        return analyze_text(path.read_text(), str(path), Settings(playouts=8, seed=2, alternatives=1))


@pytest.mark.parametrize("sample, lang, words", [  # the expert game in German in CI's long pass
    ("legal-4p.dn", "de", ("verschonte", "Spielweise")), ("legal-4p.dn", "cs", ("ušetřil(a)", "styl hry")),
    pytest.param("legal-expert-4p.dn", "de", ("verschonte", "Spielweise"), marks=LONG),
    ("legal-expert-4p.dn", "cs", ("ušetřil(a)", "styl hry"))])
def test_the_analysis_charts_speak_the_language(sample, lang, words):
    """An analysis made in English (its JSON is data) gives a report in the report's
    language: its verdicts and evidence too, an expert pair of goal cards by their names."""
    html, t = report(sample, lang, english_analysis(sample))
    section = html[html.index('<section class="analysis"'):]
    assert re.search(r">50\u00a0%</text>", section)  # the axes: Babel's percent, with its non-breaking space
    assert "50%" not in section and english_left(visible(section), foreign_texts(t)) == []
    assert all(word in section for word in words)
    goals = ("all-threes", "all-fours", "lowest-of-each", "one-each", "museum", "tavern", "school", "townhall",
             "firehouse", "church", "random", "purposeful", "bluffer", "decoy", "builder", "soft")  # ids, and styles
    assert not [g for g in goals if re.search(rf"(?<![\w-]){g}(?![\w-])", visible(section))]


@pytest.mark.parametrize("lang", ["de", "cs"])
def test_the_index_speaks_the_language_and_writes_its_figures_so(lang):
    entries = []
    for path in sorted((ROOT / "replays" / "club").glob("*.dn")) + [ROOT / "replays" / "illegal" / "A004-overlap.dn"]:
        text = path.read_text(encoding="utf-8")
        entries.append(index_entry(judge(parse_text(text, str(path)), str(path)), path.stem + ".html", str(path)))
    with i18n.using(lang):
        html = render_index(entries)
    assert f'<html lang="{lang}">' in html
    foreign = [e.error.message for e in entries if e.error] + [e.title for e in entries if e.title]
    assert english_left(visible(html), foreign) == []
    figures = re.findall(r'<div class="n">([^<]*)</div>', html)
    assert any(re.fullmatch(r"\d+,\d ± \d+,\d", f) for f in figures), figures  # a mean: a decimal comma
    assert re.search(r"\(\d+\u00a0% ", html)  # the share of votes rejected: "(40 % abgelehnt)"
    with i18n.using("en"):
        english = render_index(entries)
    assert re.search(r"\(\d+% rejected\)", english) and any(re.fullmatch(r"\d+\.\d ± \d+\.\d", f) for f in
                                                             re.findall(r'<div class="n">([^<]*)</div>', english))


def test_the_error_page_speaks_the_language():
    text = '[Players "Anna, Ben"]\n1. Anna ???\n'
    with pytest.raises(DnError) as caught:
        parse_text(text, "bad.dn")
    with i18n.using("de"):
        html = render_error("bad.dn", caught.value.diagnostic, text)
    assert '<html lang="de">' in html and "kein lesbares Protokoll" in html and "Zeile 2" in html
    assert english_left(visible(html), [caught.value.diagnostic.message, caught.value.diagnostic.hint or ""]) == []


def test_the_command_writes_in_its_language(tmp_path):
    done = drunter_here("report", "--lang", "cs", "replays/legal-4p.dn", "replays/legal-2p.dn", "--index", "--out-dir",
                        str(tmp_path))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert re.fullmatch(r"zapsáno .*legal-4p\.html \(platný, \d+ tahů\)", lines[0]), lines
    assert lines[-1].endswith("index.html (2 záznamy v archivu)"), lines
    assert '<html lang="cs">' in (tmp_path / "legal-4p.html").read_text()
    # the index is rewritten whole in the language of the run that writes it
    assert drunter_here("report", "--lang", "de", "replays/legal-3p.dn", "--index", "--out-dir",
                        str(tmp_path)).returncode == 0
    index = (tmp_path / "index.html").read_text()
    assert '<html lang="de">' in index and "3 Protokolle in diesem Archiv" in index and "záznam" not in index
    helped = drunter_here("report", "--lang", "de", "--help")
    assert "HTML-Bericht" in helped.stdout and "Die Berichtsdatei" in helped.stdout


@pytest.mark.slow
def test_a_german_report_on_a_phone(browser, tmp_path):
    html, t = report("legal-4p.dn", "de")
    page_file = tmp_path / "bericht.html"
    page_file.write_text(html, encoding="utf-8")
    page = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True).new_page()
    trouble: list[str] = []
    page.on("pageerror", lambda e: trouble.append(str(e)))
    page.goto(page_file.as_uri())
    assert page.locator(".detail:not(.off) h3").inner_text() == "Vor dem 1. Zug"
    page.locator("#next").tap()
    assert page.locator(".detail:not(.off) h3").inner_text().startswith("1. Zug — ")
    page.keyboard.press("ArrowRight")
    shown = page.locator(".detail:not(.off)")
    assert shown.locator("h3").inner_text().startswith("2. Zug — ")
    assert "verlängert" in shown.inner_text() and "war in diesem Zug dran" in shown.inner_text()
    assert page.locator("#next").get_attribute("aria-label") == "nächster Zug"
    seen = page.locator("body").inner_text()
    dn = page.evaluate("() => Array.from(document.querySelectorAll('#turns li, .dn, code, pre'), e => e.innerText)")
    assert english_left(seen, foreign_texts(t) + dn) == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-de-phone-390x844.png"))
    assert (ARTIFACTS / "report-de-phone-390x844.png").stat().st_size > 10_000
    assert trouble == []


@pytest.mark.slow
@pytest.mark.parametrize("lang, other", [("de", "cs"), pytest.param("cs", "de", marks=LONG)])  # both in CI's long pass
def test_reports_written_with_an_analysis_of_another_language_show_no_english(tmp_path, lang, other):
    """``drunter report --lang`` over an analysis ``drunter analyze`` made in another language:
    every page and the index, every frame of them, the findings and the hints too, shows no
    English word; only DN, file names and the rule sources' own places (Webley's) stay."""
    samples = [f"replays/{s}" for s in SAMPLES]
    analysed = drunter_here("analyze", "--format", "json", "--playouts", "8", "--lang", other, *samples)
    assert analysed.returncode == 2 and analysed.stdout.count("\n") == 3  # a record without hands is not analysed
    (tmp_path / "analysis.jsonl").write_text(analysed.stdout, encoding="utf-8")
    done = drunter_here("report", "--lang", lang, "--analysis", str(tmp_path / "analysis.jsonl"), "--index",
                        "--out-dir", str(tmp_path / "out"), *samples)
    assert done.returncode == 1, done.stderr  # A004-overlap breaks a rule
    pages = sorted((tmp_path / "out").glob("*.html"))
    assert len(pages) == 5
    places = sorted({re.split(r"; | \(|, para\.|, and |, translator", p)[0] for r in list_rulesets()
                     for p in [*r.sections.values(), *r.topic_sections.values()]}, key=len, reverse=True)
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert f'<html lang="{lang}">' in html
        text = re.sub(r"\S+\.dn\b", " ", visible(html))  # the records' file names
        assert english_left(text, [p for p in places if not p.startswith("not stated")]) == [], page.name
    assert '<section class="analysis"' in (tmp_path / "out" / "legal-4p.html").read_text(encoding="utf-8")
