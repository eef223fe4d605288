"""A seeded fuzzer for the table core: the JSON API of ``drunter play`` and of the browser
edition's table, driven in memory as a page's worker drives it (no server, the bots in
the caller).

Input ``i`` of seed ``s``, made by ``random.Random(f"table-{s}-{i}")`` alone, is a run of
requests to a fresh core: new games (two to four players, bots now and then, the expert
variant, hints), then mostly what a table does -- a seat's legal move, a ballot laid, a
joker declared, an undo, a take-back, a repair, a reveal -- with now and then an odd
value for one field of a body (``apifuzz``'s), an odd body, an odd game id or path, a
token of another seat or of nobody, an odd method.

The core runs as in the browser edition's worker (its runtime: one caller, no thread).
A finding is: an exception out of the core; a status of 500 or more, or one no route
answers with; an error that is not one printable line; a body JSON cannot carry
(``NaN``, a value that is not JSON); a seat's answer that holds another seat's token;
a record the table wrote that ``validate`` finds an error in; more than
``dnfuzz.MAX_SECONDS`` of CPU. The CI slice is ``test_table_fuzz_slice_finds_nothing``
in ``tests/fuzz/test_fuzz.py``; a long run and a replay::

    python tests/fuzz/tablefuzz.py --inputs 20000
    python tests/fuzz/tablefuzz.py --seed 1 --only 4711
"""
from __future__ import annotations

import asyncio
import json
import random
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # run as a script: its neighbours next to it

import apifuzz
import dnfuzz

from drunter_notation.cli.table_worker import WorkerRuntime
from drunter_notation.errors import DnError
from drunter_notation.game import Game
from drunter_notation.table.bots import InlineThinker
from drunter_notation.table.core import TableCore
from drunter_notation.table.store import MemoryStorage

NAMES = ("Anna", "Ben", "Cleo", "Dora")
STATUSES = {200, 201, 400, 403, 404, 405, 409, 410, 413, 415, 422, 429, 503}
HOST = ("moves", "undo", "tally", "reveal", "adjudicate", "takeback", "replay", "source", "repair", "ballot",
        "ballot/cancel", "autoplay", "rev", "board.svg", "seats")
SEAT = ("", "moves", "ballot", "ballot/cancel", "lay", "jein", "choose", "board.svg")
FIELDS = ("move", "turn", "vote", "jein", "keep", "cards", "side", "text", "rev", "line", "cut", "name", "players",
          "deal", "bots", "hints", "paused", "delay_ms", "board", "rules", "variant", "title", "seat")
NO_BREAK = str.maketrans("", "", "\u00a0\u202f")  # the languages write them in numbers


