"""The report's analysis section in a real browser (Playwright + /usr/bin/chromium),
at a laptop's and a phone's size: the charts are there, and a turning point steps
the board to its turn."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ARTIFACTS, LONG, ROOT

from drunter_notation.analysis import Settings, analyze_text
from drunter_notation.load import judge
from drunter_notation.notation.parser import parse_text
from drunter_notation.report import render_report

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def page_file(tmp_path_factory) -> Path:
    sample = ROOT / "replays" / "legal-4p.dn"
    text = sample.read_text()
    analysis = analyze_text(text, str(sample), Settings(playouts=16, seed=2, alternatives=2))  # a seed whose run finds a turning point (60 playouts: 2.5 times the CPU)
    path = tmp_path_factory.mktemp("analysis") / "game.html"
    path.write_text(render_report(judge(parse_text(text), keep_states=True), text, analysis), encoding="utf-8")
    return path


@pytest.mark.parametrize("size", [pytest.param((1280, 800), marks=LONG), (390, 844)], ids=["laptop", "phone"])  # CI's long pass: the laptop
def test_turning_points_step_the_board(browser, page_file, size):
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    problems = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(page_file.as_uri())
    assert page.locator(".analysis svg.belief").count() == 4
    assert page.locator(".analysis svg.win polyline").count() == 4
    chart = page.locator(".analysis svg.win").bounding_box()
    assert chart["x"] >= 0 and chart["x"] + chart["width"] <= size[0]
    for label in page.locator(".analysis svg.win text").all():  # "100%", the names: inside the chart, legible
        box = label.bounding_box()
        assert chart["x"] <= box["x"] and box["x"] + box["width"] <= chart["x"] + chart["width"], label.text_content()
        assert box["height"] >= 9, label.text_content()
    point = page.locator(".analysis circle.tp").first
    frame = point.get_attribute("data-goto")
    turn = point.get_attribute("aria-label").split(":")[0]  # "turn 20"
    point.scroll_into_view_if_needed()
    point.click()
    assert page.locator("#turns li.current").get_attribute("data-frame") == frame
    assert page.locator(".detail:not(.off) h3").inner_text().lower().startswith(turn)
    button = page.locator(".analysis ul.turning button").last
    button.click()
    assert page.locator("#turns li.current").get_attribute("data-frame") == button.get_attribute("data-goto")
    page.locator(".analysis").scroll_into_view_if_needed()
    # every axis label of every chart shows whole: "100%" is not cut to "00%" at a phone's width
    for chart in page.locator(".analysis svg").all():
        box = chart.bounding_box()
        for label in chart.locator("text.axis").all():
            b = label.bounding_box()
            assert b["x"] >= box["x"] - 0.5 and b["x"] + b["width"] <= box["x"] + box["width"] + 0.5, \
                label.inner_html()
    assert page.locator(".analysis svg.belief").first.bounding_box()["width"] >= min(size[0] - 40, 360)
    # each player's verdict, with how sure, before the evidence
    assert page.locator(".analysis ul.evidence > li > strong").count() == 4
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"analysis-{size[0]}x{size[1]}.png"), full_page=False)
    assert not problems
