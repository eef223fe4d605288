"""No English on the table app's pages in German and Czech, in a real browser (Chromium via
Playwright): the lobby, a game in progress, the referee's verdicts (with each ruleset's
citation worded on the page), a refused move, a take-back, a vote on the host and a secret
ballot on a seat, a refusal, the coach's hint, a bot thinking, the result, a record to mend,
a lost connection. The visible text of each is scanned for telltale English words; what is
data stays out of the scan: the record (DN, the move list, the board's letters), links,
player names, and the places of the rule sources as their sources name them (Webley's
"Laying Tiles 2")."""
from __future__ import annotations

import json
import re
import shutil
import time
import urllib.request

import pytest
from conftest import LONG, ROOT

from drunter_notation.data.rulesets import list_rulesets

pytestmark = pytest.mark.slow
HANDS = {"Anna": "W3 W2x2 W1x2 S3 S2x2 S1x2", "Ben": "W3 W2x2 W1x2 R3 R2x2 R1x2"}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
LOCALES = {"de": "de-DE", "cs": "cs-CZ"}
# Words an English page shows and neither translation has (DN tokens are lower case: "pass" in a hint is DN).
TELLTALE = re.compile(r"\b(the|The|and|of|is|not|your|Your|you|turn|Turn|move|Move|game|Game|player|Player|players|"
                      r"hint|Hint|Pass|vote|Vote|votes|tile|tiles|card|cards|seat|Seat|seats|rule|Rule|legal|"
                      r"illegal|thinking|lost|Connection|Undo|Cancel|Result|wins|points|stated|taken|untitled)\b")
# Record content and data, left out of the scan: the DN, the move list, the board, links and codes.
DATA = "#dn, #events, #board-box, #board, code, #lang-menu"
# A proper name inside a ruleset's translated name (John Webley's translation appeared on the Game Cabinet).
NAMES = ("Game Cabinet",)


def places() -> list[str]:
    """The places in the rule sources as the rulesets cite them (the source's own words), longest first."""
    found: set[str] = set()
    for r in list_rulesets():
        for place in [*r.sections.values(), *r.topic_sections.values()]:
            found.add(re.split(r"; | \(|, para\.|, and |, translator", place)[0])  # our words around it stay in
    return sorted((p for p in found if p and not p.startswith("not stated")), key=len, reverse=True)


def english(page) -> list[str]:
    """The telltale English words among what the page shows, the data left out."""
    text = page.evaluate("""(skip) => {
        const body = document.body.cloneNode(true);
        body.querySelectorAll(skip).forEach((e) => e.remove());
        body.querySelectorAll("[hidden]").forEach((e) => e.remove());
        return body.innerText;
    }""", DATA)
    text = re.sub(r"(https?://|/)\S+", " ", text)  # links and the folder's path
    text = re.sub(r"\bvote \{[^}]*\}(\s*->\s*(accepted|rejected)( \d+:\d+)?)?", " ", text)  # a move's DN vote block
    for name in (*NAMES, *places()):
        text = text.replace(name, " ")
    return TELLTALE.findall(text)


def call(url: str, body: dict | None = None, lang: str = "en") -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json", "X-Drunter-Lang": lang})
    with urllib.request.urlopen(request, timeout=10) as r:
        return json.load(r)


def settled(api: str, done) -> dict:
    """The server's game once ``done`` (bounded; no time is asserted)."""
    for _ in range(500):
        s = call(api)
        if done(s):
            return s
        time.sleep(0.02)
    pytest.fail("the game did not get there")


def lay(page, tile: str, square: str, move: str) -> None:
    page.click(f'#hand button[data-tile="{tile}"]')
    page.locator(f'#board rect.hit[data-sq="{square}"]').click()
    if page.locator(f'#options button[data-move="{move}"]').count():
        page.click(f'#options button[data-move="{move}"]')


