"""The grammar's terminals as regex slots: the tokens Lark's lexer makes, read by regexes.

The line reader (:mod:`lines`) builds its line regexes of these slots. A slot leaves
out an earlier terminal that cannot start with the same character (:func:`first_chars`,
read from the regex's text) or the same two (:func:`first_pairs`), and checks its own
first character before the earlier terminals it keeps (:func:`first_atom`), and tests
the characters those can start with before trying them one by one, which keeps the
regexes fast.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from drunter_notation.notation.terminals import Terminal

# A test of one character: a character class too large to list, like [^\W\d_].
CharTest = Callable[[str], "re.Match[str] | None"]
# What a match may start with: some characters and some tests; None for "maybe any".
FirstChars = tuple[frozenset[str], tuple[CharTest, ...]] | None
_Starts = tuple[set[str], set[CharTest], bool, int]  # characters, tests, whether it may match empty, the end


class _Unread(Exception):
    """A construct :func:`first_chars` does not read: any first character is possible."""


_ESCAPED = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}
_QUANTITY = re.compile(r"\{(\d*)(?:,(\d*))?\}")


def first_chars(regexp: str, flags: int) -> FirstChars:
    r"""What a match of ``regexp`` can start with: (characters, tests of one character
    -- for classes too large to list, like [^\W\d_]), or None for "maybe any". Read
    from the regex's text; anything but literals, escapes, character classes, groups,
    repeats and zero-width assertions gives None, so the answer may be too large,
    never too small."""
    if flags & (re.IGNORECASE | re.VERBOSE):
        return None
    try:
        chars, tests, empty, end = _alternatives(regexp, 0, flags)
    except (_Unread, IndexError, re.error):
        return None
    return None if empty or end != len(regexp) else (frozenset(chars), tuple(tests))


def _alternatives(text: str, pos: int, flags: int) -> _Starts:
    chars: set[str] = set()
    tests: set[CharTest] = set()
    empty = False
    while True:
        c, t, e, pos = _sequence(text, pos, flags)
        chars, tests, empty = chars | c, tests | t, empty or e
        if pos == len(text) or text[pos] != "|":
            return chars, tests, empty, pos
        pos += 1


def _sequence(text: str, pos: int, flags: int) -> _Starts:
    chars: set[str] = set()
    tests: set[CharTest] = set()
    empty = True  # everything so far may match empty: the next atom may start the match
    while pos < len(text) and text[pos] not in "|)":
        c, t, e, pos = _atom(text, pos, flags)
        pos, optional = _quantifier(text, pos)
        if empty:
            chars, tests, empty = chars | c, tests | t, e or optional
    return chars, tests, empty, pos


def _quantifier(text: str, pos: int) -> tuple[int, bool]:
    """The end of a quantifier at ``pos`` (if any) and whether it allows none."""
    if pos == len(text) or text[pos] not in "?*+{":
        return pos, False
    if text[pos] == "{":
        m = _QUANTITY.match(text, pos)
        if m is None:  # a literal '{'
            return pos, False
        optional, pos = m[1] in ("", "0"), m.end()
    else:
        optional, pos = text[pos] != "+", pos + 1
    if pos < len(text) and text[pos] in "?+":  # lazy or possessive
        pos += 1
    return pos, optional


def _atom(text: str, pos: int, flags: int) -> _Starts:
    ch = text[pos]
    if ch == "(":
        opening, zero_width = next((o, z) for o, z in _GROUPS if text.startswith(o, pos))
        if zero_width is None:  # flags, a reference, a condition, a comment
            raise _Unread
        inner = text.index(">", pos) + 1 if opening == "(?P<" else pos + len(opening)
        chars, tests, empty, end = _alternatives(text, inner, flags)
        if text[end] != ")":
            raise _Unread
        return (set(), set(), True, end + 1) if zero_width else (chars, tests, empty, end + 1)
    if ch == "[":
        return _class(text, pos, flags)
    if ch == "\\":
        escaped = text[pos + 1]
        if escaped in "AbBZ":  # zero width
            return set(), set(), True, pos + 2
        if escaped in "dDsSwW":
            return set(), {re.compile(text[pos:pos + 2], flags).fullmatch}, False, pos + 2
        if escaped in _ESCAPED:
            return {_ESCAPED[escaped]}, set(), False, pos + 2
        if escaped.isalnum():  # \x41, \u00e9, \N{...}, a reference ...
            raise _Unread
        return {escaped}, set(), False, pos + 2
    if ch in "^$":
        return set(), set(), True, pos + 1
    if ch == ".":
        raise _Unread
    return {ch}, set(), False, pos + 1


# How a group opens -> whether it is zero width (None: not read), the longest opening first.
_GROUPS = (("(?:", False), ("(?>", False), ("(?=", True), ("(?!", True), ("(?<=", True), ("(?<!", True),
           ("(?P<", False), ("(?", None), ("(", False))
_CLASS_ITEM = re.compile(r"\\.|[^\\]", re.DOTALL)


def _class(text: str, pos: int, flags: int) -> _Starts:
    """A character class ``[...]`` at ``pos``: its characters when it lists only characters
    and short ranges, else a test of one character."""
    end = pos + 1 + (text[pos + 1] == "^")
    end += text[end] == "]"  # a ']' first is literal
    while text[end] != "]":
        end += 2 if text[end] == "\\" else 1
    end += 1
    test = re.compile(text[pos:end], flags).fullmatch
    body = text[pos + 1:end - 1]
    items = _CLASS_ITEM.findall(body)
    if body.startswith("^") or any(len(item) == 2 and item[1].isalnum() and item[1] not in _ESCAPED
                                   for item in items):
        return set(), {test}, False, end
    chars = [_ESCAPED.get(item[1], item[1]) if len(item) == 2 else item for item in items]
    listed: set[str] = set()
    i = 0
    while i < len(chars):
        if i + 2 < len(chars) and items[i + 1] == "-":  # a range
            low, high = ord(chars[i]), ord(chars[i + 2])
            if high - low >= 256:
                return set(), {test}, False, end
            listed.update(map(chr, range(low, high + 1)))
            i += 3
        else:
            listed.add(chars[i])
            i += 1
    return listed, set(), False, end


# A group of literal words at a regex's start, like (?:museum|tavern): each match starts with one of them.
_WORDS = re.compile(r"\((?:\?:)?([A-Za-z0-9-]{2,}(?:\|[A-Za-z0-9-]{2,})*)\)")


def first_pairs(regexp: str, flags: int) -> frozenset[str] | None:
    """The first two characters every match of ``regexp`` starts with, or None when not read:
    read only for a regex that is one sequence (no ``|`` outside its groups) starting with a
    group of literal words of two characters or more, or with one character from a listed set
    (no repeat) then something that cannot match empty and starts with listed characters. So
    the answer may be None, never too small."""
    if flags & (re.IGNORECASE | re.VERBOSE):
        return None
    try:
        if _sequence(regexp, 0, flags)[3] != len(regexp):  # alternatives at the top
            return None
        words = _WORDS.match(regexp)
        if words is not None:  # the group once (no repeat): each match starts with a word
            once = _quantifier(regexp, words.end())[0] == words.end()
            return frozenset(w[:2] for w in words[1].split("|")) if once else None
        if regexp[0] in "(\\":  # a group or an escape: not read here
            return None
        chars, tests, empty, end = _atom(regexp, 0, flags)
    except (_Unread, IndexError, re.error):
        return None
    if tests or empty or _quantifier(regexp, end)[0] != end:
        return None
    rest = first_chars(regexp[end:], flags) if end < len(regexp) else None
    if rest is None or rest[1]:
        return None
    return frozenset(a + b for a in chars for b in rest[0])


def first_atom(regexp: str, flags: int) -> str | None:
    """The text of the character class or literal character every match of ``regexp`` starts
    with (``[^\\W\\d_]``), or None: read only for a regex that is one sequence starting with
    one, not optional."""
    if not regexp or regexp[0] in "(\\.^$":
        return None
    try:
        if _sequence(regexp, 0, flags)[3] != len(regexp):
            return None
        end = _atom(regexp, 0, flags)[3]
    except (_Unread, IndexError, re.error):
        return None
    return None if _quantifier(regexp, end)[1] else regexp[:end]


def may_begin_alike(a: frozenset[str] | None, b: frozenset[str] | None) -> bool:
    """Whether two :func:`first_pairs` answers may share their first two characters."""
    return a is None or b is None or bool(a & b)


def may_start_alike(a: FirstChars, b: FirstChars) -> bool:
    """Whether two :func:`first_chars` answers may share a first character (two tests
    are not compared: they may)."""
    if a is None or b is None:
        return True
    (chars_a, tests_a), (chars_b, tests_b) = a, b
    return bool(chars_a & chars_b or (tests_a and tests_b) or any(t(c) for t in tests_a for c in chars_b)
                or any(t(c) for t in tests_b for c in chars_a))


def _in_class(c: str) -> str:
    """``c`` written inside a character class."""
    return "\\" + c if c in "\\]^-[" else c


# An unnamed group, found outside escapes and character classes (a ']' first in a class is literal).
_UNNAMED_GROUP = re.compile(r"\\.|\[\^?\]?(?:\\.|[^\]\\])*\]|\((?!\?)")


def uncaptured(regexp: str) -> str:
    """``regexp`` with its unnamed groups made non-capturing: the reader reads only its own
    named groups, and each capture costs the regex engine time."""
    return _UNNAMED_GROUP.sub(lambda m: "(?:" if m[0] == "(" else m[0], regexp)


class Slots:
    """The grammar's terminals as regex *slots*, and the pieces every line regex shares.

    Lark's basic lexer takes, at each position, the first terminal in its documented
    order (priority, longest possible match, longest pattern, name) that matches
    there. So here each token is a slot: ``(?!E)(?>X)`` reads a terminal X where no
    terminal E before X in that order matches, and as much as X alone would take (an
    atomic group: no backtracking into it) -- the very token Lark's lexer makes there.
    A keyword like ``pass`` is lexed as a NAME and then renamed when its text is the
    keyword's (Lark's rule for strings a regex terminal matches), so a keyword's slot
    is a NAME checked for that text, and a name must not be a keyword.
    """

    def __init__(self, order: tuple[Terminal, ...], flags: int) -> None:
        """``order``: the terminals in the order Lark's lexer tries them (:data:`terminals.TERMINALS`)."""
        self.flags = flags
        self.regexp = {t.name: uncaptured(t.regexp) for t in order}
        self.words = {t.name: t.value for t in order if t.kind == "str"}
        self.keywords, self.scanned = self._keywords(order)
        self.first = {name: first_chars(self.regexp[name], self.flags) for name in self.scanned}
        self.pairs = {name: first_pairs(self.regexp[name], self.flags) for name in self.scanned}
        self.atoms = {name: first_atom(self.regexp[name], self.flags) for name in self.scanned}
        # What may stand between two tokens, taken whole: where its slot matches, Lark's lexer makes a WS
        # token. A bare class repeated, "[...]+", is written "[...]*+" (fastest). No possessive quantifier over a
        # group: CPython 3.11 before 3.11.5 (Debian 12's 3.11.2) matches some of them wrongly.
        ws, spaces = self.slot("WS"), self.regexp["WS"]
        bare_class = ws == f"(?>{spaces})" and re.fullmatch(r"\[[^\]]*\]\+", spaces)
        self.gap = f"{spaces[:-1]}*+" if bare_class else f"(?:{ws})?"
        self.name = f"(?:{self.slot('NAME')}|{self.slot('STRING')})"
        self.end = f"{self.gap}(?P<comment>{self.slot('COMMENT')})?\\Z"
        self.word = f"(?P<kw>{self.slot('NAME')})"

    def _keywords(self, order: tuple[Terminal, ...]) -> tuple[dict[str, str], list[str]]:
        """Keyword text -> its terminal (the strings NAME matches whole: the only host handled),
        and the other terminals, in the lexer's order."""
        keywords: dict[str, str] = {}
        scanned = []
        for t in order:
            hosts = [r.name for r in order if r.kind == "re" and r.priority == t.priority
                     and (m := re.match(self.regexp[r.name], t.value, self.flags))
                     and m.group(0) == t.value] if t.kind == "str" else []
            if not hosts:
                scanned.append(t.name)
            elif hosts == ["NAME"] and not t.flags:
                keywords[t.value] = t.name
            else:
                raise NotImplementedError(f"keyword {t.name} in {hosts}")
        return keywords, scanned

    def slot(self, name: str) -> str:
        """Terminal ``name`` where Lark's lexer makes it; an earlier terminal matters only if
        it may start with the same character."""
        kept = [e for e in self.scanned[:self.scanned.index(name)] if may_start_alike(self.first[e], self.first[name])
                and may_begin_alike(self.pairs[e], self.pairs[name])]
        if not kept:
            return f"(?>{self.regexp[name]})"
        # the first character checked before the earlier terminals are: where none can start, one test
        atom = self.atoms[name]
        return (f"(?={atom})" if atom else "") + f"(?!{self._guarded(kept)})(?>{self.regexp[name]})"

    def _guarded(self, names: list[str]) -> str:
        """The terminals ``names`` as one alternation, behind a test of the characters any of
        them can start with when all are listed: a name like ``Dora`` is told apart from the
        35 words and shapes it must not be in one test, not one per alternative."""
        earlier = "|".join(self.regexp[e] for e in names)
        starts = [self.first[e] for e in names]
        if any(first is None or first[1] for first in starts):
            return earlier
        chars = sorted(set().union(*(first[0] for first in starts if first is not None)))
        return f"(?=[{''.join(_in_class(c) for c in chars)}])(?:{earlier})"

    def lit(self, text: str) -> str:
        """An anonymous terminal like ":" by its text."""
        return self.slot(next(name for name, word in self.words.items() if word == text))

    def compiled(self, pattern: str) -> re.Pattern[str]:
        return re.compile(pattern, self.flags)

    def entries(self, *, named: bool) -> dict[str, str]:
        """One entry of each kind of list, with or without its groups."""
        def group(key: str, body: str) -> str:
            return f"(?P<{key}>{body})" if named else f"(?:{body})"
        g = self.gap
        before = f"{g}{group('player', self.name)}{g}{self.lit(':')}"
        return {"VOTE": before + group("cards", f"(?:{g}{self.slot('CARD')})+"),
                "REVEAL": f"{before}{g}{group('v1', self.slot('GOAL'))}"
                          f"(?:{g}{self.lit('/')}{g}{group('v2', self.slot('GOAL'))})?",
                "SCORE": f"{before}{g}{group('v1', self.slot('INT'))}"}

    def span(self) -> str:
        """Where a list of entries may stand, taken whole: any text but a line break, the vote's
        brackets and a comment, or a quoted string. A superset: the reader reads it entry by
        entry with :meth:`entries` (``LineReader._list``) and gives up on anything else, so a
        line's regex need not match every entry's slots a second time."""
        comment = self.atoms["COMMENT"]
        assert comment is not None and len(comment) == 1  # a comment starts with its one character
        avoid = "".join(_in_class(c) for c in (self.words["LBRACE"], self.words["RBRACE"], '"', "\n", comment))
        return f"(?:[^{avoid}]++|{self.regexp['STRING']})*+"

    def placement(self) -> str:
        g, slot, lit = self.gap, self.slot, self.lit
        return (f"(?P<tile>{slot('TILE')}){g}(?P<a>{slot('SQUARE')})(?:{g}{lit('-')}{g}(?P<b>{slot('SQUARE')}))?"
                f"(?:{g}{lit('@')}{g}(?P<corner>{slot('SQUARE')}))?"
                f"(?:{g}(?P<vote>{slot('NAME')}){g}{lit('{')}(?P<ballots>{self.span()}){lit('}')})?"
                f"(?:{g}(?P<arrow>{slot('ARROW')}){g}(?P<result>{slot('RESULT')})"
                f"(?:{g}(?P<tally>{slot('TALLY')}))?)?")
