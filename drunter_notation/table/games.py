"""The host's works on the games: list, create, show, play, undo, reveal, tally,
adjudicate. Each is a plain function ``work(store, name, body)`` (name: the game's id
from the path, None without one) that answers a JSON object or a :class:`~.answer.Reply`,
or raises :class:`~.store.Refused` or the engine's :class:`DnError`. Every judgement is
the engine's (``Game.push``, ``adjudicate_position``); a work only carries it.
"""
from __future__ import annotations

from dataclasses import replace

from drunter_notation import adjudication as adj
from drunter_notation.data.rulesets import list_rulesets
from drunter_notation.errors import DnError
from drunter_notation.game import Game
from drunter_notation.i18n import _, language
from drunter_notation.notation.formatter import format_placement
from drunter_notation.notation.model import BUILDINGS, CARD_NAMES, GOALS, Choose
from drunter_notation.notation.parser import parse_move
from drunter_notation.rules import votes
from drunter_notation.table import seats
from drunter_notation.table.answer import Reply, problem
from drunter_notation.table.bots import new_game_tags, room_for_bots
from drunter_notation.table.store import JSONObject, Refused, Table, Tables, apply, game_id, title
from drunter_notation.table.views import board_svg, game_json, public_rev

MAX_GAMES = 1000  # games in the folder: each is read into memory when the games are listed


def options(store: Tables, name: str | None, body: JSONObject) -> JSONObject:
    return {"boards": store.boards(), "rulesets": [{"id": r.id, "name": _(r.name)} for r in list_rulesets()],
            "variants": ["base", "expert"], "buildings": list(BUILDINGS), "goals": list(GOALS),
            "cards": list(CARD_NAMES)}


def list_games(store: Tables, name: str | None, body: JSONObject) -> JSONObject:
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


def create_game(store: Tables, name: str | None, body: JSONObject) -> Reply:
    tags = new_game_tags(body)
    with store.admitting:  # two made at once: the second counts the first
        if len(store.names()) >= MAX_GAMES:
            raise Refused(409, _("the folder holds {most} games, the most a table keeps: delete games that are "
                                 "over (they go to the archive folder) or start drunter play in another folder").format(
                                     most=MAX_GAMES), "too-many-games", {"most": MAX_GAMES})
        if "Bots" in tags:
            room_for_bots(store)
        table = store.create(body, tags)
    with table.lock:
        return Reply(game_json(table), 201)


def show_game(store: Tables, name: str | None, body: JSONObject) -> JSONObject:
    table = store.table(name)
    with table.lock:
        store.playable(table)
        return game_json(table)


def delete_game(store: Tables, name: str | None, body: JSONObject) -> JSONObject:
    """``DELETE /api/games/NAME``: the game ended and deleted, its record moved to the archive."""
    return {"deleted": game_id(name), "archived": store.delete(store.table(name))}


def show_board(store: Tables, name: str | None, body: JSONObject) -> Reply:
    table = store.table(name)
    with table.lock:
        store.playable(table)
        # the same position in another language is another picture: its titles are words
        return Reply(board_svg(table), media="image/svg+xml", etag=f"{public_rev(table)}-{language()}")


def game_rev(store: Tables, name: str | None, body: JSONObject) -> JSONObject:
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


def play_move(store: Tables, name: str | None, body: JSONObject) -> Reply | JSONObject:
    text, turn = _move_text(body), _turn(body)
    vote, jein, keep = _mapping(body, "vote", lists=True), _mapping(body, "jein"), _mapping(body, "keep")
    table = store.table(name)
    op = {"op": "push", "move": text, "vote": vote, "jein": jein, "keep": keep}

    def push(g: Game) -> None:
        if g.cards is not None and g.choice_due and _is_choose(text):  # the goals are secret: each seat keeps its own
            raise Refused(409, _("each player keeps a goal card on their own seat; the host page records the choice "
                                 "only when the app does not know the goal cards"))
        apply(g, op)
    try:
        return store.change(table, turn, push, game_json, op=op)
    except DnError as e:
        with table.lock:
            verdicts = _what_if(table, text, vote, jein) if table.game is not None else None
        return Reply(problem(e, name) | {"adjudication": verdicts}, 422)


def _is_choose(text: str) -> bool:
    try:
        return isinstance(parse_move(text, "move"), Choose)
    except DnError:
        return False


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


def undo(store: Tables, name: str | None, body: JSONObject) -> JSONObject:
    op = {"op": "pop"}

    def pop(g: Game) -> None:
        if not g.events:
            raise Refused(409, _("nothing to undo: no turn has been played"))
        apply(g, op)
    return store.change(store.table(name), _turn(body), pop, game_json, op=op)


def reveal(store: Tables, name: str | None, body: JSONObject) -> JSONObject:
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


def tally(store: Tables, name: str | None, body: JSONObject) -> JSONObject:
    vote, jein = _mapping(body, "vote", lists=True) or {}, _mapping(body, "jein")
    table = store.table(name)
    with table.lock:
        g = store.playable(table)
        return seats.count_json(g, votes.tally(g.ballots(vote, jein)))


def adjudicate(store: Tables, name: str | None, body: JSONObject) -> JSONObject:
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
