"""The routes of the seats (``/seat/{name}``, ``/api/seat/{name}/...``) and the host's
side of them (the seat links with their QR codes, the secret ballot opened or called
off). A seat route answers only to its seat's token, sent as the header
``X-Drunter-Seat`` (the page keeps it in the link's fragment, which no request and no
log carries), and gives that seat's view (:func:`.seats.seat_json`).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from urllib.parse import quote

import segno
from starlette.concurrency import run_in_threadpool
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from drunter_notation.errors import DnError
from drunter_notation.i18n import _
from drunter_notation.web import seats
from drunter_notation.web.bots import bots_of
from drunter_notation.web.events import Hub
from drunter_notation.web.store import Refused, Store, Table


def routes(store: Store, keys: seats.Keys, hub: Hub, links: tuple[str, ...], endpoint: Callable,
           view: Callable[[Table], dict], board: Callable[[Table], str], page: Callable,
           actions: dict | None = None) -> list[Route]:
    """The routes; ``endpoint`` wraps a work function as app.py does, ``view`` is the
    public game view, ``board`` its SVG, ``page`` serves a static page. ``actions`` is
    filled with the seat's acts by name (the bots' seats use them, web/bots.py)."""

    def me(table: Table, token: str | None, body: dict | None = None) -> str:
        """The seat ``token`` opens, checked against the table's game (with its lock held);
        with ``body``, its ``turn`` too (if given): an action meant for another turn is 409."""
        player = keys.seat(store.playable(table), table.name, token)
        if body is not None:
            on_turn(table, body)
        return player

    def seat_view(table: Table, player: str) -> dict:
        return seats.seat_json(table, view(table), player)

    def show(store_, name, body, token=None) -> dict:
        table = store.table(name)
        with table.lock:
            return seat_view(table, me(table, token))

    def show_board(store_, name, body, token=None) -> Response:
        table = store.table(name)
        with table.lock:
            me(table, token)
            return Response(board(table), media_type="image/svg+xml")

    def move(store_, name, body, token=None) -> dict:
        """The seat's own turn: a placement that needs no vote, or a pass."""
        text = body.get("move")
        if not isinstance(text, str) or not text.strip() or len(text) > 300 or text.strip() == "choose":
            raise Refused(400, _("move: DN text like \"S2 c3-c4\" or \"pass\" (a vote goes through /ballot)"))
        if any(k in body for k in ("vote", "jein", "keep")):
            raise Refused(400, _("a seat lays only its own cards: a vote goes through /ballot and /lay"))
        table = store.table(name)
        with table.lock:
            player = me(table, token)
            if player != table.game.to_move:
                raise Refused(403, _("it is {player}'s turn, not {other}'s").format(player=table.game.to_move, other=player))
        with seats.ACTIONS:
            store.change(table, body.get("turn") if isinstance(body.get("turn"), int) else None,
                         lambda g: g.push(text), lambda t: None)
        with table.lock:
            return seat_view(table, player)

    def ballot(store_, name, body, token=None) -> dict:
        table = store.table(name)
        with seats.ACTIONS, table.lock:
            player = me(table, token, body)
            seats.call_vote(table, _text(body), player)
            return seat_view(table, player)

    def call_off(store_, name, body, token=None) -> dict:
        table = store.table(name)
        with seats.ACTIONS, table.lock:
            player = me(table, token, body)
            seats.call_off(table, player)
            return seat_view(table, player)

    def ballot_action(change: Callable[[Table, str, dict], seats.Vote]):
        """A seat's act on the ballot (``change``), then the turn-over once it completes it."""
        def work(store_, name, body, token=None) -> dict:
            table = store.table(name)
            with seats.ACTIONS:
                with table.lock:
                    player = me(table, token, body)
                    v = change(table, player, body)
                turn_over(table, v)
                with table.lock:
                    return seat_view(table, player)
        return work

    lay = ballot_action(lambda table, player, body: seats.lay(table, player, body.get("cards")))
    jein = ballot_action(lambda table, player, body: seats.declare(table, player, body.get("side")))

    def choose(store_, name, body, token=None) -> dict:
        table = store.table(name)
        with seats.ACTIONS:
            with table.lock:
                player = me(table, token, body)
                c = seats.choose(table, player, body.get("keep"))
                players = table.game.players
            if set(c.keep) == set(players):
                store.change(table, c.turn, lambda g: g.push("choose", keep=c.keep), lambda t: None)
                table.choice = None
            with table.lock:
                return seat_view(table, player)

    def turn_over(table: Table, v: seats.Vote) -> None:
        """Once every card is shown and every joker declared, the engine judges and plays the turn."""
        if not v.shown or v.jein_due:
            return
        try:
            store.change(table, v.turn, lambda g: g.push(v.move, vote=dict(v.laid), jein=dict(v.jein)), lambda t: None)
        except DnError as e:
            with table.lock:
                seats.refused(table, e.format(f"{table.name}.dn"))
            return
        with table.lock:
            table.vote = None

    if actions is not None:
        actions.update(move=move, ballot=ballot, lay=lay, jein=jein, choose=choose)

    # -- the host's side ---------------------------------------------------------------
    def seat_links(store_, name, body, token=None, base: str = "") -> dict:
        table = store.table(name)
        with table.lock:
            g = store.playable(table)
            present = hub.present(name)
            robots = bots_of(g)
            out = []
            for i, p in enumerate(g.players):
                urls = [f"{b}seat/{quote(name)}#{keys.token(name, i, p)}" for b in (links or (base,))]
                out.append({"player": p, "seat": i, "links": urls, "joined": p in present,
                            "qr": qr_code(urls[0]), "bot": robots.get(p)})
        return {"seats": out, "reachable": bool(links)}

    def host_ballot(store_, name, body) -> dict:
        table = store.table(name)
        with seats.ACTIONS, table.lock:
            store.playable(table)
            on_turn(table, body)
            seats.call_vote(table, _text(body), None)
            return view(table)

    def host_call_off(store_, name, body) -> dict:
        table = store.table(name)
        with seats.ACTIONS, table.lock:
            store.playable(table)
            on_turn(table, body)
            seats.call_off(table, None)
            return view(table)

    async def links_route(request):
        handle = endpoint(lambda s, n, b: seat_links(s, n, b, base=str(request.base_url)), with_body=False)
        return await handle(request)

    async def host_events(request):
        store.path(request.path_params["name"])  # a bad name is 400 before any stream opens
        return hub.stream(request.path_params["name"])

    async def seat_events(request):
        name = request.path_params["name"]
        table = store.table(name)

        def check():
            with table.lock:
                try:
                    return me(table, request.headers.get("x-drunter-seat"))
                except DnError as e:  # the file is no valid record (any more)
                    raise Refused(422, e.format(f"{name}.dn")) from None
        return hub.stream(name, await run_in_threadpool(check))

    return [
        Route("/seat/{name}", page),
        Route("/api/games/{name}/events", host_events, methods=["GET"]),
        Route("/api/games/{name}/seats", links_route, methods=["GET"]),
        Route("/api/games/{name}/ballot", endpoint(host_ballot), methods=["POST"]),
        Route("/api/games/{name}/ballot/cancel", endpoint(host_call_off), methods=["POST"]),
        Route("/api/seat/{name}", endpoint(show, False, seat=True), methods=["GET"]),
        Route("/api/seat/{name}/events", seat_events, methods=["GET"]),
        Route("/api/seat/{name}/board.svg", endpoint(show_board, False, seat=True), methods=["GET"]),
        Route("/api/seat/{name}/moves", endpoint(move, seat=True), methods=["POST"]),
        Route("/api/seat/{name}/ballot", endpoint(ballot, seat=True), methods=["POST"]),
        Route("/api/seat/{name}/ballot/cancel", endpoint(call_off, seat=True), methods=["POST"]),
        Route("/api/seat/{name}/lay", endpoint(lay, seat=True), methods=["POST"]),
        Route("/api/seat/{name}/jein", endpoint(jein, seat=True), methods=["POST"]),
        Route("/api/seat/{name}/choose", endpoint(choose, seat=True), methods=["POST"]),
    ]


@lru_cache(maxsize=256)
def qr_code(link: str) -> str:
    """The QR code of a seat's link, as an SVG data URI (made once: tens of ms each)."""
    return segno.make(link, error="m").svg_data_uri(scale=5, border=2)


def on_turn(table: Table, body: dict) -> None:
    """409 when the body names a turn (``"turn": 12``) that is not the game's: the device saw an older game."""
    turn = body.get("turn")
    if turn is not None and turn != table.game.turn:
        raise Refused(409, _("turn {turn} is not the turn to play: the game is at turn {now} (someone else moved "
                             "first); reload and try again").format(turn=str(turn)[:12], now=table.game.turn))


def _text(body: dict) -> str:
    text = body.get("move")
    if not isinstance(text, str) or not text.strip() or len(text) > 300:
        raise Refused(400, _("move: the legal move put to the vote, e.g. \"S2 c3-c4\""))
    return text.strip()
