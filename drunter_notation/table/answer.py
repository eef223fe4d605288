"""What a work of the table answers, whatever carries it: a JSON object (status 200),
or a :class:`Reply` with its own status (a new game's 201, a refused move's 422 with
the verdicts) or its own media type (the board's SVG); its problems as JSON
(:class:`~.store.Refused`: its status; the engine's :class:`DnError`: 422 with its
diagnostics).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from drunter_notation.errors import DnError, printable, severity_word
from drunter_notation.i18n import N_, _
from drunter_notation.table.store import JSONObject, Refused, Tables

# How a move is typed at the table (the record's own syntax, @corner and all, is the DN hint's).
MOVE_HINT = N_("type a tile and the squares it covers, like W3 b1-d1 (add the corner it goes on from, like @a1, "
               "when two tracks could take it), or pass")


@dataclass(frozen=True)
class Reply:
    """An answer with a status or a media type of its own; ``etag``: the version it shows."""

    body: JSONObject | str
    status: int = 200
    media: str = "application/json"
    etag: str | None = None


Answer = Reply | JSONObject  # a work's result: a JSON object is answered with 200
Work = Callable[[Tables, str | None, JSONObject], Answer]


def answer(work: Callable[[], Answer], name: str | None) -> Reply:
    """``work``'s answer as a :class:`Reply`, its problems included."""
    try:
        result = work()
    except Refused as e:
        return Reply(e.as_json(), e.status)
    except DnError as e:
        return Reply(problem(e, name), 422)
    return result if isinstance(result, Reply) else Reply(result)


def json_object(raw: str | bytes | object) -> JSONObject:
    """A request's body as every transport takes it: JSON text (none is ``{}``) or a value
    already read, which must be a JSON object; anything else is refused (400)."""
    data = raw
    if isinstance(raw, (str, bytes)):
        try:
            data = json.loads(raw) if raw.strip() else {}
        except (ValueError, RecursionError):
            raise Refused(400, _("the body is not JSON")) from None
    if not isinstance(data, dict):
        raise Refused(400, _("the body is a JSON object, e.g. {example}").format(example='{"move": "S2 c3-c4"}'))
    try:  # JSON may spell half of a UTF-16 pair ("\ud800"), which no file, journal or answer can hold
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as e:
        raise Refused(400, _("the body's text holds {escape}, half of a UTF-16 pair: no character").format(
            escape=f"\\u{ord(e.object[e.start]):04x}")) from None
    except (TypeError, ValueError, RecursionError):  # a value a transport gave that JSON has no word for
        raise Refused(400, _("the body is not JSON")) from None
    return data


def no_route(path: str, method: str, *, other_methods: bool) -> Reply:
    """No route at ``path`` (404), or none that takes ``method`` (405): data and one translated line."""
    shown, method = printable(path[:200]), printable(method[:20])
    if other_methods:
        return Reply({"error": _("{path} does not take {method}").format(path=shown, method=method),
                      "code": "method-not-allowed", "data": {"path": shown, "method": method}}, 405)
    return Reply({"error": _("no page and no API route at {path}").format(path=shown), "code": "not-found",
                  "data": {"path": shown}}, 404)


def problem(e: DnError, name: str | None) -> JSONObject:
    """The engine's error as the API answers it: one line, and its diagnostic as ``validate`` gives it."""
    d = e.diagnostic
    if e.path == "move" and d.line:  # the move as typed does not read: worded as the move's, not the file's
        error = printable(_("the move typed, at column {column}: {severity}[{code}]: {message}").format(
            column=d.column, severity=severity_word(d.severity), code=d.code, message=d.message)
            + "; " + _(MOVE_HINT))
    else:
        error = e.format(e.path if e.path and e.path != "move" else f"{name}.dn" if name else _("the new game"))
    return {"error": error, "diagnostics": [d.as_json()]}


class SeatWork(Protocol):
    """The work of a seat: as :data:`Work`, with the seat's token."""

    def __call__(self, store: Tables, name: str | None, body: JSONObject, /, *, token: str | None) -> Answer: ...
