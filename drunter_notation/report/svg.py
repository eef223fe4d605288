"""SVG pictures for the reports: the board with its tiles and gangs, the points
chart, the coverage heatmap and the index's bar plots.

Every function returns :class:`markupsafe.Markup` built from numbers, fixed words
and text passed through :func:`esc` -- player names and other user text never
reach the page unescaped. Squares are ``(column, row)`` 0-based; north is up.

The board is drawn once per report: the empty board, then *every* tile of the game
in the order laid (``<g class="tile" data-i="k">``, each with its owner's chip and
labels for what it buried), then per-frame marks
(``<g class="mark off" data-frame="f">``), then the four gangs. The page's script
shows the first *n* tiles and the current frame's marks and moves the gangs (see
``templates/report.html.j2``); tiles are never taken off the board, so this is
exact and keeps a 60-turn report small. Every symbol carries ``data-sym``, the
name of its entry in the page's legend.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

from drunter_notation.errors import printable_text
from drunter_notation.explain.boardtext import TRACK_LETTER, building_letter, square_text
from drunter_notation.explain.words import building_name
from drunter_notation.i18n import _, ngettext
from drunter_notation.notation.model import Square, square_name
from drunter_notation.rules.board import Board

BUILDING_COLOUR = {"museum": "#7b52ab", "tavern": "#a0672b", "school": "#2471a3",
                   "townhall": "#b03a48", "firehouse": "#e07b16", "church": "#23875a"}
# (fill, outline) per track kind: grey stone wall, sandy street, blue river.
KIND_COLOUR = {"wall": ("#8d8a86", "#4e4b48"), "street": ("#e3c27a", "#9c7a2e"), "river": ("#6fb3e0", "#2a74a8")}
# One colour per seat for the owner chip on each tile: dark enough for white initials,
# and none a building's red, since red on the board means a violation.
SEAT_COLOUR = ("#1f3a93", "#0f7c6e", "#8e3b8c", "#5b4a1e")
MARGIN = 22  # room for the coordinates around the grid


def esc(text: object) -> str:
    """Text made safe for SVG/HTML content and attribute values, shown as the
    terminal shows it: a control or format character (a bidi override) as its
    escape ``\\u202e``, as the pages' text is (``report.shown``)."""
    return escape(printable_text(str(text)), quote=True)


