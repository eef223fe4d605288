"""HTML replay reports and the archive's index page.

Pure functions from replayed records to one self-contained HTML page each: inline
CSS, JS and SVG, no network, no external fonts. Templates live in ``templates/``
(Jinja2, autoescaping on); every picture is SVG built in :mod:`.svg` with user text
escaped there.

Design: the board is pre-rendered once per report with *all* tiles of the game,
each tagged with its index, plus per-frame marks (squares covered this turn, a
rejected or violating placement); one JSON blob (numbers only: tiles shown and gang
positions per frame) lets a small inline script step through the frames. The text
of each frame (move, vote, destroyed buildings, hands) is pre-rendered HTML the
script shows and hides. A 70-turn, 4-player game gives a page of about 270 KB (a fifth of it the
Graphviz diagram), rendered in about 60 ms.

Every page carries a strict Content-Security-Policy as the first thing in its
``<head>`` (:func:`content_policy`): nothing from the network, no inline script
or style but the page's own, allowed by their SHA-256 hashes computed over the
rendered text. User text (names, tags, comments, file and board names) is shown
as the terminal shows it: every control and format character -- a bidi override
that would reorder the line -- as its visible escape (``\\u202e``), through the
environment's ``finalize`` and the ``_()`` values (:func:`shown`).

A record that does not parse gets a small page of its own with the syntax error
(:func:`render_error`); the CLI writes it like any report. The index page
(:func:`render_index`) is built from :class:`IndexEntry` values alone, which the
CLI keeps in the output folder's manifest (see :mod:`.index`).
"""
from __future__ import annotations

import base64
import functools
import hashlib
import json
import os
import re
from collections.abc import Callable
from typing import Any

import jinja2
from markupsafe import Markup

from drunter_notation import i18n
from drunter_notation.errors import Diagnostic, json_safe, printable, printable_text, said_citation
from drunter_notation.explain.boardtext import building_letter
from drunter_notation.explain.words import and_list, building_name, goal_name, variant_name
from drunter_notation.i18n import N_, _, ngettext
from drunter_notation.replay import Timeline
from drunter_notation.report import svg
from drunter_notation.report.analysis import analysis_section
from drunter_notation.report.diagram import flow_diagram
from drunter_notation.report.index import IndexEntry, JsonObject, display_names, failed_entry, index_entry, summarize
from drunter_notation.report.view import build_view, outcome_text

__all__ = ["IndexEntry", "content_policy", "failed_entry", "index_entry", "record_count", "render_error",
           "render_index", "render_report", "shown"]


OUTCOME_COLOUR = {"accepted, more yes": "#1d7a46", "accepted on a tie": "#7fbf9a",
                  "rejected on a tie": "#e6a39b", "rejected, more no": "#c0392b"}


