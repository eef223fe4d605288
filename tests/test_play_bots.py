"""Bots in the seats of drunter play, and the coach (drunter_notation/table/bots.py): the
API's contract, a bot's decisions made from its seat's knowledge only, a decision
discarded by an undo mid-thought, a game whose turn is a bot's going on after a
restart, and a person against three bots to the end with a record validate accepts.

Waiting for a bot polls in bounded loops; nothing asserts how long anything takes."""
from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
from conftest import LONG, wait
from starlette.testclient import TestClient

from drunter_notation import Game
from drunter_notation.notation.model import BUILDINGS, GOALS
from drunter_notation.table import bots
from drunter_notation.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
BASE = "http://127.0.0.1"
FOUR = ["Anna", "Ben", "Cleo", "Dan"]


def folder(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", path / "tiny.toml")
    return path


def tokens(client: TestClient, name: str) -> dict[str, dict[str, str]]:
    return {s["player"]: {"X-Drunter-Seat": s["links"][0].split("#")[1]}
            for s in client.get(f"/api/games/{name}/seats").json()["seats"]}




def validate(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "drunter_notation.cli", "validate", str(path)],
                          capture_output=True, text=True, timeout=120)


# -- the contract ---------------------------------------------------------------------------

@pytest.mark.parametrize("body,named", [
    ({"bots": {"Ben": "greedy"}, "colour": "red"}, "colour"),
    ({"bots": {"Zoe": "greedy"}}, "Zoe"),
    ({"bots": {"Ben": "ismcts:sims=x"}}, "sims"),
    ({"bots": {"Ben": "deep-blue"}}, "deep-blue"),
    ({"bots": {"Ben": "greedy:sims=3"}}, "greedy"),
    ({"bots": ["Ben"]}, "bots"),
    ({"hints": "yes"}, "hints"),
])
def test_a_new_game_with_a_bad_field_is_refused_naming_it(tmp_path, body, named):
    c = TestClient(create_app(folder(tmp_path)), base_url=BASE)
    r = c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "deal": "random"} | body)
    assert r.status_code == 400 and named in r.json()["error"], r.json()
    assert not list(tmp_path.glob("*.dn"))


def test_bots_need_their_tiles_and_cards(tmp_path):
    c = TestClient(create_app(folder(tmp_path)), base_url=BASE)
    r = c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "bots": {"Ben": "greedy"}})
    assert r.status_code == 400 and "deal" in r.json()["error"]


def test_the_record_names_the_bots_as_simulate_does(tmp_path):
    c = TestClient(create_app(folder(tmp_path)), base_url=BASE)
    r = c.post("/api/games", json={"name": "t", "players": FOUR, "deal": "random", "hints": True,
                                   "bots": {"Ben": "ismcts:sims=40", "Cleo": "easy", "Dan": "strong"}})
    assert r.status_code == 201, r.json()
    game = r.json()
    assert game["bots"] == {"Ben": "ismcts:sims=40", "Cleo": bots.LEVELS["easy"], "Dan": bots.LEVELS["strong"]}
    assert game["hints"] == {"Anna": 0}
    text = (tmp_path / "t.dn").read_text()
    assert f'[Bots "-, ismcts:sims=40, {bots.LEVELS["easy"]}, {bots.LEVELS["strong"]}"]' in text
    assert '[Hints "Anna 0"]' in text
    seats = {s["player"]: s["bot"] for s in c.get("/api/games/t/seats").json()["seats"]}
    assert seats == {"Anna": None, "Ben": "ismcts:sims=40", "Cleo": "greedy", "Dan": bots.LEVELS["strong"]}
    # the simulate's format: one entry per seat, joined as simulate joins them
    simulated = subprocess.run([sys.executable, "-m", "drunter_notation.cli", "simulate", "--players", "2", "--seed", "1",
                                "--bots", "greedy,random"], capture_output=True, text=True, timeout=120).stdout
    assert '[Bots "greedy, random"]' in simulated


