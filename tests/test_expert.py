"""The expert variant (codes X001–X003) on hand-made games.

Every game here is complete and short: a 5×5 board written to tmp_path with a box
of four singles (two each for two players), so the game ends when the hands are
empty. The board, with the squares the standard game covers in lower case:

        a  b  c  d  e
     5  *W .  .  .  *R     street from a1, walls from e1 and a5, river from e5
     4  c4 C4 H3 C1 f3     M museum, T tavern, S school, H townhall,
     3  .  F2 M4 T4 .      F firehouse, C church (value after the letter)
     2  .  M3 T3 .  .
     1  *S s2 .  h1 *W

The standard game: 1. Anna S1 b1 (the only school is covered: the type is wiped
out), choose (nobody holds a street tile any more: the street is finished, X2),
2. Ben R1 e4 (firehouse 3), 3. Anna W1 d1 (townhall 1), 4. Ben W1 a4 (church 4).
Left standing: M3 b2, M4 c3, T3 c2, T4 d3, H3 c4, F2 b3, C1 d4, C4 b4. So:
all-threes 3+3+3 = 9, all-fours 4+4+4 = 12, lowest-of-each M3+T3+S0+H3+F2+C1 = 12,
one-each 8; museum 7, tavern 7, school 0, townhall 3, firehouse 2, church 5.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from drunter_notation.cli import cli
from drunter_notation.cli.adjudicate import adjudicate as adjudicate_command

BOARD = """format = "drunter-board/1"
id = "mini"
name = "Mini test board"
width = 5
height = 5
note = "A 5x5 board made up for the expert tests; not the published game."
toilets = [{toilets}]

[corners]
a1 = "street"
e1 = "wall"
a5 = "wall"
e5 = "river"

[buildings]
museum = {{ b2 = 3, c3 = 4 }}
tavern = {{ c2 = 3, d3 = 4 }}
school = {{ b1 = 2 }}
townhall = {{ {townhall} }}
firehouse = {{ e4 = 3, b3 = 2 }}
church = {{ a4 = 4, d4 = 1, b4 = 4 }}

