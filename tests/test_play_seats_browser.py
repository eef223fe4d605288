"""drunter play with a seat per phone, in a real browser (Chromium via Playwright): one
host page (a laptop) and four phones (390×844, touch) play a whole game dealt by the
app on the test board. Each phone shows its own building card and no other; the moves
are made on the phones and reach every other page pushed, without a reload; every
vote is laid face down on the phones and stays hidden (from the host and the other
seats) until the last card is laid; then all are turned over, a joker is declared,
and the game ends with the reveal on every device. A second test plays a vote on one
device, passed round behind a cover. Screenshots go to test-artifacts/."""
from __future__ import annotations

import json
import re
import shutil
import urllib.request

import pytest
from conftest import ARTIFACTS, LONG, ROOT

pytestmark = pytest.mark.slow
PLAYERS = ["Anna", "Ben", "Cem", "Dora"]
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
CARD_WORDS = re.compile(r"\b(JAAA|JAA|JA|NEEE|NEE|NE|JEIN)\b|\?")


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)


def new_game(host, name: str, players: list[str]) -> None:
    host.fill("#ng-name", name)
    for i, p in enumerate(players):
        host.locator(".ng-player").nth(i).fill(p)
    host.select_option("#ng-board", "tiny.toml")
    host.check("input[name=deal][value=random]")
    host.click("#ng-start")
    host.wait_for_selector("#board rect.hit")


