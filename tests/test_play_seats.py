"""Seats of drunter play (drunter_notation/web/seats.py, seat_api.py, events.py): a seat
answers only to its own token, acts only for its player, lays its ballot face down;
and no public route -- nor a seat's route for another seat -- ever carries a secret.

The secrecy test is a non-interference proof: two servers hold the same game with the
same public history but different secrets (building cards, goal cards, goals kept,
ballots laid face down). Every route of the app (enumerated from ``app.routes``, so a
new route cannot escape), asked the same in both, must answer byte for byte the same,
in every state of several games; for a seat's own routes, everything but that seat's
own secrets differs. As a check that the method can see a difference at all, the
answers must differ once the game is over and the cards are revealed."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
from conftest import LONG, examples
from starlette.routing import Mount, Route
from starlette.testclient import TestClient

from drunter_notation import Game
from drunter_notation.notation.model import BUILDINGS, GOALS
from drunter_notation.table import seats
from drunter_notation.web import events
from drunter_notation.web.app import STATIC, create_app

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "replays" / "boards" / "tiny.toml"
BASE = "http://127.0.0.1"  # a Host the server answers (web/guard.py)
HANDS = {"Anna": "W3 W2x2 W1x2 S3 S2x2 S1x2", "Ben": "W3 W2x2 W1x2 R3 R2x2 R1x2"}


def folder(tmp: Path, key: bytes | None = None) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    shutil.copy(TINY, tmp / "tiny.toml")
    if key is not None:
        (tmp / seats.KEY_FILE).write_bytes(key)
    return tmp


def tokens(client: TestClient, name: str) -> dict[str, str]:
    return {s["player"]: s["links"][0].split("#")[1] for s in client.get(f"/api/games/{name}/seats").json()["seats"]}


@pytest.fixture
def two(tmp_path):
    """A 2-player game on the test board, hands and cards entered; the client and the seat headers."""
    c = TestClient(create_app(folder(tmp_path)), base_url=BASE)
    assert c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "board": "tiny.toml",
                                      "deal": {"hands": HANDS, "cards": {"Anna": "townhall", "Ben": "tavern"}}}
                  ).status_code == 201
    return c, {p: {"X-Drunter-Seat": t} for p, t in tokens(c, "t").items()}


def test_a_seat_answers_only_to_its_token(two, tmp_path):
    c, seat = two
    assert c.get("/api/seat/t", headers=seat["Anna"]).json()["me"] | {} == {
        "name": "Anna", "seat": 0, "card": "townhall", "goals": None, "kept": None, "to_move": True}
    assert c.get("/api/seat/t", headers=seat["Ben"]).json()["me"]["card"] == "tavern"
    anna = seat["Anna"]["X-Drunter-Seat"]
    for bad in ({}, {"X-Drunter-Seat": ""}, {"X-Drunter-Seat": anna[:-1] + ("B" if anna.endswith("A") else "A")},
                {"X-Drunter-Seat": "x" * 5000}):
        r = c.get("/api/seat/t", headers=bad)
        assert r.status_code == 403 and "card" not in r.text
    # a token opens its seat of its game only: another game with the same players has other tokens
    c.post("/api/games", json={"name": "u", "players": ["Anna", "Ben"], "board": "tiny.toml", "deal": "random"})
    assert c.get("/api/seat/u", headers=seat["Anna"]).status_code == 403
    assert tokens(c, "u")["Anna"] != seat["Anna"]["X-Drunter-Seat"]
    # the key survives a restart: the same links open the same seats; it is the owner's alone
    again = TestClient(create_app(tmp_path), base_url=BASE)
    assert again.get("/api/seat/t", headers=seat["Ben"]).json()["me"]["name"] == "Ben"
    assert (tmp_path / seats.KEY_FILE).stat().st_mode & 0o777 == 0o600


def test_a_deleted_games_links_open_nothing_in_a_game_made_after_it_under_its_name(two, tmp_path):
    c, seat = two
    assert (tmp_path / ".t.salt").is_file()
    assert c.request("DELETE", "/api/games/t", json={}).status_code == 200
    assert not (tmp_path / ".t.salt").exists()  # the salt goes with the game; its record to the archive
    assert c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "board": "tiny.toml",
                                      "deal": {"hands": HANDS, "cards": {"Anna": "townhall", "Ben": "tavern"}}}
                  ).status_code == 201
    for p in ("Anna", "Ben"):
        r = c.get("/api/seat/t", headers=seat[p])
        assert r.status_code == 403 and "card" not in r.text
    new = tokens(c, "t")
    assert set(new.values()).isdisjoint(s["X-Drunter-Seat"] for s in seat.values())
    # the new links survive a restart as the old ones did
    again = TestClient(create_app(tmp_path), base_url=BASE)
    assert again.get("/api/seat/t", headers={"X-Drunter-Seat": new["Anna"]}).json()["me"]["name"] == "Anna"
    # a record put in the folder by hand has no salt: its links are those its name, seats and players give
    shutil.copy(tmp_path / "t.dn", tmp_path / "v.dn")
    assert not (tmp_path / ".v.salt").exists()
    assert again.get("/api/seat/v", headers={"X-Drunter-Seat": tokens(again, "v")["Ben"]}).json()["me"]["name"] == "Ben"


def test_a_seat_moves_only_on_its_own_turn_and_never_for_others(two):
    c, seat = two
    r = c.post("/api/seat/t/moves", json={"move": "R2 f5-f4"}, headers=seat["Ben"])
    assert r.status_code == 403 and "Anna's turn" in r.json()["error"]
    r = c.post("/api/seat/t/moves", json={"move": "S1 a2", "vote": {"Ben": ["NE"]}}, headers=seat["Anna"])
    assert r.status_code == 400  # a seat lays only its own cards
    r = c.post("/api/seat/t/moves", json={"move": "S1 c4"}, headers=seat["Anna"])
    assert r.status_code == 422 and "A001" in r.json()["error"]  # the engine's verdict, nothing recorded
    r = c.post("/api/seat/t/moves", json={"move": "S1 a2", "turn": 1}, headers=seat["Anna"])
    assert r.status_code == 200 and r.json()["turn"] == 2 and r.json()["me"]["to_move"] is False


def test_a_secret_ballot_from_laying_to_the_turn_over(two):
    c, seat = two
    c.post("/api/seat/t/moves", json={"move": "S1 a2"}, headers=seat["Anna"])
    c.post("/api/seat/t/moves", json={"move": "R2 f5-f4"}, headers=seat["Ben"])
    assert c.post("/api/seat/t/ballot", json={"move": "S2 b2-c2"}, headers=seat["Ben"]).status_code == 403
    assert c.post("/api/seat/t/ballot", json={"move": "S1 b2"}, headers=seat["Anna"]).status_code == 400
    v = c.post("/api/seat/t/ballot", json={"move": "S2 b2-c2"}, headers=seat["Anna"]).json()["vote"]
    assert v["order"] == ["Anna", "Ben"] and v["laid"] == [] and not v["shown"]
    assert c.post("/api/seat/t/lay", json={"cards": ["MAYBE"]}, headers=seat["Anna"]).status_code == 422  # B003
    mine = c.post("/api/seat/t/lay", json={"cards": ["JAA", "?"]}, headers=seat["Anna"]).json()["vote"]
    assert mine["mine"] == ["JAA", "?"] and mine["laid"] == ["Anna"]
    for view in (c.get("/api/games/t").json(), c.get("/api/seat/t", headers=seat["Ben"]).json()):
        assert view["vote"]["laid"] == ["Anna"] and view["vote"]["ballots"] is None
        assert view["vote"].get("mine") is None and "JAA" not in json.dumps(view["vote"])
    assert c.post("/api/seat/t/jein", json={"side": "yes"}, headers=seat["Anna"]).status_code == 409
    # the last card laid turns all over; Ben's joker is declared (B4), then the engine counts (B5)
    shown = c.post("/api/seat/t/lay", json={"cards": ["JEIN"]}, headers=seat["Ben"]).json()["vote"]
    assert shown["shown"] and shown["ballots"] == {"Anna": ["JAA", "?"], "Ben": ["JEIN"]}
    assert shown["jein_due"] == ["Ben"] and c.get("/api/games/t").json()["turn"] == 3
    assert c.post("/api/seat/t/lay", json={"cards": None}, headers=seat["Anna"]).status_code == 409
    assert c.post("/api/seat/t/ballot/cancel", json={}, headers=seat["Anna"]).status_code == 409
    done = c.post("/api/seat/t/jein", json={"side": "yes"}, headers=seat["Ben"]).json()
    assert done["vote"] is None and done["turn"] == 4
    assert done["last_vote"]["dn"] == "3. Anna S2 b2-c2 vote { Anna: JAA ?, Ben: JEIN=yes } -> accepted 4:0"
    assert done["last_vote"]["rule"] == "B5" and done["last_vote"]["citation"]
    assert done["players"][0]["cards"].count("JAA") == 0 and "?" in done["players"][0]["cards"]  # B7


def test_a_ballot_the_engine_refuses_is_told_to_its_seat_alone(two):
    c, seat = two
    c.post("/api/seat/t/moves", json={"move": "S1 a2"}, headers=seat["Anna"])
    c.post("/api/seat/t/moves", json={"move": "R2 f5-f4"}, headers=seat["Ben"])
    c.post("/api/games/t/ballot", json={"move": "S2 b2-c2"})
    c.post("/api/seat/t/lay", json={"cards": ["NE"]}, headers=seat["Ben"])
    r = c.post("/api/seat/t/lay", json={"cards": ["JA", "JA"]}, headers=seat["Anna"])  # one JA only (S2)
    assert r.status_code == 422 and "B003" in r.text
    # nobody else learns of it, and the vote goes on: Ben's card stays laid, face down
    for view in (c.get("/api/games/t").json(), c.get("/api/seat/t", headers=seat["Ben"]).json()):
        assert view["vote"]["laid"] == ["Ben"] and view["vote"]["problem"] is None and "B003" not in json.dumps(view)
    done = c.post("/api/seat/t/lay", json={"cards": ["JA"]}, headers=seat["Anna"]).json()
    assert done["turn"] == 4 and done["last_vote"]["dn"].startswith("3. Anna S2 b2-c2 vote { Anna: JA, Ben: NE }")


def test_a_ballot_taken_back_stays_void_when_its_turn_comes_again(two):
    c, seat = two
    c.post("/api/seat/t/moves", json={"move": "S1 a2"}, headers=seat["Anna"])
    c.post("/api/seat/t/moves", json={"move": "R2 f5-f4"}, headers=seat["Ben"])
    c.post("/api/seat/t/ballot", json={"move": "S2 b2-c2"}, headers=seat["Anna"])
    c.post("/api/seat/t/lay", json={"cards": ["NE"]}, headers=seat["Ben"])
    assert c.post("/api/games/t/undo", json={"turn": 3}).json()["vote"] is None
    assert c.post("/api/games/t/moves", json={"move": "R2 f5-f4", "turn": 2}).json()["turn"] == 3  # played again
    for view in (c.get("/api/games/t").json(), c.get("/api/seat/t", headers=seat["Ben"]).json()):
        assert view["vote"] is None  # the placer opens it again, and Ben's card is his once more


def test_a_refused_turn_over_gives_the_cards_back(two, monkeypatch):
    # the engine judges the turn-over whatever the seats were told as they laid: let a card laid twice through
    monkeypatch.setattr(Game, "check_ballot", lambda self, player, cards: None)
    c, seat = two
    c.post("/api/seat/t/moves", json={"move": "S1 a2"}, headers=seat["Anna"])
    c.post("/api/seat/t/moves", json={"move": "R2 f5-f4"}, headers=seat["Ben"])
    c.post("/api/games/t/ballot", json={"move": "S2 b2-c2"})
    c.post("/api/seat/t/lay", json={"cards": ["JA", "JA"]}, headers=seat["Anna"])  # one JA only (S2)
    v = c.post("/api/seat/t/lay", json={"cards": ["NE"]}, headers=seat["Ben"]).json()["vote"]
    assert "B003" in v["problem"] and v["laid"] == [] and c.get("/api/games/t").json()["turn"] == 3
    # the host calls the vote off: the tile goes back, nobody's card is spent
    assert c.post("/api/games/t/ballot/cancel", json={}).json()["vote"] is None


def test_the_expert_choice_is_made_on_each_seat_and_kept_secret(tmp_path):
    c = TestClient(create_app(folder(tmp_path)), base_url=BASE)
    c.post("/api/games", json={"name": "x", "players": ["Anna", "Ben"], "board": "tiny.toml", "variant": "expert",
                               "deal": "random"})
    seat = {p: {"X-Drunter-Seat": t} for p, t in tokens(c, "x").items()}
    goals = {p: c.get("/api/seat/x", headers=h).json()["me"]["goals"] for p, h in seat.items()}
    public = c.get("/api/games/x").json()
    assert "goals" not in public["dn"] and all("goals" not in p for p in public["players"])
    assert "goals" in (tmp_path / "x.dn").read_text(encoding="utf-8")  # the file keeps them, as a record does
    for _ in range(40):  # play to the first finished track
        s = c.get("/api/games/x").json()
        if s["choice_due"] or s["over"]:
            break
        m = next((m for m in s["legal"] if not m["needs_vote"]), None)
        body = {"move": m["move"]} if m else {"move": s["legal"][0]["move"], "vote": {"Anna": "?", "Ben": "?"}} \
            if s["legal"] else {"move": "pass"}
        assert c.post("/api/games/x/moves", json=body).status_code == 200
    assert s["choice_due"], "the test game never finished a track"
    # the host can neither choose for the seats nor learn their goal cards from a refusal
    for keep in ({p: g[1] for p, g in goals.items()}, {"Anna": GOALS[0]}, None):
        r = c.post("/api/games/x/moves", json={"move": "choose", "keep": keep})
        assert r.status_code == 409 and not any(g in r.text for gs in goals.values() for g in gs)
    assert c.post("/api/seat/x/choose", json={"keep": "nonsense"}, headers=seat["Anna"]).status_code == 400
    r = c.post("/api/seat/x/choose", json={"keep": goals["Anna"][1]}, headers=seat["Anna"]).json()
    assert r["me"]["kept"] == goals["Anna"][1] and r["chosen"] == ["Anna"] and r["choice_due"]
    assert goals["Anna"][1] not in json.dumps(c.get("/api/seat/x", headers=seat["Ben"]).json()["me"])
    r = c.post("/api/seat/x/choose", json={"keep": goals["Ben"][0]}, headers=seat["Ben"]).json()
    assert not r["choice_due"] and r["events"][-1]["dn"].endswith("choose")
    # the cards kept are secret till the reveal, so not in the record: a server started again still knows them
    again = TestClient(create_app(tmp_path), base_url=BASE)
    kept = {p: again.get("/api/seat/x", headers=h).json()["me"]["kept"] for p, h in seat.items()}
    assert kept == {"Anna": goals["Anna"][1], "Ben": goals["Ben"][0]}
    assert not any(g in again.get("/api/games/x/source").text for gs in goals.values() for g in gs)


def test_a_game_s_seat_actions_never_wait_for_another_game_s(tmp_path):
    """One game busy in a seat's action (a long take-back, a record read again): another game's seats go on."""
    import threading

    app = create_app(folder(tmp_path))
    c = TestClient(app, base_url=BASE)
    for name in ("a", "b"):
        c.post("/api/games", json={"name": name, "players": ["Anna", "Ben"], "deal": "random"})
    seat = {p: {"X-Drunter-Seat": t} for p, t in tokens(c, "b").items()}
    move = c.get("/api/games/b").json()["legal"][0]["move"]
    busy, done = app.core.store.table("a").actions, []
    with busy:  # held as a long action at game a holds it
        other = threading.Thread(target=lambda: done.append(
            c.post("/api/seat/b/moves", json={"move": move}, headers=seat["Anna"]).status_code), daemon=True)
        other.start()
        other.join(30)
        assert done == [200]


def test_a_goals_line_never_shows_its_cards_whatever_the_name(tmp_path):
    """A name with ':' and '#' in it (quoted in the record) does not end the masking of its goals line early,
    nor does a line the grammar cannot read; the version of a broken record is made of what may be read."""
    c = TestClient(create_app(folder(tmp_path)), base_url=BASE)
    c.post("/api/games", json={"name": "x", "players": ["A:#x", "B"], "variant": "expert", "deal": "random"})
    text = (tmp_path / "x.dn").read_text(encoding="utf-8")
    cards = [g.strip() for line in text.splitlines() if line.startswith("goals")
             for g in line.rsplit(":", 1)[1].split(",")]
    assert len(cards) == 4 and not any(g in c.get("/api/games/x/source").text for g in cards)
    broken = text.replace('goals "A:#x":', 'goals "A:#x:', 1) + "1. nobody\n"
    (tmp_path / "x.dn").write_text(broken, encoding="utf-8")
    shown = c.get("/api/games/x/source").json()
    assert not shown["valid"] and not any(g in json.dumps(shown) for g in cards[:2])
    for path in ("/api/games", "/api/games/x", "/api/games/x/board.svg"):  # the lobby's and the game's error too
        r = c.get(path)
        assert "goals line" in r.text and not any(g in r.text for g in cards[:2]), (path, r.text)
    twice = text.replace(cards[1], cards[0], 1)  # a line that reads, but deals one card twice (X001)
    (tmp_path / "x.dn").write_text(twice, encoding="utf-8")
    r = c.get("/api/games/x")
    assert r.status_code == 422 and "X001" in r.text and cards[0] not in r.text
    (tmp_path / "x.dn").write_text(broken, encoding="utf-8")
    twin = broken.replace(cards[0], cards[1] if cards[1] != cards[0] else cards[2])
    rev = c.get("/api/games/x/rev").json()["rev"]
    (tmp_path / "x.dn").write_text(twin, encoding="utf-8")
    assert c.get("/api/games/x/rev").json()["rev"] == rev  # the secret cards changed, nothing shown did


def test_a_seat_moves_only_at_the_turn_it_was_checked_at(two, monkeypatch):
    """Two moves sent at once by the seat to move: the second is made at the next turn, someone else's, and
    refused, never recorded as the other player's."""
    c, seat = two
    from drunter_notation.table import store as table_store
    real = table_store.Tables.change

    def after_another(self, table, turn, act, view, **kw):  # the other request's move comes first
        monkeypatch.setattr(table_store.Tables, "change", real)
        real(self, table, None, lambda g: g.push("S1 a2"), view)
        return real(self, table, turn, act, view, **kw)
    monkeypatch.setattr(table_store.Tables, "change", after_another)
    r = c.post("/api/seat/t/moves", json={"move": "S1 a3"}, headers=seat["Anna"])
    assert r.status_code == 409
    assert [e["dn"] for e in c.get("/api/games/t").json()["events"]] == ["1. Anna S1 a2"]


