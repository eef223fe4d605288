"""P001 in words: what was found, what was expected, after what, where.

Lark's exceptions (and :class:`Syntax`, raised by the record builder) become a
:class:`errors.DnError` with the line as context and a hint; the helpers that place
a position in the text (:func:`line_of`, :func:`end_position`) serve the parser too.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from drunter_notation.errors import DnError, fail, quoted, shown
from drunter_notation.i18n import N_, _

if TYPE_CHECKING:  # Lark is loaded only for text the line reader does not read (lalr.py): errors among them
    from lark import Lark, Token, UnexpectedInput

# What each terminal is, in words, for "expected ..." messages (translated when shown).
EXPECTED_WORDS = {
    "SQUARE": N_("a square like c7"),
    "TILE": N_("a tile like W3"),
    "NAME": N_("a player name"),
    "STRING": N_('a quoted string like "Anna"'),
    "CARD": N_("a vote card (JA, JAA, JAAA, NE, NEE, NEEE, JEIN=yes, JEIN=no or ?)"),
    "GOAL": N_("a building or goal card like museum"),
    "TURNNO": N_("a turn number like 12."),
    "TALLY": N_("a tally like 3:2"),
    "INT": N_("a number"),
    "RESULT": N_("'accepted' or 'rejected'"),
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
    "$END": N_("the end of the record"),
}
# Order in which expected alternatives are listed: the most telling first.
_EXPECTED_ORDER = list(EXPECTED_WORDS)


class Syntax(Exception):
    """Raised inside the builder; turned into P001 with the source line by :func:`parse_text`."""

    def __init__(self, line: int, column: int, message: str, hint: str) -> None:
        super().__init__(message)
        self.line, self.column, self.message, self.hint = line, column, message, hint


def syntax_error(tok: Token, message: str, hint: str) -> Syntax:
    return Syntax(tok.line or 0, tok.column or 0, message, hint)  # the lexer places every token


# Tokens that start a move or a turn: found after a whole move, the text holds more than one.
_ANOTHER_MOVE = frozenset({"TURNNO", "TILE", "PASS", "CHOOSE"})


def explain_move(e: UnexpectedInput, lark: Lark, text: str, source: str) -> DnError:
    """P001 for a bad move: :func:`explain`'s words, with three common mistakes named."""
    from lark import UnexpectedToken

    if not isinstance(e, UnexpectedToken):  # an unexpected character
        return explain(e, lark, text, source, "move")
    tok = e.token
    # LALR shares the state after a placement between a move and a turn: its table
    # would also offer a turn number or 'reveal'. What the move itself allows is asked.
    e.expected = expected_at(lark, text, len(text) if tok.type == "$END" else tok.start_pos, "move") or e.expected
    if tok.type == "$END" and end_position(text) == (1, 1):  # no code at all
        message, line, column = _("the move is empty"), 1, 1
    elif tok.type == "TURNNO" and previous_token_text(text, tok.start_pos) is None:
        message, line, column = _("write the move without turn number and player"), tok.line, tok.column
    elif tok.type in _ANOTHER_MOVE and "$END" in e.expected:
        message = _("a move is a single placement, 'pass' or 'choose', not more: found '{token}' after its"
                    " end").format(token=shown(str(tok)))
        line, column = tok.line, tok.column
    else:
        return explain(e, lark, text, source, "move")
    return fail("P001", message, path=source, line=line, column=column, hint=_(MOVE_HINT),
                context=line_of(text, line))


def line_of(text: str, line: int) -> str | None:
    """Line ``line`` (1-based, counted by line feeds as the lexer counts) of ``text``,
    found without splitting the whole text."""
    if not text:
        return None
    start = 0
    for _skipped in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    if line < 1 or (start >= len(text) and line > 1):
        return None
    end = text.find("\n", start)
    return text[start:end if end >= 0 else len(text)].rstrip("\r")


def _describe(expected: Iterable[str], kind: TextKind) -> str:
    names = sorted(set(expected), key=lambda n: _EXPECTED_ORDER.index(n) if n in _EXPECTED_ORDER else 99)
    words = list(dict.fromkeys(_(kind.end) if n == "$END" else _(EXPECTED_WORDS[n]) if n in EXPECTED_WORDS
                               else n.lower() for n in names))
    if len(words) > 4:
        words = [*words[:4], "..."]
    text = words[0]
    for word in words[1:]:
        text = _("{first} or {second}").format(first=text, second=word)
    return text


def expected_at(lark: Lark, text: str, pos: int, start: str = "start") -> set[str]:
    """The terminals the parser would accept after ``text[:pos]`` (only used on errors)."""
    from lark import UnexpectedInput

    try:
        ip = lark.parse_interactive(text[:pos], start=start)
        ip.exhaust_lexer()
        return set(ip.accepts())  # type: ignore[no-untyped-call]  # lark leaves accepts() unannotated
    except (UnexpectedInput, Syntax):
        return set()


def _token_words(tok: Token, kind: TextKind) -> str:
    if tok.type == "$END":
        return _(kind.end)
    return quoted(str(tok))


