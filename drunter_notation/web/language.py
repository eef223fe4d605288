"""The languages of ``drunter play``: which one a request speaks, the pages rendered in
it, and the words their scripts need, all from the one set of gettext catalogs.

A request speaks, in this order: the language its page sends in the header
``X-Drunter-Lang`` (the language menu's choice, kept on the device), the ``lang``
query parameter (the pages' own URLs), the browser's ``Accept-Language``; else English.
So each phone at the table reads its own language; codes, field names and DN never
change with it.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from babel.messages.extract import extract
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.datastructures import Headers, QueryParams
from starlette.types import ASGIApp, Receive, Scope, Send

from drunter_notation import i18n
from drunter_notation.data.rulesets import list_rulesets
from drunter_notation.errors import said_citation

HEADER = "x-drunter-lang"
STATIC = Path(__file__).resolve().parent / "static"
PLURAL_TABLE = 200  # the scripts' plural forms for 0..199; beyond, n % 100 + 100 decides, as in every gettext rule


def of(headers: Headers, query: QueryParams) -> str:
    """The language a request asks for (see above)."""
    for asked in (headers.get(HEADER), query.get("lang")):
        lang = i18n.parse_tag(asked[:40]) if asked else None
        if lang is not None:
            return lang
    return i18n.from_accept_language(headers.get("accept-language"))


class Speak:
    """ASGI middleware: the request handled (and refused) in the language it asks for."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        lang = of(Headers(scope=scope), QueryParams(scope.get("query_string", b"")))
        with i18n.using(lang):
            return await self.app(scope, receive, send)


@cache
def script_messages(folder: Path = STATIC) -> tuple[str | tuple[str, ...], ...]:
    """Every message the pages' scripts translate (``_()`` and ``ngettext()`` in static/*.js,
    or the browser edition's folder's), found as the catalogs' extractor finds them."""
    found: dict[str | tuple[str, ...], None] = {}
    for path in sorted(folder.glob("*.js")):
        with open(path, "rb") as f:
            for _lineno, message, _comments, _context in extract("javascript", f):
                found[message] = None
    return tuple(found)


@cache
def words(lang: str, folder: Path = STATIC) -> str:
    """What a page's scripts need of the catalog of ``lang``, as JSON: ``messages``
    (msgid: msgstr, a plural's msgid: its forms), ``plural`` (the form's index for
    0 to 199), the languages the menu offers, and ``citations``: each shipped ruleset's
    citation as the JSON has it (data) mapped to its wording in ``lang``, where they differ."""
    with i18n.using(lang):
        plural = [_form(lang, n) for n in range(PLURAL_TABLE)]
        firsts = {k: plural.index(k) for k in sorted(set(plural))}  # a count that takes each form
        messages: dict[str, str | list[str]] = {}
        for m in script_messages(folder):
            if isinstance(m, str):
                messages[m] = i18n._(m)
            else:
                messages[m[0]] = [i18n.ngettext(m[0], m[1], n) for n in firsts.values()]
        citations = {c: said_citation(c) for c in _citations() if said_citation(c) != c}
    data = {"lang": lang, "languages": list(i18n.LANGUAGES), "messages": messages, "plural": plural,
            "citations": citations}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")


def _citations() -> list[str]:
    """Every citation of the shipped rulesets, as the JSON answers carry them."""
    return sorted({r.cite(k) for r in list_rulesets() for k in r.sections}
                  | {r.cite_topic(k) for r in list_rulesets() for k in r.topic_sections})


def _form(lang: str, n: int) -> int:
    """The index of the plural form ``n`` takes in ``lang``, by its catalog's Plural-Forms."""
    t = i18n.translations(lang)
    rule = getattr(t, "plural", None)
    return int(rule(n)) if rule is not None else int(n != 1)


@cache
def _environment() -> Environment:
    env = Environment(loader=FileSystemLoader(STATIC), autoescape=select_autoescape(["html"]),
                      extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(i18n._, i18n.ngettext, newstyle=True, pgettext=i18n.pgettext)  # type: ignore[attr-defined]  # added by jinja2.ext.i18n
    return env


@cache
def page(name: str, lang: str) -> str:
    """The page ``name`` (``play.html``, ``seat.html``) in ``lang``, with its scripts' words."""
    with i18n.using(lang):
        return _environment().get_template(name).render(lang=lang, names=i18n.NAMES, words=words(lang))
