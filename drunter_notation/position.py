"""Position strings: a whole position on one line, like chess's FEN.

Everything needed to judge the next move, in eleven fields separated by single
spaces (the format is explained with examples in ``docs/notation.md``)::

    dn1 BOARD RULES VARIANT PLAYERS NEXT TILES REMOVED HANDS CARDS CHOICE

``format_position`` writes one from a position; ``parse_position`` reads one back,
checking every field and the board's geometry (a bad string is a located P002,
an unknown board H003, an unknown ruleset H004), never an exception of Python's.
"""
from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path
from urllib.parse import quote, unquote

from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.errors import DnError, fail
from drunter_notation.explain.words import kind_of
from drunter_notation.i18n import _, format_number, ngettext, pgettext
from drunter_notation.kept import KeptByIdentity
from drunter_notation.notation.formatter import writable_name
from drunter_notation.notation.model import CARD_NAMES, KINDS, Square, Tile, square_name
from drunter_notation.notation.values import MAX_TILE_COUNT, TILES
from drunter_notation.rules.board import Board
from drunter_notation.rules.options import Ruleset
from drunter_notation.rules.state import LaidTile, State, Variant
from drunter_notation.rules.turn import LAST_TURN, new_game

TAG = "dn1"
FIELDS = ("tag", "board", "rules", "variant", "players", "next", "tiles", "removed", "hands", "cards", "choice")
MAX_TURN = LAST_TURN + 1  # the next turn after a game's last
MAX_COUNT = MAX_TILE_COUNT  # a tile count of a hand line, as the record reader takes it
# re.ASCII: a number is ASCII digits (not "１" or "٣"), so one position has one spelling
_SQ = r"[a-z](?:[1-9]\d?)"
_TILE = re.compile(rf"([WSR])([123])({_SQ})(?:-({_SQ}))?@({_SQ}):(\d{{1,5}})", re.ASCII)
_HAND = re.compile(r"([WSR][123])(?:x(\d{1,3}))?", re.ASCII)
_SPENT = re.compile(r"(JA|JAA|JAAA|NE|NEE|NEEE|JEIN):(\d{1,5})", re.ASCII)
_REMOVED = re.compile(rf"({_SQ}):(\d{{1,5}})", re.ASCII)
_NAME_SAFE = "-_.'~"  # kept as they are in a name; everything else is %-encoded
# The longest string a valid game writes: its names (a record's line of them, each character %-encoded
# in up to 12), tiles, hands and cards besides.
MAX_POSITION_CHARS = 2_000_000


def _square(text: str) -> Square:
    return (ord(text[0]) - ord("a"), int(text[1:]) - 1)


def _split(text: str, sep: str, none: str = "-") -> list[str]:
    """The items of a field; ``none`` (``-`` for a whole field, ``.`` for one player's part) alone is none."""
    return [] if text == none else text.split(sep)


def board_ref(board: Board) -> str:
    """How a position names its board: a built-in's id, or the file's path from the
    working folder."""
    return os.path.relpath(board.path) if board.path else board.id


def _tile_text(t: LaidTile) -> str:
    return (f"{t.tile}{square_name(t.squares[0])}" + (f"-{square_name(t.squares[-1])}" if len(t.squares) > 1 else "")
            + f"@{square_name(t.corner)}:{t.turn}")


_kept_tile_text = KeptByIdentity(_tile_text)  # a live game shows its position after every move


def format_position(state: State, ruleset: Ruleset) -> str:
    """The position string of ``state`` under ``ruleset``."""
    tiles = ",".join(map(_kept_tile_text, state.tiles)) or "-"
    removed = ",".join(f"{square_name(c)}:{n}" for c, n in state.removed_on.items()) or "-"
    if state.hands is None:
        hands = "-"
    else:
        hands = "/".join("".join(f"{t}x{n}" if n > 1 else str(t)
                                 for t, n in sorted(state.hands[p].items(), key=lambda i: i[0].order()) if n > 0)
                         or "." for p in state.players)
    cards = "/".join(",".join(f"{c}:{state.spent_on[(p, c)]}" for c in CARD_NAMES
                              if c != "?" and state.cards[p][c] == 0) or "." for p in state.players)
    if state.variant != "expert":
        choice = "-"
    elif state.chosen:
        choice = "made"
    elif state.due is not None:
        choice = f"due:{square_name(state.due[0])}:{state.due[1]}"
    else:
        choice = "open"
    players = ",".join(quote(p, safe=_NAME_SAFE) for p in state.players)
    return " ".join((TAG, quote(board_ref(state.board), safe="/._-~"), ruleset.id, state.variant, players,
                     str(state.number + 1), tiles, removed, hands, cards, choice))


