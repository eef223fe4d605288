"""Hand-written rule tests: whole records replayed on small boards.

Each test writes a small board into ``tmp_path``, replays a DN record with
:func:`drunter_notation.replay.replay` and checks the verdict: the code and line of
the first error (and key words of its message), or the position reached.

The drawings show the position with row 1 at the bottom. Legend: ``S W R`` the corners
(street, wall, river; a gang stands there until it has moved), ``G`` a gang that has
left its corner, ``X`` where a gang was removed (A5), ``s w r`` squares covered by a
street/wall/river tile, ``=`` a bridge field (the middle of a triple), ``T`` a toilet,
``M2 C1 ...`` buildings with their values, ``.`` a free square, ``*`` where the tile
under test goes.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from drunter_notation.errors import DnError
from drunter_notation.load import judge
from drunter_notation.notation.model import Tile, parse_square, square_name
from drunter_notation.notation.parser import parse_text
from drunter_notation.position import parse_position
from drunter_notation.replay import Timeline

RULESETS = ("hig-1991", "webley-en", "deskovehry-cz")


# -- helpers ---------------------------------------------------------------------------

def write_board(tmp_path: Path, name: str, width: int, height: int, *, toilets=(), buildings=None,
                box=None) -> str:
    """A board file ``name.toml`` in ``tmp_path``: street from a1, walls from the south-east
    and north-west corners, river from the north-east corner (as on the default board)."""
    last = chr(ord("a") + width - 1)
    lines = [
        'format = "drunter-board/1"', f'id = "{name}"', f'name = "{name}"',
        f"width = {width}", f"height = {height}", 'note = "a test board"',
        "toilets = [" + ", ".join(f'"{t}"' for t in toilets) + "]", "",
        "[corners]", 'a1 = "street"', f'{last}1 = "wall"', f'a{height} = "wall"', f'{last}{height} = "river"', "",
        "[buildings]",
    ]
    for kind, squares in (buildings or {"museum": {"c3": 3}}).items():
        lines.append(f"{kind} = {{ " + ", ".join(f"{sq} = {v}" for sq, v in squares.items()) + " }")
    if box is not None:
        lines += ["", "[box]"] + [f"{kind} = [{', '.join(map(str, counts))}]" for kind, counts in box.items()]
    (tmp_path / f"{name}.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return f"{name}.toml"


def play(tmp_path: Path, text: str, *, rules: str | None = None, keep_states: bool = False) -> Timeline:
    """Replay the record ``text`` as if it were the file ``tmp_path/x.dn``."""
    text = textwrap.dedent(text).lstrip("\n")
    return judge(parse_text(text), path=str(tmp_path / "x.dn"), rules=rules, keep_states=keep_states)


def line_of(t: Timeline, number: int) -> int:
    """The line of turn ``number`` in the record."""
    return next(ev.line for ev in t.record.turns if ev.number == number)


def error(t: Timeline):
    """The one error of a record that breaks a rule (replay stops at the first)."""
    assert len(t.errors) == 1, t.errors
    return t.errors[0]


def assert_error(t: Timeline, code: str, line: int, *words: str, rule: str | None = None):
    e = error(t)
    assert (e.code, e.line) == (code, line), e
    for w in words:
        assert w in e.message, (w, e.message)
    if rule is not None:
        assert e.rule == rule, e
    return e


def assert_valid(t: Timeline):
    assert t.valid, t.errors


def gang(t: Timeline, corner: str, step: int | None = None) -> str | None:
    """Where the gang of the track from ``corner`` stands (after ``step``, 1-based, with
    ``keep_states``; else at the end); None once removed."""
    st = t.state if step is None else t.steps[step - 1].state
    g = st.gangs[parse_square(corner)]
    return None if g is None else square_name(g)


def removed(t: Timeline, step: int) -> list[str]:
    return [square_name(c) for c in t.steps[step - 1].removed]


# -- A6: bridges ------------------------------------------------------------------------

@pytest.fixture
def five(tmp_path):
    return write_board(tmp_path, "five", 5, 5)


def test_bridge_passed_by_the_track_that_built_it(tmp_path, five):
    # After turn 4 (the street gang G on c3 stands next to the bridge field b3):
    #
    #   5  W  .  .  .  R
    #   4  .  s  s  .  .
    #   3  *  =  G  .  .      5. S1 a3: the street passes under b3 to a3 (A6)
    #   2  .  s  .  .  .
    #   1  S  s  .  .  W
    #      a  b  c  d  e
    t = play(tmp_path, f"""
        [Players "Anna, Ben"]
        [Board "{five}"]

        1. Anna S1 b1
        2. Ben S3 b2-b4
        3. Anna S1 c4
        4. Ben S1 c3
        5. Anna S1 a3
    """)
    assert_valid(t)
    move = t.steps[4].move
    assert move.bridges_passed == 1
    assert move.direction == (-1, 0)  # westwards, the direction it passed the bridge in
    assert gang(t, "a1") == "a3"


def test_bridge_passed_by_another_kind_of_track(tmp_path, five):
    # The wall from a5 comes down to a3; the bridge b3 belongs to the street:
    #
    #   5  W  .  .  .  R
    #   4  w  s  G  .  .      (G: the street gang on c4)
    #   3  G  =  *  .  .      4. W1 a4, 5. W1 a3, 6. W1 c3: under the street's bridge
    #   2  .  s  .  .  .
    #   1  S  s  .  .  W
    t = play(tmp_path, f"""
        [Players "Anna, Ben"]
        [Board "{five}"]

        1. Anna S1 b1
        2. Ben S3 b2-b4
        3. Anna S1 c4
        4. Ben W1 a4
        5. Anna W1 a3
        6. Ben W1 c3
    """)
    assert_valid(t)
    assert t.steps[5].move.bridges_passed == 1
    assert gang(t, "a5") == "c3"


def test_beyond_a_bridge_the_tile_runs_on_in_the_same_direction(tmp_path, five):
    # Same position as above; W2 c3-c2 starts beyond the bridge but turns south: A002.
    t = play(tmp_path, f"""
        [Players "Anna, Ben"]
        [Board "{five}"]

        1. Anna S1 b1
        2. Ben S3 b2-b4
        3. Anna S1 c4
        4. Ben W1 a4
        5. Anna W1 a3
        6. Ben W2 c3-c2
    """)
    assert_error(t, "A002", line_of(t, 6), "runs south", "east")


def test_only_a_bridge_field_can_be_passed(tmp_path, five):
    # b2 is the ANCHOR of the street triple b2-b4, not its bridge: the street gang on
    # c2 cannot pass under it to a2.
    #
    #   5  W  .  .  .  R
    #   4  .  s  s  .  .
    #   3  .  =  s  .  .
    #   2  *  s  G  .  .      6. S1 a2
    #   1  S  s  .  .  W
    t = play(tmp_path, f"""
        [Players "Anna, Ben"]
        [Board "{five}"]

        1. Anna S1 b1
        2. Ben S3 b2-b4
        3. Anna S1 c4
        4. Ben S1 c3
        5. Anna S1 c2
        6. Ben S1 a2
    """)
    assert_error(t, "A001", line_of(t, 6), "no street gang reaches a2", rule="A2")


# -- A6: a run of two bridges --------------------------------------------------------

RUN = """
    [Players "Anna, Ben"]
    [Board "{board}"]

    1. Anna S1 b1
    2. Ben S1 c1
    3. Anna S3 c2-c4
    4. Ben S1 c5
    5. Anna S1 d5
    6. Ben S3 d4-d2
    7. Anna S1 e2
    8. Ben S1 e3
