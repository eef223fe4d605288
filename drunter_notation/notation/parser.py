"""DN text -> :class:`model.Record` (the notation: docs/notation.md).

The grammar is the file ``grammar/drunter.lark``, the one definition of DN; Lark
parses it (:mod:`lalr`: LALR, its basic lexer, building the record as it parses).
Every bad input becomes a
:class:`errors.DnError` with code P001 (syntax) or an input code (I001
unreadable, I002 not UTF-8, I003 binary, I004 empty); nothing else escapes.

The grammar has two start symbols: ``start``, a whole record (:func:`parse_text`),
and ``move``, one move alone (:func:`parse_move`).

Speed (bench/README.md): DN is written a line per item, so valid text is read line
by line (:class:`lines.LineReader`), each kind of line by one regex made of the
grammar's own terminals (bench/README.md has the figures). Any line it does not
recognise -- a syntax error, an item spread over lines, two items on one line, a
number or a list over its limit -- hands the whole text to Lark, so every syntax
error is Lark's, worded by :mod:`syntax`. tests/test_parser_fast_path.py holds the two equal.
The reader is built from the terminals' table (:mod:`terminals`), so Lark is imported
and built only for a text the reader hands over.
"""
from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar, cast

from drunter_notation.errors import fail
from drunter_notation.files import read_record
from drunter_notation.i18n import _, format_number
from drunter_notation.notation.lines import LineReader, NotRead, Stopped
from drunter_notation.notation.model import Choose, Event, Item, Placement, Record, Reveal, Score, Setup, Tag
from drunter_notation.notation.slots import Slots
from drunter_notation.notation.syntax import Syntax, end_position, explain, explain_move, line_of
from drunter_notation.notation.terminals import REGEX_FLAGS, TERMINALS
from drunter_notation.notation.values import MAX_LINE_CHARS

if TYPE_CHECKING:  # loaded when first needed (lalr.py)
    from lark import Lark, Token, UnexpectedInput


class _Parser:
    """The line reader, and Lark on the grammar behind it, built only when a text needs it."""

    def __init__(self) -> None:
        self.reader = LineReader()

    @cached_property
    def lark(self) -> Lark:
        from drunter_notation.notation import lalr

        return lalr.build()

    def parse(self, text: str, end: tuple[int, int]) -> tuple[Record, list[tuple[str, int, int]]]:
        try:
            return self.reader.record(text, end)
        except NotRead as e:
            stopped = e.stopped
        from drunter_notation.notation import lalr

        if stopped is not None and stopped.events > 1:
            self._error_past(text, stopped)
        return lalr.parse_record(self.lark, text)

    def _error_past(self, text: str, stopped: Stopped) -> None:
        """Raise :class:`ErrorPast` when Lark finds a syntax error in the text with the events
        before the last one the line reader read blanked: those were read (so Lark reads them
        too), after them Lark is where it would be after all of them (the grammar's ``event*`` is
        one state, however many), the lines keep their numbers and the rest its columns: the
        same error, found in what follows the last event read, not in the whole text. Parsed
        without an error, or a list over its limit: the caller parses the whole text."""
        from drunter_notation.notation import lalr

        if stopped.last - stopped.first < SKIPPED_LINES:
            return
        lines = text.split("\n")
        short = "\n".join([*lines[:stopped.first - 1], *[""] * (stopped.last - stopped.first),
                           *lines[stopped.last - 1:]])
        try:
            lalr.parse_record(self.lark, short)
        except _lark_syntax_error() as e:
            raise ErrorPast(e, short) from None
        except Syntax:  # a list over its limit: counted in the whole text
            pass

    def parse_move(self, text: str) -> Placement | Choose | None:
        try:
            return self.reader.parse_move(text)
        except NotRead:
            pass
        move = cast("Placement | Choose | Token", self.lark.parse(text, start="move"))  # what RecordBuilder returns
        return move if isinstance(move, Placement | Choose) else None  # else a PASS token


# The fewest lines between the first and the last event read for the rest of a record to be parsed alone.
SKIPPED_LINES = 1_000


class ErrorPast(Exception):
    """A syntax error found in ``text``, the record with the events before the reader's last blanked."""

    def __init__(self, error: UnexpectedInput, text: str):
        super().__init__(error)
        self.error, self.text = error, text


@lru_cache(maxsize=1)
def _parser() -> _Parser:
    return _Parser()


