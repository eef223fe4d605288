"""The reports and the index under their Content-Security-Policy in a real browser (Playwright +
/usr/bin/chromium): in English and German, at a laptop's 1280×800 and a phone's 390×844, for a valid
record (with and without the analysis), an invalid and an unreadable one, and the index over them.
Every page works as before -- the game steps, the turning points step the board -- and the browser
refuses nothing: no console error, no "Refused to ..." message, no securitypolicyviolation event."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import LONG, ROOT

from drunter_notation import i18n
from drunter_notation.analysis import Settings, analyze_text
from drunter_notation.errors import DnError
from drunter_notation.load import judge
from drunter_notation.notation.parser import parse_text
from drunter_notation.report import failed_entry, index_entry, render_error, render_index, render_report

pytestmark = pytest.mark.slow

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
# A tag that would reorder the heading if its bidi override reached the page raw.
TAGS = '[Annotator "\u202eRTL <u>x</u>"]\n[Site "\u05e9\u05dc\u05d5\u05dd \U0001f469\u200d\U0001f4bb"]\n'
INVALID = '[Event "Club night"]\n[Players "Anna, Ben"]\n1. Anna S2 b1-c1\n2. Ben W1 n1\n3. Anna S1 c2\n' \
          '4. Ben W1 m1\n5. Anna S1 c1\n6. Ben W1 l1\n'
UNREADABLE = '[Event "x"]\n1. ??? \u202e\n'
# Registered before any page script runs (Playwright's init scripts are not the page's and need no hash).
WATCH = ("document.addEventListener('securitypolicyviolation', function (e) {"
         " console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI); });")


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, dict[str, Path]]:
    sample = ROOT / "replays" / "legal-4p.dn"
    valid = sample.read_text().replace("[Players ", TAGS + "[Players ", 1)
    analysis = analyze_text(valid, str(sample), Settings(playouts=20, seed=4, alternatives=2))
    with pytest.raises(DnError) as e:
        parse_text(UNREADABLE, "unreadable.dn")
    out: dict[str, dict[str, Path]] = {}
    for lang in ("en", "de"):
        folder = tmp_path_factory.mktemp(f"csp-{lang}")
        with i18n.using(lang):
            timelines = {name: judge(parse_text(text, f"{name}.dn"), f"{name}.dn", keep_states=True)
                         for name, text in (("valid", valid), ("invalid", INVALID))}
            html = {"valid": render_report(timelines["valid"], valid),
                    "analysis": render_report(timelines["valid"], valid, analysis),
                    "invalid": render_report(timelines["invalid"], INVALID),
                    "unreadable": render_error("unreadable.dn", e.value.diagnostic, UNREADABLE),
                    "index": render_index([index_entry(timelines["valid"], "valid.html", "/c/valid.dn"),
                                           index_entry(timelines["invalid"], "invalid.html", "/c/invalid.dn"),
                                           failed_entry("unreadable.html", "/c/unreadable.dn", e.value.diagnostic)])}
        out[lang] = {}
        for name, text in html.items():
            (folder / f"{name}.html").write_text(text, encoding="utf-8")
            out[lang][name] = folder / f"{name}.html"
    return out


def open_watched(browser, path: Path, size: tuple[int, int]):
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text)
            if m.type == "error" or "Refused to" in m.text or "Content Security Policy" in m.text else None)
    page.add_init_script(WATCH)
    page.goto(path.as_uri())
    return page, problems


def step_through(page) -> None:
    """The game steps as before: keys, the buttons, a turn clicked in the list, the slider's number."""
    def current() -> str:
        return page.locator("#turns li.current").get_attribute("data-frame")

    assert current() == "0" and page.locator("#board .tile:not(.off)").count() == 0
    page.locator("#next").click()
    page.locator("#next").click()
    assert current() == "2" and page.locator("#pos").inner_text().startswith("2 / ")
    page.keyboard.press("End")
    last = str(page.locator(".detail").count() - 1)
    assert current() == last and page.locator(".detail:not(.off)").count() == 1
    page.keyboard.press("Home")
    assert current() == "0"
    page.locator('#turns li[data-frame="3"] button').click()
    assert current() == "3" and page.locator("#slider").input_value() == "3"
    assert page.locator("#board .tile:not(.off)").count() > 0


@pytest.mark.parametrize("lang, size", [("de", "phone"),  # the other three: CI's long pass
                                        pytest.param("en", "phone", marks=LONG), pytest.param("de", "laptop", marks=LONG),
                                        pytest.param("en", "laptop", marks=LONG)])
def test_the_pages_work_under_their_policy(browser, pages, lang, size):
    for name in ("valid", "analysis", "invalid"):
        page, problems = open_watched(browser, pages[lang][name], SIZES[size])
        step_through(page)
        if name == "analysis":
            point = page.locator(".analysis circle.tp").first
            point.scroll_into_view_if_needed()
            point.click()
            assert page.locator("#turns li.current").get_attribute("data-frame") == point.get_attribute("data-goto")
        if name != "invalid":  # the bidi override is shown as its escape, the Hebrew and the emoji as they are
            assert "\\u202eRTL <u>x</u>" in page.locator("header .meta").inner_text()
            assert "\u05e9\u05dc\u05d5\u05dd \U0001f469\u200d\U0001f4bb" in page.locator("header .meta").inner_text()
        # the seat colours moved from style attributes into the hashed <style>: still applied
        chip = page.locator("ol.players .chip").first
        assert chip.evaluate("c => getComputedStyle(c).backgroundColor") == "rgb(31, 58, 147)"
        assert problems == [], (name, problems)
        page.close()
    for name in ("unreadable", "index"):
        page, problems = open_watched(browser, pages[lang][name], SIZES[size])
        assert page.locator("h1").count() == 1
        if name == "index":
            assert page.locator("table.games a").count() == 3
        assert page.locator("p.made-by").evaluate("p => getComputedStyle(p).marginTop") == "30px"
        assert problems == [], (name, problems)
        page.close()


def test_a_script_the_policy_does_not_list_is_refused(browser, pages, tmp_path):
    """The check above would see a refusal: a page whose script is changed after rendering is refused."""
    path = tmp_path / "changed.html"
    path.write_text(pages["en"]["valid"].read_text(encoding="utf-8").replace('"use strict";', '"use strict"; ', 1),
                    encoding="utf-8")
    page, problems = open_watched(browser, path, SIZES["laptop"])
    assert page.locator("#turns li.current").count() == 0  # the script did not run
    assert any("Refused to execute inline script" in p or "CSP violation" in p for p in problems), problems
    page.close()
