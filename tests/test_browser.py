"""A generated report in a real browser (issue 5, point 6): headless Chromium via
Playwright, driving the system's /usr/bin/chromium (scripts/setup.sh --test
installs it). Skipped only where that browser or the playwright package is missing."""
from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from drunter_notation.data.boardfile import load_board
from drunter_notation.notation.formatter import format_record
from drunter_notation.notation.parser import parse_text
from drunter_notation.load import judge
from drunter_notation.report import render_report
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.simulate import simulate_game

CHROMIUM = "/usr/bin/chromium"
# As root the sandbox must be off; without the networking flags Chromium keeps
# trying to reach hosts it cannot (shared/notes/browser-and-graphviz.md).
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"no browser: {CHROMIUM} is missing (apt-get install chromium, or scripts/setup.sh --test)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the Python package playwright is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


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

    spoiler = page.locator("table.grid .spoiler").first
    assert not spoiler.is_visible()
    page.locator("#spoiler").click()
    assert spoiler.is_visible()

    page.keyboard.press("End")
    page.evaluate("window.scrollTo(0, 0)")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report.png"))
    assert (ARTIFACTS / "report.png").stat().st_size > 10_000
    assert problems == []
    assert all(url.startswith("file://") for url in requests), requests  # nothing from the network
    page.close()
