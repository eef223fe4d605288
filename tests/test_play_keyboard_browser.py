"""drunter play without a pointer, in a real browser (Chromium via Playwright): on her seat page,
Anna plays a turn and lays her ballot with the keyboard alone (Tab and Enter, no click, no tap):
her tile, then a square from the engine's list of where it may start, each control with a visible
focus ring and the focus kept where it was while the page is drawn again. A right-to-left player
name (אבי) is isolated (<bdi> or dir="auto") wherever the host page and the seat page show it."""
from __future__ import annotations

import json
import shutil
import urllib.request

import pytest
from conftest import LONG, ROOT

pytestmark = pytest.mark.slow
RTL = "אבי"
HANDS = {"Anna": "W3 W2x2 W1x2 S3 S2x2 S1x2", RTL: "W3 W2x2 W1x2 R3 R2x2 R1x2"}


def call(url: str, body: dict | None = None, headers: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"} | (headers or {}))
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.load(r)


def tab_to(page, selector: str) -> None:
    """Tab until the focus is on ``selector`` (at most 60 steps: the page's controls, once round)."""
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def focused(page, what: str, want: str | None = None) -> str | None:
    """The attribute ``what`` of the element with the focus, once it is ``want`` (or set at all, without
    ``want``) or after five seconds: a page moves the focus when it has drawn again, a moment after a key."""
    value = None
    for _ in range(50):
        value = page.evaluate("(k) => document.activeElement.getAttribute(k)", what)
        if value is not None and (want is None or value == want):
            break
        page.wait_for_timeout(100)
    return value


def test_a_turn_and_a_ballot_by_keyboard_alone_and_names_isolated(browser, expect, play_server, tmp_path):
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "tiny.toml")
    problems = []
    with play_server(tmp_path) as (_, url, _token):
        call(f"{url}api/games", {"name": "kbd", "players": ["Anna", RTL], "board": "tiny.toml",
                                 "deal": {"hands": HANDS, "cards": None}})
        api = f"{url}api/games/kbd"
        links = {s["player"]: s["links"][0] for s in call(f"{api}/seats")["seats"]}
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(links["Anna"])
        page.wait_for_selector("#hand button.has-legal")

        # turn 1: the tile, then the square, from the keyboard
        tab_to(page, '#hand button[data-tile="S1"]')
        page.keyboard.press("Enter")
        expect(page.locator('#hand button[data-tile="S1"]')).to_have_attribute("aria-pressed", "true")
        assert focused(page, "data-tile", "S1") == "S1"  # the hand drawn again, the focus kept on the tile
        legal = call(api)["legal"]
        anchors = list(dict.fromkeys(m["squares"][0] for m in legal if m["tile"] == "S1"))
        places = page.locator("#options button.place")
        assert places.evaluate_all("bs => bs.map(b => b.dataset.sq)") == anchors  # the engine's list, as it gave it
        assert page.locator("#options [role=group]").get_attribute("aria-labelledby") == "places-label"
        tab_to(page, '#options button.place[data-sq="a2"]')
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"  # the focus is seen
        assert page.locator('#board rect.hit.foot[data-sq="a2"]').count() == 1  # and where the tile would lie
        page.keyboard.press("Enter")
        expect(page.locator("#message")).to_have_text("Played: S1 a2")
        # the other player's turn: the seat names them, isolated
        expect(page.locator("#turn-line bdi")).to_have_text(RTL)
        seat = {"X-Drunter-Seat": links[RTL].split("#")[1]}
        call(f"{url}api/seat/kbd/moves", {"move": "R2 f5-f4", "turn": 2}, seat)

        # turn 3: a tile that covers a toilet opens the vote; Anna lays JA, all from the keyboard
        tab_to(page, '#hand button[data-tile="S2"]')
        page.keyboard.press("Enter")
        tab_to(page, '#options button.place[data-sq="b2"]')
        page.keyboard.press("Enter")
        page.wait_for_selector('#vote button.card[data-card="JA"]')
        assert focused(page, "data-card")  # the vote opened: the focus on its first card
        expect(page.locator('#vote .voters li[data-player="אבי"] bdi')).to_have_text(RTL)
        tab_to(page, '#vote button.card[data-card="JA"]')
        page.keyboard.press("Enter")
        expect(page.locator('#vote button.card[data-card="JA"]')).to_have_attribute("aria-pressed", "true")
        assert focused(page, "data-card", "JA") == "JA"  # the vote drawn again, the focus kept on the card
        tab_to(page, "#lay")
        page.keyboard.press("Enter")
        expect(page.locator("#my-ballot")).to_have_text("JA")
        call(f"{url}api/seat/kbd/lay", {"cards": ["NEE"]}, seat)
        expect(page.locator("#last-vote")).to_contain_text("Rule B5")
        # the server's words with names in them (here a tally's cards: "אבי: NEE = 2 no") isolate each name too
        expect(page.locator("#last-vote .tally bdi")).to_have_text(["Anna", RTL])
        game = call(api)
        assert [e["dn"] for e in game["events"]] == ["1. Anna S1 a2", f"2. {RTL} R2 f5-f4",
                                                     f"3. Anna S2 b2-c2 vote {{ Anna: JA, {RTL}: NEE }} -> rejected 1:2"]

        # the host page: every name shown is isolated
        host = browser.new_page(viewport={"width": 1280, "height": 800})
        host.on("pageerror", lambda e: problems.append(str(e)))
        host.goto(url)
        expect(host.locator("#games bdi")).to_have_text(["kbd", "Anna", RTL])
        host.goto(f"{url}#/g/kbd")
        expect(host.locator("#to-move bdi")).to_have_text(RTL)
        expect(host.locator('#hand > span.muted bdi')).to_have_text(RTL)
        assert host.locator("#players td span[dir=auto]").all_inner_texts() == ["Anna", RTL]
        texts = "es => es.map(e => e.textContent)"  # in the closed Turns and DN record
        assert host.locator("#events li:nth-child(2) bdi").evaluate_all(texts) == [RTL]  # 2. אבי R2 f5-f4
        assert RTL in host.locator("#dn bdi").evaluate_all(texts)
    assert not problems, problems


