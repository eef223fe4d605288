"""A board, and optionally a position on it, as a coordinate-labelled text map.

Output is deterministic ASCII: the same board and markings always give the same
text, so it can be compared in tests and pasted into plain-text discussions.
"""
from __future__ import annotations

from collections.abc import Mapping

from drunter_notation.explain.words import building_name
from drunter_notation.i18n import N_, _
from drunter_notation.notation.model import BUILDINGS, Square, square_name
from drunter_notation.rules.board import Board

BUILDING_LETTER = {"museum": "M", "tavern": "T", "school": "S", "townhall": "H", "firehouse": "F", "church": "C"}
TRACK_LETTER = {"street": "S", "river": "R", "wall": "W"}
# The words of the legend for the ids (translated when shown; the map's letters stay).
TRACK_NAMES = {"street": N_("street"), "river": N_("river"), "wall": N_("wall")}
PLAIN = "."
TOILET = "wc"


def square_text(board: Board, sq: Square) -> str:
    """What the empty board shows on ``sq``: ``.``, ``M5``, ``wc`` or ``*S``/``*R``/``*W``."""
    if sq in board.corners:
        return "*" + TRACK_LETTER[board.corners[sq]]
    if sq in board.buildings:
        btype, value = board.buildings[sq]
        # Cells are 2 characters: a value above 9 (custom boards) shows as "+", the legend has it.
        return f"{BUILDING_LETTER[btype]}{value if value <= 9 else '+'}"
    if sq in board.toilets:
        return TOILET
    return PLAIN


def render_board(board: Board, covered: Mapping[Square, str] | None = None,
                 marks: Mapping[Square, str] | None = None) -> str:
    """The map of ``board`` (north up, row ``height`` first) followed by its legend.

    Every square is 3 characters wide; column letters stand above and below,
    row numbers on both sides. ``covered`` replaces a square's content with a
    tile marking (e.g. ``W``, ``=``, ``S>``), ``marks`` replaces it again with a
    gang marking (e.g. ``@``). Markings are 1 or 2 printable ASCII characters;
    anything else, or a square off the board, is a caller's mistake (ValueError).
    The result ends with a newline.
    """
    cells = {(c, r): square_text(board, (c, r)) for c in range(board.width) for r in range(board.height)}
    for overlay in (covered or {}, marks or {}):
        for sq, text in overlay.items():
            if not board.on_board(sq):
                raise ValueError(f"marking for a square off the board: {sq!r}")
            if not (1 <= len(text) <= 2 and text.isascii() and text.isprintable()):
                raise ValueError(f"marking must be 1-2 printable ASCII characters, got {text!r}")
            cells[sq] = text

    def cell(text: str) -> str:
        return " " + text.ljust(2)

    letters = "   " + "".join(cell(chr(ord("a") + c)) for c in range(board.width))
    lines = [letters.rstrip()]
    for r in range(board.height - 1, -1, -1):
        row = "".join(cell(cells[(c, r)]) for c in range(board.width))
        lines.append(f"{r + 1:>2} {row}  {r + 1}")
    lines.append(letters.rstrip())
    lines.append("")
    lines.extend(legend(board))
    return "\n".join(lines) + "\n"


def legend(board: Board) -> list[str]:
    """The legend lines: buildings per type (squares, values, total), toilets, corners."""
    lines = [_("Buildings (square=value, highest first):")]
    names = {btype: building_name(btype) for btype in BUILDINGS}
    width = max(9, *map(len, names.values()))
    for btype in BUILDINGS:
        here = sorted(((v, sq) for sq, (t, v) in board.buildings.items() if t == btype),
                      key=lambda item: (-item[0], item[1][1], item[1][0]))
        listed = " ".join(f"{square_name(sq)}={v}" for v, sq in here) or "-"
        total = _("(total {total})").format(total=sum(v for v, _sq in here))
        lines.append(f"  {BUILDING_LETTER[btype]} {names[btype]:<{width}} {listed}  {total}")
    toilets = sorted(board.toilets)
    lines.append(_("Toilets (wc, {n}): {squares}").format(
        n=len(toilets), squares=" ".join(square_name(sq) for sq in toilets) or "-"))
    # By row, then column: a1, o1, a15, o15 -- the order boards list their corners in.
    corners = sorted(board.corners.items(), key=lambda item: (item[0][1], item[0][0]))
    lines.append(_("Corners: {corners}").format(corners=", ".join(
        f"{square_name(sq)} {_(TRACK_NAMES[kind])} (*{TRACK_LETTER[kind]})" for sq, kind in corners)))
    return lines
