"""Mending through the API of drunter play (web/mend.py): take back to any earlier
turn and replay it; repair a file that is no valid record, with a backup; a
mistyped move is answered about the move, not about the game's file."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from drunter_notation import files

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from drunter_notation.web.app import create_app
from drunter_notation.web.store import Store

ROOT = Path(__file__).resolve().parent.parent
BASE = "http://127.0.0.1:8000"
HANDS = {"Anna": "W3 W2x2 W1x2 S3 S2x2 S1x2", "Ben": "W3 W2x2 W1x2 R3 R2x2 R1x2"}
NEW = {"name": "t", "players": ["Anna", "Ben"], "board": "tiny.toml",
       "deal": {"hands": HANDS, "cards": {"Anna": "townhall", "Ben": "tavern"}}}
MOVES = [{"move": "S1 a2"}, {"move": "R2 f5-f4"},
         {"move": "S2 b2-c2", "vote": {"Anna": ["JA"], "Ben": ["NEE"]}},
         {"move": "W3 e1-c1"}, {"move": "S2 b2-c2", "vote": {"Ben": "?", "Anna": "JAA"}}]


@pytest.fixture
def folder(tmp_path) -> Path:
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "tiny.toml")
    return tmp_path


@pytest.fixture
def client(folder) -> TestClient:
    c = TestClient(create_app(folder), base_url=BASE)
    c.post("/api/games", json=NEW)
    for body in MOVES:
        c.post("/api/games/t/moves", json=body)
    return c


def test_take_back_and_replay(client, folder):
    full = client.get("/api/games/t").json()
    r = client.post("/api/games/t/takeback", json={"keep": 2, "turn": 6})
    assert r.status_code == 200
    state = r.json()
    assert state["turn"] == 3 and len(state["events"]) == 2
    assert state["taken_back"] == ["S2 b2-c2 vote { Anna: JA, Ben: NEE } -> rejected 1:2", "W3 e1-c1",
                                   "S2 b2-c2 vote { Anna: JAA, Ben: ? } -> accepted 2:0"]
    # taken back once more: a replay restores both
    state = client.post("/api/games/t/takeback", json={"keep": 1}).json()
    assert len(state["taken_back"]) == 4
    store = Store(folder)  # what a crash would leave: the take-back is in the journal
    assert store.playable(store.table("t")).turn == 2
    state = client.post("/api/games/t/replay", json={"turn": 2}).json()
    assert state["dn"] == full["dn"] and state["taken_back"] == []


def test_a_move_forgets_what_was_taken_back(client):
    client.post("/api/games/t/takeback", json={"keep": 4})
    assert client.post("/api/games/t/moves", json={"move": "S2 b2-c2", "vote": {"Anna": ["JAA"], "Ben": ["?"]}}
                       ).json()["taken_back"] == []
    r = client.post("/api/games/t/replay", json={})
    assert r.status_code == 409 and "nothing to replay" in r.json()["error"]


@pytest.mark.parametrize("body, status", [({"keep": 5}, 409), ({"keep": -1}, 409), ({"keep": "2"}, 400),
                                          ({"keep": True}, 400), ({}, 400), ({"keep": 1, "turn": 3}, 409)])
def test_take_back_refusals(client, body, status):
    r = client.post("/api/games/t/takeback", json=body)
    assert r.status_code == status and "\n" not in r.json()["error"]
    assert client.get("/api/games/t").json()["turn"] == 6


@pytest.mark.parametrize("route", ["adjudicate", "moves"])
def test_a_mistyped_move_is_worded_as_the_moves(client, route):
    r = client.post(f"/api/games/t/{route}", json={"move": "S2 c3-"})
    assert r.status_code == 422
    error = r.json()["error"]
    assert error.startswith("the move typed, at column 7: error[P001]: ") and ".dn" not in error


def broken(folder: Path, name: str = "bad") -> str:
    good = (ROOT / "replays" / "tiny-hand-made.dn").read_text(encoding="utf-8")
    text = good.replace("[Board \"boards/tiny.toml\"]", "[Board \"tiny.toml\"]").replace(
        "5. Anna S2 b2-c2 vote { Anna: JAA, Ben: ? }", "5. Anna S2 b2-c2 vote { Anna: JAA, Bob: ? }")
    (folder / f"{name}.dn").write_text(text, encoding="utf-8")
    return text


def test_source_names_the_first_error_and_the_cut(client, folder):
    text = broken(folder)
    src = client.get("/api/games/bad/source").json()
    assert not src["valid"] and src["text"] == text
    assert src["verdict"].startswith(f"bad.dn:{src['line']}:") and "error[" in src["verdict"]
    assert src["offending"].startswith("5. Anna S2 b2-c2")
    assert src["cut"]["valid"] and src["cut"]["verdict"] == "bad.dn: a valid record, 4 turns"


def test_repair_by_a_fixed_line_keeps_a_backup(client, folder):
    text = broken(folder)
    src = client.get("/api/games/bad/source").json()
    r = client.post("/api/games/bad/repair", json={"line": src["line"], "rev": src["rev"],
                                                   "text": "5. Anna S2 b2-c2 vote { Anna: JAA, Ben: ? }"})
    assert r.status_code == 200 and r.json()["valid"] and r.json()["verdict"].endswith("13 turns, over")
    assert (folder / "bad.dn.bak").read_text(encoding="utf-8") == text
    assert client.get("/api/games/bad").json()["over"]


def test_repair_by_a_cut(client, folder):
    broken(folder)
    r = client.post("/api/games/bad/repair", json={"cut": True})
    assert r.status_code == 200 and r.json()["verdict"] == "bad.dn: a valid record, 4 turns"
    assert client.get("/api/games/bad").json()["turn"] == 5


def test_repair_refusals(client, folder):
    text = broken(folder)
    src = client.get("/api/games/bad/source").json()
    for body, status in (({"line": 0, "text": "x"}, 400), ({"line": src["line"], "text": "a\nb"}, 400),
                         ({"line": src["line"], "text": "x" * 2000}, 400), ({"cut": "yes"}, 400),
                         ({"cut": True, "rev": "0000"}, 409)):
        r = client.post("/api/games/bad/repair", json=body)
        assert r.status_code == status and "\n" not in r.json()["error"]
    assert (folder / "bad.dn").read_text(encoding="utf-8") == text and not (folder / "bad.dn.bak").exists()
    (folder / "head.dn").write_text('[Players "Anna"]\n1. Anna S1 a2\n', encoding="utf-8")
    r = client.post("/api/games/head/repair", json={"cut": True})  # nothing valid before the first error
    assert r.status_code == 409
    with open(folder / "huge.dn", "wb") as f:
        f.truncate(files.MAX_RECORD_BYTES + 1)
    assert client.get("/api/games/huge/source").status_code == 409
    assert client.post("/api/games/huge/repair", json={"cut": True}).status_code == 409


def test_a_valid_record_may_be_edited_but_not_broken(client, folder):
    before = (folder / "t.dn").read_text(encoding="utf-8")
    r = client.post("/api/games/t/repair", json={"line": 1, "text": "garbage"})
    assert r.status_code == 409 and "valid" in r.json()["error"]
    assert (folder / "t.dn").read_text(encoding="utf-8") == before and not (folder / "t.dn.bak").exists()
    first = before.split("\n")[0]
    r = client.post("/api/games/t/repair", json={"line": 1, "text": first + "  # kept at the club"})
    assert r.status_code == 200 and r.json()["valid"]
    assert client.get("/api/games/t").json()["turn"] == len(MOVES) + 1


def test_a_record_made_by_hand_is_kept_before_the_table_first_writes_it(tmp_path):
    """Comments and a layout of one's own are the user's: the table writes its canonical record, so the
    file as it was is kept beside it (NAME.dn.orig) first; a record the table wrote is not copied again."""
    by_hand = '[Players "Anna, Ben"]  # Friday\n\n# the first move, as agreed\n1. Anna   S1 a2\n'
    (tmp_path / "h.dn").write_text(by_hand, encoding="utf-8")
    store = Store(tmp_path)
    table = store.table("h")
    with table.lock:
        store.playable(table)
    store.change(table, None, lambda g: g.push(g.legal_moves()[0]), lambda t: None)
    assert (tmp_path / "h.dn.orig").read_text(encoding="utf-8") == by_hand
    assert "# the first move" not in (tmp_path / "h.dn").read_text(encoding="utf-8")
    (tmp_path / "h.dn.orig").unlink()
    store.change(table, None, lambda g: g.push(g.legal_moves()[0]), lambda t: None)
    assert not (tmp_path / "h.dn.orig").exists()
    assert store.delete(table) and (tmp_path / "archive" / "h.dn").exists()
