"""The DN notation: every construct of docs/notation.md, syntax errors, round trips."""
from __future__ import annotations

import copy
import dataclasses
import inspect
import os
import pickle
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drunter_notation.cli import cli
from drunter_notation.errors import DnError
from drunter_notation.notation.formatter import format_record, needs_quotes, ordered_tags
from drunter_notation.notation.model import (
    GOALS,
    Ballot,
    Card,
    Choose,
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
    Tag,
    Tile,
    Turn,
    Vote,
    quick,
)
from drunter_notation.notation.parser import parse_bytes, parse_file, parse_text

ROOT = Path(__file__).resolve().parent.parent


def err(text: str) -> DnError:
    with pytest.raises(DnError) as e:
        parse_text(text, "t.dn")
    return e.value


# --- constructs -------------------------------------------------------------

def test_tags_keep_order_and_escapes():
    r = parse_text('[Event "Club \\"Nord\\" \\\\ 3"] [Players "Anna, Ben"] [Custom "x"]')
    assert [t.key for t in r.tags] == ["Event", "Players", "Custom"]
    assert r.tags[0].value == 'Club "Nord" \\ 3'
    assert r.players == ("Anna", "Ben")


def test_hand_counts_and_goals():
    r = parse_text('[Players "A, B"]\nhand A: W3x2 S3 W2x3\ngoals A: museum, all-threes\ngoals B: kirche, one-each')
    hand = r.setup[0]
    assert hand.tiles == (HandTile(Tile("W", 3), 2), HandTile(Tile("S", 3), 1), HandTile(Tile("W", 2), 3))
    assert r.setup[1].goals == ("museum", "all-threes")
    assert r.setup[2].goals == ("church", "one-each")  # German alias normalised


def test_turns_placements_corner_pass_choose():
    r = parse_text('[Players "A, B"]\n1. A S2 b1-c1\n2. B W1 n1 @o1\n3. A pass\nchoose\n4 . B R3 o14 - o12')
    t1, t2, t3, ch, t4 = r.events
    assert t1.placement == Placement(Tile("S", 2), (1, 0), (2, 0))
    assert t2.placement.corner == (14, 0) and t2.placement.end is None
    assert t3.placement is None and isinstance(ch, Choose)
    assert (t4.number, t4.placement.anchor, t4.placement.end) == (4, (14, 13), (14, 11))
    assert (t1.line, t1.column, t4.line, t4.column) == (2, 1, 6, 1)


def test_vote_ballots_jokers_and_claims():
    r = parse_text('[Players "A, B"]\n1. A W1 a14 vote { A: JAA JA, B: JEIN=no ?, } -> rejected 3:2'
                   .replace(", }", " }"))
    p = r.events[0].placement
    assert p.vote.ballots == (Ballot("A", (Card("JAA"), Card("JA"))), Ballot("B", (Card("JEIN", "no"), Card("?"))))
    assert p.outcome == Outcome(False, 3, 2)
    bare = parse_text('1. A W1 a14 vote { A: JEIN } -> accepted').events[0].placement
    assert bare.vote.ballots[0].cards == (Card("JEIN"),)  # a bare JEIN parses (B004 is the replay's)
    assert bare.outcome == Outcome(True)


def test_reveal_base_and_expert_and_score():
    r = parse_text('[Players "A, B"]\nreveal A: schule, B: church/all-fours\nscore A: 9, B: 12')
    assert r.reveal.entries == (RevealEntry("A", "school"), RevealEntry("B", "church", "all-fours"))
    assert r.score.entries == (ScoreEntry("A", 9), ScoreEntry("B", 12))


def test_quoted_names_unicode_bom_crlf():
    text = '\ufeff[Players "Jörg, W3"]\r\n1. Jörg W1 b1\r\n2. "W3" pass  # quoted: looks like a tile\r\n'
    r = parse_bytes(text.encode("utf-8"))
    assert r.events[0].player == "Jörg" and r.events[1].player == "W3"
    assert r.events[1].note == " quoted: looks like a tile"
    assert r.events[1].line == 3


def test_comments_stay_with_their_items():
    r = parse_text('# about the game\n[Players "A, B"]  # seats\n\n# opening\n1. A W1 b1\n# end\n')
    assert r.tags[0].comments == (" about the game",) and r.tags[0].note == " seats"
    assert r.events[0].comments == (" opening",)
    assert r.final_comments == (" end",)