class _Reader:
    """Reads one position string field by field; every problem is a located P002."""

    def __init__(self, text: str):
        self.text = text
        self.parts = text.split(" ")
        self.starts = []
        at = 0
        for p in self.parts:
            self.starts.append(at + 1)
            at += len(p) + 1

    def bad(self, index: int, message: str) -> DnError:
        words = field_words()
        field = words[index] if index < len(FIELDS) else pgettext("position field", "end")
        column = self.starts[index] if index < len(self.starts) else len(self.text) + 1
        return fail("P002", _("position string, field {number} ({field}): {problem}").format(
                        number=index + 1, field=field, problem=message), path="--position",
                    line=1, column=column, context=self.text[:200],
                    hint=_("write {fields} after '{tag}', separated by single spaces").format(
                        fields=" ".join(w.upper() for w in words[1:]), tag=TAG))


def field_words() -> tuple[str, ...]:
    """The fields as a message names them, in the language in force (one word each: the hint writes them in a row)."""
    return (pgettext("position field", "tag"), pgettext("position field", "board"),
            pgettext("position field", "rules"), pgettext("position field", "variant"),
            pgettext("position field", "players"), pgettext("position field", "next"),
            pgettext("position field", "tiles"), pgettext("position field", "removed"),
            pgettext("position field", "hands"), pgettext("position field", "cards"),
            pgettext("position field", "choice"))


def parse_position(text: str, base_dir: Path | None = None) -> tuple[State, str, Ruleset]:
    """The position a position string describes, the board reference it names and the
    ruleset. Raises DnError: P002 for a malformed string or an impossible position,
    H003 for an unknown board, H004 for an unknown ruleset."""
    if len(text) > MAX_POSITION_CHARS or text.count(" ") > 2 * len(FIELDS):  # before the split into fields
        raise fail("P002", _("a position string is at most {most} characters in {fields} fields, separated by "
                             "single spaces").format(most=format_number(MAX_POSITION_CHARS), fields=len(FIELDS)),
                   path="--position", line=1, column=1, context=text[:200])
    r = _Reader(text.strip())
    parts = r.parts
    if not parts or parts[0] != TAG:
        raise r.bad(0, _("must start with '{tag}'").format(tag=TAG))
    if len(parts) != len(FIELDS):
        raise r.bad(min(len(parts), len(FIELDS)), _("has {n} fields, not {expected}").format(
            n=len(parts), expected=len(FIELDS)))
    board_ref = unquote(parts[1])
    try:
        board: Board = load_board(board_ref, base_dir)
        ruleset = load_ruleset(parts[2])
    except DnError as e:
        raise DnError(e.diagnostic, path="--position") from None
    if parts[3] not in ("base", "expert"):
        raise r.bad(3, _("the variant is 'base' or 'expert', not '{variant}'").format(variant=parts[3]))
    variant: Variant = "expert" if parts[3] == "expert" else "base"
    players = tuple(unquote(p, errors="strict") if _utf8_escapes(p) else "" for p in parts[4].split(","))
    if not 2 <= len(players) <= 4 or len(set(players)) != len(players) or not all(map(writable_name, players)):
        raise r.bad(4, _("name 2 to 4 different players, separated by commas"))
    if not (parts[5].isascii() and parts[5].isdigit() and len(parts[5]) <= 5) or not 1 <= int(parts[5]) <= MAX_TURN:
        raise r.bad(5, _("the number of the next turn, 1 to {max}").format(max=MAX_TURN))
    number = int(parts[5]) - 1
    hands = _hands(r, parts[8], players)
    st = new_game(board, ruleset.options, players, hands, variant)
    st.due, st.chosen = None, False
    st.number, st.seat = number, number % len(players)
    _lay_tiles(r, parts[6], st)
    for item in _split(parts[7], ","):
        m = _REMOVED.fullmatch(item)
        corner = _square(m[1]) if m else None
        if m is None or corner not in board.corners or not 1 <= int(m[2]) <= number or corner in st.removed_on:
            raise r.bad(7, _("'{item}' is not CORNER:TURN of a removed gang").format(item=item[:20]))
        st.gangs[corner] = None
        st.removed_on[corner] = int(m[2])
    _spent_cards(r, parts[9], st)
    _choice(r, parts[10], st)
    return st, board_ref, ruleset


