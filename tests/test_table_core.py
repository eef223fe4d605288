"""The table core (drunter_notation/table/) without a server: in memory, bots thinking
in the caller, driven by one event loop as a page's worker under Pyodide drives it."""
from __future__ import annotations

import asyncio

from conftest import run_async

from drunter_notation.table.bots import InlineThinker
from drunter_notation.table.core import TableCore
from drunter_notation.table.store import MemoryStorage


class Runtime:
    """One caller, no threads: blocking calls run at once, as in a page's worker."""

    def __init__(self) -> None:
        self.told: list[str] = []

    async def blocking(self, work, table=None):
        return work()

    async def sleep(self, seconds):
        await asyncio.sleep(0)

    def signal(self):
        return asyncio.Event()

    def spawn(self, coroutine):
        return asyncio.get_running_loop().create_task(coroutine)

    def notify(self, name):
        self.told.append(name)

    def present(self, name):
        return set()


async def ask(core: TableCore, method: str, path: str, body=None, token=None):
    reply = await core.request(method, path, body, token)
    return reply.status, reply.body


def test_a_game_with_a_bot_plays_in_memory_with_no_thread_and_no_process():
    async def main():
        runtime = Runtime()
        storage = MemoryStorage()
        core = TableCore(storage, runtime, InlineThinker(), delay_ms=0)
        core.start()
        status, game = await ask(core, "POST", "/api/games", {
            "name": "t", "players": ["Anna", "Ben"], "deal": "random", "bots": {"Ben": "greedy"}, "hints": True})
        assert status == 201 and game["bots"] == {"Ben": "greedy"} and game["hints"] == {"Anna": 0}
        anna = core.keys.token("t", 0, "Anna")
        for _ in range(200):
            status, seat = await ask(core, "GET", "/api/seat/t", token=anna)
            assert status == 200
            if seat["over"]:
                break
            v = seat["vote"]
            if v and not v["shown"] and "Anna" not in v["laid"]:
                await ask(core, "POST", "/api/seat/t/lay", {"cards": ["?"]}, anna)
            elif v and v["shown"] and "Anna" in (v["jein_due"] or []):
                await ask(core, "POST", "/api/seat/t/jein", {"side": "no"}, anna)
            elif seat["to_move"] != "Anna" or v is not None:
                await asyncio.sleep(0.01)  # the bot's turn or its ballot: it plays on the loop
            elif not seat["legal"]:
                assert (await ask(core, "POST", "/api/seat/t/moves", {"move": "pass", "turn": seat["turn"]}, anna))[0] \
                    == 200
            else:
                m = seat["legal"][0]
                path = "/api/seat/t/ballot" if m["needs_vote"] else "/api/seat/t/moves"
                assert (await ask(core, "POST", path, {"move": m["move"], "turn": seat["turn"]}, anna))[0] == 200
        status, game = await ask(core, "GET", "/api/games/t")
        assert status == 200 and len(game["events"]) >= 4
        assert "t" in runtime.told and "[Bots \"-, greedy\"]" in storage.files["t"]
        status, problem = await ask(core, "GET", "/api/games/nope")
        assert status == 404 and problem["error"]
        assert (await ask(core, "GET", "/api/nothing"))[1]["code"] == "not-found"
        assert (await ask(core, "PUT", "/api/games/t"))[1] == {
            "error": "/api/games/t does not take PUT", "code": "method-not-allowed",
            "data": {"path": "/api/games/t", "method": "PUT"}}
        core.close()
    run_async(main())


def test_the_core_keeps_its_journal_in_the_storage_and_reads_it_back():
    async def main():
        storage = MemoryStorage()
        core = TableCore(storage, Runtime(), InlineThinker())
        status, game = await ask(core, "POST", "/api/games", {"name": "t", "players": ["Anna", "Ben"]})
        assert status == 201
        status, game = await ask(core, "POST", "/api/games/t/moves", {"move": "pass", "turn": 1})
        assert status == 200 and game["turn"] == 2
        assert storage.journals["t"][1] == {"op": "push", "move": "pass", "vote": None, "jein": None, "keep": None}
        again = TableCore(storage, Runtime(), InlineThinker())  # what a reload of the page's worker sees
        status, game = await ask(again, "GET", "/api/games/t")
        assert status == 200 and game["turn"] == 2
    run_async(main())


def test_a_deleted_games_seat_links_open_nothing_in_a_new_game_of_its_name():
    async def main():
        core = TableCore(MemoryStorage(), Runtime(), InlineThinker(), delay_ms=0)
        core.start()
        spec = {"name": "Friday", "players": ["Anna", "Ben"], "deal": "random"}

        async def links():
            status, seats = await ask(core, "GET", "/api/games/Friday/seats")
            assert status == 200
            return [s["links"][0].split("#", 1)[1] for s in seats["seats"]]

        assert (await ask(core, "POST", "/api/games", spec))[0] == 201
        old = await links()
        assert (await ask(core, "GET", "/api/seat/Friday", token=old[1]))[1]["me"]["name"] == "Ben"
        assert (await ask(core, "DELETE", "/api/games/Friday"))[0] == 200
        assert (await ask(core, "POST", "/api/games", spec))[0] == 201
        new = await links()
        assert set(new).isdisjoint(old)
        for token in old:
            assert (await ask(core, "GET", "/api/seat/Friday", token=token))[0] == 403
        assert (await ask(core, "GET", "/api/seat/Friday", token=new[0]))[1]["me"]["name"] == "Anna"
        core.close()
    run_async(main())


def test_what_no_page_sends_is_refused_in_one_line_not_raised():
    """Bodies that are no JSON object, a method with a control character, players that are not names
    beside bots: the core answers each as the server does (found by tests/fuzz/tablefuzz.py)."""
    async def main():
        core = TableCore(MemoryStorage(), Runtime(), InlineThinker(), delay_ms=0)
        for body in ([1], "[1]", "{", 7, True, "null"):
            status, problem = await ask(core, "POST", "/api/games", body)
            assert status == 400 and problem["error"].startswith("the body is"), (body, problem)
        status, problem = await ask(core, "\x00", "/api/games")
        assert status == 405 and problem["error"] == "/api/games does not take \\x00"
        status, problem = await ask(core, "POST", "/api/games", {"name": "t", "players": [{"a": 1}, "Ben"],
                                                                 "deal": "random", "bots": {"Ben": "greedy"}})
        assert status == 400 and problem["error"].startswith("players:")
        assert (await ask(core, "POST", "/api/games", '{"name": "t", "players": ["Anna", "Ben"]}'))[0] == 201
    run_async(main())
