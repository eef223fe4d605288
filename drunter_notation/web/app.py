"""The ASGI app of ``drunter play``: a JSON API over :class:`.store.Store` and the
page that uses only that API (``static/``). Every judgement is the engine's
(``Game.push``, ``adjudicate_position``); the API only carries it.

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
from dataclasses import replace
from hashlib import sha1
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from drunter_notation import adjudication as adj
from drunter_notation import i18n
from drunter_notation.data.rulesets import catalogue, list_rulesets
from drunter_notation.errors import DnError
from drunter_notation.game import Game
from drunter_notation.i18n import _
from drunter_notation.kept import KeptByIdentity
from drunter_notation.notation.formatter import format_item, format_placement
from drunter_notation.notation.model import BUILDINGS, CARD_NAMES, GOALS, Choose, Turn, square_name
from drunter_notation.notation.parser import parse_move
from drunter_notation.report import svg
from drunter_notation.report.view import owner_tags, position_board
from drunter_notation.rules import votes
from drunter_notation.rules.placement import Move
from drunter_notation.rules.scoring import votes_left
from drunter_notation.rules.state import Violation
from drunter_notation.rules.turn import Decision, judge_turn
from drunter_notation.web import bots as bot_seats
from drunter_notation.web import language, mend, seat_api, seats
from drunter_notation.web.endpoint import Endpoint, Handler, problem
from drunter_notation.web.events import Hub
from drunter_notation.web.guard import SameOrigin
from drunter_notation.web.store import JSONObject, Refused, Store, Table, apply, title

STATIC = Path(__file__).resolve().parent / "static"
BOARD_CSS = Path(svg.__file__).resolve().parent / "templates" / "board.css"
HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
                                      "base-uri 'none'; frame-ancestors 'none'",
           "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}
# The seat page may be framed by this server's own host page (pass and play), by no other.
SEAT_HEADERS = HEADERS | {"Content-Security-Policy": HEADERS["Content-Security-Policy"].replace(
    "frame-ancestors 'none'", "frame-ancestors 'self'")}
COOKIE = "drunter_token"
# A seat's page and API answer to the seat's own token instead of the host's (web/seat_api.py).
SEAT_PATHS = ("/seat/", "/api/seat/", "/static/", "/board.css")


class PlayApp(language.Speak):
    """The app :func:`create_app` makes (its outermost middleware), with the event hub, which the
    CLI closes when the server shuts down, and the bots' pilot."""

    def __init__(self, app: ASGIApp, *, hub: Hub, pilot: bot_seats.Pilot):
        super().__init__(app)
        self.hub, self.pilot = hub, pilot


