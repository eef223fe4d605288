"""A table nobody can starve (drunter_notation/table/, web/bots.py): every bot's search
within a table's budget, at most MAX_LIVE games with bots playing, the workers shared
fairly among the tables, a computation no longer wanted stopped (its worker killed),
a paused game left paused after a restart, a game deleted into the archive, a hint
thought out once, one spelling of every bot.

Waiting polls in bounded loops; nothing asserts how long anything takes."""
from __future__ import annotations

import asyncio
import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from conftest import run_async, wait
from starlette.testclient import TestClient

from drunter_notation import Game
from drunter_notation.table import bots
from drunter_notation.table.bots import HintJob, Job
from drunter_notation.web.app import create_app
from drunter_notation.web.bots import ProcessThinker

ROOT = Path(__file__).resolve().parent.parent
BASE = "http://127.0.0.1"


def folder(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", path / "tiny.toml")
    return path




def tokens(client: TestClient, name: str) -> dict[str, dict[str, str]]:
    return {s["player"]: {"X-Drunter-Seat": s["links"][0].split("#")[1]}
            for s in client.get(f"/api/games/{name}/seats").json()["seats"]}


def thinks_on(job):
    """A thought that never ends by itself (in a worker process): only a kill stops it."""
    time.sleep(600)


def new(c: TestClient, name: str, bots_: dict, players=("Anna", "Ben"), **more) -> dict:
    r = c.post("/api/games", json={"name": name, "players": list(players), "deal": "random", "bots": bots_} | more)
    return r


# -- one spelling of a bot, and a table's budget -------------------------------------------------

@pytest.mark.parametrize("spec", ["ismcts:sims=２００", "ismcts:sims=٢٠٠", "ismcts:sims=1_000", "ismcts:sims=200\n",
                                  "greedy\n", "ismcts:" + ":".join(["sims=1"] * 6000), "ismcts:sims=1e3",
                                  "ismcts:sims=1:sims=1"])
def test_a_bot_spec_is_ascii_digits_in_one_spelling_else_400_naming_bot_and_spec(tmp_path, spec):
    with TestClient(create_app(folder(tmp_path)), base_url=BASE) as c:
        r = new(c, "t", {"Ben": spec})
        assert r.status_code == 400 and r.json()["code"] == "bot-spec"
        assert r.json()["data"]["player"] == "Ben" and len(r.json()["data"]["spec"]) <= 80
        assert "\n" not in r.json()["error"] and not list(tmp_path.glob("*.dn"))


def test_a_bot_is_stored_in_its_one_spelling(tmp_path):
    with TestClient(create_app(folder(tmp_path)), base_url=BASE) as c:
        r = new(c, "t", {"Ben": "ismcts:c=0.50:sims=0040"})
        assert r.status_code == 201 and r.json()["bots"] == {"Ben": "ismcts:sims=40:c=0.5"}
        assert '[Bots "-, ismcts:sims=40:c=0.5"]' in (tmp_path / "t.dn").read_text()


@pytest.mark.parametrize("spec", [f"ismcts:sims={bots.TABLE_SIMS + 1}", "ismcts:sims=100000", "ismcts:time=60"])
def test_a_search_over_the_tables_budget_is_refused_naming_the_limit(tmp_path, spec):
    with TestClient(create_app(folder(tmp_path)), base_url=BASE) as c:
        r = new(c, "t", {"Ben": spec})
        assert r.status_code == 400 and r.json()["code"] == "bot-budget"
        assert r.json()["data"] == {"player": "Ben", "spec": spec, "sims": bots.TABLE_SIMS, "time": bots.TABLE_TIME}


def test_a_hand_edited_record_over_the_budget_is_held_to_it(tmp_path):
    game = Game.new(["Anna", "Ben"], seed=3, tags={"Bots": "-, ismcts:sims=100000:time=60"})
    assert bots.bots_of(game) == {"Ben": f"ismcts:sims={bots.TABLE_SIMS}:time={bots.TABLE_TIME:g}"}


def test_at_most_max_live_games_play_bots_at_once(tmp_path, monkeypatch):
    monkeypatch.setattr(bots, "MAX_LIVE", 2)
    with TestClient(create_app(folder(tmp_path), bot_delay_ms=10_000), base_url=BASE) as c:
        assert new(c, "a", {"Ben": "greedy"}).status_code == 201
        assert new(c, "b", {"Ben": "greedy"}).status_code == 201
        r = new(c, "c", {"Ben": "greedy"})
        assert r.status_code == 429 and r.json()["code"] == "live-bot-tables" and r.json()["data"] == {"most": 2}
        assert new(c, "people", {}).status_code == 201  # a game without bots is no load
        assert c.post("/api/games/a/autoplay", json={"paused": True}).status_code == 200
        assert new(c, "c", {"Ben": "greedy"}).status_code == 201  # a paused game does not count
        r = c.post("/api/games/a/autoplay", json={"paused": False})
        assert r.status_code == 429 and r.json()["code"] == "live-bot-tables"


# -- fair shares, and nothing computed that nobody wants -------------------------------------------

def test_a_light_table_goes_first_beside_heavy_ones():
    """The workers' queue: a table that used them least lately is served next, hints before all."""
    thinker = ProcessThinker(workers=1)
    now = time.monotonic()
    thinker.used = {f"heavy{i}": (100.0, now) for i in range(10)} | {"light": (0.5, now)}
    loop = asyncio.new_event_loop()
    try:
        items = []
        for table in [f"heavy{i}" for i in range(10)] + ["light"]:
            job = Job(table, "move", "Ben", "greedy", "", "", (), 1)
            items.append(bots_item(loop, table, job, hint=False))
        hint = bots_item(loop, "heavy3", HintJob("", "", "Anna", (), 1, "heavy3"), hint=True)
        thinker.waiting = [*items, hint]
        order = []
        while thinker.waiting:
            pick = min(thinker.waiting, key=lambda i: (not i.hint, thinker._use(i.table, now)))
            thinker.waiting.remove(pick)
            order.append(pick.table + (" hint" if pick.hint else ""))
        assert order[:2] == ["heavy3 hint", "light"]
        # quick work (a hint, a search no longer than the medium strength's) has a lane of its own
        quick = {spec: bots_item(loop, "t", Job("t", "move", "Ben", spec, "", "", (), 1), hint=False).quick
                 for spec in ("greedy", bots.LEVELS["medium"], bots.LEVELS["strong"], "ismcts:sims=10:time=1")}
        assert quick == {"greedy": True, bots.LEVELS["medium"]: True, bots.LEVELS["strong"]: False,
                         "ismcts:sims=10:time=1": False} and hint.quick
    finally:
        loop.close()


def niceness(job):
    """A worker's answer: the niceness it thinks at."""
    import os
    return {"nice": os.nice(0)}


def test_a_long_search_thinks_at_a_lower_priority_than_quick_work():
    """The long searches' workers yield the cores to the quick one (a hint, a light table's bot)."""
    import os

    from drunter_notation.web.bots import HEAVY_NICE, NICE

    async def both():
        thinker = ProcessThinker(workers=1, think=niceness)
        thinker.start()
        try:
            heavy, quick = await asyncio.gather(thinker.decide(Job("h", "move", "Ben", "ismcts:sims=2000", "", "", (), 1)),
                                                thinker.decide(Job("l", "move", "Ben", "greedy", "", "", (), 1)))
            assert [s.quick for s in thinker.slots] == [False, True]  # the greedy bot took the quick lane
            return heavy["nice"], quick["nice"]
        finally:
            thinker.close()
    base = os.nice(0)
    assert run_async(both()) == (min(19, base + HEAVY_NICE), min(19, base + NICE))
    assert HEAVY_NICE > NICE


def bots_item(loop, table, job, hint):
    from drunter_notation.web.bots import Item
    return Item(table, job, loop.create_future(), hint)


def test_a_pause_stops_the_thought_at_once_and_a_restart_leaves_the_game_paused(tmp_path):
    app = create_app(folder(tmp_path), bot_delay_ms=0)
    app.thinker.think = thinks_on
    with TestClient(app, base_url=BASE) as c:
        assert new(c, "t", {"Anna": "greedy", "Ben": "greedy"}).status_code == 201  # starts by itself
        wait(lambda: any(s.item for s in app.thinker.slots), "a bot thinks")
        worker = next(s.process for s in app.thinker.slots if s.item is not None)
        assert c.post("/api/games/t/autoplay", json={"paused": True}).json()["paused"]
        wait(lambda: not app.pilot.tasks, "the bots stopped")
        assert app.thinker.busy == 0 and app.thinker.killed == 1 and not worker.is_alive()
        assert c.get("/api/games/t/autoplay").json()["paused"]
    assert '[Autoplay "paused"]' in (tmp_path / "t.dn").read_text()
    again = create_app(tmp_path, bot_delay_ms=0)
    with TestClient(again, base_url=BASE) as c:
        assert c.get("/api/games/t").json()["turn"] == 1
        wait(lambda: not again.pilot.tasks, "the restarted bots looked")
        assert again.thinker.busy == 0 and not again.thinker.slots  # nothing resumed that nobody asked for
        assert c.get("/api/games/t/autoplay").json()["paused"]
        assert c.post("/api/games/t/autoplay", json={"paused": False}).status_code == 200
        wait(lambda: c.get("/api/games/t").json()["turn"] > 2, "the bots play again when asked")


def test_a_take_back_during_a_thought_kills_it(tmp_path):
    app = create_app(folder(tmp_path), bot_delay_ms=0)
    with TestClient(app, base_url=BASE) as c:
        assert new(c, "t", {"Ben": "greedy"}, players=("Ben", "Anna")).status_code == 201
        wait(lambda: c.get("/api/games/t").json()["turn"] == 2, "Ben moved")
        anna = tokens(c, "t")["Anna"]
        s = c.get("/api/seat/t", headers=anna).json()
        move = next((m["move"] for m in s["legal"] if not m["needs_vote"]), "pass")
        app.thinker.think = thinks_on
        for slot in list(app.thinker.slots):  # the next worker holds its thought (ended on the server's loop)
            c.portal.call(app.thinker._end, slot)
        assert c.post("/api/seat/t/moves", headers=anna, json={"move": move, "turn": 2}).status_code == 200
        wait(lambda: any(s.item for s in app.thinker.slots), "Ben thinks")
        assert c.post("/api/games/t/takeback", json={"keep": 1}).status_code == 200
        wait(lambda: not app.pilot.tasks and app.thinker.busy == 0, "the thought stopped")
        assert app.thinker.killed >= 1 and c.get("/api/games/t").json()["turn"] == 2


def test_a_shutdown_ends_every_worker(tmp_path):
    app = create_app(folder(tmp_path), bot_delay_ms=0)
    app.thinker.think = thinks_on
    with TestClient(app, base_url=BASE) as c:
        assert new(c, "t", {"Anna": "greedy", "Ben": "greedy"}).status_code == 201
        wait(lambda: any(s.item for s in app.thinker.slots), "a bot thinks")
        workers = [s.process for s in app.thinker.slots]
    assert workers and not any(w.is_alive() for w in workers) and not app.thinker.slots
    assert not list(tmp_path.glob("*.journal"))


# -- a game ended and deleted ------------------------------------------------------------------------

def test_a_game_is_deleted_into_the_archive_never_lost(tmp_path):
    with TestClient(create_app(folder(tmp_path)), base_url=BASE) as c:
        assert c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"]}).status_code == 201
        assert c.post("/api/games/t/moves", json={"move": "pass", "turn": 1}).status_code == 200
        text = c.get("/api/games/t").json()["dn"]
        r = c.request("DELETE", "/api/games/t", json={})
        assert r.status_code == 200 and r.json() == {"deleted": "t", "archived": "archive/t.dn"}
        assert c.get("/api/games/t").status_code == 404 and not (tmp_path / "t.dn").exists()
        assert (tmp_path / "archive" / "t.dn").read_text() == text
        assert not list(tmp_path.glob("t.*"))
        assert c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"]}).status_code == 201
        assert c.request("DELETE", "/api/games/t", json={}).json()["archived"] == "archive/t-2.dn"
        assert c.request("DELETE", "/api/games/t", json={}).status_code == 404
        assert c.request("DELETE", "/api/games/t", content=b"{}").status_code == 415  # not JSON: a foreign form
        assert [g["name"] for g in c.get("/api/games").json()["games"]] == []


# -- hints -----------------------------------------------------------------------------------------

def test_the_same_hint_is_thought_out_once_and_counted_once(tmp_path):
    with TestClient(create_app(folder(tmp_path), bot_workers=1), base_url=BASE) as c:
        assert c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "hints": True, "board": "tiny.toml",
                                          "deal": "random"}).status_code == 201
        anna = tokens(c, "t")["Anna"]
        answers = [c.get("/api/seat/t/hint", headers=anna).json() for _ in range(5)]
        assert all(a == answers[0] for a in answers) and answers[0]["moves"]
        assert c.get("/api/games/t").json()["hints"] == {"Anna": 1, "Ben": 0}
        assert '[Hints "Anna 1, Ben 0"]' in (tmp_path / "t.dn").read_text()


