"""drunter play against the web and against its own folder: a foreign page can
neither reach in by DNS rebinding nor by a cross-site request; links out of the
games folder are neither read nor written; oversized and odd files are listed,
not read; every malformed body is a 4xx; a failed write leaves nothing behind;
the query string (where tokens travel) never reaches a log."""
from __future__ import annotations

import errno
import http.client
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from conftest import ROOT, RUN_CLI, examples
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from drunter_notation import files
from drunter_notation.files import NotRegularFile, write_atomic

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from drunter_notation.web import store as store_module
from drunter_notation.web.app import create_app
from drunter_notation.web.guard import split_host

BASE = "http://127.0.0.1:8000"
NEW = {"name": "t", "players": ["Anna", "Ben"], "deal": "random"}
EVIL = "http://evil.example"


@pytest.fixture
def folder(tmp_path) -> Path:
    games = tmp_path / "games"
    games.mkdir()
    return games


@pytest.fixture
def client(folder) -> TestClient:
    return TestClient(create_app(folder, host="127.0.0.1", port=8000), base_url=BASE)


def one_line(r) -> str:
    error = r.json()["error"]
    assert isinstance(error, str) and error.replace("\u00a0", " ").isprintable(), error
    return error


# -- Host, Origin, Content-Type -------------------------------------------------------

@pytest.mark.parametrize("host, ok", [
    ("127.0.0.1:8000", True), ("localhost:8000", True), ("LOCALHOST:8000", True), ("[::1]:8000", True),
    ("127.0.0.7:8000", True),  # any loopback address
    ("rebind.example:8000", False), ("rebind.example", False), ("127.0.0.1:8001", False),
    ("127.0.0.1", False),  # port 80 is not where it listens
    ("192.168.1.20:8000", False),  # an address it does not listen on
    ("", False), ("127.0.0.1:80x", False), ("[::1:8000", False), ("localhost.:8000", False),
])
def test_only_this_servers_host_is_answered(client, host, ok):
    r = client.get("/api/games", headers={"Host": host})
    assert (r.status_code == 200) is ok
    if not ok:
        assert r.status_code == 400 and "not this server" in one_line(r)
    # a refusal carries the headers every answer carries
    assert "default-src 'self'" in r.headers["content-security-policy"] and r.headers["cache-control"] == "no-store"


def test_listening_on_all_addresses_answers_every_ip_but_no_name(folder):
    client = TestClient(create_app(folder, host="0.0.0.0", port=8000), base_url=BASE)
    assert client.get("/api/games", headers={"Host": "192.168.1.20:8000"}).status_code == 200
    assert client.get("/api/games", headers={"Host": "rebind.example:8000"}).status_code == 400
    named = TestClient(create_app(folder, host="laptop.local", port=8000), base_url="http://laptop.local:8000")
    assert named.get("/api/games").status_code == 200  # a name given to --host is its own


def test_split_host():
    assert split_host("Example.org:80") == ("example.org", 80)
    assert split_host("[::1]") == ("[::1]", None)
    assert split_host("a:") is None and split_host(":80") is None and split_host("[::1]x") is None


def test_a_foreign_origin_is_refused_and_none_is_fine(client, folder):
    r = client.post("/api/games", json=NEW, headers={"Origin": EVIL})
    assert r.status_code == 403 and "evil.example" in one_line(r)
    assert client.post("/api/games", json=NEW | {"name": "n"}, headers={"Origin": "null"}).status_code == 403
    assert client.get("/api/games", headers={"Origin": EVIL}).status_code == 403  # reads too
    assert not list(folder.iterdir())
    assert client.post("/api/games", json=NEW, headers={"Origin": BASE}).status_code == 201  # the page's own
    assert client.post("/api/games", json=NEW | {"name": "u"}).status_code == 201  # a script: no Origin