def test_a_link_to_no_game_or_a_broken_one_tells_nothing(two, tmp_path):
    c, seat = two
    nothing = c.get("/api/seat/t", headers={"X-Drunter-Seat": "x"})
    for path in ("/api/seat/nosuchgame", "/api/seat/nosuchgame/board.svg", "/api/seat/nosuchgame/hint"):
        r = c.get(path, headers=seat["Anna"])
        assert (r.status_code, r.json()) == (403, nothing.json()) and str(tmp_path) not in r.text
    assert c.post("/api/seat/nosuchgame/lay", json={"cards": ["JA"]}, headers=seat["Anna"]).status_code == 403
    (tmp_path / "t.dn").write_text('[Players "Anna, Ben"]\n\n1. Anna goals: museum, church\n', encoding="utf-8")
    for path in ("/api/seat/t", "/api/seat/t/hint"):
        r = c.get(path, headers=seat["Anna"])
        assert r.status_code == 409 and "museum" not in r.text and "P001" not in r.text, path


def test_names_a_record_cannot_keep_are_refused(tmp_path):
    c = TestClient(create_app(folder(tmp_path)), base_url=BASE)
    for players in (["Anna, Ben", "Cleo"], ["Anna,Ben", "Cleo"], [" Anna", "Ben"]):
        r = c.post("/api/games", json={"name": "n", "players": players, "board": "tiny.toml", "deal": "random"})
        assert r.status_code == 400 and "players" in r.json()["error"]
    assert not (tmp_path / "n.dn").exists()


