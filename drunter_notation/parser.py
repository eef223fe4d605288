"""DN text -> :class:`model.Record` (DN-SPEC §2).

The grammar is the file ``grammar/drunter.lark``; Lark's LALR parser applies
:class:`RecordBuilder` while it parses, so no parse tree is built. Every bad
input becomes a :class:`errors.DnError` with code P001 (syntax) or an input code
(I001 unreadable, I002 not UTF-8, I003 binary, I004 empty); nothing else escapes.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .errors import DnError, fail
from .model import (BUILDING_ALIASES, Ballot, Card, Choose, Goals, Hand, HandTile, Outcome, Placement,
                    Record, Reveal, RevealEntry, Score, ScoreEntry, Tag, Tile, Turn, Vote, parse_square)

# What each terminal is, in words, for "expected ..." messages.
EXPECTED_WORDS = {
    "SQUARE": "a square like c7",
    "TILE": "a tile like W3",
    "NAME": "a player name",
    "STRING": 'a quoted string like "Anna"',
    "CARD": "a vote card (JA, JAA, JAAA, NE, NEE, NEEE, JEIN=yes, JEIN=no or ?)",
    "GOAL": "a building or goal card like museum",
    "TURNNO": "a turn number like 12.",
    "TALLY": "a tally like 3:2",
    "INT": "a number",
    "RESULT": "'accepted' or 'rejected'",
    "LBRACK": "'['",
    "HAND": "'hand'",
    "GOALS": "'goals'",
    "CHOOSE": "'choose'",
    "PASS": "'pass'",
    "VOTE": "'vote'",
    "REVEAL": "'reveal'",
    "SCORE": "'score'",
    "ARROW": "'->'",
    "RBRACE": "'}'",
    "LBRACE": "'{'",
    "RSQB": "']'",
    "COLON": "':'",
    "COMMA": "','",
    "MINUS": "'-'",
    "SLASH": "'/'",
    "AT": "'@'",
    "$END": "the end of the record",
}
# Order in which expected alternatives are listed: the most telling first.
_EXPECTED_ORDER = list(EXPECTED_WORDS)


@lru_cache(maxsize=1)
def grammar_text() -> str:
    """The DN grammar, read from the package (where the wheel ships it)."""
    return resources.files("drunter_notation.grammar").joinpath("drunter.lark").read_text("utf-8")


def _unquote(text: str) -> str:
    return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")


def _square(tok: Token):
    return parse_square(str(tok))


class RecordBuilder(Transformer):
    """Turns the parser's rule matches straight into model objects."""

    def __init__(self):
        super().__init__(visit_tokens=False)

    def name(self, c):
        tok = c[0]
        value = _unquote(tok) if tok.type == "STRING" else str(tok)
        return Token.new_borrow_pos("NAME", value, tok)

    def tag(self, c):
        lb, key, value = c
        return Tag(str(key), _unquote(value), lb.line, lb.column)

    def hand(self, c):
        kw, player, *tiles = c
        out = []
        for tok in tiles:
            text = str(tok)
            count = int(text[text.index("x") + 1:]) if "x" in text else 1
            out.append(HandTile(Tile(text[0], int(text[1])), count))
        return Hand(str(player), tuple(out), kw.line, kw.column)

    def goals(self, c):
        kw, player, g1, g2 = c
        return Goals(str(player), (_goal(g1), _goal(g2)), kw.line, kw.column)

    def choose(self, c):
        return Choose(c[0].line, c[0].column)

    def turn(self, c):
        num, player, action = c
        number = int(str(num).rstrip(". \t\r\n"))
        placement = None if isinstance(action, Token) else action
        return Turn(number, str(player), placement, num.line, num.column)

    def placement(self, c):
        tile_tok = c[0]
        text = str(tile_tok)
        if "x" in text:
            raise _syntax_error(tile_tok, "a tile count like x4 belongs only in hand lines",
                                "write the tile alone, e.g. W2")
        anchor = _square(c[1])
        end = corner = vote = outcome = None
        for item in c[2:]:
            if isinstance(item, Token):  # the second square
                end = _square(item)
            elif isinstance(item, tuple):  # the track's corner
                corner = item[0]
            elif isinstance(item, Vote):
                vote = item
            else:
                outcome = item
        return Placement(Tile(text[0], int(text[1])), anchor, end, corner, vote, outcome,
                         tile_tok.line, tile_tok.column)

    def track(self, c):
        return (_square(c[0]),)

    def vote(self, c):
        kw, *ballots = c
        return Vote(tuple(ballots), kw.line, kw.column)

    def ballot(self, c):
        player, *cards = c
        out = []
        for tok in cards:
            text = str(tok)
            if text.startswith("JEIN") and "=" in text:
                out.append(Card("JEIN", text.split("=")[1].strip()))
            else:
                out.append(Card(text))
        return Ballot(str(player), tuple(out), player.line, player.column)

    def outcome(self, c):
        arrow, result = c[0], c[1]
        yes = no = None
        if len(c) == 3:
            yes, no = (int(x) for x in str(c[2]).split(":"))
        return Outcome(str(result) == "accepted", yes, no, arrow.line, arrow.column)

    def reveal(self, c):
        kw, *entries = c
        return Reveal(tuple(entries), kw.line, kw.column)

    def reveal_entry(self, c):
        player, chosen, *other = c
        return RevealEntry(str(player), _goal(chosen), _goal(other[0]) if other else None,
                           player.line, player.column)

    def score(self, c):
        kw, *entries = c
        return Score(tuple(entries), kw.line, kw.column)

    def score_entry(self, c):
        player, points = c
        return ScoreEntry(str(player), int(points), player.line, player.column)

    def start(self, c):
        tags, setup, events = [], [], []
        reveal = score = None
        for item in c:
            if isinstance(item, Tag):
                tags.append(item)
            elif isinstance(item, (Hand, Goals)):
                setup.append(item)
            elif isinstance(item, (Turn, Choose)):
                events.append(item)
            elif isinstance(item, Reveal):
                reveal = item
            else:
                score = item
        return Record(tuple(tags), tuple(setup), tuple(events), reveal, score)


