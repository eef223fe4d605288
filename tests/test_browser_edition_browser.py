"""The browser edition's pages in Chromium (/usr/bin/chromium via Playwright) from a static server
on loopback: the four pages in en/de/cs at a laptop's 1280x800 and a phone's 390x844, a record
checked as validate checks it, a replay stepped, a dispute judged as adjudicate judges it, a whole
game of one person against three bots to a valid record that survives a reload, the site with
the server gone and the network off, and axe-core finding no violation.

Needs a built site (``DRUNTER_SITE=DIR`` after ``bash scripts/site.sh DIR``); skipped otherwise.
Screenshots go to test-artifacts/."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ARTIFACTS, ROOT, RUN_CLI
from site_engine import serving, site_dir

from drunter_notation import i18n

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}
PAGES = {"check": "Check a record", "replay": "Replay a record", "dispute": "Settle a dispute",
         "play": "Play on one phone"}
AXE = ROOT / "site" / "node_modules" / "axe-core" / "axe.min.js"
ASKED = "#move-form:not([hidden]), #vote-form:not([hidden]), #jein-form:not([hidden])"  # a person is asked
READY = 120_000  # ms: a cold engine on a busy machine
ANSWER = 5_000  # ms: a form shown is answered at once, unless the page hid it meanwhile
PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

pytestmark = [pytest.mark.slow, pytest.mark.site]


@pytest.fixture(scope="module")
def site():
    found = site_dir()
    if found is None:
        pytest.skip("no built site: bash scripts/site.sh DIR, then DRUNTER_SITE=DIR")
    return found


@pytest.fixture(scope="module")
def base(site):
    with serving(site) as (_proc, url):
        yield url


def new_page(browser, width: int, height: int, **options):
    """A page of a new context, its console's errors (a CSP violation among them) collected."""
    page = browser.new_context(viewport={"width": width, "height": height}, **options).new_page()
    page.errors = []
    page.on("console", lambda m: page.errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    return page


def ready(page) -> None:
    page.wait_for_selector("body.ready", timeout=READY)


def until(page, script: str, timeout: float = READY / 1000) -> None:
    """Poll ``script`` (an expression) until it is true: the pages' CSP forbids wait_for_function."""
    for _ in range(int(timeout * 10)):
        if page.evaluate(script):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"never true: {script}")


