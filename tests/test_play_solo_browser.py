"""One person against three bots on a phone (390x844), on the host page alone: the
bots named by their strength, the coach's hint on the host page and played by a tap,
a bot's thought shown (its tiles and Undo off) and taken back, a pause shown at once,
a server restart seen and survived; players named ``constructor``, ``__proto__``,
``toString`` and ``hasOwnProperty`` are names like any other, on the host page and on a seat's page."""
from __future__ import annotations

import json
import shutil
import socket
import time
import urllib.request

import pytest
from conftest import LONG, ROOT

pytestmark = pytest.mark.slow
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
ME = "constructor"
BOTS = {"toString": "easy", "__proto__": "easy", "hasOwnProperty": "medium"}


def call(url: str, body: dict | None = None, headers: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"} | (headers or {}))
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.loads(r.read())


def until(check, what: str):
    """Poll ``check`` until it gives something true (bounded; no time is asserted)."""
    for _ in range(1500):
        got = check()
        if got:
            return got
        time.sleep(0.02)
    pytest.fail(f"never happened: {what}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def my_turn(api: str, seat: dict) -> dict:
    """Wait for the person's turn (laying '?' on any ballot meanwhile): the game as it then stands."""
    def ready():
        g = call(api)
        v = g["vote"]
        if v and not v["shown"] and ME in v["order"] and ME not in v["laid"]:
            call(api.replace("/games/", "/seat/") + "/lay", {"cards": ["?"]}, seat)
            return None
        if v and v["shown"] and ME in (v["jein_due"] or []):
            call(api.replace("/games/", "/seat/") + "/jein", {"side": "no"}, seat)
            return None
        return g if g["to_move"] == ME and not v and not g["over"] else None
    return until(ready, "the person's turn")


def plain_move(g: dict) -> str:
    return next((m["move"] for m in g["legal"] if not m["needs_vote"]), "pass")


@LONG
def test_one_person_against_three_bots_on_a_phone(browser, expect, play_server, tmp_path):
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "tiny.toml")
    problems: list[str] = []
    port = free_port()
    with play_server(tmp_path, "--port", str(port)) as (_, url, _token):
        api = f"{url}api/games/t"
        made = call(f"{url}api/games", {"name": "t", "players": [ME, *BOTS], "deal": "random", "hints": True,
                                          "board": "tiny.toml", "bots": BOTS})
        assert made["levels"] == BOTS
        call(api + "/autoplay", {"delay_ms": 0})
        seat = {"X-Drunter-Seat": call(api + "/seats")["seats"][0]["links"][0].split("#")[1]}
        page = browser.new_context(**PHONE).new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(url + "#/g/t")
        page.wait_for_selector("#board rect.hit")
        # the bots by their strength, their spec in a tooltip; no name is taken for a property of an object
        expect(page.locator("#players .bot-seat")).to_have_count(3)
        labels = page.locator("#players .bot-seat").all_inner_texts()
        assert sorted(labels) == ["the computer: easy", "the computer: easy", "the computer: medium"]
        assert page.locator("#players .bot-seat").evaluate_all("es => es.map(e => e.title)").count("greedy") == 2
        assert "function" not in page.inner_text("body")
        # a refusal with a code is worded by the page from its own catalog, with the answer's data
        worded = page.evaluate("""async () => [(await DP.api("GET", "/api/nope")).data.error,
          (await DP.api("POST", "/api/games", {name: "x", players: ["A", "B"], deal: "random",
                                               bots: {B: "ismcts:sims=1_000"}})).data.error]""")
        assert worded == ["no page and no API route at /api/nope",
                          "bots: ismcts:sims=1_000 is no bot for B: give easy, medium, strong, greedy, cautious, "
                          "random or ismcts with settings like ismcts:sims=400"]

        # the coach's hint on the host page, one of its moves played by a tap
        tapped = None
        for _ in range(12):
            g = my_turn(api, seat)
            expect(page.locator("#hint")).to_be_visible()
            page.click("#hint")
            expect(page.locator("#hint-moves button.hint-move").first).to_be_visible()
            plain = {m["move"] for m in g["legal"] if not m["needs_vote"]}
            hinted = [b for b in page.locator("#hint-moves button.hint-move").all()
                      if b.get_attribute("data-move") in plain]
            if hinted:
                tapped = hinted[0].get_attribute("data-move")
                hinted[0].click()
                until(lambda g=g: call(api)["turn"] > g["turn"], "the tapped hint was played")
                break
            call(api.replace("/games/", "/seat/") + "/moves", {"move": plain_move(g), "turn": g["turn"]}, seat)
        assert tapped, "no hint move could be tapped"
        assert any(e["player"] == ME and e["dn"].endswith(tapped) for e in call(api)["events"])
        my_turn(api, seat)  # the bots played after it: told as theirs, not as another device's
        expect(page.locator("#message")).not_to_contain_text("another device")

        # a bot's thought: its tiles and Undo off on the host page; taken back with the phone's own button
        call(api + "/autoplay", {"delay_ms": 10_000})
        g = my_turn(api, seat)
        call(api.replace("/games/", "/seat/") + "/moves", {"move": plain_move(g), "turn": g["turn"]}, seat)
        expect(page.locator("#undo")).to_be_disabled()
        expect(page.locator("#hand button").first).to_be_disabled()
        expect(page.locator("#takeback-mine")).to_be_visible()
        page.click("#takeback-mine")
        page.click("#takeback-do")
        until(lambda: call(api)["turn"] == g["turn"] and call(api)["to_move"] == ME, "taken back")
        expect(page.locator("#message")).to_contain_text(str(g["turn"]))
        expect(page.locator("#message")).not_to_contain_text("another device")

        # a pause shows at once and holds
        page.click("#autoplay-pause")
        expect(page.locator("#autoplay-pause")).to_have_attribute("aria-pressed", "true")
        until(lambda: call(api + "/autoplay")["paused"], "paused on the server")

        # several players: a seat's own page says who the computer is, by name and strength
        other = browser.new_context(**PHONE).new_page()
        other.on("pageerror", lambda e: problems.append(str(e)))
        other.goto(call(api + "/seats")["seats"][0]["links"][0])
        expect(other.locator("#who")).to_contain_text(ME)
        expect(other.locator("#bots-line")).to_contain_text("toString (easy)")
        expect(other.locator("#bots-line")).to_contain_text("__proto__ (easy)")
        expect(other.locator("#bots-line")).to_contain_text("hasOwnProperty (medium)")
        assert "function" not in other.inner_text("body")
        expect(other.locator("#hint")).to_be_visible()

        # a turn the secret ballots decided is recorded when the last card is laid, by whoever lays it: told as
        # counted, never as another device's change (the default board: a vote comes at once)
        vapi = f"{url}api/games/v"
        call(f"{url}api/games", {"name": "v", "players": [ME, *BOTS], "deal": "random", "bots": BOTS})
        call(vapi + "/autoplay", {"delay_ms": 0})
        vseat = {"X-Drunter-Seat": call(vapi + "/seats")["seats"][0]["links"][0].split("#")[1]}
        page.goto(url + "#/g/v")
        page.wait_for_selector("#board rect.hit")
        page.evaluate("""() => { const m = document.getElementById('message'); window.seen = [];
          new MutationObserver(() => window.seen.push(m.textContent)).observe(m, {childList: true, subtree: true,
                                                                                 characterData: true}); }""")
        voted = None
        for _ in range(10):
            g = my_turn(vapi, vseat)
            voted = next((m["move"] for m in g["legal"] if m["needs_vote"]), None)
            if voted:
                # the page has shown the turn (and told whatever came before it): from here on, nothing is another's
                until(lambda g=g: f"Turn {g['turn']}:" in page.inner_text("#turn-line"), "the page at the turn")
                page.evaluate("() => { window.seen = []; }")
                call(vapi + "/autoplay", {"delay_ms": 10_000})  # the bots wait before they lay
                call(vapi.replace("/games/", "/seat/") + "/ballot", {"move": voted, "turn": g["turn"]}, vseat)
                # the computer's seats are not the person's to open: only the person's own can be laid here
                expect(page.locator("#ballot li.waiting")).to_have_count(4)
                assert page.locator("#ballot button.lay-here").evaluate_all("bs => bs.map(b => b.dataset.player)") == [ME]
                call(vapi + "/autoplay", {"delay_ms": 0})
                my_turn(vapi, vseat)  # ME lays, the bots lay, the turn is counted, the bots play on
                break
            call(vapi.replace("/games/", "/seat/") + "/moves", {"move": plain_move(g), "turn": g["turn"]}, vseat)
        assert voted, "no turn of the person's put a tile to the vote"
        until(lambda: any(voted in m and "the tile" in m for m in page.evaluate("() => window.seen")), "the count told")
        assert not [m for m in page.evaluate("() => window.seen") if "another device" in m]
    # the server is gone: both pages say so; back on the same port, they say that too
    expect(page.locator("#connection")).to_contain_text("Connection lost")
    with play_server(tmp_path, "--port", str(port)) as (_, url, _token):
        expect(page.locator("#connection")).to_contain_text("Connected again")
        assert call(api + "/autoplay")["paused"] and call(api)["to_move"] == ME  # nothing resumed by itself
        # the game ended and deleted from the lobby: two taps, the record kept in the archive
        page.goto(url)
        page.click('#games button.delete[data-game="t"]')
        page.click('#games button.delete[data-game="t"]')
        expect(page.locator("#lobby-msg")).to_contain_text("archive/t.dn")
        expect(page.locator('#games button.delete[data-game="t"]')).to_have_count(0)
    assert (tmp_path / "archive" / "t.dn").exists() and not (tmp_path / "t.dn").exists()
    assert not problems, problems


def test_a_busy_coach_is_asked_again_by_the_page_until_it_answers(browser, expect, play_server, tmp_path):
    """The coach's queue full (the answer 429 ``coach-busy``): the page says so and asks again by itself,
    and shows the hint once the coach answers."""
    with play_server(tmp_path) as (_, url, _token):
        call(f"{url}api/games", {"name": "t", "players": ["Anna", "Ben"], "deal": "random", "hints": True})
        page = browser.new_context(**PHONE).new_page()
        page.set_default_timeout(15_000)
        asked: list[int] = []

        def busy_once(route):
            asked.append(1)
            if len(asked) == 1:
                return route.fulfill(status=429, content_type="application/json", body=json.dumps(
                    {"error": "busy", "code": "coach-busy", "data": {"most": 6}}))
            return route.continue_()
        page.route("**/api/seat/t/hint", busy_once)
        page.goto(url + "#/g/t")
        page.wait_for_selector("#board rect.hit")
        page.click("#hint")
        expect(page.locator("#hint-moves")).to_contain_text("the coach is busy with other tables: asking again")
        expect(page.locator("#hint-moves button.hint-move").first).to_be_visible()
        assert len(asked) == 2 and call(f"{url}api/games/t")["hints"] == {"Anna": 1, "Ben": 0}


@LONG
def test_a_page_refused_a_stream_fetches_its_view_instead(browser, expect, play_server, tmp_path):
    """The server has no stream to spare (503): the page still shows a move made elsewhere, without
    saying the connection is lost."""
    with play_server(tmp_path) as (_, url, _token):
        call(f"{url}api/games", {"name": "t", "players": ["Anna", "Ben"], "deal": "random"})
        page = browser.new_context(**PHONE).new_page()
        page.set_default_timeout(15_000)
        page.route("**/api/games/t/events", lambda route: route.fulfill(
            status=503, content_type="application/json", body=json.dumps({"error": "too many open pages"})))
        page.goto(url + "#/g/t")
        page.wait_for_selector("#board rect.hit")
        g = call(f"{url}api/games/t")
        call(f"{url}api/games/t/moves", {"move": plain_move(g), "turn": g["turn"]})
        expect(page.locator("#events")).to_contain_text(plain_move(g))
        assert not page.locator("#connection.bad").is_visible()
