"""The fast path: valid DN text read line by line with regexes made of the grammar's terminals.

DN is written a line per item, so valid text is read a line at a time
(:class:`LineReader`), each kind of line by one regex built from Lark's own
terminals; a list (a vote's ballots, a reveal's or a score's entries) is taken whole
by its line's regex and then read entry by entry. Any line it does not read raises
:class:`NotRead` and the parser hands the whole text to Lark;
tests/test_parser_fast_path.py holds the two equal.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from functools import cached_property
from typing import Any, NamedTuple, TypeGuard, cast

from drunter_notation.notation.model import (
    Ballot,
    Card,
    Choose,
    Event,
    Goals,
    Hand,
    HandTile,
    Outcome,
    Placement,
    Record,
    Reveal,
    RevealEntry,
    Score,
    ScoreEntry,
    Setup,
    Tag,
    Turn,
    Vote,
    quick,
)
from drunter_notation.notation.slots import Slots
from drunter_notation.notation.terminals import REGEX_FLAGS, TERMINALS, Terminal
from drunter_notation.notation.values import (
    HAND_TILES,
    KEPT_ITEMS,
    KEPT_TEXT,
    MAX_LIST_ITEMS,
    MAX_SCORE,
    MAX_TURN,
    SQUARES,
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


class NotRead(Exception):
    """The line reader met something it does not read: Lark parses the whole text.
    :meth:`LineReader.record` says where it stopped (:attr:`stopped`)."""

    stopped: Stopped | None = None


class Stopped(NamedTuple):
    """Where the line reader stopped: the line, and the events read before it with the
    lines of the first and the last (0 when none)."""

    line: int
    events: int
    first: int
    last: int


# The values are made with positional arguments here: keywords cost 0.3 µs more a Placement (4 % of a parse).
class LineReader:
    """Valid DN text, read line by line with regexes made of the grammar's terminals
    (each token a slot of :class:`slots.Slots`: the token Lark's lexer makes there).

    A line regex holds the tokens of one item (a tag, a hand or goals line, a turn,
    ``choose``, a reveal, a score) and may end in a comment; lines hold only spaces
    and comments otherwise. The items must come in the grammar's order. No token
    crosses a line break except in text no line regex reads (a TURNNO or TALLY split
    over lines puts a line starting with '.' or ':'), so tokens and positions are
    Lark's. Anything else -- a line no regex reads, a number or a list over its
    limit, items out of order -- raises :class:`NotRead`.
    """

    def __init__(self, terminals: tuple[Terminal, ...] = TERMINALS, flags: int = REGEX_FLAGS) -> None:
        s = Slots(terminals, flags)
        g, end, word, name, slot, lit, compiled = s.gap, s.end, s.word, s.name, s.slot, s.lit, s.compiled
        self.words, self.keywords = s.words, s.keywords
        # A list's line takes it whole (Slots.span); it is then read entry by entry, each entry with the
        # spaces after it: no token of an entry looks past them ('}', ',' or the line's end stands there).
        self.each = {kind: compiled(f"(?:{g}(?P<comma>{lit(',')}))?{e}{g}")
                     for kind, e in s.entries(named=True).items()}
        self.kept: dict[str, dict[str, tuple[EntryValues, int]]] = {kind: {} for kind in self.each}  # see _entry
        self.numbers: dict[str, int] = {}  # a turn number's text ("12.") -> its number, kept as entries are
        self.tallies: dict[str, tuple[int, int]] = {}  # a tally's text ("3:8") -> (yes, no), kept so too
        self.cards = compiled(f"{g}({slot('CARD')})")
        placement = s.placement()
        # a placement tried first: most turns are one, and 'pass' (a NAME) never starts as a TILE does
        self.turn = compiled(f"{g}(?P<num>{slot('TURNNO')}){g}(?P<player>{name}){g}"
                             f"(?:{placement}|(?P<pass>{slot('NAME')})){end}")
        self.turn_groups = _numbers(self.turn, ("num", "player", "pass", "comment"))
        self.turn_places = _numbers(self.turn, _PLACES)
        self.move_pattern = (f"{g}(?:{placement}|(?P<pass>{slot('NAME')})){end}", s.flags)
        self.blank = compiled(end)
        self.tag = compiled(f"{g}(?P<lb>{lit('[')}){g}(?P<key>{slot('NAME')}){g}(?P<value>{slot('STRING')})"
                            f"{g}{lit(']')}{end}")
        self.word = compiled(f"{g}{word}")
        self.hand = compiled(f"{g}{word}{g}(?P<player>{name}){g}{lit(':')}(?P<items>(?:{g}{slot('TILE')})+){end}")
        # the lines only an expert game has: compiled when first met (2 ms of every command's start-up otherwise)
        self.goals_pattern = (f"{g}{word}{g}(?P<player>{name}){g}{lit(':')}{g}(?P<g1>{slot('GOAL')}){g}{lit(',')}"
                              f"{g}(?P<g2>{slot('GOAL')}){end}", s.flags)
        self.entries = {kind: compiled(f"{g}{word}(?P<items>{s.span()}){end}") for kind in ("REVEAL", "SCORE")}
        self.choose_pattern = (f"{g}{word}{end}", s.flags)
        self.line_kinds = {self.words[k]: k for k in ("HAND", "GOALS", "CHOOSE", "REVEAL", "SCORE")}

    def record(self, text: str, end: tuple[int, int]) -> tuple[Record, list[tuple[str, int, int]]]:
        """The record, ending at ``end`` (line, column), and its comments (text, line, column);
        :class:`NotRead` if not read."""
        tags: list[Tag] = []
        setup: list[Setup] = []
        events: list[Event] = []
        comments: list[tuple[str, int, int]] = []
        reveal: Reveal | None = None
        score: Score | None = None
        phase = 0  # the part of the record read so far: tags, setup, events, reveal, score
        turn_match, pass_word, numbers, keywords = self.turn.match, self.words["PASS"], self.numbers, self.keywords
        g_num, g_player, g_pass, g_comment = self.turn_groups
        number = 0
        try:
            for number, line in enumerate(text.split("\n"), 1):  # split at line feeds only, as the lexer counts lines
                m = turn_match(line)
                if m is not None:
                    if phase > 2:
                        raise NotRead
                    phase = 2
                    num, player, word, comment = m.group(g_num, g_player, g_pass, g_comment)  # one call, by number
                    if word is None:
                        placement = self._placement(m, number, self.turn_places)
                    elif word == pass_word:
                        placement = None
                    else:
                        raise NotRead
                    turn = numbers.get(num) or self._number(num)
                    if player[0] == '"' or player in keywords:  # else the name is its text: no call
                        player = self._name(player)
                    events.append(_TURN(turn, player, placement, number, m.start(g_num) + 1))
                    if comment is not None:
                        comments.append((comment, number, m.start(g_comment) + 1))
                    continue
                m = self.blank.match(line)
                if m is None:
                    m, item, phase = self._other(line, number, phase)
                    if isinstance(item, Tag):
                        tags.append(item)
                    elif isinstance(item, (Hand, Goals)):
                        setup.append(item)
                    elif isinstance(item, Choose):
                        events.append(item)
                    elif isinstance(item, Reveal):
                        reveal = item
                    else:
                        score = item
                    if len(tags) > MAX_LIST_ITEMS or len(setup) > MAX_LIST_ITEMS:
                        raise NotRead
                if m["comment"] is not None:
                    comments.append((m["comment"], number, m.start("comment") + 1))
        except NotRead as e:  # where, for a parse of the rest alone (parser._Parser.parse)
            e.stopped = Stopped(number, len(events), events[0].line if events else 0,
                                events[-1].line if events else 0)
            raise
        return _RECORD(tuple(tags), tuple(setup), tuple(events), reveal, score, (), *end), comments

    def _other(self, line: str, number: int,
               phase: int) -> tuple[re.Match[str], Tag | Setup | Choose | Reveal | Score, int]:
        """A line other than a turn (line ``number``): its match, its item and the part of
        the record it is in."""
        m = self.tag.match(line)
        if m is not None:
            if phase > 0 or m["key"] in self.keywords:
                raise NotRead
            return m, _TAG(m["key"], unquote(m["value"]), number, m.start("lb") + 1), 0
        word = self.word.match(line)
        kind = word and self.line_kinds.get(word["kw"])
        if kind == "HAND" or kind == "GOALS":
            m = (self.hand if kind == "HAND" else self.goals).match(line)
            if m is None or phase > 1:
                raise NotRead
            player, column = self._name(m["player"]), m.start("kw") + 1
            if kind == "GOALS":
                return m, _GOALS(player, (read_goal(m["g1"]), read_goal(m["g2"])), number, column), 1
            texts = m["items"].split()  # TILE tokens with only spaces between them
            tiles = tuple(map(HAND_TILES.get, texts))  # None for a text not kept yet; a HandTile is true
            if not all(tiles):
                tiles = tuple(map(hand_tile, texts))
            if not _all_read(tiles) or len(tiles) > MAX_LIST_ITEMS:
                raise NotRead
            return m, _HAND(player, tiles, number, column), 1
        if kind == "CHOOSE" and phase <= 2:
            m = self.choose.match(line)
            if m is not None:
                return m, _CHOOSE(number, m.start("kw") + 1), 2
        if (kind == "REVEAL" and phase <= 2) or (kind == "SCORE" and phase <= 3):
            m = self.entries[kind].match(line)
            if m is not None:
                entries, column = self._list(kind, m, line, number), m.start("kw") + 1
                if kind == "REVEAL":
                    return m, _REVEAL(entries, number, column), 3
                return m, _SCORE(entries, number, column), 4
        raise NotRead

    def _number(self, text: str) -> int:
        """A turn number's value (0 is not kept: the caller's ``or`` asks again)."""
        turn = bounded(turn_number_text(text), MAX_TURN)
        if turn is None:
            raise NotRead
        if len(text) <= KEPT_TEXT and len(self.numbers) < KEPT_ITEMS:
            self.numbers[text] = turn
        return turn

    def _tally(self, text: str) -> tuple[int, int]:
        """A claim's tally (``3:8``) read, kept as turn numbers are."""
        yes, no = read_tally(text)
        if yes is None or no is None:
            raise NotRead
        if len(text) <= KEPT_TEXT and len(self.tallies) < KEPT_ITEMS:
            self.tallies[text] = yes, no
        return yes, no

    def _placement(self, m: re.Match[str], number: int, places: tuple[int, ...]) -> Placement:
        """The placement ``m`` matched; ``places``: the numbers of its groups :data:`_PLACES` in ``m``'s regex."""
        tile, a, b, corner, vote_word, arrow = m.group(*places)
        if "x" in tile:
            raise NotRead
        vote: Vote | None = None
        outcome: Outcome | None = None
        if vote_word is not None:
            if vote_word != self.words["VOTE"]:
                raise NotRead
            vote = _VOTE(self._list("VOTE", m, m.string, number, "ballots"), number, m.start("vote") + 1)
        if arrow is not None:
            yes = no = None
            tally = m["tally"]
            if tally is not None:
                yes, no = self.tallies.get(tally) or self._tally(tally)
            outcome = _OUTCOME(m["result"] == "accepted", yes, no, number, m.start("arrow") + 1)
        # a square's text read before is looked up here, without a call to read_square
        return _PLACEMENT(TILES[tile], SQUARES.get(a) or read_square(a),
                          None if b is None else SQUARES.get(b) or read_square(b),
                          None if corner is None else read_square(corner), vote, outcome, number,
                          m.start(places[0]) + 1)

    def _list(self, kind: str, m: re.Match[str], line: str, number: int,
              group: str = "items") -> tuple[Any, ...]:  # the kind's entries: Ballot, RevealEntry or ScoreEntry
        """The entries (ballots, reveal or score entries) of the list ``group`` of ``m``, each
        made from the text of its entry."""
        span, column = m[group], m.start(group) + 1
        if '"' not in span:  # no quoted name (which may hold a comma): the commas part the entries
            texts, comma = span.split(","), 1
        else:  # the entries as the entry's regex finds them, each but the first with its comma
            texts, comma = self._quoted(kind, line, m.start(group), m.end(group)), 0
        kept, make = self.kept[kind], _ENTRY_TYPES[kind]
        entries: list[Ballot | RevealEntry | ScoreEntry] = []
        for entry in texts:
            values, offset = kept.get(entry) or self._entry(kind, entry)
            entries.append(make(*values, number, column + offset))
            column += len(entry) + comma
        if len(entries) > MAX_LIST_ITEMS:
            raise NotRead
        return tuple(entries)

    def _quoted(self, kind: str, line: str, start: int, stop: int) -> list[str]:
        """The entries of a list holding a quoted name, from ``start`` to ``stop`` of ``line``:
        one after another, a comma before each but the first, nothing left over."""
        texts, at = [], start
        entry = self.each[kind]
        while at < stop:  # matched where the last entry ended, not searched for: a search past a long name is quadratic
            e = entry.match(line, at, stop)
            if e is None or e.end() == at or (e["comma"] is None) != (at == start):
                raise NotRead
            texts.append(e[0])
            at = e.end()
        return texts

    def _entry(self, kind: str, entry: str) -> tuple[EntryValues, int]:
        """What the text of an entry (spaces and a comma before it, spaces after it allowed) reads as: its
        values but the position, and where its player starts. The same few entries recur
        in a game: each is kept (up to a bound) for the next list."""
        e = self.each[kind].fullmatch(entry)
        if e is None:  # not one entry and the spaces after it: Lark tells what is wrong
            raise NotRead
        player = self._name(e["player"])
        values: EntryValues
        if kind == "VOTE":
            cards = tuple(map(read_card, self.cards.findall(e["cards"])))
            if len(cards) > MAX_LIST_ITEMS:
                raise NotRead
            values = player, cards
        elif kind == "REVEAL":
            values = player, read_goal(e["v1"]), e["v2"] and read_goal(e["v2"])
        else:
            points = bounded(e["v1"], MAX_SCORE)
            if points is None:
                raise NotRead
            values = player, points
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
    def goals(self) -> re.Pattern[str]:
        return re.compile(*self.goals_pattern)

    @cached_property
    def choose(self) -> re.Pattern[str]:
        return re.compile(*self.choose_pattern)

    @cached_property
    def move(self) -> re.Pattern[str]:
        """The regex of a move alone, compiled when first used (3 ms: records need none)."""
        return re.compile(*self.move_pattern)

    @cached_property
    def move_places(self) -> tuple[int, ...]:
        return _numbers(self.move, _PLACES)

    def parse_move(self, text: str) -> Placement | Choose | None:
        """One move (comments dropped): a placement, None for ``pass``, or a Choose."""
        move: object = None
        for number, line in enumerate(text.split("\n"), 1):
            if self.blank.match(line) is not None:
                continue
            m = self.move.match(line)
            if m is None or move is not None:
                raise NotRead
            word = m["pass"]
            if word is None:
                move = self._placement(m, number, self.move_places)
            elif word == self.words["PASS"]:
                move = _PASS
            elif word == self.words["CHOOSE"]:
                move = Choose(number, m.start("pass") + 1)
            else:
                raise NotRead
        if move is None:
            raise NotRead
        return None if move is _PASS else cast("Placement | Choose", move)


