"""DN text -> :class:`model.Record` (the notation: docs/notation.md).

The grammar is the file ``grammar/drunter.lark``, the one definition of DN; Lark
parses it (LALR, its basic lexer) and applies :class:`RecordBuilder` while it
parses, so no parse tree is built. Every bad input becomes a
:class:`errors.DnError` with code P001 (syntax) or an input code (I001
unreadable, I002 not UTF-8, I003 binary, I004 empty); nothing else escapes.

The grammar has two start symbols: ``start``, a whole record (:func:`parse_text`),
and ``move``, one move alone (:func:`parse_move`).

Speed (bench/README.md): DN is written a line per item, so valid text is read line
by line (:class:`_LineReader`), each kind of line by one regex made of the
grammar's own terminals (bench/README.md has the figures). Any line it does not
recognise -- a syntax error, an item spread over lines, two items on one line, a
number or a list over its limit -- hands the whole text to Lark, so every syntax
error is Lark's. tests/test_parser_fast_path.py holds the two equal.
"""
from __future__ import annotations

import bisect
import re
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from drunter_notation.errors import DnError, fail
from drunter_notation.files import read_record
from drunter_notation.i18n import N_, _, format_number
from drunter_notation.notation.model import (BUILDING_ALIASES, CARD_NAMES, Ballot, Card, Choose, Goals, Hand, HandTile, Outcome, Placement,
                    Record, Reveal, RevealEntry, Score, ScoreEntry, Tag, Tile, Turn, Vote, parse_square)

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


@lru_cache(maxsize=1)
def grammar_text() -> str:
    """The DN grammar, read from the package (where the wheel ships it)."""
    return resources.files("drunter_notation.notation").joinpath("drunter.lark").read_text("utf-8")


def _unquote(text: str) -> str:
    return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")


# Tiles, squares and cards repeat in every record: each text is turned into its value
# once and the (immutable) value shared, which spares a NamedTuple or tuple per token.
_TILES = {f"{kind}{length}": Tile(kind, length) for kind in "WSR" for length in (1, 2, 3)}
_CARDS = {**{name: Card(name) for name in CARD_NAMES}, "JEIN=yes": Card("JEIN", "yes"), "JEIN=no": Card("JEIN", "no")}
_SQUARES: dict[str, tuple[int, int]] = {}  # at most 26 x 99 entries: the SQUARE terminal allows no more
_HAND_TILES: dict[str, HandTile] = {}  # a hand line's TILE text -> its value (HandTile has no position)


# The largest number each place in a record may hold: bounded where it is read, so a
# 5,000-digit number is a located P001, never a Python ValueError or a huge value.
MAX_TURN = 999_999
MAX_TILE_COUNT = 99
MAX_TALLY = 999
MAX_SCORE = 99_999
MAX_LINE_CHARS = 100_000
MAX_LIST_ITEMS = 1000  # tags, tiles in a hand line, cards in a ballot ... (_LIST_WORDS)
# What is kept from one line for later ones at most: short texts, a few thousand of each kind (2 MB at most each).
_KEPT_TEXT, _KEPT_ITEMS = 64, 4096


def _bounded(digits: str, limit: int) -> int | None:
    """``digits`` as an int if it is at most ``limit``, else None (never a 5,000-digit int)."""
    digits = digits.lstrip("0") or "0"
    if len(digits) > 6:  # every limit has at most six digits
        return None
    number = int(digits)
    return number if number <= limit else None


def _number(tok: Token, text: str, limit: int, too_large: str) -> int:
    """``text`` (digits, read from ``tok``) as an int of at most ``limit``; else P001
    there, in the words of ``too_large`` (a message with ``{number}`` and ``{limit}``)."""
    number = _bounded(text, limit)
    if number is None:
        digits = text.lstrip("0")
        shown = digits if len(digits) <= 12 else _("a {n}-digit number").format(n=len(digits))
        raise _syntax_error(tok, _(too_large).format(number=shown, limit=limit), _(SYNTAX_HINT))
    return number


def _square(text: str):
    sq = _SQUARES.get(text)
    if sq is None:
        sq = _SQUARES[text] = parse_square(text)
    return sq


def _hand_tile(text: str) -> HandTile | None:
    """A TILE of a hand line (``W2x4``) as a HandTile, kept in :data:`_HAND_TILES`; None if
    its count is over the limit."""
    tile = _HAND_TILES.get(text)
    if tile is None:
        if "x" not in text:
            tile = HandTile(_TILES[text], 1)
        else:
            count = _bounded(text[3:], MAX_TILE_COUNT)
            if count is None:
                return None
            tile = HandTile(_TILES[text[:2]], count)
        if len(text) <= _KEPT_TEXT and len(_HAND_TILES) < _KEPT_ITEMS:
            _HAND_TILES[text] = tile
    return tile