def test_an_emoji_sequence_is_a_name_a_bidi_override_is_not(tmp_path):
    c = TestClient(create_app(folder(tmp_path)), base_url=BASE)
    coder = "\U0001f469\u200d\U0001f4bb"  # woman technologist: two emoji and a zero-width joiner
    r = c.post("/api/games", json={"name": f"{coder} game", "players": ["Anna", coder], "board": "tiny.toml"})
    assert r.status_code == 201 and [p["name"] for p in r.json()["players"]] == ["Anna", coder]
    for bad in ({"name": "x", "players": ["Anna", "B\u202een"]}, {"name": "\u202ex", "players": ["Anna", "Ben"]}):
        assert c.post("/api/games", json=bad | {"board": "tiny.toml"}).status_code == 400


def test_event_streams_are_bounded(two):
    c, _ = two
    hub = c.app.hub
    hub.waiters["t"] = {object(): None for _ in range(events.MAX_PER_GAME)}
    r = c.get("/api/games/t/events")
    assert r.status_code == 503 and "too many" in r.json()["error"]
    hub.waiters["t"] = {}
    hub.close()
    assert c.get("/api/games/t/events").status_code == 503


def test_pages_of_one_game_cannot_take_every_other_games_streams():
    """All streams taken: a page of a game with fewer ends the oldest stream of the game with the
    most; when no game has more than it would, it is refused (and its page fetches its view instead)."""
    import asyncio

    from conftest import run_async

    from drunter_notation.table.store import Refused

    async def scenario():
        hub = events.Hub()
        per = events.MAX_PER_GAME
        full = events.MAX_TOTAL // per
        hub.waiters = {f"flood-{g}": {asyncio.Event(): None for _ in range(per)} for g in range(full)}
        hub.waiters["rest"] = {asyncio.Event(): None for _ in range(events.MAX_TOTAL - full * per)}
        oldest = next(iter(hub.waiters["flood-0"]))
        hub.stream("t")
        assert oldest in hub.ended and oldest.is_set() and hub.count() == events.MAX_TOTAL
        assert hub.count("flood-0") == per - 1 and hub.count("t") == 1
        hub.waiters = {f"one-{g}": {asyncio.Event(): None} for g in range(events.MAX_TOTAL)}
        hub.ended.clear()
        with pytest.raises(Refused) as refused:
            hub.stream("t")
        assert refused.value.status == 503 and not hub.ended
    run_async(scenario())