@dataclass(frozen=True)
class Geometry:
    """Where a board's squares are drawn: ``cell`` pixels per square, coordinates in the margin."""

    width: int
    height: int
    cell: int

    @classmethod
    def of(cls, board: Board) -> Geometry:
        # About 600 pixels for the longer side; never so small the letters stop being legible.
        return cls(board.width, board.height, max(18, min(48, 600 // max(board.width, board.height))))

    @property
    def size(self) -> tuple[int, int]:
        return self.width * self.cell + 2 * MARGIN, self.height * self.cell + 2 * MARGIN

    def corner(self, sq: Square) -> tuple[int, int]:
        """Top-left pixel of ``sq`` (row 1 at the bottom)."""
        return MARGIN + sq[0] * self.cell, MARGIN + (self.height - 1 - sq[1]) * self.cell

    def centre(self, sq: Square) -> tuple[float, float]:
        x, y = self.corner(sq)
        return x + self.cell / 2, y + self.cell / 2


@dataclass(frozen=True)
class TileDrawing:
    """One laid tile: kind name, squares anchor first, the direction it runs in
    (the step from gang to anchor), its tooltip text, who laid it (seat and the
    short tag on its chip), the buildings it destroyed as (square, type, value)
    and the toilets it covered."""

    kind: str
    squares: tuple[Square, ...]
    direction: Square
    label: str
    seat: int = 0
    owner: str = ""
    destroyed: tuple[tuple[Square, str, int], ...] = ()
    toilets: tuple[Square, ...] = ()


def _box(g: Geometry, squares: Iterable[Square], inset: float) -> tuple[float, float, float, float]:
    """x, y, width, height of the rectangle around ``squares``, ``inset`` pixels inside."""
    xs = [g.corner(s)[0] for s in squares]
    ys = [g.corner(s)[1] for s in squares]
    return (min(xs) + inset, min(ys) + inset,
            max(xs) - min(xs) + g.cell - 2 * inset, max(ys) - min(ys) + g.cell - 2 * inset)


def _rects(g: Geometry, squares: Iterable[Square], cls: str, sym: str) -> str:
    return "".join(f'<rect class="{cls}" data-sym="{sym}" x="{x}" y="{y}" width="{g.cell}" height="{g.cell}"/>'
                   for x, y in (g.corner(s) for s in squares))


def static_board(board: Board, g: Geometry) -> str:
    """The empty board: squares with buildings (type colour, letter, value), toilets,
    corners with their track, and the coordinates on all four sides."""
    c = g.cell
    right, bottom = MARGIN + board.width * c, MARGIN + board.height * c
    # plain squares are the background and one path of grid lines
    lines = "".join(f"M{MARGIN + k * c},{MARGIN}V{bottom}" for k in range(board.width + 1)) + "".join(
        f"M{MARGIN},{MARGIN + k * c}H{right}" for k in range(board.height + 1))
    out = [f'<rect class="bg" x="{MARGIN}" y="{MARGIN}" width="{right - MARGIN}" height="{bottom - MARGIN}"/>'
           f'<path class="gridlines" d="{lines}"/>']
    for col in range(board.width):
        for row in range(board.height):
            sq = (col, row)
            x, y = g.corner(sq)
            cx, cy = x + c / 2, y + c / 2
            name = square_name(sq)
            if sq in board.corners:
                kind = board.corners[sq]
                fill, line = KIND_COLOUR[kind]
                title = {"wall": _("{square}: corner, start of the wall"),
                         "street": _("{square}: corner, start of the street"),
                         "river": _("{square}: corner, start of the river")}[kind].format(square=name)
                out.append(f'<g class="sq corner" data-sym="corner"><title>{esc(title)}</title>'
                           f'<rect x="{x}" y="{y}" width="{c}" height="{c}" fill="{fill}" stroke="{line}"'
                           f' stroke-width="2"/><text x="{cx}" y="{cy}" class="big">{TRACK_LETTER[kind]}</text></g>')
            elif sq in board.buildings:
                btype, value = board.buildings[sq]
                colour = BUILDING_COLOUR[btype]
                out.append(f'<g class="sq bld" data-sym="building">'
                           f'<title>{name}: {esc(building_name(btype))} {value}</title>'
                           f'<rect x="{x}" y="{y}" width="{c}" height="{c}" fill="{colour}" fill-opacity="0.22"'
                           f' stroke="{colour}"/><text x="{cx}" y="{cy - c * 0.12}" class="big" fill="{colour}">'
                           f'{building_letter(btype)}</text><text x="{cx}" y="{cy + c * 0.28}" class="small"'
                           f' fill="{colour}">{value}</text></g>')
            elif sq in board.toilets:
                title = _("{square}: toilet (covering it is put to a vote)").format(square=name)
                out.append(f'<g class="sq wc" data-sym="toilet"><title>{esc(title)}</title>'
                           f'<rect x="{x}" y="{y}" width="{c}" height="{c}"/>'
                           f'<text x="{cx}" y="{cy}" class="small">WC</text></g>')
    out.append(coordinates(g, all_sides=True))
    return "".join(out)


def coordinates(g: Geometry, all_sides: bool) -> str:
    """Column letters below and row numbers left of the grid; ``all_sides``: above and right too."""
    w, h = g.size
    out = []
    for col in range(g.width):
        x = MARGIN + col * g.cell + g.cell / 2
        for y in (h - MARGIN / 2, MARGIN / 2)[:1 + all_sides]:
            out.append(f'<text class="coord" x="{x}" y="{y}">{chr(ord("a") + col)}</text>')
    for row in range(g.height):
        y = g.centre((0, row))[1]
        for x in (MARGIN / 2, w - MARGIN / 2)[:1 + all_sides]:
            out.append(f'<text class="coord" x="{x}" y="{y}">{row + 1}</text>')
    return "".join(out)


def tile_svg(t: TileDrawing, g: Geometry, index: int) -> str:
    """A tile by kind: its body, a bar on the anchor's marked side (facing the
    gang), railings on the bridge field of a triple, an arrowhead on the end; on
    top, what it buried (each destroyed building's letter and value struck
    through, each covered toilet) and its owner's chip on the anchor."""
    c = g.cell
    fill, line = KIND_COLOUR[t.kind]
    x, y, w, h = _box(g, t.squares, 2)
    dx, dy = t.direction[0], -t.direction[1]  # screen y grows downwards
    # a plain square under the tile hides the colour and outline of what it covers
    parts = [f'<rect class="under" x="{x - 2}" y="{y - 2}" width="{w + 4}" height="{h + 4}"/>'
             f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="4" fill="{fill}" stroke="{line}"'
             ' stroke-width="1.5"/>']
    ax, ay = g.centre(t.squares[0])
    half = c / 2 - 4
    # the anchor bar: across the tile, on the side facing the gang
    bx, by = ax - dx * half, ay - dy * half
    px, py = -dy * half, dx * half
    parts.append(f'<line data-sym="anchor" x1="{bx - px}" y1="{by - py}" x2="{bx + px}" y2="{by + py}"'
                 f' stroke="{line}" stroke-width="4" stroke-linecap="round"/>')
    if len(t.squares) == 3:
        mx, my = g.centre(t.squares[1])
        q = c / 2 - 7
        rails = "".join(f'<line x1="{mx + ox - dx * q}" y1="{my + oy - dy * q}" x2="{mx + ox + dx * q}"'
                        f' y2="{my + oy + dy * q}"/>' for ox, oy in ((-dy * q * k, dx * q * k) for k in (-1, 1)))
        parts.append(f'<g data-sym="bridge" stroke="#fff" stroke-width="2.5">{rails}</g>')
    ex, ey = g.centre(t.squares[-1])
    tip, base = c * 0.3, c * 0.1
    pts = [(ex + dx * tip, ey + dy * tip), (ex - dx * base - dy * c * 0.16, ey - dy * base + dx * c * 0.16),
           (ex - dx * base + dy * c * 0.16, ey - dy * base - dx * c * 0.16)]
    parts.append('<polygon data-sym="end" points="' + " ".join(f"{px_:.1f},{py_:.1f}" for px_, py_ in pts)
                 + f'" fill="{line}" opacity="0.8"/>')
    # the owner's chip sits in the anchor's front left corner, clear of the bar, the arrow and the gang
    chip = (ax + (dx * 0.28 - dy * 0.32) * c, ay + (dy * 0.28 + dx * 0.32) * c)
    # labels of what lies buried go to the half of the square the chip leaves free
    below = {sq: not (sq == t.squares[0] and chip[1] > ay) for sq in t.squares}
    parts += [buried_building(g, sq, btype, value, below[sq]) for sq, btype, value in t.destroyed]
    parts += [buried_toilet(g, sq, below[sq]) for sq in t.toilets]
    parts.append(owner_chip(chip, c, t.seat, t.owner))
    return (f'<g class="tile {t.kind}" data-i="{index}" data-sym="tile-{t.kind}"><title>{esc(t.label)}</title>'
            + "".join(parts) + "</g>")


def buried_building(g: Geometry, sq: Square, btype: str, value: int, below: bool) -> str:
    """A destroyed building's letter and value on a white label, struck through,
    in the lower (``below``) or upper half of its square."""
    c = g.cell
    cx, cy = g.centre(sq)
    colour = BUILDING_COLOUR[btype]
    w, h, ty = c * 0.62, c * 0.32, cy + c * (0.25 if below else -0.25)
    return (f'<g class="buried" data-sym="destroyed"><rect x="{cx - w / 2:.1f}" y="{ty - h / 2:.1f}" width="{w:.1f}"'
            f' height="{h:.1f}" rx="2" fill="#fff" fill-opacity="0.92" stroke="{colour}"/>'
            f'<text class="small" x="{cx}" y="{ty:.1f}" fill="{colour}">{building_letter(btype)}{value}</text>'
            f'<line x1="{cx - w / 2 + 2:.1f}" y1="{ty:.1f}" x2="{cx + w / 2 - 2:.1f}" y2="{ty:.1f}"'
            f' stroke="{colour}" stroke-width="1.6"/></g>')


def buried_toilet(g: Geometry, sq: Square, below: bool) -> str:
    """A covered toilet: a small WC label in the toilet's colours (placed as :func:`buried_building`)."""
    c = g.cell
    cx, cy = g.centre(sq)
    w, h, ty = c * 0.5, c * 0.28, cy + c * (0.25 if below else -0.25)
    return (f'<g class="buried wc" data-sym="covered-toilet"><rect x="{cx - w / 2:.1f}" y="{ty - h / 2:.1f}"'
            f' width="{w:.1f}" height="{h:.1f}" rx="2" fill="#eef4f5" stroke="#6b8f96"/>'
            f'<text x="{cx}" y="{ty:.1f}">WC</text></g>')


def owner_chip(at: tuple[float, float], cell: int, seat: int, tag: str) -> str:
    """Who laid a tile: a disc in their seat colour with their short tag."""
    x, y = at
    return (f'<g class="owner" data-sym="owner"><circle cx="{x:.1f}" cy="{y:.1f}" r="{cell * 0.16:.1f}"'
            f' fill="{SEAT_COLOUR[seat % len(SEAT_COLOUR)]}" stroke="#fff" stroke-width="1"/>'
            f'<text x="{x:.1f}" y="{y:.1f}">{esc(tag)}</text></g>')


def marks_svg(g: Geometry, frame: int, covered: Iterable[Square] = (), rejected: Iterable[Square] = (),
              bad: Iterable[Square] = ()) -> str:
    """The marks of one frame: squares covered this turn, a rejected placement's
    squares (dashed), the squares of a violating placement (red)."""
    body = (_rects(g, covered, "hl", "covered-now") + _rects(g, rejected, "rej", "rejected")
            + _rects(g, bad, "bad", "violation"))
    return f'<g class="mark off" data-frame="{frame}">{body}</g>' if body else ""


def gang_svg(kind: str, corner: Square, g: Geometry, index: int, at: Square | None = None,
             removed: bool = False) -> str:
    """A gang marker drawn on ``at`` (default its corner, where the report's script
    moves it from with ``transform``); ``removed`` greys it out with a cross."""
    line = KIND_COLOUR[kind][1]
    r = g.cell * 0.27
    x, y = g.centre(corner if at is None else at)
    return (f'<g class="gang{" removed" if removed else ""}" data-sym="gang" id="gang-{index}"'
            f' transform="translate({x},{y})"><title>{esc(gang_title(kind, corner))}</title>'
            f'<circle r="{r:.1f}" fill="{line}" stroke="#fff" stroke-width="2"/>'
            f'<text class="gl" y="1">{TRACK_LETTER[kind]}</text>'
            f'<path class="x" d="M{-r:.1f},{-r:.1f}L{r:.1f},{r:.1f}M{r:.1f},{-r:.1f}L{-r:.1f},{r:.1f}"/></g>')


def gang_title(kind: str, corner: Square) -> str:
    """A gang's tooltip: ``gang of the wall from a1``."""
    return {"wall": _("gang of the wall from {corner}"), "street": _("gang of the street from {corner}"),
            "river": _("gang of the river from {corner}")}[kind].format(corner=square_name(corner))


def targets_svg(g: Geometry) -> str:
    """One transparent square per board square (``data-sq="c3"``) on top of everything,
    for a page to mark and take taps on (``drunter play``)."""
    return "".join(f'<rect class="hit" data-sq="{square_name((col, row))}" x="{x}" y="{y}" width="{g.cell}"'
                   f' height="{g.cell}"/>' for col in range(g.width) for row in range(g.height)
                   for x, y in (g.corner((col, row)),))


def board_svg(board: Board, tiles: list[TileDrawing], marks: list[str], gangs: list[tuple[str, Square]],
              places: list[tuple[Square, bool]] | None = None, targets: bool = False) -> Markup:
    """The whole board picture of a report (see the module docstring for its layers).
    ``places``: where each gang stands and whether it was removed, for a picture of
    one position (default: on their corners, for the report's script to move);
    ``targets``: the tap layer of :func:`targets_svg`."""
    g = Geometry.of(board)
    w, h = g.size
    at: Sequence[tuple[Square | None, bool]] = places or [(None, False)] * len(gangs)
    label = _("the board")
    return Markup(
        f'<svg id="board" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" aria-label="{esc(label)}">'
        f'<g class="static">{static_board(board, g)}</g>'
        f'<g class="tiles">{"".join(tile_svg(t, g, i) for i, t in enumerate(tiles))}</g>'
        f'<g class="marks">{"".join(marks)}</g>'
        f'<g class="gangs">{"".join(gang_svg(k, c, g, i, *at[i]) for i, (k, c) in enumerate(gangs))}</g>'
        + (f'<g class="targets">{targets_svg(g)}</g>' if targets else "") + '</svg>')


def points_chart(series: dict[str, list[int]], labels: list[str], width: int = 640, height: int = 230) -> Markup:
    """Each building type's remaining points over the frames: one polyline per type,
    ``labels[i]`` naming frame i on the x axis (every so often); a marker line
    ``#chart-now`` the script moves to the current frame (``data-x0``/``data-dx``)."""
    legends = {btype: f"{building_name(btype)} {values[-1]}" for btype, values in series.items()}
    # the legend's column: wide enough for its longest entry (about 6.5 pixels a character at 11 px)
    left, right, top, bottom = 34, max([118] + [round(6.5 * len(t)) + 36 for t in legends.values()]), 12, 28
    n = max(len(labels), 2)
    top_value = max([v for vs in series.values() for v in vs] + [1])
    dx = (width - left - right) / (n - 1)
    sy = (height - top - bottom) / top_value

    def y(v: float) -> float:
        return height - bottom - v * sy

    label = _("remaining points per building type")

    out = [f'<svg class="chart" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img"'
           f' aria-label="{esc(label)}" data-n="{len(labels)}" data-x0="{left}"'
           f' data-dx="{dx:.3f}">']
    step = max(1, round(top_value / 5))
    for v in range(0, top_value + 1, step):
        out.append(f'<line class="gridline" x1="{left}" x2="{width - right}" y1="{y(v):.1f}" y2="{y(v):.1f}"/>'
                   f'<text class="axis" x="{left - 6}" y="{y(v):.1f}" text-anchor="end">{v}</text>')
    every = max(1, round(n / 12))
    for i in range(0, len(labels), every):
        out.append(f'<text class="axis" x="{left + i * dx:.1f}" y="{height - bottom + 16}">{esc(labels[i])}</text>')
    for k, (btype, values) in enumerate(series.items()):
        colour = BUILDING_COLOUR[btype]
        pts = " ".join(f"{left + i * dx:.1f},{y(v):.1f}" for i, v in enumerate(values))
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{pts}">'
                   f'<title>{esc(building_name(btype))}</title></polyline>')
        ly = top + 8 + k * 18
        out.append(f'<rect x="{width - right + 12}" y="{ly - 5}" width="12" height="10" fill="{colour}"/>'
                   f'<text class="legend" x="{width - right + 30}" y="{ly}">{esc(legends[btype])}</text>')
    out.append(f'<line id="chart-now" x1="{left}" x2="{left}" y1="{top}" y2="{height - bottom}"/></svg>')
    return Markup("".join(out))


def heatmap(board: Board, counts: dict[Square, int], games: int) -> Markup:
    """How often each square was covered in ``games`` games: darker is more often;
    the number in a square is its count, buildings and corners keep their letter."""
    g = Geometry.of(board)
    w, h = g.size
    c = g.cell
    top = max(counts.values(), default=0) or 1
    label = _("how often each square was covered")
    out = [f'<svg class="heatmap" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img"'
           f' aria-label="{esc(label)}">']
    for col in range(board.width):
        for row in range(board.height):
            sq = (col, row)
            x, y = g.corner(sq)
            n = counts.get(sq, 0)
            what = (_("corner") if sq in board.corners else
                    f"{building_name(board.buildings[sq][0])} {board.buildings[sq][1]}" if sq in board.buildings else
                    _("toilet") if sq in board.toilets else _("plain"))
            share = n / top
            text = square_text(board, sq).strip(".")  # the text map's M5, wc, *S
            ink = "#fff" if share > 0.55 else "#333"
            title = ngettext("{square} ({what}): covered in {n} of {games} game",
                             "{square} ({what}): covered in {n} of {games} games", games).format(
                square=square_name(sq), what=what, n=n, games=games)
            out.append(f'<g><title>{esc(title)}</title>'
                       f'<rect class="hm" x="{x}" y="{y}" width="{c}" height="{c}"'
                       f' fill="rgb({255 - int(share * 60)},{255 - int(share * 170)},{255 - int(share * 230)})"/>'
                       f'<text class="hmv" x="{x + c / 2}" y="{y + c * 0.36}" fill="{ink}">{text}</text>'
                       f'<text class="hmn" x="{x + c / 2}" y="{y + c * 0.74}" fill="{ink}">{n or ""}</text></g>')
    out.append(coordinates(g, all_sides=False) + "</svg>")
    return Markup("".join(out))



def bar_chart(label: str, bars: list[tuple[str, int, str]], colours: dict[str, str] | None = None,
              show: Callable[[str], str] = str, width: int = 340) -> Markup:
    """Horizontal bars, one per ``(name, value, note)``: the name on the left (as
    ``show`` words it), the value (and the note, e.g. "of 5 games") after the bar.
    ``label`` names the chart for screen readers; ``colours`` may give a bar its own
    colour by name."""
    names = [show(name) for name, _, _ in bars]
    # room for the longest name on the left and the longest value and note on the right, at about 7
    # pixels a character (12 px): German and Czech names run longer than the English ones
    row = 22
    left = max([130] + [round(7 * len(n)) + 8 for n in names])
    right = max([90] + [round(7 * len(f"{v} {note}")) + 6 for _, v, note in bars])
    width += left - 130 + right - 90
    top = max([v for _, v, _ in bars] + [1])
    scale = (width - left - right) / top
    out = [f'<svg class="bars" viewBox="0 0 {width} {row * len(bars) + 4}" width="{width}"'
           f' height="{row * len(bars) + 4}" role="img" aria-label="{esc(label)}">']
    for i, ((key, value, note), name) in enumerate(zip(bars, names, strict=True)):
        y = 2 + i * row
        colour = (colours or {}).get(key, "#0b62c4")
        out.append(f'<g><title>{esc(name)}: {value}{" " + esc(note) if note else ""}</title>'
                   f'<text class="bl" x="{left - 8}" y="{y + row / 2}">{esc(name)}</text>'
                   f'<rect x="{left}" y="{y + 4}" width="{max(value * scale, 1 if value else 0):.1f}"'
                   f' height="{row - 8}" rx="2" fill="{colour}"/>'
                   f'<text class="bv" x="{left + value * scale + 6:.1f}" y="{y + row / 2}">{value}'
                   f'{" " + esc(note) if note else ""}</text></g>')
    out.append("</svg>")
    return Markup("".join(out))
