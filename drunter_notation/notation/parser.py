"""DN text -> :class:`model.Record` (the notation: docs/notation.md).

The grammar is the file ``grammar/drunter.lark``; Lark's LALR parser applies
:class:`RecordBuilder` while it parses, so no parse tree is built. Every bad
input becomes a :class:`errors.DnError` with code P001 (syntax) or an input code
(I001 unreadable, I002 not UTF-8, I003 binary, I004 empty); nothing else escapes.

The grammar has two start symbols: ``start``, a whole record (:func:`parse_text`),
and ``move``, one move alone (:func:`parse_move`).

Speed (bench/validate.py, bench/README.md): a valid text is read by our own lexer
(:class:`DnLexer`, built from the grammar's terminals) and our own loop over the
LALR tables Lark built from the grammar (:class:`_Parser`), about three times as
fast as Lark's; any text that does not parse goes through Lark itself, so every
syntax error is reported by Lark's parser. The loop reads Lark internals, so it is
guarded: tests/test_parser_fast_path.py fails if an installed Lark no longer lets
it run, and compares it input by input with Lark's own lexer and parser;
pyproject.toml pins Lark to the releases those tests passed with.
"""
from __future__ import annotations

import bisect
import re
from itertools import chain
from dataclasses import replace
from functools import lru_cache, partial
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import Lexer, LexerState
from lark.parsers.lalr_analysis import Shift
from lark.visitors import Transformer_InPlace

from drunter_notation.errors import DnError, fail
from drunter_notation.files import read_record
from drunter_notation.notation.model import (BUILDING_ALIASES, CARD_NAMES, Ballot, Card, Choose, Goals, Hand, HandTile, Outcome, Placement,
                    Record, Reveal, RevealEntry, Score, ScoreEntry, Tag, Tile, Turn, Vote, parse_square)

# What each terminal is, in words, for "expected ..." messages.
EXPECTED_WORDS = {
    "SQUARE": "a square like c7",
    "SPAN": "a square like c7",  # "b1-d1", read as SQUARE "-" SQUARE (see the grammar)
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
    return resources.files("drunter_notation.notation").joinpath("drunter.lark").read_text("utf-8")


def _unquote(text: str) -> str:
    return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")


# Tiles, squares and cards repeat in every record: each text is turned into its value
# once and the (immutable) value shared, which spares a NamedTuple or tuple per token.
_TILES = {f"{kind}{length}": Tile(kind, length) for kind in "WSR" for length in (1, 2, 3)}
_CARDS = {**{name: Card(name) for name in CARD_NAMES}, "JEIN=yes": Card("JEIN", "yes"), "JEIN=no": Card("JEIN", "no")}
_SQUARES: dict[str, tuple[int, int]] = {}  # at most 26 x 99 entries: the SQUARE terminal allows no more


# The largest number each place in a record may hold: bounded where it is read, so a
# 5,000-digit number is a located P001, never a Python ValueError or a huge value.
MAX_TURN = 999_999
MAX_TILE_COUNT = 99
MAX_TALLY = 999
MAX_SCORE = 99_999
MAX_LINE_CHARS = 100_000
MAX_LIST_ITEMS = 1000  # tags, tiles in a hand line, cards in a ballot ... (_BOUNDED_LISTS)


def _number(tok: Token, text: str, limit: int, what: str) -> int:
    """``text`` (digits, read from ``tok``) as an int of at most ``limit``; else P001 there."""
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(limit)) or int(digits) > limit:
        shown = digits if len(digits) <= 12 else f"a {len(digits)}-digit number"
        raise _syntax_error(tok, f"{what} {shown} is too large (at most {limit})",
                            "see docs/notation.md for the DN syntax")
    return int(digits)


def _square(tok: Token | str):
    text = str(tok)
    sq = _SQUARES.get(text)
    if sq is None:
        sq = _SQUARES[text] = parse_square(text)
    return sq


