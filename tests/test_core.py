"""The pure rules core: state and deal (S1), placement (A1–A7), votes (B), scoring (E, X).

Every position is built on a small board made here; the drawings show it with row 1
at the bottom. Legend: S/W/R a street/wall/river gang's corner, lower-case letters
the squares a tile covers (s street, w wall, r river), = a bridge field, G a gang
that is not on its corner, T a toilet, . a free square.
"""
from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from drunter_notation.explain.findings import arithmetic, card_lines, hint, sentence
from drunter_notation.explain.scoring import tie_break
from drunter_notation.notation.model import Ballot, Card, Tile, Vote, parse_square, square_name
from drunter_notation.rules.board import Board
from drunter_notation.rules.game import game_over, must_place, track_finished
from drunter_notation.rules.geometry import past_bridges
from drunter_notation.rules.options import BallotOrder, Options, VoteOutcome
from drunter_notation.rules.placement import Move, apply_move, check_placement, legal_moves
from drunter_notation.rules.scoring import goal_score, rank_players, uncovered_buildings, votes_left
from drunter_notation.rules.state import Violation, box_tiles, check_deal, deal_for, new_state
from drunter_notation.rules.votes import Tally, check_ballots, spend_cards, tally, vote_outcome

N, E, S, W = (0, 1), (1, 0), (0, -1), (-1, 0)
FOUR = ("Anna", "Ben", "Cleo", "Dora")
WEBLEY = dataclasses.replace(Options(), vote_outcome=VoteOutcome.YES_OVER_NO_UNLESS_ALL_ABSTAIN,
                             ballot_order=BallotOrder.ANY, expert_voting=False, trap_counts_edge=False)


def sq(name: str):
    return parse_square(name)


def make_board(width=5, height=5, toilets=(), buildings=None, box=None) -> Board:
    """Street from a1, walls from the south-east and north-west corners, river from
    the north-east corner -- the layout of the default board."""
    corners = {(0, 0): "street", (width - 1, 0): "wall", (0, height - 1): "wall",
               (width - 1, height - 1): "river"}
    extra = {} if box is None else {"box": box}
    return Board("test", "Test", width, height, corners,
                 {sq(k): v for k, v in (buildings or {}).items()}, frozenset(map(sq, toilets)), **extra)


def start(board=None, options=None, players=("Anna", "Ben"), hands=None, variant="base"):
    return new_state(board or make_board(), options or Options(), players, hands, variant)


def judge(state, text: str, corner: str | None = None):
    """check_placement for a placement written as in a record: ``"W3 b1-d1"``."""
    tile, squares = text.split()
    names = squares.split("-")
    end = sq(names[1]) if len(names) > 1 else None
    return check_placement(state, Tile(tile[0], int(tile[1])), sq(names[0]), end,
                           None if corner is None else sq(corner))


def play(state, *texts: str) -> list:
    """Lay each placement in turn (they must be legal); returns the corners whose
    gangs the last one removed."""
    removed = []
    for text in texts:
        move = judge(state, text)
        assert isinstance(move, Move), move
        removed = [c for c, _ in apply_move(state, move, len(state.tiles) + 1, state.to_move)]
        state.seat = (state.seat + 1) % len(state.players)
    return removed


def spelled(move: Move) -> str:
    names = [square_name(s) for s in move.squares]
    return f"{move.tile} {names[0]}" + (f"-{names[-1]}" if len(names) > 1 else "")


def violation(result, code: str, rule: str) -> Violation:
    assert isinstance(result, Violation), result
    assert (result.code, result.rule) == (code, rule), result
    return result


# ---------------------------------------------------------------- state and deal (S1)

def test_new_state_and_copy_are_independent():
    st = start(hands={"Anna": Counter({Tile("S", 1): 2}), "Ben": Counter({Tile("W", 1): 1})})
    assert st.gangs == {sq("a1"): sq("a1"), sq("e1"): sq("e1"), sq("a5"): sq("a5"), sq("e5"): sq("e5")}
    assert st.track_kind[sq("e1")] == "wall" and st.to_move == "Anna"
    assert st.cards["Ben"] == Counter(["JA", "JAA", "JAAA", "NE", "NEE", "NEEE", "JEIN", "?"])
    snapshot = st.copy()
    play(st, "S1 b1")
    assert snapshot.covered == {} and snapshot.gangs[sq("a1")] == sq("a1")
    assert snapshot.hands["Anna"][Tile("S", 1)] == 2 and st.hands["Anna"][Tile("S", 1)] == 1
    assert st.tiles[0].anchor == st.tiles[0].end == sq("b1") and st.tiles[0].bridge is None