def test_lan_addresses_never_the_wildcard(monkeypatch):
    ifaddr = pytest.importorskip("ifaddr")
    from drunter_notation.cli import play

    def adapter(*ips):
        return ifaddr.Adapter("x", "x", [ifaddr.IP(ip, 24, "x") for ip in ips])
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: [
        adapter("127.0.0.1", ("::1", 0, 0)), adapter("192.0.2.7", ("fe80::1", 0, 2), ("2001:db8::7", 0, 0))])
    assert play._addresses("0.0.0.0") == ["192.0.2.7", "127.0.0.1"]
    assert play._addresses("::") == ["192.0.2.7", "2001:db8::7", "127.0.0.1"]
    assert play._addresses("192.0.2.7") == ["192.0.2.7"]
    assert play._url("2001:db8::7", 8000) == "http://[2001:db8::7]:8000/"
    monkeypatch.setattr(ifaddr, "get_adapters", lambda: [adapter("127.0.0.1")])
    assert play._addresses("0.0.0.0") == ["127.0.0.1"]  # no network: this machine only, never 0.0.0.0


# -- no secret leaks: the non-interference proof ------------------------------------------------

def other_cards(cards: dict, keep: str | None, pool: tuple[str, ...], pairs: bool) -> dict:
    """Cards like ``cards`` but every player's but ``keep``'s different (a valid deal still)."""
    out = {keep: cards[keep]} if keep else {}
    taken = set(cards[keep]) if keep and pairs else {cards[keep]} if keep else set()
    spare = [c for c in pool if c not in taken]
    for p, c in cards.items():
        if p == keep:
            continue
        mine = set(c) if pairs else {c}
        fresh = [x for x in spare if x not in mine]
        pick = (fresh[0], fresh[1]) if pairs else fresh[0]
        for x in (pick if pairs else (pick,)):
            spare.remove(x)
        out[p] = list(pick) if pairs else pick
    return out


