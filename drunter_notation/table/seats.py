"""Seats of ``drunter play``: each player's own view on their own device, and what
must stay secret until the rules turn it over.

* A seat's token is an HMAC of the game's name, the seat and the player under a key
  the storage keeps (on a server ``DIR/.drunter-seats.key``, made once, mode 0600), and
  of the game's *salt*, random, made with the game and dropped when it is deleted
  (``DIR/.NAME.salt``), so links survive a restart and a deleted game's links open no
  game made after it under its name; it is compared in constant time.
* A secret ballot (rule B2: every player lays face down; all turn over together) is
  held in memory on its table (``Table.vote``, never written) until every voter has laid. Only then are the
  ballots shown, the jokers declared (B4) and the turn pushed to the engine, which
  judges and counts it. The expert choice (X2) is collected the same way.
* :func:`public_dn` is the record as anyone may read it: in the expert variant the
  goal cards stay out of it until the reveal.

Nothing here speaks HTTP beyond :class:`~.store.Refused`.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable
from dataclasses import replace

from drunter_notation.data.rulesets import catalogue
from drunter_notation.errors import DnError
from drunter_notation.explain.findings import arithmetic, card_lines
from drunter_notation.game import Game
from drunter_notation.i18n import _
from drunter_notation.notation.formatter import format_record
from drunter_notation.notation.model import CARD_NAMES, Goals
from drunter_notation.report.view import VOTE_RULES
from drunter_notation.rules import votes
from drunter_notation.table.ballots import Choice, Refusal, Vote
from drunter_notation.table.store import JSONObject, Refused, Table, Tables

KEY_FILE = ".drunter-seats.key"  # where a folder's storage keeps the seat key
TOKEN_CHARS = 22  # 132 bits of the HMAC, base64url


class Keys:
    """The seat key (``secret``: the storage's, made on first use) and the seat tokens made from it
    and each game's salt (``salt``: the storage's)."""

    def __init__(self, secret: Callable[[], bytes], salt: Callable[[str], str]):
        self._secret = secret
        self._salt = salt
        self._key: bytes | None = None

    @property
    def key(self) -> bytes:
        if self._key is None:
            self._key = self._secret()
        return self._key

    def token(self, game: str, seat: int, player: str) -> str:
        salt = self._salt(game)
        # The salt only when there is one: a record the table did not make keeps the links its name gives.
        what = f"seat\0{game}\0{seat}\0{player}" + (f"\0{salt}" if salt else "")
        mac = hmac.new(self.key, what.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).decode()[:TOKEN_CHARS]

    def seat(self, game: Game, name: str, given: str | None) -> str:
        """The player whose token ``given`` is, or 403. Every seat is compared, so the time does not say which."""
        found = None
        for i, p in enumerate(game.players):
            if hmac.compare_digest(self.token(name, i, p).encode(), (given or "").encode()[:64]):
                found = p
        if found is None:
            raise no_seat()
        return found


def no_seat() -> Refused:
    """A seat link that opens nothing: the same answer whether the game exists or not."""
    return Refused(403, _("this is no seat of this game: open the seat's link from the host page again"))


def seat_table(store: Tables, name: str | None) -> Table:
    """The game of a seat's link; no such game is answered as a link that opens no seat."""
    try:
        return store.table(name)
    except Refused as e:
        if e.status == 404:
            raise no_seat() from None
        raise


def seat_game(store: Tables, table: Table, keys: Keys, token: str | None) -> tuple[Game, str]:
    """The table's game and the seat ``token`` opens in it (its lock held); a record that does not
    read is the host's to mend, not any link's to read."""
    try:
        game = store.playable(table)
    except DnError:
        raise unread() from None
    return game, keys.seat(game, table.name, token)


def unread() -> Refused:
    """A seat's answer when the record does not read: what is wrong is the host's to read (it may quote a
    secret line), not any link's."""
    return Refused(409, _("this game's record cannot be read now: the host page can mend it"))


def public_dn(game: Game, text: str) -> str:
    """The record as anyone may read it: ``text``, except that an expert game's goal
    cards (dealt secretly, X1) are left out until the result is known."""
    if game.variant != "expert" or game.cards is None or game.result() is not None:
        return text
    record = game.to_record()
    return format_record(replace(record, setup=tuple(s for s in record.setup if not isinstance(s, Goals))))


def open_vote(table: Table) -> Vote | None:
    """The ballot in progress on the table's current turn (one left from an earlier turn is void)."""
    v = table.vote
    return v if v is not None and table.game is not None and v.turn == table.game.turn else None


def open_choice(table: Table) -> Choice | None:
    c = table.choice
    return c if c is not None and table.game is not None and c.turn == table.game.turn else None


# The functions below change a table's ballot or choice: call them with the table's lock held.

def call_vote(table: Table, move: str, by: str | None) -> Vote:
    """Open the ballot on ``move`` (a legal move that covers a toilet); ``by``: the seat asking (the placer)."""
    g = table.played
    if by is not None and by != g.to_move:
        raise Refused(403, _("it is {player}'s turn, not {other}'s").format(player=g.to_move, other=by))
    if (open_now := open_vote(table)) is not None:
        raise Refused(409, _("a vote on {move} is open already").format(move=open_now.move))
    legal = next((m for m in g.legal_moves() if str(m) == move), None)
    if legal is None or not legal.needs_vote:
        raise Refused(400, _("{move} is no legal move that goes to a vote now: play it with /moves").format(
            move=move[:40]))
    table.vote = Vote(g.turn, move, votes.voting_order(g.state, g.to_move))
    return table.vote


