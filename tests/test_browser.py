"""Generated reports in a real browser: headless Chromium via Playwright, driving
the system's /usr/bin/chromium (scripts/system-packages.sh --test installs it), at a laptop's
1280×800 and a phone's 390×844. Screenshots of both go to test-artifacts/.
Skipped only where that browser or the playwright package is missing."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import ARTIFACTS

from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.load import judge
from drunter_notation.notation.formatter import format_record
from drunter_notation.notation.parser import parse_text
from drunter_notation.report import index_entry, render_index, render_report
from drunter_notation.simulate import simulate_game

SIZES = {"phone": (390, 844), "laptop": (1280, 800)}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def page_file(tmp_path_factory) -> Path:
    record = simulate_game(load_board("schilda"), load_ruleset("hig-1991"), ("Anna", "Ben", "Cleo", "Dora"),
                           random.Random(11))
    text = format_record(record)
    path = tmp_path_factory.mktemp("report") / "game.html"
    path.write_text(render_report(judge(parse_text(text), keep_states=True), text), encoding="utf-8")
    return path


def test_stepping_through_a_report(browser, page_file):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems, requests = [], []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: requests.append(r.url))
    page.goto(page_file.as_uri())

    def tiles() -> int:
        return page.locator("#board .tile:not(.off)").count()

    def current() -> str:
        return page.locator("#turns li.current").get_attribute("data-frame")

    last = page.locator(".detail").count() - 1
    assert (tiles(), current()) == (0, "0")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    assert current() == "5"
    assert tiles() > 0
    assert page.locator("#board .mark:not(.off) rect.hl").count() >= 1  # the squares turn 5 covered
    assert page.locator(".detail:not(.off) h3").inner_text().startswith("Turn 5")
    assert page.locator("#slider").input_value() == "5"
    page.keyboard.press("ArrowLeft")
    assert current() == "4"
    page.keyboard.press("End")
    assert current() == str(last)
    assert tiles() == page.locator("#board .tile").count()
    page.keyboard.press("Home")
    assert (tiles(), current()) == (0, "0")
    page.locator('#turns li[data-frame="12"] button').click()
    assert current() == "12"
    page.locator("#next").click()
    assert current() == "13"

    page.keyboard.press("End")
    page.evaluate("window.scrollTo(0, 0)")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report.png"))
    assert (ARTIFACTS / "report.png").stat().st_size > 10_000
    assert problems == []
    assert all(url.startswith("file://") for url in requests), requests  # nothing from the network
    page.close()


def open_page(browser, path: Path, size: tuple[int, int], touch: bool = False):
    """A fresh page at ``size`` that fails the test on any script error or network request."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=touch)
    page = context.new_page()
    trouble: list[str] = []
    page.on("pageerror", lambda e: trouble.append(str(e)))
    page.on("console", lambda m: trouble.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: None if r.url.startswith("file://") else trouble.append(r.url))
    page.on("dialog", lambda d: trouble.append("dialog: " + d.message))
    page.goto(path.as_uri())
    return page, trouble


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    return box is not None and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width \
        and box["y"] + box["height"] <= height


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_board_fits_and_controls_stay_in_view(browser, page_file, size):
    page, trouble = open_page(browser, page_file, SIZES[size])
    width = SIZES[size][0]
    board = page.locator("#board").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= width, board  # the whole board across
    assert board["width"] >= min(width - 40, 600)  # scaled to the screen, not shrunk to a stamp
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing sticks out sideways
    assert in_view(page, ".controls")
    page.keyboard.press("End")
    page.locator("#turns").scroll_into_view_if_needed()  # reading the turn list further down
    if size == "phone":
        assert in_view(page, ".controls"), "the step controls follow on a phone"
    page.locator("#prev").click()
    assert page.locator("#turns li.current").get_attribute("data-frame") == str(page.locator(".detail").count() - 2)
    page.keyboard.press("Home")
    for _ in range(12):
        page.keyboard.press("ArrowRight")
    page.evaluate("window.scrollTo(0, 0)")
    ARTIFACTS.mkdir(exist_ok=True)
    shot = ARTIFACTS / f"report-{size}-{width}x{SIZES[size][1]}.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    assert trouble == []
    page.context.close()