def probes(app) -> list[tuple[str, str, dict | None]]:
    """Every route of the app (``app.routes``; a new one is probed at once) as
    (method, path, body): GETs as they are, POSTs with bodies every route refuses
    or answers without a change (a secret must not show in a refusal either)."""
    out = []
    for route in app.routes:
        if isinstance(route, Mount):
            out += [("GET", f"/static/{p.name}", None) for p in sorted(STATIC.iterdir())]
            continue
        assert isinstance(route, Route), route
        path = route.path.replace("{name}", "g")
        assert "{" not in path, f"a route with a parameter the test does not fill: {route.path}"
        for method in sorted(route.methods - {"HEAD"}):
            if method == "GET":
                out.append(("GET", path, None))
            else:
                out += [("POST", path, {"move": "S9 z9", "turn": 999}),
                        ("POST", path, {"cards": ["JA"], "side": "x", "keep": "x", "vote": {}, "turn": 999})]
    return out


def answer(client: TestClient, method: str, path: str, body, headers) -> tuple:
    """Status, headers and body; the two worlds' folders (world-A, world-B) named alike,
    as a board's path is public and differs only there."""
    if path.endswith("/events"):
        with client.stream(method, path, headers=headers) as r:
            first = next(r.iter_raw(), b"") if r.status_code == 200 else r.read()
            return r.status_code, first
    r = client.request(method, path, json=body, headers=headers)
    kept = sorted((k, v) for k, v in r.headers.items() if k not in ("date", "content-length"))
    return r.status_code, kept, r.content.replace(b"world-B", b"world-A")