def test_a_hint_the_record_could_not_count_is_not_shown_uncounted_later(tmp_path, monkeypatch):
    from drunter_notation.table import core

    app = create_app(folder(tmp_path), bot_workers=1)
    with TestClient(app, base_url=BASE) as c:
        assert c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "hints": True, "board": "tiny.toml",
                                          "deal": "random"}).status_code == 201
        anna = tokens(c, "t")["Anna"]
        counted = core.count_hint

        def disk_full(*args):
            raise bots.Refused(503, "the disk is full")
        monkeypatch.setattr(core, "count_hint", disk_full)
        assert c.get("/api/seat/t/hint", headers=anna).status_code == 503
        monkeypatch.setattr(core, "count_hint", counted)
        assert c.get("/api/seat/t/hint", headers=anna).json()["moves"]
        assert c.get("/api/games/t").json()["hints"] == {"Anna": 1, "Ben": 0}


def test_one_hint_at_a_time_per_seat(tmp_path):
    app = create_app(folder(tmp_path))
    with TestClient(app, base_url=BASE) as c:
        assert c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "hints": True,
                                          "deal": "random"}).status_code == 201
        anna = tokens(c, "t")["Anna"]
        app.core.hinting.add(("t", "Anna"))  # a hint of this seat is being thought out
        r = c.get("/api/seat/t/hint", headers=anna)
        assert r.status_code == 409 and r.json()["code"] == "hint-busy"
        app.core.hinting.clear()
        assert c.get("/api/seat/t/hint", headers=anna).status_code == 200


