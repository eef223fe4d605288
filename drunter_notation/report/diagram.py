"""The game's flow as a Graphviz diagram, inlined in the report as SVG.

Turns form a chain, laid out as a snake of rows (left to right, then right to
left) so a 60-turn game stays about as wide as the page. A vote hangs two
branches under its turn: the outcome the count gave (solid) and the one it did not
(dashed). A track ending (gang removed, A5) hangs an octagon under its turn; the
expert ``choose`` sits in the chain as a double octagon; a violation ends the chain
in red. One ``dot`` call per report.

Node names are generated (``n0``, ``n1``...): ``dot`` copies them into SVG
comments and titles. Labels go through :func:`graphviz.escape` (no DOT escapes, no
HTML-like labels) and ``dot`` escapes them for XML, so user text stays text; each
line is :func:`~drunter_notation.errors.printable_text` first (a bidi override shown as ``\\u202e``, as on the page).
"""
from __future__ import annotations

import itertools
import re
import shutil
import signal
import subprocess

import graphviz
from markupsafe import Markup

from drunter_notation.errors import printable_text
from drunter_notation.explain.steps import track_ends
from drunter_notation.explain.words import and_list
from drunter_notation.files import os_reason
from drunter_notation.i18n import N_, _, format_number
from drunter_notation.notation.model import Choose
from drunter_notation.replay import Timeline
from drunter_notation.report.view import short_dn, violation

ROW = 8  # turns per row of the snake
MAX_DIAGRAM_TURNS = 400  # a longer game gets a notice instead: dot's time grows fast with the nodes
DOT_TIMEOUT = 30  # seconds
LABEL_LINE = 60  # characters per line of a node's label: a 50,000-character name is clipped
FONT = "DejaVu Sans,Arial,sans-serif"
# Left out of dot's SVG: namespaces (URLs, not needed inline), ids (they could clash
# with the page's), comments and titles (our generated node names) and the font
# family (the page's CSS sets it): a third of the size of a 60-turn diagram.
_TRIM = re.compile(r'\s(?:xmlns(?::\w+)?|id|font-family)="[^"]*"|<!--.*?-->|<title>[^<]*</title>', re.S)
_GAPS = re.compile(r">\s+<")
NO_DOT = N_("The game-flow diagram needs Graphviz: the 'dot' program was not found (install the graphviz package).")


