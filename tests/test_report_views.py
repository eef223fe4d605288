"""What a reader of a report sees first, in a real browser (Chromium via Playwright)
at a laptop's 1280×800 and a phone's 390×844: a ``#frame-N`` link shows that frame
alone and follows the address, the first view tells no result, the whole board is
in the laptop's first view, and the index's game list comes first and fits a phone.
Screenshots go to test-artifacts/."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ARTIFACTS, LONG, ROOT

LAPTOP, PHONE = (1280, 800), (390, 844)
CLUB = "2024-02-09-gruener-baum"  # the longest header of the club's games: date, site and round

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """Every sample of replays/ reported into one archive with its index, as a club would."""
    out = tmp_path_factory.mktemp("archive")
    done = subprocess.run([sys.executable, "-c", "from drunter_notation.cli import main; main()", "report",
                           "replays/", "--index", "--out-dir", str(out)], cwd=ROOT, capture_output=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (out / "index.html").exists(), done.stderr.decode()
    return out


def open_page(browser, url: str, size: tuple[int, int]):
    page = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
    trouble: list[str] = []
    page.on("pageerror", lambda e: trouble.append(str(e)))
    page.on("console", lambda m: trouble.append(m.text) if m.type == "error" else None)
    page.goto(url)
    return page, trouble


def shown_frames(page) -> list[str]:
    return [page.locator(".detail").nth(i).get_attribute("data-frame") for i in range(page.locator(".detail").count())
            if page.locator(".detail").nth(i).is_visible()]


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))
    assert (ARTIFACTS / name).stat().st_size > 10_000


@pytest.mark.parametrize("size", [pytest.param(LAPTOP, marks=LONG), PHONE], ids=["laptop", "phone"])  # laptop: CI's long pass
def test_a_frame_link_shows_that_frame_alone_and_follows_the_address(browser, archive, size):
    page, trouble = open_page(browser, (archive / f"club/{CLUB}.html").as_uri() + "#frame-27", size)
    assert shown_frames(page) == ["27"]
    assert page.locator(".detail:not(.off) h3").inner_text().startswith("Turn 27")
    assert page.locator("#board .mark:not(.off)").count() <= 1
    assert page.locator("#turns li.current").get_attribute("data-frame") == "27"
    page.evaluate("location.hash = '#frame-5'")
    page.wait_for_function("document.querySelector('#turns li.current').getAttribute('data-frame') === '5'")
    assert shown_frames(page) == ["5"] and page.locator("#slider").input_value() == "5"
    page.keyboard.press("ArrowRight")
    assert shown_frames(page) == ["6"]
    assert trouble == []


@pytest.mark.parametrize("size", [pytest.param(LAPTOP, marks=LONG), PHONE], ids=["laptop", "phone"])  # laptop: CI's long pass
def test_the_first_view_tells_no_result_and_the_result_is_one_tap_away(browser, archive, size):
    page, trouble = open_page(browser, (archive / f"club/{CLUB}.html").as_uri(), size)
    seen = page.locator("body").inner_text()
    assert "Tobias (8 points)" not in seen and "wins" not in seen and "Final scores" in seen
    assert page.locator("#final-scores table").is_hidden()
    shot(page, f"report-first-view-{size[0]}x{size[1]}.png")
    page.locator("#result summary").click()
    assert "Tobias (8 points)" in page.locator("#result").inner_text()
    page.locator("#final-scores summary").click()
    assert page.locator("#final-scores table").is_visible()
    assert trouble == []


def test_the_boards_bottom_row_is_in_the_laptops_first_view(browser, archive):
    page, trouble = open_page(browser, (archive / f"club/{CLUB}.html").as_uri(), LAPTOP)
    board = page.locator("#board").bounding_box()
    assert board["y"] >= 0 and board["y"] + board["height"] <= LAPTOP[1], board
    assert board["width"] >= 600  # fitted by its height, not shrunk to a stamp
    assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP[0]
    shot(page, f"report-laptop-{LAPTOP[0]}x{LAPTOP[1]}-whole-board.png")
    assert trouble == []


def test_the_index_on_a_phone_starts_with_the_games_and_needs_no_sideways_scrolling(browser, archive):
    page, trouble = open_page(browser, (archive / "index.html").as_uri(), PHONE)
    assert page.locator("#games").bounding_box()["y"] < PHONE[1] / 2
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    first = page.locator("table.games tr.game").first
    for label in ("winner", "scores"):
        cell = first.locator(f'td[data-label="{label}"]').bounding_box()
        assert cell["x"] >= 0 and cell["x"] + cell["width"] <= PHONE[0], (label, cell)
        assert cell["y"] < PHONE[1], (label, cell)  # the first game's winner and scores in the first view
    shot(page, f"index-phone-{PHONE[0]}x{PHONE[1]}.png")
    page, _ = open_page(browser, (archive / "index.html").as_uri(), LAPTOP)
    assert page.locator("table.games tr.head").first.is_visible()  # a plain table where it fits
    assert page.locator("#games").bounding_box()["y"] < LAPTOP[1] / 2
    shot(page, f"index-laptop-{LAPTOP[0]}x{LAPTOP[1]}.png")
    assert trouble == []


AXE = ROOT / "site" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.mark.site  # where axe-core is installed: with the browser edition (cd site && npm ci)
@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (cd site && npm ci)")
@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_axe_finds_no_violation_in_a_report_the_index_or_an_unreadable_record_s_page(browser, archive, size):
    """The reports are pages too: landmarks, headings in order, a long record's lines reachable by keyboard."""
    axe = AXE
    unreadable = next(p for p in sorted(archive.rglob("*.html")) if "P001" in p.name)
    found = {}
    for path in (archive / "index.html", archive / f"club/{CLUB}.html", unreadable):
        page = browser.new_context(viewport={"width": size[0], "height": size[1]}, bypass_csp=True).new_page()
        page.goto(path.as_uri())
        page.add_script_tag(path=str(axe))
        violations = page.evaluate("axe.run(document).then(r => r.violations.map(v => [v.id, v.nodes.length]))")
        if violations:
            found[path.name] = violations
    assert not found, found