def create_app(root: str | Path, token: str | None = None, host: str = "127.0.0.1",
               port: int | None = None, links: tuple[str, ...] = (), bot_delay_ms: int = bot_seats.DELAY_MS,
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
    keys = seats.Keys(store.root)
    hub = Hub()
    seat_side = seat_api.SeatApi(store, keys, hub, links=links, view=game_json, board=board_svg, page=seat_page)
    # the bots act through the seats' own acts, as a person's page does
    pilot = bot_seats.Pilot(store, keys, hub, seat_side.actions, delay_ms=bot_delay_ms, workers=bot_workers)
    endpoint = Endpoint(store, hub, pilot)
    routes = [
        Route("/", host_page(token)),
        Route("/board.css", board_css),
        *game_routes(endpoint),
        *seat_side.routes(endpoint),
        *bot_seats.routes(store, keys, pilot, endpoint),
        *mend_routes(endpoint),
        Mount("/static", StaticFiles(directory=STATIC)),
    ]
    app = Starlette(routes=routes, lifespan=_lifespan(store, pilot),
                    exception_handlers={Refused: _refused, HTTPException: _http_error, Exception: _crash})
    # the language outermost: the guards' refusals are in the request's language too
    return PlayApp(SameOrigin(Guard(app, token), host, port), hub=hub, pilot=pilot)


def game_routes(endpoint: Endpoint) -> list[BaseRoute]:
    """The host's API of the games: list, create, show, play."""
    return [
        Route("/api/options", endpoint(options, with_body=False)),
        Route("/api/games", endpoint(list_games, with_body=False), methods=["GET"]),
        Route("/api/games", endpoint(create_game), methods=["POST"]),
        Route("/api/games/{name}", endpoint(show_game, with_body=False), methods=["GET"]),
        Route("/api/games/{name}/rev", endpoint(game_rev, with_body=False), methods=["GET"]),
        Route("/api/games/{name}/board.svg", endpoint(show_board, with_body=False), methods=["GET"]),
        Route("/api/games/{name}/moves", endpoint(play_move), methods=["POST"]),
        Route("/api/games/{name}/undo", endpoint(undo), methods=["POST"]),
        Route("/api/games/{name}/tally", endpoint(tally), methods=["POST"]),
        Route("/api/games/{name}/reveal", endpoint(reveal), methods=["POST"]),
        Route("/api/games/{name}/adjudicate", endpoint(adjudicate), methods=["POST"]),
    ]


def mend_routes(endpoint: Endpoint) -> list[BaseRoute]:
    """Take back, replay, the record's source and its repair (:mod:`.mend`)."""
    return [
        Route("/api/games/{name}/takeback", endpoint(lambda st, n, b: mend.take_back(st, n, b, game_json)),
              methods=["POST"]),
        Route("/api/games/{name}/replay", endpoint(lambda st, n, b: mend.replay(st, n, b, game_json)),
              methods=["POST"]),
        Route("/api/games/{name}/source", endpoint(mend.source, with_body=False), methods=["GET"]),
        Route("/api/games/{name}/repair", endpoint(mend.repair), methods=["POST"]),
    ]


Lifespan = Callable[[Starlette], contextlib.AbstractAsyncContextManager[None]]


def _lifespan(store: Store, pilot: bot_seats.Pilot) -> Lifespan:
    """The bots start with the server; at its stop they end and every journal is written into its game's file."""
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        pilot.start()
        yield
        pilot.close()
        await run_in_threadpool(store.close)
    return lifespan


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
    return JSONResponse({"error": exc.reason}, exc.status, headers=HEADERS)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)  # Starlette calls it for this class only
    return JSONResponse({"error": exc.detail}, exc.status_code, headers=HEADERS)


async def _crash(request: Request, exc: Exception) -> Response:  # pragma: no cover - the last guard
    return JSONResponse({"error": _("internal error ({kind}); the game file is unchanged").format(
        kind=type(exc).__name__)}, 500, headers=HEADERS)


# -- what a page sees ------------------------------------------------------------------

def game_json(table: Table) -> JSONObject:
    """Everything the page shows of a game (see docs/play.md). Call with the table's lock held.
    Made once per change and language (every page fetches it after each): do not change the dict returned."""
    made_of = (table.rev, table.vote, table.choice)
    if table.view is None or table.view[0] != made_of:
        table.view = (made_of, {})
    views = table.view[1]
    if i18n.language() not in views:  # its texts (the tallies, the result) are in the request's language
        views[i18n.language()] = _game_json(table)
    return views[i18n.language()]