_PASS = object()  # a move read as 'pass', while the reader looks for more
# The groups of a placement the reader reads first, in this order (by their numbers: one call, no lookup by name).
_PLACES = ("tile", "a", "b", "corner", "vote", "arrow")


def _numbers(regex: re.Pattern[str], names: tuple[str, ...]) -> tuple[int, ...]:
    """The numbers of the groups ``names`` in ``regex``."""
    return tuple(regex.groupindex[n] for n in names)

# The entries of each kind of list, made from an entry's values and its line and column.
_ENTRY_TYPES: dict[str, Callable[..., Ballot | RevealEntry | ScoreEntry]] = {
    "VOTE": quick(Ballot), "REVEAL": quick(RevealEntry), "SCORE": quick(ScoreEntry)}
# The values a record is made of, made quicker than by their classes (model.quick): some 200 per record.
_TURN, _PLACEMENT, _VOTE, _OUTCOME, _RECORD = quick(Turn), quick(Placement), quick(Vote), quick(Outcome), quick(Record)
_TAG, _GOALS, _HAND, _CHOOSE, _REVEAL, _SCORE = (quick(Tag), quick(Goals), quick(Hand), quick(Choose), quick(Reveal),
                                                 quick(Score))
# What an entry reads as, its position aside: (player, cards), (player, chosen, other) or (player, points).
EntryValues = tuple[str, tuple[Card, ...]] | tuple[str, str, str | None] | tuple[str, int]


def _all_read(tiles: tuple[HandTile | None, ...]) -> TypeGuard[tuple[HandTile, ...]]:
    return all(tiles)