def _goal(tok) -> str:
    text = str(tok)
    return BUILDING_ALIASES.get(text, text)


class _Syntax(Exception):
    """Raised inside the builder; turned into P001 with the source line by :func:`parse_text`."""

    def __init__(self, line, column, message, hint):
        super().__init__(message)
        self.line, self.column, self.message, self.hint = line, column, message, hint


def _syntax_error(tok: Token, message: str, hint: str) -> _Syntax:
    return _Syntax(tok.line, tok.column, message, hint)


class _Parser:
    """One Lark instance; comments are collected through a lexer callback."""

    def __init__(self):
        self.comments: list[Token] = []
        self.lark = Lark(grammar_text(), parser="lalr", lexer="basic", transformer=RecordBuilder(),
                         maybe_placeholders=False, lexer_callbacks={"COMMENT": self.comments.append})

    def parse(self, text: str) -> tuple[Record, list[Token]]:
        self.comments.clear()
        record = self.lark.parse(text)
        return record, list(self.comments)


@lru_cache(maxsize=1)
def _parser() -> _Parser:
    return _Parser()


def parse_text(text: str, path: str = "<input>") -> Record:
    """Parse DN text (a leading BOM is allowed) into a :class:`Record`.

    Raises :class:`DnError` P001 for a syntax error (with the offending line as
    context) and I004 for a record with no content at all.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        raise fail("I003", "this looks like a binary file, not a DN record", path=path,
                   hint="give a DN text file", exit_code=2)
    try:
        record, comments = _parser().parse(text)
    except UnexpectedInput as e:
        raise _explain(e, text, path) from None
    except _Syntax as e:
        raise fail("P001", e.message, path=path, line=e.line, column=e.column,
                   hint=e.hint, context=_line_of(text, e.line)) from None
    if not record.tags and not record.setup and not record.events and record.reveal is None:
        if not comments:
            raise fail("I004", "the record is empty", path=path, line=1, column=1,
                       hint="a DN record needs at least a [Players \"...\"] tag", exit_code=1)
    end_line, end_col = _end_position(text)
    record = replace(_attach_comments(record, comments, text), end_line=end_line, end_column=end_col)
    return record


def parse_file(path: str | Path) -> Record:
    """Read and parse a record file; every reading problem is a one-line DnError."""
    p = Path(path)
    shown = str(path)
    if p.is_dir():
        raise fail("I001", "is a directory, not a DN record", path=shown,
                   hint="name a .dn file, or use a command that walks directories", exit_code=2)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise fail("I001", "no such file", path=shown, hint="check the path", exit_code=2) from None
    except OSError as e:
        raise fail("I001", f"cannot read the file: {e.strerror}", path=shown, exit_code=2) from None
    return parse_bytes(data, shown)


def parse_bytes(data: bytes, path: str = "<input>") -> Record:
    """Decode UTF-8 (BOM allowed) and parse; binary or non-UTF-8 data is a DnError."""
    if b"\x00" in data:
        raise fail("I003", "this looks like a binary file, not a DN record", path=path,
                   hint="give a DN text file", exit_code=2)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise fail("I002", f"not valid UTF-8 (byte 0x{data[e.start]:02x})", path=path, line=line,
                   column=column, hint="save the record as UTF-8", exit_code=2) from None
    return parse_text(text, path)


def _line_of(text: str, line: int) -> str | None:
    lines = text.splitlines()
    return lines[line - 1] if 0 < line <= len(lines) else None


def _describe(expected) -> str:
    names = sorted(set(expected), key=lambda n: _EXPECTED_ORDER.index(n) if n in _EXPECTED_ORDER else 99)
    words = [EXPECTED_WORDS.get(n, n.lower()) for n in names]
    if len(words) > 4:
        words = words[:4] + ["..."]
    return " or ".join(words)


def _expected_at(text: str, pos: int) -> set[str]:
    """The terminals the parser would accept after ``text[:pos]`` (only used on errors)."""
    try:
        ip = _parser().lark.parse_interactive(text[:pos])
        ip.exhaust_lexer()
        return set(ip.accepts())
    except (UnexpectedInput, _Syntax):
        return set()


def _token_words(tok: Token) -> str:
    if tok.type == "$END":
        return "the end of the record"
    return f"'{tok}'"


def _explain(e: UnexpectedInput, text: str, path: str) -> DnError:
    """A P001 error in words: what was found, what was expected, after what."""
    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
        if ch == '"':
            message = "unterminated quoted string: the closing '\"' is missing on this line"
        else:
            message = f"unexpected character {ch!r}"
            prev = _previous_token_text(text, e.pos_in_stream)
            if prev:
                message += f" after '{prev}'"
            expected = _expected_at(text, e.pos_in_stream)
            if expected:
                message += f"; expected {_describe(expected)}"
        line, column = e.line, e.column
    elif isinstance(e, UnexpectedToken):
        tok = e.token
        prev = _previous_token_text(text, len(text) if tok.type == "$END" else tok.start_pos)
        message = f"expected {_describe(e.expected)}"
        if prev:
            message += f" after '{prev}'"
        message += f", found {_token_words(tok)}"
        if tok.type == "$END":
            line, column = _end_position(text)
        else:
            line, column = tok.line, tok.column
    else:  # UnexpectedEOF
        line, column = _end_position(text)
        message = f"the record ends too early; expected {_describe(e.expected)}"
    return fail("P001", message, path=path, line=line, column=column,
                hint="see docs/notation.md for the DN syntax", context=_line_of(text, line))


_TOKEN_BEFORE = re.compile(r'("(?:[^"\\\n]|\\.)*"|[\w?]+(?:=\w+)?|->|\S)\s*$')


def _previous_token_text(text: str, pos: int) -> str | None:
    """The token ending just before ``pos`` (comments aside), for "after '-'" in messages."""
    before = text[:pos]
    while True:
        stripped = before.rstrip()
        nl = stripped.rfind("\n")
        line = stripped[nl + 1:]
        code = _code_part(line)
        if code.strip() or nl < 0:
            break
        before = stripped[:nl + 1] if nl >= 0 else ""
    m = _TOKEN_BEFORE.search(stripped[: nl + 1] + code)
    return m.group(1) if m else None


_CODE_PREFIX = re.compile(r'(?:[^"#\n]|"(?:[^"\\\n]|\\.)*"?)*')


def _code_part(line: str) -> str:
    """The part of one line before a comment (a '#' inside a quoted name is no comment)."""
    return _CODE_PREFIX.match(line).group(0)


def _end_position(text: str) -> tuple[int, int]:
    """Line and column just past the last token (comments and blank lines aside)."""
    lines = text.split("\n")
    for i in range(len(lines) - 1, -1, -1):
        code = _code_part(lines[i]).rstrip()
        if code.strip():
            return i + 1, len(code) + 1
    return 1, 1


def _items(record: Record):
    yield from record.tags
    yield from record.setup
    yield from record.events
    if record.reveal is not None:
        yield record.reveal
    if record.score is not None:
        yield record.score


def _attach_comments(record: Record, comments: list[Token], text: str) -> Record:
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

    for c in comments:
        body = str(c)[1:].strip()
        pos = (c.line, c.column)
        k = bisect.bisect_left(positions, pos)  # items before the comment: 0..k-1
        code_before = lines[c.line - 1][: c.column - 1].strip()
        if code_before and k > 0 and (k - 1) not in notes:
            notes[k - 1] = body
        elif k < len(items):
            leading.setdefault(k, []).append(body)
        else:
            final.append(body)
    new_items = []
    for i, it in enumerate(items):
        if i in notes or i in leading:
            it = replace(it, comments=tuple(leading.get(i, ())), note=notes.get(i))
        new_items.append(it)
    nt, ns, ne = len(record.tags), len(record.setup), len(record.events)
    rest = new_items[nt + ns + ne:]
    reveal = rest.pop(0) if record.reveal is not None else None
    score = rest.pop(0) if record.score is not None else None
    return replace(record, tags=tuple(new_items[:nt]), setup=tuple(new_items[nt:nt + ns]),
                   events=tuple(new_items[nt + ns:nt + ns + ne]), reveal=reveal, score=score,
                   final_comments=tuple(final))