def _game_json(table: Table) -> JSONObject:
    g = table.played
    st = g.state
    over = g.is_over()
    tags = owner_tags(g.players)
    last = g.decisions[-1] if g.decisions else None
    choice = seats.open_choice(table)
    return {
        "name": table.name, "title": title(g, table.name), "rev": public_rev(table),
        "dn": seats.public_dn(g, table.text),
        "position": g.position(),
        "board": g.board_ref, "rules": g.ruleset.id, "rules_name": g.ruleset.name, "variant": g.variant,
        "turn": g.turn, "to_move": None if over else g.to_move, "over": over, "choice_due": g.choice_due,
        "can_pass": not over and not g.choice_due and _can_pass(g), "can_undo": bool(g.events),
        "hands_known": st.hands is not None, "cards_known": g.cards is not None,
        "legal": [_move_json(m) for m in g.legal_moves()],
        "vote_order": list(votes.voting_order(st, st.to_move)),
        "players": [{"name": p, "seat": i, "tag": tags[p], "colour": svg.SEAT_COLOUR[i % len(svg.SEAT_COLOUR)],
                     "tiles": None if st.hands is None else [[str(t), n] for t, n in sorted(
                         st.hands[p].items(), key=lambda kv: kv[0].order()) if n > 0],
                     "cards": [c for c in CARD_NAMES for _ in range(st.cards[p].get(c, 0))],
                     "votes": votes_left(st.cards[p])}
                    for i, p in enumerate(g.players)],
        "events": _events(table),
        "taken_back": [op["move"] for op in table.taken_back],
        "result": _result(g) if over else None,
        "vote": seats.vote_json(g, seats.open_vote(table)),
        "chosen": [p for p in g.players if p in choice.keep] if choice else [],
        "bots": bot_seats.bots_of(g), "hints": bot_seats.hints_of(g),
        "last_vote": None if last is None or last.vote is None else
        {"turn": last.number, "dn": format_item(g.events[-1])}
        | seats.count_json(g, last.vote.tally, last.vote.accepted),
    }


def _make_move_json(m: Move) -> JSONObject:
    return {"move": str(m), "needs_vote": m.needs_vote, "tile": str(m.tile),
            "squares": [square_name(s) for s in m.squares]}


# The engine hands out the same Move values position after position (kept per board); the
# JSON is shared by every answer: never changed.
_move_json = KeptByIdentity(_make_move_json)


def public_rev(table: Table) -> str:
    """Changes whenever what a page shows of the game changes; made from the public record
    only, so it says nothing of a secret card."""
    if table.game is None:
        return table.rev
    known = table.game.cards is not None
    return sha1(f"{known}\n{seats.public_dn(table.game, table.text)}".encode()).hexdigest()[:16]


def board_svg(table: Table) -> str:
    """The board of the game's position, the squares just covered marked (``GET .../board.svg``)."""
    g = table.played
    last = g.decisions[-1] if g.decisions else None
    marked = last.move.squares if last is not None and last.stays and last.move is not None else ()
    return str(position_board(g.state, marked))


def _can_pass(g: Game) -> bool:
    """Whether the engine lets the player to move pass now: the turn judged as ``push("pass")``
    judges it, without playing it on a copy of the game."""
    st = g.state
    return not isinstance(judge_turn(st, st.number + 1, st.to_move, None), Violation)


def _events(table: Table) -> list[JSONObject]:
    """Every event of the game as the page lists it; an event already in the last view keeps its JSON
    (the list is sent after every move, and an event never changes once played)."""
    g = table.played
    before = table.events_json
    out = [(e, before[i][1] if i < len(before) and before[i][0] is e else _event(e, d))
           for i, (e, d) in enumerate(zip(g.events, g.decisions, strict=True))]
    table.events_json = out
    return [j for _, j in out]


def _event(event: Turn | Choose, decision: Decision | None) -> JSONObject:
    if isinstance(event, Choose):
        return {"dn": format_item(event), "player": None, "rules": ["X2"], "vote": None}
    assert decision is not None  # the engine decides every turn (only a choose has none)
    vote = decision.vote
    return {"dn": format_item(event), "player": event.player, "rules": list(decision.rules),
            "vote": None if vote is None else {"yes": vote.tally.yes, "no": vote.tally.no,
                                               "accepted": vote.accepted}}