def test_deal_for_the_default_box_and_a_box_that_does_not_divide():
    board = make_board()
    assert deal_for(board, 2) == {3: 6, 2: 12, 1: 12}
    assert deal_for(board, 3) == {3: 4, 2: 8, 1: 8}
    assert deal_for(board, 4) == {3: 3, 2: 6, 1: 6}
    assert sum(box_tiles(board).values()) == 60 and box_tiles(board)[Tile("W", 3)] == 6
    odd = make_board(box={"wall": (2, 4, 4), "street": (1, 2, 2), "river": (1, 2, 2)})
    assert deal_for(odd, 2) == {3: 2, 2: 4, 1: 4}
    assert deal_for(odd, 3) is None


def test_check_deal_reports_wrong_lengths_and_a_wrong_box():
    board = make_board(box={"wall": (2, 2, 2), "street": (0, 2, 2), "river": (0, 0, 0)})
    good = {"Anna": Counter({Tile("W", 3): 1, Tile("W", 2): 1, Tile("S", 2): 1, Tile("W", 1): 1, Tile("S", 1): 1}),
            "Ben": Counter({Tile("W", 3): 1, Tile("W", 2): 1, Tile("S", 2): 1, Tile("W", 1): 1, Tile("S", 1): 1})}
    assert check_deal(board, good) == []
    bad = {"Anna": good["Anna"] + Counter({Tile("W", 3): 1}), "Ben": good["Ben"]}
    assert [(v.code, p, sentence(v)) for p, v in check_deal(board, bad)] == [
        ("D002", "Anna", "Anna holds 2 triples; with 2 players each is dealt 1 triple"),
        ("D003", None, "the hands together hold 3 W3 (wall triples); the box has 2"),
    ]
    swapped = {"Anna": good["Anna"] - Counter({Tile("S", 1): 1}) + Counter({Tile("R", 1): 1}), "Ben": good["Ben"]}
    found = check_deal(board, swapped)
    assert [(v.code, p) for p, v in found] == [("D003", None), ("D003", None)]
    assert "hold 1 S1" in sentence(found[0][1]) and "hold 1 R1" in sentence(found[1][1])


# ---------------------------------------------------------------- placement (A1–A7)

def test_legal_moves_at_the_start_from_each_corner():
    # 5 x 5, nothing laid:         W . . . R
    # each gang can go along both  . . . . .
    # edges, 1 to 3 squares        . . . . .
    #                              . . . . .
    #                              S . . . W
    st = start()
    assert [(m.squares[0], m.direction, m.bridges_passed) for m in legal_moves(st, tiles=[Tile("S", 1)])] == [
        (sq("a2"), N, 0), (sq("b1"), E, 0)]
    by_track = {}
    for m in legal_moves(st):
        by_track.setdefault(square_name(m.corner), set()).add(spelled(m))
    assert by_track == {
        "a1": {"S1 a2", "S2 a2-a3", "S3 a2-a4", "S1 b1", "S2 b1-c1", "S3 b1-d1"},
        "e1": {"W1 e2", "W2 e2-e3", "W3 e2-e4", "W1 d1", "W2 d1-c1", "W3 d1-b1"},
        "a5": {"W1 a4", "W2 a4-a3", "W3 a4-a2", "W1 b5", "W2 b5-c5", "W3 b5-d5"},
        "e5": {"R1 e4", "R2 e4-e3", "R3 e4-e2", "R1 d5", "R2 d5-c5", "R3 d5-b5"},
    }
    # with hands, only the tiles held: Anna holds wall doubles only
    st = start(hands={"Anna": Counter({Tile("W", 2): 2}), "Ben": Counter({Tile("S", 1): 1})})
    assert {spelled(m) for m in legal_moves(st, "Anna")} == {"W2 e2-e3", "W2 d1-c1", "W2 a4-a3", "W2 b5-c5"}
    assert legal_moves(st, "Ben") == legal_moves(st, tiles=[Tile("S", 1)])