def test_a_websocket_from_a_foreign_page_is_closed_before_the_handshake(client):
    from starlette.websockets import WebSocketDisconnect
    for headers in ({"Origin": EVIL}, {"Host": "rebind.example:8000"}):
        with pytest.raises(WebSocketDisconnect) as refused:
            with client.websocket_connect("/api/games/t/events", headers=headers):
                pass
        assert refused.value.code == 1008


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/jsonx"])
def test_changes_need_json(client, folder, content_type):
    assert client.post("/api/games", json=NEW).status_code == 201
    headers = {} if content_type is None else {"Content-Type": content_type}
    before = (folder / "t.dn").read_bytes()
    for path, body in (("/api/games", NEW | {"name": "x"}), ("/api/games/t/moves", {"move": "pass"}),
                       ("/api/games/t/undo", {})):
        r = client.post(path, content=json.dumps(body), headers=headers)
        assert r.status_code == 415 and "application/json" in one_line(r)
    assert sorted(p.name for p in folder.iterdir()) == [".t.salt", "t.cards.json", "t.dn"]
    assert (folder / "t.dn").read_bytes() == before
    ok = client.post("/api/games", content=json.dumps(NEW | {"name": "y"}),
                     headers={"Content-Type": "application/json; charset=utf-8"})
    assert ok.status_code == 201