def _card(text: str) -> Card:
    card = _CARDS.get(text)
    if card is not None:
        return card
    if text.startswith("JEIN") and "=" in text:  # spaced: "JEIN = yes"
        return Card("JEIN", text.split("=")[1].strip())
    return Card(text)


def _tally(text: str) -> tuple[int | None, int | None]:
    yes, no = text.split(":")
    return _bounded(yes.strip(), MAX_TALLY), _bounded(no.strip(), MAX_TALLY)


def _turn_number(text: str) -> str:
    return text.rstrip(". \t\r\n")  # TURNNO: "12.", "12 ." or "12\n."


# A list's items -> their words in the P001 for more than MAX_LIST_ITEMS (the grammar's
# many{...} and separated{...}): the parser holds a list until its item is built.
_LIST_WORDS = {Tag: N_("more than {max} tags"), Hand: N_("more than {max} hand and goals lines"),
               Goals: N_("more than {max} hand and goals lines"), "TILE": N_("more than {max} tiles in one hand line"),
               "CARD": N_("more than {max} cards in one ballot"), Ballot: N_("more than {max} ballots in one vote"),
               RevealEntry: N_("more than {max} entries in one reveal"),
               ScoreEntry: N_("more than {max} entries in one score line")}


class RecordBuilder(Transformer):
    """Turns the parser's rule matches straight into model objects."""

    def __init__(self):
        super().__init__(visit_tokens=False)

    def name(self, c):
        tok = c[0]
        if tok.type == "NAME":  # already what a name becomes: no copy needed
            return tok
        return Token.new_borrow_pos("NAME", _unquote(tok), tok)

    def many(self, c):
        if len(c) == 1:
            return [c[0]]
        items, item = c
        if len(items) >= MAX_LIST_ITEMS:
            words = _LIST_WORDS[item.type if isinstance(item, Token) else type(item)]
            raise _Syntax(item.line, item.column, _(words).format(max=format_number(MAX_LIST_ITEMS)),
                          _(SYNTAX_HINT))
        items.append(item)
        return items

    separated = many  # the grammar's "," between the items is not passed on

    def tag(self, c):
        lb, key, value = c
        return Tag(str(key), _unquote(value), lb.line, lb.column)

    def hand(self, c):
        kw, player, tiles = c
        out = []
        for tok in tiles:
            tile = _hand_tile(str(tok))
            if tile is None:
                # raises: the count is too large
                _number(tok, str(tok)[3:], MAX_TILE_COUNT, N_("tile count {number} is too large (at most {limit})"))
            out.append(tile)
        return Hand(str(player), tuple(out), kw.line, kw.column)

    def goals(self, c):
        kw, player, g1, g2 = c
        return Goals(str(player), (_goal(g1), _goal(g2)), kw.line, kw.column)

    def choose(self, c):
        return Choose(c[0].line, c[0].column)

    def turn(self, c):
        num, player, action = c
        number = _number(num, _turn_number(str(num)), MAX_TURN,
                         N_("turn number {number} is too large (at most {limit})"))
        placement = None if isinstance(action, Token) else action
        return Turn(number, str(player), placement, num.line, num.column)

    def placement(self, c):
        tile_tok = c[0]
        text = str(tile_tok)
        if "x" in text:
            raise _syntax_error(tile_tok, _("a tile count like x4 belongs only in hand lines"),
                                _("write the tile alone, e.g. W2"))
        anchor = _square(str(c[1]))
        end = corner = vote = outcome = None
        for item in c[2:]:
            if isinstance(item, Token):  # the second square
                end = _square(str(item))
            elif isinstance(item, tuple):  # the track's corner
                corner = item[0]
            elif isinstance(item, Vote):
                vote = item
            else:
                outcome = item
        return Placement(_TILES[text], anchor, end, corner, vote, outcome, tile_tok.line, tile_tok.column)

    def track(self, c):
        return (_square(str(c[0])),)

    def vote(self, c):
        kw, ballots = c
        return Vote(tuple(ballots), kw.line, kw.column)

    def ballot(self, c):
        player, cards = c
        return Ballot(str(player), tuple(_card(str(tok)) for tok in cards), player.line, player.column)

    def outcome(self, c):
        arrow, result = c[0], c[1]
        yes = no = None
        if len(c) == 3:
            yes, no = _tally(str(c[2]))
            for part, value in zip(str(c[2]).split(":"), (yes, no)):
                if value is None:
                    # raises: this side is too large
                    _number(c[2], part.strip(), MAX_TALLY, N_("tally {number} is too large (at most {limit})"))
        return Outcome(str(result) == "accepted", yes, no, arrow.line, arrow.column)

    def reveal(self, c):
        kw, entries = c
        return Reveal(tuple(entries), kw.line, kw.column)

    def reveal_entry(self, c):
        player, chosen, *other = c
        return RevealEntry(str(player), _goal(chosen), _goal(other[0]) if other else None,
                           player.line, player.column)

    def score(self, c):
        kw, entries = c
        return Score(tuple(entries), kw.line, kw.column)

    def score_entry(self, c):
        player, points = c
        return ScoreEntry(str(player), _number(points, str(points), MAX_SCORE,
                                               N_("score {number} is too large (at most {limit})")), player.line,
                          player.column)

    def start(self, c):
        tags, setup, events = [], [], []
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