def test_a_question_that_ranks_after_a_full_queue_is_refused_at_once_naming_the_limit(tmp_path):
    """The coach's queue is bounded (table/coach.py): a question ranking after every waiting one is
    429 ``coach-busy`` at once, naming the limit, counted nowhere; asked again when there is room, answered."""
    import asyncio

    from drunter_notation.table.coach import Question

    app = create_app(folder(tmp_path))
    with TestClient(app, base_url=BASE) as c:
        assert c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "hints": True,
                                          "deal": "random"}).status_code == 201
        anna = tokens(c, "t")["Anna"]
        coach = app.core.coach
        coach.slots, coach.waiting_most = 0, 2  # nothing thought out; two questions of tables helped long ago wait
        coach.waiting += [Question(f"old-{i}", -1 - i, asyncio.Event()) for i in range(2)]
        r = c.get("/api/seat/t/hint", headers=anna)
        assert r.status_code == 429 and r.json()["code"] == "coach-busy" and r.json()["data"] == {"most": 2}
        assert "2" in r.json()["error"] and c.get("/api/games/t").json()["hints"] == {"Anna": 0, "Ben": 0}
        coach.waiting.clear()
        coach.slots = 2
        assert c.get("/api/seat/t/hint", headers=anna).status_code == 200
        assert c.get("/api/games/t").json()["hints"] == {"Anna": 1, "Ben": 0}
        assert coach.thinking == 0