def choose_cards(page, vote: int, i: int) -> list[str]:
    """What the i-th voter lays, from the cards their phone offers: varied, two cards once,
    the joker in the first vote (a random deal on the tiny board may hold only one vote)."""
    held = page.locator("#vote button.card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    if vote == 1 and i == 1 and "JEIN" in held:
        return ["JEIN"]
    prefer = ["JA", "NE", "?", "JAA", "NEE", "JAAA", "NEEE"]
    prefer = prefer[(vote + i) % len(prefer):] + prefer[:(vote + i) % len(prefer)]
    picked = [c for c in prefer if c in held and c != "JEIN"]
    return picked[:2] if vote == 1 and i == 2 else picked[:1]


@LONG
def test_four_phones_play_a_whole_game(browser, expect, play_server, tmp_path):
    b = browser
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "tiny.toml")
    laptop = b.new_context(viewport={"width": 1280, "height": 900})
    host = laptop.new_page()
    host.set_default_timeout(15_000)
    problems = []
    host.on("pageerror", lambda e: problems.append(str(e)))
    with play_server(tmp_path) as (_, url, _token):
        host.goto(url)
        new_game(host, "seats", PLAYERS)
        cards = json.loads((tmp_path / "seats.cards.json").read_text(encoding="utf-8"))
        assert set(cards) == set(PLAYERS)
        # the host page: the public table, no card on it
        assert host.locator("#card-box").count() == 0
        host.click("#seats-btn")
        expect(host.locator(".seat-link img.qr")).to_have_count(4)
        links = {p: host.locator(f'.seat-link[data-player="{p}"] code').inner_text() for p in PLAYERS}
        assert len(set(links.values())) == 4 and all(re.fullmatch(r"http://127\.0\.0\.1:\d+/seat/seats#[\w-]{22}", u)
                                                     for u in links.values())
        ARTIFACTS.mkdir(exist_ok=True)
        host.screenshot(path=str(ARTIFACTS / "seats-host-links.png"))

        phones = {}
        for p in PLAYERS:
            ctx = b.new_context(**PHONE)
            page = ctx.new_page()
            page.set_default_timeout(15_000)
            page.on("pageerror", lambda e: problems.append(str(e)))
            page.goto(links[p])
            expect(page.locator("#who")).to_have_text(f"{p}'s seat")
            phones[p] = page
        expect(host.locator(".seat-link .joined")).to_have_count(4)  # the host sees them join, pushed
        for p, page in phones.items():  # each phone: its own card, behind a tap, and no other
            assert not page.locator("#card-box").is_visible()
            page.click("#card-toggle")
            shown = page.locator("#card-box").inner_text()
            assert cards[p] in shown and not any(cards[o] in shown for o in PLAYERS if o != p)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        phones["Anna"].screenshot(path=str(ARTIFACTS / "seats-phone-card.png"))
        for page in phones.values():
            page.click("#card-toggle")

        api = f"{url}api/games/seats"
        votes = jokers = 0
        for _ in range(60):
            s = get(api)
            if s["over"]:
                break
            mover, turn = s["to_move"], s["turn"]
            phone = phones[mover]
            expect(phone.locator("#your-turn")).to_be_visible()
            if not s["legal"]:
                phone.click("#pass")
            else:
                m = next((m for m in s["legal"] if m["needs_vote"]), s["legal"][0])
                phone.click(f'#hand button[data-tile="{m["tile"]}"]')
                phone.locator(f'#board rect.hit[data-sq="{m["squares"][0]}"]').tap()
                if phone.locator(f'#options button[data-move="{m["move"]}"]').count():
                    phone.click(f'#options button[data-move="{m["move"]}"]')
                if m["needs_vote"]:
                    votes += 1
                    order = s["vote_order"]
                    expect(host.locator("#ballot")).to_be_visible()
                    laid = {}
                    for i, voter in enumerate(order):
                        page = phones[voter]
                        expect(page.locator("#lay")).to_be_visible()
                        laid[voter] = choose_cards(page, votes, i)
                        for c in laid[voter]:
                            page.click(f'#vote button.card[data-card="{c}"]')
                        if votes == 1 and i == 1:
                            page.screenshot(path=str(ARTIFACTS / "seats-phone-vote.png"))
                        page.click("#lay")
                        if i == len(order) - 1:
                            break
                        expect(page.locator("#my-ballot")).to_have_text(" ".join(laid[voter]))
                        # face down: the host and the other seats see that it is laid, not what
                        expect(host.locator(f'#ballot li[data-player="{voter}"]')).to_have_class("laid")
                        assert not CARD_WORDS.search(host.locator("#ballot").inner_text())
                        for other, op in phones.items():
                            if other != voter:
                                expect(op.locator(f'#vote li[data-player="{voter}"]')).to_have_class("laid")
                                assert not CARD_WORDS.search(op.locator("#vote ul.voters").inner_text())
                                assert op.locator("#my-ballot").count() == (1 if other in order[:i] else 0)
                        if votes == 1 and i == 1:
                            host.screenshot(path=str(ARTIFACTS / "seats-host-vote.png"))
                    joker = next((v for v in order if "JEIN" in laid[v]), None)
                    if joker:  # every card turned over: the joker's owner declares it (B4)
                        jokers += 1
                        for page in [host, *phones.values()]:
                            expect(page.locator(".tally").first).to_contain_text("JEIN")
                        phones[joker].click('#vote button.side[data-side="no"]')
            # the move reaches every other device, pushed
            expect(host.locator("#events li")).to_have_count(turn)
            for page in phones.values():
                expect(page.locator("#turn-line")).not_to_contain_text(f"Turn {turn}:")
            if s["legal"] and m["needs_vote"]:
                for page in phones.values():  # all turned over at once, with the rule that counts them
                    expect(page.locator("#last-vote")).to_contain_text("Rule B5")
                text = phones[order[0]].locator("#last-vote").inner_text()
                assert all(f"{v}: {laid[v][0]}" in text for v in order), text
                if votes == 1:
                    phones[order[-1]].screenshot(path=str(ARTIFACTS / "seats-phone-turned.png"))
        else:
            pytest.fail("the game did not end in 60 turns")
        assert votes >= 1 and jokers >= 1
        # the end: the reveal on every device
        expect(host.locator("#winner")).to_be_visible()
        for p, page in phones.items():
            expect(page.locator("#winner")).to_be_visible()
            assert cards[p] in page.locator(f'#result tr[data-player="{p}"]').inner_text()
        phones["Ben"].screenshot(path=str(ARTIFACTS / "seats-phone-result.png"))
        record = (tmp_path / "seats.dn").read_text(encoding="utf-8")
        assert "reveal " in record and record.count("vote {") == votes
    assert not problems, problems


