"""What a page sees of a game: the public view (:func:`game_json`, one JSON object with
everything the host's page shows), its board (:func:`board_svg`) and the rev that
changes with it. Made once per change and language."""
from __future__ import annotations

from hashlib import sha1

from drunter_notation import i18n
from drunter_notation.data.rulesets import catalogue
from drunter_notation.game import Game
from drunter_notation.i18n import _
from drunter_notation.kept import KeptByIdentity
from drunter_notation.notation.formatter import format_item
from drunter_notation.notation.model import CARD_NAMES, Choose, Turn, square_name
from drunter_notation.report import svg
from drunter_notation.report.view import owner_tags, position_board
from drunter_notation.rules import votes
from drunter_notation.rules.placement import Move
from drunter_notation.rules.scoring import votes_left
from drunter_notation.rules.state import Violation
from drunter_notation.rules.turn import Decision, judge_turn
from drunter_notation.table import seats
from drunter_notation.table.bots import bots_of, hints_of, level_of, paused_of
from drunter_notation.table.hidden import public_text
from drunter_notation.table.store import JSONObject, Table, title


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
    robots = bots_of(g)
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
        "bots": robots, "levels": {p: level_of(spec) for p, spec in robots.items()}, "paused": paused_of(g),
        "hints": hints_of(g),
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
    if table.game is None:  # a record that does not read: its text as anyone may read it
        return sha1(f"unread\n{public_text(table.text)}".encode()).hexdigest()[:16]
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
