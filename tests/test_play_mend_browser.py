"""Mending in drunter play, in a real browser (headless /usr/bin/chromium via
Playwright) at a laptop's 1280×800 and a phone's 390×844: take back to an earlier
turn and replay it with one tap; a mistyped "Is this legal?" answered about the
move and the previous verdict gone; an invalid file opened from the lobby, its
first error shown, then fixed in the page or cut to its last valid turn, with a
backup beside it."""
from __future__ import annotations

import json
import shutil
import urllib.request

import pytest
from conftest import ARTIFACTS, LONG, ROOT
from test_play_browser import SIZES

pytestmark = pytest.mark.slow
HANDS = {"Anna": "W3 W2x2 W1x2 S3 S2x2 S1x2", "Ben": "W3 W2x2 W1x2 R3 R2x2 R1x2"}
MOVES = [{"move": "S1 a2"}, {"move": "R2 f5-f4"},
         {"move": "S2 b2-c2", "vote": {"Anna": ["JA"], "Ben": ["NEE"]}},
         {"move": "W3 e1-c1"}, {"move": "S2 b2-c2", "vote": {"Ben": "?", "Anna": "JAA"}}]


def call(url: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path.lstrip("/"), data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def new_page(browser, size):
    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height}, has_touch=size == "phone")
    page.set_default_timeout(15_000)
    return page


@pytest.mark.parametrize("size", ["phone", pytest.param("laptop", marks=LONG)])  # the laptop in CI's long pass
def test_take_back_to_an_earlier_turn_and_replay(browser, expect, play_server, tmp_path, size):
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "tiny.toml")
    page = new_page(browser, size)
    with play_server(tmp_path) as (_, url, _token):
        call(url, "/api/games", {"name": "m", "players": ["Anna", "Ben"], "board": "tiny.toml",
                                 "deal": {"hands": HANDS, "cards": {"Anna": "townhall", "Ben": "tavern"}}})
        for body in MOVES:
            state = call(url, "/api/games/m/moves", body)
        page.goto(url + "#/g/m")
        page.wait_for_selector("#board rect.hit")
        page.click("#turns summary")
        expect(page.locator("#events li")).to_have_count(5)
        page.click('#events button.back[data-keep="1"]')  # back to before turn 2
        expect(page.locator("#takeback")).to_be_visible()
        assert "4 turns" in page.locator("#takeback-what").inner_text()
        page.click("#takeback-cancel")  # nothing happens without the confirmation
        expect(page.locator("#events li")).to_have_count(5)
        page.click('#events button.back[data-keep="1"]')
        page.click("#takeback-do")
        expect(page.locator("#events li")).to_have_count(1)
        assert "Turn 2" in page.locator("#turn-line").inner_text()
        expect(page.locator("#replay")).to_have_text("Replay 4 turns taken back")
        assert call(url, "/api/games/m")["turn"] == 2
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"play-takeback-{size}.png"), full_page=size == "laptop")
        page.click("#replay")
        expect(page.locator("#events li")).to_have_count(5)
        expect(page.locator("#replay")).to_be_hidden()
        assert call(url, "/api/games/m")["dn"] == state["dn"]  # the same game, votes and all

        # "Is this legal?": a verdict, then a mistyped move answered about the move, the verdict gone
        page.fill("#ask-move", "W1 c3")
        page.click("#ask button")
        expect(page.locator("#verdicts")).to_be_visible()
        verdicts = page.locator("#verdicts .verdict")
        if verdicts.count() == 1:  # all rulesets agree: one verdict line
            assert "all 4 rulesets" in verdicts.first.inner_text()
        alternatives = page.locator("#verdicts .alternatives")
        if alternatives.count():
            assert alternatives.first.inner_text().removeprefix("Legal instead: ").startswith("W1 ")
        page.fill("#ask-move", "S9 zz")
        page.click("#ask button")
        expect(page.locator("#message")).to_contain_text("the move typed")
        expect(page.locator("#verdicts")).to_be_hidden()
        message = page.locator("#message").inner_text()
        assert message.startswith("the move typed, at column 1: error[P001]") and ".dn" not in message


@pytest.mark.parametrize("size", ["phone", pytest.param("laptop", marks=LONG)])  # the laptop in CI's long pass
def test_an_invalid_file_is_fixed_or_cut_in_the_page(browser, expect, play_server, tmp_path, size):
    (tmp_path / "boards").mkdir()
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "boards" / "tiny.toml")
    good = (ROOT / "replays" / "tiny-hand-made.dn").read_text(encoding="utf-8")
    assert "4. Ben W3 e1-c1" in good
    broken = good.replace("4. Ben W3 e1-c1", "4. Ben W3 e1-c1-b1", 1)
    for name in ("fix", "cut"):
        (tmp_path / f"{name}.dn").write_text(broken, encoding="utf-8")
    page = new_page(browser, size)
    with play_server(tmp_path) as (_, url, _token):
        page.goto(url)
        lobby = page.locator("#games li").filter(has=page.locator('a[href="#/g/fix"]'))
        expect(lobby).to_contain_text("error[")
        lobby.locator("a").click()
        expect(page.locator("#mend")).to_be_visible()
        verdict = page.locator("#mend-verdict").inner_text()
        assert verdict.startswith("fix.dn:") and "error[P001]" in verdict
        assert page.locator("#mend-line").input_value().startswith("4. Ben W3 e1-c1-b1")
        page.screenshot(path=str(ARTIFACTS / f"play-mend-{size}.png"), full_page=size == "laptop")
        page.fill("#mend-line", "4. Ben W3 e1-c1  # fixed")
        page.click("#mend-fix")
        expect(page.locator("#mend-verdict")).to_have_text("fix.dn: a valid record, 13 turns, over")
        page.click("#mend-open")
        expect(page.locator("#turn-line")).to_contain_text("over")

        page.goto(url + "#/g/cut")
        expect(page.locator("#mend-cut")).to_contain_text("3 turns")
        page.click("#mend-cut")
        expect(page.locator("#mend-verdict")).to_have_text("cut.dn: a valid record, 3 turns")
        page.click("#mend-open")
        expect(page.locator("#turn-line")).to_contain_text("Turn 4")
    assert (tmp_path / "fix.dn.bak").read_text(encoding="utf-8") == broken  # nothing lost
    assert (tmp_path / "cut.dn.bak").read_text(encoding="utf-8") == broken
    assert "4. Ben W3 e1-c1  # fixed" in (tmp_path / "fix.dn").read_text(encoding="utf-8")
