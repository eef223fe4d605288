"""The browser edition beside the command line, in one run: the bytes of a first visit, the time
to ready (cold and from the service worker's cache), validating records, a strong bot's decision.

    bash scripts/site.sh /tmp/site
    python bench/browser.py /tmp/site [--repeat 3]

Chromium (/usr/bin/chromium, headless) on a loopback static server; the peer is this process's
CPython running the same calls (drunter_notation.cli.browser, what the page's worker runs).
Prints numbers and checks nothing but that both sides gave the same answers.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from site_engine import serving  # noqa: E402

from drunter_notation.cli import browser as engine  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"]
REPLAYS = ROOT / "replays"
VALIDATIONS = 5  # runs of the validation of every record of replays/, the best counts
AIMS = {"first visit (MB gzip)": 6.0, "ready cold (s)": 4.0, "ready cached (s)": 2.0,
        "validation (x CPython)": 1.5, "strong bot (s)": 3.0}


def gzip_sizes(site: Path) -> tuple[int, int]:
    """gzip -9 bytes: of what the page needs to be ready, and of everything the service worker keeps."""
    needed = {"en/check.html", "assets/app.js", "assets/drunter.js", "assets/check.js", "assets/site.css",
              "assets/board.css", "assets/worker.js", "assets/engine.js", "sw.js", "packages.zip",
              *(f"pyodide/{n}" for n in ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json",
                                         "python_stdlib.zip"))}
    every = [p for p in site.rglob("*") if p.is_file()]
    sizes = {p.relative_to(site).as_posix(): len(gzip.compress(p.read_bytes(), 9)) for p in every}
    return sum(v for k, v in sizes.items() if k in needed), sum(sizes.values())


def ready_ms(page) -> float:
    page.wait_for_selector("body.ready", timeout=180_000)
    return float(page.get_attribute("body", "data-ready-ms") or "nan")


def replays() -> dict[str, str]:
    """Every record of replays/ and its board files, as the folder holds them."""
    return {p.relative_to(REPLAYS).as_posix(): p.read_text("utf-8") for p in sorted(REPLAYS.rglob("*"))
            if p.suffix in (".dn", ".toml")}


def timed_cpython(name: str, repeat: int, **args: object) -> tuple[float, object]:
    best, answer = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        answer = json.loads(engine.call(name, json.dumps(args)))
        best = min(best, time.perf_counter() - start)
    return best, answer


def timed_page(page, name: str, repeat: int, **args: object) -> tuple[float, object]:
    """The same call through window.drunter (the page's Web Worker), best of REPEAT, in the page's clock."""
    return tuple(page.evaluate("""async ([name, args, repeat]) => {
        const call = {cli: (a) => drunter.cli(a.args, a.files), decide: (a) => drunter.decide(a.game, a)}[name];
        let best = Infinity, answer = null;
        for (let i = 0; i < repeat; i++) {
          const start = performance.now();
          answer = await call(args);
          best = Math.min(best, performance.now() - start);
        }
        return [best / 1000, answer];
    }""", [name, args, repeat]))  # type: ignore[return-value]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("site", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    from playwright.sync_api import sync_playwright

    site, repeat = options.site, options.repeat
    needed, every = gzip_sizes(site)
    figures: dict[str, float] = {"first visit (MB gzip)": needed / 1e6}
    print(f"first visit, gzip -9: {needed / 1e6:.2f} MB to be ready; {every / 1e6:.2f} MB with everything the "
          f"service worker keeps (every page in every language)")
    print(f"machine: {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} (1 min); Chromium on loopback, {repeat} runs")
    # CPython's side first, alone in this process (Playwright's driver thread would share its GIL).
    every = {"args": ["validate", "."], "files": replays()}
    records = sum(name.endswith(".dn") for name in every["files"])
    peer = timed_cpython("cli", VALIDATIONS, **every)
    game = {"players": ["Anna", "Ben", "Cleo", "Dana"], "seed": 11}
    mine = json.loads(engine.call("new_game", json.dumps(game)))["game"]
    bot_py, bot_want = timed_cpython("decide", 1, game=mine, spec="strong")
    with serving(site) as (_server, base), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
        cold, cached = [], []
        for _ in range(repeat):
            context = browser.new_context()
            page = context.new_page()
            page.goto(f"{base}en/check.html")
            cold.append(ready_ms(page) / 1000)
            for _wait in range(600):  # the service worker has every file once it controls the page
                if page.evaluate("navigator.serviceWorker.controller !== null"):
                    break
                page.wait_for_timeout(100)
            page.evaluate("async () => { await drunter.kept; }")  # the modules kept compiled, as after a visit
            page.reload()
            cached.append(ready_ms(page) / 1000)
            context.close()
        figures["ready cold (s)"], figures["ready cached (s)"] = min(cold), min(cached)
        print(f"ready, cold (new profile): {' '.join(f'{x:.2f}' for x in cold)} s; from the service worker's "
              f"cache: {' '.join(f'{x:.2f}' for x in cached)} s")
        page = browser.new_context().new_page()
        page.goto(f"{base}en/check.html")
        ready_ms(page)
        t_page, got = timed_page(page, "cli", VALIDATIONS, **every)
        t_py, want = peer
        assert got == want, "the page and CPython differ"
        figures["validation (x CPython)"] = t_page / t_py
        print(f"drunter validate over the {records} records of replays/ (one call, best of {VALIDATIONS}): "
              f"page {t_page:.2f} s, CPython {t_py:.2f} s ({t_page / t_py:.2f}x)")
        page.evaluate("async (g) => { window.benchGame = await drunter.newGame(g); }", game)
        number = page.evaluate("window.benchGame.game")
        t_page, got = timed_page(page, "decide", 1, game=number, spec="strong")
        t_py, want = bot_py, bot_want
        assert got == want, "the strong bot chose differently"
        figures["strong bot (s)"] = t_page
        print(f"a strong bot's first move (ismcts:sims=800, 4 players): page {t_page:.2f} s, CPython {t_py:.2f} s "
              f"({t_page / t_py:.2f}x)")
        browser.close()
    print("aims:")
    for name, aim in AIMS.items():
        print(f"  {name:<24} {figures[name]:6.2f}   aim <= {aim:<4}  {'met' if figures[name] <= aim else 'NOT met'}")


if __name__ == "__main__":
    main()