def test_parses_in_threads_keep_their_own_comments():
    """The table app parses in a thread pool: records that Lark reads (an item spread over
    two lines) parsed at once in several threads each keep their own comments."""
    def record(n: int) -> str:
        return f'[Players "A, B"]  # tag {n}\n# before {n}\n1. A\n  pass  # turn {n}\n# end {n}\n'

    def comments(n: int) -> tuple[object, ...]:
        r = parse_text(record(n))
        return r.tags[0].note, r.events[0].comments, r.events[0].note, r.final_comments

    def expected(n: int) -> tuple[object, ...]:
        return f" tag {n}", (f" before {n}",), f" turn {n}", (f" end {n}",)

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns within each parse
    try:
        with ThreadPoolExecutor(max_workers=4) as pool:
            got = list(pool.map(comments, range(200)))
    finally:
        sys.setswitchinterval(switch)
    assert got == [expected(n) for n in range(200)]

@pytest.mark.parametrize("name", ["c7", "W3", "JA", "pass", "vote", "museum", "accepted", "Anna Maria", "x\"y"])
def test_reserved_or_odd_names_are_quoted(name):
    assert needs_quotes(name)
    rec = Record(tags=(Tag("Players", f"{name}, B"),), events=(Turn(1, name, None),))
    assert parse_text(format_record(rec)) == rec


@pytest.mark.parametrize("name", ["Anna", "Jörg", "a-b_c", "c7x", "W3a", "passe", "JAN"])
def test_plain_names_stay_bare(name):
    assert not needs_quotes(name)


# --- syntax errors: code, line, column ------------------------------------

@pytest.mark.parametrize("text,line,col,words", [
    ('[Players "A, B"]\n1. A W3 b1-', 2, 12, "expected a square like c7 after '-'"),
    ('[Players "A, B"]\n1. A W3 b1 - vote', 2, 14, "expected a square like c7 after '-'"),
    ('[Players "A B]', 1, 10, "unterminated quoted string"),
    ('[Players "A, B"]\n1. A W2x3 b1-c1', 2, 6, "tile count"),
    ('[Players "A, B"]\n1. A W1 b1 vote { A: JEIN=maybe }', 2, 26, "unexpected character '='"),
    ('[Players "A, B"]\nhand A W1', 2, 8, "expected ':'"),
    ('[Players "A, B"]\n1. A W1 a1 vote {}', 2, 18, "expected a player name"),
    ('[Players "A, B"]\n1. A X3 a1', 2, 6, "expected a tile like W3"),
])
def test_syntax_errors_have_code_line_column_and_words(text, line, col, words):
    e = err(text)
    d = e.diagnostic
    assert (d.code, d.line, d.column) == ("P001", line, col)
    assert words in d.message
    assert d.caret().splitlines()[1].index("^") == col - 1 + 4


def test_bad_input_classes(tmp_path):
    cases = {
        "binary": (b"\x00\x01\x02abc", "I003"),
        "latin1": ('[Players "J\xf6rg, B"]'.encode("latin-1"), "I002"),
        "empty": (b"", "I004"),
        "blank": (b"  \n\n", "I004"),
    }
    for name, (data, code) in cases.items():
        f = tmp_path / f"{name}.dn"
        f.write_bytes(data)
        with pytest.raises(DnError) as e:
            parse_file(f)
        assert e.value.diagnostic.code == code, name
    with pytest.raises(DnError) as e:
        parse_file(tmp_path)
    assert e.value.diagnostic.code == "I001" and "directory" in e.value.diagnostic.message
    latin = tmp_path / "latin1.dn"
    with pytest.raises(DnError) as e:
        parse_file(latin)
    assert (e.value.diagnostic.line, e.value.diagnostic.column) == (1, 12)


def test_cli_bad_inputs_are_one_line_no_traceback(tmp_path):
    (tmp_path / "bin.dn").write_bytes(b"\x00\xff")
    (tmp_path / "bad.dn").write_text('[Players "A, B"]\n1. A W3 b1-\n')
    runner = CliRunner()
    for args in (["validate", str(tmp_path / "bin.dn")], ["fmt", str(tmp_path / "bad.dn")],
                 ["validate", str(tmp_path / "missing.dn")], ["fmt", "--check", str(tmp_path)]):
        res = runner.invoke(cli, args)
        assert res.exception is None or isinstance(res.exception, SystemExit), args
        assert "Traceback" not in res.output
        assert res.exit_code in (1, 2)
    res = runner.invoke(cli, ["validate", str(tmp_path / "bad.dn")])
    assert f"{tmp_path / 'bad.dn'}:2:12: error[P001]" in res.output


# --- formatter ----------------------------------------------------------------