def test_one_device_passed_round(browser, expect, play_server, tmp_path):
    """Pass and play: each seat opens on the host's own screen behind a cover; a vote is
    laid there in turn, each ballot hidden again before the device goes on."""
    b = browser
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "tiny.toml")
    host = b.new_context(**PHONE).new_page()  # a tablet or a phone in the middle of the table
    host.set_default_timeout(15_000)
    problems = []
    host.on("pageerror", lambda e: problems.append(str(e)))
    with play_server(tmp_path) as (_, url, _token):
        host.goto(url)
        new_game(host, "one", ["Anna", "Ben"])
        cards = json.loads((tmp_path / "one.cards.json").read_text(encoding="utf-8"))
        assert host.locator("#secret-votes").is_checked()  # the app dealt the cards: ballots are secret
        host.click("#seats-btn")
        host.click('.seat-link[data-player="Ben"] button.open-here')
        seat = host.frame_locator("#overlay iframe")
        expect(seat.locator("#cover-text")).to_contain_text("Hand the device to Ben")
        assert not seat.locator("#card-box").is_visible()
        host.screenshot(path=str(ARTIFACTS / "seats-cover.png"))
        seat.locator("#cover-show").click()
        seat.locator("#card-toggle").click()
        expect(seat.locator("#card-box")).to_contain_text(cards["Ben"])
        assert cards["Anna"] not in seat.locator("#card-box").inner_text()
        host.click("#overlay-close")
        assert host.locator("#overlay iframe").count() == 0
        host.click("#seats-btn")
        api = f"{url}api/games/one"
        for _ in range(40):  # the host's taps for whoever is to move, until a vote
            s = get(api)
            m = next((m for m in s["legal"] if m["needs_vote"]), s["legal"][0] if s["legal"] else None)
            if m is None:
                host.click("#pass")
            else:
                host.click(f'#hand button[data-tile="{m["tile"]}"]')
                host.locator(f'#board rect.hit[data-sq="{m["squares"][0]}"]').tap()
                if host.locator(f'#options button[data-move="{m["move"]}"]').count():
                    host.click(f'#options button[data-move="{m["move"]}"]')
            if m and m["needs_vote"]:
                break
            expect(host.locator("#events li")).to_have_count(s["turn"])
        else:
            pytest.fail("no vote came up")
        expect(host.locator("#ballot")).to_be_visible()
        assert not host.locator("#vote").is_visible()  # not the open panel that shows every card
        for voter, card in zip(s["vote_order"], ["NE", "JAA"]):
            host.click(f'#ballot button.lay-here[data-player="{voter}"]')
            expect(seat.locator("#cover-text")).to_contain_text(f"Hand the device to {voter}")
            seat.locator("#cover-show").click()
            seat.locator(f'#vote button.card[data-card="{card}"]').click()
            seat.locator("#lay").click()
            expect(host.locator("#overlay")).to_be_hidden()  # closed by itself once laid: the next one sees nothing
            assert host.locator("#overlay iframe").count() == 0
            if voter == s["vote_order"][0]:
                assert not CARD_WORDS.search(host.locator("#ballot").inner_text())
        expect(host.locator("#turned")).to_contain_text("Rule B5")
        text = host.locator("#turned").inner_text()
        assert f'{s["vote_order"][0]}: NE' in text and f'{s["vote_order"][1]}: JAA' in text
        host.screenshot(path=str(ARTIFACTS / "seats-turned-one-device.png"), full_page=True)
    assert not problems, problems