class RecordBuilder(Transformer):
    """Turns the parser's rule matches straight into model objects."""

    def __init__(self):
        super().__init__(visit_tokens=False)

    def name(self, c):
        tok = c[0]
        if tok.type == "NAME":  # already what a name becomes: no copy needed
            return tok
        return Token.new_borrow_pos("NAME", _unquote(tok), tok)

    def tag(self, c):
        lb, key, value = c
        return Tag(str(key), _unquote(value), lb.line, lb.column)

    def hand(self, c):
        kw, player, *tiles = c
        out = []
        for tok in tiles:
            text = str(tok)
            count = _number(tok, text[text.index("x") + 1:], MAX_TILE_COUNT, "tile count") if "x" in text else 1
            out.append(HandTile(_TILES[text[:2]], count))
        return Hand(str(player), tuple(out), kw.line, kw.column)

    def goals(self, c):
        kw, player, g1, g2 = c
        return Goals(str(player), (_goal(g1), _goal(g2)), kw.line, kw.column)

    def choose(self, c):
        return Choose(c[0].line, c[0].column)

    def turn(self, c):
        num, player, action = c
        number = _number(num, str(num).rstrip(". \t\r\n"), MAX_TURN, "turn number")
        placement = None if isinstance(action, Token) else action
        return Turn(number, str(player), placement, num.line, num.column)

    def placement(self, c):
        tile_tok = c[0]
        text = str(tile_tok)
        if "x" in text:
            raise _syntax_error(tile_tok, "a tile count like x4 belongs only in hand lines",
                                "write the tile alone, e.g. W2")
        end = corner = vote = outcome = None
        if c[1].type == "SPAN":  # "b1-d1" as one token
            first, _, last = str(c[1]).partition("-")
            anchor, end = _square(first), _square(last)
        else:
            anchor = _square(c[1])
        for item in c[2:]:
            if isinstance(item, Token):  # the second square
                end = _square(item)
            elif isinstance(item, tuple):  # the track's corner
                corner = item[0]
            elif isinstance(item, Vote):
                vote = item
            else:
                outcome = item
        return Placement(_TILES[text], anchor, end, corner, vote, outcome, tile_tok.line, tile_tok.column)

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
            card = _CARDS.get(text)
            if card is not None:
                out.append(card)
            elif text.startswith("JEIN") and "=" in text:  # spaced: "JEIN = yes"
                out.append(Card("JEIN", text.split("=")[1].strip()))
            else:
                out.append(Card(text))
        return Ballot(str(player), tuple(out), player.line, player.column)

    def outcome(self, c):
        arrow, result = c[0], c[1]
        yes = no = None
        if len(c) == 3:
            yes, no = (_number(c[2], x.strip(), MAX_TALLY, "tally") for x in str(c[2]).split(":"))
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
        return ScoreEntry(str(player), _number(points, str(points), MAX_SCORE, "score"), player.line,
                          player.column)

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


_new_str = str.__new__
_NEVER = re.compile("(?!)")  # a regex that matches nothing: no terminal starts with this character
_NON_ASCII = "non-ASCII"  # in a _first_chars set: some character beyond ASCII


def _first_chars(regexp: str, flags: int) -> set[str] | None:
    """The ASCII characters a match of ``regexp`` can start with, plus ``_NON_ASCII``
    if it may start with any other, or None for "any, as far as we can tell". Read
    from the parsed regex (the ``re`` module's own parser); anything unusual gives
    None, so the answer may be too large, never too small."""
    try:
        from re import _constants as sre, _parser as sre_parse  # CPython's, since 3.11
        tree = sre_parse.parse(regexp, flags)
    except Exception:  # pragma: no cover - another Python, or a regex only Lark accepts
        return None
    if flags & (re.IGNORECASE | re.VERBOSE):
        return None
    categories = {sre.CATEGORY_DIGIT: r"\d", sre.CATEGORY_NOT_DIGIT: r"\D", sre.CATEGORY_SPACE: r"\s",
                  sre.CATEGORY_NOT_SPACE: r"\S", sre.CATEGORY_WORD: r"\w", sre.CATEGORY_NOT_WORD: r"\W"}
    ascii_chars = [chr(i) for i in range(128)]

    def beyond_ascii(items) -> bool:  # can a character class match a non-ASCII character?
        return any(op is sre.NEGATE or op is sre.CATEGORY or (op is sre.LITERAL and av > 127)
                   or (op is sre.RANGE and av[1] > 127) or op not in (sre.LITERAL, sre.RANGE)
                   for op, av in items)

    def in_class(items, c: str) -> bool:
        negate = hit = False
        for op, av in items:
            if op is sre.NEGATE:
                negate = True
            elif op is sre.LITERAL:
                hit = hit or c == chr(av)
            elif op is sre.RANGE:
                hit = hit or av[0] <= ord(c) <= av[1]
            elif op is sre.CATEGORY and av in categories:
                hit = hit or re.match(categories[av], c, flags) is not None
            else:
                return True
        return hit != negate

    def sequence(items):  # -> (first chars or None, whether the sequence can match empty)
        out = set()
        for op, av in items:
            if op is sre.LITERAL:
                first, empty = {chr(av) if av < 128 else _NON_ASCII}, False
            elif op is sre.IN:
                first, empty = {c for c in ascii_chars if in_class(av, c)}, False
                if beyond_ascii(av):
                    first.add(_NON_ASCII)
            elif op is sre.BRANCH:
                first, empty = set(), False
                for alternative in av[1]:
                    f, e = sequence(alternative)
                    if f is None:
                        return None, False
                    first, empty = first | f, empty or e
            elif op is sre.SUBPATTERN:
                if av[1] & (re.IGNORECASE | re.VERBOSE):
                    return None, False
                first, empty = sequence(av[3])
            elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", None)):
                first, empty = sequence(av[2])
                empty = empty or av[0] == 0
            elif op is getattr(sre, "ATOMIC_GROUP", None):
                first, empty = sequence(av)
            elif op in (sre.ASSERT, sre.ASSERT_NOT, sre.AT):  # zero width: what follows decides
                first, empty = set(), True
            else:  # ANY, NOT_LITERAL, group references, ...: could be anything
                return None, False
            if first is None:
                return None, False
            out |= first
            if not empty:
                return out, False
        return out, True

    first, empty = sequence(tree)
    return None if empty else first