def test_fmt_check_and_write(tmp_path):
    f = tmp_path / "g.dn"
    f.write_text('[Players "A, B"]   [Event "E"]\n1.  A  W1 b1 # c\n')
    runner = CliRunner()
    res = runner.invoke(cli, ["fmt", "--check", str(f)])
    assert res.exit_code == 1 and str(f) in res.output
    res = runner.invoke(cli, ["fmt", "--write", str(f)])
    assert res.exit_code == 0
    assert f.read_text() == '[Event "E"]\n[Players "A, B"]\n\n1. A W1 b1  # c\n'
    assert runner.invoke(cli, ["fmt", "--check", str(f)]).exit_code == 0
    assert not [p for p in tmp_path.iterdir() if p.name != "g.dn"]  # no temp file left behind


@pytest.mark.parametrize("cls", [Tag, HandTile, Hand, Goals, Ballot, Vote, Outcome, Placement, Turn, Choose,
                                 RevealEntry, Reveal, ScoreEntry, Score, Record])
def test_model_values_act_as_plain_frozen_dataclasses(cls):
    """The model's faster __init__ (model._value) does what the generated one does."""
    fields = dataclasses.fields(cls)
    plain = dataclasses.dataclass(frozen=True, slots=True)(type(cls.__name__, (), {
        "__annotations__": {f.name: f.type for f in fields},
        **{f.name: dataclasses.field(default=f.default, compare=f.compare, repr=f.repr)
           for f in fields if f.default is not dataclasses.MISSING}}))
    assert inspect.signature(cls) == inspect.signature(plain)
    assert cls.__init__.__qualname__ == f"{cls.__name__}.__init__"
    args = [object() for _ in fields]
    required = [a for a, f in zip(args, fields, strict=True) if f.default is dataclasses.MISSING]
    values = lambda v: [getattr(v, f.name) for f in fields]
    for made in ([cls(*args), plain(*args)], [cls(*required), plain(*required)],
                 [cls(**{f.name: a for f, a in zip(fields, args, strict=True)}), plain(*args)]):
        assert values(made[0]) == values(made[1]) and repr(made[0]) == repr(made[1])
    value = cls(*args)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, fields[0].name, 1)
    assert getattr(dataclasses.replace(value, **{fields[0].name: 1}), fields[0].name) == 1
    with pytest.raises(TypeError):
        cls(*args, None)



@pytest.mark.parametrize("cls", [Tag, HandTile, Hand, Goals, Ballot, Vote, Outcome, Placement, Turn, Choose,
                                 RevealEntry, Reveal, ScoreEntry, Score, Record])
def test_quick_makes_the_same_values_as_the_class(cls):
    """model.quick's maker (a plain class's instance made a cls) gives what cls(...) gives."""
    make, fields = quick(cls), dataclasses.fields(cls)
    shape = lambda f: [(p.name, p.default, p.kind) for p in inspect.signature(f).parameters.values()]
    assert shape(make) == shape(cls)
    args = [f"v{i}" for i in range(len(fields))]  # hashable and picklable
    required = [a for a, f in zip(args, fields, strict=True) if f.default is dataclasses.MISSING]
    for made, plain in ((make(*args), cls(*args)), (make(*required), cls(*required)),
                        (make(**{f.name: a for f, a in zip(fields, args, strict=True)}), cls(*args))):
        assert type(made) is cls and made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
        assert [getattr(made, f.name) for f in fields] == [getattr(plain, f.name) for f in fields]
    value = make(*args)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, fields[0].name, 1)
    assert pickle.loads(pickle.dumps(value)) == value and copy.deepcopy(value) == value
    assert getattr(dataclasses.replace(value, **{fields[0].name: 1}), fields[0].name) == 1
    with pytest.raises(TypeError):
        make(*args, None)

def test_samples_are_canonical_and_idempotent():
    samples = sorted((ROOT / "replays").rglob("*.dn"))
    assert samples
    for path in samples:
        try:
            rec = parse_file(path)
        except DnError:
            continue  # the syntax-error samples
        text = format_record(rec)
        assert path.read_text(encoding="utf-8") == text, f"{path} is not canonical"
        assert parse_text(text) == rec
        assert format_record(parse_text(text)) == text


# --- hypothesis: round trips and robustness -----------------------------------

line_text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=12)
comment = line_text.map(str.rstrip)
names = st.one_of(st.sampled_from(["Anna", "Ben", "Cleo", "Dora", "Jörg", "W3", "c7", "pass", "Anna Maria"]),
                  line_text)
squares = st.tuples(st.integers(0, 25), st.integers(0, 98))
tiles = st.builds(Tile, st.sampled_from("WSR"), st.integers(1, 3))
cards = st.one_of(st.builds(Card, st.sampled_from(["JA", "JAA", "JAAA", "NE", "NEE", "NEEE", "?", "JEIN"]), st.none()),
                  st.builds(Card, st.just("JEIN"), st.sampled_from(["yes", "no"])))
