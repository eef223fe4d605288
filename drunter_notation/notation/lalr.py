"""Lark on the grammar: the parser of every text the line reader does not read.

Loaded only when needed -- a syntax error, an item spread over lines, a list over
its limit, a name's quoting (:mod:`formatter`) -- so that reading valid records
never imports Lark nor builds its LALR tables (about 60 ms of a command's start-up).
Lark parses (LALR, its basic lexer) and applies :class:`RecordBuilder` while it
parses, so no parse tree is built.
"""
from __future__ import annotations

from contextvars import ContextVar
from functools import lru_cache
from importlib import resources
from typing import Any, cast

from lark import Lark, Token, Transformer

from drunter_notation.i18n import N_, _, format_number
from drunter_notation.notation.model import (
    Ballot,
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
    Square,
    Tag,
    Turn,
    Vote,
)
from drunter_notation.notation.syntax import SYNTAX_HINT, Syntax, syntax_error
from drunter_notation.notation.terminals import Terminal
from drunter_notation.notation.values import (
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

# The grammar's start symbols: a whole record, and one move alone (parser.parse_move).
START_SYMBOLS = ("start", "move")


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


def build() -> Lark:
    """Lark on the grammar, building records as it parses; comments come through a lexer
    callback into a list of the parse's own (:func:`parse_record`), so parses in several
    threads at once do not mix them."""
    return Lark(grammar_text(), parser="lalr", lexer="basic", start=list(START_SYMBOLS),
                transformer=RecordBuilder(), maybe_placeholders=False, lexer_callbacks={"COMMENT": _keep_comment})


def parse_record(lark: Lark, text: str) -> tuple[Record, list[tuple[str, int, int]]]:
    """A whole record and its comments (text, line, column), by ``lark`` made by :func:`build`."""
    comments: list[Token] = []
    reset = _COMMENTS.set(comments)
    try:
        record = cast(Record, lark.parse(text, start="start"))  # what RecordBuilder.start returns
    finally:
        _COMMENTS.reset(reset)
    return record, [_placed(c) for c in comments]


def _placed(comment: Token) -> tuple[str, int, int]:
    assert comment.line is not None and comment.column is not None  # the lexer places every token
    return str(comment), comment.line, comment.column


def terminal_table(lark: Lark) -> tuple[Terminal, ...]:
    """Lark's terminals as :data:`terminals.TERMINALS` holds them, in its lexer's order."""
    order = sorted(lark.terminals, key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
    return tuple(Terminal(t.name, t.pattern.type, t.pattern.value, t.pattern.to_regexp(), t.priority,
                          tuple(sorted(t.pattern.flags))) for t in order)