class DnLexer(Lexer):
    """Lark's basic lexer, rebuilt for speed: the same tokens, about three times faster.

    Lark's own lexer costs about 3 µs per token (a regex call per token through two
    method layers, a ``LineCounter`` object, ``Token(...)`` through a deprecation
    check); that was most of the time of a parse (bench/README.md).
    This one makes the same tokens from the same terminal definitions -- everything
    comes from ``conf.terminals``, i.e. from grammar/drunter.lark, which stays the
    only definition of DN's tokens -- and keeps Lark's matching rules exactly:

    * terminals are tried in Lark's order (priority, then longest possible match,
      then longest pattern text, then name) as named alternatives of one master
      regex: the first alternative that matches wins and ``lastgroup`` names it, just
      as in Lark's scanner;
    * a string terminal that a regex terminal of the same priority matches whole
      (``"hand"`` and NAME) is not an alternative of its own: a NAME token whose
      text is exactly ``hand`` becomes HAND afterwards (Lark's "unless" rule);
    * ``%ignore``d terminals make no token, but their lexer callbacks still run
      (COMMENT collects the comments);
    * text that no terminal matches raises ``UnexpectedCharacters`` at the same
      position, line and column as Lark's lexer does; tokens carry the same
      ``line``/``column``/``end_line``/``end_column``/``start_pos``/``end_pos``.

    Two shortcuts, each kept only where it cannot change a token:

    * trying 20-odd alternatives one after the other is most of a regex call's
      cost, so each ASCII character has a master regex of its own holding, in the
      same order, only the terminals that can start with that character
      (:func:`_first_chars`; after a space only WS). A terminal left out cannot
      match there, so the first match is the full master regex's, which is still
      used for any other character;
    * whitespace after a token (WS, ignored) is swallowed by the same regex call.
    """

    __future_interface__ = 2  # lex(lexer_state, parser_state), like Lark's own lexers

    def __init__(self, conf):
        order = lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name)  # noqa: E731
        terminals = sorted(conf.terminals, key=order)
        flags = conf.g_regex_flags
        regex_terminals = [t for t in terminals if t.pattern.type == "re"]
        # Lark's "unless" rule, as a dict per regex terminal: exact text -> keyword type.
        self.keywords: dict[str, dict[str, str]] = {}
        embedded = set()
        for word in (t for t in terminals if t.pattern.type == "str"):
            text = word.pattern.value
            for rt in regex_terminals:
                if rt.priority != word.priority:
                    continue
                m = re.match(rt.pattern.to_regexp(), text, flags)
                if m and m.group(0) == text:
                    if word.pattern.flags:  # a case-insensitive keyword would need more than a dict
                        raise NotImplementedError(f"DnLexer: keyword {word.name} has regex flags")
                    self.keywords.setdefault(rt.name, {})[text] = word.name
                    if word.pattern.flags <= rt.pattern.flags:
                        embedded.add(word.name)
        kept = [t for t in terminals if t.name not in embedded]
        # for UnexpectedCharacters, as Lark's (SPAN left out: Lark's parses never see one)
        self.allowed = {t.name for t in kept} - set(conf.ignore) - set(_SPLIT)
        self.ignore = frozenset(conf.ignore)
        self.callbacks = dict(conf.callbacks)
        # ignored terminals nobody listens to (WS): matched and passed over, no Token made
        self.skip = frozenset(name for name in self.ignore if name not in self.callbacks)

        # (a terminal's own flags, like /.../i, are inline in its regexp: "(?i:...)")
        firsts = {t.name: _first_chars(t.pattern.to_regexp(), flags) for t in kept}

        def candidates(c: str) -> list:  # the terminals that may match at character c, in order
            return [t for t in kept if firsts[t.name] is None or c in firsts[t.name]]

        # Where whitespace follows a token, Lark's next match is a WS token: when the
        # one skipped terminal is the first that can match at each character it can
        # start with, every regex ends by swallowing it -- the same characters, as
        # ``(?>...)`` matches exactly what the terminal would match there -- and half
        # the matches (one between every two tokens) are saved.
        suffix = ""
        skipped = [t for t in kept if t.name in self.skip]
        if len(skipped) == 1:
            ws, chars = skipped[0], firsts[skipped[0].name]
            if chars and _NON_ASCII not in chars and all(candidates(c)[0] is ws for c in chars):
                suffix = f"(?>{ws.pattern.to_regexp()})?"

        def master(ts):
            if not ts:
                return _NEVER
            return re.compile("(?:" + "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in ts) + ")"
                              + suffix, flags)

        self.master = master(kept)
        compiled: dict[tuple[str, ...], re.Pattern] = {}
        self.by_char: dict[str, re.Pattern] = {}  # ASCII character -> the master regex for it
        for c in map(chr, range(128)):
            ts = candidates(c)
            key = tuple(t.name for t in ts)
            if key not in compiled:
                compiled[key] = master(ts)
            self.by_char[c] = compiled[key]
        # types that need a second look: keyword candidates (NAME) and those with a callback
        self.special = frozenset(self.keywords) | frozenset(self.callbacks)
        self.terminals_by_name = conf.terminals_by_name

    def scan(self, text: str, pos: int = 0, end: int | None = None, line: int = 1, line_start: int = 0,
             where: list | None = None):
        """The tokens of ``text[pos:end]``, one at a time (a token no longer needed is
        freed: a 5 MB line never holds millions of tokens at once). When the scan ends,
        ``where`` (if given) holds ``[stop, line, line_start]``: ``stop`` is where the
        scan ended -- ``end``, or the first character no terminal matches -- and
        ``line``/``line_start`` the line there and the position that line starts at.
        ``line``/``line_start`` given are those of ``pos``."""
        if end is None:
            end = len(text)
        special, callbacks, skip, ignore = self.special, self.callbacks, self.skip, self.ignore
        regex_for, master = self.by_char.get, self.master
        find = text.find
        # Lines are counted by walking from line break to line break (``nl`` is the next
        # one not yet counted) rather than by counting the breaks in every token: the
        # tokens that hold them (WS) make no Token at all, and the test is one compare.
        nl = find("\n", line_start, end)
        if nl < 0:
            nl = end
        while pos < end:
            m = regex_for(text[pos], master).match(text, pos, end)
            if m is None:
                break
            type_ = m.lastgroup
            start, stop, pos = pos, m.end(type_), m.end()  # pos: past the whitespace swallowed
            if type_ in skip:
                continue
            while nl < start:  # line breaks before the token
                line, line_start = line + 1, nl + 1
                nl = find("\n", line_start, end)
                if nl < 0:
                    nl = end
            start_line, start_col = line, start - line_start + 1
            while nl < stop:  # line breaks inside it (a TURNNO like "12\n.")
                line, line_start = line + 1, nl + 1
                nl = find("\n", line_start, end)
                if nl < 0:
                    nl = end
            value = m.group(type_)
            # Token(...) goes through a deprecation check and a classmethod; filling
            # the slots directly makes the same token in a third of the time.
            tok = _new_str(Token, value)
            tok.type, tok.value, tok.start_pos, tok.line, tok.column = type_, value, start, start_line, start_col
            tok.end_line, tok.end_column, tok.end_pos = line, stop - line_start + 1, stop
            if type_ in special:
                keyword = self.keywords.get(type_, {}).get(value)
                if keyword is not None:
                    tok.type = keyword
                elif type_ in callbacks:
                    if type_ in ignore:  # COMMENT: the callback sees it, the parser does not
                        callbacks[type_](tok)
                        continue
                    tok = callbacks[type_](tok)
            yield tok
        if where is not None:
            # the line breaks passed since the last token (in WS, or up to the error)
            newlines = text.count("\n", line_start, pos)
            if newlines:
                line += newlines
                line_start = text.rindex("\n", line_start, pos) + 1
            where[:] = [pos, line, line_start]

    def lex(self, lexer_state: LexerState, parser_state):
        """Lark's lexer interface, used when Lark itself parses (records with errors,
        ``parse_interactive``). Lazy like Lark's own: the tokens come in the same order,
        and an error in the text is raised only after every token before it was taken."""
        text = lexer_state.text
        if isinstance(text, str):  # Lark before 1.2 hands over the text itself
            end = len(text)
        else:  # a lark.utils.TextSlice
            text, end = text.text, text.end
        ctr = lexer_state.line_ctr
        where: list = []
        for tok in self.scan(text, ctr.char_pos, end, ctr.line, ctr.line_start_pos, where):
            if tok.type in _SPLIT:  # Lark parses as if SPAN did not exist: see the grammar
                parts = _SPLIT[tok.type](tok)
                lexer_state.last_token = parts[-1]
                yield from parts
            else:
                lexer_state.last_token = tok
                yield tok
        pos, line, line_start = where
        # leave the lexer state where the scan stopped, as Lark's lexer does
        ctr.char_pos, ctr.line, ctr.line_start_pos, ctr.column = pos, line, line_start, pos - line_start + 1
        if pos < end:
            last = lexer_state.last_token
            raise UnexpectedCharacters(text, pos, line, pos - line_start + 1, allowed=self.allowed,
                                       token_history=last and [last], state=parser_state,
                                       terminals_by_name=self.terminals_by_name)