def test_legend_explains_every_symbol_drawn(browser, page_file):
    page, trouble = open_page(browser, page_file, SIZES["laptop"])
    page.keyboard.press("End")  # the last position: every tile, every removed gang
    drawn = set(page.eval_on_selector_all("#board [data-sym]", "els => els.map(e => e.dataset.sym)"))
    if page.locator("#board .gang.removed").count():
        drawn.add("gang-removed")
    explained = set(page.eval_on_selector_all(".legend [data-sym]", "els => els.map(e => e.dataset.sym)"))
    assert {"corner", "building", "toilet", "owner", "destroyed", "covered-toilet", "gang", "gang-removed",
            "anchor", "end"} <= drawn  # the sample game draws them all
    assert drawn <= explained, drawn - explained
    for sym in explained:
        assert page.locator(f'.legend [data-sym="{sym}"]').first.inner_text().strip(), sym  # each with words
    assert page.locator("#board .owner").count() == page.locator("#board .tile").count()  # who laid every tile
    assert trouble == []
    page.context.close()


def swipe(page, x0: float, x1: float, y: float) -> None:
    """A one-finger swipe from x0 to x1 as the touch screen reports it."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y}]})
    for k in range(1, 6):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x0 + (x1 - x0) * k / 5, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def test_swipe_and_tap_step_on_a_phone(browser, page_file):
    page, trouble = open_page(browser, page_file, SIZES["phone"], touch=True)

    def current() -> int:
        return int(page.locator("#turns li.current").get_attribute("data-frame"))

    box = page.locator("#board").bounding_box()
    y = box["y"] + box["height"] / 2
    assert current() == 0
    swipe(page, box["x"] + box["width"] * 0.8, box["x"] + box["width"] * 0.2, y)  # leftwards: on
    assert current() == 1
    swipe(page, box["x"] + box["width"] * 0.8, box["x"] + box["width"] * 0.2, y)
    assert current() == 2
    swipe(page, box["x"] + box["width"] * 0.2, box["x"] + box["width"] * 0.8, y)  # rightwards: back
    assert current() == 1
    page.touchscreen.tap(box["x"] + box["width"] * 0.9, y)  # the right half: on
    assert current() == 2
    page.touchscreen.tap(box["x"] + box["width"] * 0.1, y)  # the left half: back
    assert current() == 1
    assert page.locator("#board .tile:not(.off)").count() == 1  # the board follows
    assert trouble == []
    page.context.close()


def test_controls_have_accessible_names(browser, page_file):
    page, trouble = open_page(browser, page_file, SIZES["laptop"])
    for selector in ("#first", "#prev", "#next", "#last", "#slider"):
        assert len(page.locator(selector).get_attribute("aria-label")) > 4, selector
    page.keyboard.press("ArrowRight")
    assert page.locator("#slider").get_attribute("aria-valuetext").startswith("Turn 1")
    assert page.get_by_role("button", name="next turn").count() == 1
    page.context.close()


def test_index_on_a_phone(browser, tmp_path):
    texts = [format_record(simulate_game(load_board("schilda"), load_ruleset("hig-1991"),
                                         ("Anna", "<script>alert(1)</script>"), random.Random(seed)))
             for seed in (1, 2)]
    entries = [index_entry(judge(parse_text(t), keep_states=True), f"g{i}.html", f"/club/{i}/game.dn")
               for i, t in enumerate(texts)]
    index = tmp_path / "index.html"
    index.write_text(render_index(entries), encoding="utf-8")
    for size, (width, height) in SIZES.items():
        page, trouble = open_page(browser, index, (width, height))
        assert page.locator("svg.bars").count() == 4 and page.locator("svg.heatmap").count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert page.locator("a", has_text="0/game.dn").count() == 1
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"index-{size}-{width}x{height}.png"))
        assert trouble == []
        page.context.close()