def _lark_syntax_error() -> type[UnexpectedInput]:
    """Lark's syntax errors: looked up once an exception is on its way (only Lark raises them,
    so it is loaded by then)."""
    from lark import UnexpectedInput

    return UnexpectedInput


@lru_cache(maxsize=1)
def _bare_name() -> tuple[re.Pattern[str], frozenset[str]]:
    """The NAME token where Lark's lexer makes one (the line reader's slot, 4 ms where Lark takes 100),
    and the keywords it renames."""
    s = Slots(TERMINALS, REGEX_FLAGS)
    return re.compile(s.slot("NAME"), s.flags), frozenset(s.keywords)


def reads_as_bare_name(text: str) -> bool:
    """Whether Lark's lexer reads ``text`` as exactly one NAME token: a player name that needs no quotes."""
    name, keywords = _bare_name()
    return name.fullmatch(text) is not None and text not in keywords


def parse_text(text: str, path: str = "<input>") -> Record:
    """Parse DN text (a leading BOM is allowed) into a :class:`Record`.

    Raises :class:`DnError` P001 for a syntax error (with the offending line as
    context) and I004 for a record with no content at all.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        raise fail("I003", _("this looks like a binary file, not a DN record"), path=path,
                   hint=_("give a DN text file"))
    if len(text) > MAX_LINE_CHARS:
        _check_line_lengths(text, path)
    end = end_position(text)
    try:
        record, comments = _parser().parse(text, end)
    except Syntax as e:
        raise fail("P001", e.message, path=path, line=e.line, column=e.column,
                   hint=e.hint, context=line_of(text, e.line)) from None
    except _lark_syntax_error() as e:
        raise explain(e, _parser().lark, text, path) from None
    except ErrorPast as e:  # explained in the text it was found in: the same lines, the same positions
        raise explain(e.error, _parser().lark, e.text, path) from None
    if not record.tags and not record.setup and not record.events and record.reveal is None:
        if not comments:
            raise fail("I004", _("the record is empty"), path=path, line=1, column=1,
                       hint=_("a DN record needs at least a [Players \"...\"] tag"))
    record = _attach_comments(record, comments, text)
    if (record.end_line, record.end_column) != end:  # the line reader's record has it already
        record = replace(record, end_line=end[0], end_column=end[1])
    return record


def parse_move(text: str, source: str = "--move") -> Placement | Choose | None:
    """Parse one move alone -- a what-if move, a move pushed onto a game -- from the
    grammar's start symbol ``move``; no record is built around it.

    ``text`` is what follows the player in a turn line: a placement (tile, square or
    ``b1-d1``, then as needed ``@corner``, ``vote { Anna: JA, ... }`` and a claim like
    ``-> accepted 2:1``) or ``pass``; or ``choose``. Spaces, line breaks and
    ``#`` comments may stand around and between its tokens (comments are dropped).
    No turn number, no player, one move only.

    Returns the :class:`Placement`, ``None`` for ``pass``, or a :class:`Choose`. Their
    ``line``/``column`` are positions in ``text`` (1, 1 is its first character).

    Anything else raises :class:`DnError` P001 with ``source`` as its path, the line
    and column in ``text``, that line as context and a hint; nothing else escapes.
    It takes the same fast path as :func:`parse_text` (a few µs for a move on one
    line), so it may be called for every move of a game.
    """
    if len(text) > MAX_LINE_CHARS:  # a record's line limit: a megabyte on one line is refused before it is read
        _check_line_lengths(text, source)
    try:
        move = _parser().parse_move(text)
    except Syntax as e:
        raise fail("P001", e.message, path=source, line=e.line, column=e.column,
                   hint=e.hint, context=line_of(text, e.line)) from None
    except _lark_syntax_error() as e:
        raise explain_move(e, _parser().lark, text, source) from None
    return move


def _check_line_lengths(text: str, path: str) -> None:
    """P001 at the first line longer than :data:`MAX_LINE_CHARS` (no DN line comes near:
    the limit keeps the tokens of one line, all held until the line's item is built,
    to a few megabytes)."""
    start, number = 0, 1
    while True:
        nl = text.find("\n", start)
        stop = len(text) if nl < 0 else nl
        if stop - start > MAX_LINE_CHARS:
            raise fail("P001", _("line {line} is {length} characters long; a DN line may have at most {limit}").format(
                line=number, length=format_number(stop - start), limit=format_number(MAX_LINE_CHARS)), path=path,
                line=number, column=MAX_LINE_CHARS + 1,
                hint=_("break the line: each tag, hand, turn, reveal and score goes on a line of its own"))
        if nl < 0:
            return
        start, number = nl + 1, number + 1


def parse_file(path: str | Path) -> Record:
    """Read (a regular file, at most ``files.MAX_RECORD_BYTES``) and parse a record
    file; every reading problem is a one-line DnError I001."""
    return parse_bytes(read_record(path), str(path))


def parse_bytes(data: bytes, path: str = "<input>") -> Record:
    """Decode UTF-8 (BOM allowed) and parse; binary or non-UTF-8 data is a DnError."""
    encoding = _utf16_or_32(data)
    if encoding is not None:
        raise fail("I002", _("this is {encoding} text, not UTF-8").format(encoding=encoding), path=path, line=1,
                   column=1, hint=_("convert it, e.g. iconv -f {encoding} -t UTF-8 FILE > NEW.dn").format(
                       encoding=encoding.split()[0]))
    if b"\x00" in data:
        raise fail("I003", _("this looks like a binary file, not a DN record"), path=path,
                   hint=_("give a DN text file"))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise fail("I002", _("not valid UTF-8 (byte {byte})").format(byte=f"0x{data[e.start]:02x}"), path=path,
                   line=line, column=column, hint=_("save the record as UTF-8")) from None
    return parse_text(text, path)


_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32LE"), (b"\x00\x00\xfe\xff", "UTF-32BE"),
         (b"\xff\xfe", "UTF-16LE"), (b"\xfe\xff", "UTF-16BE"))


def _utf16_or_32(data: bytes) -> str | None:
    """The name of the UTF-16 or UTF-32 encoding ``data`` is written in (told by its
    byte order mark, or by ASCII text with NUL bytes between), or None."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            return f"{name} (with a byte order mark)"
    head = data[:4096]
    if b"\x00" not in head:  # such text has a NUL byte in every unit: most files are done here
        return None
    for width, name in ((4, "UTF-32"), (2, "UTF-16")):
        units = [head[i:i + width] for i in range(0, len(head) - len(head) % width, width)]
        for offset, order in ((0, "LE"), (width - 1, "BE")):
            if len(units) >= 4 and all(0 < u[offset] < 0x80 and u.count(0) == width - 1 for u in units):
                return name + order
    return None