def _rule_callbacks(lark: Lark, transformer: Transformer) -> dict | None:
    """Rule -> the function a reduction calls, doing what Lark's ParseTreeBuilder does
    for an LALR parser with a transformer (lark/parse_tree_builder.py), only cheaper:
    children that are anonymous tokens (``":"``, ``"{"`` ...) are dropped, the children
    of inlined rules (names starting with ``_``: the ``__start_star_2`` Lark makes of
    ``event*``, ...) are spliced into their parent's, a ``?rule`` with one child is that
    child, and the transformer method named after the rule gets the rest. The one
    difference is invisible to the transformer: an inlined rule's children travel as a
    plain list, where Lark builds a ``Tree`` (four Python calls) only to splice it.

    None when the grammar or the options use something this does not copy
    (placeholders, positions, ``?_rule``, ``v_args``...): then Lark's own callbacks serve.
    """
    options = lark.options
    if options.maybe_placeholders or options.propagate_positions or isinstance(transformer, Transformer_InPlace):
        return None
    callbacks = {}
    for rule in lark.rules:
        origin = str(rule.origin.name)
        inlined = origin.startswith("_")
        if inlined and (rule.options.expand1 or rule.alias):
            return None
        keep_all = rule.options.keep_all_tokens
        include = [(i, not sym.is_term and sym.name.startswith("_")) for i, sym in enumerate(rule.expansion)
                   if keep_all or not (sym.is_term and sym.filter_out)]
        if inlined:
            build = None
        else:
            name = rule.alias or rule.options.template_source or origin
            build = getattr(transformer, name, None)
            if build is None:  # no method: Transformer.__default__ makes a Tree
                build = partial(_default_node, transformer.__default__, name)
            elif getattr(build, "visit_wrapper", None) is not None:
                return None
            if rule.options.expand1 and not rule.alias:
                build = partial(_expand_single, build)
        # every list but the record's turns is bounded (see _BOUNDED_LISTS)
        within = None
        if inlined and rule.expansion:
            item = str(rule.expansion[-1].name)
            within = _BOUNDED_LISTS.get(item if origin.startswith("__start_") else origin.split("_")[2])
        callbacks[rule] = _filtered(include, len(rule.expansion), build, within)
    return callbacks