"""


@pytest.fixture
def six(tmp_path):
    return write_board(tmp_path, "six", 6, 6)


def test_run_of_two_bridges_refused_under_hig_1991(tmp_path, six):
    # After turn 8 the street gang G on e3 faces two bridge fields in a row, d3 and c3:
    #
    #   6  W  .  .  .  .  R
    #   5  .  .  s  s  .  .
    #   4  .  .  s  s  .  .
    #   3  .  *  =  =  G  .      9. S1 b3: under d3 and c3 in one go
    #   2  .  .  s  s  s  .
    #   1  S  s  s  .  .  W
    #      a  b  c  d  e  f
    t = play(tmp_path, RUN.format(board=six) + "    9. Anna S1 b3\n")
    e = assert_error(t, "A001", line_of(t, 9), "2 bridge fields in a row", "d3", "c3", "one bridge field",
                     rule="A6")
    assert e.column == 1
    assert e.citation and "A.6" in e.citation


def test_run_of_two_bridges_refused_under_webley(tmp_path, six):
    t = play(tmp_path, RUN.format(board=six) + "    9. Anna S1 b3\n", rules="webley-en")
    assert_error(t, "A001", line_of(t, 9), rule="A6")


def test_run_of_two_bridges_allowed_under_deskovehry_cz(tmp_path, six):
    t = play(tmp_path, RUN.format(board=six) + "    9. Anna S2 b3-a3\n", rules="deskovehry-cz")
    assert_valid(t)
    assert t.ruleset.id == "deskovehry-cz"
    assert t.steps[8].move.bridges_passed == 2
    assert gang(t, "a1") == "a3"


def test_a_way_under_two_bridges_keeps_a_gang_only_where_runs_are_allowed(tmp_path, six):
    # Turns 9-13 close e4 (river) and f3 (wall) around the street gang on e3; its only
    # way left is under d3 and c3 to b3. The wall gang on f3 is trapped too (f2, f4, e3).
    # Under hig-1991 (drawn) both go; under deskovehry-cz the street gang on e3 stays.
    #
    #   6  W  .  .  .  .  R
    #   5  .  .  s  s  .  r
    #   4  .  .  s  s  G  r      (G: the river gang on e4)
    #   3  .  .  =  =  X  X      13. W1 f3
    #   2  .  .  s  s  s  w
    #   1  S  s  s  .  .  W
    text = RUN.format(board=six) + """\
    9. Anna R1 f5
    10. Ben R1 f4
    11. Anna R1 e4
    12. Ben W1 f2
    13. Anna W1 f3