def _items(record: Record) -> Iterator[Item]:
    yield from record.tags
    yield from record.setup
    yield from record.events
    if record.reveal is not None:
        yield record.reveal
    if record.score is not None:
        yield record.score


_ItemT = TypeVar("_ItemT", Tag, Setup, Event, Reveal, Score)


def _attach_comments(record: Record, comments: list[tuple[str, int, int]], text: str) -> Record:
    """Give each comment to its item: a comment after code on the same line is that
    item's ``note``; any other comment belongs to the next item's ``comments``."""
    if not comments:
        return record
    items = list(_items(record))
    positions = [(it.line, it.column) for it in items]
    lines = text.split("\n")
    notes: dict[int, str] = {}
    leading: dict[int, list[str]] = {}
    final: list[str] = []

    for comment, line, column in comments:
        body = comment[1:].rstrip()  # leading spaces kept: comments may draw positions
        k = bisect.bisect_left(positions, (line, column))  # items before the comment: 0..k-1
        code_before = lines[line - 1][: column - 1].strip()
        if code_before and k > 0 and (k - 1) not in notes:
            notes[k - 1] = body
        elif k < len(items):
            leading.setdefault(k, []).append(body)
        else:
            final.append(body)

    def attached(i: int, item: _ItemT) -> _ItemT:  # item ``i`` of the record with its comments
        if i in notes or i in leading:
            return replace(item, comments=tuple(leading.get(i, ())), note=notes.get(i))
        return item

    nt, ns, ne = len(record.tags), len(record.setup), len(record.events)
    after = nt + ns + ne + (record.reveal is not None)  # the score's index
    return replace(record, tags=tuple(attached(i, it) for i, it in enumerate(record.tags)),
                   setup=tuple(attached(nt + i, it) for i, it in enumerate(record.setup)),
                   events=tuple(attached(nt + ns + i, it) for i, it in enumerate(record.events)),
                   reveal=record.reveal and attached(nt + ns + ne, record.reveal),
                   score=record.score and attached(after, record.score), final_comments=tuple(final))