def compare(a: TestClient, b: TestClient, observer: str | None, seat: dict, where: str, full: bool) -> int:
    """Every probe asked of both worlds (not ``full``: the GETs of the game's routes only):
    the answers must be the same. Returns how many."""
    n = 0
    app = a.app
    while not hasattr(app, "routes"):  # the Starlette app inside its middlewares
        app = app.app
    for method, path, body in probes(app):
        if not full and (method != "GET" or "/g" not in path):
            continue
        for who in [observer] if path.startswith("/api/seat/") else [None]:
            headers = {"X-Drunter-Seat": seat[who]} if who else {"X-Drunter-Seat": "not-a-seat"}
            got_a, got_b = answer(a, method, path, body, headers), answer(b, method, path, body, headers)
            assert got_a == got_b, f"{where}: {method} {path} as {observer or 'the public'} tells the worlds apart"
            if method == "GET" and path in ("/api/games/g", "/api/seat/g") and (who or path == "/api/games/g"):
                assert got_a[0] == 200, f"{where}: {path} answers {got_a[0]}: the proof would be empty"
            n += 1
    return n


GAMES = [  # (players, variant, deal): dealt by the app, entered at the table, expert; all three in CI's long pass
    pytest.param(["Anna", "Ben", "Cem", "Dora"], "base", "random", marks=LONG),
    pytest.param(["Anna", "Ben"], "base", "entered", marks=LONG),
    pytest.param(["Anna", "Ben"], "expert", "random", marks=LONG),
]