def call_off(table: Table, by: str | None) -> None:
    v = _need_vote(table)
    if by is not None and by != v.order[0]:
        raise Refused(403, _("only the placer (or the host) takes the tile back before the turn-over"))
    if v.shown:
        raise Refused(409, _("the cards are turned over: the vote is counted, it cannot be called off"))
    table.vote = None


def lay(table: Table, player: str, cards: object) -> Vote:
    """``player`` lays ``cards`` face down (None: takes them back, while not everyone has laid)."""
    v = _need_vote(table)
    if v.shown:
        raise Refused(409, _("every card is turned over already"))
    laid = dict(v.laid)
    if cards is None:
        laid.pop(player, None)
    else:
        if not isinstance(cards, list) or not 0 < len(cards) <= len(CARD_NAMES) \
                or not all(isinstance(c, str) for c in cards):
            raise Refused(400, _("cards: the vote cards laid, e.g. [\"JA\", \"?\"]"))
        table.played.check_ballot(player, cards)  # B003 to this seat alone: the others' ballots stay secret
        laid[player] = tuple(cards)
    table.vote = replace(v, laid=laid, refused=None)
    return table.vote


def declare(table: Table, player: str, side: object) -> Vote:
    """B4: ``player`` declares their joker, once all cards are shown."""
    v = _need_vote(table)
    if not v.shown or "JEIN" not in v.laid.get(player, ()):
        raise Refused(409, _("a JEIN is declared after every card is turned over, by the player who laid it"))
    if side not in ("yes", "no"):
        raise Refused(400, _("side: \"yes\" or \"no\""))
    table.vote = replace(v, jein={**v.jein, player: side})
    return table.vote


def refused(table: Table, path: str) -> None:
    """The engine refused the turn-over: every card back to its owner, the ballot open again."""
    if table.vote is not None:
        v = table.vote
        table.vote = replace(v, laid={}, jein={}, refused=Refusal(dict(v.laid), dict(v.jein), path))


def _problem(game: Game, v: Vote) -> str | None:
    """The engine's answer to the refused turn-over, judged again in the reader's language."""
    if v.refused is None:
        return None
    try:
        game.copy().push(v.move, vote=dict(v.refused.laid), jein=dict(v.refused.jein))
    except DnError as e:
        return e.format(v.refused.path)
    return None


def choose(table: Table, player: str, keep: object) -> Choice:
    """X2: ``player`` keeps one of their two goal cards, secret until the reveal."""
    g = table.played
    if not g.choice_due or g.cards is None:
        raise Refused(409, _("no choice is due now"))
    if keep not in g.cards[player]:
        raise Refused(400, _("keep: one of your goal cards, {first} or {second}").format(
            first=g.cards[player][0], second=g.cards[player][-1]))
    c = open_choice(table) or Choice(g.turn)
    table.choice = replace(c, keep={**c.keep, player: keep})
    return table.choice


def _need_vote(table: Table) -> Vote:
    v = open_vote(table)
    if v is None:
        raise Refused(409, _("no vote is open on this turn"))
    return v


def vote_json(game: Game, v: Vote | None, me: str | None = None) -> JSONObject | None:
    """What everyone sees of a ballot in progress: who has laid, and nothing of what
    until every card is turned over; then the cards, the jokers and the running count
    under the ruleset's B5. ``me``: that seat's own ballot too."""
    if v is None:
        return None
    out = {"move": v.move, "turn": v.turn, "placer": v.order[0], "order": list(v.order),
           "laid": [p for p in v.order if p in v.laid], "shown": v.shown, "problem": _problem(game, v),
           "ballots": None, "jein": None, "jein_due": None, "count": None}
    if me is not None:
        out["mine"] = list(v.laid.get(me, ())) or None
    if v.shown:
        out.update(ballots={p: list(v.laid[p]) for p in v.order}, jein=dict(v.jein), jein_due=list(v.jein_due),
                   count=count_json(game, votes.tally(game.ballots(v.laid, v.jein))))
    return out


def count_json(game: Game, t: votes.Tally, accepted: bool | None = None) -> JSONObject:
    """A tally in words, with the rule that decides it (B5) under the game's ruleset."""
    title = catalogue()["B5"].title
    return {"yes": t.yes, "no": t.no, "lines": list(card_lines(t)), "arithmetic": arithmetic(t),
            "accepted": votes.vote_outcome(t, game.state.options) if accepted is None else accepted,
            "rule": "B5", "title": _(title), "option": str(game.state.options.vote_outcome),
            "option_text": _(VOTE_RULES[str(game.state.options.vote_outcome)]),
            "citation": game.ruleset.cite("B5")}


def seat_json(table: Table, public: JSONObject, player: str) -> JSONObject:
    """A seat's view: the public table, then what only this player may see (their
    card or goal cards, the goal kept) and their own ballot or choice in progress."""
    game = table.played
    expert = game.variant == "expert"
    cards = game.cards[player] if game.cards is not None else None
    choice = open_choice(table)
    return public | {
        "vote": vote_json(game, open_vote(table), player),
        "me": {"name": player, "seat": game.players.index(player),
               "card": cards[0] if cards and not expert else None,
               "goals": list(cards) if cards and expert else None,
               "kept": game.kept.get(player) or (choice.keep.get(player) if choice else None),
               "to_move": public["to_move"] == player},
    }