@LONG  # CI's long pass; the README's test command checks the pages' words without a browser (test_i18n_web.py)
@pytest.mark.parametrize("lang", ["de", "cs"])
def test_no_english_on_the_table_pages(browser, expect, play_server, tmp_path, lang):
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "tiny.toml")
    host = browser.new_context(locale=LOCALES[lang], viewport={"width": 1280, "height": 900}).new_page()
    phone = browser.new_context(locale=LOCALES[lang], **PHONE).new_page()
    problems: list[str] = []
    seen: dict[str, list[str]] = {}
    for page in (host, phone):
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda e: problems.append(str(e)))

    def scan(what: str, page) -> None:
        expect(page.locator("html")).to_have_attribute("lang", lang)
        seen[what] = english(page)

    (tmp_path / "kaputt.dn").write_text(  # a deal that does not split the box as the rules do (D002)
        '[Players "Anna, Ben"]\n[Board "tiny.toml"]\n[Rules "webley-en"]\n\nhand Anna: W3 W2x2 W1x2 S3 S2x2 S1x2\n'
        "hand Ben: W3 W2x2 W1x2 R3 R2x2 R1\n", encoding="utf-8")
    with play_server(tmp_path) as (_, url, _token):
        api = f"{url}api/games/tisch"
        call(f"{url}api/games", {"name": "tisch", "players": ["Anna", "Ben"], "board": "tiny.toml", "rules": "webley-en",
                                 "deal": {"hands": HANDS, "cards": {"Anna": "townhall", "Ben": "tavern"}}})
        for move in ("S1 a2", "R2 f5-f4"):
            call(api + "/moves", {"move": move})
        host.goto(url)
        expect(host.locator("#games li")).to_have_count(2)
        scan("lobby", host)

        host.goto(url + "#/g/kaputt")
        expect(host.locator("#mend-verdict")).to_contain_text("D002")
        assert "untitled" not in host.locator("#mend-verdict").inner_text()  # the project's word beside Webley's place
        scan("a record to mend", host)

        host.goto(url + "#/g/tisch")
        host.wait_for_selector("#board rect.hit")
        scan("a game in progress", host)
        host.fill("#ask-move", "pass")  # illegal under every ruleset (T2), each with its place in its booklet
        host.press("#ask-move", "Enter")
        expect(host.locator("#verdicts .verdict")).not_to_have_count(0)
        verdicts = host.locator("#verdicts").inner_text()
        worded = {"de": "ein Legezwang steht dort nicht", "cs": "povinnost položit placku tam uvedena není"}[lang]
        assert worded in verdicts and "not stated" not in verdicts, verdicts  # the citation's note worded on the page
        scan("the referee's verdicts", host)
        host.fill("#ask-move", "W3 zz")
        host.press("#ask-move", "Enter")
        expect(host.locator("#message")).to_contain_text("P001")
        scan("a refused move", host)
        host.click("#turns summary")
        host.locator("#events li button.back").first.click()
        expect(host.locator("#takeback")).to_be_visible()
        scan("a take-back asked", host)
        host.click("#takeback-cancel")

        if host.locator("#secret-votes").is_checked():
            host.uncheck("#secret-votes")
        lay(host, "S2", "b2", "S2 b2-c2")
        expect(host.locator("#vote")).to_be_visible()
        host.locator("#ballots button").first.click()
        expect(host.locator("#tally .sum")).to_contain_text("1:0")
        scan("a vote on the host", host)
        host.click("#vote-cancel")
        host.check("#secret-votes")
        lay(host, "S2", "b2", "S2 b2-c2")
        expect(host.locator("#ballot")).to_be_visible()
        host.click("#seats-btn")
        expect(host.locator(".seat-link code")).to_have_count(2)
        scan("a secret ballot on the host", host)
        phone.goto(host.locator('.seat-link[data-player="Ben"] code').inner_text())
        expect(phone.locator("#lay")).to_be_visible()
        scan("a secret ballot on a seat", phone)

        host.goto(url + "#/g/nope")
        expect(host.locator("#message")).to_contain_text("'nope'")
        scan("a refusal", host)

        host.goto(url)
        host.fill("#ng-name", "roboter")
        host.locator(".ng-player").nth(0).fill("Anna")
        host.locator(".ng-player").nth(1).fill("Ben")
        host.locator(".ng-seat").nth(1).select_option("easy")
        host.check("#ng-hints")
        host.select_option("#ng-board", "tiny.toml")
        host.check("input[name=deal][value=random]")
        host.click("#ng-start")
        host.wait_for_selector("#board rect.hit")
        bots = f"{url}api/games/roboter"
        s = settled(bots, lambda g: g["to_move"] == "Anna" and not g["vote"])
        host.click("#seats-btn")
        expect(host.locator(".seat-link.bot")).to_have_count(1)
        seat = browser.new_context(locale=LOCALES[lang], **PHONE).new_page()
        seat.set_default_timeout(15_000)
        seat.on("pageerror", lambda e: problems.append(str(e)))
        seat.goto(host.locator('.seat-link[data-player="Anna"] code').inner_text())
        seat.click("#hint")
        scan("the coach thinking", seat)
        expect(seat.locator("#hint-moves li button").first).to_be_visible()
        scan("the coach's hint", seat)
        call(bots + "/autoplay", {"delay_ms": 2000})  # the bot takes its time: seen while it thinks
        call(bots + "/moves", {"move": s["legal"][0]["move"] if s["legal"] else "pass", "turn": s["turn"]})
        expect(host.locator("#turn-line")).to_contain_text("Ben")
        scan("a bot thinking, on the host", host)
        scan("a bot thinking, on a seat", seat)
        call(bots + "/autoplay", {"paused": True})
        expect(host.locator("#autoplay-pause")).to_have_text(re.compile("."))
        scan("the bots paused", host)

        call(f"{url}api/games", {"name": "ende", "players": ["Anna", "Ben"], "board": "tiny.toml", "rules": "webley-en",
                                 "deal": "random", "bots": {"Anna": "easy", "Ben": "easy"}})
        call(f"{url}api/games/ende/autoplay", {"delay_ms": 0})
        settled(f"{url}api/games/ende", lambda g: g["over"])
        host.goto(url + "#/g/ende")
        expect(host.locator("#winner")).to_be_visible()
        scan("the result, with the rules that decided it", host)
        seat.goto(url + "?lang=en#/g/tisch")  # the scan finds English where there is some
        expect(seat.locator("#turn-line")).to_contain_text("Turn 3")
        assert len(english(seat)) > 10
    expect(phone.locator("#connection")).to_be_visible()  # the server has stopped
    scan("the connection lost", phone)
    assert not problems, problems
    assert {what: words for what, words in seen.items() if words} == {}
    assert len(seen) == 17
