"""The table core (``drunter_notation.table``) as the browser edition's Play page drives it: a
transport with no server, thread or process, in the page's Web Worker under Pyodide
(docs/browser.md, docs/architecture.md "The table core and its transports").

The page asks the core's JSON API of docs/play.md (``ask``: method, path, body, seat
token) and is told of every change of a game (``tell``, a callable the worker gives).
The games live in memory; the page keeps each one in the browser's storage
(``export``, ``restore``), so a reload goes on where it stood. The computer's seats
play on the worker's event loop, thinking in the caller (``InlineThinker``).
"""
from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine
from contextlib import nullcontext
from typing import Any, TypeVar

from drunter_notation.i18n import _, using
from drunter_notation.table.bots import InlineThinker, Task
from drunter_notation.table.core import TableCore
from drunter_notation.table.store import MemoryStorage

T = TypeVar("T")
DELAY_MS = 400  # the computer's pace, so a person can follow its turns


class WorkerRuntime:
    """One caller, no threads: a blocking call runs at once, a spawned one on the worker's loop."""

    def __init__(self, tell: Callable[[str], object]):
        self.tell = tell

    async def blocking(self, work: Callable[[], T], table: str | None = None) -> T:
        return work()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def signal(self) -> asyncio.Event:
        return asyncio.Event()

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> Task:
        return asyncio.ensure_future(coroutine)

    def notify(self, name: str) -> None:
        self.tell(name)

    def present(self, name: str) -> set[str]:
        return set()  # one phone: no seat has a page of its own


class WorkerTable:
    """The core, its games in memory, and what the page asks of it."""

    def __init__(self, tell: Callable[[str], object]):
        self.storage = MemoryStorage()
        self.core = TableCore(self.storage, WorkerRuntime(tell), InlineThinker(), delay_ms=DELAY_MS)
        self.started = False

    async def ask(self, method: str, path: str, body: str, token: str | None) -> dict[str, Any]:
        """The core's answer to one request: ``{"status", "body"}`` (404, 405 as the server's)."""
        if not self.started:  # on the loop the bots will play on
            self.core.start()
            self.started = True
        reply = await self.core.request(method, path, body, token)
        return {"status": reply.status, "body": reply.body}

    def tokens(self, name: str, players: list[str]) -> dict[str, str]:
        """Each player's seat token: the page shows a seat's view only to that player."""
        return {p: self.core.keys.token(name, i, p) for i, p in enumerate(players)}

    def export(self, name: str) -> dict[str, Any]:
        """What the browser keeps of a game: its record, the changes journaled on it, the cards."""
        return {"text": self.storage.files.get(name), "journal": self.storage.journals.get(name, []),
                "cards": self.storage.kept_cards.get(name)}

    def restore(self, name: str, kept: dict[str, Any]) -> None:
        """A game the browser kept, put back before the core first reads it."""
        self.storage.write(name, str(kept["text"]), kept.get("cards"))
        if kept.get("journal"):
            self.storage.journals[name] = json.loads(json.dumps(kept["journal"]))


TABLE: list[WorkerTable] = []  # the worker's one table, made by start()


def start(tell: Callable[[str], object]) -> None:
    TABLE[:] = [WorkerTable(tell)]


async def ask(method: object, path: object, body: str, token: object, lang: object = None) -> str:
    """JSON in (the body), JSON out: what the worker passes on, in the page's language ``lang``
    (as the server's ``X-Drunter-Lang``): the views' words and the board's."""
    with using(lang) if isinstance(lang, str) and lang else nullcontext():
        if not (isinstance(method, str) and isinstance(path, str) and isinstance(token, (str, type(None)))):
            return _refused(_("table.ask(method, path, body, token): the method and the path are texts, the token "
                              "a text or null"))
        reply = await TABLE[0].ask(method, path, body, token)
    return json.dumps(reply, ensure_ascii=False)


def tokens(name: object, players: str) -> str:
    listed = json.loads(players)
    if not isinstance(name, str) or not isinstance(listed, list) or not all(isinstance(p, str) for p in listed):
        return _refused(_("table.tokens(game, players): the game's id and a list of its players' names"))
    return json.dumps(TABLE[0].tokens(name, listed))


def export(name: object) -> str:
    if not isinstance(name, str) or name not in TABLE[0].storage.files:
        return _refused(_("table.export(game): the id of a game of this table"))
    return json.dumps(TABLE[0].export(name), ensure_ascii=False)


def restore(name: object, kept: str) -> str:
    """A game kept by the browser put back, or ``{"error"}`` for what is not such a game (a storage changed)."""
    game = json.loads(kept)
    if not isinstance(name, str) or not isinstance(game, dict) or not isinstance(game.get("text"), str) \
            or not isinstance(game.get("journal", []), (list, type(None))):
        return _refused(_("table.restore(game, kept): what table.export(game) gave"))
    TABLE[0].restore(name, game)
    return "null"


def _refused(message: str) -> str:
    """A call's arguments of the wrong shape, answered as the game calls answer them (U002)."""
    return json.dumps({"error": {"code": "U002", "message": message}}, ensure_ascii=False)