@LONG  # CI's long pass; the README's test command plays a turn and a ballot by keyboard (above)
def test_a_choice_of_ways_by_keyboard_on_the_host_page(browser, expect, play_server, tmp_path):
    """W1 on e4 can run from two gangs (@f1 or @a6, rule A7's corner named): the square's button
    leads to the ways' buttons, the focus on the first, and the second is chosen from the keyboard
    (e4 is a toilet: its vote opens)."""
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "tiny.toml")
    record = (ROOT / "replays" / "disputes" / "forced-pass.dn").read_text(encoding="utf-8")
    (tmp_path / "ways.dn").write_text(record.replace("../boards/tiny.toml", "tiny.toml"), encoding="utf-8")
    problems = []
    with play_server(tmp_path) as (_, url, _token):
        ways = [m["move"] for m in call(f"{url}api/games/ways")["legal"] if m["tile"] == "W1" and m["squares"][0] == "e4"]
        assert len(ways) == 2, ways
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(f"{url}#/g/ways")
        page.wait_for_selector("#hand button.has-legal")
        tab_to(page, '#hand button[data-tile="W1"]')
        page.keyboard.press("Enter")
        tab_to(page, '#options button.place[data-sq="e4"]')
        page.keyboard.press("Enter")
        expect(page.locator("#options button.option")).to_have_count(2)
        assert focused(page, "data-move", ways[0]) == ways[0]  # the square's button gone, the focus on the first way
        page.keyboard.press("Tab")
        assert focused(page, "data-move", ways[1]) == ways[1]
        page.keyboard.press("Enter")
        expect(page.locator("#vote-title")).to_have_text(f"Vote on {ways[1]}: it covers a toilet")  # e4 is a toilet
        assert focused(page, "data-player", "Anna") == "Anna"  # on the placer's first card
    assert not problems, problems