def test_shape_and_board_edge():
    st = start()
    violation(judge(st, "S3 b1-c2"), "A002", "A3")  # bent
    violation(judge(st, "S3 b1-c1"), "A002", "A3")  # two squares for a triple
    violation(judge(st, "S1 b1-c1"), "A002", "A3")  # a single given two squares
    violation(judge(st, "S2 b1"), "A002", "A3")  # a double given one square
    v = violation(judge(st, "W3 d1-f1"), "A003", "A3")
    assert "off the board at f1" in sentence(v) and v.facts["square"] == sq("f1")
    assert isinstance(judge(st, "S1 b1-b1"), Move)  # a single may name its square twice


def test_reversed_or_sideways_tile_is_a002_a_wrong_place_a001():
    # S s = G W    row 1 of 5 x 5 after S3 b1-d1: the street gang on d1
    st = start()
    v = violation(judge(st, "S3 d1-b1"), "A002", "A3")
    assert sentence(v) == "S3 d1-b1 is reversed: its anchor square must touch the gang on a1; write S3 b1-d1"
    play(st, "S3 b1-d1")
    v = violation(judge(st, "S2 d2-c2"), "A002", "A3")  # laid at the gang, but running west
    assert "runs west from d2" in sentence(v) and "runs north" in sentence(v)
    v = violation(judge(st, "S2 b2-b3"), "A001", "A2")
    assert "no street gang reaches b2" in sentence(v) and "stands on d1" in sentence(v)
    v = violation(judge(st, "W1 d2"), "A001", "A1")  # next to the street gang, but a wall tile
    assert "street gang on d1" in sentence(v)
    move = judge(st, "S2 d2-d3")
    assert move == Move(Tile("S", 2), (sq("d2"), sq("d3")), sq("a1"), N, (), 0, sq("d1"))


def test_overlap_names_the_tile_and_its_turn():
    # . . . . .
    # S s = G W    turn 1: S3 b1-d1; the wall from e1 cannot go west over it
    st = start()
    play(st, "S3 b1-d1")
    v = violation(judge(st, "W2 d1-c1"), "A004", "A3")
    assert sentence(v) == "W2 d1-c1 overlaps the street tile laid on turn 1 at d1"
    assert (v.facts["laid"].turn, v.facts["square"]) == (1, sq("d1"))


def test_a_corner_is_never_covered():
    st = start()
    play(st, "S3 b1-d1")
    v = violation(judge(st, "S1 e1"), "A005", "A7")
    assert "corner e1" in sentence(v)


def test_two_wall_gangs_at_one_square_need_the_corner():
    # W w = G R    the wall from a5 ends on d5, the wall from e1 on e4:
    # . . . ? G    both touch d4
    # . . . . =
    # . . . . w
    # S . . . W
    st = start()
    play(st, "W3 b5-d5", "W3 e2-e4")
    v = violation(judge(st, "W1 d4"), "A006", "A2")
    assert "the wall from e1" in sentence(v) and "the wall from a5" in sentence(v)
    assert "write @e1 or @a5" in sentence(v)
    assert judge(st, "W1 d4", "a5") == Move(Tile("W", 1), (sq("d4"),), sq("a5"), S, (), 0, sq("d5"), True)
    assert judge(st, "W1 d4", "e1") == Move(Tile("W", 1), (sq("d4"),), sq("e1"), W, (), 0, sq("e4"), True)
    twins = [m for m in legal_moves(st, tiles=[Tile("W", 1)]) if m.squares == (sq("d4"),)]
    assert {m.corner for m in twins} == {sq("a5"), sq("e1")} and all(m.needs_corner for m in twins)
    assert sorted(map(str, twins)) == ["W1 d4 @a5", "W1 d4 @e1"]
    assert "not a corner" in sentence(violation(judge(st, "W1 d4", "b2"), "A006", "A2"))
    assert "starts the street" in sentence(violation(judge(st, "W1 d4", "a1"), "A006", "A2"))
    # @corner naming the other wall, whose gang does not touch the anchor
    v = violation(judge(st, "W2 c5-b5", "e1"), "A001", "A2")
    assert sentence(v) == "W2 c5-b5: the wall from e1 cannot take W2 c5-b5; the wall from a5 can: write @a5"
    # @corner naming a wall whose gang touches the anchor the wrong way: judged for that wall, the other a hint
    v = violation(judge(st, "W2 d4-d3", "e1"), "A002", "A3")
    assert sentence(v) == ("W2 d4-d3 runs south from d4, but a tile laid there runs west, away from the gang on "
                           "e4")
    assert hint(v) == "the wall from a5 takes W2 d4-d3 as written: write @a5"


