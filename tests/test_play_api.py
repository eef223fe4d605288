"""The JSON API of drunter play (drunter_notation/web): every input judged by the
engine, every refusal a 4xx with one line, the file on disk always a record
validate accepts; a server killed with SIGKILL keeps every acknowledged move."""
from __future__ import annotations

import json
import os
import shutil
import signal
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drunter_notation import Game
from drunter_notation.load import judge
from drunter_notation.notation.parser import parse_text

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from drunter_notation.web.app import create_app
from drunter_notation.web.store import Store

ROOT = Path(__file__).resolve().parent.parent
HANDS = {"Anna": "W3 W2x2 W1x2 S3 S2x2 S1x2", "Ben": "W3 W2x2 W1x2 R3 R2x2 R1x2"}
NEW = {"name": "t", "players": ["Anna", "Ben"], "board": "tiny.toml",
       "deal": {"hands": HANDS, "cards": {"Anna": "townhall", "Ben": "tavern"}}}
# replays/tiny-hand-made.dn as API calls
MOVES = [{"move": "S1 a2"}, {"move": "R2 f5-f4"},
         {"move": "S2 b2-c2", "vote": {"Anna": ["JA"], "Ben": ["NEE"]}},
         {"move": "W3 e1-c1"}, {"move": "S2 b2-c2", "vote": {"Ben": "?", "Anna": "JAA"}},
         {"move": "R3 e4-c4", "vote": {"Ben": ["JAAA"], "Anna": ["NEEE"]}},
         {"move": "W1 b1"}, {"move": "R1 b4"}, {"move": "W3 a5-a3"}, {"move": "R1 b3"}, {"move": "S1 c3"},
         {"move": "pass"}, {"move": "S2 d3-e3"}]


@pytest.fixture
def folder(tmp_path) -> Path:
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "tiny.toml")
    return tmp_path


BASE = "http://127.0.0.1:8000"  # the Host a browser sends to the server (any other name is refused)


@pytest.fixture
def client(folder) -> TestClient:
    return TestClient(create_app(folder), base_url=BASE)


def verdict(path: Path):
    """What validate says of the file: (valid, codes of its findings, complete)."""
    t = judge(parse_text(path.read_text(encoding="utf-8"), str(path)), str(path))
    return t.valid, sorted({d.code for d in t.diagnostics}), t.scores is not None


def test_a_whole_game_through_the_api(client, folder):
    r = client.post("/api/games", json=NEW)
    assert r.status_code == 201
    game = r.json()
    assert game["to_move"] == "Anna" and game["turn"] == 1 and not game["over"]
    assert {"move": "S1 a2", "needs_vote": False, "tile": "S1", "squares": ["a2"]} in game["legal"]
    assert verdict(folder / "t.dn") == (True, ["W002"], False)  # a partial record: the usual warning only
    for i, body in enumerate(MOVES, 1):
        r = client.post("/api/games/t/moves", json=body | {"turn": i})
        assert r.status_code == 200, r.json()
        state = r.json()
        valid, codes, complete = verdict(folder / "t.dn")
        assert valid and set(codes) <= {"W002"}
        assert state["turn"] == i + 1
        if i == 11:
            assert state["legal"] == [] and state["can_pass"]  # Legezwang: Ben cannot place
        elif i < 11:
            assert not state["can_pass"]
    assert state["over"] and complete
    assert state["result"]["scores"] == {"Anna": 0, "Ben": 0} and state["result"]["winners"] == ["Ben"]
    assert [r["rule"] for r in state["result"]["rules"]] == ["E1", "E2", "E3"]
    text = (folder / "t.dn").read_text(encoding="utf-8")
    assert "3. Anna S2 b2-c2 vote { Anna: JA, Ben: NEE } -> rejected 1:2" in text
    assert "reveal Anna: townhall, Ben: tavern" in text
    assert Game.from_dn(text, str(folder / "t.dn")).result().winners == ("Ben",)


