"""The ASGI app of ``drunter play``: the table core's JSON API
(:class:`~drunter_notation.table.core.TableCore`, over the games' files of
:class:`.store.Store`) and the pages that use only that API (``static/``), their
event streams, the guards. Every judgement is the engine's (``Game.push``,
``adjudicate_position``); the API only carries it.

Errors are JSON ``{"error": "one line"}`` with a 4xx status: 400 a bad body or a
foreign ``Host``, 403 no token, a foreign ``Origin`` or a link out of the folder,
404 no such game, 409 a move for a turn already played, 413 a body over 64 KB, 415
a change not sent as JSON, 422 the engine's diagnostics (as ``drunter validate
--format json`` gives them); 503 when the disk refuses a write. ``docs/play.md``
documents every route and status. Human texts (``error``, ``message``, the pages)
follow the request's language (:mod:`.language`); codes and field names never do.
"""
from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from drunter_notation import i18n
from drunter_notation.i18n import _
from drunter_notation.report import svg
from drunter_notation.table.answer import no_route
from drunter_notation.table.bots import DELAY_MS
from drunter_notation.table.core import TableCore
from drunter_notation.table.store import Refused
from drunter_notation.web import language
from drunter_notation.web.bots import ProcessThinker, ServerRuntime
from drunter_notation.web.endpoint import SEAT_HEADER, Handler, handler
from drunter_notation.web.events import Hub
from drunter_notation.web.guard import SameOrigin
from drunter_notation.web.store import Store

STATIC = Path(__file__).resolve().parent / "static"
BOARD_CSS = Path(svg.__file__).resolve().parent / "templates" / "board.css"
HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                                      "base-uri 'none'; frame-ancestors 'none'",
           "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}
# The seat page may be framed by this server's own host page (pass and play), by no other.
SEAT_HEADERS = HEADERS | {"Content-Security-Policy": HEADERS["Content-Security-Policy"].replace(
    "frame-ancestors 'none'", "frame-ancestors 'self'")}
COOKIE = "drunter_token"
# A seat's page and API answer to the seat's own token instead of the host's (table/seat_acts.py).
SEAT_PATHS = ("/seat/", "/api/seat/", "/static/", "/board.css")


class PlayApp(language.Speak):
    """The app :func:`create_app` makes (its outermost middleware), with the event hub, which the
    CLI closes when the server shuts down, the table core, its bots' pilot and their thinker."""

    def __init__(self, app: ASGIApp, *, hub: Hub, core: TableCore, thinker: ProcessThinker):
        super().__init__(app)
        self.hub, self.core, self.pilot, self.thinker = hub, core, core.pilot, thinker


def create_app(root: str | Path, token: str | None = None, host: str = "127.0.0.1",
               port: int | None = None, links: tuple[str, ...] = (), bot_delay_ms: int = DELAY_MS,
               bot_workers: int | None = None) -> PlayApp:
    """The app serving the games in ``root``; with ``token``, every request must
    carry it (``?token=``, the cookie the first such page view sets, or the
    ``X-Drunter-Token`` header) or gets 403, except a seat's page and API, which
    want the seat's token. ``host`` and ``port``: where the server listens, the only
    ``Host`` it answers besides localhost (port None: any port); see :mod:`.guard`.
    ``links``: the base URLs other devices reach this server at
    (``http://192.0.2.2:8000/``), for the seats' links; without them, the host page's
    own address. ``bot_delay_ms``: the pause before a bot acts; ``bot_workers``: the
    processes the bots think in (at most one per core)."""
    store = Store(root)
    hub = Hub()
    thinker = ProcessThinker(bot_workers)
    core = TableCore(store.storage, ServerRuntime(hub), thinker, links=links, delay_ms=bot_delay_ms, store=store)
    routes = [
        Route("/", host_page(token)),
        Route("/board.css", board_css),
        Route("/seat/{name}", seat_page),
        Route("/api/games/{name}/events", host_events(store, hub), methods=["GET"]),
        Route("/api/seat/{name}/events", seat_events(core, hub), methods=["GET"]),
        *(Route(e.path, handler(e), methods=list(e.methods)) for e in core.routes),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]
    app = Starlette(routes=routes, lifespan=_lifespan(core, thinker),
                    exception_handlers={Refused: _refused, HTTPException: _http_error, Exception: _crash})
    # the language outermost: the guards' refusals are in the request's language too
    return PlayApp(SameOrigin(Guard(app, token), host, port, headers=HEADERS), hub=hub, core=core, thinker=thinker)