"""
    hig = play(tmp_path, text, rules="hig-1991")
    assert_valid(hig)
    assert removed(hig, 13) == ["a1", "f1"]
    assert gang(hig, "a1") is None
    cz = play(tmp_path, text, rules="deskovehry-cz")
    assert_valid(cz)
    assert removed(cz, 13) == ["f1"]
    assert gang(cz, "a1") == "e3"


# -- A5: trapped gangs ----------------------------------------------------------------

TRAP = """
    [Players "Anna, Ben"]
    [Board "{board}"]

    1. Anna S1 b1
    2. Ben S3 b2-b4
    3. Anna S1 c4
    4. Ben S1 c3
    5. Anna W1 d1
    6. Ben W1 d2
    7. Anna W1 c2
    8. Ben R1 e4
    9. Anna R1 e3
    10. Ben R1 d3
"""


def test_gang_kept_alive_only_by_a_way_under_a_bridge(tmp_path, five):
    # After turn 10 the street gang G on c3 is closed in on three sides (c4 street,
    # c2 wall, d3 river); its one way out is under the bridge b3 to a3, so it stays.
    # (The wall gang from e1 stands on c2, the river gang on d3.)
    #
    #   5  W  .  .  .  R
    #   4  .  s  s  .  r
    #   3  .  =  G  r  r
    #   2  .  s  w  w  .
    #   1  S  s  .  w  W
    t = play(tmp_path, TRAP.format(board=five), keep_states=True)
    assert_valid(t)
    assert all(not s.removed for s in t.steps)
    assert gang(t, "a1") == "c3"
    assert gang(t, "e1") == "c2" and gang(t, "e5") == "d3"


def test_gang_trapped_by_another_tracks_placement(tmp_path, five):
    # 11. W1 a4, 12. W1 a3: the wall from a5 covers a3, the street gang's last way
    # (under b3). The STREET gang is removed by the WALL's placement:
    #
    #   5  W  .  .  .  R
    #   4  w  s  s  .  r
    #   3  G  =  X  r  r
    #   2  .  s  w  w  .
    #   1  S  s  .  w  W
    t = play(tmp_path, TRAP.format(board=five) + "    11. Anna W1 a4\n    12. Ben W1 a3\n", keep_states=True)
    assert_valid(t)
    assert removed(t, 11) == []
    assert removed(t, 12) == ["a1"]
    assert gang(t, "a1") is None and gang(t, "a5") == "a3"
    assert t.state.removed_on[parse_square("a1")] == 12


def test_a_removed_track_takes_no_tile(tmp_path, five):
    t = play(tmp_path, TRAP.format(board=five) + "    11. Anna W1 a4\n    12. Ben W1 a3\n    13. Anna S1 a2\n")
    # The street is finished: no live street track is left.
    assert_error(t, "A001", line_of(t, 13), "no street track is live")
    t = play(tmp_path, TRAP.format(board=five) + "    11. Anna W1 a4\n    12. Ben W1 a3\n    13. Anna S1 a2 @a1\n")
    assert_error(t, "A006", line_of(t, 13), "finished", "removed on turn 12")


def test_gang_on_its_corner_trapped_by_other_tracks(tmp_path, five):
    # The wall gang never leaves e1: the street covers d1, then the river covers e2.
    # It is removed on turn 2, by the river's tile.
    #
    #   5  W  .  .  .  R
    #   4  .  .  .  .  r
    #   3  .  .  .  .  =
    #   2  .  .  .  .  G
    #   1  S  s  =  s  X
    t = play(tmp_path, f"""
        [Players "Anna, Ben"]
        [Board "{five}"]

        1. Anna S3 b1-d1
        2. Ben R3 e4-e2
        3. Anna W1 d2
    """)
    assert removed(t, 1) == []
    assert removed(t, 2) == ["e1"]
    # d2 touches the street and river gangs; the only wall gang left is on a5:
    assert_error(t, "A001", line_of(t, 3), "a wall tile only extends a wall", rule="A1")


def test_gang_trapped_by_its_own_tile(tmp_path, five):
    # The street's first tile S1 b1 ends on a square closed by the walls (c1, b2) and
    # the corner a1: the street gang is removed on the turn it arrives (A5).
    #
    #   5  W  .  .  .  R
    #   4  w  .  .  .  .
    #   3  =  .  .  .  .
    #   2  w  G  .  .  .      G on b2: the wall gang from a5
    #   1  S  *  G  w  W      G on c1: the wall gang from e1; 4. S1 b1
    #      a  b  c  d  e
    t = play(tmp_path, f"""
        [Players "Anna, Ben"]
        [Board "{five}"]

        1. Anna W2 d1-c1
        2. Ben W3 a4-a2
        3. Anna W1 b2
        4. Ben S1 b1
    """, keep_states=True)
    assert_valid(t)
    assert [removed(t, n) for n in (1, 2, 3)] == [[], [], []]
    assert removed(t, 4) == ["a1"]
    assert gang(t, "a1") is None
    assert gang(t, "e1") == "c1" and gang(t, "a5") == "b2"  # both still have c2
    assert parse_square("b1") in t.state.covered  # the tile stays; only the gang goes


# -- B: votes --------------------------------------------------------------------------

@pytest.fixture
def voteboard(tmp_path):
    # 5  W  .  .  .  R
    # 4  .  .  .  .  .
    # 3  .  .  M  .  .
    # 2  .  .  .  .  .
    # 1  S  T  T  T  W      toilets b1, c1, d1 along the street's way
    return write_board(tmp_path, "votes", 5, 5, toilets=("b1", "c1", "d1"),
                       box={"wall": [0, 2, 2], "street": [0, 0, 2], "river": [0, 2, 0]})


VOTE_HEAD = """
    [Players "Anna, Ben"]
    [Board "{board}"]
    [Rules "{rules}"]
