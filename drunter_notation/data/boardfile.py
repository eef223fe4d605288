"""Loading and checking board files (the format and its checks: docs/boards.md).

A board is named by a built-in id (a file ``drunter_notation/data/boards/<id>.toml``
shipped with the package) or, when the reference ends in ``.toml``, by a path to a
board file. Every check is made on load; any failure -- including a missing,
unreadable or non-TOML file -- raises a :class:`~drunter_notation.errors.DnError`
with code H003 and exit code 2, whose message names the file, the offending key
and what is wrong. Messages never quote more of the file than that key (and a
short scalar value), since board files may be private.
"""
from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, Protocol, TypeGuard

from drunter_notation.errors import did_you_mean, fail, quoted
from drunter_notation.files import BOARD, read_regular
from drunter_notation.i18n import N_, _, ngettext
from drunter_notation.notation.model import BUILDING_ALIASES, BUILDINGS, Square, parse_square, square_name
from drunter_notation.notation.values import MAX_TILE_COUNT
from drunter_notation.rules.board import TRACK_KINDS, Board

FORMAT = "drunter-board/1"
MIN_WIDTH, MAX_WIDTH = 3, 26  # columns a..z
MIN_HEIGHT, MAX_HEIGHT = 3, 99  # rows 1..99
TOP_KEYS = ("format", "id", "name", "width", "height", "note", "toilets", "corners", "buildings", "box")
REQUIRED_KEYS = ("format", "id", "name", "width", "height", "corners", "buildings")
BOX_LENGTHS = ("triples", "doubles", "singles")
MAX_BUILDING_VALUE = 99
MAX_BOX_COUNT = MAX_TILE_COUNT  # of a kind and length: one player may be dealt them all, and a hand line holds 99

# A square name: column a..z, row 1..99 without a leading zero.
_SQUARE_RE = re.compile(r"[a-z][1-9][0-9]?\Z")
# Keys shown as they are; anything else is quoted so odd characters stay visible.
_BARE_KEY_RE = re.compile(r"[A-Za-z0-9_-]{1,40}\Z")
# tomllib puts the position at the end of its message: "... (at line 3, column 7)".
_TOML_POS_RE = re.compile(r"\(at line (\d+), column (\d+)\)|\(at end of document\)")
_BUILTIN = Path(__file__).parent / "boards"  # as i18n finds its catalogs: importlib.resources would load zipfile


def builtin_boards() -> list[str]:
    """The ids of the boards shipped with the package, sorted."""
    root = _BUILTIN
    return sorted(p.name[: -len(".toml")] for p in root.iterdir()
                  if p.name.endswith(".toml") and p.is_file())


def load_board(ref: str, base_dir: str | Path | None = None) -> Board:
    """The checked board named by ``ref``.

    ``ref`` ending in ``.toml`` is a path (relative to ``base_dir`` when that is
    given and the path is relative, else to the working directory); anything else
    is a built-in board id. Raises ``DnError`` H003 (exit code 2) for an unknown
    id or a missing, unreadable or invalid board file; never anything else for
    bad input.
    """
    if ref.endswith(".toml"):
        path = Path(ref)
        if base_dir is not None and not path.is_absolute():
            path = Path(base_dir) / path
        return load_board_file(path, shown=ref)
    return _builtin_board(ref)


@functools.cache
def _builtin_board(ref: str) -> Board:
    """A built-in board, read and checked once per process (boards are never mutated)."""
    ids = builtin_boards()
    if ref not in ids:
        raise fail("H003", _("unknown board {board}{suggestion}; built-in boards: {boards}").format(
            board=quoted(ref, 40), suggestion=did_you_mean(ref, ids), boards=", ".join(ids)),
                   hint=_("a board file is named by a path ending in .toml"))
    resource = _BUILTIN.joinpath(f"{ref}.toml")
    label = _("built-in board {board}").format(board=ref)
    data = resource.read_bytes()  # listed by builtin_boards(): shipped with the package
    board = parse_board(data, label=label, path=None)
    if board.id != ref:
        # A packaging slip: the file name is the id users write in records.
        _bad(label, None, "id", _("must be {expected}, the built-in file's name, got {value}").format(
            expected=repr(ref), value=_show_value(board.id)))
    return board


def load_board_file(path: Path, shown: str | None = None) -> Board:
    """The checked board in the file ``path``, whatever its name ends in.

    ``shown`` is how messages name the file (default: the path). Raises
    ``DnError`` H003 (exit code 2) like :func:`load_board`.
    """
    path = Path(path)
    label = _("board file {path}").format(path=shown or path)
    missing = (_("file not found (looked for at {path})").format(path=path) if shown and shown != str(path)
               else _("file not found"))
    data = read_regular(path, BOARD, label=label, missing=missing)
    return parse_board(data, label=label, path=str(path))