def test_a_folder_holds_a_bounded_number_of_games(tmp_path, monkeypatch):
    """Games are free to make, and each is read into memory when the games are listed: beyond the most a
    table keeps, a new game is 409 ``too-many-games`` naming the limit; deleting one makes room."""
    from drunter_notation.table import games

    monkeypatch.setattr(games, "MAX_GAMES", 2)
    with TestClient(create_app(folder(tmp_path)), base_url=BASE) as c:
        for name in ("a", "b"):
            assert c.post("/api/games", json={"name": name, "players": ["Anna", "Ben"]}).status_code == 201
        r = c.post("/api/games", json={"name": "c", "players": ["Anna", "Ben"]})
        assert r.status_code == 409 and r.json()["code"] == "too-many-games" and r.json()["data"] == {"most": 2}
        assert "2" in r.json()["error"] and not (tmp_path / "c.dn").exists()
        assert c.request("DELETE", "/api/games/a", json={}).status_code == 200
        assert c.post("/api/games", json={"name": "c", "players": ["Anna", "Ben"]}).status_code == 201


# -- clean stops -----------------------------------------------------------------------------------

@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM", "SIGINT SIGINT"])
def test_ctrl_c_and_sigterm_end_with_one_line_and_leave_no_journal(tmp_path, how):
    """As at a terminal: the signal goes to the server's whole process group (its workers
    too), after bots played and while a hint is being thought out; Ctrl+C pressed twice too."""
    import json
    import os
    import select
    import signal
    import subprocess
    import sys
    import threading
    import urllib.request

    from conftest import RUN_CLI

    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-c", RUN_CLI, "play", str(folder(tmp_path)), "--port", "0",
                             "--no-browser"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    try:
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        url = proc.stdout.readline().strip().rsplit(" ", 1)[-1] if ready else ""
        assert url.startswith("http://127.0.0.1:"), url

        def call(method, path, body=None, headers=None):
            data = None if body is None else json.dumps(body).encode()
            req = urllib.request.Request(url.rstrip("/") + path, data, method=method,
                                         headers={"Content-Type": "application/json"} | (headers or {}))
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read())
        # the default board: its hint is long enough to be under way when the signal comes
        call("POST", "/api/games", {"name": "t", "players": ["Ben", "Anna"], "deal": "random", "hints": True,
                                    "bots": {"Ben": "greedy"}})
        wait(lambda: call("GET", "/api/games/t")["turn"] == 2, "Ben played")
        anna = {"X-Drunter-Seat": call("GET", "/api/games/t/seats")["seats"][1]["links"][0].split("#")[1]}
        asked = threading.Thread(target=lambda: contextlib_suppress(call, "GET", "/api/seat/t/hint", None, anna))
        asked.start()
        time.sleep(0.3)  # the hint reaches the coach
        for each in how.split():
            os.killpg(proc.pid, getattr(signal, each))
            time.sleep(0.05)  # two signals at once would be one
        assert proc.wait(30) is not None
        asked.join(60)
        err = proc.stderr.read()
        lines = [line for line in err.splitlines() if line.strip()]
        assert "Traceback" not in err and "Aborted" not in err and "Error" not in err, err
        assert len(lines) == 2 and "stopped" in lines[-1], err  # "Ctrl+C stops it", then the one line
        assert not list(tmp_path.glob("*.journal")) and "Ben" in (tmp_path / "t.dn").read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()


