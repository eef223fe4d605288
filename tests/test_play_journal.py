"""The journal of drunter play (web/journal.py): each acknowledged move is appended
to NAME.dn.journal with one fsync; the record is written whole now and then. Any
server that opens the folder afterwards -- after a crash too -- sees every
acknowledged move, and writes them into the record."""
from __future__ import annotations

import errno
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drunter_notation import Game

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from drunter_notation.table import seats
from drunter_notation.web import journal
from drunter_notation.web import store as store_module
from drunter_notation.web.app import create_app
from drunter_notation.web.store import JOURNAL_LIMIT, Store

ROOT = Path(__file__).resolve().parent.parent
BASE = "http://127.0.0.1:8000"
NEW = {"name": "t", "players": ["Anna", "Ben", "Cleo"], "deal": "random"}


@pytest.fixture
def folder(tmp_path) -> Path:
    return tmp_path


def on_file(folder: Path) -> Game:
    path = folder / "t.dn"
    return Game.from_dn(path.read_text(encoding="utf-8"), str(path))


def reopened(folder: Path) -> Game:
    store = Store(folder)
    return store.playable(store.table("t"))


def a_move(state: dict, rng: random.Random) -> dict:
    """A random legal move for the state the API gave, as a request body."""
    body = {"turn": state["turn"]}
    if not state["legal"]:
        return body | {"move": "pass"}
    move = rng.choice(state["legal"])
    body["move"] = move["move"]
    if move["needs_vote"]:
        cards = {p["name"]: p["cards"] for p in state["players"]}
        body["vote"] = {p: [rng.choice(cards[p])] for p in state["vote_order"]}
        body["jein"] = {p: "no" for p, c in body["vote"].items() if c == ["JEIN"]}
    return body


def chosen_on_seats(client: TestClient) -> dict:
    """The expert choice, made as it is made: each player keeps their first goal card on their own seat."""
    for seat in client.get("/api/games/t/seats").json()["seats"]:
        mine = {"X-Drunter-Seat": seat["links"][0].split("#")[1]}
        keep = client.get("/api/seat/t", headers=mine).json()["me"]["goals"][0]
        assert client.post("/api/seat/t/choose", json={"keep": keep}, headers=mine).status_code == 200
    return client.get("/api/games/t").json()


def started(folder: Path, moves: int, seed: int) -> tuple[TestClient, dict, random.Random]:
    """A server with the game t and ``moves`` random moves played on it."""
    client = TestClient(create_app(folder), base_url=BASE)
    state = client.post("/api/games", json=NEW).json()
    rng = random.Random(seed)
    for _ in range(moves):
        state = client.post("/api/games/t/moves", json=a_move(state, rng)).json()
    return client, state, rng


def test_moves_go_to_the_journal_and_a_new_server_writes_them_into_the_record(folder):
    client, state, _ = started(folder, 6, 7)
    assert on_file(folder).turn == 1  # the record still as created ...
    lines = (folder / "t.dn.journal").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 7 and lines[0].startswith('{"base":')  # ... the six moves are in the journal
    assert state["dn"] == reopened(folder).to_dn()  # another server sees all six
    assert on_file(folder).turn == 7 and (folder / "t.dn.journal").read_bytes() == b""  # and wrote them in


def test_an_undo_is_journaled_too(folder):
    client, state, _ = started(folder, 3, 3)
    state = client.post("/api/games/t/undo", json={"turn": state["turn"]}).json()
    assert state["turn"] == 3 and reopened(folder).turn == 3


def test_quiet_games_and_shutdown_compact(folder):
    with TestClient(create_app(folder), base_url=BASE) as client:  # runs the app's shutdown at the end
        state = client.post("/api/games", json=NEW).json()
        state = client.post("/api/games/t/moves", json=a_move(state, random.Random(1))).json()
        assert on_file(folder).turn == 1
    assert on_file(folder).turn == 2 and not (folder / "t.dn.journal").exists()
    store = Store(folder)
    table = store.table("t")
    store.change(table, None, lambda g: g.pop(), lambda t: None, op={"op": "pop"})
    assert on_file(folder).turn == 2 and table.pending == 1
    store.compact(quiet=3600)  # not quiet long enough: nothing written
    assert on_file(folder).turn == 2
    store.compact()
    assert on_file(folder).turn == 1 and table.pending == 0


def test_a_finished_game_and_a_long_journal_are_written_whole(folder):
    client = TestClient(create_app(folder), base_url=BASE)
    state = client.post("/api/games", json=NEW | {"players": ["Anna", "Ben"]}).json()
    rng = random.Random(11)
    written = []
    while not state["over"]:
        state = client.post("/api/games/t/moves", json=a_move(state, rng)).json()
        written.append(on_file(folder).turn)
    assert on_file(folder).is_over()  # the last move wrote the record whole
    assert max(b - a for a, b in zip([1] + written, written)) <= JOURNAL_LIMIT + 1