@functools.cache
def environment() -> jinja2.Environment:
    """The templates' environment: ``_()`` and ``ngettext()`` in them speak the
    language in force when a page is rendered (newstyle: ``_("Turn %(n)s", n=3)``,
    the values escaped); ``number`` and ``percent`` write figures as that language does.
    Every plain string a page shows, and every value put into a message, goes
    through :func:`shown`: a bidi control in a name is shown as ``\\u202e``."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("drunter_notation.report", "templates"),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True, finalize=shown,
                             undefined=jinja2.StrictUndefined, extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(gettext=i18n._, ngettext=i18n.ngettext, newstyle=True)  # type: ignore[attr-defined]  # added by the i18n extension
    # newstyle _() puts its values into the message as escaped Markup, past finalize: they are shown first
    gettext: Callable[..., Any] = env.globals["gettext"]  # type: ignore[assignment]  # the extension's callables
    plural: Callable[..., Any] = env.globals["ngettext"]  # type: ignore[assignment]

    @jinja2.pass_context
    def shown_gettext(context: jinja2.runtime.Context, message: str, /, **values: Any) -> Any:
        return context.call(gettext, message, **{k: shown(v) for k, v in values.items()})

    @jinja2.pass_context
    def shown_ngettext(context: jinja2.runtime.Context, singular: str, plural_: str, n: int, /,
                       **values: Any) -> Any:
        return context.call(plural, singular, plural_, n, **{k: shown(v) for k, v in values.items()})

    env.globals.update(gettext=shown_gettext, ngettext=shown_ngettext)
    # rounded first as "%.1f" rounds, so that English figures stay as they were
    env.filters["number"] = lambda x, digits=0: i18n.format_number(round(x, digits), digits)
    env.filters["percent"] = lambda x: i18n.format_percent(round(x * 100) / 100)
    env.filters["card"] = goal_name
    # a page's name as the bytes on disk: a name that is not UTF-8 (a\xff.html) links as a%FF.html
    env.filters["href"] = lambda path: jinja2.utils.url_quote(os.fsencode(path))
    env.globals.update(lang=i18n.language, building=building_name, card=goal_name, variant=variant_name,
                       listing=and_list, outcome=outcome_text, records=record_count, games_count=game_count,
                       player_counts=player_counts, said_citation=said_citation)
    return env


def shown(value: Any) -> Any:
    """A plain string as a page shows it, :func:`printable_text`: a control or format
    character, a bidi override, as its escape ``\\u202e``; letters of every script,
    emoji sequences with their zero-width joiners and line breaks as they are.
    Markup -- the pages' own HTML and SVG, whose user text went through
    :func:`svg.esc` -- and other values unchanged."""
    if isinstance(value, str) and not isinstance(value, Markup):
        return printable_text(value)
    return value


def script_json(data: object) -> Markup:
    """``data`` as JSON safe inside a ``<script>`` element: ``<``, ``>``, ``&`` and the
    two line separators JavaScript treats as line ends are written as escapes, and so
    is every other character :func:`printable` would escape (JSON's ``\\u202e``)."""
    text = json_safe(json.dumps(data, ensure_ascii=False, separators=(",", ":")))
    for ch in "<>&\u2028\u2029":
        text = text.replace(ch, f"\\u{ord(ch):04x}")
    return Markup(text)


# The placeholder _base.html.j2 puts where the policy goes: only known once the page is rendered.
CSP_PLACEHOLDER = "drunter-content-security-policy"
_INLINE = re.compile(r"<(script|style)\b([^>]*)>(.*?)</\1\s*>", re.S | re.I)


def content_policy(html: str) -> str:
    """The Content-Security-Policy of a rendered page: nothing by default, no network
    source at all; the page's inline scripts and ``<style>`` elements allowed by the
    SHA-256 of their exact text (a JSON data block is not run and needs none);
    no ``<base>``, no form submission. No style attributes: the pages use none."""
    hashes: dict[str, list[str]] = {"script": [], "style": []}
    for m in _INLINE.finditer(html):
        kind = m.group(1).lower()
        if kind == "script" and re.search(r"""\btype\s*=\s*["']?application/json""", m.group(2), re.I):
            continue
        digest = base64.b64encode(hashlib.sha256(m.group(3).encode("utf-8")).digest()).decode("ascii")
        if f"'sha256-{digest}'" not in hashes[kind]:
            hashes[kind].append(f"'sha256-{digest}'")
    rules = [f"{kind}-src {' '.join(h)}" for kind, h in hashes.items() if h]
    return "; ".join(["default-src 'none'", *rules, "base-uri 'none'", "form-action 'none'"])


def with_policy(html: str) -> str:
    """``html`` (a page rendered from ``_base.html.j2``) with its :func:`content_policy` in place."""
    return html.replace(CSP_PLACEHOLDER, content_policy(html), 1)


def render_report(timeline: Timeline, source_text: str, analysis: JsonObject | None = None) -> str:
    """The report page of one record. ``timeline`` must come from
    ``replay(..., keep_states=True)``; ``source_text`` is the record's text (shown
    at the bottom, with the erroneous lines marked). Never fails for an invalid
    record: it shows every turn up to the violation, then the violation.
    ``analysis`` (``drunter analyze --format json`` for this record) adds its charts."""
    view = build_view(timeline, source_text)
    frames = [{"n": f.tiles, "g": [[round(x, 1), round(y, 1), int(alive)] for x, y, alive in f.gangs]}
              for f in view.frames]
    return with_policy(environment().get_template("report.html.j2").render(
        v=view, t=timeline, frames_json=script_json(frames), diagram=flow_diagram(timeline),
        analysis=None if analysis is None else analysis_section(analysis, view.frames),
        building_colours=[(b, colour, building_letter(b)) for b, colour in svg.BUILDING_COLOUR.items()],
        kind_colours=[(kind, fill, line) for kind, (fill, line) in svg.KIND_COLOUR.items()]))


def render_error(path: str, diagnostic: Diagnostic, source_text: str) -> str:
    """A small page for a record that could not be parsed: the error and the text."""
    lines = [(n, text, "bad" if n == diagnostic.line else "") for n, text in enumerate(source_text.splitlines(), 1)]
    path = printable(path)  # a name that is not UTF-8 shown as its escape, as on the terminal
    return with_policy(environment().get_template("error.html.j2").render(path=path, d=diagnostic, lines=lines,
                                                                          title=path.rsplit("/", 1)[-1]))


def record_count(n: int) -> str:
    """``1 record``, ``3 records`` in the language in force."""
    return ngettext("{n} record", "{n} records", n).format(n=i18n.format_number(n))


def game_count(n: int) -> str:
    """``1 game``, ``3 games`` in the language in force."""
    return ngettext("{n} game", "{n} games", n).format(n=i18n.format_number(n))


def player_counts(counts: dict[int, int]) -> str:
    """How many games had how many players: ``3 with 4 players, 1 with 3 players``."""
    return ", ".join(ngettext("{games} with {n} players", "{games} with {n} players", k).format(games=k, n=n)
                     for n, k in sorted(counts.items()))


# The vote outcomes of the index's plot, as the reader reads them (the keys stay English: colours, manifest).
OUTCOME_NAMES = {"accepted, more yes": N_("accepted, more yes"), "accepted on a tie": N_("accepted on a tie"),
                 "rejected on a tie": N_("rejected on a tie"), "rejected, more no": N_("rejected, more no")}


def render_index(entries: list[IndexEntry]) -> str:
    """The archive's index page over ``entries``: per board, ruleset and variant
    the figures and plots of its valid complete games and a coverage heatmap; then
    every game, the partial and the invalid records in tables of their own, each
    named relative to the folder common to all records."""
    s = summarize(entries)
    # a name shown as the terminal lines show it: a byte that is not UTF-8 as \udcff, never a broken page
    names = {record: printable(name) for record, name in display_names(entries).items()}
    plots = [{
        "heat": svg.heatmap(g.board, g.heat, len(g.games)),
        "seats": svg.bar_chart(_("wins by seat"), [
            (seat_name(seat), wins, ngettext("of {n} game", "of {n} games", n).format(n=i18n.format_number(n)))
            for seat, wins, n in g.seats]),
        "cards": svg.bar_chart(_("wins by building card"), [(c, n, "") for c, n in g.wins_by_card],
                               svg.BUILDING_COLOUR, goal_name),
        "lengths": svg.bar_chart(_("games by length"), [(span_name(lo, hi), n, "") for (lo, hi), n in g.lengths]),
        "outcomes": svg.bar_chart(_("vote outcomes"), [(o, n, "") for o, n in g.outcomes], OUTCOME_COLOUR,
                                  lambda o: _(OUTCOME_NAMES[o])),
    } for g in s.groups]
    games = sorted((e for g in s.groups for e in g.games), key=lambda e: (e.date or "", names[e.record]))
    return with_policy(environment().get_template("index.html.j2").render(
        s=s, plots=plots, games=games, names=names,
        partial=sorted(s.partial, key=lambda e: names[e.record]),
        invalid=sorted(s.invalid, key=lambda e: names[e.record])))


def seat_name(seat: int) -> str:
    """The index's name of a seat (0-based): ``seat 1 (starts)``, ``seat 2``."""
    return _("seat {n} (starts)").format(n=seat + 1) if seat == 0 else _("seat {n}").format(n=seat + 1)


def span_name(low: int, high: int) -> str:
    """A range of game lengths: ``50–59 turns``."""
    return ngettext("{low}–{high} turn", "{low}–{high} turns", high).format(low=low, high=high)
