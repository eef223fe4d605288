"""The report's optional analysis section, drawn from ``drunter analyze --format json``:
"who protects what" (each player's card probabilities over the turns, one small
chart per player) and the win-chance graph with the turning points marked. Every
point on a chart that stands for a turn carries ``data-goto`` (the frame of that
turn), which the report's script steps to when it is clicked."""
from __future__ import annotations

from collections.abc import Iterable

from markupsafe import Markup

from drunter_notation.explain.evidence import percent, said, summary
from drunter_notation.explain.words import goal_name
from drunter_notation.i18n import N_, _, format_number, format_percent
from drunter_notation.report.index import JsonObject
from drunter_notation.report.svg import BUILDING_COLOUR, SEAT_COLOUR, esc
from drunter_notation.report.view import Frame

_PAIR_COLOURS = ("#7b52ab", "#a0672b", "#2471a3", "#c0392b", "#23875a", "#b7950b")
KINDS = {"mistake": N_("mistake"), "gain": N_("gain")}  # a turning point's kind, as the reader reads it


def frame_of_turns(frames: Iterable[Frame]) -> dict[int, int]:
    """Turn number -> the report frame that shows it (turn 0: the start)."""
    out = {0: 0}
    for f in frames:
        if f.kind == "turn" and f.label.isdigit():
            out[int(f.label)] = f.index
    return out


def _axes(width: int, height: int, left: int, right: int, top: int, bottom: int, turns: list[int]) -> list[str]:
    out = []
    for v in (0, 0.5, 1):
        y = height - bottom - v * (height - top - bottom)
        out.append(f'<line class="gridline" x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}"/>'
                   f'<text class="axis" x="{left - 4}" y="{y + 3:.1f}" text-anchor="end">{format_percent(v)}</text>')
    n = max(len(turns) - 1, 1)
    every = max(1, round(len(turns) / 8))
    for i in range(0, len(turns), every):
        x = left + i * (width - left - right) / n
        out.append(f'<text class="axis" x="{x:.1f}" y="{height - bottom + 14}" text-anchor="middle">{turns[i]}</text>')
    return out