@pytest.mark.slow
@pytest.mark.parametrize("players,variant,deal", GAMES)
def test_no_route_tells_a_secret(tmp_path, players, variant, deal):
    key = b"0123456789abcdef0123456789abcdef0123456789abcdef\n"
    # world A: the game as the app makes it; its public record, whatever the deal
    a_dir = folder(tmp_path / "world-A", key)
    a = TestClient(create_app(a_dir), base_url=BASE)
    spec = {"name": "g", "players": players, "board": "tiny.toml", "variant": variant}
    if deal == "random":
        assert a.post("/api/games", json=spec | {"deal": "random"}).status_code == 201
    else:
        assert a.post("/api/games", json=spec | {"deal": {"hands": HANDS, "cards": {"Anna": "museum", "Ben": "school"}}}
                      ).status_code == 201
    first = Game.from_dn((a_dir / "g.dn").read_text(encoding="utf-8"), str(a_dir / "g.dn"))
    if first.cards is None:
        first.set_cards(json.loads((a_dir / "g.cards.json").read_text(encoding="utf-8")))
    cards = {p: list(c) if variant == "expert" else c[0] for p, c in first.cards.items()}
    seat = tokens(a, "g")
    start = {f.name: f.read_bytes() for f in a_dir.glob("g.*")}
    checked = 0
    for observer in [None, *players]:
        for f, data in start.items():  # world A afresh, at the start
            (a_dir / f).write_bytes(data)
        # world B: the same public game; every secret but the observer's own is different
        b_dir = folder(tmp_path / "world-B", key)
        for old in b_dir.glob("g.*"):
            old.unlink()
        b_cards = other_cards(cards, observer, GOALS if variant == "expert" else BUILDINGS, variant == "expert")
        b_game = Game.new(players, board=str(b_dir / "tiny.toml"), variant=variant,
                          hands={p: dict(h) for p, h in first.dealt.items()}, cards=b_cards)
        b_game.board_tag = b_game.board_ref = "tiny.toml"
        (b_dir / "g.dn").write_text(b_game.to_dn() if variant == "expert" else (a_dir / "g.dn").read_text())
        shutil.copy(a_dir / ".g.salt", b_dir / ".g.salt")  # like the key: the observer's link opens both
        if variant == "base":
            (b_dir / "g.cards.json").write_text(json.dumps(b_cards))
        a = TestClient(create_app(a_dir), base_url=BASE)
        b = TestClient(create_app(b_dir), base_url=BASE)
        worlds = (a, b)
        for _ in range(60):
            s = a.get("/api/games/g").json()
            if s["over"]:
                break
            checked += compare(a, b, observer, seat, f"turn {s['turn']}", s["turn"] == 1)
            if s["choice_due"]:  # each seat keeps a goal, A and B differently but the observer
                for i, p in enumerate(players):
                    for w, world in enumerate(worlds):
                        keep = cards[p][0] if p == observer else (b_cards if w else cards)[p][i % 2]
                        world.post("/api/seat/g/choose", json={"keep": keep}, headers={"X-Drunter-Seat": seat[p]})
                    if i == 0:
                        checked += compare(a, b, observer, seat, f"turn {s['turn']}, mid-choice", True)
                continue
            m = next((m for m in s["legal"] if m["needs_vote"]), s["legal"][0] if s["legal"] else None)
            if m and m["needs_vote"]:  # a secret ballot, all laid but one: A's and B's cards differ
                for world in worlds:
                    assert world.post("/api/games/g/ballot", json={"move": m["move"]}).status_code == 200
                for i, p in enumerate(s["vote_order"][:-1]):
                    held = sorted(set(s["players"][players.index(p)]["cards"]))
                    for w, world in enumerate(worlds):
                        laid = held[0] if p == observer else held[(i + w) % len(held)]
                        assert world.post("/api/seat/g/lay", json={"cards": [laid]},
                                          headers={"X-Drunter-Seat": seat[p]}).status_code == 200
                checked += compare(a, b, observer, seat, f"turn {s['turn']}, mid-vote", True)
                for world in worlds:
                    world.post("/api/games/g/ballot/cancel", json={})
            body = {"move": "pass"} if m is None else {"move": m["move"]}
            if m and m["needs_vote"]:
                body["vote"] = {p: ["?"] for p in players}
            for world in worlds:
                assert world.post("/api/games/g/moves", json=body).status_code == 200
        else:
            pytest.fail("the game did not end")
        # over and revealed: now the worlds differ, as they must (the method can see a difference)
        assert a.get("/api/games/g").json()["result"] != b.get("/api/games/g").json()["result"]
    assert checked > 500


@pytest.mark.slow
def test_the_server_stops_at_once_with_pages_listening(play_server, tmp_path):
    """Ctrl+C with open event streams: the streams end first, so the server does not
    wait for them (it would, for ever, without; uvicorn's backstop would say so)."""
    import http.client
    import signal
    from urllib.parse import urlparse

    with play_server(folder(tmp_path)) as (proc, url, _):
        where = urlparse(url)
        conn = http.client.HTTPConnection(where.hostname, where.port, timeout=20)
        conn.request("POST", "/api/games", json.dumps({"name": "g", "players": ["Anna", "Ben"], "board": "tiny.toml",
                                                       "deal": "random"}), {"Content-Type": "application/json"})
        assert conn.getresponse().status == 201
        listening = []
        for _ in range(3):
            c = http.client.HTTPConnection(where.hostname, where.port, timeout=20)
            c.request("GET", "/api/games/g/events")
            r = c.getresponse()
            assert r.readline() == b"retry: 1000\n"
            listening.append(r)
        proc.send_signal(signal.SIGINT)
        proc.wait(20)  # ends as without any page open
        for r in listening:
            assert r.read() in (b"", b"event: change\ndata: 0\n\n")  # the stream ends cleanly
        assert "timeout graceful shutdown exceeded" not in proc.stderr.read()


@pytest.fixture(scope="module")
def voting(tmp_path_factory):
    """A 2-player game at turn 3, where Anna's S2 b2-c2 goes to the vote."""
    c = TestClient(create_app(folder(tmp_path_factory.mktemp("voting"))), base_url=BASE)
    c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "board": "tiny.toml",
                               "deal": {"hands": HANDS, "cards": {"Anna": "townhall", "Ben": "tavern"}}})
    c.post("/api/games/t/moves", json={"move": "S1 a2"})
    c.post("/api/games/t/moves", json={"move": "R2 f5-f4"})
    return c, {p: {"X-Drunter-Seat": t} for p, t in tokens(c, "t").items()}