def _first_chars(regexp: str, flags: int) -> tuple[frozenset[str], tuple] | None:
    r"""What a match of ``regexp`` can start with: (characters, tests of one character
    -- for classes too large to list, like [^\W\d_]), or None for "maybe any". Read
    from the parsed regex (CPython's own parser); anything but literals, character
    classes, groups, repeats and zero-width assertions gives None, so the answer may
    be too large, never too small."""
    try:
        from re import _constants as sre, _parser as sre_parse  # CPython's, since 3.11
        tree = sre_parse.parse(regexp, flags)
    except Exception:  # pragma: no cover - another Python
        return None
    repeats = (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None))
    categories = {sre.CATEGORY_DIGIT: r"\d", sre.CATEGORY_NOT_DIGIT: r"\D", sre.CATEGORY_SPACE: r"\s",
                  sre.CATEGORY_NOT_SPACE: r"\S", sre.CATEGORY_WORD: r"\w", sre.CATEGORY_NOT_WORD: r"\W"}

    def test(items):  # a class [...] as a test of one character, or None if it holds anything else
        negate = items[0][0] is sre.NEGATE
        parts = []
        for op, av in items[negate:]:
            if op is sre.LITERAL:
                parts.append(re.escape(chr(av)))
            elif op is sre.RANGE:
                parts.append(f"{re.escape(chr(av[0]))}-{re.escape(chr(av[1]))}")
            elif op is sre.CATEGORY and av in categories:
                parts.append(categories[av])
            else:
                return None
        return re.compile(f"[{'^' * negate}{''.join(parts)}]", flags).fullmatch

    def sequence(items) -> tuple[set[str], set, bool] | None:  # (first characters, tests, can match empty)
        chars, tests = set(), set()
        for op, av in items:
            if op in (sre.ASSERT, sre.ASSERT_NOT, sre.AT):  # zero width: what follows decides
                continue
            empty = False
            if op is sre.LITERAL:
                chars.add(chr(av))
            elif op is sre.IN and all(o is sre.LITERAL or (o is sre.RANGE and a[1] - a[0] < 256) for o, a in av):
                chars.update(chr(c) for o, a in av for c in ([a] if o is sre.LITERAL else range(a[0], a[1] + 1)))
            elif op is sre.IN and (one := test(av)) is not None:
                tests.add(one)
            else:
                if op is sre.BRANCH:
                    parts = [sequence(b) for b in av[1]]
                elif op is sre.SUBPATTERN and not av[1] & (re.IGNORECASE | re.VERBOSE):
                    parts = [sequence(av[3])]
                elif op in repeats:
                    parts = [sequence(av[2])]
                    empty = av[0] == 0
                elif op is getattr(sre, "ATOMIC_GROUP", None):
                    parts = [sequence(av)]
                else:  # any character, a reference ...
                    return None
                if None in parts:
                    return None
                for c, t, e in parts:
                    chars |= c
                    tests |= t
                    empty = empty or e
            if not empty:
                return chars, tests, False
        return chars, tests, True

    if flags & re.IGNORECASE:
        return None
    first = sequence(tree)
    return None if first is None or first[2] else (frozenset(first[0]), tuple(first[1]))


def _may_start_alike(a, b) -> bool:
    """Whether two :func:`_first_chars` answers may share a first character (two tests
    are not compared: they may)."""
    if a is None or b is None:
        return True
    (chars_a, tests_a), (chars_b, tests_b) = a, b
    return bool(chars_a & chars_b or (tests_a and tests_b) or any(t(c) for t in tests_a for c in chars_b)
                or any(t(c) for t in tests_b for c in chars_a))


# An unnamed group, found outside escapes and character classes (a ']' first in a class is literal).
_UNNAMED_GROUP = re.compile(r"\\.|\[\^?\]?(?:\\.|[^\]\\])*\]|\((?!\?)")


def _uncaptured(regexp: str) -> str:
    """``regexp`` with its unnamed groups made non-capturing: the reader reads only its own
    named groups, and each capture costs the regex engine time."""
    return _UNNAMED_GROUP.sub(lambda m: "(?:" if m[0] == "(" else m[0], regexp)


class _NotRead(Exception):
    """The line reader met something it does not read: Lark parses the whole text."""