# Word processors and phones turn "b1-d1" into these; DN spans take the ASCII hyphen-minus only.
_LOOKALIKE_DASHES = {"\u2010": N_("a hyphen"), "\u2011": N_("a non-breaking hyphen"), "\u2012": N_("a figure dash"),
                     "\u2013": N_("an en dash"), "\u2014": N_("an em dash"), "\u2015": N_("a horizontal bar"),
                     "\u2212": N_("a minus sign"), "\ufe63": N_("a small hyphen-minus"),
                     "\uff0d": N_("a full-width hyphen-minus")}

SYNTAX_HINT = N_("see docs/notation.md for the DN syntax")
# the corner as DN writes one (@o1): a placeholder like "@corner" would stay English in every language
MOVE_HINT = N_("write a placement like W3 b1-d1 (with a corner like @o1 where two tracks fit, vote { ... } and "
               "-> accepted as needed), or 'pass', or 'choose'")


@dataclass(frozen=True)
class TextKind:
    """The words of P001 errors for one start symbol (translated when shown)."""

    end: str  # the end of the text, as found or expected
    too_early: str  # the text ends before it is whole; ``{expected}``
    hint: str


_TEXT_KINDS = {
    "start": TextKind(N_("the end of the record"), N_("the record ends too early; expected {expected}"), SYNTAX_HINT),
    "move": TextKind(N_("the end of the move"), N_("the move ends too early; expected {expected}"), MOVE_HINT),
}


def explain(e: UnexpectedInput, lark: Lark, text: str, path: str, start: str = "start") -> DnError:
    """A P001 error in words: what was found, what was expected, after what."""
    from lark import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    kind = _TEXT_KINDS[start]
    if isinstance(e, UnexpectedCharacters):
        pos = e.pos_in_stream or 0  # always set by the lexer
        ch = text[pos] if pos < len(text) else ""
        if ch == '"':
            message = _("unterminated quoted string: the closing '\"' is missing on this line")
        elif ch in _LOOKALIKE_DASHES:
            message = _("{dash} {char} ({code}) where DN has a plain hyphen; use - (as in b1-d1 and ->)").format(
                dash=_(_LOOKALIKE_DASHES[ch]), char=quoted(ch), code=f"U+{ord(ch):04X}")
        else:
            prev = previous_token_text(text, pos)
            expected = expected_at(lark, text, pos, start)
            described = _describe(expected, kind) if expected else ""
            if prev and expected:
                message = _("unexpected character {char} after '{previous}'; expected {expected}")
            elif prev:
                message = _("unexpected character {char} after '{previous}'")
            elif expected:
                message = _("unexpected character {char}; expected {expected}")
            else:
                message = _("unexpected character {char}")
            message = message.format(char=quoted(ch), previous=prev, expected=described)
        line, column = e.line, e.column
    elif isinstance(e, UnexpectedToken):
        tok = e.token
        prev = previous_token_text(text, len(text) if tok.type == "$END" else tok.start_pos)
        message = (_("expected {expected} after '{previous}', found {found}") if prev else
                   _("expected {expected}, found {found}")).format(
            expected=_describe(e.expected, kind), previous=prev, found=_token_words(tok, kind))
        if tok.type == "$END":
            line, column = end_position(text)
        else:
            line, column = tok.line, tok.column
    else:
        assert isinstance(e, UnexpectedEOF)  # the only other error the parser raises
        line, column = end_position(text)
        message = _(kind.too_early).format(expected=_describe(e.expected, kind))
    return fail("P001", message, path=path, line=line, column=column, hint=_(kind.hint),
                context=line_of(text, line))


_TOKEN = re.compile(r'"(?:[^"\\\n]++|\\.)*+"|[\w?]+(?:=\w+)?|->|\S')
_SHOWN_TOKEN = 40  # characters of a previous token quoted in a message


def previous_token_text(text: str, pos: int) -> str | None:
    """The token ending just before ``pos`` (comments aside), for "after '-'" in messages.

    Linear in the text: lines are walked back from ``pos`` by index (no copies of the
    text before it), and the one line with code is split into tokens left to right."""
    end = pos
    while end > 0:
        start = text.rfind("\n", 0, end) + 1
        code = code_part(text[start:end])
        if code.strip():
            last = None
            for match in _TOKEN.finditer(code):  # the last one counts
                last = match
            if last is None:
                return None
            token = last.group(0)
            return shown(token, _SHOWN_TOKEN)
        end = start - 1
    return None


# possessive (*+, ++): no backtracking state is kept, so a 5 MB line costs no memory here
_CODE_PREFIX = re.compile(r'(?:[^"#\n]++|"(?:[^"\\\n]++|\\.)*+"?+)*+')


def code_part(line: str) -> str:
    """The part of one line before a comment (a '#' inside a quoted name is no comment)."""
    match = _CODE_PREFIX.match(line)
    assert match is not None  # the pattern matches the empty string too
    return match.group(0)


def end_position(text: str) -> tuple[int, int]:
    """Line and column just past the last token (comments and blank lines aside)."""
    number, stop = text.count("\n") + 1, len(text)
    while number > 0:  # from the last line back, without splitting the text: a record ends in its last line or two
        start = text.rfind("\n", 0, stop) + 1
        code = code_part(text[start:stop]).rstrip()
        if code.strip():
            return number, len(code) + 1
        number, stop = number - 1, start - 1
    return 1, 1