def bridge_position(options=None):
    """6 x 6 after four placements: the river gang on c3 stands north of the street's bridge c2.

        W . r = r R       row 6: river triple e6-c6, bridge d6
        . . r . . .       row 5
        . . = . . .       row 4: bridge c4 of the river triple c5-c3
        . . G . . .       row 3: the river gang
        s s = G . .       row 2: street single a2, street triple b2-d2 (bridge c2, gang d2)
        S . . . . W       row 1: c1 is beyond the bridge
    """
    st = start(make_board(6, 6), options)
    play(st, "S1 a2", "S3 b2-d2", "R3 e6-c6", "R3 c5-c3")
    return st


def test_a_track_passes_under_a_bridge():
    st = bridge_position()
    assert st.gangs[sq("f6")] == sq("c3") and past_bridges(st, sq("c2"), S) == (sq("c1"), 1)
    assert judge(st, "R1 c1") == Move(Tile("R", 1), (sq("c1"),), sq("f6"), S, (), 1, sq("c3"))
    violation(judge(st, "R1 c2"), "A004", "A3")  # the bridge field itself is covered


def test_a_run_of_two_bridges_depends_on_the_ruleset():
    # W . . . . R
    # w . . . . .    the wall from f1 ends on c1, under the bridges c2 (street)
    # = . . . . .    and c3 (wall from a6); c4 lies beyond both
    # w w = G . .
    # s s = G . .
    # S . G = w W
    moves = ("S1 a2", "S3 b2-d2", "W3 a5-a3", "W3 b3-d3", "W3 e1-c1")
    st = start(make_board(6, 6))
    play(st, *moves)
    assert st.gangs[sq("f1")] == sq("c1") and past_bridges(st, sq("c2"), N) == (sq("c3"), 1)  # one at a time
    v = violation(judge(st, "W1 c4"), "A001", "A6")
    assert "2 bridge fields in a row (c2 and c3)" in sentence(v)
    runs = start(make_board(6, 6), dataclasses.replace(Options(), bridge_runs=True))
    play(runs, *moves)
    assert past_bridges(runs, sq("c2"), N) == (sq("c4"), 2)
    assert judge(runs, "W1 c4") == Move(Tile("W", 1), (sq("c4"),), sq("f1"), N, (), 2, sq("c1"))
    assert judge(runs, "W2 c4-c5").bridges_passed == 2


def test_a_gang_is_removed_when_another_track_closes_it_in():
    # W . . . R
    # w . . . .
    # = . . . .    turn 4 lays W1 b2 from the wall gang on a2: the street gang
    # w G . . .    on b1 (corner a1, tiles c1 and b2 around it, the edge below)
    # S G G w W    has nowhere left to go and is removed
    st = start()
    assert play(st, "S1 b1", "W2 d1-c1", "W3 a4-a2") == []
    assert play(st, "W1 b2") == [sq("a1")]
    assert st.gangs[sq("a1")] is None and st.removed_on == {sq("a1"): 4}
    assert st.gangs[sq("e1")] == sq("c1") and st.gangs[sq("a5")] == sq("b2")
    assert "no street track is live" in sentence(violation(judge(st, "S1 c2"), "A001", "A2"))
    assert "finished: its gang was removed on turn 4" in sentence(violation(judge(st, "S1 c2", "a1"), "A006", "A2"))
    assert [c for c in st.gangs if track_finished(st, c)] == [sq("a1")]


def test_without_the_edge_rule_a_gang_on_the_edge_stays_stuck():
    hands = {"Anna": Counter({Tile("S", 1): 2, Tile("W", 1): 1}), "Ben": Counter({Tile("W", 2): 1, Tile("W", 3): 1})}
    st = start(options=WEBLEY, hands=hands)
    assert play(st, "S1 b1", "W2 d1-c1", "W3 a4-a2", "W1 b2") == []
    assert st.gangs[sq("a1")] == sq("b1")  # kept: the edge is not a tile
    assert not [m for m in legal_moves(st, "Anna") if m.corner == sq("a1")]
    assert track_finished(st, sq("a1"))  # no one can extend it (hands are known)
    without_hands = start(options=WEBLEY)
    play(without_hands, "S1 b1", "W2 d1-c1", "W3 a4-a2", "W1 b2")
    assert not track_finished(without_hands, sq("a1"))  # without hands only removal counts


