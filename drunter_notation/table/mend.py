"""Mending a game at the table: take back to any earlier turn (and replay what
was taken back), and repair a record that is no valid record (cut it to its last
valid turn, or fix the offending line). Before a record is repaired, it is copied
whole to ``NAME.dn.bak`` beside it (atomically), so nothing is lost.

The routes here are plain functions ``(store, name, body)``, as :mod:`.endpoint` runs them.
"""
from __future__ import annotations

from collections.abc import Callable
from hashlib import sha1

from drunter_notation.errors import DnError, printable
from drunter_notation.game import Game
from drunter_notation.i18n import _, ngettext
from drunter_notation.notation.formatter import format_placement
from drunter_notation.notation.model import Choose, Turn
from drunter_notation.table.hidden import masked_error, public_text
from drunter_notation.table.store import JSONObject, Refused, Table, Tables, apply

View = Callable[[Table], JSONObject]  # the game's view a change answers with (views.game_json)

LINE_LIMIT = 1000  # characters in one line typed as a fix


def redo_op(kept: dict[str, str], event: Turn | Choose) -> JSONObject:
    """The journal op that plays ``event`` again (``kept``: the goal cards kept at it, for a choose)."""
    if isinstance(event, Choose):
        return {"op": "push", "move": "choose", "keep": kept or None}
    return {"op": "push", "move": "pass" if event.placement is None else format_placement(event.placement)}


def take_back(store: Tables, name: str | None, body: JSONObject, view: View) -> JSONObject:
    """``{"keep": K, "turn": T}``: every event after the first K taken back; they are
    kept (``taken_back``) until something else is played."""
    keep = body.get("keep")
    if not isinstance(keep, int) or isinstance(keep, bool):
        raise Refused(400, _("keep: the number of turns to keep, e.g. 3"))
    table = store.table(name)
    taken: list[JSONObject] = []
    op = {"op": "takeback", "keep": keep}

    def act(game: Game) -> None:
        if not 0 <= keep < len(game.events):
            raise Refused(409, _("keep: the number of turns to keep, 0 to {last}").format(last=len(game.events) - 1)
                          if game.events else _("nothing to take back: no turn has been played"))
        undone = []
        for _step in range(len(game.events) - keep):  # counted once: a long game is taken back in linear time
            kept = dict(game.kept)
            undone.append(redo_op(kept, game.pop()))
        # taken back again before anything else was played: replaying restores both
        taken.extend([*reversed(undone), *table.taken_back])
    return store.change(table, _turn(body), act, view, op=op, taken_back=taken)


def replay(store: Tables, name: str | None, body: JSONObject, view: View) -> JSONObject:
    """Play again, in one go, everything the last take-back took back."""
    table = store.table(name)
    ops = list(table.taken_back)
    if not ops:
        raise Refused(409, _("nothing to replay: no turn was taken back since the last move"))
    op = {"op": "batch", "ops": ops}
    return store.change(table, _turn(body), lambda game: apply(game, op), view, op=op)


def _turn(body: JSONObject) -> int | None:
    turn = body.get("turn")
    if turn is not None and (not isinstance(turn, int) or isinstance(turn, bool)):
        raise Refused(400, _("turn: the number of the turn the page showed, e.g. 12"))
    return turn


# -- a record that is no valid record --------------------------------------------------

def verdict(store: Tables, table: Table, text: str) -> JSONObject:
    """What ``drunter play`` says of ``text`` as the table's record (validate's verdict, and
    the table's own checks: its boards, the cards kept beside it): valid, or its first error
    (named by the file's name alone)."""
    filename = table.path.name
    try:
        game = store.reading(table, text)
    except DnError as error:
        e = masked_error(error, text)  # an error in a goals line is said without its secret cards
        d = e.diagnostic
        return {"valid": False, "verdict": e.format(filename), "line": d.line, "column": d.column, "code": d.code}
    n = len(game.events)
    return {"valid": True,
            "verdict": (ngettext("{file}: a valid record, {n} turn, over", "{file}: a valid record, {n} turns, over",
                                 n)
                        if game.is_over() else
                        ngettext("{file}: a valid record, {n} turn", "{file}: a valid record, {n} turns", n)
                        ).format(file=filename, n=n),
            "line": 0, "column": 0, "code": None}


def source(store: Tables, name: str | None, body: JSONObject) -> JSONObject:
    """The record's text as on disk, with its verdict, the offending line and where a cut would go."""
    table = _readable(store, name)
    with table.lock:
        return _source(store, table)


def _shown(table: Table) -> tuple[str, str]:
    """The text the page shows (an expert game's goal cards masked: they are secret) and its rev."""
    text = public_text(table.text)
    return text, sha1(text.encode()).hexdigest()[:16]


def _source(store: Tables, table: Table) -> JSONObject:
    text, rev = _shown(table)
    out: JSONObject = {"name": table.name, "rev": rev, "text": text} | verdict(store, table, table.text)
    shown = text.split("\n")  # masked line by line: the lines keep their numbers
    out["offending"] = shown[out["line"] - 1] if 0 < out["line"] <= len(shown) else None
    cut = _cut(store, table, table.text, out["line"]) if not out["valid"] else None
    out["cut"] = None if cut is None else {"lines": cut.count("\n"), **verdict(store, table, cut)}
    return out


def _cut(store: Tables, table: Table, text: str, line: int) -> str | None:
    """The text up to (without) ``line``, when that is a valid record; else None."""
    if line <= 1:
        return None
    cut = "\n".join(text.split("\n")[:line - 1]).rstrip("\n") + "\n"
    return cut if verdict(store, table, cut)["valid"] else None


def repair(store: Tables, name: str | None, body: JSONObject) -> JSONObject:
    """``{"cut": true}`` or ``{"line": N, "text": "..."}`` (and ``rev``, the text's rev the
    page showed): the record backed up to NAME.dn.bak, then written repaired. The
    answer is the new :func:`source` (with validate's verdict)."""
    table = _readable(store, name)
    with table.lock:
        store.fresh(table)
        if body.get("rev") is not None and body.get("rev") != _shown(table)[1]:
            raise Refused(409, _("the file changed since the page showed it; look at it again"))
        text = table.text
        if body.get("cut") is True:
            new = _cut(store, table, text, verdict(store, table, text)["line"])
            if new is None:
                raise Refused(409, _("cutting before the first error leaves no valid record; fix the line instead"))
        else:
            line, fix = body.get("line"), body.get("text")
            lines = text.split("\n")
            if not isinstance(line, int) or isinstance(line, bool) or not 1 <= line <= len(lines) \
                    or not isinstance(fix, str) or len(fix) > LINE_LIMIT or "\n" in fix or "\r" in fix:
                raise Refused(400, _("a fix is {example}: N from 1 to {last}, the text one line of at most {limit} "
                                     "characters").format(example='{"line": N, "text": "..."}', last=len(lines),
                                                          limit=LINE_LIMIT))
            new = "\n".join([*lines[:line - 1], fix, *lines[line:]])
            # a fix mends: a valid record may be edited, not broken by one request
            if table.game is not None and not verdict(store, table, new)["valid"]:
                raise Refused(409, _("this change would make a valid record invalid; nothing was written"))
        store.rewrite(table, new)
        return _source(store, table)


def _readable(store: Tables, name: str | None) -> Table:
    table = store.table(name)
    with table.lock:
        store.fresh(table)
        if table.error is not None and table.error.diagnostic.code == "I001":
            raise Refused(409, _("{file} cannot be read, so it cannot be mended here: {problem}").format(
                file=printable(table.path.name), problem=table.error.diagnostic.message))
    return table

