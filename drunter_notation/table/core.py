"""The table core: one object, :class:`TableCore`, with every route of the table's
JSON API (:attr:`TableCore.routes`) as a coroutine ``work(call) -> Reply`` that any
transport drives: the Starlette server (``web/``) and a page's worker under Pyodide
alike. It holds no socket, starts no thread or process and imports no server: what
it needs of its host comes in as a :class:`~.store.Storage` (where the games are
kept), a lock factory, a :class:`~.bots.Runtime` (running blocking calls,
sleeping, spawning, telling the pages) and a :class:`~.bots.Thinker` (where bots
decide and the coach plays out).
"""
from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial

from drunter_notation.errors import DnError
from drunter_notation.i18n import _
from drunter_notation.table import games, mend
from drunter_notation.table.answer import Answer, Reply, SeatWork, Work, answer, json_object, no_route
from drunter_notation.table.bots import (
    DELAY_MS,
    HintJob,
    Pilot,
    Runtime,
    Thinker,
    autoplay,
    count_hint,
    hint_job,
)
from drunter_notation.table.coach import Coach
from drunter_notation.table.seat_acts import Seats
from drunter_notation.table.seats import Keys, unread
from drunter_notation.table.store import JSONObject, Lock, Refused, Storage, Tables
from drunter_notation.table.views import game_json


@dataclass(frozen=True)
class Call:
    """One request to a route: the game's id from its path (None without one), its
    method, its JSON body, the seat token it carries (a seat's routes), the base URL the page was opened
    at (the seat links start there)."""

    name: str | None = None
    method: str = "GET"
    body: JSONObject = field(default_factory=dict)
    token: str | None = None
    base: str = ""


Handle = Callable[[Call], Awaitable[Reply]]


@dataclass(frozen=True)
class Entry:
    """One route: its methods, its path (``{name}``: the game's id), whether it reads a JSON body, its work."""

    methods: tuple[str, ...]
    path: str
    body: bool
    work: Handle


# Changes after which what a bot was thinking is void: the game went back.
TAKE_BACKS = frozenset({"undo", "takeback", "replay", "repair"})
HINTS_KEPT = 256  # hints remembered, so the same question is not thought out twice
BUSY_PAUSE = 0.5  # seconds before a busy coach's refusal is told