ballots = st.builds(Ballot, names, st.lists(cards, min_size=1, max_size=3).map(tuple))
outcomes = st.one_of(st.builds(Outcome, st.booleans()),
                     st.builds(Outcome, st.booleans(), st.integers(0, 30), st.integers(0, 30)))
placements = st.builds(Placement, tiles, squares, st.none() | squares, st.none() | squares,
                       st.none() | st.builds(Vote, st.lists(ballots, min_size=1, max_size=4).map(tuple)),
                       st.none() | outcomes)
item_comments = dict(comments=st.lists(comment, max_size=2).map(tuple), note=st.none() | comment)
turns = st.builds(Turn, st.integers(1, 500), names, st.none() | placements, **item_comments)
events = st.lists(st.one_of(turns, st.builds(Choose, **item_comments)), max_size=6).map(tuple)
tag_keys = st.one_of(st.sampled_from(["Event", "Site", "Date", "Players", "Board", "Rules", "Variant", "Result"]),
                     st.from_regex(r"[A-Z][a-z]{1,8}", fullmatch=True).filter(lambda k: not needs_quotes(k)))
tags = st.lists(st.builds(Tag, tag_keys, line_text, **item_comments), min_size=1, max_size=5)
hands = st.builds(Hand, names, st.lists(st.builds(HandTile, tiles, st.integers(1, 12)), min_size=1,
                                        max_size=4).map(tuple), **item_comments)
goals = st.builds(Goals, names, st.tuples(st.sampled_from(GOALS), st.sampled_from(GOALS)), **item_comments)
reveals = st.builds(Reveal, st.lists(st.builds(RevealEntry, names, st.sampled_from(GOALS),
                                                st.none() | st.sampled_from(GOALS)), min_size=1, max_size=4)
                    .map(tuple), **item_comments)
scores = st.builds(Score, st.lists(st.builds(ScoreEntry, names, st.integers(0, 99)), min_size=1, max_size=4)
                   .map(tuple), **item_comments)
records = st.builds(Record, tags.map(lambda ts: tuple(ordered_tags(ts))),
                    st.lists(st.one_of(hands, goals), max_size=3).map(tuple), events,
                    st.none() | reveals, st.none() | scores, st.lists(comment, max_size=2).map(tuple))


@settings(max_examples=examples(300), suppress_health_check=[HealthCheck.too_slow])
@given(records)
def test_format_parse_round_trip(rec):
    text = format_record(rec)
    back = parse_text(text)
    assert back == rec
    assert format_record(back) == text


@settings(max_examples=examples(300))
@given(st.text(max_size=200))
def test_arbitrary_text_raises_only_dn_error(text):
    try:
        parse_text(text)
    except DnError as e:
        assert e.diagnostic.code in {"P001", "I003", "I004"}


@settings(max_examples=examples(300))
@given(st.binary(max_size=200))
def test_arbitrary_bytes_raise_only_dn_error(data):
    try:
        parse_bytes(data)
    except DnError as e:
        assert e.diagnostic.code.startswith(("P", "I"))


@settings(max_examples=examples(150))
@given(st.lists(st.sampled_from(['[Players "A, B"]', "1.", "A", "W3", "b1", "-", "c1", "vote", "{", "}", ":",
                                 "JA", ",", "->", "accepted", "2:1", "@a1", "pass", "reveal", "museum",
                                 "/", "score", "9", "#x\n", "\n", "choose", "hand", "W2x3"]), max_size=25))
def test_token_soup_raises_only_dn_error(tokens):
    try:
        parse_text(" ".join(tokens))
    except DnError as e:
        assert e.diagnostic.code in {"P001", "I004"} and e.diagnostic.line >= 1


# --- packaging ------------------------------------------------------------------

@pytest.mark.slow
def test_wheel_ships_grammar_and_boards(tmp_path):
    """A non-editable install outside the repo parses a record and loads the default board.

    The wheel goes into a folder of its own (pip --target) that comes first on the
    path, so this works the same in a venv, in a user's site and in the system Python;
    its dependencies (lark ...) come from the environment running the tests."""
    wheel_dir, target = tmp_path / "wheel", tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(wheel_dir), str(ROOT)], check=True)
    wheel = next(wheel_dir.glob("drunter_notation-*.whl"))
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
                    "--disable-pip-version-check", "--target", str(target), str(wheel)], check=True)
    rec = tmp_path / "g.dn"
    rec.write_text('[Players "A, B"]\n1. A S1 b1\n')
    code = ("import drunter_notation, sys; from drunter_notation.notation.parser import parse_file;"
            "from drunter_notation.data.boardfile import load_board;"
            f"assert drunter_notation.__file__.startswith({str(target)!r}), drunter_notation.__file__;"
            f"r = parse_file({str(rec)!r}); b = load_board('schilda'); print(len(r.events), b.width)")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(target)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["1", "15"]