def _clip(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def flow_graph(t: Timeline) -> graphviz.Digraph:
    """The diagram of ``t`` as a DOT graph (not yet rendered)."""
    g = graphviz.Digraph("flow", graph_attr={"rankdir": "TB", "nodesep": "0.25", "ranksep": "0.35",
                                             "bgcolor": "transparent", "fontname": FONT},
                         node_attr={"shape": "box", "style": "filled", "fillcolor": "#ffffff",
                                    "color": "#8a8f98", "fontname": FONT, "fontsize": "10", "height": "0.3"},
                         edge_attr={"color": "#8a8f98", "arrowsize": "0.6"})
    chain: list[str] = []
    names = iter(f"n{i}" for i in range(10**9))

    def node(label: str, **attrs: str) -> str:
        name = next(names)
        lines = (_clip(printable_text(line), LABEL_LINE) for line in label.split("\n"))
        g.node(name, graphviz.escape("\n".join(lines)), **attrs)
        return name

    chain.append(node(_("start") + "\n" + ", ".join(t.players), shape="ellipse", fillcolor="#eef2f7"))
    side: list[tuple[str, str, dict[str, str]]] = []  # (from, to, edge attrs) hanging under a chain node
    for step in t.steps:
        ev = step.event
        if isinstance(ev, Choose):
            chain.append(node(_("choose"), shape="doubleoctagon", fillcolor="#efe3fa", color="#7b52ab"))
            continue
        passed = ev.placement is None
        here = node(short_dn(ev), fillcolor="#f3f3f3" if passed else "#ffffff",
                    fontcolor="#777777" if passed else "#222222")
        chain.append(here)
        if step.tally is not None:
            score = f"{step.tally.yes}:{step.tally.no}"
            stands = node(_("stands {score}").format(score=score) if step.accepted else _("would stand"), fontsize="9",
                          **({"color": "#2e8b57", "fontcolor": "#1d6b41", "penwidth": "1.6"} if step.accepted
                             else {"style": "dashed", "fontcolor": "#999999"}))
            back = node(_("back to hand {score}").format(score=score) if not step.accepted else _("back to hand"),
                        fontsize="9",
                        **({"color": "#c0392b", "fontcolor": "#a5281b", "penwidth": "1.6"} if not step.accepted
                           else {"style": "dashed", "fontcolor": "#999999"}))
            vote = {"label": " " + _("vote"), "fontsize": "8"}
            side += [(here, stands, vote if step.accepted else {"style": "dashed"}),
                     (here, back, vote if not step.accepted else {"style": "dashed"})]
            with g.subgraph() as pair:  # "stands" always left of "back to hand"
                pair.attr(rank="same")
                pair.edge(stands, back, style="invis")
        for corner in step.removed:
            assert step.state is not None  # a gang is removed in a position reached
            end = node(track_ends(step.state.track_kind[corner], corner), shape="octagon",
                       fillcolor="#fdecea", color="#c0392b", fontsize="9")
            side.append((here, end, {"color": "#c0392b"}))
    stop = violation(t)
    if stop is not None:
        event, diag = stop
        chain.append(node(f"{short_dn(event)}\n{diag.code}: {_clip(diag.message)}", fillcolor="#fdecea",
                          color="#c0392b", fontcolor="#a5281b", penwidth="2"))
    elif t.record.reveal is not None and t.state is not None:
        if t.errors:
            d = t.errors[0]
            chain.append(node(_("reveal") + f"\n{d.code}: {_clip(d.message)}", shape="ellipse", fillcolor="#fdecea",
                              color="#c0392b"))
        elif t.winners and t.scores is not None:  # winners are scored
            win = and_list(f"{w} {t.scores[w]}" for w in t.winners)
            chain.append(node(_("reveal") + "\n" + _("winner: {names}").format(names=win), shape="ellipse",
                              fillcolor="#e8f5ee", color="#2e8b57"))
    for k in range(0, len(chain), ROW):
        row = chain[k:k + ROW]
        with g.subgraph() as s:
            s.attr(rank="same")
            for a, b in itertools.pairwise(row):
                if (k // ROW) % 2:  # odd rows run right to left: a reversed edge keeps dot's order
                    s.edge(b, a, dir="back")
                else:
                    s.edge(a, b)
        if k + ROW < len(chain):
            # two ranks down: the branches hanging under this row get the rank in between
            g.edge(row[-1], chain[k + ROW], weight="5", minlen="2")
    for a, b, attrs in side:
        g.edge(a, b, **attrs)
    return g


def flow_diagram(t: Timeline) -> Markup:
    """The flow diagram as inline ``<svg>``, or a notice in words in its place when
    ``dot`` is not installed, the game is too long to draw, or ``dot`` fails (an
    error, a crash, more than :data:`DOT_TIMEOUT` seconds): only the diagram is lost,
    and dot's own messages stay off the terminal. Nothing in the result refers to a URL."""
    dot = shutil.which("dot")
    if dot is None:
        return _notice(_(NO_DOT))
    if len(t.steps) > MAX_DIAGRAM_TURNS:
        return _notice(_("The game-flow diagram is left out: {n} turns are more than the {most} it draws.").format(
            n=format_number(len(t.steps)), most=format_number(MAX_DIAGRAM_TURNS)))
    try:
        done = subprocess.run([dot, "-Tsvg"], input=flow_graph(t).source.encode("utf-8"), capture_output=True,
                              timeout=DOT_TIMEOUT)
    except subprocess.TimeoutExpired:
        return _notice(_("The game-flow diagram could not be drawn: Graphviz took more than {n} s.").format(
            n=DOT_TIMEOUT))
    except OSError as e:
        return _notice(_("The game-flow diagram could not be drawn: Graphviz could not be run ({reason}).").format(
            reason=os_reason(e)))
    if done.returncode != 0:
        return _notice(_("The game-flow diagram could not be drawn: Graphviz failed on it ({how}).").format(
            how=_how(done.returncode)))
    out = done.stdout.decode("utf-8", "replace")
    if "<svg" not in out:
        return _notice(_("The game-flow diagram could not be drawn: Graphviz gave no picture."))
    body = out[out.index("<svg"):]  # inline SVG needs no XML prologue
    return Markup(_GAPS.sub("><", _TRIM.sub("", body)))


def _how(returncode: int) -> str:
    if returncode > 0:
        return _("it stopped with exit status {status}").format(status=returncode)
    try:
        return _("it crashed with {signal}").format(signal=signal.Signals(-returncode).name)
    except ValueError:
        return _("it was killed by signal {number}").format(number=-returncode)


def _notice(text: str) -> Markup:
    return Markup('<p class="notice">{}</p>').format(text)