def contextlib_suppress(call, *args):
    """A request the server may not answer, as it stops."""
    try:
        call(*args)
    except OSError:
        pass


# -- a connection's budget: a head and a body that come a byte now and then ------------------

def test_a_request_head_sent_too_slowly_loses_its_connection_and_others_are_served(monkeypatch):
    """slowloris: a head that is not whole in time is closed (its file descriptor freed); a whole request on
    another connection is answered as ever."""
    import socket
    import threading

    import uvicorn
    from starlette.responses import PlainTextResponse

    from drunter_notation.web.connection import Connection

    monkeypatch.setattr(Connection, "head_seconds", 0.3)

    async def app(scope, receive, send):
        if scope["type"] == "http":
            await PlainTextResponse("ok")(scope, receive, send)

    sock = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, http=Connection, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        wait(lambda: server.started, "the server to start")
        slow = socket.create_connection(sock.getsockname(), timeout=10)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the blank line that ends the head
        for _ in range(4):  # a byte now and then keeps no deadline away
            slow.sendall(b"X")
            time.sleep(0.05)
        assert slow.recv(100) == b""  # closed by the server, without an answer
        fine = socket.create_connection(sock.getsockname(), timeout=10)
        fine.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert fine.recv(1000).startswith(b"HTTP/1.1 200")
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_body_sent_too_slowly_is_408(monkeypatch):
    from starlette.requests import Request

    from drunter_notation.table.store import Refused
    from drunter_notation.web import endpoint

    monkeypatch.setattr(endpoint, "BODY_SECONDS", 0.2)

    async def receive():  # the first byte, then nothing more
        if not hasattr(receive, "sent"):
            receive.sent = True
            return {"type": "http.request", "body": b"{", "more_body": True}
        await asyncio.sleep(60)

    async def read():
        with pytest.raises(Refused) as refused:
            await endpoint.read_body(Request({"type": "http", "method": "POST", "headers": []}, receive))
        return refused.value.status
    assert run_async(read()) == 408
