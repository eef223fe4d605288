"""A board, and optionally a position on it, as a coordinate-labelled text map;
a position with its tracks, what is covered and what the players hold.

Output is deterministic ASCII: the same board and markings always give the same
text, so it can be compared in tests and pasted into plain-text discussions.
"""
from __future__ import annotations

from collections.abc import Mapping

from drunter_notation.explain.words import building_name
from drunter_notation.i18n import N_, _, ngettext, pgettext
from drunter_notation.notation.model import BUILDINGS, CARD_NAMES, Square, Tile, square_name
from drunter_notation.rules.board import Board
from drunter_notation.rules.state import State

TRACK_LETTER = {"street": "S", "river": "R", "wall": "W"}
# The words of the legend for the ids (translated when shown; the map's letters stay).
TRACK_NAMES = {"street": N_("street"), "river": N_("river"), "wall": N_("wall")}
PLAIN = "."


def building_letter(btype: str) -> str:
    """A building's letter on the maps (``M5``): one ASCII capital per building, the
    initial of its name in the language in force, each language's six distinct."""
    letters = {
        # TRANSLATORS: one ASCII capital for the building on the board maps, different from the other five
        "museum": pgettext("building's letter", "M"),
        "tavern": pgettext("building's letter", "T"),
        "school": pgettext("building's letter", "S"),
        "townhall": pgettext("building's letter", "H"),
        "firehouse": pgettext("building's letter", "F"),
        "church": pgettext("building's letter", "C"),
    }
    return letters.get(btype, "?")
TOILET = "wc"


def square_text(board: Board, sq: Square) -> str:
    """What the empty board shows on ``sq``: ``.``, ``M5``, ``wc`` or ``*S``/``*R``/``*W``."""
    if sq in board.corners:
        return "*" + TRACK_LETTER[board.corners[sq]]
    if sq in board.buildings:
        btype, value = board.buildings[sq]
        # Cells are 2 characters: a value above 9 (custom boards) shows as "+", the legend has it.
        return f"{building_letter(btype)}{value if value <= 9 else '+'}"
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
        lines.append(f"  {building_letter(btype)} {names[btype]:<{width}} {listed}  {total}")
    toilets = sorted(board.toilets)
    lines.append(_("Toilets (wc, {n}): {squares}").format(
        n=len(toilets), squares=" ".join(square_name(sq) for sq in toilets) or "-"))
    # By row, then column: a1, o1, a15, o15 -- the order boards list their corners in.
    corners = sorted(board.corners.items(), key=lambda item: (item[0][1], item[0][0]))
    lines.append(_("Corners: {corners}").format(corners=", ".join(
        f"{square_name(sq)} {_(TRACK_NAMES[kind])} (*{TRACK_LETTER[kind]})" for sq, kind in corners)))
    return lines


# A track by its kind and start corner, one whole phrase per kind (German and Czech
# inflect the kind): "wall from a1".
_TRACKS = {"wall": N_("wall from {corner}"), "street": N_("street from {corner}"), "river": N_("river from {corner}")}


def track_name(kind: str, corner: Square) -> str:
    """``"wall from a1"`` in the language in force."""
    return _(_TRACKS[kind]).format(corner=square_name(corner))


def render_position(st: State) -> str:
    """The board with the tiles laid (``w`` ``s`` ``r``, ``w=`` a bridge field), the
    gangs (``@W`` ``@S`` ``@R``), the legend, then the tracks, what is covered and
    the vote cards left. Ends with a newline."""
    board = st.board
    covered: dict[Square, str] = {}
    for laid in st.tiles:
        letter = laid.tile.kind.lower()
        for sq in laid.squares:
            covered[sq] = letter + ("=" if sq == laid.bridge else "")
    marks = {g: "@" + TRACK_LETTER[st.track_kind[c]] for c, g in st.gangs.items() if g is not None}
    lines = [render_board(board, covered=covered, marks=marks).rstrip("\n"),
             _("Marks: w s r a wall/street/river tile, w= s= r= its bridge field, @W @S @R a gang"),
             _("Tracks:")]
    for corner, kind in sorted(st.track_kind.items(), key=lambda item: (item[0][1], item[0][0])):
        n = sum(1 for t in st.tiles if t.corner == corner)
        tiles = ngettext("{n} tile", "{n} tiles", n).format(n=n)
        g = st.gangs[corner]
        if g is None:
            state = _("finished, gang removed on turn {turn}").format(turn=st.removed_on.get(corner, "?"))
        elif g == corner:
            state = _("gang on its corner")
        else:
            state = _("gang on {square}").format(square=square_name(g))
        lines.append(f"  {track_name(kind, corner)}: {state} ({tiles})")
    gone_b = [(sq, board.buildings[sq]) for sq in sorted(st.covered, key=lambda s: (s[1], s[0]))
              if sq in board.buildings]
    gone_t = [sq for sq in sorted(st.covered, key=lambda s: (s[1], s[0])) if sq in board.toilets]
    turn_of = {sq: st.tiles[i].turn for sq, i in st.covered.items()}
    buildings = ", ".join(_("{building} {square}={value} (turn {turn})").format(
        building=building_name(t), square=square_name(sq), value=v, turn=turn_of[sq]) for sq, (t, v) in gone_b)
    toilets = ", ".join(_("{square} (turn {turn})").format(square=square_name(sq), turn=turn_of[sq])
                        for sq in gone_t)
    lines.append(_("Covered buildings: {list}").format(list=buildings or _("none")))
    lines.append(_("Covered toilets: {list}").format(list=toilets or _("none")))
    lines.append(_("Vote cards left: {list}").format(
        list="; ".join(f"{p} {_cards_text(st.cards[p])}" for p in st.players)))
    if st.hands is not None:
        lines.append(_("Hands: {list}").format(list="; ".join(f"{p} {_tiles_text(st.hands[p])}" for p in st.players)))
    else:
        lines.append(_("Hands: not recorded"))
    return "\n".join(lines) + "\n"


def hand_text(st: State, player: str) -> str:
    """What ``player`` holds, as the position's text shows it (or that it is not recorded)."""
    return _("not recorded") if st.hands is None else _tiles_text(st.hands[player])


def _tiles_text(hand: Mapping[Tile, int]) -> str:
    tiles = sorted((t for t, n in hand.items() if n > 0), key=lambda t: ("WSR".index(t.kind), -t.length))
    return " ".join(f"{t}x{hand[t]}" if hand[t] != 1 else str(t) for t in tiles) or _("(no tiles left)")


def _cards_text(cards: Mapping[str, int]) -> str:
    return " ".join(c for c in CARD_NAMES for _c in range(cards.get(c, 0))) or _("(none)")