class TableCore:
    """The games of ``storage`` with their seats, bots and coach; see the module's doc
    and docs/architecture.md. ``links``: the base URLs of the seats' links (none: the
    page's own); ``delay_ms``: the pause before a bot acts."""

    def __init__(self, storage: Storage, runtime: Runtime, thinker: Thinker, *, lock: Lock | None = None,
                 links: tuple[str, ...] = (), delay_ms: int = DELAY_MS, store: Tables | None = None):
        self.store = store if store is not None else Tables(storage, lock) if lock else Tables(storage)
        self.runtime, self.thinker = runtime, thinker
        self.keys = Keys(self.store.storage.secret, self.store.storage.salt)
        self.seats = Seats(self.store, self.keys, runtime.present, links=links)
        # the bots act through the seats' own acts, as a person's page does
        self.pilot = Pilot(self.store, self.keys, runtime, thinker, self.seats.actions, delay_ms=delay_ms)
        self.routes = self._routes()
        self._patterns = [(e, re.compile(e.path.replace("{name}", "(?P<name>[^/]+)"))) for e in self.routes]
        self.hints: dict[tuple[str, ...], list[JSONObject]] = {}  # (game, seat, turn, position) -> the hint
        self.hinting: set[tuple[str, ...]] = set()  # (game, seat) whose hint is being thought out
        self.coach = Coach(thinker, runtime.signal)  # whose question goes to the thinker next

    async def request(self, method: str, path: str, body: object = None, token: str | None = None,
                      base: str = "") -> Reply:
        """One request as a transport without a router of its own hands it over (a page's worker):
        the route of ``path`` found and run; none is 404, a method it does not take 405, a body
        (JSON text or a value read) that is not a JSON object 400, as the server answers them."""
        try:
            body = json_object({} if body is None else body)
        except Refused as e:
            return Reply(e.as_json(), e.status)
        allowed: list[str] = []
        for entry, pattern in self._patterns:
            found = pattern.fullmatch(path)
            if found is None:
                continue
            if method not in entry.methods:
                allowed.extend(entry.methods)
                continue
            return await entry.work(Call(found.groupdict().get("name"), method, body, token, base))
        return no_route(path, method, other_methods=bool(allowed))

    def start(self) -> None:
        """The bots resume (games whose turn is a bot's go on)."""
        self.pilot.start()

    def close(self) -> None:
        """The bots and the coach stop; every journal is written into its record (blocking: call it off an event
        loop)."""
        self.pilot.close()
        self.coach.close()
        self.store.close()

    def _routes(self) -> list[Entry]:
        host, seat, s = self._host, self._seat, self.seats
        return [
            host("GET", "/api/options", games.options, body=False),
            host("GET", "/api/games", games.list_games, body=False),
            host("POST", "/api/games", games.create_game),
            host("GET", "/api/games/{name}", games.show_game, body=False),
            host("DELETE", "/api/games/{name}", games.delete_game),
            host("GET", "/api/games/{name}/rev", games.game_rev, body=False),
            host("GET", "/api/games/{name}/board.svg", games.show_board, body=False),
            host("POST", "/api/games/{name}/moves", games.play_move),
            host("POST", "/api/games/{name}/undo", games.undo),
            host("POST", "/api/games/{name}/tally", games.tally),
            host("POST", "/api/games/{name}/reveal", games.reveal),
            host("POST", "/api/games/{name}/adjudicate", games.adjudicate),
            host("POST", "/api/games/{name}/takeback", partial(mend.take_back, view=game_json)),
            host("POST", "/api/games/{name}/replay", partial(mend.replay, view=game_json)),
            host("GET", "/api/games/{name}/source", mend.source, body=False),
            host("POST", "/api/games/{name}/repair", mend.repair),
            Entry(("GET",), "/api/games/{name}/seats", False, self._links),
            host("POST", "/api/games/{name}/ballot", s.host_ballot),
            host("POST", "/api/games/{name}/ballot/cancel", s.host_call_off),
            Entry(("GET", "POST"), "/api/games/{name}/autoplay", True, self._autoplay),
            seat("GET", "/api/seat/{name}", s.show, body=False),
            seat("GET", "/api/seat/{name}/board.svg", s.show_board, body=False),
            seat("POST", "/api/seat/{name}/moves", s.move),
            seat("POST", "/api/seat/{name}/ballot", s.ballot),
            seat("POST", "/api/seat/{name}/ballot/cancel", s.call_off),
            seat("POST", "/api/seat/{name}/lay", s.lay),
            seat("POST", "/api/seat/{name}/jein", s.jein),
            seat("POST", "/api/seat/{name}/choose", s.choose),
            Entry(("GET",), "/api/seat/{name}/hint", False, self._hint),
        ]

    def _host(self, method: str, path: str, work: Work, *, body: bool = True) -> Entry:
        restart = path.rsplit("/", 1)[-1] in TAKE_BACKS or method == "DELETE"

        async def handle(call: Call) -> Reply:
            return await self.run(lambda: work(self.store, call.name, call.body), call.name, method, restart=restart)
        return Entry((method,), path, body, handle)

    def _seat(self, method: str, path: str, work: SeatWork, *, body: bool = True) -> Entry:
        async def handle(call: Call) -> Reply:
            return await self.run(lambda: work(self.store, call.name, call.body, token=call.token), call.name,
                                  method)
        return Entry((method,), path, body, handle)

    async def run(self, work: Callable[[], Answer], name: str | None, method: str, *, restart: bool = False) -> Reply:
        """``work`` run off the transport's loop and answered; a change is then pushed to the
        game's pages and its bots (``restart``: the game went back, what they think is void)."""
        change = method in ("POST", "DELETE") and name is not None

        def run() -> tuple[Reply, bool]:
            reply = answer(work, name)
            # whether no bot decision is due now, asked here, off the loop: a change with none costs no second trip
            return reply, change and reply.status < 400 and name is not None and self.pilot.idle(name)
        reply, idle = await self.runtime.blocking(run, name)
        if reply.status == 201 and isinstance(reply.body, dict) and isinstance(reply.body.get("name"), str):
            self.pilot.kick(reply.body["name"])  # a new game's bots start by themselves
        if reply.status < 400 and name is not None:
            if change:
                self.runtime.notify(name)
                self.pilot.kick(name, restart=restart, idle=idle)
            else:
                self.pilot.look(name)
        return reply

    async def _links(self, call: Call) -> Reply:
        return await self.run(lambda: self.seats.seat_links(call.name, call.base), call.name, "GET")

    async def _autoplay(self, call: Call) -> Reply:
        reply = await self.run(lambda: autoplay(self.store, self.pilot, call.name, call.body), call.name, call.method)
        if call.method == "POST" and reply.status < 400 and call.name is not None:
            self.pilot.kick(call.name, restart=self.pilot.settings(call.name).paused)
        return reply

    async def _hint(self, call: Call) -> Reply:
        """The coach: the seat's best few moves, thought out in the thinker once per seat,
        turn and position (asked again, the same answer, not counted again); one at a
        time per seat."""
        name = call.name or ""
        refused = None if any(k[0] == name for k in self.hints) else self.coach.turn_away(name)
        if refused is not None:  # told before the game is read: a flood of questions costs the server little
            return await self._busy(refused)
        try:
            job, key = await self.runtime.blocking(lambda: hint_job(self.store, self.keys, name, call.token), name)
            moves = self.hints.get(key)
            if moves is None:
                moves = await self._think_hint(job, key)
                await self.runtime.blocking(lambda: count_hint(self.store, name, job), name)
                self.hints[key] = moves  # only once counted: a hint shown is a hint in the record
                while len(self.hints) > HINTS_KEPT:
                    del self.hints[next(iter(self.hints))]
                self.runtime.notify(name)
        except Refused as e:
            return await self._busy(e) if e.code == "coach-busy" else Reply(e.as_json(), e.status)
        except DnError:
            refused = unread()
            return Reply(refused.as_json(), refused.status)
        return Reply({"moves": moves})

    async def _busy(self, refused: Refused) -> Reply:
        """A busy coach's refusal, told after a pause: a client asking again at once asks half as often as it
        could, so a flood of questions leaves the cores to the coach's answers."""
        await self.runtime.sleep(BUSY_PAUSE)
        return Reply(refused.as_json(), refused.status)

    async def _think_hint(self, job: HintJob, key: tuple[str, ...]) -> list[JSONObject]:
        seat = key[:2]
        if seat in self.hinting:
            raise Refused(409, _("the coach is still thinking about your last question; wait for its answer"),
                          "hint-busy", {"player": job.player})
        if not self.thinker.running:
            raise Refused(503, _("the server is shutting down"))
        self.hinting.add(seat)
        try:
            return await self.coach.hint(job)
        finally:
            self.hinting.discard(seat)