def test_a_way_under_a_bridge_keeps_a_gang_alive():
    # W . r = r R
    # w . r . . .
    # = . = . . .    the river gang on c3 is closed in on three sides (b3, c4,
    # w G G G . .    d3) but may still pass under the bridge c2 to c1
    # s s = s . .
    # S . . . . W
    st = bridge_position()
    assert play(st, "W3 a5-a3", "W1 b3", "S1 d3") == []
    assert st.gangs[sq("f6")] == sq("c3")
    assert {spelled(m) for m in legal_moves(st, tiles=[Tile("R", 1)])} == {"R1 c1"}
    # the wall from f1 takes c1: now the river gang is trapped, though it did not move
    assert play(st, "W3 e1-c1") == [sq("f6")]
    assert st.removed_on == {sq("f6"): 8}


def test_legezwang_and_the_end_of_the_game_with_toilets():
    # T . .    3 x 3: both squares next to the street corner are toilets; Anna
    # . . .    holds only a street single, Ben only a river single
    # S T W
    board = make_board(3, 3, toilets=("a2", "b1"))
    hands = {"Anna": Counter({Tile("S", 1): 1}), "Ben": Counter({Tile("R", 1): 1})}
    st = start(board, hands=hands)
    assert legal_moves(st, "Anna")[0].toilets == (sq("a2"),)
    assert must_place(st, "Anna")  # default: a toilet placement counts
    strict = dataclasses.replace(Options(), toilet_counts_for_legezwang=False)
    st = start(board, strict, hands=hands)
    assert not must_place(st, "Anna") and legal_moves(st, "Anna")
    assert must_place(st, "Ben") and not game_over(st)
    assert track_finished(st, sq("a1")) and not track_finished(st, sq("c3"))
    # no vote on toilets in this expert game: a toilet is a plain square again
    expert = start(board, dataclasses.replace(strict, expert_voting=False), hands=hands, variant="expert")
    assert must_place(expert, "Anna")
    st.seat = 1
    play(st, "R1 c2")  # Ben's only tile: the river gang moves to c2
    assert game_over(st) and not game_over(start(board, hands=hands))


# ---------------------------------------------------------------- votes (B)

def ballot(player: str, *cards: str) -> Ballot:
    return Ballot(player, tuple(Card(*c.split("=")) if "=" in c else Card(c) for c in cards))


def test_tally_the_example_of_the_rules():
    vote = Vote((ballot("Anna", "JAA", "JAAA"), ballot("Ben", "NEE"), ballot("Cleo", "NEEE"),
                 ballot("Dora", "JEIN=no")))
    t = tally(vote)
    assert (t.yes, t.no) == (5, 7)
    assert arithmetic(t) == "yes 2+3 = 5, no 2+3+2 = 7"
    assert card_lines(t) == ("Anna: JAA = 2 yes", "Anna: JAAA = 3 yes", "Ben: NEE = 2 no", "Cleo: NEEE = 3 no",
                       "Dora: JEIN=no = 2 no")


def test_tally_with_abstention_and_a_bare_joker():
    t = tally(Vote((ballot("Anna", "JEIN=yes", "?"), ballot("Ben", "JEIN"))))
    assert (t.yes, t.no, arithmetic(t)) == (2, 0, "yes 2, no 0")
    assert card_lines(t) == ("Anna: JEIN=yes = 2 yes", "Anna: ? = 0", "Ben: JEIN = 0 (not declared)")


def test_tally_counts_each_players_card_as_that_players():
    """The same card laid by different players, and JEIN declared both ways, counted
    again in a second vote: each card keeps its own player, side and votes."""
    vote = Vote((ballot("Anna", "JA", "JEIN=yes"), ballot("Ben", "JA", "JEIN=no"), ballot("Cleo", "JEIN")))
    for _ in range(2):
        t = tally(vote)
        assert (t.yes, t.no) == (4, 2)
        assert [tuple(c) for c in t.cards] == [("Anna", "JA", "yes", 1), ("Anna", "JEIN=yes", "yes", 2),
                                               ("Ben", "JA", "yes", 1), ("Ben", "JEIN=no", "no", 2),
                                               ("Cleo", "JEIN", None, 0)]


