"""The report's layout in German and Czech, in a real browser (Chromium via Playwright)
at a laptop's 1280 and a phone's 390 pixels: the index keeps each ISO date on one
line, and the move list shows every entry whole, a long vote wrapped, never clipped."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ARTIFACTS, LONG, ROOT
from test_browser import open_page

from drunter_notation import i18n
from drunter_notation.load import judge
from drunter_notation.notation.parser import parse_text
from drunter_notation.report import render_index, render_report
from drunter_notation.report.index import index_entry

SIZES = {"phone": (390, 844), "laptop": (1280, 800)}
SIZE_IDS = ["phone", pytest.param("laptop", marks=LONG)]  # the laptop in CI's long pass
LANGS = ("de", "cs")

pytestmark = pytest.mark.slow


def _index(tmp_path: Path, lang: str) -> Path:
    entries = []
    for path in sorted((ROOT / "replays" / "club").glob("*.dn")):
        text = path.read_text(encoding="utf-8")
        entries.append(index_entry(judge(parse_text(text, str(path)), str(path)), path.stem + ".html", str(path)))
    with i18n.using(lang):
        html = render_index(entries)
    out = tmp_path / f"index-{lang}.html"
    out.write_text(html, encoding="utf-8")
    return out


def _report(tmp_path: Path, lang: str) -> Path:
    path = ROOT / "replays" / "legal-4p.dn"  # votes of four ballots: the longest entries
    text = path.read_text(encoding="utf-8")
    with i18n.using(lang):
        html = render_report(judge(parse_text(text, str(path)), str(path), keep_states=True), text)
    out = tmp_path / f"report-{lang}.html"
    out.write_text(html, encoding="utf-8")
    return out


LINES = """(selector) => [...document.querySelectorAll(selector)].filter((el) => el.textContent.trim()).map((el) => {
  const range = document.createRange(); range.selectNodeContents(el);
  const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
  return [el.textContent, tops.size];
})"""

CLIPPED = """(selector) => [...document.querySelectorAll(selector)].filter(
  (el) => el.scrollWidth > el.clientWidth + 1 || getComputedStyle(el).textOverflow === 'ellipsis'
    && getComputedStyle(el).overflow === 'hidden').map((el) => el.textContent)"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZE_IDS)
def test_the_index_keeps_each_date_on_one_line(browser, tmp_path, lang, size):
    page, trouble = open_page(browser, _index(tmp_path, lang), SIZES[size])
    dates = [(text, n) for text, n in page.evaluate(LINES, "table.games td") if re.fullmatch(r"\d{4}-\d\d-\d\d", text)]
    assert len(dates) >= 4
    assert [d for d in dates if d[1] != 1] == []
    assert page.evaluate("document.documentElement.scrollWidth") <= SIZES[size][0]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"index-{lang}-{size}.png"))
    assert trouble == []
    page.context.close()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZE_IDS)
def test_the_move_list_shows_long_votes_whole(browser, tmp_path, lang, size):
    page, trouble = open_page(browser, _report(tmp_path, lang), SIZES[size])
    entries = page.locator("ol.turns li button")
    assert entries.count() > 30
    assert page.evaluate(CLIPPED, "ol.turns li button, ol.turns li.unjudged span") == []
    lines = dict(page.evaluate(LINES, "ol.turns li button"))
    longest = max(lines, key=len)
    assert "vote {" in longest and lines[longest] >= (2 if size == "phone" else 1)
    first = entries.first.inner_text()
    assert first == {"de": "Start", "cs": "začátek"}[lang]  # the one entry that is not DN, in words
    page.screenshot(path=str(ARTIFACTS / f"moves-{lang}-{size}.png"), full_page=True)
    assert trouble == []
    page.context.close()