def _default_node(default, name, children):
    return default(name, children, None)


def _expand_single(build, children):
    return children[0] if len(children) == 1 else build(children)


# A list's item (for the record's own lists) or its rule -> its words in the P001 for
# more than MAX_LIST_ITEMS: the parser holds a list's tokens until its item is built,
# and the header is checked tag by tag. The record's turns are not bounded.
_BOUNDED_LISTS = {"tag": "tags", "setup": "hand and goals lines", "hand": "tiles in one hand line",
                  "ballot": "cards in one ballot", "vote": "ballots in one vote", "reveal": "entries in one reveal",
                  "score": "entries in one score line"}


def _filtered(include, size, build, within: str | None = None):
    """The callback for one rule: keep the children at ``include``'s positions, splice
    those marked, hand the list to ``build`` (None: the list is the result). A list
    named by ``within`` ("tiles in one hand line" ...) ends with a P001 at its
    :data:`MAX_LIST_ITEMS` + 1st item: the parser holds its tokens until the item is built."""
    if len(include) == size and not any(splice for _, splice in include):
        return build if build is not None else _same_list
    if not any(splice for _, splice in include):
        keep = [i for i, _ in include]

        def pick(children):
            out = [children[i] for i in keep]
            return out if build is None else build(out)
        return pick
    if build is None and len(include) == 2 and include[0] == (0, True) and not include[1][1]:
        k = include[1][0]

        def grow(children):  # one more item of a list (tag*, event*, ...): the commonest reduction
            out = children[0]
            out.append(children[k])
            return out

        def grow_bounded(children):
            if len(children[0]) >= MAX_LIST_ITEMS:
                item = children[k]
                raise _Syntax(item.line, item.column, f"more than {MAX_LIST_ITEMS:,} {within}",
                              "see docs/notation.md for the DN syntax")
            return grow(children)
        return grow if within is None else grow_bounded

    def splice(children):
        out = []
        for i, inlined in include:
            if not inlined:
                out.append(children[i])
            elif out:
                out += children[i]
            else:  # a left-recursive list (tag*, event* ...): grow the child's list in place
                out = children[i]
        return out if build is None else build(out)
    return splice