def test_an_illegal_move_is_answered_and_not_recorded(client, folder):
    client.post("/api/games", json=NEW)
    before = (folder / "t.dn").read_text(encoding="utf-8")
    r = client.post("/api/games/t/moves", json={"move": "S1 c4", "turn": 1})
    assert r.status_code == 422
    body = r.json()
    assert body["error"].startswith("t.dn: error[A001]: ") and "\n" not in body["error"]
    assert body["diagnostics"] == [{"severity": "error", "code": "A001", "line": 0, "column": 0, "turn": 1,
                                    "message": body["diagnostics"][0]["message"], "rule": "A2",
                                    "citation": "HiG 1991, Spielregel A.2"}]
    assert len(body["adjudication"]["verdicts"]) == 4  # the same answer as "Is this legal?"
    assert (folder / "t.dn").read_text(encoding="utf-8") == before
    assert client.get("/api/games/t").json()["turn"] == 1


def test_is_this_legal_changes_nothing(client, folder):
    client.post("/api/games", json=NEW)
    for body in MOVES[:2]:
        client.post("/api/games/t/moves", json=body)
    before = (folder / "t.dn").read_text(encoding="utf-8")
    r = client.post("/api/games/t/adjudicate", json={"move": "S2 b2-c2", "vote": {"Anna": ["JA"], "Ben": ["NE"]}})
    assert r.status_code == 200
    a = r.json()
    assert a["move"] == "3. Anna S2 b2-c2 vote { Anna: JA, Ben: NE }"
    status = {v["ruleset"]: v["status"] for v in a["verdicts"]}
    assert status["hig-1991"] == "LEGAL"
    assert "disagree" in a["agreement"]  # a 1:1 tie stands under hig-1991, not under webley-en
    assert any(rule["rule"] == "B5" and rule["citation"] for rule in a["verdicts"][0]["rules"])
    assert (folder / "t.dn").read_text(encoding="utf-8") == before


def test_tally_as_the_vote_fills(client):
    client.post("/api/games", json=NEW)
    for body in MOVES[:2]:
        client.post("/api/games/t/moves", json=body)
    r = client.post("/api/games/t/tally", json={"vote": {"Anna": ["JAA"]}}).json()
    assert (r["yes"], r["no"], r["accepted"]) == (2, 0, True)
    r = client.post("/api/games/t/tally", json={"vote": {"Anna": ["JA"], "Ben": ["JEIN"]},
                                                "jein": {"Ben": "no"}}).json()
    assert (r["yes"], r["no"], r["rule"], r["option"]) == (1, 2, "B5", "yes-at-least-no")
    assert r["lines"] == ["Anna: JA = 1 yes", "Ben: JEIN=no = 2 no"]


def test_a_stale_turn_gets_409_and_one_move_wins(client):
    client.post("/api/games", json=NEW)
    first = client.post("/api/games/t/moves", json={"move": "S1 a2", "turn": 1})
    second = client.post("/api/games/t/moves", json={"move": "S1 b1", "turn": 1})
    assert first.status_code == 200 and second.status_code == 409
    assert "turn 1" in second.json()["error"] and "turn 2" in second.json()["error"]
    assert client.post("/api/games/t/undo", json={"turn": 1}).status_code == 409
    r = client.post("/api/games/t/undo", json={"turn": 2})
    assert r.status_code == 200 and r.json()["turn"] == 1 and r.json()["events"] == []
    assert client.post("/api/games/t/undo", json={}).status_code == 409  # nothing to undo


def test_reveal_at_the_end_when_the_cards_were_not_dealt_by_the_app(client, folder):
    client.post("/api/games", json=NEW | {"deal": {"hands": HANDS}})
    for body in MOVES:
        client.post("/api/games/t/moves", json=body)
    state = client.get("/api/games/t").json()
    assert state["over"] and state["result"] is None and not state["cards_known"]
    assert verdict(folder / "t.dn")[:2] == (True, ["W002"])
    bad = client.post("/api/games/t/reveal", json={"cards": {"Anna": "museum", "Ben": "museum"}})
    assert bad.status_code == 422 and "E001" in bad.json()["error"]
    r = client.post("/api/games/t/reveal", json={"cards": {"Anna": "townhall", "Ben": "tavern"}})
    assert r.status_code == 200 and r.json()["result"]["winners"] == ["Ben"]
    assert verdict(folder / "t.dn") == (True, [], True)


