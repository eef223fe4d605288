"""The fast path: valid DN text read line by line with regexes made of the grammar's terminals.

DN is written a line per item, so valid text is read a line at a time
(:class:`LineReader`), each kind of line by one regex built from Lark's own
terminals. Any line it does not read raises :class:`NotRead` and the parser hands
the whole text to Lark; tests/test_parser_fast_path.py holds the two equal.
"""
from __future__ import annotations

import re
from functools import cached_property

from lark import Lark

from drunter_notation.notation.model import (
    Ballot,
    Choose,
    Goals,
    Hand,
    Outcome,
    Placement,
    Record,
    Reveal,
    RevealEntry,
    Score,
    ScoreEntry,
    Tag,
    Turn,
    Vote,
)
from drunter_notation.notation.values import (
    HAND_TILES,
    KEPT_ITEMS,
    KEPT_TEXT,
    MAX_LIST_ITEMS,
    MAX_SCORE,
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


def first_chars(regexp: str, flags: int) -> tuple[frozenset[str], tuple] | None:
    r"""What a match of ``regexp`` can start with: (characters, tests of one character
    -- for classes too large to list, like [^\W\d_]), or None for "maybe any". Read
    from the parsed regex (CPython's own parser); anything but literals, character
    classes, groups, repeats and zero-width assertions gives None, so the answer may
    be too large, never too small."""
    try:
        from re import _constants as sre  # CPython's, since 3.11
        from re import _parser as sre_parse
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


def may_start_alike(a, b) -> bool:
    """Whether two :func:`first_chars` answers may share a first character (two tests
    are not compared: they may)."""
    if a is None or b is None:
        return True
    (chars_a, tests_a), (chars_b, tests_b) = a, b
    return bool(chars_a & chars_b or (tests_a and tests_b) or any(t(c) for t in tests_a for c in chars_b)
                or any(t(c) for t in tests_b for c in chars_a))


# An unnamed group, found outside escapes and character classes (a ']' first in a class is literal).
_UNNAMED_GROUP = re.compile(r"\\.|\[\^?\]?(?:\\.|[^\]\\])*\]|\((?!\?)")


def uncaptured(regexp: str) -> str:
    """``regexp`` with its unnamed groups made non-capturing: the reader reads only its own
    named groups, and each capture costs the regex engine time."""
    return _UNNAMED_GROUP.sub(lambda m: "(?:" if m[0] == "(" else m[0], regexp)


class NotRead(Exception):
    """The line reader met something it does not read: Lark parses the whole text."""


class LineReader:
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
    limit, items out of order -- raises :class:`NotRead`.
    """

    def __init__(self, lark: Lark):
        flags = lark.options.g_regex_flags
        regexp = {t.name: uncaptured(t.pattern.to_regexp()) for t in lark.terminals}
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

        first = {name: first_chars(regexp[name], flags) for name in scanned}

        def slot(name: str) -> str:  # an earlier terminal matters only if it may start with the same character
            earlier = "|".join(regexp[e] for e in scanned[:scanned.index(name)]
                               if may_start_alike(first[e], first[name]))
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
        """The record and its comments (text, line, column); :class:`NotRead` if not read."""
        tags, setup, events, comments = [], [], [], []
        reveal = score = None
        phase = 0  # the part of the record read so far: tags, setup, events, reveal, score
        turn_match, pass_word = self.turn.match, self.words["PASS"]
        for number, start, end in line_spans(text):
            m = turn_match(text, start, end)
            if m is not None:
                if phase > 2:
                    raise NotRead
                phase = 2
                if m["pass"] is None:
                    placement = self._placement(m, text, start, number)
                elif m["pass"] == pass_word:
                    placement = None
                else:
                    raise NotRead
                turn = bounded(turn_number_text(m["num"]), MAX_TURN)
                if turn is None:
                    raise NotRead
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
                        raise NotRead
            if m["comment"] is not None:
                comments.append((m["comment"], number, m.start("comment") - start + 1))
        return Record(tuple(tags), tuple(setup), tuple(events), reveal, score), comments

    def _other(self, text: str, start: int, end: int, number: int, phase: int):
        """A line other than a turn (``text[start:end]``, line ``number``): its match, its
        item and the part of the record it is in."""
        m = self.tag.match(text, start, end)
        if m is not None:
            if phase > 0 or m["key"] in self.keywords:
                raise NotRead
            return m, Tag(m["key"], unquote(m["value"]), number, m.start("lb") - start + 1), 0
        m = self.word.match(text, start, end)
        kind = m and self.line_kinds.get(m["kw"])
        if kind == "HAND" or kind == "GOALS":
            m = (self.hand if kind == "HAND" else self.goals).match(text, start, end)
            if m is None or phase > 1:
                raise NotRead
            player, column = self._name(m["player"]), m.start("kw") - start + 1
            if kind == "GOALS":
                return m, Goals(player, (read_goal(m["g1"]), read_goal(m["g2"])), number, column), 1
            texts = m["items"].split()  # TILE tokens with only spaces between them
            tiles = tuple(map(HAND_TILES.get, texts))  # None for a text not kept yet; a HandTile is true
            if not all(tiles):
                tiles = tuple(map(hand_tile, texts))
            if not all(tiles) or len(tiles) > MAX_LIST_ITEMS:
                raise NotRead
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
        raise NotRead

    def _placement(self, m: re.Match, text: str, start: int, number: int) -> Placement:
        tile = m["tile"]
        if "x" in tile:
            raise NotRead
        vote = outcome = None
        if m["vote"] is not None:
            if m["vote"] != self.words["VOTE"]:
                raise NotRead
            vote = Vote(self._list("VOTE", m, text, start, number, "ballots"), number, m.start("vote") - start + 1)
        if m["arrow"] is not None:
            yes = no = None
            if m["tally"] is not None:
                yes, no = read_tally(m["tally"])
                if yes is None or no is None:
                    raise NotRead
            outcome = Outcome(m["result"] == "accepted", yes, no, number, m.start("arrow") - start + 1)
        b, corner = m["b"], m["corner"]
        return Placement(TILES[tile], read_square(m["a"]), b and read_square(b), corner and read_square(corner), vote, outcome,
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
            raise NotRead
        return tuple(entries)

    def _entry(self, kind: str, entry: str) -> tuple[tuple, int]:
        """What the text of an entry (spaces and a comma before it allowed) reads as: its
        values but the position, and where its player starts. The same few entries recur
        in a game: each is kept (up to a bound) for the next list."""
        e = self.each[kind].match(entry)
        player = self._name(e["player"])
        if kind == "VOTE":
            values = player, tuple(map(read_card, self.cards.findall(e["cards"])))
            if len(values[1]) > MAX_LIST_ITEMS:
                raise NotRead
        elif kind == "REVEAL":
            values = player, read_goal(e["v1"]), e["v2"] and read_goal(e["v2"])
        else:
            values = player, bounded(e["v1"], MAX_SCORE)
            if values[1] is None:
                raise NotRead
        known = values, e.start("player")
        if len(entry) <= KEPT_TEXT and len(self.kept[kind]) < KEPT_ITEMS:
            self.kept[kind][entry] = known
        return known

    def _name(self, text: str) -> str:
        if text[0] == '"':
            return unquote(text)
        if text in self.keywords:  # Lark reads it as the keyword, not as a name
            raise NotRead
        return text

    @cached_property
    def move(self) -> re.Pattern:
        """The regex of a move alone, compiled when first used (3 ms: records need none)."""
        return re.compile(*self.move_pattern)

    def parse_move(self, text: str) -> Placement | Choose | None:
        """One move (comments dropped): a placement, None for ``pass``, or a Choose."""
        move = None
        for number, start, end in line_spans(text):
            if self.blank.match(text, start, end) is not None:
                continue
            m = self.move.match(text, start, end)
            if m is None or move is not None:
                raise NotRead
            word = m["pass"]
            if word is None:
                move = self._placement(m, text, start, number)
            elif word == self.words["PASS"]:
                move = _PASS
            elif word == self.words["CHOOSE"]:
                move = Choose(number, m.start("pass") - start + 1)
            else:
                raise NotRead
        if move is None:
            raise NotRead
        return None if move is _PASS else move


_PASS = object()  # a move read as 'pass', while the reader looks for more
_ENTRY_TYPES = {"VOTE": Ballot, "REVEAL": RevealEntry, "SCORE": ScoreEntry}  # the entries of each kind of list


def line_spans(text: str):
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
