"""drunter play in a real browser: headless Chromium via Playwright (the system's
/usr/bin/chromium), a complete 2-player game on the test board played by taps only
-- a wrong tap answered and not recorded, an undo, a rejected and two accepted
votes, a forced pass, the reveal -- at a laptop's 1280×800 and a phone's 390×844.
The DN file on disk then validates as a complete game with the scores the page
showed. Screenshots go to test-artifacts/. Skipped only where that browser or the
playwright package is missing."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from conftest import ARTIFACTS, LONG, ROOT, RUN_CLI, start_game

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
HANDS = {"Anna": "W3 W2x2 W1x2 S3 S2x2 S1x2", "Ben": "W3 W2x2 W1x2 R3 R2x2 R1x2"}
# The game of replays/tiny-hand-made.dn, as taps: (tile, square tapped, option if several, votes in order).
GAME = [
    ("S1", "a2", None, None),
    ("R2", "f5", None, None),
    ("S2", "b2", None, [("Anna", "JA"), ("Ben", "NEE")]),  # rejected 1:2
    ("W3", "e1", None, None),
    ("S2", "b2", None, [("Anna", "JAA"), ("Ben", "?")]),  # accepted 2:0
    ("R3", "e4", None, [("Ben", "JAAA"), ("Anna", "NEEE")]),  # a tie that stands under hig-1991
    ("W1", "b1", None, None),
    ("R1", "b4", None, None),
    ("W3", "a5", None, None),
    ("R1", "b3", None, None),
    ("S1", "c3", None, None),
    "pass",
    ("S2", "d3", None, None),
]

pytestmark = pytest.mark.slow


def turn(page) -> str:
    return page.locator("#turn-line").inner_text()


@pytest.mark.parametrize("size", ["phone", pytest.param("laptop", marks=LONG)])  # the laptop in CI's long pass
def test_a_whole_game_by_taps(browser, expect, play_server, tmp_path, size):
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "tiny.toml")
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    page.set_default_timeout(15_000)
    problems, outside = [], []
    page.on("pageerror", lambda e: problems.append(str(e)))
    # a 422 is the answer to the wrong tap below; any other console error is a problem
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" and "422" not in m.text else None)
    with play_server(tmp_path) as (_, url, _token):
        page.on("request", lambda r: None if r.url.startswith(url) else outside.append(r.url))
        page.goto(url)
        # the new-game form: players, the test board, hands as dealt at the table (cards shown at the reveal)
        page.fill("#ng-name", f"g-{size}")
        page.locator(".ng-player").nth(0).fill("Anna")
        page.locator(".ng-player").nth(1).fill("Ben")
        page.select_option("#ng-board", "tiny.toml")
        page.check("input[name=deal][value=table]")
        for name, tiles in HANDS.items():
            page.fill(f'#ng-table input[data-player="{name}"]', tiles)
        page.click("#ng-start")
        page.wait_for_selector("#board rect.hit")
        assert "Anna" in turn(page) and "Turn 1" in turn(page)
        if size == "phone":  # the board fits the phone's width: no sideways scrolling
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            box = page.locator("#board").bounding_box()
            assert box["width"] <= width and box["width"] > width * 0.8

        def play(step, index):
            if step == "pass":
                page.click("#pass")
            else:
                tile, square, option, votes = step
                page.click(f'#hand button[data-tile="{tile}"]')
                assert page.locator("#board rect.hit.legal").count() >= 1  # the legal anchors, from legal_moves()
                page.click(f'#board rect.hit[data-sq="{square}"]')
                if option:
                    page.click(f'#options button[data-move="{option}"]')
                if votes:
                    assert page.locator("#vote").is_visible()
                    order = page.locator("#ballots .ballot").evaluate_all("rows => rows.map(r => r.dataset.player)")
                    assert order == [p for p, _ in votes]  # voting order: the placer first
                    for name, card in votes:
                        page.click(f'#ballots button.card[data-player="{name}"][data-card="{card}"]')
                    expect(page.locator("#tally")).to_contain_text("Rule B5")  # worded once the last ballot is in
                    page.click("#vote-done")
            expect(page.locator("#events li")).to_have_count(index)

        for i, step in enumerate(GAME[:2], 1):
            play(step, i)
        # a wrong tap: answered under every ruleset, not recorded
        page.click('#hand button[data-tile="S1"]')
        page.click('#board rect.hit[data-sq="c4"]')
        page.wait_for_selector("#verdicts .verdict")
        expect(page.locator("#message")).to_contain_text("A001")
        assert page.locator("#verdicts .verdict").count() == 1  # all rulesets agree: one verdict
        assert page.locator("#events li").count() == 2
        # the rejected vote, then an undo of it, then the same vote again
        play(GAME[2], 3)
        assert "rejected 1:2" in page.locator("#events li").nth(2).text_content()
        if size == "laptop":
            ARTIFACTS.mkdir(exist_ok=True)
        page.click("#undo")
        expect(page.locator("#events li")).to_have_count(2)
        play(GAME[2], 3)
        for i, step in enumerate(GAME[3:5], 4):
            play(step, i)
        # the vote of turn 6, shot half-filled for the docs
        page.click('#hand button[data-tile="R3"]')
        page.click('#board rect.hit[data-sq="e4"]')
        page.click('#ballots button.card[data-player="Ben"][data-card="JAAA"]')
        expect(page.locator("#tally")).to_contain_text("JAAA")
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"play-vote-{size}.png"), full_page=size == "laptop")
        page.click("#vote-cancel")
        play(GAME[5], 6)
        for i, step in enumerate(GAME[6:11], 7):
            play(step, i)
        page.screenshot(path=str(ARTIFACTS / f"play-game-{size}.png"), full_page=size == "laptop")
        assert page.locator("#pass").is_visible()  # Legezwang: Ben has no legal placement
        assert page.locator("#hand button.has-legal").count() == 0
        play(GAME[11], 12)
        assert not page.locator("#pass").is_visible()
        play(GAME[12], 13)
        # the reveal: the building cards shown at the table
        page.wait_for_selector("#reveal:not([hidden])")
        page.select_option('#reveal-cards select[data-player="Anna"]', "townhall")
        page.select_option('#reveal-cards select[data-player="Ben"]', "tavern")
        # another device's change arrives while the cards are picked: the rows are drawn again, the picks kept
        page.evaluate(f"fetch('/api/games/g-{size}').then((r) => r.json()).then((s) => window.DP.onGame(s))")
        expect(page.locator('#reveal-cards select[data-player="Anna"]')).to_have_value("townhall")
        expect(page.locator('#reveal-cards select[data-player="Ben"]')).to_have_value("tavern")
        page.click("#reveal-done")
        page.wait_for_selector("#result:not([hidden])")
        shown = {p: int(page.locator(f'#result td.score[data-player="{p}"]').inner_text()) for p in ("Anna", "Ben")}
        winner = page.locator("#winner").inner_text()
        assert "Ben wins" in winner and "votes left" in winner
        assert "E3" in page.locator("#result .rules").inner_text()
        page.screenshot(path=str(ARTIFACTS / f"play-end-{size}.png"), full_page=size == "laptop")

    record = tmp_path / f"g-{size}.dn"
    out = subprocess.run([sys.executable, "-c", RUN_CLI, "validate", "--format", "json", str(record)],
                         capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=60)
    report = json.loads(out.stdout)
    assert out.returncode == 0 and report["valid"], out.stdout + out.stderr
    assert report["summary"]["complete"] and report["summary"]["turns"] == 13
    assert report["summary"]["rejected"] == 1 and report["summary"]["passes"] == 1
    assert report["summary"]["scores"] == shown
    assert report["summary"]["winners"] == ["Ben"]
    assert not problems, problems
    assert not outside, outside  # no external resources


AXE = ROOT / "site" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.mark.site  # where axe-core is installed: with the browser edition (cd site && npm ci)
@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (cd site && npm ci)")
@pytest.mark.parametrize("size", ["phone", pytest.param("laptop", marks=LONG)])  # the laptop in CI's long pass
def test_axe_finds_no_violation_on_the_table_pages(browser, play_server, tmp_path, size):
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "tiny.toml")
    # the check's own script is injected, so this context bypasses the pages' CSP (tested elsewhere)
    page = browser.new_context(viewport=dict(zip(("width", "height"), SIZES[size])), bypass_csp=True).new_page()
    found = {}
    with play_server(tmp_path) as (_, url, _token):
        page.goto(url)
        start_game(page, "axe")
        page.click("#seats-btn")
        seat = page.locator('.seat-link[data-player="Anna"] code').inner_text()  # to move: her tiles and squares as buttons
        for lang in ("en", "de", "cs"):
            for name, address, ready in (("lobby", f"{url}?lang={lang}", "#ng-start"),
                                         ("game", f"{url}?lang={lang}#/g/axe", "#board rect.hit"),
                                         ("seat", seat.replace("#", f"?lang={lang}#"), "#board-box svg")):
                page.goto(address)
                page.wait_for_selector(ready)
                if name != "lobby":  # a tile chosen: the squares where it may start, the board from the keyboard
                    page.locator("#hand button.has-legal").first.click()
                    page.wait_for_selector("#options button.place")
                page.add_script_tag(path=str(AXE))
                result = page.evaluate("axe.run(document).then(r => r.violations.map(v => [v.id, v.nodes.length]))")
                if result:
                    found[f"{lang} {name}"] = result
    assert not found, json.dumps(found)