def _same_list(children):
    return children


def _split_span(tok: Token) -> tuple[Token, Token, Token]:
    """A SPAN token ``b1-d1`` as the SQUARE, MINUS and SQUARE tokens Lark's lexer would
    have made of it (a SPAN never holds spaces or line breaks)."""
    first, _, last = tok.value.partition("-")
    i = len(first)

    def part(type_: str, value: str, offset: int) -> Token:
        return Token(type_, value, tok.start_pos + offset, tok.line, tok.column + offset,
                     tok.line, tok.column + offset + len(value), tok.start_pos + offset + len(value))
    return part("SQUARE", first, 0), part("MINUS", "-", i), part("SQUARE", last, i + 1)


# Speed-only terminals (see the grammar) -> how to split one back for Lark's own parse.
_SPLIT = {"SPAN": _split_span}


class _Parser:
    """One Lark instance; comments are collected through a lexer callback.

    A record that parses takes a fast path: :meth:`_drive` runs the LALR tables Lark
    built from the grammar, with the callbacks of :func:`_rule_callbacks`, in a loop
    of its own over the tokens of :meth:`DnLexer.scan`. Lark's loop pays per token
    for a method call and for hashing its ``Rule`` objects (a Python
    ``__hash__``/``__eq__``); here every table entry is resolved once, when the parser
    is built. A record that does not parse is parsed again by Lark itself, so every
    syntax error is raised -- with its message, position and expected set -- by
    exactly the code that raised it before the fast path existed.
    """

    def __init__(self):
        self.comments: list[Token] = []
        self.lark = Lark(grammar_text(), parser="lalr", start=list(START_SYMBOLS), lexer=DnLexer,
                         transformer=RecordBuilder(), maybe_placeholders=False,
                         lexer_callbacks={"COMMENT": self.comments.append})
        self.lexer: DnLexer = self.lark.parser.lexer  # the instance Lark made
        # start symbol -> the rows the fast path starts and ends in; empty: Lark parses everything
        self.rows: dict[str, tuple[dict, dict]] = {}
        try:  # Lark's parse table and callbacks are internals: without them, no fast path
            lalr = self.lark.parser.parser.parser
            table, callbacks = lalr.parse_table, lalr.callbacks
            ends = {s: (table.start_states[s], table.end_states[s]) for s in START_SYMBOLS}
        except (AttributeError, KeyError):  # pragma: no cover - a Lark release laid out differently
            return
        if any(isinstance(key, str) for key in callbacks):  # pragma: no cover - token callbacks: not copied
            return
        callbacks = _rule_callbacks(self.lark, self.lark.options.transformer) or callbacks
        # One dict per parser state: symbol -> the next state's dict (shift) or
        # (size, callback, symbol) (reduce). The state stack holds these dicts, so a
        # shift or a goto is one lookup. Keys are plain str: Lark's rule names are
        # Token objects, whose __eq__ is Python code.
        rows = {state: {} for state in table.states}
        for state, row in table.states.items():
            for sym, (action, arg) in row.items():
                rows[state][str(sym)] = rows[arg] if action is Shift else \
                    (len(arg.expansion), callbacks[arg], str(arg.origin.name))
        self.rows = {s: (rows[first], rows[last]) for s, (first, last) in ends.items()}

    def parse(self, text: str) -> tuple[Record, list[Token]]:
        self.comments.clear()
        record = self._drive(text, "start")
        if record is None:  # not a valid record (or no fast path): Lark parses it and says why
            self.comments.clear()
            record = self.lark.parse(text, start="start")
        return record, list(self.comments)

    def parse_move(self, text: str) -> Placement | Choose | Token:
        """``text`` from the start symbol ``move`` (a PASS token for ``pass``); comments are dropped."""
        self.comments.clear()
        move = self._drive(text, "move")
        return move if move is not None else self.lark.parse(text, start="move")

    def _drive(self, text: str, start: str):
        """Lark's LALR loop (lark.parsers.lalr_parser_state.ParserState.feed_token) over
        our tables and the tokens as they are scanned, from the start symbol ``start``.
        None at the first character no terminal matches or the first token the grammar
        does not allow there (or with no fast path); a callback's _Syntax passes
        through, raised at the same token as under Lark."""
        if start not in self.rows:
            return None
        where: list = []
        row, end_row = self.rows[start]
        state_stack = [row]
        value_stack: list = []
        for tok in chain(self.lexer.scan(text, where=where), _end_of_text(text, where)):
            kind = tok.type
            while True:
                act = row.get(kind)
                if act.__class__ is dict:  # shift
                    state_stack.append(act)
                    value_stack.append(tok)
                    row = act
                    break
                if act is None:
                    return None
                size, callback, origin = act  # reduce, then shift the rule's result
                if size:
                    children = value_stack[-size:]
                    del state_stack[-size:]
                    del value_stack[-size:]
                else:
                    children = []
                value = callback(children)
                row = state_stack[-1][origin]
                if row is end_row:  # only the start rule, reduced at the end of the text, gets here
                    return value
                state_stack.append(row)
                value_stack.append(value)
        return None