def test_the_coach_only_when_asked_for_on_ones_own_turn(tmp_path):
    with TestClient(create_app(folder(tmp_path), bot_delay_ms=0, bot_workers=1), base_url=BASE) as c:
        assert c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "deal": "random"}).status_code == 201
        seat = tokens(c, "t")
        r = c.get("/api/seat/t/hint", headers=seat["Anna"])
        assert r.status_code == 403 and "coach" in r.json()["error"]
        assert c.get("/api/seat/t/hint", headers={"X-Drunter-Seat": "nope"}).status_code == 403
        assert c.post("/api/games", json={"name": "h", "players": ["Anna", "Ben"], "deal": "random",
                                          "hints": True}).status_code == 201
        seat = tokens(c, "h")
        assert c.get("/api/seat/h/hint", headers=seat["Ben"]).status_code == 409  # not Ben's turn
        r = c.get("/api/seat/h/hint", headers=seat["Anna"])
        assert r.status_code == 200, r.json()
        moves = r.json()["moves"]
        legal = {m["move"] for m in c.get("/api/games/h").json()["legal"]}
        assert 1 <= len(moves) <= bots.HINT_MOVES and all(m["move"] in legal and 0 <= m["win"] <= 1 for m in moves)
        assert [m["win"] for m in moves] == sorted((m["win"] for m in moves), reverse=True)
        assert '[Hints "Anna 1, Ben 0"]' in (tmp_path / "h.dn").read_text()


def test_autoplay_settings(tmp_path):
    c = TestClient(create_app(folder(tmp_path)), base_url=BASE)
    assert c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "deal": "random",
                                      "bots": {"Anna": "greedy", "Ben": "greedy"}}).status_code == 201
    assert c.post("/api/games/t/autoplay", json={"paused": True, "delay_ms": 50}).json() == \
        {"paused": True, "delay_ms": 50}
    assert c.get("/api/games/t/autoplay").json() == {"paused": True, "delay_ms": 50}
    for body in ({"paused": 1}, {"delay_ms": -1}, {"delay_ms": 10 ** 9}, {"speed": 2}):
        r = c.post("/api/games/t/autoplay", json=body)
        assert r.status_code == 400 and next(iter(body)) in r.json()["error"]
    assert c.get("/api/games/nope/autoplay").status_code == 404


# -- secrecy -------------------------------------------------------------------------------------

def two_worlds(tmp_path: Path, variant: str):
    """The same game in two folders: the same hands, Anna's and Ben's cards the same,
    Cleo's different; Anna and Ben are bots, Cleo is played by the test."""
    dealt = Game.new(["Anna", "Ben", "Cleo"], variant=variant, seed=11)
    hands = {p: {str(t): n for t, n in h.items() if n} for p, h in dealt.state.hands.items()}
    cards = {p: list(c) if variant == "expert" else c[0] for p, c in dealt.cards.items()}
    held = {c for p in ("Anna", "Ben") for c in dealt.cards[p]} | set(dealt.cards["Cleo"])
    spare = [c for c in (GOALS if variant == "expert" else BUILDINGS) if c not in held]
    other = dict(cards, Cleo=spare[:2] if variant == "expert" else spare[0])
    worlds = []
    for label, deal in (("world-A", cards), ("world-B", other)):
        c = TestClient(create_app(folder(tmp_path / label), bot_delay_ms=0), base_url=BASE)
        body = {"name": "t", "players": ["Anna", "Ben", "Cleo"], "variant": variant,
                "deal": {"hands": hands, "cards": deal}, "bots": {"Anna": "ismcts:sims=8", "Ben": "greedy"}}
        assert c.post("/api/games", json=body).status_code == 201
        worlds.append(c)
    return worlds


def cleo(c: TestClient, seat: dict) -> bool:
    """Cleo's part, the same in both worlds (her first goal kept: a different card in each)."""
    s = c.get("/api/seat/t", headers=seat).json()
    v = s["vote"]
    if s["over"]:
        return False
    if s["choice_due"] and "Cleo" not in s["chosen"]:
        return c.post("/api/seat/t/choose", headers=seat, json={"keep": s["me"]["goals"][0]}).status_code == 200
    if v and not v["shown"] and not v["mine"]:
        return c.post("/api/seat/t/lay", headers=seat, json={"cards": ["?"]}).status_code == 200
    if v and v["shown"] and "Cleo" in (v["jein_due"] or []):
        return c.post("/api/seat/t/jein", headers=seat, json={"side": "yes"}).status_code == 200
    if s["to_move"] == "Cleo" and not v:
        moves = [m["move"] for m in s["legal"] if not m["needs_vote"]] or ["pass"]
        if not s["legal"] or moves != ["pass"]:
            return c.post("/api/seat/t/moves", headers=seat, json={"move": moves[0]}).status_code == 200
        return c.post("/api/seat/t/ballot", headers=seat, json={"move": s["legal"][0]["move"]}).status_code == 200
    return False


