"""DN text -> :class:`model.Record` (the notation: docs/notation.md).

The grammar is the file ``grammar/drunter.lark``, the one definition of DN; Lark
parses it (LALR, its basic lexer) and applies :class:`RecordBuilder` while it
parses, so no parse tree is built. Every bad input becomes a
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
"""
from __future__ import annotations

import bisect
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar, cast

from lark import Lark, LarkError, Token, Transformer, UnexpectedInput

from drunter_notation.errors import fail
from drunter_notation.files import read_record
from drunter_notation.i18n import N_, _, format_number
from drunter_notation.notation.lines import LineReader, NotRead
from drunter_notation.notation.model import (
    Ballot,
    Choose,
    Event,
    Goals,
    Hand,
    HandTile,
    Item,
    Outcome,
    Placement,
    Record,
    Reveal,
    RevealEntry,
    Score,
    ScoreEntry,
    Setup,
    Square,
    Tag,
    Turn,
    Vote,
)
from drunter_notation.notation.syntax import (
    SYNTAX_HINT,
    Syntax,
    end_position,
    explain,
    explain_move,
    line_of,
    syntax_error,
)
from drunter_notation.notation.values import (
    MAX_LINE_CHARS,
    MAX_LIST_ITEMS,
    MAX_SCORE,
    MAX_TALLY,
    MAX_TILE_COUNT,
    MAX_TURN,
    TILES,
    bounded,
    hand_tile,
    read_card,
    read_goal,
    read_square,
    read_tally,
    turn_number_text,
    unquote,
)


@lru_cache(maxsize=1)
def grammar_text() -> str:
    """The DN grammar, read from the package (where the wheel ships it)."""
    return resources.files("drunter_notation.notation").joinpath("drunter.lark").read_text("utf-8")


def _number(tok: Token, text: str, limit: int, too_large: str) -> int:
    """``text`` (digits, read from ``tok``) as an int of at most ``limit``; else P001
    there, in the words of ``too_large`` (a message with ``{number}`` and ``{limit}``)."""
    number = bounded(text, limit)
    if number is None:
        digits = text.lstrip("0")
        shown = digits if len(digits) <= 12 else _("a {n}-digit number").format(n=len(digits))
        raise syntax_error(tok, _(too_large).format(number=shown, limit=limit), _(SYNTAX_HINT))
    return number


# A list's items -> their words in the P001 for more than MAX_LIST_ITEMS (the grammar's
# many{...} and separated{...}): the parser holds a list until its item is built.
_LIST_WORDS = {Tag: N_("more than {max} tags"), Hand: N_("more than {max} hand and goals lines"),
               Goals: N_("more than {max} hand and goals lines"), "TILE": N_("more than {max} tiles in one hand line"),
               "CARD": N_("more than {max} cards in one ballot"), Ballot: N_("more than {max} ballots in one vote"),
               RevealEntry: N_("more than {max} entries in one reveal"),
               ScoreEntry: N_("more than {max} entries in one score line")}


# What Lark hands a rule's method: the rule's tokens and the values built for its parts, in order.
Children = list[Any]


class RecordBuilder(Transformer[Token, Record | Placement | Choose | Token]):
    """Turns the parser's rule matches straight into model objects."""

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)

    def name(self, c: Children) -> Token:
        tok: Token = c[0]
        if tok.type == "NAME":  # already what a name becomes: no copy needed
            return tok
        return Token.new_borrow_pos("NAME", unquote(tok), tok)

    def many(self, c: Children) -> list[Any]:
        if len(c) == 1:
            return [c[0]]
        items: list[Any] = c[0]
        item = c[1]
        if len(items) >= MAX_LIST_ITEMS:
            words = _LIST_WORDS[item.type if isinstance(item, Token) else type(item)]
            raise Syntax(item.line, item.column, _(words).format(max=format_number(MAX_LIST_ITEMS)),
                          _(SYNTAX_HINT))
        items.append(item)
        return items

    separated = many  # the grammar's "," between the items is not passed on

    def tag(self, c: Children) -> Tag:
        lb, key, value = c
        return Tag(str(key), unquote(value), lb.line, lb.column)

    def hand(self, c: Children) -> Hand:
        kw, player, tiles = c
        out: list[HandTile] = []
        for tok in tiles:
            tile = hand_tile(str(tok))
            if tile is None:
                # raises: the count is too large
                _number(tok, str(tok)[3:], MAX_TILE_COUNT, N_("tile count {number} is too large (at most {limit})"))
            else:
                out.append(tile)
        return Hand(str(player), tuple(out), kw.line, kw.column)

    def goals(self, c: Children) -> Goals:
        kw, player, g1, g2 = c
        return Goals(str(player), (read_goal(str(g1)), read_goal(str(g2))), kw.line, kw.column)

    def choose(self, c: Children) -> Choose:
        return Choose(c[0].line, c[0].column)

    def turn(self, c: Children) -> Turn:
        num, player, action = c
        number = _number(num, turn_number_text(str(num)), MAX_TURN,
                         N_("turn number {number} is too large (at most {limit})"))
        placement = None if isinstance(action, Token) else action
        return Turn(number, str(player), placement, line=num.line, column=num.column)

    def placement(self, c: Children) -> Placement:
        tile_tok = c[0]
        text = str(tile_tok)
        if "x" in text:
            raise syntax_error(tile_tok, _("a tile count like x4 belongs only in hand lines"),
                                _("write the tile alone, e.g. W2"))
        anchor = read_square(str(c[1]))
        end = corner = vote = outcome = None
        for item in c[2:]:
            if isinstance(item, Token):  # the second square
                end = read_square(str(item))
            elif isinstance(item, tuple):  # the track's corner
                corner = item[0]
            elif isinstance(item, Vote):
                vote = item
            else:
                outcome = item
        return Placement(TILES[text], anchor, end=end, corner=corner, vote=vote, outcome=outcome, line=tile_tok.line,
                         column=tile_tok.column)

    def track(self, c: Children) -> tuple[Square]:
        return (read_square(str(c[0])),)

    def vote(self, c: Children) -> Vote:
        kw, ballots = c
        return Vote(tuple(ballots), kw.line, kw.column)

    def ballot(self, c: Children) -> Ballot:
        player, cards = c
        return Ballot(str(player), tuple(read_card(str(tok)) for tok in cards), player.line, player.column)

    def outcome(self, c: Children) -> Outcome:
        arrow, result = c[0], c[1]
        yes = no = None
        if len(c) == 3:
            yes, no = read_tally(str(c[2]))
            for part, value in zip(str(c[2]).split(":"), (yes, no), strict=True):
                if value is None:
                    # raises: this side is too large
                    _number(c[2], part.strip(), MAX_TALLY, N_("tally {number} is too large (at most {limit})"))
        return Outcome(str(result) == "accepted", yes=yes, no=no, line=arrow.line, column=arrow.column)

    def reveal(self, c: Children) -> Reveal:
        kw, entries = c
        return Reveal(tuple(entries), kw.line, kw.column)

    def reveal_entry(self, c: Children) -> RevealEntry:
        player, chosen, *other = c
        return RevealEntry(str(player), read_goal(str(chosen)), other=read_goal(str(other[0])) if other else None,
                           line=player.line, column=player.column)

    def score(self, c: Children) -> Score:
        kw, entries = c
        return Score(tuple(entries), kw.line, kw.column)

    def score_entry(self, c: Children) -> ScoreEntry:
        player, points = c
        return ScoreEntry(str(player), _number(points, str(points), MAX_SCORE,
                                               N_("score {number} is too large (at most {limit})")), player.line,
                          player.column)

    def start(self, c: Children) -> Record:
        tags: list[Tag] = []
        setup: list[Setup] = []
        events: list[Event] = []
        reveal = score = None
        for item in c:
            if isinstance(item, list):  # many{tag} or many{setup}
                (tags if isinstance(item[0], Tag) else setup).extend(item)
            elif isinstance(item, (Turn, Choose)):
                events.append(item)
            elif isinstance(item, Reveal):
                reveal = item
            else:
                score = item
        return Record(tuple(tags), tuple(setup), tuple(events), reveal, score)