def raw(url: str, method: str, path: str, headers: dict, body: bytes | None = None) -> tuple[int, dict]:
    """One request with exactly these headers (Host included), as a foreign page's browser would send it."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for k, v in headers.items():
            conn.putheader(k, v)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        r = conn.getresponse()
        data = r.read()
        return r.status, json.loads(data) if r.getheader("content-type") == "application/json" else {}
    finally:
        conn.close()


@pytest.mark.slow
def test_a_real_server_refuses_rebinding_and_cross_site_requests(folder, play_server):
    with play_server(folder) as (_, url, _token):
        own = urlsplit(url).netloc
        body = json.dumps(NEW).encode()
        assert raw(url, "GET", "/api/games", {"Host": f"rebind.example:{urlsplit(url).port}"})[0] == 400
        assert raw(url, "GET", "/", {"Host": "rebind.example"})[0] == 400
        # the simple cross-site requests a foreign page can make without a preflight
        for headers in ({"Content-Type": "text/plain", "Origin": EVIL},
                        {"Content-Type": "application/x-www-form-urlencoded", "Origin": EVIL},
                        {"Content-Type": "text/plain"}):
            status, answer = raw(url, "POST", "/api/games", {"Host": own} | headers, body)
            assert status in (403, 415) and "\n" not in answer["error"]
        assert raw(url, "POST", "/api/games", {"Host": own, "Origin": EVIL, "Content-Type": "application/json"},
                   body)[0] == 403
        assert not list(folder.glob("*.dn"))
        status, _ = raw(url, "POST", "/api/games", {"Host": own, "Origin": f"http://{own}",
                                                    "Content-Type": "application/json"}, body)
        assert status == 201
        assert raw(url, "GET", "/api/games/t", {"Host": f"localhost:{urlsplit(url).port}"})[0] == 200


# -- what the query string carries never reaches a log -----------------------------------

@pytest.mark.slow
def test_the_query_string_never_reaches_a_log(folder, play_server):
    secret = "Zq9secretTokenValue"
    with play_server(folder) as (proc, url, _):
        own = urlsplit(url).netloc
        for method, path, headers in (("GET", f"/?token={secret}", {}), ("GET", f"/api/games?token={secret}", {}),
                                      ("GET", f"/api/nothing?token={secret}", {}),
                                      ("POST", f"/api/games?token={secret}", {"Content-Type": "text/plain"}),
                                      ("GET", f"/api/games?token={secret}", {"Origin": EVIL})):
            raw(url, method, path, {"Host": own} | headers, b"" if method == "POST" else None)
        with socket.create_connection((urlsplit(url).hostname, urlsplit(url).port), 10) as s:
            s.sendall(f"GET /?token={secret} HTTP/1.1\r\nHost: {own}\r\nBad Header\r\n\r\n".encode())
            s.recv(4096)
        proc.terminate()
        out, err = proc.communicate(timeout=20)
    assert secret not in out + err


# -- the games folder ----------------------------------------------------------------

def test_a_link_out_of_the_folder_is_neither_read_nor_written(client, folder, tmp_path):
    outside = tmp_path / "elsewhere.dn"
    outside.write_text('[Players "Anna, Ben"]\n1. Anna S1 a2\n', encoding="utf-8")
    before = outside.read_bytes()
    (folder / "away.dn").symlink_to(outside)
    (folder / "gone.dn").symlink_to(tmp_path / "missing.dn")  # dangling, to outside
    listed = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert "outside the games folder" in listed["away"]["error"] and "Anna" not in listed["away"]["error"]
    assert "outside the games folder" in listed["gone"]["error"]
    for method, path, body in (("GET", "/api/games/away", None), ("GET", "/api/games/away/board.svg", None),
                               ("POST", "/api/games/away/moves", {"move": "R2 f5-f4"}),
                               ("POST", "/api/games/away/undo", {}), ("GET", "/api/games/away/rev", None)):
        r = client.request(method, path, json=body)
        assert r.status_code == 403 and "outside the games folder" in one_line(r)
    r = client.post("/api/games", json=NEW | {"name": "gone"})
    assert r.status_code == 409  # the dangling link's name is taken: nothing is written through it
    assert outside.read_bytes() == before and not (tmp_path / "missing.dn").exists()
    # a board file is no different: a link out is neither offered nor played on
    board = tmp_path / "elsewhere.toml"
    board.write_bytes((ROOT / "replays" / "boards" / "tiny.toml").read_bytes())
    (folder / "linked.toml").symlink_to(board)
    assert "linked.toml" not in client.get("/api/options").json()["boards"]
    assert client.post("/api/games", json=NEW | {"name": "lb", "board": "linked.toml"}).status_code == 400


def test_a_record_s_board_outside_the_folder_is_never_read(client, folder, tmp_path):
    """A record (placed by hand, or repaired through the page) naming a board file by a path out of the
    games folder is refused without reading it; a board file of the folder is played."""
    secret = tmp_path / "secret.toml"
    secret.write_text("TOPSECRET = 1\n", encoding="utf-8")
    (folder / "tiny.toml").write_bytes((ROOT / "replays" / "boards" / "tiny.toml").read_bytes())
    for ref in ("../secret.toml", str(secret), "../games/../secret.toml"):
        (folder / "b.dn").write_text(f'[Players "Anna, Ben"]\n[Board "{ref}"]\n', encoding="utf-8")
        listed = {g["name"]: g for g in client.get("/api/games").json()["games"]}
        assert "H003" in listed["b"]["error"] and "TOPSECRET" not in listed["b"]["error"], ref
        r = client.get("/api/games/b/source").json()
        assert not r["valid"] and "TOPSECRET" not in r["verdict"] and "not in the games folder" in r["verdict"]
    (folder / "b.dn").write_text('[Players "Anna, Ben"]\n[Board "tiny.toml"]\n', encoding="utf-8")
    assert client.get("/api/games/b").status_code == 200


def test_half_a_utf16_pair_in_a_body_is_refused_and_changes_nothing(client):
    """JSON may spell a lone surrogate ("\\ud800"), which no record, journal or answer can hold: 400 at the door."""
    assert client.post("/api/games", json=NEW).status_code == 201
    before = client.get("/api/games/t").json()
    legal = before["legal"][0]["move"]
    for path, body in (("/api/games/t/moves", json.dumps({"move": legal})[:-1] + ', "jein": {"Anna": "\\ud800"}}'),
                       ("/api/games/t/adjudicate", '{"move": "\\udfff"}'),
                       ("/api/games", '{"name": "u", "players": ["Anna", "Ben"], "rules": "\\ud83d"}'),
                       ("/api/games", '{"name": "u", "players": ["Anna", "Ben"], "deal": {"hands": {"A": {"\\ud800": 1}}}}')):
        r = client.post(path, content=body, headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and "UTF-16" in one_line(r), (path, r.text)
    assert client.get("/api/games/t").json() == before
    assert client.post("/api/games/t/moves", json={"move": legal}).status_code == 200


def test_a_link_inside_the_folder_is_followed(client, folder):
    assert client.post("/api/games", json=NEW).status_code == 201
    (folder / "alias.dn").symlink_to("t.dn")
    assert client.get("/api/games/alias").json()["players"][1]["name"] == "Ben"


def test_files_over_the_cap_are_listed_as_too_large_and_not_read(client, folder):
    big = folder / "huge.dn"
    with open(big, "wb") as f:
        f.truncate(files.MAX_RECORD_BYTES + 1)  # sparse: no disk used
    listed = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert "I001" in listed["huge"]["error"] and "too large" in listed["huge"]["error"]
    r = client.get("/api/games/huge")
    assert r.status_code == 422 and r.json()["diagnostics"][0]["code"] == "I001"
    assert client.post("/api/games/huge/moves", json={"move": "pass"}).status_code == 422
    assert big.stat().st_size == files.MAX_RECORD_BYTES + 1


def test_a_fifo_or_folder_is_listed_and_never_replaced(client, folder):
    os.mkfifo(folder / "pipe.dn")
    (folder / "dir.dn").mkdir()
    listed = {g["name"]: g["error"] for g in client.get("/api/games").json()["games"]}
    assert "FIFO" in listed["pipe"] and "directory" in listed["dir"]
    for name in ("pipe", "dir"):
        assert client.post("/api/games", json=NEW | {"name": name}).status_code == 409
        assert client.post(f"/api/games/{name}/moves", json={"move": "pass"}).status_code == 422
    assert (folder / "pipe.dn").is_fifo() and (folder / "dir.dn").is_dir()


def test_write_atomic_never_replaces_what_is_not_a_regular_file(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "dir").mkdir()
    (tmp_path / "link").symlink_to("pipe")
    for name in ("pipe", "dir", "link"):
        with pytest.raises(NotRegularFile):
            write_atomic(tmp_path / name, "text")
    assert (tmp_path / "pipe").is_fifo() and (tmp_path / "dir").is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir", "link", "pipe"]  # no temp file left
    write_atomic(tmp_path / "file", "text")
    assert (tmp_path / "file").read_text() == "text"


# -- writes that fail -----------------------------------------------------------------

@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_a_failed_create_answers_503_and_leaves_no_name(client, folder, monkeypatch, code):
    def failing(path, text, **kw):
        raise OSError(code, os.strerror(code))
    monkeypatch.setattr(store_module, "write_atomic", failing)
    r = client.post("/api/games", json=NEW)
    reason = {errno.ENOSPC: "no space is left on the device", errno.EROFS: "the file system is read-only",
              errno.EACCES: "permission denied"}[code]  # the system's reason in the product's words
    assert r.status_code == 503 and reason in one_line(r) and "no game was created" in one_line(r)
    assert client.get("/api/games/t").status_code == 404 and client.get("/api/games").json()["games"] == []
    monkeypatch.undo()
    assert client.post("/api/games", json=NEW).status_code == 201  # the name is free


def test_a_full_disk_after_the_cards_leaves_neither_file(client, folder, monkeypatch):
    real = store_module.write_atomic

    def cards_only(path, text, **kw):
        if str(path).endswith(".dn"):
            raise OSError(errno.ENOSPC, "No space left on device")
        real(path, text, **kw)
    monkeypatch.setattr(store_module, "write_atomic", cards_only)
    assert client.post("/api/games", json=NEW).status_code == 503
    assert list(folder.iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_read_only_folder_answers_503_and_a_move_changes_nothing(client, folder):
    assert client.post("/api/games", json=NEW).status_code == 201
    state = client.get("/api/games/t").json()
    folder.chmod(0o555)
    try:
        r = client.post("/api/games", json=NEW | {"name": "u"})
        assert r.status_code == 503 and "permission denied" in one_line(r)
        move = state["legal"][0]
        body = {"move": move["move"], "vote": {p: ["?"] for p in state["vote_order"]} if move["needs_vote"] else None}
        r = client.post("/api/games/t/moves", json=body)
        assert r.status_code == 503 and "nothing was changed" in one_line(r)
        assert client.get("/api/games/t").json()["turn"] == 1
    finally:
        folder.chmod(0o755)
    assert client.post("/api/games", json=NEW | {"name": "u"}).status_code == 201


# -- bodies -----------------------------------------------------------------------------

@pytest.mark.parametrize("deal", [{"hands": {}}, {"cards": {"Anna": None}}, {"hands": {"Anna": None}},
                                  {"hands": {"Anna": [], "Ben": []}}, {"cards": {"Anna": [{}], "Ben": [[]]}},
                                  {"hands": "W3"}, {"cards": ["museum"]}, 7, "dealt"])
def test_malformed_deals_are_4xx(client, folder, deal):
    r = client.post("/api/games", json=NEW | {"deal": deal})
    assert 400 <= r.status_code < 500
    one_line(r)
    assert list(folder.iterdir()) == []


JSON = st.recursive(st.none() | st.booleans() | st.integers(-2, 10 ** 4) | st.text(max_size=12),
                    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids, max_size=4),
                    max_leaves=10)
PLAYER = st.sampled_from(["Anna", "Ben", "Cleo", "", " Anna", "x" * 50])
HAND = st.one_of(st.sampled_from(["W3 W2x2 S1", "W3x99", "Q9", ""]),
                 st.dictionaries(st.sampled_from(["W3", "S2", "R1", "X1", ""]), JSON, max_size=3), JSON)
CARD = st.one_of(st.sampled_from(["museum", "tavern", "one-each", ""]),
                 st.lists(st.sampled_from(["museum", "one-each", "all-threes"]), max_size=3), JSON)
DEAL = st.one_of(st.just("random"), st.fixed_dictionaries({}, optional={
    "hands": st.one_of(st.dictionaries(PLAYER, HAND, max_size=4), JSON),
    "cards": st.one_of(st.dictionaries(PLAYER, CARD, max_size=4), JSON)}), JSON)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(players=st.sampled_from([["Anna", "Ben"], ["Anna", "Ben", "Cleo"]]), variant=st.sampled_from(["base", "expert"]),
       deal=DEAL, junk=st.dictionaries(st.sampled_from(["name", "players", "board", "rules", "variant"]), JSON,
                                       max_size=1))
@example(players=["Anna", "Ben"], variant="base", deal={"hands": {"\n": None}}, junk={})
@example(players=["Anna", "Ben"], variant="base", deal={"hands": {"Anna\u202e": "Q9"}}, junk={})
def test_no_new_game_body_makes_a_server_error(folder, players, variant, deal, junk):
    """The new-game body's schema, fuzzed (a valid body with a random deal, and now and
    then one other field replaced by any JSON): a 201 or a 4xx with one line, never a 500."""
    for p in folder.iterdir():
        p.unlink()
    client = TestClient(create_app(folder), base_url=BASE)
    body = {"name": "g", "players": players, "variant": variant, "deal": deal} | junk
    r = client.post("/api/games", json=body)
    assert r.status_code == 201 or 400 <= r.status_code < 500, (body, r.text)
    if r.status_code != 201:
        one_line(r)


# -- the command line -----------------------------------------------------------------

def test_a_port_in_use_is_one_line_and_makes_no_folder(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        out = subprocess.run([sys.executable, "-c", RUN_CLI, "play", str(tmp_path / "new"), "--port", str(port),
                              "--no-browser"], capture_output=True, text=True, timeout=60,
                             env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert out.returncode == 1
    assert out.stderr.strip() == f"Error: cannot listen on 127.0.0.1:{port}: the address is in use"
    assert not (tmp_path / "new").exists()


def test_the_games_limit_holds_for_requests_sent_at_once(folder, monkeypatch):
    """Counted and kept as one step: twenty games made at once where three are allowed make three."""
    import threading

    from drunter_notation.table import games
    from drunter_notation.table.store import Refused

    monkeypatch.setattr(games, "MAX_GAMES", 3)
    store = store_module.Store(folder)
    made, refused, start = [], [], threading.Barrier(20)

    def make(i):
        start.wait()
        try:
            made.append(games.create_game(store, None, {"name": f"g{i}", "players": ["Anna", "Ben"]}))
        except Refused as e:
            refused.append(e.code)
    threads = [threading.Thread(target=make, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(made) == 3 and refused == ["too-many-games"] * 17 and len(store.names()) == 3
