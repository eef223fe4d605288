"""What a caller gives the Game API is checked at the door: a tag that would not read back,
a value of the wrong type, a pop with nothing to undo -- each a DnError with its code
(docs/api.md, "Errors"), never a TypeError from deep inside or a record that cannot be read."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drunter_notation import DnError, Game
from drunter_notation.game.inputs import GAME_TAGS

REPLAY = "replays/legal-2p.dn"


def code(call) -> str:
    with pytest.raises(DnError) as e:
        call()
    return e.value.diagnostic.code


@pytest.mark.parametrize("tags", [
    {"Event": "x\ny"}, {"Event": "x\ry"}, {"Event": "a\x00b"}, {"Event": "a\ud800b"}, {"Event": "x" * 60_000},
    {"Players": "X, Y"}, {"Rules": "webley-en"}, {"Board": "../../etc/x.toml"}, {"Variant": "expert"},
    {"Result": "A"}, {"X Y]": "v\n]"}, {"X Y": "v"}, {"hand": "v"}, {"W3": "v"}, {"1st": "v"}, {"": "v"},
    {"Date": "yesterday"}, {f"E{i}": "a" for i in range(2000)},
])
def test_tags_that_would_not_read_back_are_h002(tags):
    assert code(lambda: Game.new(["A", "B"], seed=1, tags=tags)) == "H002"


@given(st.dictionaries(st.text(min_size=1, max_size=12), st.text(max_size=30), max_size=4))
def test_every_tag_a_new_game_takes_reads_back(tags):
    try:
        g = Game.new(["Anna", "Ben"], seed=3, tags=tags)
    except DnError as e:
        assert e.diagnostic.code == "H002"
        return
    g.push(g.legal_moves()[0])
    again = Game.from_dn(g.to_dn())
    assert again == g and again.players == g.players and again.ruleset.id == g.ruleset.id
    assert {t.key: t.value for t in again.tags} == tags and not set(tags) & set(GAME_TAGS)


def test_a_free_tag_and_a_date_are_kept():
    g = Game.new(["A", "B"], seed=1, tags={"Event": "Club \"night\" \\ 1", "Date": "2024-05-01", "Opening-Name": "é"})
    assert Game.from_dn(g.to_dn()).tags == g.tags


@pytest.mark.parametrize("call, expected", [
    (lambda: Game.new(None), "H001"),
    (lambda: Game.new([["A"], ["B"]]), "H001"),  # unhashable names: once a TypeError from set()
    (lambda: Game.new([{}, "B"]), "H001"),
    (lambda: Game.new("ABCD"), "H001"),  # a string's letters are no players
    (lambda: Game.new(iter(int, 1)), "H001"),  # an endless iterable is not read to its end
    (lambda: Game.new(["A", "B"], board=None), "H003"),
    (lambda: Game.new(["A", "B"], board=5), "H003"),
    (lambda: Game.new(["A", "B"], rules=None), "H004"),
    (lambda: Game.new(["A", "B"], rules=[]), "H004"),
    (lambda: Game.new(["A", "B"], hands={"A": {1: 1}, "B": {"W1": 1}}), "D001"),
    (lambda: Game.new(["A", "B"], hands=5), "D001"),
    (lambda: Game.new(["A", "B"], tags=[1]), "H002"),
    (lambda: Game.new(["A", "B"], tags={"X": 5}), "H002"),
    (lambda: Game.new(["A", "B"], tags={5: "x"}), "H002"),
    (lambda: Game.new(["A", "B"], seed=object()), "D001"),
    (lambda: Game.new(["A", "B"], seed=[1]), "D001"),
    (lambda: Game.new(["A", "B"], seed=1.5), "D001"),
    (lambda: Game.from_dn(None), "P001"),
    (lambda: Game.from_dn(5), "P001"),
    (lambda: Game.from_dn(b'[Players "A, B"]'), "P001"),
    (lambda: Game.from_position(None), "P002"),
    (lambda: Game.from_position(5), "P002"),
    (lambda: Game.from_position(b"dn1"), "P002"),
    (lambda: Game.from_position(["dn1"]), "P002"),
    (lambda: Game.from_position(Game.new(["A", "B"]).position(), base_dir=5), "H003"),
    (lambda: Game.new(["A", "B"], seed=1).push(None), "P001"),
    (lambda: Game.new(["A", "B"], seed=1).push(5), "P001"),
    (lambda: Game.new(["A", "B"], seed=1).push(b"S2 b1-c1"), "P001"),
    (lambda: Game.new(["A", "B"], seed=1).push("S2 b1-c1", vote={"A": ["JEIN"], "B": ["NE"]}, jein=[1]), "B004"),
    (lambda: Game.new(["A", "B"], variant="expert", seed=1).push("choose", keep=[1]), "X003"),
    (lambda: Game.new(["A", "B"], seed=1).pop(), "U001"),
    (lambda: Game.new(["A", "B"], seed=1).check_ballot(["A"], ["JA"]), "B002"),  # once a TypeError: unhashable
    (lambda: Game.new(["A", "B"], seed=1).check_ballot({}, ["JA"]), "B002"),
    (lambda: Game.from_position(Game.new(["A", "B"]).position()).pop(), "U001"),
])
def test_a_wrong_value_at_the_door_is_a_dn_error_with_its_code(call, expected):
    assert code(call) == expected


def test_right_types_still_work():
    from pathlib import Path

    g = Game.new(("A", "B"), board="schilda", rules="hig-1991", seed="seven")
    assert Game.from_position(g.position(), base_dir=Path(".")) == g
    assert Game.from_position(g.position(), base_dir=".") == g


BASE = ("dn1 schilda hig-1991 base Anna,Ben 3 S2b1-c1@a1:1,W1n1@o1:2 - "
        "W3x3W2x7W1x7S3x2S1x3R3R2x4R1x2/W3x3W2x5W1x4S3S2x5S1x3R3x2R2x2R1x4 ./. -")


def field(index: int, value: str) -> str:
    parts = BASE.split(" ")
    parts[index] = value
    return " ".join(parts)


@pytest.mark.parametrize("text", [
    field(5, "\u0663"), field(5, "\uff13"),  # digits of other scripts: the reader takes ASCII digits only
    field(6, "S2b1-c1@a1:\uff11,W1n1@o1:2"), field(7, "a1:\u0661"), field(8, "W3x\uff13/W3"),
    field(8, "W3x100/W3"), field(8, "W3x0/W3"), field(8, "W3W3/W3"),
    field(7, "a1:1,a1:1"), field(6, "."), field(7, "."),
    field(4, "A%FF,Ben"), field(4, "A%2CB,Ben"), field(4, "%20A,Ben"),
])
def test_a_position_string_is_read_as_strictly_as_a_record(text):
    assert code(lambda: Game.from_position(text)) == "P002"


def test_the_position_strings_a_game_writes_still_read_back():
    g = Game.from_position(BASE)
    assert g.position() == BASE and Game.from_position(g.position()) == g
    assert Game.from_position(field(7, "a1:1")).position() == field(7, "a1:1")


def test_a_too_long_position_string_is_refused_before_it_is_split():
    import tracemalloc

    text = "dn1" + " x" * 500_000  # a million characters: half a million fields, once split before the length was read
    tracemalloc.start()
    try:
        with pytest.raises(DnError) as e:
            Game.from_position(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert e.value.diagnostic.code == "P002" and "at most 2,000,000 characters in 11 fields" in e.value.diagnostic.message
    assert peak < 3 * len(text)  # the string stripped once, no list of its fields


def test_the_longest_names_a_record_holds_make_a_position_that_reads_back():
    """The names' line of a record at its limit, in characters %-encoded in the most: the position string
    holds them; one character more and the game is refused at the start, as the record would be."""
    from drunter_notation.notation.values import MAX_LINE_CHARS

    each = (MAX_LINE_CHARS - len('[Players ""]') - 2 * 3) // 4
    g = Game.new(["\U0001f600" * each, "\U0001f601" * each, "\U0001f602" * each, "\U0001f603" * each], seed=1)
    g.push(g.legal_moves()[0])
    assert Game.from_position(g.position()) == g and Game.from_dn(g.to_dn()) == g
    with pytest.raises(DnError) as e:
        Game.new(["\U0001f600" * each, "\U0001f601" * each, "\U0001f602" * each,
                  "\U0001f603" * (each + 3)])  # a line of 100,001 characters
    assert e.value.diagnostic.code == "H001"


def test_a_board_path_a_tag_cannot_hold_is_refused(tmp_path):
    board = tmp_path / "new\nline.toml"
    board.write_bytes((Path(__file__).parents[1] / "replays" / "boards" / "tiny.toml").read_bytes())
    with pytest.raises(DnError) as e:
        Game.new(["A", "B"], board=str(board))
    assert e.value.diagnostic.code == "H003" and "line break" in e.value.diagnostic.message


def test_no_push_makes_a_position_that_does_not_read_back():
    """A position of turn 9,999 played on: the turn that would make the next one unwritable is refused."""
    from drunter_notation import DnError, Game

    game = Game.from_position("dn1 schilda hig-1991 base Anna,Ben 9999 S2b1-c1@a1:1,W1n1@o1:2 - - ./. -")
    game.push(next(m for m in game.legal_moves() if not m.needs_vote))
    assert Game.from_position(game.position()).position() == game.position()
    before = game.position()
    for move in (next(m for m in game.legal_moves() if not m.needs_vote), "pass"):
        with pytest.raises(DnError) as refused:
            game.push(move)
        assert refused.value.diagnostic.code == "T001" and "9,999" in refused.value.diagnostic.message
    assert game.position() == before


def test_no_record_reaches_a_position_that_does_not_read_back():
    """A record of 10,000 passes without hands: its last turn is refused where it stands, and the position before it
    reads back."""
    turns = [f"{i}. {('Anna', 'Ben')[(i - 1) % 2]} pass\n" for i in range(1, 10_001)]
    with pytest.raises(DnError) as refused:
        Game.from_dn('[Players "Anna, Ben"]\n\n' + "".join(turns))
    error = refused.value.diagnostic
    assert (error.code, error.line, error.turn) == ("T001", 10_002, 10_000) and "9,999" in error.message
    game = Game.from_dn('[Players "Anna, Ben"]\n\n' + "".join(turns[:-1]))
    assert Game.from_position(game.position()).position() == game.position() and game.position().split()[5] == "10000"