"""
HANDS = """
    hand Anna: W2 R2 S1x2
    hand Ben: W2 R2 W1x2
"""


def test_rejected_vote_tile_back_to_hand_gang_unmoved(tmp_path, voteboard):
    # 1. S1 b1 covers the toilet b1 and is voted down 1:2: the tile goes back to Anna,
    # the street gang stays on a1, nothing is covered. Ben's turn follows (no second
    # try, B6). On turn 3 Anna lays the same tile again; this time it stands.
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules="hig-1991") + HANDS + """
    1. Anna S1 b1 vote { Anna: JA, Ben: NEE } -> rejected 1:2
    2. Ben W1 e2
    3. Anna S1 b1 vote { Anna: JAAA, Ben: NE } -> accepted 3:1
    """, keep_states=True)
    assert_valid(t)
    first = t.steps[0]
    assert first.accepted is False and (first.tally.yes, first.tally.no) == (1, 2)
    assert first.state.hands["Anna"][Tile("S", 1)] == 2
    assert gang(t, "a1", 1) == "a1"
    assert parse_square("b1") not in first.state.covered
    assert first.state.to_move == "Ben"
    assert t.steps[2].accepted is True
    assert gang(t, "a1", 3) == "b1"
    assert t.state.hands["Anna"][Tile("S", 1)] == 1
    assert t.summary()["rejected"] == 1 and t.summary()["placements"] == 2


def test_no_second_try_after_a_rejected_vote(tmp_path, voteboard):
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules="hig-1991") + HANDS + """
    1. Anna S1 b1 vote { Anna: JA, Ben: NEE } -> rejected 1:2
    2. Anna S1 b1 vote { Anna: JAA, Ben: NE } -> accepted 2:1
    """)
    assert_error(t, "T002", line_of(t, 2), "Ben")


def test_a_rejected_tile_is_voted_on_afresh(tmp_path, voteboard):
    # The second attempt needs a vote of its own (B1).
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules="hig-1991") + HANDS + """
    1. Anna S1 b1 vote { Anna: JA, Ben: NEE } -> rejected 1:2
    2. Ben W1 e2
    3. Anna S1 b1
    """)
    assert_error(t, "B001", line_of(t, 3), "toilet", "b1", "vote must be held")


TIE = "    1. Anna S1 b1 vote {{ Anna: JA, Ben: NE }} -> {claim}\n"


def test_tie_vote_accepted_under_hig_1991(tmp_path, voteboard):
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules="hig-1991") + TIE.format(claim="accepted 1:1"))
    assert_valid(t)
    assert t.steps[0].accepted is True
    assert gang(t, "a1") == "b1"


def test_tie_vote_accepted_under_deskovehry_cz(tmp_path, voteboard):
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules="deskovehry-cz") + TIE.format(claim="accepted 1:1"))
    assert_valid(t)


def test_tie_vote_rejected_under_webley(tmp_path, voteboard):
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules="webley-en") + TIE.format(claim="accepted 1:1"))
    e = assert_error(t, "B005", line_of(t, 1), "accepted 1:1", "rejected", rule="B5")
    # reported at the claim (docs/notation.md, where a finding is reported), not at the turn's first token
    assert e.column == t.record.turns[0].placement.outcome.column > 1
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules="webley-en") + TIE.format(claim="rejected 1:1"),
             keep_states=True)
    assert_valid(t)
    assert t.steps[0].accepted is False
    assert gang(t, "a1") == "a1"


@pytest.mark.parametrize("rules", RULESETS)
def test_all_abstain_is_accepted_under_every_ruleset(tmp_path, voteboard, rules):
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules=rules)
             + "    1. Anna S1 b1 vote { Anna: ?, Ben: ? } -> accepted 0:0\n")
    assert_valid(t)
    assert t.steps[0].accepted is True
    assert (t.steps[0].tally.yes, t.steps[0].tally.no) == (0, 0)


@pytest.mark.parametrize("rules", RULESETS)
def test_all_abstain_claimed_rejected_is_b005(tmp_path, voteboard, rules):
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules=rules)
             + "    1. Anna S1 b1 vote { Anna: ?, Ben: ? } -> rejected\n")
    assert_error(t, "B005", line_of(t, 1), "counts 0:0", "accepted")


def test_card_spent_in_an_earlier_vote(tmp_path, voteboard):
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules="hig-1991") + """
    1. Anna S1 b1 vote { Anna: JAA, Ben: NE } -> accepted 2:1
    2. Ben S1 c1 vote { Ben: JA, Anna: NEE } -> rejected 1:2
    3. Anna S1 c1 vote { Anna: JAA, Ben: NEEE } -> rejected 2:3
    """)
    assert_error(t, "B003", line_of(t, 3), "Anna no longer holds JAA", "spent in the vote on turn 1", rule="B7")


def test_card_spent_by_the_other_player_is_not_mine(tmp_path, voteboard):
    # Every player has a set of their own: Ben's JAA is still his after Anna spent hers.
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules="hig-1991") + """
    1. Anna S1 b1 vote { Anna: JAA, Ben: NE } -> accepted 2:1
    2. Ben S1 c1 vote { Ben: JAA, Anna: NEE } -> accepted 2:2
    """)
    assert_valid(t)


def test_card_twice_in_one_ballot(tmp_path, voteboard):
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules="hig-1991") + """
    1. Anna S1 b1 vote { Anna: JA, Ben: NE NE } -> rejected 1:2
    """)
    assert_error(t, "B003", line_of(t, 1), "Ben lays NE twice in one ballot", rule="B7")


def test_abstain_card_returns_after_every_vote(tmp_path, voteboard):
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules="hig-1991") + """
    1. Anna S1 b1 vote { Anna: ?, Ben: ? } -> accepted 0:0
    2. Ben S1 c1 vote { Ben: ?, Anna: ? } -> accepted 0:0
    3. Anna S1 d1 vote { Anna: ? JA, Ben: ? } -> accepted 1:0
    """)
    assert_valid(t)
    assert t.state.cards["Anna"]["?"] == 1 and t.state.cards["Ben"]["?"] == 1
    assert "JA" not in t.state.cards["Anna"] or t.state.cards["Anna"]["JA"] == 0


def test_every_card_but_the_abstain_card_is_spent(tmp_path, voteboard):
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules="hig-1991") + """
    1. Anna S1 b1 vote { Anna: JAAA JEIN=yes, Ben: NEEE NEE ? } -> accepted 5:5
    """)
    assert_valid(t)
    left = {p: sorted(c for c, n in t.state.cards[p].items() if n) for p in ("Anna", "Ben")}
    assert left["Anna"] == sorted(["JA", "JAA", "NE", "NEE", "NEEE", "?"])
    assert left["Ben"] == sorted(["JA", "JAA", "JAAA", "NE", "JEIN", "?"])


def test_ballots_in_voting_order_under_hig_but_any_order_under_webley(tmp_path, voteboard):
    rec = "    1. Anna S1 b1 vote { Ben: NE, Anna: JAA } -> accepted 2:1\n"
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules="hig-1991") + rec)
    assert_error(t, "B002", line_of(t, 1), "the placer first")
    assert_valid(play(tmp_path, VOTE_HEAD.format(board=voteboard, rules="webley-en") + rec))


# -- T2: Legezwang -----------------------------------------------------------------------

@pytest.fixture
def four(tmp_path):
    #   4  W  .  .  R
    #   3  .  M2 C1 .
    #   2  .  T  T2 .      b2 a toilet (T), c2 a tavern worth 2
    #   1  S  .  .  W
    #      a  b  c  d
    return write_board(tmp_path, "four", 4, 4, toilets=("b2",),
                       buildings={"museum": {"b3": 2}, "tavern": {"c2": 2}, "church": {"c3": 1}},
                       box={"wall": [0, 2, 2], "street": [0, 1, 1], "river": [0, 1, 1]})


GAME_HEAD = """
    [Players "Anna, Ben"]
    [Board "{board}"]
{tags}
    hand Anna: W2 S2 S1 R1
    hand Ben: W2 R2 W1x2