CARDS = st.lists(st.sampled_from(["JA", "JAA", "JAAA", "NE", "NEE", "NEEE", "?"]), min_size=1, max_size=3, unique=True)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(st.sampled_from(["Anna", "Ben"]), st.one_of(st.none(), CARDS)), max_size=6))
def test_what_anyone_sees_of_a_ballot_being_laid(voting, steps):
    """Any run of laying and taking back: until the last card is laid, the public view
    and the other seat show who has laid and nothing of what; each seat sees its own."""
    c, seat = voting
    c.post("/api/games/t/ballot/cancel", json={})
    assert c.post("/api/games/t/ballot", json={"move": "S2 b2-c2", "turn": 3}).status_code == 200
    laid: dict[str, list[str]] = {}
    for player, cards in steps:
        if len(laid) == 2:
            break  # turned over: public from here on
        assert c.post("/api/seat/t/lay", json={"cards": cards}, headers=seat[player]).status_code == 200
        if cards is None:
            laid.pop(player, None)
        else:
            laid[player] = cards
        if len(laid) == 2:
            break
        public = c.get("/api/games/t").json()["vote"]
        assert public["laid"] == [p for p in ("Anna", "Ben") if p in laid] and public["ballots"] is None
        assert "mine" not in public and public["count"] is None
        for p in ("Anna", "Ben"):
            mine = c.get("/api/seat/t", headers=seat[p]).json()["vote"]
            assert mine["mine"] == laid.get(p) and mine["ballots"] is None and mine["count"] is None
    if len(laid) == 2:  # the last card turned everything over and the engine played the turn
        state = c.get("/api/games/t").json()
        assert state["turn"] == 4 and state["vote"] is None
        assert all(f"{p}: {' '.join(cs)}" in state["last_vote"]["dn"] for p, cs in laid.items())
        c.post("/api/games/t/undo", json={"turn": 4})


def test_off_loopback_a_phone_gets_its_seat_and_nothing_else(tmp_path):
    """With the host's token required (a server on the LAN), a seat's page and API want
    the seat's token instead; everything else still wants the host's."""
    c = TestClient(create_app(folder(tmp_path), token="s3cret", links=("http://192.0.2.2:8000/",)), base_url=BASE)
    host = {"X-Drunter-Token": "s3cret"}
    assert c.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "board": "tiny.toml",
                                      "deal": "random"}, headers=host).status_code == 201
    links = c.get("/api/games/t/seats", headers=host).json()
    assert links["reachable"] and links["seats"][0]["links"][0].startswith("http://192.0.2.2:8000/seat/t#")
    anna = {"X-Drunter-Seat": links["seats"][0]["links"][0].split("#")[1]}
    assert c.get("/seat/t").status_code == 200 and c.get("/static/seat.js").status_code == 200
    assert c.get("/api/seat/t", headers=anna).json()["me"]["name"] == "Anna"
    for path in ("/api/games", "/api/games/t", "/api/games/t/seats", "/api/games/t/events", "/"):
        assert c.get(path, headers=anna).status_code == 403, path


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                         lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids,
                                                                                   max_size=4), max_leaves=12),
       route=st.sampled_from(["seat/t/moves", "seat/t/ballot", "seat/t/ballot/cancel", "seat/t/lay", "seat/t/jein",
                              "seat/t/choose", "games/t/ballot", "games/t/ballot/cancel"]),
       key=st.sampled_from(["move", "cards", "side", "keep", "turn"]),
       who=st.sampled_from(["Anna", "Ben"]))
def test_no_body_makes_a_seat_route_fail(voting, body, route, key, who):
    """Whatever JSON a seat or the host sends, the answer is a 2xx or 4xx with one line, never a 500."""
    c, seat = voting
    for payload in (body, {key: body}, {"move": "S2 b2-c2", key: body}):
        r = c.post(f"/api/{route}", json=payload, headers=seat[who])
        assert r.status_code < 500, (payload, r.text)
        if r.status_code >= 400:
            assert "\n" not in r.json()["error"]


def test_a_refused_turn_over_is_worded_in_each_reader_s_language(two, monkeypatch):
    monkeypatch.setattr(Game, "check_ballot", lambda self, player, cards: None)  # as in the test above
    c, seat = two
    c.post("/api/seat/t/moves", json={"move": "S1 a2"}, headers=seat["Anna"])
    c.post("/api/seat/t/moves", json={"move": "R2 f5-f4"}, headers=seat["Ben"])
    c.post("/api/games/t/ballot", json={"move": "S2 b2-c2"})
    c.post("/api/seat/t/lay", json={"cards": ["JA", "JA"]}, headers=seat["Anna"])
    c.post("/api/seat/t/lay", json={"cards": ["NE"]}, headers={**seat["Ben"], "Accept-Language": "cs"})
    german = c.get("/api/seat/t", headers={**seat["Anna"], "Accept-Language": "de"}).json()["vote"]["problem"]
    english = c.get("/api/games/t", headers={"Accept-Language": "en"}).json()["vote"]["problem"]
    assert "Fehler[B003]" in german and "error[B003]" in english
    monkeypatch.undo()  # and the seat that lays it is told in its own language
    c.post("/api/seat/t/lay", json={"cards": ["NE"]}, headers=seat["Ben"])
    r = c.post("/api/seat/t/lay", json={"cards": ["JA", "JA"]}, headers={**seat["Anna"], "Accept-Language": "cs"})
    assert r.status_code == 422 and "chyba[B003]" in r.text