def cpython(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", RUN_CLI, *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.parametrize("size", SIZES)
def test_every_page_in_every_language_fits_and_speaks_it(browser, base, size):
    width, height = SIZES[size]
    page = new_page(browser, width, height)
    for lang in i18n.LANGUAGES:
        for name, heading in PAGES.items():
            page.goto(f"{base}{lang}/{name}.html")
            with i18n.using(lang):
                assert page.inner_text("h1") == i18n._(heading)
                assert page.inner_text("header nav") .split() == " ".join(
                    i18n._(w) for w in ("Check", "Replay", "Dispute", "Play")).split()
            assert page.get_attribute("html", "lang") == lang
            assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{lang}/{name}"
            if lang == "de":
                ready(page)
            page.screenshot(path=str(ARTIFACTS / f"site-{name}-{lang}-{size}.png"), full_page=True)
    assert not page.errors


def test_the_language_menu_moves_to_the_same_page_in_another_language(browser, base):
    page = new_page(browser, 390, 844)
    page.goto(f"{base}en/dispute.html")
    page.select_option("#lang-menu", "cs")
    page.wait_for_url(f"{base}cs/dispute.html")
    page.goto(base)  # the entry page remembers the choice
    page.wait_for_url(f"{base}cs/check.html")


def test_check_shows_each_finding_as_validate_says_it_and_marks_its_line(browser, base, tmp_path):
    record = (ROOT / "replays" / "illegal" / "A001-bridge-run.dn").read_text("utf-8")
    page = new_page(browser, 390, 844)
    page.goto(f"{base}en/check.html")
    ready(page)
    page.fill("#record", record)
    page.click("#check")
    page.wait_for_selector("#result:not([hidden])")
    (tmp_path / "game.dn").write_text(record, "utf-8")
    done = cpython(["validate", "game.dn"], tmp_path)
    said = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert page.locator("#findings li").all_inner_texts() == said
    lines = sorted({int(m[1]) for line in said if (m := re.match(r"game\.dn:(\d+):", line))})
    assert [int(x.split("-")[1]) for x in page.locator("#source li.marked").evaluate_all(
        "items => items.map(i => i.id)")] == lines
    page.fill("#record", record.replace("\n\n", "\n\n\n", 1))  # Format gives drunter fmt's canonical text
    page.click("#format")
    until(page, "document.getElementById('record').value.indexOf('\\n\\n\\n') < 0")
    assert page.input_value("#record") == cpython(["fmt", "game.dn"], tmp_path).stdout
    assert not page.errors


def test_check_judges_a_file_s_bytes_as_validate_does_and_lists_its_lines_safely(browser, base, tmp_path):
    """A file that is no UTF-8 text is the engine's to refuse (I002), as on a disk; a record's lines are listed
    as the engine makes them safe (a bidi override as its escape), up to 5,000, the rest counted."""
    page = new_page(browser, 390, 844)
    page.goto(f"{base}en/check.html")
    ready(page)
    latin = (ROOT / "replays" / "legal-2p.dn").read_bytes().replace(b"[Players", b"# caf\xe9\n[Players", 1)
    (tmp_path / "latin.dn").write_bytes(latin)
    page.set_input_files("#files", str(tmp_path / "latin.dn"))
    page.click("#check")
    page.wait_for_selector("#result:not([hidden])")
    said = cpython(["validate", "latin.dn"], tmp_path)
    assert said.returncode == 2 and "I002" in said.stdout
    assert page.locator("#findings li").all_inner_texts() == [x for x in said.stdout.splitlines() if x.strip()]
    page.goto(f"{base}en/check.html")
    ready(page)
    page.evaluate("text => { document.getElementById('record').value = text; }",
                  '[Players "Anna, Ben"]\n# evil \u202eRTL \x1b[31m\n' + "# c\n" * 6_000)
    page.click("#check")
    until(page, "document.querySelectorAll('#source li').length > 5000")
    assert page.locator("#source li").nth(1).inner_text() == "# evil \\u202eRTL \\x1b[31m"
    assert "\u202e" not in page.inner_text("#source") and "1,003 more lines" in page.inner_text("#source li.more")
    assert not page.errors


def test_a_cancel_before_the_engine_is_ready_refuses_the_calls_made_and_the_page_starts(browser, base):
    page = new_page(browser, 1280, 800)
    page.goto(f"{base}en/check.html")
    page.evaluate("""() => {
        window.asked = drunter.cli(["--version"]).then(() => "answered", (e) => e.message);
        drunter.cancel();
    }""")
    ready(page)  # the page's engine status waited on the first promise: the new engine settles it
    assert page.evaluate("window.asked") == "cancelled"
    assert page.is_enabled("#check") and page.evaluate("drunter.cli(['--version']).then(o => o.status)") == 0
    assert not page.errors


def test_replay_steps_through_the_report(browser, base):
    page = new_page(browser, 1280, 800)
    page.goto(f"{base}de/replay.html")
    ready(page)
    page.fill("#record", (ROOT / "replays" / "legal-2p.dn").read_text("utf-8"))
    page.click("#replay")
    frame = page.frame_locator("#view")
    frame.locator("#next").click(timeout=READY)
    assert frame.locator("#pos").inner_text() == "1 / 60"
    frame.locator("#last").click()
    assert frame.locator("#pos").inner_text() == "60 / 60"
    assert frame.locator("html").get_attribute("lang") == "de"
    page.screenshot(path=str(ARTIFACTS / "site-replay-stepped.png"), full_page=True)
    assert not page.errors


def test_dispute_gives_adjudicates_verdicts(browser, base):
    position = cpython(["position", "replays/legal-2p.dn", "--turn", "5"], ROOT).stdout.strip()  # a built-in board
    page = new_page(browser, 390, 844)
    page.goto(f"{base}en/dispute.html")
    ready(page)
    page.check("input[value=position]")
    page.fill("#position", position)
    page.fill("#move", "W2 a14-a13")
    page.select_option("#rules", "all")
    page.click("#judge")
    page.wait_for_selector("#result:not([hidden])")
    done = cpython(["adjudicate", "--position", position, "--move", "W2 a14-a13", "--all-rulesets"], ROOT)
    assert done.returncode == 0
    assert page.evaluate("document.getElementById('verdict').textContent") == done.stdout + done.stderr
    assert not page.errors


def play_on(page, moves_before_stop: int | None = None) -> int:
    """Answer every question the Play page asks its one person (the first legal move, the first
    vote card, JEIN counted yes) until the game ends, or after MOVES_BEFORE_STOP moves. A form the
    page hides between the look and the answer (the game went on meanwhile) is looked at again."""
    moves = missed = 0
    for _ in range(5_000):
        if page.locator("#result:not([hidden])").count():
            return moves
        if moves_before_stop is not None and moves >= moves_before_stop:
            return moves
        try:
            if page.locator("#move-form:not([hidden])").count():
                page.click("#move-form:not([hidden]) #play-move", timeout=ANSWER)
                moves += 1
            elif page.locator("#vote-form:not([hidden])").count():
                page.locator("#vote-form:not([hidden]) #vote-cards input").first.check(timeout=ANSWER)
                page.click("#vote-form:not([hidden]) button[type=submit]", timeout=ANSWER)
            elif page.locator("#jein-form:not([hidden])").count():
                page.click("#jein-form:not([hidden]) #jein-yes", timeout=ANSWER)
            else:
                page.wait_for_timeout(100)
            missed = 0
        except PlaywrightTimeout:
            missed += 1
            assert missed < 10, "a question stayed on the page and could not be answered"
    raise AssertionError("the game did not end")


def test_a_whole_game_against_three_bots_survives_a_reload_and_gives_a_valid_record(browser, base, tmp_path):
    page = new_page(browser, 390, 844, accept_downloads=True)
    page.goto(f"{base}en/play.html")
    ready(page)
    for n in (2, 3, 4):
        page.select_option(f"#seat-who-{n}", "easy")
    page.click("#start")
    assert play_on(page, 4) == 4
    page.wait_for_selector(ASKED, timeout=READY)  # the bots wait for the person
    before = page.inner_text("#status")
    page.reload()  # the game is kept on the device (IndexedDB) and goes on in a new engine
    ready(page)
    page.locator("#saved li button").first.click()
    page.wait_for_selector(ASKED, timeout=READY)
    assert page.inner_text("#status") == before
    play_on(page)
    with page.expect_download() as download:
        page.click("#download")
    path = tmp_path / "game.dn"
    download.value.save_as(path)
    done = cpython(["validate", str(path)], ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"valid: \d+ turns", done.stdout)
    assert path.read_text("utf-8").startswith('[Players "Anna, Ben, Cleo, Dana"]')
    page.screenshot(path=str(ARTIFACTS / "site-play-finished.png"), full_page=True)
    assert not page.errors


def test_pass_and_play_hides_the_last_persons_cards(browser, base):
    page = new_page(browser, 390, 844)
    page.goto(f"{base}de/play.html")
    ready(page)
    page.fill("#seat-name-2", "אבי")  # a right-to-left name, isolated wherever the page shows it
    page.select_option("#seat-who-2", "person")
    page.select_option("#seat-who-3", "none")
    page.select_option("#seat-who-4", "none")
    page.click("#start")
    page.wait_for_selector("#cover:not([hidden])", timeout=READY)
    with i18n.using("de"):
        assert page.inner_text("#cover-text") == i18n._("Pass the phone to {name}").format(name="Anna")
    assert page.locator("#mine:not([hidden])").count() == 0
    page.click("#cover-go")
    page.wait_for_selector("#move-form:not([hidden])")
    card = page.inner_text("#card")
    page.click("#play-move")
    page.wait_for_selector("#cover:not([hidden])", timeout=READY)  # Ben's turn (or ballot): Anna's card is gone
    assert page.locator("#mine:not([hidden])").count() == 0 and "אבי" in page.inner_text("#cover-text")
    assert page.evaluate("document.getElementById('card').textContent") == ""  # emptied, not only hidden
    assert page.locator("#vote-cards input").count() == 0
    # the cover is modal: the keyboard is on its button, and nothing behind it can be reached
    assert page.evaluate("document.activeElement.id") == "cover-go"
    assert page.evaluate("document.querySelector('header.top').inert && document.getElementById('table').inert")
    assert page.locator("#cover-text bdi").inner_text() == "אבי" and page.locator("#status bdi").count() == 1
    page.click("#cover-go")
    page.wait_for_selector("#mine:not([hidden])")
    assert page.locator("#mine-title bdi").inner_text() == "אבי" and page.inner_text("#card") != "" and card != ""
    until(page, "document.activeElement.closest('#table form:not([hidden])') !== null")  # the keyboard at the question
    page.screenshot(path=str(ARTIFACTS / "site-play-pass-the-phone.png"), full_page=True)
    assert not page.errors


def test_the_site_works_offline_after_one_visit(browser, site):
    with serving(site) as (proc, url):
        context = browser.new_context(viewport={"width": 390, "height": 844})
        page = context.new_page()
        page.goto(f"{url}en/check.html")
        ready(page)
        until(page, "navigator.serviceWorker.controller !== null")  # every file of the site is cached
        assert page.evaluate("drunter.compiled") is False  # a first visit starts from the sources ...
        page.evaluate("async () => { await drunter.kept; }")  # ... and keeps them compiled for the next start
    context.set_offline(True)  # the server is gone too
    page.goto(f"{url}de/dispute.html")
    ready(page)
    page.goto(f"{url}en/check.html")
    ready(page)
    assert page.evaluate("drunter.compiled") is True
    page.fill("#record", (ROOT / "replays" / "legal-2p.dn").read_text("utf-8"))
    page.click("#check")
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#summary") == "The record is valid."
    context.close()


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (cd site && npm ci)")
@pytest.mark.parametrize("size", SIZES)
def test_axe_finds_no_violation(browser, base, size):
    # The check's own script is injected, so this context bypasses the pages' CSP (tested above).
    page = new_page(browser, *SIZES[size], bypass_csp=True)
    found = {}
    for name in PAGES:
        page.goto(f"{base}en/{name}.html")
        ready(page)
        if name == "play":  # the table too, not only the new-game form
            page.click("#start")
            page.wait_for_selector("#move-form:not([hidden])", timeout=READY)
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("axe.run(document).then(r => r.violations.map(v => [v.id, v.nodes.length]))")
        if result:
            found[name] = result
    assert not found, json.dumps(found)


def test_the_js_api_example_of_the_docs_answers_as_cpython(browser, base, tmp_path):
    text = (ROOT / "docs" / "browser.md").read_text("utf-8")
    blocks = re.findall(r"```js\n(.*?)```", text, re.S)
    assert len(blocks) == 1
    page = new_page(browser, 1280, 800)
    page.goto(f"{base}en/check.html")
    out, position, record = page.evaluate(f"async () => {{ {blocks[0]} }}")
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "a.dn").write_text("1. Anna W3 a1-c1\n", "utf-8")
    done = cpython(["validate", "games/a.dn"], tmp_path)
    assert out == {"status": done.returncode, "stdout": done.stdout, "stderr": done.stderr, "files": {}}
    from drunter_notation import Game
    game = Game.new(["Anna", "Ben"], seed=7)
    game.push(game.legal_moves()[0])
    assert (position, record) == (game.position(), game.to_dn())


