"""The seats' works (a seat's view, its move, its ballot, its joker, its choice) and
the host's side of them (the seat links with their QR codes, the secret ballot opened
or called off). A seat's work answers only to its seat's token (a transport takes it
from the header ``X-Drunter-Seat``; the page keeps it in the link's fragment, which no
request and no log carries), and gives that seat's view (:func:`.seats.seat_json`).
"""
from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from urllib.parse import quote

from drunter_notation.errors import DnError
from drunter_notation.i18n import _
from drunter_notation.table import seats
from drunter_notation.table.answer import Reply, SeatWork
from drunter_notation.table.ballots import Vote
from drunter_notation.table.bots import bots_of
from drunter_notation.table.store import JSONObject, Refused, Table, Tables
from drunter_notation.table.views import board_svg, game_json

# A seat's act on its ballot: the vote as it now stands.
BallotChange = Callable[[Table, str, JSONObject], Vote]


class Seats:
    """The seats' works, one method each. ``present``: the seats of a game with a page
    open now (the transport knows); ``links``: the base URLs of the seats' links (none:
    the host page's own). Each work takes the store as every work does (it is
    :attr:`store`); :attr:`actions` are the seat's acts by name, which the bots' seats
    use (table/bots.py)."""

    def __init__(self, store: Tables, keys: seats.Keys, present: Callable[[str], set[str]], *,
                 links: tuple[str, ...] = ()):
        self.store, self.keys, self.present, self.links = store, keys, present, links
        self.view, self.board = game_json, board_svg

    @property
    def actions(self) -> dict[str, SeatWork]:
        return {"move": self.move, "ballot": self.ballot, "lay": self.lay, "jein": self.jein, "choose": self.choose}

    def _me(self, table: Table, token: str | None, body: JSONObject | None = None) -> str:
        """The seat ``token`` opens, checked against the table's game (with its lock held);
        with ``body``, its ``turn`` too (if given): an action meant for another turn is 409."""
        player = seats.seat_game(self.store, table, self.keys, token)[1]
        if body is not None:
            on_turn(table, body)
        return player

    def _table(self, name: str | None) -> Table:
        return seats.seat_table(self.store, name)

    def _seat_view(self, table: Table, player: str) -> JSONObject:
        return seats.seat_json(table, self.view(table), player)

    # -- a seat's own ---------------------------------------------------------------------
    def show(self, _store: Tables, name: str | None, body: JSONObject, *, token: str | None) -> JSONObject:
        table = self._table(name)
        with table.lock:
            return self._seat_view(table, self._me(table, token))

    def show_board(self, _store: Tables, name: str | None, body: JSONObject, *, token: str | None) -> Reply:
        table = self._table(name)
        with table.lock:
            self._me(table, token)
            return Reply(self.board(table), media="image/svg+xml")

    def move(self, _store: Tables, name: str | None, body: JSONObject, *, token: str | None) -> JSONObject:
        """The seat's own turn: a placement that needs no vote, or a pass."""
        text = body.get("move")
        if not isinstance(text, str) or not text.strip() or len(text) > 300 or text.strip() == "choose":
            raise Refused(400, _("move: DN text like \"S2 c3-c4\" or \"pass\" (a vote goes through /ballot)"))
        if any(k in body for k in ("vote", "jein", "keep")):
            raise Refused(400, _("a seat lays only its own cards: a vote goes through /ballot and /lay"))
        table = self._table(name)
        with table.lock:
            player = self._me(table, token, body)
            game = table.played
            if player != game.to_move:
                raise Refused(403, _("it is {player}'s turn, not {other}'s").format(player=game.to_move, other=player))
            turn = game.turn
        with table.actions:  # made at the turn checked: had another move come first, it is refused (409)
            self.store.change(table, turn, lambda g: g.push(text), _nothing)
        with table.lock:
            return self._seat_view(table, player)

    def ballot(self, _store: Tables, name: str | None, body: JSONObject, *, token: str | None) -> JSONObject:
        table = self._table(name)
        with table.actions, table.lock:
            player = self._me(table, token, body)
            seats.call_vote(table, _text(body), player)
            return self._seat_view(table, player)

    def call_off(self, _store: Tables, name: str | None, body: JSONObject, *, token: str | None) -> JSONObject:
        table = self._table(name)
        with table.actions, table.lock:
            player = self._me(table, token, body)
            seats.call_off(table, player)
            return self._seat_view(table, player)

    def lay(self, _store: Tables, name: str | None, body: JSONObject, *, token: str | None) -> JSONObject:
        return self._on_ballot(name, body, token, lambda table, player, b: seats.lay(table, player, b.get("cards")))

    def jein(self, _store: Tables, name: str | None, body: JSONObject, *, token: str | None) -> JSONObject:
        return self._on_ballot(name, body, token,
                               lambda table, player, b: seats.declare(table, player, b.get("side")))

    def _on_ballot(self, name: str | None, body: JSONObject, token: str | None, change: BallotChange) -> JSONObject:
        """A seat's act on the ballot (``change``), then the turn-over once it completes it."""
        table = self._table(name)
        with table.actions:
            with table.lock:
                player = self._me(table, token, body)
                vote = change(table, player, body)
            self._turn_over(table, vote)
            with table.lock:
                return self._seat_view(table, player)

    def choose(self, _store: Tables, name: str | None, body: JSONObject, *, token: str | None) -> JSONObject:
        table = self._table(name)
        with table.actions:
            with table.lock:
                player = self._me(table, token, body)
                choice = seats.choose(table, player, body.get("keep"))
                players = table.played.players
            if set(choice.keep) == set(players):
                self.store.change(table, choice.turn, lambda g: g.push("choose", keep=choice.keep), _nothing)
                table.choice = None
            with table.lock:
                return self._seat_view(table, player)

    def _turn_over(self, table: Table, vote: Vote) -> None:
        """Once every card is shown and every joker declared, the engine judges and plays the turn."""
        if not vote.shown or vote.jein_due:
            return
        try:
            self.store.change(table, vote.turn,
                              lambda g: g.push(vote.move, vote=dict(vote.laid), jein=dict(vote.jein)), _nothing)
        except DnError:
            with table.lock:
                seats.refused(table, f"{table.name}.dn")
            return
        with table.lock:
            table.vote = None

    # -- the host's side ------------------------------------------------------------------
    def seat_links(self, name: str | None, base: str) -> JSONObject:
        table = self._table(name)
        with table.lock:
            g = self.store.playable(table)
            present = self.present(table.name)
            robots = bots_of(g)
            out = []
            for i, p in enumerate(g.players):
                urls = [f"{b}seat/{quote(table.name)}#{self.keys.token(table.name, i, p)}"
                        for b in (self.links or (base,))]
                out.append({"player": p, "seat": i, "links": urls, "joined": p in present,
                            "qr": qr_code(urls[0]), "bot": robots.get(p)})
        return {"seats": out, "reachable": bool(self.links)}

    def host_ballot(self, _store: Tables, name: str | None, body: JSONObject) -> JSONObject:
        table = self._table(name)
        with table.actions, table.lock:
            self.store.playable(table)
            on_turn(table, body)
            seats.call_vote(table, _text(body), None)
            return self.view(table)

    def host_call_off(self, _store: Tables, name: str | None, body: JSONObject) -> JSONObject:
        table = self._table(name)
        with table.actions, table.lock:
            self.store.playable(table)
            on_turn(table, body)
            seats.call_off(table, None)
            return self.view(table)

    def seat_of(self, name: str, token: str | None) -> str:
        """The player whose seat ``token`` opens in game ``name`` (403 for none; 409 when the
        record is no valid record any more): a seat's event stream opens only then."""
        table = self._table(name)
        with table.lock:
            return self._me(table, token)


def _nothing(table: Table) -> None:
    """The view of a seat's change: none, the seat's own view is made after it."""


@lru_cache(maxsize=256)
def qr_code(link: str) -> str:
    """The QR code of a seat's link, as an SVG data URI (made once: tens of ms each)."""
    import segno  # only where seat links are shown: a page's worker that shows none loads no QR library

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