# The comments of the parse under way in this thread or task; Lark's lexer passes each to _keep_comment.
_COMMENTS: ContextVar[list[Token] | None] = ContextVar("comments", default=None)


def _keep_comment(comment: Token) -> None:
    comments = _COMMENTS.get()
    if comments is not None:  # None: a lexer run for an error message or a name, not a record
        comments.append(comment)


def _placed(comment: Token) -> tuple[str, int, int]:
    assert comment.line is not None and comment.column is not None  # the lexer places every token
    return str(comment), comment.line, comment.column


class _Parser:
    """Lark on the grammar, behind the line reader; comments come through a lexer callback
    into a list of the parse's own, so parses in several threads at once do not mix them."""

    def __init__(self) -> None:
        self.lark = Lark(grammar_text(), parser="lalr", lexer="basic", start=list(START_SYMBOLS),
                         transformer=RecordBuilder(), maybe_placeholders=False,
                         lexer_callbacks={"COMMENT": _keep_comment})
        self.reader = LineReader(self.lark)

    def parse(self, text: str) -> tuple[Record, list[tuple[str, int, int]]]:
        try:
            return self.reader.record(text)
        except NotRead:
            pass
        comments: list[Token] = []
        reset = _COMMENTS.set(comments)
        try:
            record = cast(Record, self.lark.parse(text, start="start"))  # what RecordBuilder.start returns
        finally:
            _COMMENTS.reset(reset)
        return record, [_placed(c) for c in comments]

    def parse_move(self, text: str) -> Placement | Choose | None:
        try:
            return self.reader.parse_move(text)
        except NotRead:
            pass
        move = cast("Placement | Choose | Token", self.lark.parse(text, start="move"))  # what RecordBuilder returns
        return None if isinstance(move, Token) else move  # a PASS token


# The grammar's start symbols: a whole record, and one move alone (parse_move).
START_SYMBOLS = ("start", "move")


@lru_cache(maxsize=1)
def _parser() -> _Parser:
    return _Parser()


def reads_as_bare_name(text: str) -> bool:
    """Whether Lark's lexer reads ``text`` as exactly one NAME token: a player name that needs no quotes."""
    try:
        tokens = list(_parser().lark.lex(text))
    except LarkError:
        return False
    return len(tokens) == 1 and tokens[0].type == "NAME" and str(tokens[0]) == text


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
    try:
        record, comments = _parser().parse(text)
    except UnexpectedInput as e:
        raise explain(e, _parser().lark, text, path) from None
    except Syntax as e:
        raise fail("P001", e.message, path=path, line=e.line, column=e.column,
                   hint=e.hint, context=line_of(text, e.line)) from None
    if not record.tags and not record.setup and not record.events and record.reveal is None:
        if not comments:
            raise fail("I004", _("the record is empty"), path=path, line=1, column=1,
                       hint=_("a DN record needs at least a [Players \"...\"] tag"))
    end_line, end_col = end_position(text)
    record = replace(_attach_comments(record, comments, text), end_line=end_line, end_column=end_col)
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
    try:
        move = _parser().parse_move(text)
    except UnexpectedInput as e:
        raise explain_move(e, _parser().lark, text, source) from None
    except Syntax as e:
        raise fail("P001", e.message, path=source, line=e.line, column=e.column,
                   hint=e.hint, context=line_of(text, e.line)) from None
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