def test_vote_outcome_under_both_rules():
    webley = WEBLEY
    for yes, no, hig, web in ((1, 1, True, False), (0, 0, True, True), (2, 1, True, True), (1, 2, False, False)):
        t = Tally(yes, no, ())
        assert vote_outcome(t, Options()) is hig, (yes, no)
        assert vote_outcome(t, webley) is web, (yes, no)


def test_needs_vote_follows_the_variant():
    board = make_board(toilets=("b1",))
    move = judge(start(board), "S1 b1")
    assert move.toilets == (sq("b1"),)
    assert move.needs_vote
    assert judge(start(board, variant="expert"), "S1 b1").needs_vote  # hig-1991: the variant still votes
    assert not judge(start(board, WEBLEY, variant="expert"), "S1 b1").needs_vote
    assert not judge(start(board), "S1 a2").needs_vote


def test_ballots_in_voting_order():
    st = start(players=FOUR)
    in_order = Vote(tuple(ballot(p, "?") for p in ("Cleo", "Dora", "Anna", "Ben")))
    assert check_ballots(st, "Cleo", in_order) is None
    seat_order = Vote(tuple(ballot(p, "?") for p in FOUR))
    v = violation(check_ballots(st, "Cleo", seat_order), "B002", "B2")
    assert "the voting order is Cleo, Dora, Anna, Ben" in sentence(v)
    anyhow = start(options=WEBLEY, players=FOUR)
    assert check_ballots(anyhow, "Cleo", seat_order) is None
    for bad, words in ((seat_order.ballots[:3], "Dora does not vote"),
                       ((*seat_order.ballots, ballot("Ben", "JA")), "Ben votes twice"),
                       ((*seat_order.ballots, ballot("Eve", "JA")), "'Eve' votes but is not a player"),
                       ((*seat_order.ballots[:3], Ballot("Dora", ())), "Dora's ballot is empty")):
        assert words in sentence(violation(check_ballots(anyhow, "Cleo", Vote(bad)), "B002", "B2"))


def test_jokers_must_be_declared_and_spent_cards_are_gone():
    st = start()
    v = violation(check_ballots(st, "Anna", Vote((ballot("Anna", "JEIN"), ballot("Ben", "NE")))), "B004", "B4")
    assert "Anna's JEIN is not declared" in sentence(v)
    # B002 is checked before B004
    violation(check_ballots(st, "Anna", Vote((ballot("Ben", "NE"), ballot("Anna", "JEIN")))), "B002", "B2")
    spend_cards(st, Vote((ballot("Anna", "JAA", "?"), ballot("Ben", "NE"))), 3)
    assert "JAA" not in st.cards["Anna"] and st.cards["Anna"]["?"] == 1 and st.spent_on[("Anna", "JAA")] == 3
    v = violation(check_ballots(st, "Anna", Vote((ballot("Anna", "JAA"), ballot("Ben", "?")))), "B003", "B7")
    assert sentence(v) == "Anna no longer holds JAA: it was spent in the vote on turn 3" and v.facts["turn"] == 3
    v = violation(check_ballots(st, "Anna", Vote((ballot("Anna", "JA", "JA"), ballot("Ben", "?")))), "B003", "B7")
    assert "Anna lays JA twice in one ballot" in sentence(v)
    assert check_ballots(st, "Anna", Vote((ballot("Anna", "?"), ballot("Ben", "?")))) is None  # ? returns


# ---------------------------------------------------------------- scoring (E, X)

SCORED = {"museum": {"a2": 1, "b2": 3, "c2": 5}, "tavern": {"a3": 3, "b3": 4}, "school": {"c3": 4},
          "church": {"a4": 2}, "townhall": {"b4": 3}}
# . . . . .
# c h . . .    row 4: church a4 = 2, townhall b4 = 3
# t t s . .    row 3: tavern a3 = 3, tavern b3 = 4 (covered), school c3 = 4 (covered)
# m m m . .    row 2: museum a2 = 1, museum b2 = 3, museum c2 = 5 (covered)
# . . . . .
COVERED = {sq("c2"): 0, sq("b3"): 0, sq("c3"): 0}


