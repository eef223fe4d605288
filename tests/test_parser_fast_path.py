"""The parser's fast path against Lark's own parser, and parse_move.

Valid text is read line by line by regexes made of the grammar's terminals
(notation/lines.py: LineReader); any other text goes to Lark. Two guards:

* ``test_fast_path_is_in_use``: the samples in replays/ and a move of every kind are
  read without Lark (else the parser would silently run at Lark's speed);
* the differential tests feed generated and mutated inputs (750 in the slow
  one in the README's test command, 3,000 in CI's long pass and 30,000 where ``PARSER_INPUTS``
  says so, as CI does; 1,000 in the quick one, lines of every kind in ``test_every_line_kind``) to ``parse_text``/``parse_move`` as
  shipped and to the same functions running on Lark alone (its basic lexer and LALR parser on the grammar).
  Both sides run the same parse_text/parse_move, so comments, I00x checks and the wording of errors
  are shared: only what reads the text differs. Records must be equal field by
  field (positions and comments included), errors equal in code, line, column,
  message, hint and context.
"""
from __future__ import annotations

import dataclasses
import functools
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from hypothesis.strategies import from_regex
from lark import Lark, Token

from drunter_notation.errors import DnError
from drunter_notation.notation import lalr, parser, slots, terminals, values
from drunter_notation.notation.lalr import START_SYMBOLS, RecordBuilder, grammar_text
from drunter_notation.notation.model import Ballot, Card, Choose, HandTile, Outcome, Placement, Tile, Vote
from drunter_notation.notation.parser import parse_move, parse_text

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "replays").rglob("*.dn"))


# --- (a) the fast path is taken -------------------------------------------------

MOVES = ["W3 b1-d1 vote { A: JA } -> accepted 1:0", "pass", "choose", "  S2 a1 @b1 # note\n",
         'R1 c7 vote { "Ben B": JEIN = yes NE, Cleo: ? } -> rejected']


def test_fast_path_is_in_use(monkeypatch):
    p = parser._parser()

    def lark_parse(*args, **kwargs):
        raise AssertionError("Lark's own parser ran on valid input: the fast path fell back")
    monkeypatch.setattr(p.lark, "parse", lark_parse)
    for path in SAMPLES:
        if "P001" not in path.name:  # the one sample with a syntax error
            parse_text(path.read_text("utf-8"), str(path))
    assert parse_move(MOVES[0]).tile == Tile("W", 3)
    assert parse_move("pass") is None
    for move in MOVES:
        parse_move(move)



def test_terminal_table_is_larks():
    """The line reader is built from a table of the terminals (notation/terminals.py), not
    from Lark: the table must be what Lark makes of the grammar, in its lexer's order."""
    lark = _reference_lark()
    table = lalr.terminal_table(lark)
    assert table == terminals.TERMINALS, "the grammar changed: notation/terminals.py must hold\n" + "\n".join(
        f"    {t!r}," for t in table)
    assert lark.options.g_regex_flags == terminals.REGEX_FLAGS