def _result(g: Game) -> JSONObject | None:
    r = g.result()
    if r is None:
        return None
    rules = catalogue()
    expert = g.variant == "expert"
    used = ["E1", "X3" if expert else "E2", "E3"]
    cards = g.cards
    assert cards is not None  # a game has a result once its cards are known
    return {"scores": r.scores, "winners": list(r.winners), "explanation": r.explanation,
            "standings": [{"player": s.player, "score": s.score, "rank": s.rank, "second": s.second,
                           "votes_left": s.votes_left, "card": g.kept[s.player] if expert else cards[s.player][0]}
                          for s in r.standings],
            "rules": [{"rule": k, "title": _(rules[k].title), "citation": g.ruleset.cite(k)} for k in used]}


# -- the routes ------------------------------------------------------------------------

def options(store: Store, name: str | None, body: JSONObject) -> JSONObject:
    return {"boards": store.boards(), "rulesets": [{"id": r.id, "name": _(r.name)} for r in list_rulesets()],
            "variants": ["base", "expert"], "buildings": list(BUILDINGS), "goals": list(GOALS),
            "cards": list(CARD_NAMES)}


def list_games(store: Store, name: str | None, body: JSONObject) -> JSONObject:
    out: list[JSONObject] = []
    for n in store.names():
        try:
            table = store.table(n)
            with table.lock:
                store.fresh(table)
        except Refused as e:  # a link out of the folder (or removed meanwhile: then not listed)
            if e.status != 404:
                out.append({"name": n, "title": n, "error": e.reason})
            continue
        with table.lock:
            g = table.game
            out.append({"name": n, "title": n, "error": table.error.format(str(table.path)) if table.error else None}
                       if g is None
                       else {"name": n, "title": title(g, n), "error": None, "players": list(g.players), "turn": g.turn,
                             "over": g.is_over(), "board": g.board_ref, "rules": g.ruleset.id, "variant": g.variant})
    return {"games": out}


def create_game(store: Store, name: str | None, body: JSONObject) -> Response:
    table = store.create(body, bot_seats.new_game_tags(body))
    with table.lock:
        return JSONResponse(game_json(table), 201)


def show_game(store: Store, name: str | None, body: JSONObject) -> JSONObject:
    table = store.table(name)
    with table.lock:
        store.playable(table)
        return game_json(table)


def show_board(store: Store, name: str | None, body: JSONObject) -> Response:
    table = store.table(name)
    with table.lock:
        store.playable(table)
        return Response(board_svg(table), media_type="image/svg+xml", headers={"ETag": f'"{public_rev(table)}"'})


def game_rev(store: Store, name: str | None, body: JSONObject) -> JSONObject:
    table = store.table(name)
    with table.lock:
        store.fresh(table)
        return {"rev": public_rev(table)}


def _turn(body: JSONObject) -> int | None:
    turn = body.get("turn")
    if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool)):
        raise Refused(400, _("turn: the number of the turn the move is for, e.g. 12"))
    return turn


def _mapping(body: JSONObject, key: str, *, lists: bool = False) -> JSONObject | None:
    """``vote`` (player -> card or cards), ``jein`` or ``keep`` (player -> word), checked for shape only."""
    value = body.get(key)
    if value is None:
        return None
    if not isinstance(value, dict) or not all(isinstance(v, str) or (lists and isinstance(v, list) and len(v) <= 16
                                                                     and all(isinstance(c, str) for c in v))
                                              for v in value.values()):
        raise Refused(400, (_("{key}: an object of player names to their cards, e.g. {example}") if lists else
                            _("{key}: an object of player names to words, e.g. {example}")).format(
            key=key, example='{"Anna": ["JA"]}' if lists else '{"Ben": "no"}'))
    return value


def _move_text(body: JSONObject) -> str:
    text = body.get("move")
    if not isinstance(text, str) or not text.strip() or len(text) > 300:
        raise Refused(400, _("move: DN text like \"S2 c3-c4\", \"pass\" or \"choose\""))
    return text