def test_uncovered_buildings_and_every_goal():
    board = make_board(buildings={name: (kind, v) for kind, squares in SCORED.items() for name, v in squares.items()})
    assert {square_name(s) for s, _, _ in uncovered_buildings(board, COVERED)} == {"a2", "b2", "a3", "a4", "b4"}
    expected = {"museum": 4, "tavern": 3, "school": 0, "church": 2, "townhall": 3, "firehouse": 0,
                "all-threes": 9, "all-fours": 0, "lowest-of-each": 1 + 3 + 2 + 3, "one-each": 5,
                "kirche": 2}
    assert {g: goal_score(board, COVERED, g) for g in expected} == expected
    assert goal_score(board, {}, "all-fours") == 8  # tavern b3 and school c3


def test_votes_left():
    assert votes_left(Counter(["JA", "JAA", "JAAA", "NE", "NEE", "NEEE", "JEIN", "?"])) == 14
    assert votes_left(Counter(["JEIN", "?", "NE"])) == 3


def tie_board():
    # museum a2 = 5, tavern b2 = 5, school c2 = 4, church a3 = 3, townhall b3 = 2
    return make_board(buildings={"a2": ("museum", 5), "b2": ("tavern", 5), "c2": ("school", 4),
                                 "a3": ("church", 3), "b3": ("townhall", 2)})


def test_base_game_tie_broken_by_votes_left_or_shared():
    board = tie_board()
    players = ("Anna", "Ben", "Cleo")
    cards = {"Anna": Counter(["JA", "?"]), "Ben": Counter(["JAAA", "?"]), "Cleo": Counter(["NEEE"])}
    ranking = rank_players(board, {}, players, {"Anna": "museum", "Ben": "tavern", "Cleo": "school"}, cards)
    assert ranking.winners == ("Ben",)
    assert [(s.player, s.score, s.votes_left, s.rank) for s in ranking.standings] == [
        ("Ben", 5, 3, 1), ("Anna", 5, 1, 2), ("Cleo", 4, 3, 3)]
    assert tie_break(ranking) == "Ben wins with 5 points. Ben and Anna tie on 5 points; votes left: Ben 3, Anna 1."
    cards["Anna"] = Counter(["JAAA"])
    ranking = rank_players(board, {}, players, {"Anna": "museum", "Ben": "tavern", "Cleo": "school"}, cards)
    assert ranking.winners == ("Anna", "Ben") and [s.rank for s in ranking.standings] == [1, 1, 3]
    assert tie_break(ranking).startswith("Anna and Ben share the win with 5 points.")
    assert tie_break(ranking).endswith("Anna and Ben still tie and share the win.")


def test_expert_tie_broken_by_the_second_card_then_votes():
    board = tie_board()
    players = ("Anna", "Ben", "Cleo")
    full = Counter(["JA", "JAA", "JAAA", "NE", "NEE", "NEEE", "JEIN", "?"])
    cards = {"Anna": full, "Ben": full, "Cleo": Counter(["?"])}
    chosen = {"Anna": "museum", "Ben": "tavern", "Cleo": "all-threes"}
    other = {"Anna": "church", "Ben": "school", "Cleo": "townhall"}
    ranking = rank_players(board, {}, players, chosen, cards, other)
    assert ranking.winners == ("Ben",)
    assert [(s.player, s.score, s.second, s.rank) for s in ranking.standings] == [
        ("Ben", 5, 4, 1), ("Anna", 5, 3, 2), ("Cleo", 3, 2, 3)]
    assert tie_break(ranking) == ("Ben wins with 5 points. "
                                   "Ben and Anna tie on 5 points; second card: Ben 4, Anna 3.")
    other["Ben"] = "church"  # now Anna and Ben tie on the second card too: votes left decide
    cards["Ben"] = Counter(["JA"])
    ranking = rank_players(board, {}, players, chosen, cards, other)
    assert [s.player for s in ranking.standings] == ["Anna", "Ben", "Cleo"]
    assert "second card: Anna 3, Ben 3; votes left: Anna 14, Ben 1." in tie_break(ranking)


def test_rank_players_rejects_unknown_goals():
    with pytest.raises(ValueError):
        goal_score(tie_board(), {}, "castle")
