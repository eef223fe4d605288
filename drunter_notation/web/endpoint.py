"""How an API route of ``drunter play`` runs: its work, a plain function ``work(store,
name, body)`` (name: the ``{name}`` of the path, None without one), called off the
event loop with the request's JSON body, and its problems answered as JSON
(:class:`~.store.Refused`: its status; the engine's :class:`DnError`: 422 with its
diagnostics). A change is then pushed to the game's pages and its bots.
"""
from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Protocol

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from drunter_notation.errors import DnError, printable, severity_word
from drunter_notation.i18n import _
from drunter_notation.web.events import Hub
from drunter_notation.web.store import JSONObject, Refused, Store

if TYPE_CHECKING:  # the bots' pilot runs the seats' acts, which are routes: both directions, for types only
    from drunter_notation.web.bots import Pilot

LIMIT = 64 * 1024  # bytes in a request body
# Changes after which what a bot was thinking is void: the game went back.
TAKE_BACKS = ("/undo", "/takeback", "/replay", "/repair")

Answer = Response | JSONObject  # a work's result: a JSON object is answered with 200
Work = Callable[[Store, str | None, JSONObject], Answer]
Handler = Callable[[Request], Awaitable[Response]]


class SeatWork(Protocol):
    """The work of a seat's route: as :data:`Work`, with the seat's token (its ``X-Drunter-Seat``)."""

    def __call__(self, store: Store, name: str | None, body: JSONObject, /, *, token: str | None) -> Answer: ...


class Endpoint:
    """Makes the handlers of the API routes (see above) of one app."""

    def __init__(self, store: Store, hub: Hub, pilot: Pilot):
        self.store, self.hub, self.pilot = store, hub, pilot

    def __call__(self, work: Work, *, with_body: bool = True) -> Handler:
        """The handler of a route whose work is ``work``; ``with_body``: a JSON object is read from the request."""
        async def handle(request: Request) -> Response:
            return await self.answer(request, work, with_body=with_body)
        return handle

    def seat(self, work: SeatWork, *, with_body: bool = True) -> Handler:
        """The handler of a seat's route: ``work`` gets the request's seat token as ``token=``."""
        async def handle(request: Request) -> Response:
            return await self.answer(request, partial(work, token=request.headers.get("x-drunter-seat")),
                                     with_body=with_body)
        return handle

    async def answer(self, request: Request, work: Work, *, with_body: bool) -> Response:
        body = await read_body(request) if with_body else {}
        name = request.path_params.get("name")
        change = request.method == "POST" and isinstance(name, str)
        response, idle = await run_in_threadpool(self._answer, work, name, body, change)
        if change and response.status_code < 400 and isinstance(name, str):
            self.hub.notify(name)
            self.pilot.kick(name, restart=request.url.path.endswith(TAKE_BACKS), idle=idle)
        elif response.status_code < 400 and isinstance(name, str):
            self.pilot.look(name)
        return response

    def _answer(self, work: Work, name: str | None, body: JSONObject, change: bool) -> tuple[Response, bool]:
        """The work's response and, after a change, whether no bot decision is due now: asked here,
        in the worker thread, so that a change with none costs the event loop no second trip to a
        thread (a task, a thread hop and the table's lock once more per move)."""
        response = _answer(work, self.store, name, body)
        return response, change and response.status_code < 400 and name is not None and self.pilot.idle(name)


async def read_body(request: Request) -> JSONObject:
    """The request's JSON object, at most LIMIT bytes (refused as soon as it grows past)."""
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > LIMIT):
        raise Refused(413, _("the body is over {size} KB").format(size=LIMIT // 1024))
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > LIMIT:
            raise Refused(413, _("the body is over {size} KB").format(size=LIMIT // 1024))
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        data = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError):
        raise Refused(400, _("the body is not JSON")) from None
    if not isinstance(data, dict):
        raise Refused(400, _("the body is a JSON object, e.g. {example}").format(example='{"move": "S2 c3-c4"}'))
    return data


def _answer(work: Work, store: Store, name: str | None, body: JSONObject) -> Response:
    try:
        result = work(store, name, body)
    except Refused as e:
        return JSONResponse({"error": e.reason}, e.status)
    except DnError as e:
        return JSONResponse(problem(e, name), 422)
    return result if isinstance(result, Response) else JSONResponse(result)


def problem(e: DnError, name: str | None) -> JSONObject:
    """The engine's error as the API answers it: one line, and its diagnostic as ``validate`` gives it."""
    d = e.diagnostic
    if e.path == "move" and d.line:  # the move as typed does not read: worded as the move's, not the file's
        error = printable(_("the move typed, at column {column}: {severity}[{code}]: {message}").format(
            column=d.column, severity=severity_word(d.severity), code=d.code, message=d.message)
            + (f"; {d.hint}" if d.hint else ""))
    else:
        error = e.format(e.path if e.path and e.path != "move" else f"{name}.dn" if name else "request")
    return {"error": error, "diagnostics": [d.as_json()]}