# The grammar's start symbols: a whole record, and one move alone (parse_move).
START_SYMBOLS = ("start", "move")


def _end_of_text(text: str, where: list):
    """After the last token: the end-of-text marker when the scan reached the end, else
    a token no parser state accepts (the text holds a character no terminal matches)."""
    yield _END_OF_TEXT if where[0] == len(text) else _UNLEXABLE


_END_OF_TEXT = Token("$END", "")
_UNLEXABLE = Token("$UNLEXABLE", "")


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
                   hint="give a DN text file")
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
            raise fail("I004", "the record is empty", path=path, line=1, column=1,
                       hint="a DN record needs at least a [Players \"...\"] tag")
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
    It runs on the same lexer and LALR tables as :func:`parse_text` (the fast path:
    a few µs for a plain placement), so it may be called for every move of a game.
    """
    try:
        move = _parser().parse_move(text)
    except UnexpectedInput as e:
        raise _explain_move(e, text, source) from None
    except _Syntax as e:
        raise fail("P001", e.message, path=source, line=e.line, column=e.column,
                   hint=e.hint, context=_line_of(text, e.line)) from None
    return None if move.__class__ is Token else move  # a PASS token


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
        message, line, column = "the move is empty", 1, 1
    elif tok.type == "TURNNO" and _previous_token_text(text, tok.start_pos) is None:
        message, line, column = "write the move without turn number and player", tok.line, tok.column
    elif tok.type in _ANOTHER_MOVE and "$END" in e.expected:
        message = f"a move is a single placement, 'pass' or 'choose', not more: found '{tok}' after its end"
        line, column = tok.line, tok.column
    else:
        return _explain(e, text, source, "move")
    return fail("P001", message, path=source, line=line, column=column, hint=_TEXT_KINDS["move"][1],
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
            raise fail("P001", f"line {number} is {stop - start:,} characters long; a DN line may have at most"
                       f" {MAX_LINE_CHARS:,}", path=path, line=number, column=MAX_LINE_CHARS + 1,
                       hint="break the line: each tag, hand, turn, reveal and score goes on a line of its own")
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
        raise fail("I002", f"this is {encoding} text, not UTF-8", path=path, line=1, column=1,
                   hint=f"convert it, e.g. iconv -f {encoding.split()[0]} -t UTF-8 FILE > NEW.dn")
    if b"\x00" in data:
        raise fail("I003", "this looks like a binary file, not a DN record", path=path,
                   hint="give a DN text file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise fail("I002", f"not valid UTF-8 (byte 0x{data[e.start]:02x})", path=path, line=line,
                   column=column, hint="save the record as UTF-8") from None
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


def _describe(expected, whole: str = "record") -> str:
    names = sorted(set(expected), key=lambda n: _EXPECTED_ORDER.index(n) if n in _EXPECTED_ORDER else 99)
    words = list(dict.fromkeys(f"the end of the {whole}" if n == "$END" else EXPECTED_WORDS.get(n, n.lower())
                               for n in names))  # SQUARE, SPAN: once
    if len(words) > 4:
        words = words[:4] + ["..."]
    return " or ".join(words)


def _expected_at(text: str, pos: int, start: str = "start") -> set[str]:
    """The terminals the parser would accept after ``text[:pos]`` (only used on errors)."""
    try:
        ip = _parser().lark.parse_interactive(text[:pos], start=start)
        ip.exhaust_lexer()
        return set(ip.accepts())
    except (UnexpectedInput, _Syntax):
        return set()


def _token_words(tok: Token, whole: str = "record") -> str:
    if tok.type == "$END":
        return f"the end of the {whole}"
    return f"'{tok}'"


# Word processors and phones turn "b1-d1" into these; DN spans take the ASCII hyphen-minus only.
_LOOKALIKE_DASHES = {"\u2010": "a hyphen", "\u2011": "a non-breaking hyphen", "\u2012": "a figure dash",
                     "\u2013": "an en dash", "\u2014": "an em dash", "\u2015": "a horizontal bar",
                     "\u2212": "a minus sign", "\ufe63": "a small hyphen-minus", "\uff0d": "a full-width hyphen-minus"}


# Per start symbol: what its text is called in messages, and the hint of its P001 errors.
_TEXT_KINDS = {
    "start": ("record", "see docs/notation.md for the DN syntax"),
    "move": ("move", "write a placement like W3 b1-d1 (with @corner, vote { ... } and -> accepted "
                     "as needed), or 'pass', or 'choose'"),
}


def _explain(e: UnexpectedInput, text: str, path: str, start: str = "start") -> DnError:
    """A P001 error in words: what was found, what was expected, after what."""
    whole, hint = _TEXT_KINDS[start]
    if isinstance(e, UnexpectedCharacters):
        ch = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
        if ch == '"':
            message = "unterminated quoted string: the closing '\"' is missing on this line"
        elif ch in _LOOKALIKE_DASHES:
            message = (f"{_LOOKALIKE_DASHES[ch]} {ch!r} (U+{ord(ch):04X}) where DN has a plain hyphen;"
                       " use - (as in b1-d1 and ->)")
        else:
            message = f"unexpected character {ch!r}"
            prev = _previous_token_text(text, e.pos_in_stream)
            if prev:
                message += f" after '{prev}'"
            expected = _expected_at(text, e.pos_in_stream, start)
            if expected:
                message += f"; expected {_describe(expected, whole)}"
        line, column = e.line, e.column
    elif isinstance(e, UnexpectedToken):
        tok = e.token
        prev = _previous_token_text(text, len(text) if tok.type == "$END" else tok.start_pos)
        message = f"expected {_describe(e.expected, whole)}"
        if prev:
            message += f" after '{prev}'"
        message += f", found {_token_words(tok, whole)}"
        if tok.type == "$END":
            line, column = _end_position(text)
        else:
            line, column = tok.line, tok.column
    else:  # UnexpectedEOF
        line, column = _end_position(text)
        message = f"the {whole} ends too early; expected {_describe(e.expected, whole)}"
    return fail("P001", message, path=path, line=line, column=column, hint=hint, context=_line_of(text, line))


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
        body = str(c)[1:].rstrip()  # leading spaces kept: comments may draw positions
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