def parse_board(data: bytes, label: str = "board file", path: str | None = None) -> Board:
    """Decode, parse and check the bytes of a board file. ``label`` starts every
    message (e.g. ``"board file club.toml"``); ``path`` is stored on the board and
    on the error. Raises ``DnError`` H003 (exit code 2)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        _bad(label, path, None, _("not valid UTF-8 (byte {byte} on line {line})").format(
            byte=f"0x{data[e.start]:02x}", line=line))
    # A BOM is harmless and some editors write one; TOML itself forbids it.
    text = text.removeprefix("\ufeff")
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        _bad(label, path, None, _("invalid TOML: {reason}").format(reason=toml_reason(str(e))))
    except ValueError:  # tomllib's int() of a number beyond Python's 4,300-digit limit
        _bad(label, path, None, _("invalid TOML: a number with thousands of digits"))
    except RecursionError:
        _bad(label, path, None, _("invalid TOML: arrays or tables nested too deeply"))
    return _check(doc, label, path)


# ------------------------------------------------------------------ checks


def _check(doc: dict[str, Any], label: str, path: str | None) -> Board:
    """The Board described by the parsed TOML ``doc``, after every check of docs/boards.md."""
    def bad(key: str | None, problem: str, hint: str | None = None) -> NoReturn:
        _bad(label, path, key, problem, hint)

    for key in doc:
        if key not in TOP_KEYS:
            bad(_show_key(key), _("unknown key"), hint=_("known keys: {keys}").format(keys=", ".join(TOP_KEYS)))
    for key in REQUIRED_KEYS:
        if key not in doc:
            bad(key, _("missing (required)"))

    if doc["format"] != FORMAT:
        bad("format", _("must be {expected}, got {value}").format(expected=repr(FORMAT),
                                                                  value=_show_value(doc["format"])))
    board_id = _string(doc, "id", bad)
    name = _string(doc, "name", bad)
    note = _string(doc, "note", bad, allow_empty=True) if "note" in doc else ""
    width = _int_in(doc["width"], "width", MIN_WIDTH, MAX_WIDTH, bad)
    height = _int_in(doc["height"], "height", MIN_HEIGHT, MAX_HEIGHT, bad)

    used: dict[Square, str] = {}  # square -> the key that first named it

    def square(text: Any, key: str) -> Square:
        """A valid, on-board square not named before."""
        if not isinstance(text, str) or not _SQUARE_RE.match(text):
            bad(key, _("not a square name (a column letter and a row number, like c7), got {value}").format(
                value=_show_value(text)))
        sq = parse_square(text)
        if not (sq[0] < width and sq[1] < height):
            bad(key, _("square {square} is off the {width}x{height} board (columns a..{last}, rows 1..{height})"
                       ).format(square=text, width=width, height=height, last=chr(ord("a") + width - 1)))
        if sq in used:
            bad(key, _("square {square} is already used by {key}").format(square=text, key=used[sq]),
                hint=_("each square is used at most once"))
        used[sq] = key
        return sq

    corners = _check_corners(doc["corners"], width, height, square, bad)
    toilets = _check_toilets(doc.get("toilets", []), square, bad)
    buildings = _check_buildings(doc["buildings"], square, bad)
    box = _check_box(doc["box"], bad) if "box" in doc else None

    extra = {} if box is None else {"box": box}
    return Board(id=board_id, name=name, width=width, height=height, corners=corners,
                 buildings=buildings, toilets=frozenset(toilets), note=note, path=path, **extra)


class _Bad(Protocol):
    """Raises the file's error at ``key``: the checks' one way out."""

    def __call__(self, key: str | None, problem: str, hint: str | None = None) -> NoReturn: ...


_SquareOf = Callable[[Any, str], Square]  # a file's value at a key -> a valid square of the board, or _Bad


def _check_corners(table: Any, width: int, height: int, square: _SquareOf, bad: _Bad) -> dict[Square, str]:
    """The four corner squares, each with its track kind: one street, one river, two walls."""
    if not isinstance(table, dict):
        bad("corners", _("must be a table of corner square = track kind, got {kind}").format(kind=_kind_of(table)))
    corner_squares = [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)]
    names = ", ".join(square_name(sq) for sq in corner_squares)
    corners: dict[Square, str] = {}
    for key, kind in table.items():
        full = f"corners.{_show_key(key)}"
        sq = square(key, full)
        if sq not in corner_squares:
            bad(full, _("{square} is not a corner square of the {width}x{height} board (corners: {corners})").format(
                square=key, width=width, height=height, corners=names))
        if kind not in TRACK_KINDS:
            bad(full, _("track kind must be one of street, river, wall, got {value}").format(value=_show_value(kind)))
        corners[sq] = kind
    for sq in corner_squares:
        if sq not in corners:
            bad(f"corners.{square_name(sq)}", _("missing: the four corners {corners} each need a track kind").format(
                corners=names))
    counts = {k: sum(1 for v in corners.values() if v == k) for k in ("street", "river", "wall")}
    if counts != {"street": 1, "river": 1, "wall": 2}:
        got = ", ".join(f"{n} {k}" for k, n in counts.items())
        bad("corners", _("must have one street, one river and two walls, got {counts}").format(counts=got))
    return corners


def _check_toilets(value: Any, square: _SquareOf, bad: _Bad) -> list[Square]:
    """The toilet squares."""
    if not isinstance(value, list):
        bad("toilets", _("must be an array of square names, got {kind}").format(kind=_kind_of(value)))
    return [square(item, f"toilets[{i}]") for i, item in enumerate(value)]


def _check_buildings(table: Any, square: _SquareOf, bad: _Bad) -> dict[Square, tuple[str, int]]:
    """Square -> (English type, value) for every building; German type names are normalised."""
    if not isinstance(table, dict):
        bad("buildings", _("must be a table of building type -> {{ square = value }}, got {kind}").format(
            kind=_kind_of(table)))
    buildings: dict[Square, tuple[str, int]] = {}
    seen: dict[str, str] = {}  # English type -> the key that gave it
    for key, squares in table.items():
        full = f"buildings.{_show_key(key)}"
        btype = BUILDING_ALIASES.get(key, key)
        if btype not in BUILDINGS:
            bad(full, _("unknown building type"), hint=_("building types: {types}").format(types=", ".join(BUILDINGS)))
        if btype in seen:
            bad(full, _("type {type} is already given as {key}").format(type=btype, key=seen[btype]))
        seen[btype] = full
        if not isinstance(squares, dict):
            bad(full, _("must be a table of square = value, got {kind}").format(kind=_kind_of(squares)))
        for sq_name, value in squares.items():
            sq_key = f"{full}.{_show_key(sq_name)}"
            sq = square(sq_name, sq_key)
            if not _is_int(value) or not 1 <= value <= MAX_BUILDING_VALUE:
                bad(sq_key, _("value must be an integer from 1 to {max}, got {value}").format(
                    max=MAX_BUILDING_VALUE, value=_show_value(value)))
            buildings[sq] = (btype, value)
    return buildings


def _check_box(table: Any, bad: _Bad) -> dict[str, tuple[int, int, int]]:
    """Kind -> (triples, doubles, singles); all three kinds must be given."""
    if not isinstance(table, dict):
        bad("box", _("must be a table of track kind = [triples, doubles, singles], got {kind}").format(
            kind=_kind_of(table)))
    for key in table:
        if key not in TRACK_KINDS:
            bad(f"box.{_show_key(key)}", _("unknown tile kind"), hint=_("tile kinds: wall, street, river"))
    box: dict[str, tuple[int, int, int]] = {}
    for kind in TRACK_KINDS:
        key = f"box.{kind}"
        if kind not in table:
            bad(key, _("missing: a box gives wall, street and river"))
        counts = table[kind]
        if not isinstance(counts, list) or len(counts) != 3:
            what = _("an array of {n}").format(n=len(counts)) if isinstance(counts, list) else _kind_of(counts)
            bad(key, _("must be an array of three counts [triples, doubles, singles], got {kind}").format(kind=what))
        for i, n in enumerate(counts):
            if not _is_int(n) or not 0 <= n <= MAX_BOX_COUNT:
                bad(f"{key}[{i}]", _("{length} count must be an integer from 0 to {max}, got {value}").format(
                    length=BOX_LENGTHS[i], max=MAX_BOX_COUNT, value=_show_value(n)))
        box[kind] = (counts[0], counts[1], counts[2])
    return box


def _string(doc: dict[str, Any], key: str, bad: _Bad, *, allow_empty: bool = False) -> str:
    value = doc[key]
    if not isinstance(value, str):
        bad(key, _("must be a string, got {kind}").format(kind=_kind_of(value)))
    if not allow_empty and not value.strip():
        bad(key, _("must not be empty"))
    return value


def _int_in(value: Any, key: str, lo: int, hi: int, bad: _Bad) -> int:
    if not _is_int(value) or not lo <= value <= hi:
        bad(key, _("must be an integer from {low} to {high}, got {value}").format(low=lo, high=hi,
                                                                                  value=_show_value(value)))
    return value


def _is_int(value: Any) -> TypeGuard[int]:
    # TOML booleans arrive as Python bools, which are ints: keep them out.
    return isinstance(value, int) and not isinstance(value, bool)


# ------------------------------------------------------------------ messages


def _bad(label: str, path: str | None, key: str | None, problem: str, hint: str | None = None) -> NoReturn:
    """Raise H003: ``<label>: <key>: <problem>``."""
    message = f"{label}: {key}: {problem}" if key else f"{label}: {problem}"
    raise fail("H003", message, path=path, hint=hint)


# tomllib's reasons (Python 3.11 to 3.13) in the user's language; one it words otherwise stays in its English.
_TOML_REASONS = {
    "Invalid statement": N_("this line is no key = value and no [table]"),
    "Expected newline or end of document after a statement": N_("nothing but a comment may follow a value on its "
                                                                "line"),
    "Cannot overwrite a value": N_("a value is given twice"),
    "Expected ']' at the end of a table declaration": N_("a table's name ends with ]"),
    "Expected ']]' at the end of an array declaration": N_("the name of an array of tables ends with ]]"),
    "Expected '=' after a key in a key/value pair": N_("a key is followed by ="),
    "Invalid initial character for a key part": N_("a key cannot start with this character"),
    "Unclosed array": N_("a list [...] is not closed"),
    "Unclosed inline table": N_("a table {...} is not closed"),
    "Unescaped '\\' in a string": N_("a backslash in a string is written as two"),
    "Invalid hex value": N_("an escape \\u or \\U is not followed by a hexadecimal number"),
    "Escaped character is not a Unicode scalar value": N_("an escape names no Unicode character"),
    "Unterminated string": N_("a string is not closed"),
    "Invalid date or datetime": N_("a date or time is not valid"),
    "Invalid value": N_("this is no value: a number, a string in quotes, true, false, a list or a table"),
}
_TOML_PARTS = (  # (tomllib's words around a part of the file, ours)
    (re.compile(r"Expected (.+)"), N_("{part} is expected here")),
    (re.compile(r"(?:Found invalid|Illegal) character (.+)"), N_("the character {part} is not allowed here")),
    (re.compile(r"Cannot declare (.+) twice"), N_("the table {part} is declared twice")),
    (re.compile(r"Cannot mutate immutable namespace (.+)"), N_("{part} is given in full already: nothing can be "
                                                               "added to it")),
    (re.compile(r"Cannot redefine namespace (.+)"), N_("{part} is defined already")),
    (re.compile(r"Duplicate inline table key (.+)"), N_("the key {part} is given twice")),
)


def _toml_words(reason: str) -> str:
    if reason in _TOML_REASONS:
        return _(_TOML_REASONS[reason])
    for pattern, words in _TOML_PARTS:
        m = pattern.fullmatch(reason)
        if m:
            part = m.group(1)
            if re.fullmatch(r"\('[^']*',(?: '[^']*',?)*\)", part):  # a key's parts, as a Python tuple: a.b
                part = ".".join(re.findall(r"'([^']*)'", part))
            return _(words).format(part=part)
    return reason


def toml_reason(text: str) -> str:
    """tomllib's message in our words, with its position (it never quotes the file)."""
    m = _TOML_POS_RE.search(text)
    if m is None:
        return _toml_words(text)
    reason = _toml_words(text[: m.start()].rstrip())
    if m.group(1):
        return _("{reason} (at line {line}, column {column})").format(reason=reason, line=m.group(1),
                                                                      column=m.group(2))
    return _("{reason} (at end of file)").format(reason=reason)


def _show_key(key: str) -> str:
    """A key as written in messages: bare when plain, else quoted and cut short."""
    if _BARE_KEY_RE.match(key):
        return key
    short = key if len(key) <= 30 else key[:27] + "..."
    return '"' + short.encode("unicode_escape").decode("ascii").replace('"', '\\"') + '"'


def _show_value(value: Any) -> str:
    """A short description of an offending value: small scalars literally, else their kind."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        text = repr(value)
        return text if len(text) <= 20 else _kind_of(value)
    if isinstance(value, str) and len(value) <= 20 and value.isprintable():
        return repr(value)
    return _kind_of(value)


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return _("a boolean")
    if isinstance(value, int):
        return _("an integer")
    if isinstance(value, float):
        return _("a float")
    if isinstance(value, str):
        return ngettext("a string of {n} character", "a string of {n} characters", len(value)).format(n=len(value))
    if isinstance(value, list):
        return _("an array")
    if isinstance(value, dict):
        return _("a table")
    return _("a date/time")


__all__ = ["FORMAT", "builtin_boards", "load_board", "load_board_file", "parse_board"]