def test_a_game_is_reloaded_from_its_file(folder):
    TestClient(create_app(folder), base_url=BASE).post("/api/games", json=NEW)
    client = TestClient(create_app(folder), base_url=BASE)  # a new server: the cards come from t.cards.json
    for body in MOVES:
        assert client.post("/api/games/t/moves", json=body).status_code == 200
    assert client.get("/api/games/t").json()["result"]["scores"] == {"Anna": 0, "Ben": 0}
    shutil.copy(ROOT / "replays" / "tiny-hand-made.dn", folder / "club.dn")  # a record made elsewhere
    (folder / "boards").mkdir()
    shutil.copy(folder / "tiny.toml", folder / "boards" / "tiny.toml")
    listed = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert listed["club"]["over"] and listed["t"]["over"]


def test_expert_choice(client):
    r = client.post("/api/games", json={"name": "x", "players": ["Anna", "Ben", "Cleo"], "variant": "expert",
                                        "deal": "random"})
    assert r.status_code == 201 and all("goals" not in p for p in r.json()["players"])  # secret: on the seats
    seats = client.get("/api/games/x/seats").json()["seats"]
    goals = {s["player"]: client.get("/api/seat/x", headers={"X-Drunter-Seat": s["links"][0].split("#")[1]}
                                     ).json()["me"]["goals"] for s in seats}
    assert all(len(g) == 2 for g in goals.values())
    state = r.json()
    while not state["choice_due"] and not state["over"]:
        move = state["legal"][0]
        body = {"move": move["move"]}
        if move["needs_vote"]:
            body["vote"] = {p: ["?"] for p in state["vote_order"]}
        if not state["legal"]:
            body = {"move": "pass"}
        state = client.post("/api/games/x/moves", json=body).json()
    assert state["choice_due"]
    # the goals were dealt by the app, secretly: the host cannot choose for the seats, nor learn them by trying
    keep = {p: g[1] for p, g in goals.items()}
    for tried in (keep, {"Anna": goals["Ben"][0]}, None):
        r = client.post("/api/games/x/moves", json={"move": "choose", "keep": tried})
        assert r.status_code == 409 and "seat" in r.json()["error"]
    for s in seats:
        mine = {"X-Drunter-Seat": s["links"][0].split("#")[1]}
        client.post("/api/seat/x/choose", json={"keep": keep[s["player"]]}, headers=mine)
    state = client.get("/api/games/x").json()
    assert not state["choice_due"] and state["events"][-1]["dn"] == "choose"


@pytest.mark.parametrize("method, path, body, status", [
    ("GET", "/api/games/nope", None, 404),
    ("GET", "/api/games/..%2F..%2Fetc%2Fpasswd", None, 404),
    ("POST", "/api/games", {"name": "two\nlines", "players": ["A", "B"]}, 400),
    ("POST", "/api/games", {"name": " ", "players": ["A", "B"]}, 400),
    ("POST", "/api/games", {"name": "x" * 65, "players": ["A", "B"]}, 400),
    ("POST", "/api/games", {"name": "ok", "players": ["A", "B"], "board": "../../x.toml"}, 400),
    ("POST", "/api/games", {"name": "ok", "players": ["A"]}, 422),
    ("POST", "/api/games", {"name": "ok", "players": "A, B"}, 400),
    ("POST", "/api/games", {"name": "ok", "players": ["A", "B"], "rules": "house"}, 422),
    ("POST", "/api/games", {"name": "ok", "players": ["A", "B"], "deal": {"hands": {"A": "Q9"}}}, 422),
    ("POST", "/api/games/t/moves", {"move": 3}, 400),
    ("POST", "/api/games/t/moves", {"move": "S1 a2", "turn": "one"}, 400),
    ("POST", "/api/games/t/moves", {"move": "S1 a2", "vote": ["JA"]}, 400),
    ("POST", "/api/games/t/moves", {"move": "S9 zz"}, 422),
    ("POST", "/api/games/t/moves", {"move": "choose"}, 422),
    ("POST", "/api/games/t/moves", {"move": "pass"}, 422),
    ("PUT", "/api/games/t", {}, 405),
    ("GET", "/api/nothing", None, 404),
])
def test_bad_requests_are_4xx_with_one_line(client, method, path, body, status):
    client.post("/api/games", json=NEW)
    r = client.request(method, path, json=body)
    assert r.status_code == status
    assert isinstance(r.json()["error"], str) and "\n" not in r.json()["error"]