class Table:
    """A fresh core and what the fuzzer knows of it: its games and their players."""

    def __init__(self) -> None:
        self.storage = MemoryStorage()
        self.core = TableCore(self.storage, WorkerRuntime(lambda name: None), InlineThinker(), delay_ms=0)
        self.games: dict[str, list[str]] = {}
        self.broken: set[str] = set()  # records put in the folder that validate refuses: the table need not mend them

    def token(self, name: str, seat: int) -> str:
        return self.core.keys.token(name, seat, self.games[name][seat])

    def tokens(self) -> list[str]:
        return [self.token(n, i) for n, players in self.games.items() for i in range(len(players))]

    async def ask(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        reply = await self.core.request(method, path, body, token)
        _judge(reply.status, reply.body, path)
        if method == "DELETE" and reply.status == 200 and isinstance(reply.body, dict):
            gone = str(reply.body.get("deleted"))
            self.games.pop(gone, None)
            if gone in self.broken:  # kept apart as it was
                self.broken.add(str(reply.body.get("archived")).removesuffix(".dn"))
        if token is not None and isinstance(reply.body, dict):
            text = json.dumps(reply.body, ensure_ascii=False)
            leaked = [t for t in self.tokens() if t != token and t in text]
            if leaked:
                raise AssertionError(f"{path}: a seat's answer holds another seat's token")
        return reply.status, reply.body


def _judge(status: int, body: Any, path: str) -> None:
    if status not in STATUSES:
        raise AssertionError(f"{path}: status {status}")
    if isinstance(body, str):
        return
    # what the server's JSONResponse does: a NaN, a non-JSON value or half of a UTF-16 pair is a 500
    json.dumps(body, ensure_ascii=False, allow_nan=False).encode("utf-8")
    if status >= 400:
        error = body.get("error") if isinstance(body, dict) else None
        if not isinstance(error, str) or "\n" in error or not error.translate(NO_BREAK).isprintable():
            raise AssertionError(f"{path}: status {status} with the error {str(error)[:160]!r}")


def _odd(rng: random.Random) -> Any:
    """An odd JSON value (the transports hand the core nothing else)."""
    value = apifuzz.odd(rng)
    return json.loads(json.dumps(value, default=repr)) if rng.random() < 0.9 else rng.choice(
        (float("nan"), float("inf"), 10**400, -0.0, [[[[[]]]]], {"": {"": {}}}))


def _name(rng: random.Random, table: Table) -> str:
    if table.games and rng.random() < 0.9:
        return rng.choice(list(table.games))
    return rng.choice(("nope", "", "a/b", "..", "%2e%2e", "x" * 300, "Friday" + rng.choice(dnfuzz.HOSTILE), "t"))


def _new_game_body(rng: random.Random) -> dict[str, Any]:
    players = list(NAMES[:rng.randint(2, 4)])
    if rng.random() < 0.1:  # a name the record quotes: the masking of a goals line must read it whole
        players[0] = rng.choice(('A:#x', 'B "C"', "D: E", "F#"))
    body: dict[str, Any] = {"name": rng.choice(("t", "u", "Friday", f"g{rng.randrange(5)}")), "players": players}
    if rng.random() < 0.3:
        body["variant"] = "expert"
    if rng.random() < 0.8:  # dealt from the input's own seed ("random" would deal from the system's)
        dealt = Game.new(players, variant=body.get("variant", "base"), seed=rng.randrange(10**6))
        body["deal"] = {"hands": {p: " ".join(f"{t}x{n}" for t, n in h.items() if n) for p, h in dealt.state.hands.items()},
                        "cards": {p: list(c) if len(c) > 1 else c[0] for p, c in dealt.cards.items()}}
    if rng.random() < 0.3:
        body["bots"] = {p: rng.choice(("greedy", "random", "builder")) for p in players[1:] if rng.random() < 0.6}
    if rng.random() < 0.2:
        body["hints"] = True
    if rng.random() < 0.2:
        body["board"] = rng.choice(("tiny.toml", "schilda", "nope.toml"))
    return body


async def _seat_turn(rng: random.Random, table: Table, name: str) -> None:
    """What a seat's page would do now: a legal move, a ballot laid, a joker declared, a goal kept."""
    seat = rng.randrange(len(table.games[name]))
    token = table.token(name, seat)
    status, view = await table.ask("GET", f"/api/seat/{name}", token=token)
    if status != 200 or view.get("over"):
        return
    v, me = view.get("vote"), view["me"]["name"]
    if view.get("choice_due") and me not in view.get("chosen", ()):
        goals = view["me"].get("goals") or ["?"]
        await table.ask("POST", f"/api/seat/{name}/choose", {"keep": rng.choice(goals)}, token)
    elif v and not v["shown"] and me not in v.get("laid", ()):
        await table.ask("POST", f"/api/seat/{name}/lay", {"cards": [rng.choice(("?", "JA", "NE", "JEIN", "JAA"))]},
                        token)
    elif v and v["shown"] and me in (v.get("jein_due") or ()):
        await table.ask("POST", f"/api/seat/{name}/jein", {"side": rng.choice(("yes", "no"))}, token)
    elif view.get("to_move") == me and not v:
        legal = view.get("legal") or []
        if not legal:
            await table.ask("POST", f"/api/seat/{name}/moves", {"move": "pass", "turn": view.get("turn")}, token)
            return
        m = rng.choice(legal)
        route = "ballot" if m["needs_vote"] else "moves"
        await table.ask("POST", f"/api/seat/{name}/{route}", {"move": m["move"], "turn": view.get("turn")}, token)


def _body(rng: random.Random, table: Table, name: str) -> Any:
    """A body for a host's or a seat's change: plausible fields, one odd now and then."""
    if rng.random() < 0.05:
        return _odd(rng)
    body: dict[str, Any] = {}
    for key in rng.sample(FIELDS, rng.randint(0, 3)):
        body[key] = _odd(rng)
    if rng.random() < 0.5:
        body["move"] = rng.choice(("pass", "W1 b2", "S2 c3-c4", "choose", apifuzz._text(rng, Game.new(["A", "B"], seed=rng.randrange(100)))))
    if rng.random() < 0.3:
        body["turn"] = rng.choice((1, 2, 0, -1, 10**12, "1", None, 1.5))
    if rng.random() < 0.2 and name in table.storage.files:
        text = table.storage.files[name]
        body["text"] = rng.choice(dnfuzz.TEXT_MUTATIONS)(rng, text) if rng.random() < 0.7 else text
    return _as_text(rng, _half_a_pair(rng, body))


def _half_a_pair(rng: random.Random, body: dict[str, Any]) -> dict[str, Any]:
    """Now and then half of a UTF-16 pair in a field, which JSON can spell and no file can hold."""
    if rng.random() < 0.1:
        body[rng.choice(("move", "text", "keep", "name", "rules", "jein"))] = rng.choice(
            ("\ud800", "S1 a2\udfff", {"Anna": "\ud83d"}, ["\udc00"]))
    return body


def _as_text(rng: random.Random, body: Any) -> Any:
    """The body as a transport hands it over: often the value, sometimes its JSON text (the server's way)."""
    return json.dumps(body, ensure_ascii=rng.random() < 0.5, default=repr) if rng.random() < 0.3 else body


def _host_body(rng: random.Random, route: str, game: dict[str, Any]) -> dict[str, Any]:
    """What the host page sends on ``route`` for ``game`` as it stands, one field odd now and then."""
    players = [p["name"] for p in game["players"]]
    legal = [m["move"] for m in game.get("legal") or []] or ["pass"]
    cards = {p: [rng.choice(("JA", "NE", "JEIN", "JAA", "NEE", "?"))] for p in players}
    body: dict[str, Any] = {"turn": game.get("turn")}
    if route in ("moves", "ballot", "adjudicate"):
        body |= {"move": rng.choice(legal), "vote": cards if rng.random() < 0.5 else None}
    elif route == "tally":
        body |= {"vote": cards, "jein": {p: rng.choice(("yes", "no")) for p in players}}
    elif route == "takeback":
        body["keep"] = rng.randint(0, max(0, len(game.get("events") or ()) - 1))
    elif route == "reveal":
        body |= {"cards": {p: rng.choice(("museum", "tavern", "school", "church", "townhall", "firehouse"))
                           for p in players}}
    elif route == "repair":
        body = {"rev": game.get("rev"), "cut": True} if rng.random() < 0.3 else {
            "rev": game.get("rev"), "line": rng.randint(1, 12), "text": rng.choice(("", "1. Anna pass", "% x"))}
    elif route == "autoplay":
        body = {"paused": rng.random() < 0.5, "delay_ms": rng.choice((0, 10, 10_000))}
    if rng.random() < 0.2:
        body[rng.choice((*body, *FIELDS))] = _odd(rng)
    return _half_a_pair(rng, body)


async def _request(rng: random.Random, table: Table) -> None:
    how = rng.random()
    if how < 0.12 or not table.games:
        body = _new_game_body(rng)
        if rng.random() < 0.15:
            body[rng.choice(list(body))] = _odd(rng)
        status, game = await table.ask("POST", "/api/games", body)
        if status == 201:
            table.games[game["name"]] = [p["name"] for p in game["players"]]
        return
    name = _name(rng, table)
    if how < 0.6 and name in table.games:
        await _seat_turn(rng, table, name)
    elif how < 0.8:
        route = rng.choice(HOST)
        method = "GET" if route in ("source", "rev", "board.svg", "seats") else "POST"
        body = None
        if method == "POST":
            status, game = await table.ask("GET", f"/api/games/{name}")
            body = _host_body(rng, route, game) if status == 200 and rng.random() < 0.7 else _body(rng, table, name)
        await table.ask(method, f"/api/games/{name}/{route}", body)
    elif how < 0.92:
        route = rng.choice(SEAT)
        token = rng.choice((None, "", "nope", "x" * 500, *table.tokens()))
        method = "GET" if route in ("", "board.svg") else "POST"
        await table.ask(method, f"/api/seat/{name}" + (f"/{route}" if route else ""),
                        _body(rng, table, name) if method == "POST" else None, token)
    elif how < 0.96:
        await table.ask(rng.choice(("GET", "DELETE", "PUT", "PATCH", "get", "\x00")), rng.choice((
            f"/api/games/{name}", "/api/games", "/api/options", f"/api/games/{name}/nothing", "/", "/api/seat/",
            f"/api/seat/{name}/hint/x")), _odd(rng) if rng.random() < 0.5 else None)
    elif name in table.games and rng.random() < 0.5:
        await table.ask("DELETE", f"/api/games/{name}")
    else:
        await table.ask("GET", f"/api/games/{name}")


async def _play(seed: int, index: int) -> None:
    rng = random.Random(f"table-{seed}-{index}")
    table = Table()
    for k in range(rng.choice((0, 0, 1, 3))):  # records already in the folder, as a club's are: dnfuzz's, changed
        _, data = dnfuzz.make_input(seed, index * 3 + k)
        text = data.decode("utf-8", "replace")
        table.storage.write(f"r{k}", text, None)
        if not _valid(text):
            table.broken.add(f"r{k}")
        table.games[f"r{k}"] = re.findall(r"[^,]+", (re.findall(r'\[Players "([^"]*)"\]', text) or ["Anna, Ben"])[0])
    table.core.start()
    try:
        for _ in range(rng.choice((1, 5, 40, 200))):
            await _request(rng, table)
            await asyncio.sleep(0)  # the bots' turn, as a page's worker gives them
    finally:
        table.core.pilot.close()
        table.core.coach.close()
    for name, text in table.storage.files.items():
        if name not in table.broken and not _valid(text):
            raise AssertionError(f"the table wrote {name}.dn, which validate refuses")


def _valid(text: str) -> bool:
    try:
        Game.from_dn(text)
    except DnError:
        return False
    return True


def check(seed: int, index: int) -> dnfuzz.Finding | None:
    start = time.process_time()
    try:
        asyncio.run(_play(seed, index))
    except Exception as e:
        return dnfuzz.Finding(seed, index, "exception", f"{type(e).__name__}: {str(e)[:200]}", "table", b"")
    spent = time.process_time() - start
    if spent > dnfuzz.MAX_SECONDS * 5:  # a run of up to 200 requests, each bounded alone
        return dnfuzz.Finding(seed, index, "slow", f"{spent:.2f} s of CPU", "table", b"")
    return None


def run(inputs: int, seed: int = 1) -> list[dnfuzz.Finding]:
    # On a thread of its own: a browser test earlier in the same pytest worker may hold the main thread's loop.
    with ThreadPoolExecutor(1) as pool:
        return [f for f in pool.map(lambda i: check(seed, i), range(inputs)) if f is not None]


def main(argv: list[str] | None = None) -> int:
    return apifuzz.script(__doc__, check, run, 2_000, argv)


if __name__ == "__main__":
    sys.exit(main())