@pytest.mark.parametrize("variant", ["base", "expert"])
def test_a_bots_decisions_do_not_depend_on_the_others_secrets(tmp_path, variant):
    a, b = two_worlds(tmp_path, variant)
    seat_a, seat_b = tokens(a, "t")["Cleo"], tokens(b, "t")["Cleo"]
    pilots = [w.app.pilot for w in (a, b)]
    decisions = 0
    for _ in range(400):
        jobs = [p._due("t") for p in pilots]
        if jobs[0] is not None:
            same = [bots.Job(**{**j.__dict__, "path": ""}) for j in jobs]
            assert same[0] == same[1], "a bot was asked different questions"
            answers = [bots.decide(j) for j in jobs]
            assert answers[0] == answers[1], f"{jobs[0].player} decided differently: {answers}"
            assert all(p._act(j, answer) for p, j, answer in zip(pilots, jobs, answers))
            decisions += 1
            continue
        if not (cleo(a, seat_a) & cleo(b, seat_b)):
            break
    assert a.get("/api/games/t").json()["over"] and decisions > 10
    # the worlds did differ: at the end the cards are shown
    assert a.get("/api/games/t").json()["dn"] != b.get("/api/games/t").json()["dn"]


def test_a_hint_does_not_depend_on_the_others_secrets(tmp_path):
    answers = []
    for label, ben in (("world-A", "tavern"), ("world-B", "school")):
        with TestClient(create_app(folder(tmp_path / label), bot_workers=1), base_url=BASE) as c:
            assert c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "hints": True, "board": "tiny.toml", "deal": {
                "hands": {"Anna": "W3 W2x2 W1x2 S3 S2x2 S1x2", "Ben": "W3 W2x2 W1x2 R3 R2x2 R1x2"},
                "cards": {"Anna": "townhall", "Ben": ben}}}).status_code == 201
            answers.append(c.get("/api/seat/t/hint", headers=tokens(c, "t")["Anna"]).json())
    assert answers[0] == answers[1] and answers[0]["moves"]


# -- the bots at work, off the event loop ----------------------------------------------------------

def thinks_on(job):
    """A bot's thought that never ends by itself (in a worker process): only a kill stops it."""
    time.sleep(600)


def test_an_undo_discards_what_a_bot_was_thinking(tmp_path):
    app = create_app(folder(tmp_path), bot_delay_ms=0)
    app.thinker.think = thinks_on
    with TestClient(app, base_url=BASE) as c:
        assert c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "deal": "random",
                                          "bots": {"Ben": "greedy"}}).status_code == 201
        anna = tokens(c, "t")["Anna"]
        first = c.get("/api/games/t").json()["legal"]
        move = next(m["move"] for m in first if not m["needs_vote"])
        assert c.post("/api/seat/t/moves", headers=anna, json={"move": move, "turn": 1}).status_code == 200
        wait(lambda: any(s.item for s in app.thinker.slots), "Ben thinks")
        assert app.pilot.thinking["t"].player == "Ben"
        worker = next(s.process for s in app.thinker.slots if s.item is not None)
        app.thinker.think = bots.decide  # the next worker decides as usual
        assert c.post("/api/games/t/undo", json={"turn": 2}).status_code == 200
        wait(lambda: not app.pilot.tasks and "t" not in app.pilot.thinking, "the bots stopped")
        # the thought is not left running: its worker is killed, nothing else computes
        assert app.thinker.busy == 0 and app.thinker.killed == 1 and not worker.is_alive()
        game = c.get("/api/games/t").json()
        assert game["turn"] == 1 and game["to_move"] == "Anna" and not game["events"]
        assert app.pilot.discarded >= 1
        # the bot thinks again once it is its turn again
        assert c.post("/api/seat/t/moves", headers=anna, json={"move": move, "turn": 1}).status_code == 200
        wait(lambda: c.get("/api/games/t").json()["turn"] == 3, "Ben moved")