def test_bodies_over_64_kb_and_not_json(client):
    client.post("/api/games", json=NEW)
    json_ = {"Content-Type": "application/json"}
    assert client.post("/api/games/t/moves", content=b"{" + b" " * 70_000 + b"}", headers=json_).status_code == 413
    assert client.post("/api/games/t/moves", content=b"{nope", headers=json_).status_code == 400
    assert client.post("/api/games/t/moves", content=b"[1, 2]", headers=json_).status_code == 400
    assert client.post("/api/games/t/moves", content=b"[" * 50_000, headers=json_).status_code == 400


def test_a_device_gone_before_its_body_ended_is_a_4xx_not_a_traceback():
    """The body's stream ends in a disconnect (a phone that lost its network mid-request): refused, no error."""
    from conftest import run_async
    from starlette.requests import Request

    from drunter_notation.table.store import Refused
    from drunter_notation.web.endpoint import read_body

    messages = iter([{"type": "http.request", "body": b"{", "more_body": True}, {"type": "http.disconnect"}])

    async def receive():
        return next(messages)

    async def read():
        request = Request({"type": "http", "method": "POST", "headers": [(b"content-length", b"100")]}, receive)
        with pytest.raises(Refused) as refused:
            await read_body(request)
        return refused.value.status
    assert run_async(read()) == 400


@settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                         lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids,
                                                                                   max_size=4), max_leaves=12),
       route=st.sampled_from(["moves", "undo", "tally", "reveal", "adjudicate", "takeback", "replay", "repair"]),
       key=st.sampled_from(["move", "vote", "jein", "keep", "turn", "cards", "line", "text", "cut", "rev"]))
def test_no_body_makes_a_server_error(client, body, route, key):
    """Whatever JSON arrives, the answer is a 2xx or 4xx with one line, never a 500."""
    if client.get("/api/games/t").status_code == 404:
        client.post("/api/games", json=NEW)
    for payload in (body, {key: body}, {"move": "S2 b2-c2", key: body}):
        r = client.post(f"/api/games/t/{route}", json=payload)
        assert r.status_code < 500, (payload, r.text)
        if r.status_code >= 400:  # one line, every control and bidi character of the body written as its escape
            assert r.json()["error"].replace("\u00a0", " ").isprintable(), (payload, r.json())


def test_player_names_are_text(client):
    r = client.post("/api/games", json={"name": "h", "players": ["<img src=x onerror=alert(1)>", "Ben"],
                                        "deal": "random"})
    assert r.status_code == 201
    move = r.json()["legal"][0]["move"]
    assert client.post("/api/games/h/moves", json={"move": move}).status_code == 200
    board = client.get("/api/games/h/board.svg")
    assert board.headers["content-type"].startswith("image/svg+xml")
    svg = board.text
    assert "<img" not in svg and "&lt;img" in svg  # the tile's tooltip and owner chip are escaped
    assert r.json()["players"][0]["name"] == "<img src=x onerror=alert(1)>"  # the page sets it as text


def test_token_beyond_loopback(folder):
    client = TestClient(create_app(folder, token="s3cret"), base_url=BASE)
    assert client.get("/api/games").status_code == 403
    assert client.get("/").status_code == 403
    assert client.get("/api/games", headers={"X-Drunter-Token": "wrong"}).status_code == 403
    assert client.get("/api/games", headers={"X-Drunter-Token": "s3cret"}).status_code == 200
    page = client.get("/?token=s3cret")
    assert page.status_code == 200 and "drunter_token=s3cret" in page.headers["set-cookie"]
    assert client.get("/api/games").status_code == 200  # the cookie now carries it


def test_page_ships_its_own_scripts_and_styles(client):
    page = client.get("/")
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert "http" not in page.text.replace("http-equiv", "")  # nothing from elsewhere
    assert client.get("/static/play.js").status_code == 200
    assert "#board .gang" in client.get("/board.css").text  # the report's board styles


