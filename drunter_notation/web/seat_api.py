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
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from drunter_notation.errors import DnError
from drunter_notation.i18n import _
from drunter_notation.web import seats
from drunter_notation.web.bots import bots_of
from drunter_notation.web.endpoint import Endpoint, Handler, SeatWork
from drunter_notation.web.events import Hub
from drunter_notation.web.store import JSONObject, Refused, Store, Table

# A seat's act on its ballot: the vote as it now stands.
BallotChange = Callable[[Table, str, JSONObject], seats.Vote]


class SeatApi:
    """The seats' routes (:meth:`routes`), one method each, as Starlette's ``Router`` keeps
    its endpoints. ``view`` is the public game view, ``board`` its SVG, ``page`` serves the
    seat's page; ``links``: the base URLs of the seats' links (none: the host page's own).
    Each work takes the store as every route's work does (it is :attr:`store`);
    :attr:`actions` are the seat's acts by name, which the bots' seats use (web/bots.py)."""

    def __init__(self, store: Store, keys: seats.Keys, hub: Hub, *, links: tuple[str, ...],
                 view: Callable[[Table], JSONObject], board: Callable[[Table], str], page: Handler):
        self.store, self.keys, self.hub, self.links = store, keys, hub, links
        self.view, self.board, self.page = view, board, page

    @property
    def actions(self) -> dict[str, SeatWork]:
        return {"move": self.move, "ballot": self.ballot, "lay": self.lay, "jein": self.jein, "choose": self.choose}

    def routes(self, endpoint: Endpoint) -> list[Route]:
        seat = endpoint.seat

        async def links_route(request: Request) -> Response:  # the links start at the address the host page used
            return await endpoint.answer(request, lambda _s, n, _b: self.seat_links(n, str(request.base_url)),
                                         with_body=False)
        return [
            Route("/seat/{name}", self.page),
            Route("/api/games/{name}/events", self.host_events, methods=["GET"]),
            Route("/api/games/{name}/seats", links_route, methods=["GET"]),
            Route("/api/games/{name}/ballot", endpoint(self.host_ballot), methods=["POST"]),
            Route("/api/games/{name}/ballot/cancel", endpoint(self.host_call_off), methods=["POST"]),
            Route("/api/seat/{name}", seat(self.show, with_body=False), methods=["GET"]),
            Route("/api/seat/{name}/events", self.seat_events, methods=["GET"]),
            Route("/api/seat/{name}/board.svg", seat(self.show_board, with_body=False), methods=["GET"]),
            Route("/api/seat/{name}/moves", seat(self.move), methods=["POST"]),
            Route("/api/seat/{name}/ballot", seat(self.ballot), methods=["POST"]),
            Route("/api/seat/{name}/ballot/cancel", seat(self.call_off), methods=["POST"]),
            Route("/api/seat/{name}/lay", seat(self.lay), methods=["POST"]),
            Route("/api/seat/{name}/jein", seat(self.jein), methods=["POST"]),
            Route("/api/seat/{name}/choose", seat(self.choose), methods=["POST"]),
        ]

    def _me(self, table: Table, token: str | None, body: JSONObject | None = None) -> str:
        """The seat ``token`` opens, checked against the table's game (with its lock held);
        with ``body``, its ``turn`` too (if given): an action meant for another turn is 409."""
        player = self.keys.seat(self.store.playable(table), table.name, token)
        if body is not None:
            on_turn(table, body)
        return player

    def _seat_view(self, table: Table, player: str) -> JSONObject:
        return seats.seat_json(table, self.view(table), player)

    # -- a seat's own ---------------------------------------------------------------------
    def show(self, _store: Store, name: str | None, body: JSONObject, *, token: str | None) -> JSONObject:
        table = self.store.table(name)
        with table.lock:
            return self._seat_view(table, self._me(table, token))

    def show_board(self, _store: Store, name: str | None, body: JSONObject, *, token: str | None) -> Response:
        table = self.store.table(name)
        with table.lock:
            self._me(table, token)
            return Response(self.board(table), media_type="image/svg+xml")

    def move(self, _store: Store, name: str | None, body: JSONObject, *, token: str | None) -> JSONObject:
        """The seat's own turn: a placement that needs no vote, or a pass."""
        text = body.get("move")
        if not isinstance(text, str) or not text.strip() or len(text) > 300 or text.strip() == "choose":
            raise Refused(400, _("move: DN text like \"S2 c3-c4\" or \"pass\" (a vote goes through /ballot)"))
        if any(k in body for k in ("vote", "jein", "keep")):
            raise Refused(400, _("a seat lays only its own cards: a vote goes through /ballot and /lay"))
        table = self.store.table(name)
        with table.lock:
            player = self._me(table, token)
            to_move = table.played.to_move
            if player != to_move:
                raise Refused(403, _("it is {player}'s turn, not {other}'s").format(player=to_move, other=player))
        with seats.ACTIONS:
            self.store.change(table, body.get("turn") if isinstance(body.get("turn"), int) else None,
                              lambda g: g.push(text), _nothing)
        with table.lock:
            return self._seat_view(table, player)

    def ballot(self, _store: Store, name: str | None, body: JSONObject, *, token: str | None) -> JSONObject:
        table = self.store.table(name)
        with seats.ACTIONS, table.lock:
            player = self._me(table, token, body)
            seats.call_vote(table, _text(body), player)
            return self._seat_view(table, player)

    def call_off(self, _store: Store, name: str | None, body: JSONObject, *, token: str | None) -> JSONObject:
        table = self.store.table(name)
        with seats.ACTIONS, table.lock:
            player = self._me(table, token, body)
            seats.call_off(table, player)
            return self._seat_view(table, player)

    def lay(self, _store: Store, name: str | None, body: JSONObject, *, token: str | None) -> JSONObject:
        return self._on_ballot(name, body, token, lambda table, player, b: seats.lay(table, player, b.get("cards")))

    def jein(self, _store: Store, name: str | None, body: JSONObject, *, token: str | None) -> JSONObject:
        return self._on_ballot(name, body, token,
                               lambda table, player, b: seats.declare(table, player, b.get("side")))

    def _on_ballot(self, name: str | None, body: JSONObject, token: str | None, change: BallotChange) -> JSONObject:
        """A seat's act on the ballot (``change``), then the turn-over once it completes it."""
        table = self.store.table(name)
        with seats.ACTIONS:
            with table.lock:
                player = self._me(table, token, body)
                vote = change(table, player, body)
            self._turn_over(table, vote)
            with table.lock:
                return self._seat_view(table, player)

    def choose(self, _store: Store, name: str | None, body: JSONObject, *, token: str | None) -> JSONObject:
        table = self.store.table(name)
        with seats.ACTIONS:
            with table.lock:
                player = self._me(table, token, body)
                choice = seats.choose(table, player, body.get("keep"))
                players = table.played.players
            if set(choice.keep) == set(players):
                self.store.change(table, choice.turn, lambda g: g.push("choose", keep=choice.keep), _nothing)
                table.choice = None
            with table.lock:
                return self._seat_view(table, player)

    def _turn_over(self, table: Table, vote: seats.Vote) -> None:
        """Once every card is shown and every joker declared, the engine judges and plays the turn."""
        if not vote.shown or vote.jein_due:
            return
        try:
            self.store.change(table, vote.turn,
                              lambda g: g.push(vote.move, vote=dict(vote.laid), jein=dict(vote.jein)), _nothing)
        except DnError as e:
            with table.lock:
                seats.refused(table, e.format(f"{table.name}.dn"))
            return
        with table.lock:
            table.vote = None

    # -- the host's side ------------------------------------------------------------------
    def seat_links(self, name: str | None, base: str) -> JSONObject:
        table = self.store.table(name)
        with table.lock:
            g = self.store.playable(table)
            present = self.hub.present(table.name)
            robots = bots_of(g)
            out = []
            for i, p in enumerate(g.players):
                urls = [f"{b}seat/{quote(table.name)}#{self.keys.token(table.name, i, p)}"
                        for b in (self.links or (base,))]
                out.append({"player": p, "seat": i, "links": urls, "joined": p in present,
                            "qr": qr_code(urls[0]), "bot": robots.get(p)})
        return {"seats": out, "reachable": bool(self.links)}

    def host_ballot(self, _store: Store, name: str | None, body: JSONObject) -> JSONObject:
        table = self.store.table(name)
        with seats.ACTIONS, table.lock:
            self.store.playable(table)
            on_turn(table, body)
            seats.call_vote(table, _text(body), None)
            return self.view(table)

    def host_call_off(self, _store: Store, name: str | None, body: JSONObject) -> JSONObject:
        table = self.store.table(name)
        with seats.ACTIONS, table.lock:
            self.store.playable(table)
            on_turn(table, body)
            seats.call_off(table, None)
            return self.view(table)

    async def host_events(self, request: Request) -> Response:
        self.store.path(request.path_params["name"])  # a bad name is 400 before any stream opens
        return self.hub.stream(request.path_params["name"])

    async def seat_events(self, request: Request) -> Response:
        name = request.path_params["name"]
        table = self.store.table(name)

        def check() -> str:
            with table.lock:
                try:
                    return self._me(table, request.headers.get("x-drunter-seat"))
                except DnError as e:  # the file is no valid record (any more)
                    raise Refused(422, e.format(f"{name}.dn")) from None
        return self.hub.stream(name, await run_in_threadpool(check))


def _nothing(table: Table) -> None:
    """The view of a seat's change: none, the seat's own view is made after it."""


@lru_cache(maxsize=256)
def qr_code(link: str) -> str:
    """The QR code of a seat's link, as an SVG data URI (made once: tens of ms each)."""
    return segno.make(link, error="m").svg_data_uri(scale=5, border=2)


def on_turn(table: Table, body: JSONObject) -> None:
    """409 when the body names a turn (``"turn": 12``) that is not the game's: the device saw an older game."""
    turn = body.get("turn")
    if turn is not None and turn != table.played.turn:
        raise Refused(409, _("turn {turn} is not the turn to play: the game is at turn {now} (someone else moved "
                             "first); reload and try again").format(turn=str(turn)[:12], now=table.played.turn))


def _text(body: JSONObject) -> str:
    text = body.get("move")
    if not isinstance(text, str) or not text.strip() or len(text) > 300:
        raise Refused(400, _("move: the legal move put to the vote, e.g. \"S2 c3-c4\""))
    return text.strip()