def test_cli_in_a_page_speaks_its_own_lang_and_leaves_no_language_or_folder_behind(browser, base, tmp_path):
    page = new_page(browser, 1280, 800)
    page.goto(f"{base}en/check.html")
    ready(page)
    answers = page.evaluate("""async () => {
      const refusal = async (work) => { try { await work(); return null; } catch (e) { return [e.code, e.message]; } };
      const cs = await drunter.cli(["--lang", "cs", "validate", "nothere.dn"], {});
      drunter.lang = "cs";
      await drunter.cli(["rules", "list"], {});
      const en = await drunter.cli(["--lang", "en", "validate", "nothere.dn"], {});
      drunter.lang = "en";
      return {cs, en, state: await refusal(() => drunter.state(999)),
              stdin: await drunter.cli(["validate", "-"], {}),
              big: await drunter.cli(["validate", "big.dn"], {"big.dn": "x".repeat(16 * 1024 * 1024 + 1)}),
              laid: await refusal(() => drunter.cli(["validate", "a"], {"a": "x", "a/b.dn": "y"})),
              letters: await refusal(() => drunter.cli("validate", {}))};
    }""")
    for lang in ("cs", "en"):
        done = subprocess.run([sys.executable, "-c", RUN_CLI, "--lang", lang, "validate", "nothere.dn"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)
        assert answers[lang]["stdout"] == done.stdout, lang
    assert answers["state"] == ["U002", "<input>: error[U002]: no such game: 999"]
    (tmp_path / "big.dn").write_text("x" * (16 * 1024 * 1024 + 1), "utf-8")
    for key, args in (("stdin", ["--lang", "en", "validate", "-"]), ("big", ["--lang", "en", "validate", "big.dn"])):
        done = subprocess.run([sys.executable, "-c", RUN_CLI, *args], cwd=tmp_path, capture_output=True, text=True,
                              timeout=300, stdin=subprocess.DEVNULL)
        assert answers[key]["stdout"] == done.stdout and answers[key]["status"] == done.returncode, key
    assert answers["laid"][0] == "U002" and "Traceback" not in answers["laid"][1]
    assert answers["letters"][0] == "U002"
    assert not page.errors


def test_check_format_and_dispute_show_a_refusal_in_place_of_the_last_answer(browser, base):
    record = (ROOT / "replays" / "legal-2p.dn").read_text("utf-8")
    refuse = "() => { const real = drunter.cli; drunter.cli = (args, files) => real(args.join(' '), files); }"  # U002
    page = new_page(browser, 390, 844)
    page.goto(f"{base}cs/check.html")
    ready(page)
    page.fill("#record", record)
    page.click("#check")
    page.wait_for_selector("#summary.valid")
    page.evaluate(refuse)
    with i18n.using("cs"):
        for button, sentence in (("#check", "The record could not be checked."),
                                 ("#format", "The record could not be formatted.")):
            page.evaluate("document.getElementById('summary').textContent = ''")
            page.click(button)
            until(page, "document.getElementById('summary').textContent !== ''")
            assert page.inner_text("#summary") == i18n._(sentence)
            assert page.locator("#source li").count() == 0
            assert "chyba[U002]" in page.inner_text("#findings")
    page.goto(f"{base}cs/dispute.html")
    ready(page)
    page.evaluate(refuse)
    page.check("input[value=position]")
    page.fill("#position", "x")
    page.fill("#move", "pass")
    page.click("#judge")
    page.wait_for_selector("#result:not([hidden])")
    with i18n.using("cs"):
        said = page.evaluate("document.getElementById('verdict').textContent")
        assert said.startswith(i18n._("The dispute could not be settled.")) and "chyba[U002]" in said
    assert not page.errors


def test_replay_of_an_unreadable_record_shows_its_report_without_an_error(browser, base, tmp_path):
    page = new_page(browser, 1280, 800)
    page.goto(f"{base}en/replay.html")
    ready(page)
    page.fill("#record", "garbage")
    page.click("#replay")
    frame = page.frame_locator("#view")
    frame.locator("script[src='assets/report.js']").wait_for(state="attached", timeout=READY)
    page.wait_for_timeout(500)  # the report's script has run
    (tmp_path / "game.dn").write_text("garbage", "utf-8")
    cpython(["report", "game.dn", "-o", "report.html"], tmp_path)  # the command's report, as a browser opens it
    local = new_page(browser, 1280, 800)
    local.goto((tmp_path / "report.html").as_uri())
    local.wait_for_timeout(500)
    assert not page.errors and not local.errors


def test_the_play_page_s_board_speaks_the_page_s_language(browser, base):
    page = new_page(browser, 390, 844)
    page.goto(f"{base}de/play.html")
    ready(page)
    page.click("#start")
    page.wait_for_selector("#table-board svg", timeout=READY)
    with i18n.using("de"):
        assert page.get_attribute("#table-board svg", "aria-label") == i18n._("the board") != "the board"
    assert not page.errors


# The widest option's words against its box (less the padding and the arrow): a choice cut off reads as another.
CLIPPED_CHOICES = """() => {
  const ctx = document.createElement("canvas").getContext("2d");
  return [...document.querySelectorAll("select.seat-who")].filter((s) => {
    ctx.font = getComputedStyle(s).font;
    const widest = Math.max(...[...s.options].map((o) => ctx.measureText(o.text).width));
    return s.getBoundingClientRect().width - 36 < widest;
  }).map((s) => s.id);
}"""


@pytest.mark.parametrize("lang, width", [("de", 320), ("de", 390), ("cs", 320), ("en", 390)])
def test_the_play_page_s_seat_choices_are_shown_whole_on_a_phone(browser, base, lang, width):
    page = new_page(browser, width, 844)
    page.goto(f"{base}{lang}/play.html")
    page.wait_for_selector("select.seat-who")
    assert page.evaluate(CLIPPED_CHOICES) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # and nothing runs past the screen


ENGINE_CALL = "  const call = (name, args) => JSON.parse(api.call(name, JSON.stringify(args)));\n"
BROKEN_CALL = ('  const call = (name, args) => { if (name === "cli") py.runPython("raise RuntimeError(\'broken for the '
               'test\')"); return JSON.parse(api.call(name, JSON.stringify(args))); };\n')


def test_replay_shows_a_crashed_engine_as_one_sentence_and_its_traceback_only_in_the_console(browser, site, tmp_path):
    broken = tmp_path / "site"
    shutil.copytree(site, broken)
    engine = broken / "assets" / "engine.js"
    text = engine.read_text("utf-8")
    assert text.count(ENGINE_CALL) == 1  # the line the worker calls the engine by, made to fail for cli()
    engine.write_text(text.replace(ENGINE_CALL, BROKEN_CALL), "utf-8")
    with serving(broken) as (_proc, url):
        page = new_page(browser, 390, 844)
        page.goto(f"{url}cs/replay.html")
        ready(page)
        page.fill("#record", (ROOT / "replays" / "legal-2p.dn").read_text("utf-8"))
        page.click("#replay")
        page.wait_for_selector("#said:not([hidden])", timeout=READY)
        with i18n.using("cs"):
            assert page.inner_text("#said") == i18n._(
                "The record could not be replayed: the engine failed; try again, or reload the page.")
        assert page.is_enabled("#replay") and page.is_hidden("#view")
        page.screenshot(path=str(ARTIFACTS / "site-replay-engine-failed.png"), full_page=True)
        assert any("Traceback" in e and "broken for the test" in e for e in page.errors), page.errors
