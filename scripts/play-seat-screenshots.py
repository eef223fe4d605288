"""The host page's seat links for docs/play.md, as a club's server shows them: the app
served on loopback, but told that phones reach it at http://192.0.2.2:8000/ (an
address reserved for documentation: nothing is ever sent there, it only stands in
the links and QR codes). Writes docs/img/play-seats-host.png.

    .venv/bin/python scripts/play-seat-screenshots.py
"""
from __future__ import annotations

import shutil
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import uvicorn  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from drunter_notation.web.app import create_app  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="play-shots-"))
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", folder / "tiny.toml")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(folder, links=("http://192.0.2.2:8000/",)), log_level="warning"))
    threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(f"http://127.0.0.1:{port}/")
        page.fill("#ng-name", "club-night")
        for i, name in enumerate(["Anna", "Ben", "Cem", "Dora"]):
            page.locator(".ng-player").nth(i).fill(name)
        page.select_option("#ng-board", "tiny.toml")
        page.click("#ng-start")
        page.wait_for_selector("#board rect.hit")
        page.click("#seats-btn")
        page.wait_for_selector(".seat-link img.qr")
        page.screenshot(path=str(ROOT / "docs" / "img" / "play-seats-host.png"), full_page=True)
        browser.close()
    server.should_exit = True


if __name__ == "__main__":
    main()