def _hands(r: _Reader, text: str, players: tuple[str, ...]) -> dict[str, Counter[Tile]] | None:
    if text == "-":
        return None
    each = text.split("/")
    if len(each) != len(players):
        raise r.bad(8, _("one hand per player separated by '/', {n} in all").format(n=len(players)))
    hands: dict[str, Counter[Tile]] = {}
    for p, h in zip(players, each, strict=True):
        c: Counter[Tile] = Counter()
        if h != ".":
            pos = 0
            counts = []
            for m in _HAND.finditer(h):
                if m.start() != pos:
                    break
                counts.append(int(m[2] or 1))
                c[TILES[m[1]]] += counts[-1]
                pos = m.end()
            # as a hand line: each tile type once, x1 to x99 (x0 would say nothing, x100 is past the reader's limit)
            if pos != len(h) or len(counts) != len(c) or not all(1 <= n <= MAX_COUNT for n in counts):
                raise r.bad(8, _("'{item}' is not a hand like W3x2W1S2 (or '.' for none)").format(item=h[:20]))
        hands[p] = c
    return hands


def _utf8_escapes(text: str) -> bool:
    """The %-escapes of a name decode as UTF-8 (``A%FF`` is no name, not ``A\ufffd``)."""
    try:
        unquote(text, errors="strict")
    except UnicodeDecodeError:
        return False
    return True


def _lay_tiles(r: _Reader, text: str, st: State) -> None:
    board = st.board
    matches = []
    for item in _split(text, ","):
        m = _TILE.fullmatch(item)
        if m is None:
            raise r.bad(6, _("'{item}' is not a tile like S2b1-c1@a1:1").format(item=item[:20]))
        matches.append((int(m[6]), item, m))
    for _number, item, m in sorted(matches, key=lambda x: x[0]):  # laid in turn order: the last one holds the gang
        tile = TILES[m[1] + m[2]]
        anchor, end, corner, turn = _square(m[3]), _square(m[4]) if m[4] else None, _square(m[5]), int(m[6])
        end = end or anchor
        d = (end[0] - anchor[0], end[1] - anchor[1])
        steps = max(abs(d[0]), abs(d[1]))
        if (d[0] and d[1]) or steps != tile.length - 1:
            raise r.bad(6, ngettext("'{item}' is not a straight line of {n} square",
                                    "'{item}' is not a straight line of {n} squares",
                                    tile.length).format(item=item[:20], n=tile.length))
        unit = (d[0] // steps, d[1] // steps) if steps else (0, 0)
        squares = tuple((anchor[0] + k * unit[0], anchor[1] + k * unit[1]) for k in range(tile.length))
        if board.corners.get(corner) != KINDS[tile.kind]:
            raise r.bad(6, _("'{item}': {corner} starts no {kind} track").format(
                item=item[:20], corner=square_name(corner), kind=kind_of(KINDS[tile.kind])))
        if not 1 <= turn <= st.number:
            raise r.bad(6, ngettext("'{item}': laid on turn {turn}, but only {n} turn was played",
                                    "'{item}': laid on turn {turn}, but only {n} turns were played",
                                    st.number).format(item=item[:20], turn=turn, n=st.number))
        for sq in squares:
            if not board.on_board(sq) or sq in board.corners or sq in st.covered:
                raise r.bad(6, _("'{item}': {square} is off the board, a corner or covered twice").format(
                    item=item[:20], square=square_name(sq)))
        index = len(st.tiles)
        st.tiles.append(LaidTile(tile, squares, corner, turn, st.players[(turn - 1) % len(st.players)]))
        for sq in squares:
            st.covered[sq] = index
        if len(squares) == 3:
            st.bridges.add(squares[1])
        st.gangs[corner] = squares[-1]


def _spent_cards(r: _Reader, text: str, st: State) -> None:
    each = text.split("/")
    if len(each) != len(st.players):
        raise r.bad(9, _("the spent vote cards of each player separated by '/', {n} in all").format(
            n=len(st.players)))
    for p, spent in zip(st.players, each, strict=True):
        for item in _split(spent, ",", "."):
            m = _SPENT.fullmatch(item)
            if m is None or st.cards[p][m[1]] == 0 or not 1 <= int(m[2]) <= st.number:
                raise r.bad(9, _("'{item}' is not CARD:TURN of a card spent once (or '.' for none)").format(
                    item=item[:20]))
            del st.cards[p][m[1]]
            st.spent_on[(p, m[1])] = int(m[2])


def _choice(r: _Reader, text: str, st: State) -> None:
    if st.variant != "expert":
        if text != "-":
            raise r.bad(10, _("a base game has no expert choice: write '-'"))
        return
    if text == "made":
        st.chosen = True
    elif text.startswith("due:"):
        m = _REMOVED.fullmatch(text[4:])
        if m is None or _square(m[1]) not in st.board.corners or int(m[2]) > st.number:
            raise r.bad(10, _("write due:CORNER:TURN for a choice due since that turn"))
        st.due = (_square(m[1]), int(m[2]))
    elif text != "open":
        raise r.bad(10, _("the expert choice is 'open', 'due:CORNER:TURN' or 'made'"))