"""
# A complete game on the 4x4 board. Position after turn 6 and at the end:
#
#   4  W  G  .  R        wall gang on b4               4  W  w  G  R    wall gang on c4
#   3  w  w  C1 r                                      3  w  w  C1 r
#   2  w  w  G  X        street gang on c2             2  w  w  G  X    street gang on c2
#   1  S  s  s  X                                      1  S  s  s  X
#      a  b  c  d                                         a  b  c  d
#
# 2. R2 d3-d2 traps the wall gang on its corner d1 (c1 street, d2 river).
# 4. W1 b2 covers the toilet b2: the vote accepts it.
# 5. S1 c2 traps the river gang on d2 (c2 street, d3 river, d1 a corner).
# 7. Anna holds only R1 and the river is finished: she must pass.
# 8. W1 c4: both live gangs could still go to c3, but nobody holds a wall or street
#    tile any more: the game is over. Only c3 (church 1) is left standing.
TURNS = [
    "1. Anna S2 b1-c1",
    "2. Ben R2 d3-d2",
    "3. Anna W2 a3-a2",
    "4. Ben W1 b2 vote {{ Ben: {ben}, Anna: {anna} }} -> accepted",
    "5. Anna S1 c2",
    "6. Ben W2 b3-b4",
    "7. Anna pass",
    "8. Ben W1 c4",
]


def game(board: str, turns: int = 8, *, tags: str = "", end: str = "", ben_votes: str = "JA",
         anna_votes: str = "NE") -> str:
    body = "\n".join("    " + t.format(ben=ben_votes, anna=anna_votes) for t in TURNS[:turns])
    return GAME_HEAD.format(board=board, tags=tags) + body + "\n" + end


def test_complete_game_with_a_forced_pass_is_valid(tmp_path, four):
    t = play(tmp_path, game(four, tags='    [Result "Anna"]\n',
                            end="\n    reveal Anna: church, Ben: museum\n    score Anna: 1, Ben: 0\n"),
             keep_states=True)
    assert_valid(t)
    assert removed(t, 2) == ["d1"] and removed(t, 5) == ["d4"]
    assert t.steps[6].move is None  # the pass
    assert t.scores == {"Anna": 1, "Ben": 0} and t.winners == ("Anna",)
    s = t.summary()
    assert (s["turns"], s["placements"], s["passes"], s["votes"]) == (8, 7, 1, 1)
    assert [d.code for d in t.diagnostics] == []


def test_pass_while_a_placement_exists_is_t004(tmp_path, four):
    # Turn 5: Anna could lay S1 c2 (the street gang on c1 has c2 free).
    text = game(four, 4) + "    5. Anna pass\n"
    t = play(tmp_path, text)
    assert_error(t, "T004", line_of(t, 5), "Anna passes but could lay", "S1 c2", rule="T2")


def test_pass_when_the_only_placements_cover_a_toilet_is_t004(tmp_path, four):
    # Turn 4: Ben's wall gang on a2 can only go to the toilet b2 (W1 b2, W2 b2-c2).
    # A placement that would be voted on still counts for Legezwang (option toilet_counts_for_legezwang).
    text = game(four, 3) + "    4. Ben pass\n"
    t = play(tmp_path, text)
    e = assert_error(t, "T004", line_of(t, 4), "Ben passes but could lay", "b2")
    assert e.column == 1


def test_forced_pass_leaves_the_position_unchanged(tmp_path, four):
    t = play(tmp_path, game(four, 7), keep_states=True)
    assert_valid(t)
    before, after = t.steps[5].state, t.steps[6].state
    assert before.covered == after.covered and before.gangs == after.gangs
    assert after.to_move == "Ben"
    assert [d.code for d in t.diagnostics] == ["W002"]


def test_turn_after_the_end_of_the_game_is_t005(tmp_path, four):
    for extra in ("    9. Anna pass\n", "    9. Anna R1 d3\n"):
        t = play(tmp_path, game(four) + extra)
        assert_error(t, "T005", line_of(t, 9), "game is already over", rule="E1")


def test_t005_comes_after_the_turn_number_and_player_checks(tmp_path, four):
    t = play(tmp_path, game(four) + "    9. Ben pass\n")
    assert_error(t, "T002", line_of(t, 9))
    t = play(tmp_path, game(four) + "    10. Anna pass\n")
    assert_error(t, "T001", line_of(t, 10))


# -- E: the end of the game ---------------------------------------------------------------

def test_reveal_while_a_player_can_still_place_is_e002(tmp_path, four):
    # After turn 7 Ben still holds W1, which fits at c4.
    t = play(tmp_path, game(four, 7, end="\n    reveal Anna: church, Ben: museum\n"))
    e = assert_error(t, "E002", t.record.reveal.line, "not over", "Ben can still place", rule="E1")
    assert e.column == 1


def test_reveal_before_the_last_possible_placement_is_e002(tmp_path, four):
    # Ending after turn 6 is too early: Ben can lay W1 c4 even though Anna cannot.
    t = play(tmp_path, game(four, 6, end="\n    reveal Anna: church, Ben: museum\n"))
    assert_error(t, "E002", t.record.reveal.line, "Ben")


def test_wrong_score_claim_is_e003(tmp_path, four):
    t = play(tmp_path, game(four, end="\n    reveal Anna: church, Ben: museum\n    score Anna: 1, Ben: 2\n"))
    e = assert_error(t, "E003", t.record.score.line, "Ben is claimed to score 2, but scores 0")
    assert e.column == t.record.score.entries[1].column


def test_reveal_missing_a_player_is_e001(tmp_path, four):
    t = play(tmp_path, game(four, end="\n    reveal Anna: church\n"))
    assert_error(t, "E001", t.record.reveal.line, "misses Ben")


# -- E3: tie-break by the votes left ------------------------------------------------------

def test_tie_broken_by_votes_left(tmp_path, four):
    # Both reveal a type with nothing left standing (0 points). In the vote on turn 4
    # Ben laid JAA and Anna NE: Anna keeps 13 votes, Ben 12. Anna wins.
    end = "\n    reveal Anna: museum, Ben: tavern\n    score Anna: 0, Ben: 0\n"
    t = play(tmp_path, game(four, tags='    [Result "Anna"]\n', end=end, ben_votes="JAA"))
    assert_valid(t)
    assert t.winners == ("Anna",)
    assert [s.votes_left for s in t.standings] == [13, 12]


def test_result_naming_the_loser_of_the_tie_break_is_e004(tmp_path, four):
    end = "\n    reveal Anna: museum, Ben: tavern\n    score Anna: 0, Ben: 0\n"
    t = play(tmp_path, game(four, tags='    [Result "Ben"]\n', end=end, ben_votes="JAA"))
    result_tag = t.record.tag("Result")
    e = assert_error(t, "E004", result_tag.line, "Result claims 'Ben'", "the winner is Anna", "tie on 0 points",
                     "votes left: Anna 13, Ben 12", rule="E3")
    assert e.column == result_tag.column


def test_shared_win_when_votes_left_tie_too(tmp_path, four):
    # Ben JA and Anna NE: both keep 13 votes -> a shared win.
    end = "\n    reveal Anna: museum, Ben: tavern\n    score Anna: 0, Ben: 0\n"
    t = play(tmp_path, game(four, tags='    [Result "Anna, Ben"]\n', end=end))
    assert_valid(t)
    assert t.winners == ("Anna", "Ben")
    assert "share the win" in t.tie_break
    t = play(tmp_path, game(four, tags='    [Result "Ben, Anna"]\n', end=end))
    assert_valid(t)  # the order of the names does not matter


def test_result_naming_one_of_two_sharing_winners_is_e004(tmp_path, four):
    end = "\n    reveal Anna: museum, Ben: tavern\n"
    t = play(tmp_path, game(four, tags='    [Result "Anna"]\n', end=end))
    assert_error(t, "E004", t.record.tag("Result").line, "Anna and Ben", "votes left: Anna 13, Ben 13",
                 "share the win")


def test_points_decide_before_votes(tmp_path, four):
    # Both vote yes on turn 4 (JA from Ben, JAAA from Anna): Ben keeps 13 votes, Anna 11.
    # Anna's church (c3) still stands: 1 point beats Ben's 0, whatever the votes left say.
    end = "\n    reveal Anna: church, Ben: museum\n"
    t = play(tmp_path, game(four, tags='    [Result "Ben"]\n', end=end, anna_votes="JAAA"))
    assert_error(t, "E004", t.record.tag("Result").line, "the winner is Anna")
    t = play(tmp_path, game(four, tags='    [Result "Anna"]\n', end=end, anna_votes="JAAA"))
    assert_valid(t)
    assert [(s.player, s.score, s.votes_left) for s in t.standings] == [("Anna", 1, 11), ("Ben", 0, 13)]


# -- where vote findings are reported -------------------------------------------------

@pytest.mark.parametrize("turn,code", [
    ("1. Anna S1 b1", "B001"),
    ("1. Anna W1 e2 vote { Anna: JA, Ben: NE } -> accepted 1:1", "B001"),
    ("1. Anna S1 b1 vote { Ben: NE, Anna: JA } -> accepted 1:1", "B002"),
    ("1. Anna S1 b1 vote { Anna: JA JA, Ben: NE } -> accepted 2:1", "B003"),
    ("1. Anna S1 b1 vote { Anna: JA, Ben: JEIN } -> accepted", "B004"),
])
def test_vote_findings_at_the_turns_first_token(tmp_path, voteboard, turn, code):
    # All findings but claims and reveal errors go to the turn's first token (docs/notation.md).
    t = play(tmp_path, VOTE_HEAD.format(board=voteboard, rules="hig-1991") + "    " + turn + "\n")
    e = error(t)
    assert (e.code, e.line, e.column) == (code, line_of(t, 1), 1)


@pytest.mark.parametrize("tiles", ["XX", "W3b1-c1@a1:1,?"])
def test_a_position_string_with_a_malformed_tile_is_P002(tiles):
    # the tile loop once named its turn number `_`, hiding the translation function: UnboundLocalError
    with pytest.raises(DnError) as caught:
        parse_position(f"dn1 schilda hig-1991 base Anna,Ben 3 {tiles} - ./. ./. -")
    assert caught.value.diagnostic.code == "P002" and "is not a tile like" in caught.value.diagnostic.message