def _call(url: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url + path.lstrip("/"), data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


@pytest.mark.slow
def test_sigkill_between_moves_loses_no_acknowledged_move(folder, play_server):
    acknowledged = 0
    for round_ in range(3):  # three servers, each killed without warning after some moves
        with play_server(folder) as (proc, url, _):
            if round_ == 0:
                assert _call(url, "/api/games", NEW)[0] == 201
            state = _call(url, "/api/games/t")[1]
            assert state["turn"] == acknowledged + 1  # every move acknowledged before the kill is there
            for body in MOVES[acknowledged:acknowledged + 5]:
                status, _ = _call(url, "/api/games/t/moves", body | {"turn": acknowledged + 1})
                assert status == 200
                acknowledged += 1
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(10)
        # the file and its journal hold every acknowledged move; opening the game writes the journal into the file
        store = Store(folder)
        assert store.playable(store.table("t")).turn == acknowledged + 1
        text = (folder / "t.dn").read_text(encoding="utf-8")
        assert Game.from_dn(text, str(folder / "t.dn")).turn == acknowledged + 1
        assert not list(folder.glob(".t.dn.*.tmp"))
    assert acknowledged == len(MOVES) and verdict(folder / "t.dn") == (True, [], True)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.text(st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")),
                    min_size=1, max_size=64).filter(lambda s: s.strip() and s.isprintable()))
def test_any_printable_name_is_shown_as_typed_and_stored_safely(folder, name):
    client = TestClient(create_app(folder), base_url=BASE)
    r = client.post("/api/games", json={"name": name, "players": ["Anna", "Ben"]})
    assert r.status_code in (201, 409), r.text  # 409: the same name drawn twice
    if r.status_code == 409:
        return
    game = r.json()
    assert game["title"] == name.strip()
    path = folder / f"{game['name']}.dn"
    assert path.parent == folder and path.is_file()  # a safe file name, inside the folder
    assert all(c.isascii() and (c.isalnum() or c in "-_") for c in game["name"])
    again = TestClient(create_app(folder), base_url=BASE)  # the name comes back from the file
    assert {g["name"]: g["title"] for g in again.get("/api/games").json()["games"]}[game["name"]] == name.strip()
    assert client.post("/api/games", json={"name": name, "players": ["A", "B"]}).status_code == 409


def test_a_name_with_a_path_in_it_stays_in_the_folder(client, folder):
    r = client.post("/api/games", json={"name": "../escape", "players": ["A", "B"]})
    assert r.status_code == 201 and r.json()["title"] == "../escape"
    assert (folder / f"{r.json()['name']}.dn").is_file() and not (folder.parent / "escape.dn").exists()
    assert client.post("/api/games", json={"name": "table-1", "players": ["A", "B"]}).json()["title"] == "table-1"
    assert "Event" not in (folder / "table-1.dn").read_text(encoding="utf-8")  # a plain name is the file's


def test_a_hand_edited_goal_card_file_is_refused_without_a_word_of_the_goals(folder):
    client = TestClient(create_app(folder), base_url=BASE)
    r = client.post("/api/games", json={"name": "x", "players": ["Anna", "Ben"], "variant": "expert",
                                        "deal": "random"})
    seats = client.get("/api/games/x/seats").json()["seats"]
    tokens = {s["player"]: {"X-Drunter-Seat": s["links"][0].split("#")[1]} for s in seats}
    goals = {p: client.get("/api/seat/x", headers=t).json()["me"]["goals"] for p, t in tokens.items()}
    state = r.json()
    while not state["choice_due"] and not state["over"]:
        move = state["legal"][0] if state["legal"] else {"move": "pass", "needs_vote": False}
        body = {"move": move["move"]} | ({"vote": {p: ["?"] for p in state["vote_order"]}} if move["needs_vote"] else {})
        state = client.post("/api/games/x/moves", json=body).json()
    assert state["choice_due"]
    for p, t in tokens.items():
        assert client.post("/api/seat/x/choose", json={"keep": goals[p][0]}, headers=t).status_code == 200
    cards = json.loads((folder / "x.cards.json").read_text(encoding="utf-8"))
    assert set(cards) == {"Anna", "Ben"}
    (folder / "x.cards.json").write_text(json.dumps({"Anna": goals["Ben"][0], "Ben": goals["Ben"][0]}), "utf-8")
    listed = TestClient(create_app(folder), base_url=BASE).get("/api/games").json()["games"]
    error = next(g for g in listed if g["name"] == "x")["error"]
    assert "D001" in error and not any(card in error for cards in goals.values() for card in cards), error