def test_valid_records_need_no_lark():
    """Reading valid records, and the import of the parser, load no Lark (a command's start-up
    would pay about 60 ms for it); a syntax error loads it and is Lark's."""
    code = ("import sys; from pathlib import Path; from drunter_notation.notation.parser import parse_text, parse_move;"
            "[parse_text(p.read_text('utf-8')) for p in sorted(Path(sys.argv[1]).rglob('*.dn')) if 'P001' not in p.name];"
            "parse_move('W3 b1-d1 vote { A: JA } -> accepted 1:0'); parse_move('pass');"
            "assert 'lark' not in sys.modules, 'lark loaded';"
            "from drunter_notation.errors import DnError\n"
            "try: parse_text('1. A W3 b1 $')\n"
            "except DnError as e: assert e.diagnostic.code == 'P001' and 'lark' in sys.modules\n"
            "else: raise AssertionError('no error')")
    out = subprocess.run([sys.executable, "-c", code, str(ROOT / "replays")], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr


# --- the slots' analysis: which terminals may start with the same character ------------

def _starts_with(first, char: str) -> bool:
    chars, tests = first
    return char in chars or any(t(char) for t in tests)


@pytest.mark.parametrize("terminal", [t.name for t in parser._parser().lark.terminals])
def test_first_chars_are_never_too_few(terminal):
    """Every text a terminal matches starts with a character its first-character answer
    holds (the slots leave out an earlier terminal only when the two cannot share one),
    and its regex without captures (the reader's) matches it too."""
    t = next(t for t in parser._parser().lark.terminals if t.name == terminal)
    regexp = t.pattern.to_regexp()
    first = slots.first_chars(regexp, 0)
    assert first is not None
    uncaptured = re.compile(slots.uncaptured(regexp))
    assert uncaptured.groups == 0

    @settings(max_examples=examples(100), derandomize=True, database=None, deadline=None,  # per terminal: 29 of them
              suppress_health_check=list(HealthCheck))
    @given(from_regex(regexp, fullmatch=True))
    def check(text):
        if text:
            assert _starts_with(first, text[0]), text
        assert uncaptured.fullmatch(text), text
    check()


@pytest.mark.parametrize("terminal", [t.name for t in parser._parser().lark.terminals])
def test_first_pairs_are_never_too_few(terminal):
    """Every text a terminal matches starts with two characters its first-pairs answer holds
    (the slots leave out an earlier terminal also when the two cannot share their first two),
    and with a character its first atom matches (a slot checks it first)."""
    t = next(t for t in parser._parser().lark.terminals if t.name == terminal)
    regexp = t.pattern.to_regexp()
    pairs, atom = slots.first_pairs(slots.uncaptured(regexp), 0), slots.first_atom(slots.uncaptured(regexp), 0)
    if pairs is None and atom is None:
        return
    first = re.compile(atom or ".", re.DOTALL)

    @settings(max_examples=examples(100), derandomize=True, database=None, deadline=None,  # per terminal: 29 of them
              suppress_health_check=list(HealthCheck))
    @given(from_regex(regexp, fullmatch=True))
    def check(text):
        assert pairs is None or text[:2] in pairs, text
        assert first.match(text), text  # the slot's check of the first character lets every match through
    check()


def test_first_pairs_read_words_and_a_listed_character_then_a_class():
    assert slots.first_pairs(r"(?:museum|one-each)(?![\w-])", 0) == {"mu", "on"}
    assert slots.first_pairs(r"[a-b][1-2][0-9]?", 0) == {"a1", "a2", "b1", "b2"}
    # not read: a word of one character, a repeated group or first character, alternatives at the top,
    # something that may match empty after the first character, a class too large to list, case folded
    for regexp, flags in [(r"(?:ab|c)", 0), (r"(?:ab|cd)?x", 0), (r"[a-z]+[0-9]", 0), (r"(?:ab)x|y", 0),
                          (r"[a-z][0-9]?", 0), (r"[a-z]\w", 0), (r"[^\W\d_][\w-]*", 0), (r"[a-z][0-9]", re.I)]:
        assert slots.first_pairs(regexp, flags) is None, regexp
    assert slots.first_atom(r"[^\W\d_][\w-]*", 0) == r"[^\W\d_]" and slots.first_atom("#[^\n]*", 0) == "#"
    for regexp in (r"[a-z]?x", r"(?:a|b)c", r"[a-z]x|y", r"\dx", ""):
        assert slots.first_atom(regexp, 0) is None, regexp
    square, goal = slots.first_pairs(r"[a-z][1-9][0-9]?(?!\w)", 0), slots.first_pairs(r"(?:museum|tavern)", 0)
    assert not slots.may_begin_alike(square, goal) and slots.may_begin_alike(None, goal)


def test_uncaptured_leaves_escapes_classes_and_named_groups():
    assert slots.uncaptured(r"(a|b)\(c\)[(]x(?:y)(?P<n>z)[]()]\\(k)[^]()]") == \
        r"(?:a|b)\(c\)[(]x(?:y)(?P<n>z)[]()]\\(?:k)[^]()]"


def test_first_chars_of_classes():
    name = slots.first_chars(r"[^\W\d_][\w-]*", 0)
    assert all(_starts_with(name, c) for c in "aZéЖ") and not any(_starts_with(name, c) for c in " 1_-#\"")
    assert slots.first_chars(r"[0-9]+|\?", 0) == (frozenset("0123456789?"), ())
    assert slots.first_chars(r"x?", 0) is None and slots.first_chars(r".y", 0) is None
    assert not slots.may_start_alike(name, slots.first_chars(r"[ \t]+", 0))
    assert slots.may_start_alike(name, slots.first_chars(r"[a-z][1-9]", 0))
    assert slots.may_start_alike(name, slots.first_chars(r"\w", 0))  # two classes: not compared

# --- parse_move ---------------------------------------------------------------------

def test_parse_move_values_and_positions():
    p = parse_move("S2 a1 @b1\n  vote { Anna: JA, \"Ben B\": NE NE } -> accepted 2:1  # claimed")
    assert p == Placement(Tile("S", 2), (0, 0), None, (1, 0),
                          Vote((Ballot("Anna", (Card("JA"),)), Ballot("Ben B", (Card("NE"), Card("NE"))))),
                          Outcome(True, 2, 1))
    assert (p.line, p.column, p.vote.line, p.vote.column, p.outcome.line, p.outcome.column) == (1, 1, 2, 3, 2, 37)
    assert parse_move("W3 b1-d1").end == (3, 0)
    assert parse_move("  pass ") is None
    assert isinstance(parse_move("choose"), Choose)


@pytest.mark.parametrize("text, column, words", [
    ("", 1, "the move is empty"),
    ("  # nothing\n", 1, "the move is empty"),
    ("3. Anna S1 c2", 1, "without turn number and player"),
    ("S1 c2 4. Ben pass", 7, "a single placement, 'pass' or 'choose', not more: found '4.'"),
    ("pass choose", 6, "not more: found 'choose'"),
    ("S1 c2 vote { Anna: JA Ben: NE }", 23, "expected a vote card"),
    ("Anna W3 b1", 1, "expected a tile like W3 or 'choose' or 'pass', found 'Anna'"),
    ("W3 b1-", 7, "expected a square like c7 after '-', found the end of the move"),
    ("W3x2 b1", 1, "a tile count like x4 belongs only in hand lines"),
    ("W3 b1 $", 7, "unexpected character '$' after 'b1'"),
])
def test_parse_move_errors_are_placed_in_the_move(text, column, words):
    with pytest.raises(DnError) as e:
        parse_move(text, "--move")
    d = e.value.diagnostic
    assert (d.code, d.line, d.column) == ("P001", 1, column)
    assert words in d.message and d.hint
    assert e.value.format().startswith(f"--move:1:{column}: error[P001]:")


# --- (b) differential: the fast path against Lark's own parser -----------------------

class LarkOnly:
    """Lark's own lexer and parser, in the place of parser._parser(): the reference."""

    def __init__(self):
        self.comments: list[Token] = []
        self.lark = Lark(grammar_text(), parser="lalr", lexer="basic", start=list(START_SYMBOLS),
                         transformer=RecordBuilder(), maybe_placeholders=False,
                         lexer_callbacks={"COMMENT": self.comments.append})

    def parse(self, text, end):  # the end (line, column) is parse_text's to set, as on Lark's path
        self.comments.clear()
        return self.lark.parse(text, start="start"), [(str(c), c.line, c.column) for c in self.comments]

    def parse_move(self, text):
        move = self.lark.parse(text, start="move")
        return None if isinstance(move, Token) else move


def _full(value):
    """A value with every field, positions included (model equality leaves them out)."""
    if dataclasses.is_dataclass(value):
        return (type(value).__name__, *tuple(_full(getattr(value, f.name)) for f in dataclasses.fields(value)))
    if isinstance(value, tuple):
        return tuple(_full(v) for v in value)
    return value


def _outcome(parse, text: str):
    try:
        return "ok", _full(parse(text))
    except DnError as e:
        d = e.diagnostic
        return "error", d.code, d.line, d.column, d.message, d.hint, d.context


# Texts for each terminal the generator may write; test_token_pools_cover_the_grammar checks there are no others.
POOLS = {
    "TILE": ["W3", "S1", "R2", "W2x4", "S3x12"],
    "SQUARE": ["a1", "c7", "n14", "b10", "z99"],
    "CARD": ["JA", "JAA", "JAAA", "NE", "NEE", "NEEE", "JEIN", "JEIN=yes", "JEIN = no", "?"],
    "GOAL": ["museum", "church", "kirche", "schule", "all-threes", "one-each", "lowest-of-each"],
    "NAME": ["Anna", "Ben", "Jörg", "Ann-Kathrin", "x", "hand2", "Museum_1", "passe"],
    "STRING": ['"Anna"', '"W3"', '"a \\"b\\" \\\\"', '""', '"# no comment"', '"Players"'],
    "TURNNO": ["1.", "12 .", "3\n.", "007."],
    "TALLY": ["2:1", "3 : 2", "0:0"],
    "INT": ["0", "7", "12"],
    "RESULT": ["accepted", "rejected"],
}
SEPARATORS = [" "] * 12 + ["", "\n", "\t", "  # a note\n", "\r\n", "\n\n#\n"]
# Text a mutation may put in: DN's punctuation, letters and digits, line breaks, odd characters.
NOISE = [*list('[]{}:,-/@#"?=.>\\ \n\tWSRabcz0129xJANE'), "é", "\xa0", "\u200b", "😀", "\r", "_"]


def _reference_lark() -> Lark:
    return LarkOnly().lark


class Generator:
    """Random DN texts from the grammar's rules (Lark's expanded form), deterministic per seed."""

    def __init__(self, lark: Lark, rng: random.Random):
        self.rng = rng
        self.rules: dict[str, list[list]] = {}
        for rule in lark.rules:
            self.rules.setdefault(rule.origin.name, []).append(rule.expansion)
        self.literals = {t.name: t.pattern.value for t in lark.terminals if t.pattern.type == "str"}
        # the fewest levels each symbol needs: deep in the tree, the generator takes the shortest way out
        self.height: dict[str, int] = {}
        changed = True
        while changed:
            changed = False
            for name, expansions in self.rules.items():
                best = min((1 + max((self._height(s) for s in e), default=0) for e in expansions),
                           default=10 ** 9)
                if best < self.height.get(name, 10 ** 9):
                    self.height[name], changed = best, True

    def _height(self, sym) -> int:
        return 0 if sym.is_term else self.height.get(sym.name, 10 ** 9)

    def text(self, start: str, depth: int = 9, separators: list[str] = SEPARATORS) -> str:
        out: list[str] = []
        self._expand(start, depth, out)
        sep = self.rng.choice
        return "".join(tok + sep(separators) for tok in out)

    def _expand(self, name: str, depth: int, out: list[str]) -> None:
        expansions = self.rules[name]
        if depth <= 0:
            expansions = [e for e in expansions if 1 + max((self._height(s) for s in e), default=0)
                          <= self.height[name]]
        for sym in self.rng.choice(expansions):
            if not sym.is_term:
                self._expand(sym.name, depth - 1, out)
            elif sym.name in self.literals:
                out.append(self.literals[sym.name])
            else:
                out.append(self.rng.choice(POOLS[sym.name]))


_UNIT = re.compile(r'"[^"\n]*"|[\w?=]+|->|\S')


def mutate(text: str, rng: random.Random) -> str:
    """``text`` after one to three edits: a character replaced or inserted, a token
    deleted, doubled or swapped with the next, or the text cut short."""
    for _ in range(rng.randint(1, 3)):
        units = [m.span() for m in _UNIT.finditer(text)]
        kind = rng.randrange(6)
        if kind == 0 and text:
            i = rng.randrange(len(text))
            text = text[:i] + rng.choice(NOISE) + text[i + 1:]
        elif kind == 1:
            i = rng.randrange(len(text) + 1)
            text = text[:i] + rng.choice(NOISE) + text[i:]
        elif kind == 2 and units:
            a, b = rng.choice(units)
            text = text[:a] + text[b:]
        elif kind == 3 and units:
            a, b = rng.choice(units)
            text = text[:b] + rng.choice(["", " "]) + text[a:b] + text[b:]
        elif kind == 4 and len(units) > 1:
            k = rng.randrange(len(units) - 1)
            (a, b), (c, d) = units[k], units[k + 1]
            text = text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
        else:
            text = text[:rng.randrange(len(text) + 1)]
    return text


def _sample_piece(lines: list[str], rng: random.Random) -> str:
    """A few lines of a sample record, sometimes with its first lines (the tags) in front:
    short inputs, so that thousands of them run in seconds."""
    i = rng.randrange(len(lines))
    piece = lines[i:i + rng.randint(1, 6)]
    if rng.random() < 0.3:
        piece = lines[:2] + piece
    return "\n".join(piece) + rng.choice(["", "\n"])


def inputs(n: int, seed: int):
    """``n`` (text, start symbol) pairs, two records to each move: every sample in
    replays/, then in turns texts generated from the grammar, the same mutated,
    mutated pieces of the samples and (one in twelve) whole samples mutated."""
    rng = random.Random(seed)
    gen = Generator(_reference_lark(), rng)
    samples = [p.read_text("utf-8") for p in SAMPLES]
    out = [(s, "start") for s in samples]
    sample_lines = [s.split("\n") for s in samples]
    while len(out) < n:
        start = rng.choice(["start", "start", "move"])
        kind = rng.randrange(12)
        if kind < 4:
            out.append((gen.text(start), start))
        elif kind < 8:
            out.append((mutate(gen.text(start), rng), start))
        elif kind == 8 and start == "start":
            out.append((mutate(rng.choice(samples), rng), start))
        else:
            piece = _sample_piece(rng.choice(sample_lines), rng)
            if start == "move":  # the placement part of a turn line, when there is one
                piece = re.sub(r"^\s*\d+\s*\.\s*\S+\s*", "", piece.split("\n")[0])
            out.append((mutate(piece, rng), start))
    return out


def test_token_pools_cover_the_grammar():
    lark = _reference_lark()
    regex_terminals = {t.name for t in lark.terminals if t.pattern.type == "re"} - set(lark.lexer_conf.ignore)
    assert regex_terminals == set(POOLS)


FUNCTIONS = {"start": lambda text: parse_text(text, "t.dn"), "move": lambda text: parse_move(text, "--move")}


def _both(reference: LarkOnly, text: str, start: str):
    """What the parser as shipped makes of ``text``, and what it makes on the reference."""
    fast = _outcome(FUNCTIONS[start], text)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(parser, "_parser", lambda: reference)
        slow = _outcome(FUNCTIONS[start], text)
    return fast, slow


def _differential(n: int, seed: int) -> None:
    reference = LarkOnly()
    disagreements, kinds = [], {"ok": 0, "error": 0}
    for text, start in inputs(n, seed):
        fast, slow = _both(reference, text, start)
        kinds[fast[0]] += 1
        if fast != slow:
            disagreements.append((start, text, fast, slow))
    assert not disagreements, f"{len(disagreements)} of {n} differ; the first: {disagreements[0]!r}"
    # both kinds well represented, or the comparison would prove little
    assert min(kinds.values()) > n // 5, kinds


def test_differential_quick():
    _differential(1000, 7)


# Within a line: what the line reader reads (the tokens of one item, spaces between or none).
LINE_SEPARATORS = [" "] * 12 + ["", "\t", "  ", "\f", "\r", " \t "]
# The grammar's order of the items of a record, each kind with how many lines of it to write.
LINE_KINDS = [("tag", 3), ("hand", 2), ("goals", 2), ("turn", 6), ("choose", 1), ("turn", 3),
              ("reveal", 1), ("score", 1)]
LINE_ENDS = ["", "", "", "  # a note", "#", "\r", " \r"]
BETWEEN_LINES = ["\n"] * 8 + ["\n\n", "\n# a comment line\n", "\n  \t\n", "\r\n"]


def line_records(n: int, seed: int):
    """``n`` (text, start symbol) pairs written a line per item -- every kind of line,
    in the grammar's order, spaced at random within lines -- one in four a move alone;
    half of them mutated once."""
    rng = random.Random(seed)
    gen = Generator(_reference_lark(), rng)
    out = []
    while len(out) < n:
        if rng.random() < 0.25:
            kind = rng.choice(["placement", "placement", "move"])
            text = gen.text(kind, separators=LINE_SEPARATORS).replace("\n", " ")
            text, start = rng.choice(["", " ", "\n", "# c\n"]) + text + rng.choice(LINE_ENDS), "move"
        else:
            lines = [gen.text(kind, separators=LINE_SEPARATORS).replace("\n", " ").rstrip(" ") + rng.choice(LINE_ENDS)
                     for kind, most in LINE_KINDS for _ in range(rng.randint(0, most))]
            text, start = "".join(line + rng.choice(BETWEEN_LINES) for line in lines), "start"
        out.append((mutate(text, rng) if rng.random() < 0.5 else text, start))
    return out


def test_every_line_kind(monkeypatch):
    """Records of every line kind: the fast path reads most of the valid ones, and
    every text -- read by it or handed to Lark -- gives what Lark alone gives."""
    reference, p = LarkOnly(), parser._parser()
    lark_parse, fell_back = p.lark.parse, []

    def counted(text, start):
        fell_back.append(text)
        return lark_parse(text, start=start)
    monkeypatch.setattr(p.lark, "parse", counted)
    disagreements, valid, read = [], 0, 0
    n = examples(3000)
    for text, start in line_records(n, 11):
        before = len(fell_back)
        fast, slow = _both(reference, text, start)
        if fast != slow:
            disagreements.append((start, text, fast, slow))
        if slow[0] == "ok":
            valid += 1
            read += len(fell_back) == before
    assert not disagreements, f"{len(disagreements)} differ; the first: {disagreements[0]!r}"
    assert valid > n // 6 and read > 0.99 * valid, (valid, read)


def test_ballots_kept_for_later_votes_are_placed_anew():
    """A ballot read once is kept by its text (lines.LineReader._entry) and serves
    later votes at their own lines and columns -- lists parted at their commas, or by
    their regex where a quoted name may hold a comma; names that are keywords, and
    texts over the bound, are never kept and still read as Lark reads them."""
    reference = LarkOnly()
    long_cards = " JA" * 40
    text = ('[Players "A, B"]\n1. A W1 a2 vote { A: JA NE, "B, b": JEIN = yes }\n'
            '2. B W1 b2   vote {"B, b": JEIN = yes, A: JA NE} -> accepted\n'
            '3. A W1 c2 vote { A: JA NE, B:? }\n4. B W1 d2 vote {B:?, A: JA NE,A: JA NE}\n'
            f'5. A W1 e2 vote {{ A:{long_cards}, B:{long_cards} }}\n6. B W1 f2 vote {{ B:{long_cards} }}\n')
    for case in (text, text.replace('"B, b"', "pass"), text.replace("A: JA NE", "vote: JA NE")):
        fast, slow = _both(reference, case, "start")
        assert fast == slow
    assert _both(reference, text, "start")[0][0] == "ok"
    kept = parser._parser().reader.kept["VOTE"]
    assert {" A: JA NE", ', "B, b": JEIN = yes '} <= set(kept)  # an entry is kept with the spaces after it
    assert not any(long_cards in entry for entry in kept)


# Lists as a line's regex takes them whole (slots.Slots.span), to be read entry by entry: entries of each kind,
# written with any spacing, then some made wrong (a comma missing, doubled or first, junk between entries, a quote
# left open, a quoted name holding a comma, a brace or '#'); the reader must tell every one as Lark does.
_NAMES = st.sampled_from(["A", "Ben", "pass", "vote", "reveal", '"B, b"', '"x}#{"', '"Ann \\" a"', "JA", "a1", "W1"])
_SPACE = st.sampled_from(["", " ", "  ", "\t"])
_CARDS = st.lists(st.tuples(_SPACE, st.sampled_from(["JA", "NEE", "NEEE", "JEIN", "JEIN = yes", "JEIN=no", "?"])),
                  min_size=1, max_size=3).map(lambda cards: "".join(f"{sp or ' '}{c}" for sp, c in cards))
_VALUES = {"VOTE": _CARDS,
           "REVEAL": st.tuples(_SPACE, st.sampled_from(["museum", "one-each", "kirche"]),
                               st.sampled_from(["", "/church", " / all-fours"])).map("".join),
           "SCORE": st.tuples(_SPACE, st.sampled_from(["0", "12", "007"])).map("".join)}
_LIST_LINES = {"VOTE": '[Players "A, Ben"]\n1. A W1 a2 vote {{{}}} -> rejected 1:2 # c\n',
               "REVEAL": '[Players "A, Ben"]\nreveal{} # c\n',
               "SCORE": '[Players "A, Ben"]\nreveal A: museum, Ben: church\nscore{}\n'}
_SEPARATORS = st.sampled_from([",", ",", ",", "", " ", ",,"])  # mostly right
_JUNK = st.sampled_from([",", ", ,", "", " ", ":", "#", "{", "}", '"', "Ben", "x: JA", "->", ";"])


@st.composite
def _list_lines(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(sorted(_LIST_LINES)))
    entries = draw(st.lists(st.tuples(_SPACE, _NAMES, _SPACE, _VALUES[kind], _SPACE), min_size=1, max_size=4))
    parts = [f"{a}{name}{b}:{value}{c}" for a, name, b, value, c in entries]
    if draw(st.booleans()):  # made wrong: junk put at one place
        at, junk = draw(st.integers(0, len(parts))), draw(_JUNK)
        parts.insert(at, junk) if draw(st.booleans()) else parts.__setitem__(min(at, len(parts) - 1), junk)
    joined = parts[0] + "".join(draw(_SEPARATORS) + part for part in parts[1:])
    return _LIST_LINES[kind].format(joined)


_lark_only = functools.cache(lambda: LarkOnly())
_lists_seen: dict[str, int] = {"ok": 0, "error": 0}


@settings(max_examples=examples(500), derandomize=True, database=None, deadline=None,
          suppress_health_check=list(HealthCheck))
@given(_list_lines())
def test_lists_taken_whole_are_read_as_lark_reads_them(text):
    """A list's span is taken whole and read entry by entry: the reader gives what Lark gives
    (values and positions, or the same error), or leaves the line to Lark."""
    fast, slow = _both(_lark_only(), text, "start")
    assert fast == slow, text
    _lists_seen[fast[0]] += 1


def test_lists_taken_whole_were_read_and_refused():
    """The test above saw lists read and lists refused (it would prove little otherwise)."""
    if not any(_lists_seen.values()):
        test_lists_taken_whole_are_read_as_lark_reads_them()
    assert min(_lists_seen.values()) > examples(500) // 10, _lists_seen


def test_reveal_and_score_entries_kept_for_later_lines_are_placed_anew():
    """Reveal and score entries are kept by their text as ballots are (and a score over
    its limit is never kept): read as Lark reads them, wherever they stand."""
    reference = LarkOnly()
    head = '[Players "A, B"]\n1. A pass\n'
    for reveal, score in [("reveal A: museum, B: kirche/one-each", "score A: 3, B: 12"),
                          ('reveal  B: kirche/one-each,A: museum', 'score "B, b": 12 , A: 3'),
                          ("reveal A: museum, pass: church", "score A: 3, B: 100000"),
                          ("reveal A:museum,B:kirche / one-each", "score A: 3,B: 12")]:
        text = f"{head}{reveal}\n{score}\n"
        fast, slow = _both(reference, text, "start")
        assert fast == slow
    assert " A: 3" in parser._parser().reader.kept["SCORE"]


def test_tallies_kept_by_their_text():
    """A claim's tally is kept by its text as turn numbers are: spaced, with leading zeros,
    at and over its limit, read as Lark reads it, before and after being kept."""
    reference = LarkOnly()
    text = ('[Players "A, B"]\n1. A W1 a2 vote { A: JA, B: NE } -> accepted 3:02\n'
            '2. B W1 b2 vote { B: JA, A: NE } -> rejected 3 : 2\n3. A W1 c2 vote { A: JA, B: NE } -> accepted 3:02\n')
    for case in (text, text, text.replace("3 : 2", "999:1000"), text.replace("3:02", "3:" + "0" * 80 + "2")):
        fast, slow = _both(reference, case, "start")
        assert fast == slow
    assert _both(reference, text, "start")[0][0] == "ok"
    tallies = parser._parser().reader.tallies
    assert tallies["3:02"] == (3, 2) and "999:1000" not in tallies and not any(len(t) > 64 for t in tallies)


def test_hand_tiles_kept_by_their_text():
    """Hand tiles are kept by their text (values.HAND_TILES): counts written with leading
    zeros, at and over the limit, read as Lark reads them, before and after being kept."""
    reference = LarkOnly()
    text = '[Players "A, B"]\nhand A: W2x04 W2x4 W2x004 S1x0 R3x099 R3x99 W1\n'
    for case in (text, text, text.replace("R3x99", "R3x100"), text.replace("W2x004", "W2x" + "0" * 80 + "5")):
        fast, slow = _both(reference, case, "start")
        assert fast == slow
    assert _both(reference, text, "start")[0][0] == "ok"
    assert values.HAND_TILES["W2x004"] == HandTile(Tile("W", 2), 4)


@pytest.mark.slow
def test_differential_slice():
    _differential(int(os.environ.get("PARSER_INPUTS", examples(3000))), 1)


@pytest.mark.slow
@pytest.mark.parametrize("start", START_SYMBOLS)
def test_differential_hypothesis(start):
    """Hypothesis's own generator over the grammar: every terminal's whole regex (any
    Unicode letter in a name, form feeds, ...), not only the pools above."""
    reference = LarkOnly()

    @settings(max_examples=examples(150), derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(from_lark(reference.lark, start=start) | from_lark(reference.lark, start=start).map(
        lambda text: mutate(text, random.Random(len(text)))))
    def check(text):
        fast, slow = _both(reference, text, start)
        assert fast == slow, text
    check()


def lark_reads_as_bare_name(lark: Lark, text: str) -> bool:
    """Lark's own answer: its lexer reads ``text`` as exactly one NAME token."""
    from lark import LarkError

    try:
        tokens = list(lark.lex(text))
    except LarkError:
        return False
    return len(tokens) == 1 and tokens[0].type == "NAME" and str(tokens[0]) == text


WORDS = ["pass", "vote", "choose", "hand", "JA", "JEIN", "W1", "a1", "museum", "accepted", "Anna", "x-y", "é",
         "Ǆ", "٣", "_", "-", "1", "#", '"', " ", "\t", "\f", "\n", "\u0301", "Σ", "ß", "İ"]


@settings(max_examples=examples(400), derandomize=True, database=None, deadline=None)
@given(st.lists(st.sampled_from(WORDS) | st.text(max_size=3), max_size=4).map("".join))
def test_a_bare_name_is_what_lark_s_lexer_reads_as_one_name(text):
    """The formatter quotes a player name unless the grammar reads it bare: asked of the line reader's
    NAME slot (no Lark at start-up), answered as Lark's lexer answers."""
    assert parser.reads_as_bare_name(text) == lark_reads_as_bare_name(parser._parser().lark, text), repr(text)


# --- the lists' bounds: the grammar's many{...} and separated{...} -----------------------

HEAD = '[Players "A, B"]\n'
LISTS = {  # words in the P001 -> (text with n items, where the n-th item starts: line, column)
    "tags": (lambda n: "".join(f'[K{i} "v"]\n' for i in range(n)), lambda n: (n, 1)),
    "hand and goals lines": (lambda n: HEAD + "hand A: W1\n" * n, lambda n: (n + 1, 1)),
    "tiles in one hand line": (lambda n: HEAD + "hand A:" + " W1" * n + "\n", lambda n: (2, 6 + 3 * n)),
    "cards in one ballot": (lambda n: HEAD + "1. A W1 a2 vote { A:" + " JA" * n + " }\n", lambda n: (2, 19 + 3 * n)),
    "ballots in one vote": (lambda n: HEAD + "1. A W1 a2 vote { " + ", ".join(["A: JA"] * n) + " }\n",
                            lambda n: (2, 12 + 7 * n)),
    "entries in one reveal": (lambda n: HEAD + "reveal " + ", ".join(["A: museum"] * n) + "\n",
                              lambda n: (2, 11 * n - 3)),
    "entries in one score line": (lambda n: HEAD + "reveal A: museum\nscore " + ", ".join(["A: 1"] * n) + "\n",
                                  lambda n: (3, 6 * n + 1)),
}


@pytest.mark.parametrize("words", LISTS)
@pytest.mark.parametrize("spread", [False, True])
def test_lists_stop_at_their_limit(words, spread):
    """1,000 items parse; the 1,001st is a P001 where it stands -- whether the line
    reader hands the text to Lark at once (items spread over lines) or at the limit."""
    text, where = LISTS[words]
    make = (lambda n: text(n).replace(" W1", "\nW1").replace(" JA", "\nJA")) if spread else text
    parse_text(make(values.MAX_LIST_ITEMS), "t.dn")
    with pytest.raises(DnError) as e:
        parse_text(make(values.MAX_LIST_ITEMS + 1), "t.dn")
    d = e.value.diagnostic
    assert (d.code, d.message) == ("P001", f"more than 1,000 {words}")
    if not spread:
        assert (d.line, d.column) == where(values.MAX_LIST_ITEMS + 1)


def test_an_error_past_the_events_read_is_lark_s_own_when_they_are_blanked(monkeypatch):
    # the rest of the record parsed alone (parser._Parser._error_past) on every input with two events read,
    # not only past SKIPPED_LINES of them: the very error Lark finds in the whole text, or the whole text parsed
    monkeypatch.setattr(parser, "SKIPPED_LINES", 1)
    _differential(examples(3000), 11)


def test_a_late_error_in_a_long_record_is_found_in_the_rest_alone_and_said_as_in_the_whole(monkeypatch):
    head = '[Players "Anna, Ben"]\n\nhand Anna: W1x3\nhand Ben: W1x3\n\n'
    turns = "".join(f"{n}. {'Anna' if n % 2 else 'Ben'} W1 a{n % 9 + 1}  # {n}\n\n" for n in range(1, 3001))
    reference = LarkOnly()
    for tail in ("3001. Anna W1 a1 a2 a3\n", "3001. Anna\n", "hand Cleo: W1\n", "3001. Anna W1 a1 -> maybe\n",
                 "reveal Anna: museum, Ben: church\nscore Anna: x\n", "3001. Anna W1 ~ \n"):
        text = head + turns + tail
        blanked = []
        monkeypatch.setattr(lalr, "parse_record", _recording(lalr.parse_record, blanked))
        fast, slow = _both(reference, text, "start")
        monkeypatch.undo()
        assert fast == slow and fast[0] == "error", (tail, fast, slow)
        assert blanked and all(len(t) < len(text) // 5 for t in blanked), tail  # only the rest was parsed


def _recording(parse_record, texts):
    def record(lark, text):
        texts.append(text)
        return parse_record(lark, text)
    return record