def test_a_bot_to_move_goes_on_after_a_restart(tmp_path):
    folder(tmp_path)
    made = TestClient(create_app(tmp_path), base_url=BASE)  # no lifespan: no bots play on this server
    assert made.post("/api/games", json={"name": "t", "players": ["Ben", "Anna"], "deal": "random",
                                         "bots": {"Ben": "greedy"}}).status_code == 201
    assert made.get("/api/games/t").json()["turn"] == 1
    with TestClient(create_app(tmp_path, bot_delay_ms=0, bot_workers=1), base_url=BASE) as c:
        game = wait(lambda: (g := c.get("/api/games/t").json())["turn"] == 2 and g, "Ben moved after the restart")
        assert c.app.thinker.slots and c.app.thinker.slots[0].process.pid  # the bots think off the server's loop
        assert game["events"][0]["player"] == "Ben" and game["to_move"] == "Anna"


@LONG  # CI's long pass; the README's test command plays a table of bots paused and resumed (below)
def test_one_person_against_three_bots_to_the_end(tmp_path):
    with TestClient(create_app(folder(tmp_path), bot_delay_ms=0), base_url=BASE) as c:
        r = c.post("/api/games", json={"name": "t", "players": FOUR, "deal": "random", "hints": True,
                                       "bots": {"Ben": "greedy", "Cleo": "cautious", "Dan": "ismcts:sims=12"}})
        assert r.status_code == 201, r.json()
        anna = tokens(c, "t")["Anna"]
        hints = 0
        for _ in range(3000):
            s = c.get("/api/seat/t", headers=anna).json()
            if s["over"]:
                break
            v = s["vote"]
            if v and not v["shown"] and not v["mine"]:
                assert c.post("/api/seat/t/lay", headers=anna, json={"cards": ["?"]}).status_code == 200
            elif v and v["shown"] and "Anna" in (v["jein_due"] or []):
                assert c.post("/api/seat/t/jein", headers=anna, json={"side": "no"}).status_code == 200
            elif s["me"]["to_move"] and not v:
                if hints < 2:
                    assert c.get("/api/seat/t/hint", headers=anna).status_code == 200
                    hints += 1
                if not s["legal"]:
                    r = c.post("/api/seat/t/moves", headers=anna, json={"move": "pass", "turn": s["turn"]})
                elif s["legal"][0]["needs_vote"]:
                    r = c.post("/api/seat/t/ballot", headers=anna, json={"move": s["legal"][0]["move"],
                                                                         "turn": s["turn"]})
                else:
                    r = c.post("/api/seat/t/moves", headers=anna, json={"move": s["legal"][0]["move"],
                                                                        "turn": s["turn"]})
                assert r.status_code == 200, r.json()
            else:
                time.sleep(0.01)  # the bots' turn: they play by themselves
        assert s["over"], "the game did not end"
        players = {e["player"] for e in s["events"]}
        assert {"Ben", "Cleo", "Dan"} <= players
    path = tmp_path / "t.dn"
    text = path.read_text()
    assert '[Bots "-, greedy, cautious, ismcts:sims=12"]' in text and '[Hints "Anna 2"]' in text
    done = validate(path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_table_of_bots_plays_itself_paused_and_resumed(tmp_path):
    with TestClient(create_app(folder(tmp_path), bot_delay_ms=0, bot_workers=1), base_url=BASE) as c:
        assert c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben", "Cleo"], "deal": "random",
                                          "variant": "expert",
                                          "bots": {p: "greedy" for p in ("Anna", "Ben", "Cleo")}}).status_code == 201
        wait(lambda: c.get("/api/games/t").json()["turn"] > 3, "the bots played")
        assert c.post("/api/games/t/autoplay", json={"paused": True}).json()["paused"]
        pilot = c.app.pilot
        wait(lambda: not pilot.tasks, "the bots stopped")
        held = c.get("/api/games/t").json()
        assert not held["over"] and not pilot.tasks  # asking for the game does not wake paused bots
        assert c.get("/api/games/t").json()["turn"] == held["turn"]
        assert not c.post("/api/games/t/autoplay", json={"paused": False, "delay_ms": 0}).json()["paused"]
        wait(lambda: c.get("/api/games/t").json()["over"], "the game ended")
    done = validate(tmp_path / "t.dn")
    assert done.returncode == 0, done.stdout + done.stderr