class _LineReader:
    """Valid DN text, read line by line with regexes made of the grammar's terminals.

    Lark's basic lexer takes, at each position, the first terminal in its documented
    order (priority, longest possible match, longest pattern, name) that matches
    there. So here each token is a *slot*: ``(?!E)(?>X)`` reads a terminal X where no
    terminal E before X in that order matches, and as much as X alone would take (an
    atomic group: no backtracking into it) -- the very token Lark's lexer makes there.
    A keyword like ``pass`` is lexed as a NAME and then renamed when its text is the
    keyword's (Lark's rule for strings a regex terminal matches), so a keyword's slot
    is a NAME checked for that text, and a name must not be a keyword.

    A line regex holds the tokens of one item (a tag, a hand or goals line, a turn,
    ``choose``, a reveal, a score) and may end in a comment; lines hold only spaces
    and comments otherwise. The items must come in the grammar's order. No token
    crosses a line break except in text no line regex reads (a TURNNO or TALLY split
    over lines puts a line starting with '.' or ':'), so tokens and positions are
    Lark's. Anything else -- a line no regex reads, a number or a list over its
    limit, items out of order -- raises :class:`_NotRead`.
    """

    def __init__(self, lark: Lark):
        flags = lark.options.g_regex_flags
        regexp = {t.name: _uncaptured(t.pattern.to_regexp()) for t in lark.terminals}
        order = sorted(lark.terminals, key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
        self.words = {t.name: t.pattern.value for t in order if t.pattern.type == "str"}
        # keyword text -> its terminal: the strings NAME matches whole (the only host handled)
        self.keywords: dict[str, str] = {}
        scanned = []
        for t in order:
            hosts = [r.name for r in order if r.pattern.type == "re" and r.priority == t.priority
                     and (m := re.match(regexp[r.name], t.pattern.value, flags)) and m.group(0) == t.pattern.value] \
                if t.pattern.type == "str" else []
            if not hosts:
                scanned.append(t.name)
            elif hosts == ["NAME"] and not t.pattern.flags:
                self.keywords[t.pattern.value] = t.name
            else:
                raise NotImplementedError(f"keyword {t.name} in {hosts}")

        first = {name: _first_chars(regexp[name], flags) for name in scanned}

        def slot(name: str) -> str:  # an earlier terminal matters only if it may start with the same character
            earlier = "|".join(regexp[e] for e in scanned[:scanned.index(name)]
                               if _may_start_alike(first[e], first[name]))
            return (f"(?!{earlier})" if earlier else "") + f"(?>{regexp[name]})"

        def lit(text: str) -> str:  # an anonymous terminal like ":" by its text
            return slot(next(name for name, word in self.words.items() if word == text))

        # What may stand between two tokens, taken whole: where its slot matches, Lark's lexer makes a WS
        # token. A bare class repeated, "[...]+", is written "[...]*+" (fastest). No possessive quantifier over a
        # group: CPython 3.11 before 3.11.5 (Debian 12's 3.11.2) matches some of them wrongly.
        ws = slot("WS")
        bare_class = ws == f"(?>{regexp['WS']})" and re.fullmatch(r"\[[^\]]*\]\+", regexp["WS"])
        g = f"{regexp['WS'][:-1]}*+" if bare_class else f"(?:{ws})?"
        name = f"(?:{slot('NAME')}|{slot('STRING')})"
        end = f"{g}(?P<comment>{slot('COMMENT')})?\\Z"
        word = f"(?P<kw>{slot('NAME')})"
        compiled = lambda pattern: re.compile(pattern, flags)  # noqa: E731

        def entries(named: bool) -> dict[str, str]:  # one entry of each list, with or without its groups
            def group(key: str, body: str) -> str:
                return f"(?P<{key}>{body})" if named else f"(?:{body})"
            before = f"{g}{group('player', name)}{g}{lit(':')}"
            return {"VOTE": before + group("cards", f"(?:{g}{slot('CARD')})+"),
                    "REVEAL": f"{before}{g}{group('v1', slot('GOAL'))}"
                              f"(?:{g}{lit('/')}{g}{group('v2', slot('GOAL'))})?",
                    "SCORE": f"{before}{g}{group('v1', slot('INT'))}"}
        listed = entries(False)

        def many(kind: str) -> str:
            return f"{listed[kind]}(?:{g}{lit(',')}{listed[kind]})*"
        # A list, once its line is read whole, is taken apart entry by entry: its entries follow one
        # another, and what stands after it (spaces, '}' or the line's end) changes no token at its end.
        self.each = {kind: compiled(f"(?:{g}{lit(',')})?{e}") for kind, e in entries(True).items()}
        self.kept: dict[str, dict[str, tuple[tuple, int]]] = {kind: {} for kind in self.each}  # see _entry
        self.cards = compiled(f"{g}({slot('CARD')})")
        placement = (f"(?P<tile>{slot('TILE')}){g}(?P<a>{slot('SQUARE')})(?:{g}{lit('-')}{g}(?P<b>{slot('SQUARE')}))?"
                     f"(?:{g}{lit('@')}{g}(?P<corner>{slot('SQUARE')}))?"
                     f"(?:{g}(?P<vote>{slot('NAME')}){g}{lit('{')}(?P<ballots>{many('VOTE')}){g}{lit('}')})?"
                     f"(?:{g}(?P<arrow>{slot('ARROW')}){g}(?P<result>{slot('RESULT')})"
                     f"(?:{g}(?P<tally>{slot('TALLY')}))?)?")
        # a placement tried first: most turns are one, and 'pass' (a NAME) never starts as a TILE does
        self.turn = compiled(f"{g}(?P<num>{slot('TURNNO')}){g}(?P<player>{name}){g}"
                             f"(?:{placement}|(?P<pass>{slot('NAME')})){end}")
        self.move_pattern = (f"{g}(?:{placement}|(?P<pass>{slot('NAME')})){end}", flags)
        self.blank = compiled(end)
        self.tag = compiled(f"{g}(?P<lb>{lit('[')}){g}(?P<key>{slot('NAME')}){g}(?P<value>{slot('STRING')})"
                            f"{g}{lit(']')}{end}")
        self.word = compiled(f"{g}{word}")
        self.hand = compiled(f"{g}{word}{g}(?P<player>{name}){g}{lit(':')}(?P<items>(?:{g}{slot('TILE')})+){end}")
        self.goals = compiled(f"{g}{word}{g}(?P<player>{name}){g}{lit(':')}{g}(?P<g1>{slot('GOAL')}){g}{lit(',')}"
                              f"{g}(?P<g2>{slot('GOAL')}){end}")
        self.entries = {kind: compiled(f"{g}{word}(?P<items>{many(kind)}){end}") for kind in ("REVEAL", "SCORE")}
        self.choose = compiled(f"{g}{word}{end}")
        self.line_kinds = {self.words[k]: k for k in ("HAND", "GOALS", "CHOOSE", "REVEAL", "SCORE")}

    def record(self, text: str) -> tuple[Record, list[tuple[str, int, int]]]:
        """The record and its comments (text, line, column); :class:`_NotRead` if not read."""
        tags, setup, events, comments = [], [], [], []
        reveal = score = None
        phase = 0  # the part of the record read so far: tags, setup, events, reveal, score
        turn_match, pass_word = self.turn.match, self.words["PASS"]
        for number, start, end in _lines(text):
            m = turn_match(text, start, end)
            if m is not None:
                if phase > 2:
                    raise _NotRead
                phase = 2
                if m["pass"] is None:
                    placement = self._placement(m, text, start, number)
                elif m["pass"] == pass_word:
                    placement = None
                else:
                    raise _NotRead
                turn = _bounded(_turn_number(m["num"]), MAX_TURN)
                if turn is None:
                    raise _NotRead
                events.append(Turn(turn, self._name(m["player"]), placement, number, m.start("num") - start + 1))
            else:
                m = self.blank.match(text, start, end)
                if m is None:
                    m, item, phase = self._other(text, start, end, number, phase)
                    if phase == 0:
                        tags.append(item)
                    elif phase == 1:
                        setup.append(item)
                    elif phase == 2:
                        events.append(item)
                    elif phase == 3:
                        reveal = item
                    else:
                        score = item
                    if len(tags) > MAX_LIST_ITEMS or len(setup) > MAX_LIST_ITEMS:
                        raise _NotRead
            if m["comment"] is not None:
                comments.append((m["comment"], number, m.start("comment") - start + 1))
        return Record(tuple(tags), tuple(setup), tuple(events), reveal, score), comments

    def _other(self, text: str, start: int, end: int, number: int, phase: int):
        """A line other than a turn (``text[start:end]``, line ``number``): its match, its
        item and the part of the record it is in."""
        m = self.tag.match(text, start, end)
        if m is not None:
            if phase > 0 or m["key"] in self.keywords:
                raise _NotRead
            return m, Tag(m["key"], _unquote(m["value"]), number, m.start("lb") - start + 1), 0
        m = self.word.match(text, start, end)
        kind = m and self.line_kinds.get(m["kw"])
        if kind == "HAND" or kind == "GOALS":
            m = (self.hand if kind == "HAND" else self.goals).match(text, start, end)
            if m is None or phase > 1:
                raise _NotRead
            player, column = self._name(m["player"]), m.start("kw") - start + 1
            if kind == "GOALS":
                return m, Goals(player, (_goal(m["g1"]), _goal(m["g2"])), number, column), 1
            texts = m["items"].split()  # TILE tokens with only spaces between them
            tiles = tuple(map(_HAND_TILES.get, texts))  # None for a text not kept yet; a HandTile is true
            if not all(tiles):
                tiles = tuple(map(_hand_tile, texts))
            if not all(tiles) or len(tiles) > MAX_LIST_ITEMS:
                raise _NotRead
            return m, Hand(player, tiles, number, column), 1
        if kind == "CHOOSE" and phase <= 2:
            m = self.choose.match(text, start, end)
            if m is not None:
                return m, Choose(number, m.start("kw") - start + 1), 2
        if (kind == "REVEAL" and phase <= 2) or (kind == "SCORE" and phase <= 3):
            m = self.entries[kind].match(text, start, end)
            if m is not None:
                item = (Reveal if kind == "REVEAL" else Score)(self._list(kind, m, text, start, number), number,
                                                               m.start("kw") - start + 1)
                return m, item, 3 if kind == "REVEAL" else 4
        raise _NotRead

    def _placement(self, m: re.Match, text: str, start: int, number: int) -> Placement:
        tile = m["tile"]
        if "x" in tile:
            raise _NotRead
        vote = outcome = None
        if m["vote"] is not None:
            if m["vote"] != self.words["VOTE"]:
                raise _NotRead
            vote = Vote(self._list("VOTE", m, text, start, number, "ballots"), number, m.start("vote") - start + 1)
        if m["arrow"] is not None:
            yes = no = None
            if m["tally"] is not None:
                yes, no = _tally(m["tally"])
                if yes is None or no is None:
                    raise _NotRead
            outcome = Outcome(m["result"] == "accepted", yes, no, number, m.start("arrow") - start + 1)
        b, corner = m["b"], m["corner"]
        return Placement(_TILES[tile], _square(m["a"]), b and _square(b), corner and _square(corner), vote, outcome,
                         number, m.start("tile") - start + 1)

    def _list(self, kind: str, m: re.Match, text: str, start: int, number: int, group: str = "items") -> tuple:
        """The entries (ballots, reveal or score entries) of the list ``group`` of ``m``, each
        made from the text of its entry."""
        span, column = m[group], m.start(group) - start + 1
        if '"' not in span:  # no quoted name (which may hold a comma): the commas part the entries
            texts, comma = span.split(","), 1
        else:  # the entries as the list's regex finds them, each but the first with its comma
            texts, comma = [e[0] for e in self.each[kind].finditer(text, m.start(group), m.end(group))], 0
        kept, make, entries = self.kept[kind], _ENTRY_TYPES[kind], []
        for entry in texts:
            values, offset = kept.get(entry) or self._entry(kind, entry)
            entries.append(make(*values, number, column + offset))
            column += len(entry) + comma
        if len(entries) > MAX_LIST_ITEMS:
            raise _NotRead
        return tuple(entries)

    def _entry(self, kind: str, entry: str) -> tuple[tuple, int]:
        """What the text of an entry (spaces and a comma before it allowed) reads as: its
        values but the position, and where its player starts. The same few entries recur
        in a game: each is kept (up to a bound) for the next list."""
        e = self.each[kind].match(entry)
        player = self._name(e["player"])
        if kind == "VOTE":
            values = player, tuple(map(_card, self.cards.findall(e["cards"])))
            if len(values[1]) > MAX_LIST_ITEMS:
                raise _NotRead
        elif kind == "REVEAL":
            values = player, _goal(e["v1"]), e["v2"] and _goal(e["v2"])
        else:
            values = player, _bounded(e["v1"], MAX_SCORE)
            if values[1] is None:
                raise _NotRead
        known = values, e.start("player")
        if len(entry) <= _KEPT_TEXT and len(self.kept[kind]) < _KEPT_ITEMS:
            self.kept[kind][entry] = known
        return known

    def _name(self, text: str) -> str:
        if text[0] == '"':
            return _unquote(text)
        if text in self.keywords:  # Lark reads it as the keyword, not as a name
            raise _NotRead
        return text

    @cached_property
    def move(self) -> re.Pattern:
        """The regex of a move alone, compiled when first used (3 ms: records need none)."""
        return re.compile(*self.move_pattern)

    def parse_move(self, text: str) -> Placement | Choose | None:
        """One move (comments dropped): a placement, None for ``pass``, or a Choose."""
        move = None
        for number, start, end in _lines(text):
            if self.blank.match(text, start, end) is not None:
                continue
            m = self.move.match(text, start, end)
            if m is None or move is not None:
                raise _NotRead
            word = m["pass"]
            if word is None:
                move = self._placement(m, text, start, number)
            elif word == self.words["PASS"]:
                move = _PASS
            elif word == self.words["CHOOSE"]:
                move = Choose(number, m.start("pass") - start + 1)
            else:
                raise _NotRead
        if move is None:
            raise _NotRead
        return None if move is _PASS else move


_PASS = object()  # a move read as 'pass', while the reader looks for more
_ENTRY_TYPES = {"VOTE": Ballot, "REVEAL": RevealEntry, "SCORE": ScoreEntry}  # the entries of each kind of list


def _lines(text: str):
    """(number, start, end) of each line of ``text``, split at line feeds only (as the
    lexer counts lines), without copying it: regexes match ``text`` from start to end."""
    start, number, size = 0, 1, len(text)
    while True:
        nl = text.find("\n", start)
        if nl < 0:
            yield number, start, size
            return
        yield number, start, nl
        start, number = nl + 1, number + 1


# The comments of the parse under way in this thread or task; Lark's lexer passes each to _keep_comment.
_COMMENTS: ContextVar[list[Token] | None] = ContextVar("comments", default=None)


def _keep_comment(comment: Token) -> None:
    comments = _COMMENTS.get()
    if comments is not None:  # None: a lexer run for an error message or a name, not a record
        comments.append(comment)


class _Parser:
    """Lark on the grammar, behind the line reader; comments come through a lexer callback
    into a list of the parse's own, so parses in several threads at once do not mix them."""

    def __init__(self) -> None:
        self.lark = Lark(grammar_text(), parser="lalr", lexer="basic", start=list(START_SYMBOLS),
                         transformer=RecordBuilder(), maybe_placeholders=False,
                         lexer_callbacks={"COMMENT": _keep_comment})
        self.reader = _LineReader(self.lark)

    def parse(self, text: str) -> tuple[Record, list[tuple[str, int, int]]]:
        try:
            return self.reader.record(text)
        except _NotRead:
            pass
        comments: list[Token] = []
        reset = _COMMENTS.set(comments)
        try:
            record = self.lark.parse(text, start="start")
        finally:
            _COMMENTS.reset(reset)
        return record, [(str(c), c.line, c.column) for c in comments]

    def parse_move(self, text: str) -> Placement | Choose | None:
        try:
            return self.reader.parse_move(text)
        except _NotRead:
            pass
        move = self.lark.parse(text, start="move")
        return None if isinstance(move, Token) else move  # a PASS token


# The grammar's start symbols: a whole record, and one move alone (parse_move).
START_SYMBOLS = ("start", "move")


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
        raise fail("I003", _("this looks like a binary file, not a DN record"), path=path,
                   hint=_("give a DN text file"))
    if len(text) > MAX_LINE_CHARS:
        _check_line_lengths(text, path)
    try:
        record, comments = _parser().parse(text)
    except UnexpectedInput as e:
        raise _explain(e, text, path) from None
    except _Syntax as e:
        raise fail("P001", e.message, path=path, line=e.line, column=e.column,
                   hint=e.hint, context=_line_of(text, e.line)) from None
    if not record.tags and not record.setup and not record.events and record.reveal is None:
        if not comments:
            raise fail("I004", _("the record is empty"), path=path, line=1, column=1,
                       hint=_("a DN record needs at least a [Players \"...\"] tag"))
    end_line, end_col = _end_position(text)
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
        raise _explain_move(e, text, source) from None
    except _Syntax as e:
        raise fail("P001", e.message, path=source, line=e.line, column=e.column,
                   hint=e.hint, context=_line_of(text, e.line)) from None
    return move


# Tokens that start a move or a turn: found after a whole move, the text holds more than one.
_ANOTHER_MOVE = frozenset({"TURNNO", "TILE", "PASS", "CHOOSE"})


def _explain_move(e: UnexpectedInput, text: str, source: str) -> DnError:
    """P001 for a bad move: :func:`_explain`'s words, with three common mistakes named."""
    tok = getattr(e, "token", None)  # None: an unexpected character
    if tok is None:
        return _explain(e, text, source, "move")
    # LALR shares the state after a placement between a move and a turn: its table
    # would also offer a turn number or 'reveal'. What the move itself allows is asked.
    e.expected = _expected_at(text, len(text) if tok.type == "$END" else tok.start_pos, "move") or e.expected
    if tok.type == "$END" and _end_position(text) == (1, 1):  # no code at all
        message, line, column = _("the move is empty"), 1, 1
    elif tok.type == "TURNNO" and _previous_token_text(text, tok.start_pos) is None:
        message, line, column = _("write the move without turn number and player"), tok.line, tok.column
    elif tok.type in _ANOTHER_MOVE and "$END" in e.expected:
        message = _("a move is a single placement, 'pass' or 'choose', not more: found '{token}' after its"
                    " end").format(token=tok)
        line, column = tok.line, tok.column
    else:
        return _explain(e, text, source, "move")
    return fail("P001", message, path=source, line=line, column=column, hint=_(MOVE_HINT),
                context=_line_of(text, line))


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


def _line_of(text: str, line: int) -> str | None:
    """Line ``line`` (1-based, counted by line feeds as the lexer counts) of ``text``,
    found without splitting the whole text."""
    if not text:
        return None
    start = 0
    for _ in range(line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    if line < 1 or (start >= len(text) and line > 1):
        return None
    end = text.find("\n", start)
    return text[start:end if end >= 0 else len(text)].rstrip("\r")


def _describe(expected, kind: TextKind) -> str:
    names = sorted(set(expected), key=lambda n: _EXPECTED_ORDER.index(n) if n in _EXPECTED_ORDER else 99)
    words = list(dict.fromkeys(_(kind.end) if n == "$END" else _(EXPECTED_WORDS[n]) if n in EXPECTED_WORDS
                               else n.lower() for n in names))
    if len(words) > 4:
        words = words[:4] + ["..."]
    text = words[0]
    for word in words[1:]:
        text = _("{first} or {second}").format(first=text, second=word)
    return text


def _expected_at(text: str, pos: int, start: str = "start") -> set[str]:
    """The terminals the parser would accept after ``text[:pos]`` (only used on errors)."""
    try:
        ip = _parser().lark.parse_interactive(text[:pos], start=start)
        ip.exhaust_lexer()
        return set(ip.accepts())
    except (UnexpectedInput, _Syntax):
        return set()


def _token_words(tok: Token, kind: TextKind) -> str:
    if tok.type == "$END":
        return _(kind.end)
    return f"'{tok}'"


# Word processors and phones turn "b1-d1" into these; DN spans take the ASCII hyphen-minus only.
_LOOKALIKE_DASHES = {"\u2010": N_("a hyphen"), "\u2011": N_("a non-breaking hyphen"), "\u2012": N_("a figure dash"),
                     "\u2013": N_("an en dash"), "\u2014": N_("an em dash"), "\u2015": N_("a horizontal bar"),
                     "\u2212": N_("a minus sign"), "\ufe63": N_("a small hyphen-minus"),
                     "\uff0d": N_("a full-width hyphen-minus")}

SYNTAX_HINT = N_("see docs/notation.md for the DN syntax")
MOVE_HINT = N_("write a placement like W3 b1-d1 (with @corner, vote { ... } and -> accepted as needed), or 'pass',"
               " or 'choose'")


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


def _explain(e: UnexpectedInput, text: str, path: str, start: str = "start") -> DnError:
    """A P001 error in words: what was found, what was expected, after what."""
    kind = _TEXT_KINDS[start]
    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
        if ch == '"':
            message = _("unterminated quoted string: the closing '\"' is missing on this line")
        elif ch in _LOOKALIKE_DASHES:
            message = _("{dash} {char} ({code}) where DN has a plain hyphen; use - (as in b1-d1 and ->)").format(
                dash=_(_LOOKALIKE_DASHES[ch]), char=repr(ch), code=f"U+{ord(ch):04X}")
        else:
            prev = _previous_token_text(text, e.pos_in_stream)
            expected = _expected_at(text, e.pos_in_stream, start)
            described = _describe(expected, kind) if expected else ""
            if prev and expected:
                message = _("unexpected character {char} after '{previous}'; expected {expected}")
            elif prev:
                message = _("unexpected character {char} after '{previous}'")
            elif expected:
                message = _("unexpected character {char}; expected {expected}")
            else:
                message = _("unexpected character {char}")
            message = message.format(char=repr(ch), previous=prev, expected=described)
        line, column = e.line, e.column
    elif isinstance(e, UnexpectedToken):
        tok = e.token
        prev = _previous_token_text(text, len(text) if tok.type == "$END" else tok.start_pos)
        message = (_("expected {expected} after '{previous}', found {found}") if prev else
                   _("expected {expected}, found {found}")).format(
            expected=_describe(e.expected, kind), previous=prev, found=_token_words(tok, kind))
        if tok.type == "$END":
            line, column = _end_position(text)
        else:
            line, column = tok.line, tok.column
    else:  # UnexpectedEOF
        line, column = _end_position(text)
        message = _(kind.too_early).format(expected=_describe(e.expected, kind))
    return fail("P001", message, path=path, line=line, column=column, hint=_(kind.hint),
                context=_line_of(text, line))


_TOKEN = re.compile(r'"(?:[^"\\\n]++|\\.)*+"|[\w?]+(?:=\w+)?|->|\S')
_SHOWN_TOKEN = 40  # characters of a previous token quoted in a message


def _previous_token_text(text: str, pos: int) -> str | None:
    """The token ending just before ``pos`` (comments aside), for "after '-'" in messages.

    Linear in the text: lines are walked back from ``pos`` by index (no copies of the
    text before it), and the one line with code is split into tokens left to right."""
    end = pos
    while end > 0:
        start = text.rfind("\n", 0, end) + 1
        code = _code_part(text[start:end])
        if code.strip():
            last = None
            for last in _TOKEN.finditer(code):
                pass
            if last is None:
                return None
            token = last.group(0)
            return token if len(token) <= _SHOWN_TOKEN else token[:_SHOWN_TOKEN - 1] + "…"
        end = start - 1
    return None


# possessive (*+, ++): no backtracking state is kept, so a 5 MB line costs no memory here
_CODE_PREFIX = re.compile(r'(?:[^"#\n]++|"(?:[^"\\\n]++|\\.)*+"?+)*+')


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