Lifespan = Callable[[Starlette], contextlib.AbstractAsyncContextManager[None]]


def _lifespan(core: TableCore, thinker: ProcessThinker) -> Lifespan:
    """The bots start with the server; at its stop they end and every journal is written into its game's file."""
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        thinker.start()
        core.start()
        yield
        core.pilot.close()
        core.coach.close()
        thinker.close()
        await run_in_threadpool(core.store.close)
    return lifespan


def host_events(store: Store, hub: Hub) -> Handler:
    async def events(request: Request) -> Response:
        store.path(request.path_params["name"])  # a bad name is 400 before any stream opens
        return hub.stream(request.path_params["name"])
    return events


def seat_events(core: TableCore, hub: Hub) -> Handler:
    async def events(request: Request) -> Response:
        name = request.path_params["name"]
        token = request.headers.get(SEAT_HEADER)
        return hub.stream(name, await run_in_threadpool(core.seats.seat_of, name, token))
    return events


def host_page(token: str | None) -> Handler:
    """The host's page; opened with the server's ``?token=``, it sets the cookie that carries it from then on."""
    async def page(request: Request) -> Response:
        response = HTMLResponse(language.page("play.html", i18n.language()), headers=HEADERS)
        if token is not None and request.query_params.get("token") == token:
            response.set_cookie(COOKIE, token, httponly=True, samesite="strict")
        return response
    return page


async def board_css(request: Request) -> Response:
    return FileResponse(BOARD_CSS, media_type="text/css", headers=HEADERS)


async def seat_page(request: Request) -> Response:
    return HTMLResponse(language.page("seat.html", i18n.language()), headers=SEAT_HEADERS)


class Guard:
    """ASGI middleware: the token check (403 without it) and the safety headers on every answer."""

    def __init__(self, app: ASGIApp, token: str | None):
        self.app, self.token = app, token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if self.token is not None and not scope["path"].startswith(SEAT_PATHS) and not self._allowed(Request(scope)):
            response = JSONResponse({"error": _("this server wants its token: open the URL it printed, "
                                                "with ?token=...")}, 403, headers=HEADERS)
            return await response(scope, receive, send)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message["headers"]}
                message["headers"] = list(message["headers"]) + [
                    (k.lower().encode(), v.encode()) for k, v in HEADERS.items() if k.lower().encode() not in have]
            await send(message)
        return await self.app(scope, receive, send_with_headers)

    def _allowed(self, request: Request) -> bool:
        given = (request.query_params.get("token") or request.headers.get("x-drunter-token")
                 or request.cookies.get(COOKIE) or "")
        return secrets.compare_digest(given.encode(), (self.token or "").encode())


async def _refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Refused)  # Starlette calls it for this class only
    return JSONResponse(exc.as_json(), exc.status, headers=HEADERS)


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (no such route, a method a route does not take) as the core words them."""
    assert isinstance(exc, HTTPException)  # Starlette calls it for this class only
    if exc.status_code in (404, 405):
        reply = no_route(request.url.path, request.method, other_methods=exc.status_code == 405)
        return JSONResponse(reply.body, reply.status, headers=HEADERS)
    return JSONResponse({"error": _("the request was refused ({status})").format(status=exc.status_code),
                         "code": "http", "data": {"status": exc.status_code}}, exc.status_code, headers=HEADERS)


async def _crash(request: Request, exc: Exception) -> Response:  # pragma: no cover - the last guard
    return JSONResponse({"error": _("internal error ({kind}); the game file is unchanged").format(
        kind=type(exc).__name__)}, 500, headers=HEADERS)