def belief_chart(analysis: JsonObject, player: str, goto: dict[int, int], width: int = 360) -> Markup:
    """One player's probability of each card (expert: the six likeliest pairs at the
    end) over the turns; the card revealed, if known, drawn thick and starred. The
    legend sits under the plot (two columns in the base game, one for the longer
    expert pairs), so that the chart keeps its size on a 390 px phone."""
    left, right, top, bottom, plot = 40, 12, 22, 22, 120
    turns = [e["turn"] for e in analysis["turns"]]
    final = analysis["final"]["beliefs"][player]
    truth = (analysis["final"]["truth"] or {}).get(player)
    base = analysis["variant"] == "base"
    keys = list(final) if base else sorted(final, key=lambda k: -final[k])[:6]
    columns = 2 if base else 1
    height = top + plot + bottom + 16 * -(-len(keys) // columns) + 4
    n = max(len(turns) - 1, 1)
    dx, sy = (width - left - right) / n, plot
    label = _("{player}: probability of each card over the turns").format(player=player)
    out = [f'<svg class="belief" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
           f'aria-label="{esc(label)}">',
           f'<text class="legend" x="{left}" y="11"><tspan font-weight="700">{esc(player)}</tspan></text>']
    out += _axes(width, top + plot + bottom, left, right, top, bottom, turns)
    for k, key in enumerate(keys):
        colour = BUILDING_COLOUR.get(key, _PAIR_COLOURS[k % len(_PAIR_COLOURS)])
        pts = " ".join(f"{left + i * dx:.1f},{top + plot - e['beliefs'][player][key] * sy:.1f}"
                       for i, e in enumerate(analysis["turns"]))
        held = key == truth
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="{3 if held else 1.5}" points="{pts}">'
                   f'<title>{esc(goal_name(key))}</title></polyline>')
        lx = left + (k % columns) * (width - left) / columns
        ly = top + plot + bottom + 10 + (k // columns) * 16
        out.append(f'<rect x="{lx:.0f}" y="{ly - 5}" width="10" height="10" fill="{colour}"/>'
                   f'<text class="legend" x="{lx + 14:.0f}" y="{ly + 1}">{esc(goal_name(key))}{"*" if held else ""} '
                   f'{percent(final[key])}</text>')
    out.append("</svg>")
    return Markup("".join(out))


def win_chart(analysis: JsonObject, goto: dict[int, int], width: int = 360, plot: int = 170) -> Markup:
    """Each player's chance to win after every turn, the names in rows below the
    plot (drawn at a phone's width, so that the text stays legible), with the
    turning points as circles on the mover's line (red: a mistake, green: a gain),
    each a button."""
    left, right, top, bottom = 36, 10, 10, 22
    players = analysis["players"]
    per_row = 2 if max(len(p) for p in players) > 14 else 3
    rows = -(-len(players) // per_row)
    height = plot + 8 + rows * 18
    turns = [e["turn"] for e in analysis["turns"]]
    n = max(len(turns) - 1, 1)
    dx, sy = (width - left - right) / n, plot - top - bottom
    label = _("chance to win after every turn")
    out = [f'<svg class="win" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img" '
           f'aria-label="{esc(label)}">']
    out += _axes(width, plot, left, right, top, bottom, turns)
    for k, p in enumerate(players):
        colour = SEAT_COLOUR[k % len(SEAT_COLOUR)]
        pts = " ".join(f"{left + i * dx:.1f},{plot - bottom - e['win'][p] * sy:.1f}"
                       for i, e in enumerate(analysis["turns"]))
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{pts}"><title>{esc(p)}'
                   f'</title></polyline>')
        x, y = left + (k % per_row) * (width - left) / per_row, plot + 12 + (k // per_row) * 18
        out.append(f'<rect x="{x:.1f}" y="{y - 5}" width="12" height="10" fill="{colour}"/>'
                   f'<text class="legend" x="{x + 16:.1f}" y="{y}">{esc(p)}</text>')
    index = {t: i for i, t in enumerate(turns)}
    for tp in analysis["turning_points"]:
        i = index[tp["turn"]]
        y = plot - bottom - analysis["turns"][i]["win"][tp["player"]] * sy  # on the mover's line
        colour = "#c0392b" if tp["kind"] == "mistake" else "#1d7a46"
        label = _("turn {turn}: {player} {move}, {kind} {change} points").format(
            turn=tp["turn"], player=tp["player"], move=tp["move"], kind=_kind(tp["kind"]),
            change=f"{tp['change'] * 100:+.0f}")
        out.append(f'<circle class="tp" cx="{left + i * dx:.1f}" cy="{y:.1f}" r="6" fill="{colour}" '
                   f'stroke="#fff" stroke-width="1.5" data-goto="{goto.get(tp["turn"], 0)}" role="button" '
                   f'tabindex="0" aria-label="{esc(label)}"><title>{esc(label)}</title></circle>')
    out.append("</svg>")
    return Markup("".join(out))


def _points(x: float) -> int:
    """A chance in whole percentage points, as shown: a change is the difference of the figures shown."""
    return int(f"{x * 100:.0f}")


def _pct(x: float, se: float) -> str:
    return _("{value} ± {error}%").format(value=format_number(_points(x)), error=format_number(_points(se)))


def _kind(kind: str) -> str:
    return _(KINDS[kind]) if kind in KINDS else kind


def turning_item(tp: JsonObject, arrow: str = "→") -> str:
    """One turning point in words, as ``drunter analyze`` and the report give it;
    each change is the difference of the figures shown."""
    b = tp["better"]
    facts = {"player": tp["player"], "move": tp["move"], "kind": _kind(tp["kind"]), "arrow": arrow,
             "before": _pct(tp["before"], tp["before_se"]), "after": _pct(tp["after"], tp["after_se"]),
             "change": f"{_points(tp['after']) - _points(tp['before']):+d}",
             "error": format_number(_points(tp["change_se"]))}
    if b is None:
        return _("{player} {move}: {kind}, {before} with the move their style would play {arrow} {after} with the "
                 "move played ({change} ± {error}); no clearly better move found").format(**facts)
    return _("{player} {move}: {kind}, {before} with the move their style would play {arrow} {after} with the "
             "move played ({change} ± {error}); better: {better}, {better_chance} ({gain} ± {gain_error} over the "
             "move played)").format(better=b["move"], better_chance=_pct(b["win"], b["se"]),
                                    gain=f"{_points(b['win']) - _points(tp['after']):+d}",
                                    gain_error=format_number(_points(b["gain_se"])), **facts)


def analysis_section(analysis: JsonObject, frames: Iterable[Frame]) -> Markup:
    """The whole section: the belief charts, the win chart and the turning points as
    buttons (when the analysis has win chances), the evidence in words."""
    goto = frame_of_turns(frames)
    intro = _("Each player's probability of holding each card after every turn, from the moves they chose among "
              "the legal ones and from their ballots. The card revealed at the end is drawn thick and marked *; "
              "the percentages are those after the last turn ({most} at most while not certain). Styles: random, "
              "purposeful, bluffer (some moves for a decoy card), decoy (protects a second type too), builder, soft "
              "(docs/analysis.md).").format(most=percent(0.999))
    section, heading = _("analysis"), _("Who protects what")
    parts = [f'<section class="analysis" aria-label="{esc(section)}"><h2>{esc(heading)}</h2>',
             f'<p class="muted">{esc(intro)}</p>',
             '<div class="beliefs">', *(belief_chart(analysis, p, goto) for p in analysis["players"]), '</div>',
             '<ul class="evidence">']
    final = analysis["final"]
    for p in analysis["players"]:
        verdict = summary(p, final["beliefs"][p], final["styles"][p], final.get("favourite", {}).get(p))
        parts.append(f'<li><strong>{esc(verdict)}</strong><ul>')
        sentences = (said(p, item) for item in final["evidence"][p] if isinstance(item, dict))
        for sentence in [s for s in sentences if s is not None][:3]:  # an item of another release's is left out
            parts.append(f"<li>{esc(sentence)}</li>")
        parts.append("</ul></li>")
    parts.append("</ul>")
    if analysis["turns"][0].get("win") is not None:
        if analysis["policy"] == "inferred":
            who = _("each seat played by the style mix inferred for it")
        else:
            who = _("every seat played by the {policy} bot").format(policy=analysis["policy"])
        about = _("After every turn, from {n} playouts a position: the cards drawn from the beliefs after the turn, "
                  "{who}. Circles mark the turning points (click one to step there).").format(
            n=format_number(analysis["playouts"]), who=who)
        heading = _("Chance to win")
        parts += [f'<h2>{esc(heading)}</h2><p class="muted">{esc(about)}</p>', win_chart(analysis, goto)]
        if analysis["turning_points"]:
            note = _("Turning points: the mover's chance, their own card known (once revealed), each figure from "
                     "its own fresh playouts, ± one standard error; shown only when the change exceeds two standard "
                     "errors.")
            parts.append(f'<p class="muted">{esc(note)}</p><ul class="turning">')
            for tp in analysis["turning_points"]:
                turn = _("turn {turn}").format(turn=tp["turn"])
                parts.append(f'<li><button type="button" data-goto="{goto.get(tp["turn"], 0)}">'
                             f'{esc(turn)}</button> {esc(turning_item(tp))}</li>')
            parts.append("</ul>")
        else:
            none = _("No clear turning point: of the {n} placements examined, none changed its mover's chance by "
                     "more than two standard errors.").format(n=format_number(analysis.get("examined", 0)))
            parts.append(f'<p class="turning">{esc(none)}</p>')
    parts.append("</section>")
    return Markup("".join(str(p) for p in parts))