def test_a_cut_last_line_and_a_stale_journal_are_not_replayed(folder):
    started(folder, 2, 5)
    path = folder / "t.dn.journal"
    data = path.read_bytes()
    path.write_bytes(data[:-5])  # a crash in the middle of the second move's line: it was never acknowledged
    assert reopened(folder).turn == 2
    path.write_bytes(data.replace(b'"base":"', b'"base":"0'))  # a journal of another version of the record
    assert reopened(folder).turn == 2


def test_a_journal_that_cannot_be_written_changes_nothing(folder, monkeypatch):
    client, state, rng = started(folder, 1, 2)
    before = (folder / "t.dn.journal").read_bytes()

    def full(*args, **kw):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(journal.os, "fsync", full)
    r = client.post("/api/games/t/moves", json=a_move(state, rng))
    assert r.status_code == 503 and "nothing was changed" in r.json()["error"]
    monkeypatch.undo()
    assert (folder / "t.dn.journal").read_bytes() == before
    assert client.get("/api/games/t").json()["turn"] == 2 and reopened(folder).turn == 2


def test_a_journal_that_is_a_link_out_is_not_written(folder, tmp_path_factory):
    outside = tmp_path_factory.mktemp("elsewhere") / "x"
    outside.write_text("keep\n")
    client = TestClient(create_app(folder), base_url=BASE)
    state = client.post("/api/games", json=NEW).json()
    (folder / "t.dn.journal").symlink_to(outside)
    r = client.post("/api/games/t/moves", json=a_move(state, random.Random(1)))
    assert r.status_code == 403 and outside.read_text() == "keep\n"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10 ** 6), steps=st.lists(st.sampled_from(["move", "move", "move", "undo"]), max_size=25))
def test_what_a_crash_leaves_replays_to_what_was_acknowledged(tmp_path_factory, seed, steps):
    """Any run of moves and undos: the record and its journal, read by a new server, give
    exactly the game the last answer showed."""
    folder = tmp_path_factory.mktemp("games")
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", folder / "tiny.toml")
    client = TestClient(create_app(folder), base_url=BASE)
    r = client.post("/api/games", json=NEW | {"players": ["Anna", "Ben"], "board": "tiny.toml", "variant": "expert"})
    assert r.status_code == 201, r.text
    state = r.json()
    rng = random.Random(seed)
    for step in steps:
        if state["over"]:
            break
        if step == "undo" and state["can_undo"]:
            state = client.post("/api/games/t/undo", json={"turn": state["turn"]}).json()
        elif step == "move":
            state = chosen_on_seats(client) if state["choice_due"] else \
                client.post("/api/games/t/moves", json=a_move(state, rng)).json()
    game = reopened(folder)
    assert seats.public_dn(game, game.to_dn()) == state["dn"]  # the page's record: goal cards kept out


def test_a_replayed_journal_that_cannot_be_written_yet_goes_on(folder, monkeypatch):
    """After a crash, the next server replays the journal; if the record cannot be
    written then, the journal keeps those moves and the new ones follow them."""
    _, state, rng = started(folder, 3, 9)

    def full(*args, **kw):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(store_module, "write_atomic", full)
    client = TestClient(create_app(folder), base_url=BASE)
    state = client.get("/api/games/t").json()
    assert state["turn"] == 4 and on_file(folder).turn == 1
    state = client.post("/api/games/t/moves", json=a_move(state, rng)).json()
    assert state["turn"] == 5
    monkeypatch.undo()
    game = reopened(folder)
    assert seats.public_dn(game, game.to_dn()) == state["dn"]


def test_the_compactor_writes_a_quiet_game_and_then_stops(folder, monkeypatch):
    monkeypatch.setattr(store_module, "QUIET", 0.0)  # every game is quiet at once
    started = []
    start = Store._start_compactor

    def spy(self):  # called with the table's lock held: the compactor cannot have finished yet
        start(self)
        started.append(self._compactor)
    monkeypatch.setattr(Store, "_start_compactor", spy)
    store = Store(folder)
    table = store.create({"name": "t", "players": ["Anna", "Ben"]})  # no hands recorded: a pass is legal
    op = {"op": "push", "move": "pass"}
    store.change(table, 1, lambda g: store_module.apply(g, op), lambda t: None, op=op)
    [compactor] = started
    compactor.join(60)
    assert not compactor.is_alive() and store._compactor is None
    assert on_file(folder).turn == 2 and (folder / "t.dn.journal").read_bytes() == b""
