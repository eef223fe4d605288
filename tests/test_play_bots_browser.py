"""drunter play against the computer, in a real browser (Chromium via Playwright): the
host page makes a game on the test board with Anna a person and three bots, and the
coach; Anna plays on a phone-size seat (390×844, touch), takes a hint, lays her
ballots, and the bots play by themselves until the game ends on her phone. Screenshots
go to test-artifacts/."""
from __future__ import annotations

import json
import shutil
import time
import urllib.request

import pytest
from conftest import ARTIFACTS, LONG, ROOT

pytestmark = pytest.mark.slow
PLAYERS = ["Anna", "Ben", "Cleo", "Dan"]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}


def call(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.load(r)


def settled(api: str, done) -> None:
    """Wait until the server's game is ``done`` (bounded; no time is asserted)."""
    for _ in range(500):
        if done(call(api)):
            return
        time.sleep(0.02)
    pytest.fail("the tap did not reach the server")


@LONG
def test_a_person_on_a_phone_against_three_bots(browser, expect, play_server, tmp_path):
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "tiny.toml")
    problems: list[str] = []
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    host.on("pageerror", lambda e: problems.append(str(e)))
    with play_server(tmp_path) as (_, url, _token):
        host.goto(url)
        host.fill("#ng-name", "bots")
        host.locator(".ng-player").nth(0).fill("Anna")
        for i, p in enumerate(PLAYERS[1:], 1):
            host.locator(".ng-player").nth(i).fill(p)
            host.locator(".ng-seat").nth(i).select_option("easy" if i < 3 else "medium")  # the last: ismcts
        host.check("#ng-hints")
        host.select_option("#ng-board", "tiny.toml")
        host.check("input[name=deal][value=random]")
        host.click("#ng-start")
        host.wait_for_selector("#board rect.hit")
        api = f"{url}api/games/bots"
        call(api + "/autoplay", {"delay_ms": 0})
        expect(host.locator(".bot-seat")).to_have_count(3)
        expect(host.locator("#autoplay-pause")).to_be_visible()
        host.click("#seats-btn")
        expect(host.locator(".seat-link.bot")).to_have_count(3)
        link = host.locator('.seat-link[data-player="Anna"] code').inner_text()
        phone = browser.new_context(**PHONE).new_page()
        phone.set_default_timeout(15_000)
        phone.on("pageerror", lambda e: problems.append(str(e)))
        phone.goto(link)
        expect(phone.locator("#bots-line")).to_contain_text("Ben (easy)")
        assert phone.locator("#bots-line .bot-seat").first.get_attribute("title") == "greedy"  # the spec, in a tooltip
        hinted = False
        ARTIFACTS.mkdir(exist_ok=True)
        for _ in range(3000):
            s = call(api)
            if s["over"]:
                break
            v = s["vote"]
            if v and not v["shown"] and "Anna" in v["order"] and "Anna" not in v["laid"]:
                expect(phone.locator("#lay")).to_be_visible()
                card = phone.locator('#vote button.card[data-card="?"]')
                for _ in range(20):  # a tap on a button the page redraws that instant is lost: a person taps again
                    if card.get_attribute("aria-pressed") == "true":
                        break
                    card.click()
                    time.sleep(0.05)
                expect(card).to_have_attribute("aria-pressed", "true")
                expect(phone.locator("#lay")).to_be_enabled()  # once shown picked, the card stays picked
                phone.click("#lay")
                settled(api, lambda g: g["turn"] != s["turn"] or not g["vote"] or "Anna" in g["vote"]["laid"])
            elif s["to_move"] == "Anna" and not v:
                expect(phone.locator("#your-turn")).to_be_visible()
                if not hinted:
                    phone.click("#hint")
                    expect(phone.locator("#hint-moves li").first).to_contain_text("% to win")
                    phone.screenshot(path=str(ARTIFACTS / "bots-phone-hint.png"))
                    hinted = True
                if not s["legal"]:
                    phone.click("#pass")
                else:
                    m = s["legal"][0]
                    phone.click(f'#hand button[data-tile="{m["tile"]}"]')
                    phone.locator(f'#board rect.hit[data-sq="{m["squares"][0]}"]').tap()
                    if phone.locator(f'#options button[data-move="{m["move"]}"]').count():
                        phone.click(f'#options button[data-move="{m["move"]}"]')
                settled(api, lambda g: g["turn"] != s["turn"] or g["vote"])
            else:
                time.sleep(0.02)  # the bots' turn: they play by themselves
        else:
            pytest.fail("the game did not end")
        expect(phone.locator("#winner")).to_be_visible()
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        phone.screenshot(path=str(ARTIFACTS / "bots-phone-result.png"))
        host.screenshot(path=str(ARTIFACTS / "bots-host.png"))
        record = (tmp_path / "bots.dn").read_text(encoding="utf-8")
        assert '[Bots "-, greedy, greedy, ismcts:sims=200"]' in record and '[Hints "Anna 1"]' in record
    assert not problems, problems