[box]
wall = [0, 0, 2]
street = [0, 0, {streets}]
river = [0, 0, {rivers}]
"""

HANDS = "hand Anna: W1 S1\nhand Ben: W1 R1\n"
TURNS = "1. Anna S1 b1\nchoose\n2. Ben R1 e4\n3. Anna W1 d1\n4. Ben W1 a4\n"


def write_board(tmp_path: Path, toilets=(), townhall="d1 = 1, c4 = 3", streets=1, rivers=1) -> None:
    text = BOARD.format(toilets=", ".join(f'"{t}"' for t in toilets), townhall=townhall,
                        streets=streets, rivers=rivers)
    (tmp_path / "mini.toml").write_text(text, encoding="utf-8")


def game(tmp_path: Path, goals: tuple[str, str, str, str] | None, reveal: str | None, *, score: str | None = None,
         result: str | None = None, turns: str = TURNS, hands: str = HANDS, variant: str = "expert",
         rules: str | None = None, board: dict | None = None, name: str = "game.dn") -> Path:
    """Write the board and a record; ``goals`` = (Anna's two, Ben's two)."""
    write_board(tmp_path, **(board or {}))
    tags = ['[Players "Anna, Ben"]', '[Board "mini.toml"]']
    if rules:
        tags.append(f'[Rules "{rules}"]')
    if variant:
        tags.append(f'[Variant "{variant}"]')
    if result:
        tags.append(f'[Result "{result}"]')
    setup = hands
    if goals:
        setup += f"goals Anna: {goals[0]}, {goals[1]}\ngoals Ben: {goals[2]}, {goals[3]}\n"
    text = "\n".join(tags) + "\n\n" + setup + "\n" + turns
    if reveal:
        text += "\n" + reveal + "\n"
    if score:
        text += score + "\n"
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def validate(path: Path, *extra: str) -> dict:
    result = CliRunner().invoke(cli, ["validate", "--format", "json", *extra, str(path)])
    data = json.loads(result.output.splitlines()[0])
    errors = [d for d in data["diagnostics"] if d["severity"] == "error"]
    assert result.exit_code == (1 if errors else 0), result.output
    data["errors"] = errors
    return data


def first_error(data: dict) -> tuple[str, int] | None:
    return (data["errors"][0]["code"], data["errors"][0]["line"]) if data["errors"] else None


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text("utf-8").splitlines(), 1) if line.startswith(text))


def scores(data: dict) -> dict:
    return data["summary"]["scores"]


# --- the board and the standard game ---------------------------------------------------

def test_the_standard_game_is_complete_and_valid(tmp_path):
    path = game(tmp_path, ("all-threes", "school", "lowest-of-each", "one-each"),
                "reveal Anna: all-threes/school, Ben: lowest-of-each/one-each",
                score="score Anna: 9, Ben: 12", result="Ben")
    data = validate(path)
    assert data["valid"], data["errors"]
    assert data["summary"]["complete"] and data["summary"]["variant"] == "expert"
    assert scores(data) == {"Anna": 9, "Ben": 12} and data["summary"]["winners"] == ["Ben"]
    # the board file itself is fine
    result = CliRunner().invoke(cli, ["board", "check", str(tmp_path / "mini.toml")])
    assert result.exit_code == 0, result.output


# --- each special card --------------------------------------------------------------

@pytest.mark.parametrize("anna, ben, expected", [
    (("all-threes", "school"), ("all-fours", "one-each"), {"Anna": 9, "Ben": 12}),
    (("lowest-of-each", "museum"), ("one-each", "tavern"), {"Anna": 12, "Ben": 8}),
    (("one-each", "all-threes"), ("church", "all-fours"), {"Anna": 8, "Ben": 5}),
    (("firehouse", "one-each"), ("townhall", "lowest-of-each"), {"Anna": 2, "Ben": 3}),
], ids=["threes-fours", "lowest-one-each", "one-each-church", "building-types"])
def test_special_cards_score(tmp_path, anna, ben, expected):
    path = game(tmp_path, anna + ben, f"reveal Anna: {anna[0]}/{anna[1]}, Ben: {ben[0]}/{ben[1]}",
                score=f"score Anna: {expected['Anna']}, Ben: {expected['Ben']}")
    data = validate(path)
    assert data["valid"], data["errors"]
    assert scores(data) == expected


def test_lowest_of_each_counts_a_wiped_out_type_as_zero(tmp_path):
    # standard game: the only school (b1) is covered -> 0 for school: 3+3+0+3+2+1 = 12
    covered = validate(game(tmp_path, ("lowest-of-each", "school", "one-each", "museum"),
                            "reveal Anna: lowest-of-each/school, Ben: one-each/museum"))
    assert scores(covered)["Anna"] == 12
    # the street goes north to a2 instead: the school stands and adds its 2
    turns = TURNS.replace("1. Anna S1 b1", "1. Anna S1 a2")
    standing = validate(game(tmp_path, ("lowest-of-each", "school", "one-each", "museum"),
                             "reveal Anna: lowest-of-each/school, Ben: one-each/museum", turns=turns,
                             name="school-stands.dn"))
    assert standing["valid"], standing["errors"]
    assert scores(standing)["Anna"] == 14


def test_a_wrong_score_claim_is_e003_and_a_wrong_result_e004(tmp_path):
    path = game(tmp_path, ("all-threes", "school", "all-fours", "one-each"),
                "reveal Anna: all-threes/school, Ben: all-fours/one-each", score="score Anna: 12, Ben: 12")
    data = validate(path)
    assert first_error(data) == ("E003", line_of(path, "score"))
    assert data["errors"][0]["rule"] == "X3"
    assert "Anna is claimed to score 12, but scores 9" in data["errors"][0]["message"]
    path = game(tmp_path, ("all-threes", "school", "all-fours", "one-each"),
                "reveal Anna: all-threes/school, Ben: all-fours/one-each", result="Anna")
    data = validate(path)
    assert first_error(data) == ("E004", line_of(path, "[Result"))


# --- the tie-break by the second card ---------------------------------------------------

def test_second_card_breaks_a_tie(tmp_path):
    # all-fours 12 = lowest-of-each 12; second cards: school 0 against one-each 8
    path = game(tmp_path, ("all-fours", "school", "lowest-of-each", "one-each"),
                "reveal Anna: all-fours/school, Ben: lowest-of-each/one-each",
                score="score Anna: 12, Ben: 12", result="Ben")
    data = validate(path)
    assert data["valid"], data["errors"]
    assert data["summary"]["winners"] == ["Ben"]
    # the same cards the other way round: Anna, first in seat order, wins by her second card
    path = game(tmp_path, ("lowest-of-each", "one-each", "all-fours", "school"),
                "reveal Anna: lowest-of-each/one-each, Ben: all-fours/school", result="Anna")
    assert validate(path)["summary"]["winners"] == ["Anna"]
    # claiming the seat-order or the first card's winner is E004
    path = game(tmp_path, ("all-fours", "school", "lowest-of-each", "one-each"),
                "reveal Anna: all-fours/school, Ben: lowest-of-each/one-each", result="Anna, Ben")
    data = validate(path)
    assert first_error(data)[0] == "E004"
    assert "second card" in data["errors"][0]["message"]


def test_second_cards_equal_then_votes_left_then_shared(tmp_path):
    # a toilet on e2: Anna's wall goes there with a vote instead of d1, so townhall d1 stands.
    # Scores: all-threes 9 = one-each 9 (d1 uncovered: 9 buildings); museum 7 = tavern 7.
    board = {"toilets": ["e2"]}
    turns = TURNS.replace("3. Anna W1 d1", "3. Anna W1 e2 vote { Anna: JAAA, Ben: NE } -> accepted 3:1")
    path = game(tmp_path, ("all-threes", "museum", "one-each", "tavern"),
                "reveal Anna: all-threes/museum, Ben: one-each/tavern", turns=turns, board=board,
                score="score Anna: 9, Ben: 9", result="Ben")
    data = validate(path)
    assert data["valid"], data["errors"]
    assert data["summary"]["winners"] == ["Ben"]  # votes left: Anna 14-3 = 11, Ben 14-1 = 13
    # equal votes left as well (JAA against NEE): a shared win
    turns = TURNS.replace("3. Anna W1 d1", "3. Anna W1 e2 vote { Anna: JAA, Ben: NEE } -> accepted 2:2")
    path = game(tmp_path, ("all-threes", "museum", "one-each", "tavern"),
                "reveal Anna: all-threes/museum, Ben: one-each/tavern", turns=turns, board=board,
                result="Anna, Ben", name="shared.dn")
    data = validate(path)
    assert data["valid"], data["errors"]
    assert sorted(data["summary"]["winners"]) == ["Anna", "Ben"]


# --- choose (X002) --------------------------------------------------------------------------

GOALS = ("all-threes", "school", "lowest-of-each", "one-each")
REVEAL = "reveal Anna: all-threes/school, Ben: lowest-of-each/one-each"


def test_choose_missing_is_x002_at_the_next_turn(tmp_path):
    path = game(tmp_path, GOALS, REVEAL, turns=TURNS.replace("choose\n", ""))
    data = validate(path)
    assert first_error(data) == ("X002", line_of(path, "2. Ben"))
    assert "the street track from a1 was finished on turn 1" in data["errors"][0]["message"]


def test_choose_too_late_is_x002(tmp_path):
    turns = TURNS.replace("choose\n", "").replace("2. Ben R1 e4\n", "2. Ben R1 e4\nchoose\n")
    path = game(tmp_path, GOALS, REVEAL, turns=turns)
    assert first_error(validate(path)) == ("X002", line_of(path, "2. Ben"))


def test_choose_early_or_twice_is_x002(tmp_path):
    path = game(tmp_path, GOALS, REVEAL, turns="choose\n" + TURNS.replace("choose\n", ""))
    data = validate(path)
    assert first_error(data) == ("X002", line_of(path, "choose"))
    assert "early" in data["errors"][0]["message"]
    path = game(tmp_path, GOALS, REVEAL, turns=TURNS.replace("choose\n", "choose\nchoose\n"), name="twice.dn")
    assert first_error(validate(path))[0] == "X002"


def test_choose_missing_at_the_end_is_x002_at_reveal(tmp_path):
    turns = "1. Anna S1 b1\n"  # the street is finished on turn 1; the record stops there
    path = game(tmp_path, GOALS, REVEAL, turns=turns)
    data = validate(path)
    assert first_error(data) == ("X002", line_of(path, "reveal"))
    assert "was finished on turn 1" in data["errors"][0]["message"]


def test_choose_in_a_base_game_is_x002(tmp_path):
    path = game(tmp_path, None, "reveal Anna: school, Ben: church", variant="base")
    data = validate(path)
    assert first_error(data) == ("X002", line_of(path, "choose"))
    assert validate(game(tmp_path, None, "reveal Anna: school, Ben: church", variant="base",
                         turns=TURNS.replace("choose\n", ""), name="base.dn"))["valid"]


def test_a_track_finished_from_the_start_needs_choose_before_turn_1(tmp_path):
    # no river tiles in the box: nobody can ever extend the river, so the choice is due at once
    board = {"streets": 2, "rivers": 0}
    hands = "hand Anna: W1 S1\nhand Ben: W1 S1\n"
    turns = "choose\n1. Anna S1 b1\n2. Ben S1 c1\n3. Anna W1 d1\n4. Ben W1 a4\n"
    reveal = "reveal Anna: all-threes/school, Ben: lowest-of-each/one-each"
    data = validate(game(tmp_path, GOALS, reveal, turns=turns, hands=hands, board=board))
    assert data["valid"], data["errors"]
    path = game(tmp_path, GOALS, reveal, turns=turns.replace("choose\n", ""), hands=hands, board=board,
                name="late.dn")
    data = validate(path)
    assert first_error(data) == ("X002", line_of(path, "1. Anna"))
    assert "from the start" in data["errors"][0]["message"]


def test_adjudicate_says_when_the_choice_falls_due(tmp_path):
    path = game(tmp_path, GOALS, REVEAL)
    result = CliRunner().invoke(adjudicate_command, [str(path), "--turn", "1"])
    assert result.exit_code == 0, result.output
    assert "X2 Choosing the goal" in result.output
    assert "the street from a1 is now finished: every player chooses" in result.output
    result = CliRunner().invoke(adjudicate_command, [str(path), "--turn", "2"])
    assert "X2 Choosing the goal" not in result.output  # the choice was made after turn 1


# --- goals (X001) and reveal (X003) -------------------------------------------------------

def test_goals_for_one_player_only_is_x001(tmp_path):
    path = game(tmp_path, None, REVEAL, hands=HANDS + "goals Anna: all-threes, school\n")
    data = validate(path)
    assert first_error(data) == ("X001", line_of(path, "goals Anna"))


@pytest.mark.parametrize("goals, fragment", [
    (("school", "school", "lowest-of-each", "one-each"), "twice"),
    (("school", "one-each", "lowest-of-each", "one-each"), "more than one player"),
])
def test_bad_goal_deals_are_x001(tmp_path, goals, fragment):
    data = validate(game(tmp_path, goals, None))
    assert first_error(data)[0] == "X001"
    assert fragment in data["errors"][0]["message"]


def test_goals_in_a_base_game_is_x001(tmp_path):
    path = game(tmp_path, GOALS, None, variant="base", turns=TURNS.replace("choose\n", ""))
    assert first_error(validate(path)) == ("X001", line_of(path, "goals Anna"))


def test_house_rule_deal_one_special_one_building(tmp_path):
    path = game(tmp_path, GOALS, REVEAL)  # Ben holds two specials
    assert validate(path, "--rules", "deskovehry-cz")["valid"]
    data = validate(path, "--rules", "deskovehry-cz-house")
    assert first_error(data) == ("X001", line_of(path, "goals Ben"))
    fair = game(tmp_path, ("all-threes", "school", "lowest-of-each", "church"),
                "reveal Anna: all-threes/school, Ben: lowest-of-each/church", name="fair.dn")
    assert validate(fair, "--rules", "deskovehry-cz-house")["valid"]


def test_revealing_a_card_not_dealt_is_x003(tmp_path):
    path = game(tmp_path, GOALS, "reveal Anna: all-threes/school, Ben: lowest-of-each/church")
    data = validate(path)
    assert first_error(data)[0] == "X003"
    assert "Ben reveals lowest-of-each/church but was dealt lowest-of-each and one-each" in \
        data["errors"][0]["message"]


def test_a_chosen_and_other_card_swapped_is_fine_and_scores_the_chosen(tmp_path):
    path = game(tmp_path, GOALS, "reveal Anna: school/all-threes, Ben: one-each/lowest-of-each",
                score="score Anna: 0, Ben: 8", result="Ben")
    data = validate(path)
    assert data["valid"], data["errors"]