def play_move(store: Store, name: str | None, body: JSONObject) -> Response | JSONObject:
    text, turn = _move_text(body), _turn(body)
    vote, jein, keep = _mapping(body, "vote", lists=True), _mapping(body, "jein"), _mapping(body, "keep")
    table = store.table(name)
    op = {"op": "push", "move": text, "vote": vote, "jein": jein, "keep": keep}
    try:
        return store.change(table, turn, lambda g: apply(g, op), game_json, op=op)
    except DnError as e:
        with table.lock:
            verdicts = _what_if(table, text, vote, jein) if table.game is not None else None
        return JSONResponse(problem(e, name) | {"adjudication": verdicts}, 422)


def _what_if(table: Table, text: str, vote: JSONObject | None, jein: JSONObject | None) -> JSONObject | None:
    """What ``adjudicate`` says of a move (with its ballots) at the game's position, under every ruleset."""
    g = table.played
    try:
        move = parse_move(text, "move")
        if isinstance(move, Choose):
            return None
        if move is not None and vote is not None:
            text = format_placement(replace(move, vote=g.ballots(vote, jein)))
        verdicts = adj.adjudicate_position(g.state, list_rulesets(), text)
    except DnError:
        return None
    return adj.as_json(f"{table.name}.dn", g.turn, text, verdicts, all_rulesets=True)


def undo(store: Store, name: str | None, body: JSONObject) -> JSONObject:
    op = {"op": "pop"}

    def pop(g: Game) -> None:
        if not g.events:
            raise Refused(409, _("nothing to undo: no turn has been played"))
        apply(g, op)
    return store.change(store.table(name), _turn(body), pop, game_json, op=op)


def reveal(store: Store, name: str | None, body: JSONObject) -> JSONObject:
    cards, keep = body.get("cards"), _mapping(body, "keep")
    if not isinstance(cards, dict) or not all(isinstance(v, (str, list)) for v in cards.values()):
        raise Refused(400, _("cards: each player's building card, e.g. {example} (expert: two goals each)").format(
            example='{"Anna": "museum"}'))

    def show(g: Game) -> None:
        if g.cards is not None:
            raise Refused(409, _("the cards are known already"))
        if any(isinstance(v, list) and not all(isinstance(c, str) for c in v) for v in cards.values()):
            raise Refused(400, _("cards: names of building or goal cards"))
        g.set_cards(cards)
        if g.variant == "expert" and g.state.chosen:
            kept = keep or {}
            dealt = g.cards  # set just above (mypy still sees the None checked before)
            if set(kept) != set(g.players) or any(kept[p] not in dealt[p] for p in g.players):  # type: ignore[index]  # dealt is known here: the reveal needs a dealt game
                raise Refused(400, _("keep: the goal card each player kept at the choice, one of their two"))
            g.kept = dict(kept)
    return store.change(store.table(name), _turn(body), show, game_json, cards=True)


def tally(store: Store, name: str | None, body: JSONObject) -> JSONObject:
    vote, jein = _mapping(body, "vote", lists=True) or {}, _mapping(body, "jein")
    table = store.table(name)
    with table.lock:
        g = store.playable(table)
        return seats.count_json(g, votes.tally(g.ballots(vote, jein)))


def adjudicate(store: Store, name: str | None, body: JSONObject) -> JSONObject:
    text = _move_text(body)
    vote, jein = _mapping(body, "vote", lists=True), _mapping(body, "jein")
    table = store.table(name)
    with table.lock:
        g = store.playable(table)
        move = parse_move(text, "move")
        if isinstance(move, Choose):
            raise Refused(400, _("adjudicate judges a placement or a pass; 'choose' is played with /moves"))
        if vote is not None and move is not None:
            text = format_placement(replace(move, vote=g.ballots(vote, jein)))
        verdicts = adj.adjudicate_position(g.state, list_rulesets(), text)
        return adj.as_json(f"{name}.dn", g.turn, text, verdicts, all_rulesets=True)
