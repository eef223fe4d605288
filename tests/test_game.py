"""The public Game API and position strings: push/pop, round trips through DN and
position strings, illegal pushes judged as validate judges them, and adjudication
from a position agreeing with adjudication from a record."""
from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import COMPILED, examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drunter_notation import DnError, Game
from drunter_notation.adjudication import adjudicate, adjudicate_position
from drunter_notation.cli.adjudicate import adjudicate as adjudicate_command
from drunter_notation.data.rulesets import list_rulesets
from drunter_notation.load import judge
from drunter_notation.notation.formatter import format_placement
from drunter_notation.notation.model import Placement, Tile, Turn
from drunter_notation.notation.parser import parse_file
from drunter_notation.position import format_position, parse_position
from drunter_notation.rules import game as rules_game
from drunter_notation.rules.state import State

ROOT = Path(__file__).resolve().parents[1]
TINY = str(ROOT / "replays" / "boards" / "tiny.toml")
RULES = [r.id for r in list_rulesets()]


def snapshot(s: State) -> tuple:
    """Everything a position holds, to compare two positions exactly."""
    return (s.players, s.variant, tuple(s.tiles), dict(s.covered), set(s.bridges), dict(s.gangs),
            None if s.hands is None else {p: +h for p, h in s.hands.items()},
            {p: +c for p, c in s.cards.items()}, dict(s.spent_on), dict(s.removed_on),
            s.number, s.seat, s.due, s.chosen)


def random_push(g: Game, rng: random.Random):
    """One random legal event: the expert choice when due, else a random legal
    placement with random ballots, else a pass."""
    if g.choice_due:
        return g.push("choose", keep={p: rng.choice(g.cards[p]) for p in g.players})
    moves = g.legal_moves()
    if not moves:
        return g.push("pass")
    move = rng.choice(moves)
    vote = jein = None
    if move.needs_vote:
        vote = {p: rng.sample([c for c, n in g.state.cards[p].items() if n], 1) for p in g.players}
        jein = {p: rng.choice(("yes", "no")) for p in g.players}
    return g.push(move if rng.random() < 0.7 else str(move), vote=vote, jein=jein)


games = st.fixed_dictionaries({
    "seed": st.integers(0, 10**6), "players": st.sampled_from((2, 3, 4)),
    "variant": st.sampled_from(("base", "expert")), "rules": st.sampled_from(RULES),
    "tiny": st.booleans()})


def new_game(p) -> Game:
    players = ("Anna", "Ben", "Cleo", "Dora")[:p["players"]]
    if p["tiny"]:
        players = players[:2]  # the tiny board's box deals evenly to two
    return Game.new(players, board=TINY if p["tiny"] else "schilda", rules=p["rules"], variant=p["variant"],
                    seed=p["seed"])


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_push_pop_and_round_trips(p):
    g = new_game(p)
    rng = random.Random(p["seed"])
    history = [snapshot(g.state)]
    while not g.is_over():
        random_push(g, rng)
        history.append(snapshot(g.state))
        if len(history) % 9 == 0:  # now and then: the position string and the record reproduce the game
            assert Game.from_position(g.position()) == g
            assert Game.from_position(g.position()).position() == g.position()
            assert Game.from_dn(g.to_dn()) == g
    text = g.to_dn()
    t = judge(Game.from_dn(text).to_record())
    assert t.valid and t.complete, [d.format("game") for d in t.errors]
    assert g.result() is not None and t.winners == g.result().winners
    assert Game.from_dn(text) == g and Game.from_position(g.position()) == g
    while g.events:  # pop() undoes exactly, back to the deal
        g.pop()
        history.pop()
        assert snapshot(g.state) == history[-1]
    with pytest.raises(DnError) as nothing_to_undo:
        g.pop()
    assert nothing_to_undo.value.diagnostic.code == "U001"


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, st.integers(0, 200), st.sampled_from("WSR"), st.integers(1, 3), st.integers(0, 14),
       st.integers(0, 14), st.sampled_from([(0, 1), (1, 0), (0, -1), (-1, 0)]))
def test_an_illegal_push_is_judged_as_validate_judges_it(p, turns, kind, length, col, row, d):
    g = new_game(p)
    rng = random.Random(p["seed"])
    for _ in range(turns):
        if g.is_over() or g.choice_due:
            break
        random_push(g, rng)
    if g.choice_due:
        return
    anchor = (col, row)
    end = None if length == 1 else (col + d[0] * (length - 1), row + d[1] * (length - 1))
    if end is not None and min(end) < 0:
        end = (col - d[0] * (length - 1), row - d[1] * (length - 1))  # DN writes no square left of a or below 1
    placement = Placement(Tile(kind, length), anchor, end)
    text = format_placement(placement)
    before = snapshot(g.state)
    record = dataclasses.replace(g.to_record(), events=(*g.events, Turn(g.turn, g.to_move, placement)))
    expected = judge(record, rules=g.ruleset.id, board=TINY if p["tiny"] else "schilda")
    try:
        decision = g.push(text)
    except DnError as e:
        assert snapshot(g.state) == before  # nothing changed
        first = expected.errors[0]
        assert (e.diagnostic.code, e.diagnostic.message) == (first.code, first.message)
        assert e.diagnostic.rule == first.rule and e.diagnostic.citation == first.citation
    else:
        assert not [d for d in expected.errors if d.turn == decision.number], "validate rejects what push took"


@given(st.text(min_size=1, max_size=12))
def test_a_name_is_taken_only_when_its_record_reads_it_back(name):
    try:
        g = Game.new([name, "Zoe Zed"], seed=3)
    except DnError as e:
        assert e.diagnostic.code == "H001"
        assert any(c in name for c in ",\n\x00") or name.strip() != name or name == "Zoe Zed" \
            or any(0xD800 <= ord(c) <= 0xDFFF for c in name)
    else:
        assert Game.from_dn(g.to_dn()).players == (name, "Zoe Zed")


def test_new_game_deals_as_simulate_and_checks_what_it_is_given():
    g = Game.new(["Anna", "Ben"], seed=7)
    assert g.to_move == "Anna" and g.turn == 1 and sum(g.dealt["Anna"].values()) == sum(g.dealt["Ben"].values())
    assert Game.new(["Anna", "Ben"], seed=7) == g and Game.new(["Anna", "Ben"], seed=8) != g
    with pytest.raises(DnError) as e:
        Game.new(["Anna"])
    assert e.value.diagnostic.code == "H001"
    with pytest.raises(DnError) as e:
        Game.new(["Anna", "Ben"], hands={"Anna": {"W3": 99}, "Ben": {}})
    assert e.value.diagnostic.code == "D002"
    with pytest.raises(DnError) as e:
        Game.new(["Anna", "Ben"], cards={"Anna": "museum", "Ben": "museum"})
    assert e.value.diagnostic.code == "E001"
    with pytest.raises(DnError) as e:
        Game.new(["Anna", "Ben"], board="nope")
    assert e.value.diagnostic.code == "H003"


ODD_CARDS = [
    {"Anna": 5, "Ben": "museum"}, {"Anna": None, "Ben": "museum"}, {"Anna": [1, 2], "Ben": "museum"},
    {"Anna": [["museum"]], "Ben": "museum"}, {"Anna": "castle", "Ben": "museum"}, {"Anna": "museum", "Ben": "museum"},
    {"Anna": "museum"}, {"Anna": "museum", "Ben": "tavern", "Cleo": "school"}, {5: "museum", "Ben": "tavern"},
    ["museum", "tavern"], "museum", None, 5]


@pytest.mark.parametrize("cards", ODD_CARDS, ids=repr)
@pytest.mark.parametrize("variant, code", [("base", "E001"), ("expert", "X001")])
def test_cards_are_checked_alike_by_new_and_set_cards(cards, variant, code):
    """Whatever the value, one DnError with the variant's code, from new and set_cards alike."""
    g = Game.new(["Anna", "Ben"], variant=variant)
    with pytest.raises(DnError) as later:
        g.set_cards(cards)
    assert later.value.diagnostic.code == code and g.cards is None
    if cards is not None:  # new() without cards deals none
        with pytest.raises(DnError) as first:
            Game.new(["Anna", "Ben"], variant=variant, cards=cards)
        assert first.value.diagnostic == later.value.diagnostic


def test_set_cards_takes_a_card_or_a_list_of_cards():
    g = Game.new(["Anna", "Ben"], variant="expert")
    g.set_cards({"Anna": ["one-each", "museum"], "Ben": ("tavern", "school")})
    assert g.cards == {"Anna": ("one-each", "museum"), "Ben": ("tavern", "school")}
    g = Game.new(["Anna", "Ben"])
    g.set_cards({"Anna": "museum", "Ben": ["tavern"]})
    assert g.cards == {"Anna": ("museum",), "Ben": ("tavern",)}


def test_moves_know_their_text_and_vote():
    g = Game.from_dn((ROOT / "replays" / "legal-4p.dn").read_text("utf-8"))
    while g.events:
        g.pop()
    texts = [str(m) for m in g.legal_moves()]
    assert "S2 b1-c1" in texts or any(t.startswith("S") for t in texts)
    for m in g.legal_moves():
        assert m.needs_vote == bool(m.toilets)  # hig-1991 votes on every toilet
    with pytest.raises(DnError) as e:
        g.push("pass")
    assert e.value.diagnostic.code == "T004"


def test_a_vote_is_given_as_cards_per_player():
    g = Game.from_dn((ROOT / "replays" / "disputes" / "tie-vote-1-1.dn").read_text("utf-8"),
                     str(ROOT / "replays" / "disputes" / "tie-vote-1-1.dn"))
    while g.turn > 3:
        g.pop()
    with pytest.raises(DnError) as e:
        g.push("S1 c2")
    assert e.value.diagnostic.code == "B001"
    d = g.push("S1 c2", vote={"Ben": ["NE"], "Anna": ["JA"]})  # put in voting order for you
    assert d.accepted is True and "B5" in d.rules
    assert g.events[-1].placement.vote.ballots[0].player == "Anna"
    g.pop()
    d = g.push("S1 c2", vote={"Anna": ["JEIN"], "Ben": ["NEE"]}, jein={"Anna": "no"})
    assert d.accepted is False and "B6" in d.rules and g.state.covered.get((2, 1)) is None


@pytest.mark.skipif(COMPILED, reason="a compiled engine calls rules.game directly: the monkeypatch cannot reach it")
def test_the_game_ends_in_one_place(monkeypatch):
    """E1 has one definition: the replay, the Game API and the simulator all ask
    rules.game.game_over, so they cannot disagree."""
    g = Game.new(["Anna", "Ben"], seed=3)
    assert not g.is_over()
    calls = []
    monkeypatch.setattr(rules_game, "game_over", lambda state: calls.append(state) or True)
    g._legal = []
    assert g.is_over() and calls
    record = g.to_record()
    record = dataclasses.replace(record, events=(Turn(1, "Anna", None),))
    t = judge(record)
    assert t.errors[0].code == "T005"  # the replay asked the same function


def test_position_strings_are_checked_field_by_field():
    good = Game.new(["Anna", "Ben"], seed=1).position()
    assert good.startswith("dn1 schilda hig-1991 base Anna,Ben 1 - - ")
    for bad, field in ((good.replace("dn1", "dn2"), 1), (good.replace(" base ", " basic "), 4),
                       (good.replace("Anna,Ben", "Anna"), 5), (good.replace(" 1 - - ", " 0 - - "), 6),
                       (good.replace(" 1 - - ", " 1 S2b1-c3@a1:1 - "), 7), (good + " extra", 12)):
        with pytest.raises(DnError) as e:
            Game.from_position(bad)
        assert e.value.diagnostic.code == "P002", bad
        assert f"field {field} " in e.value.diagnostic.message or field == 12
    names = Game.new(["Anna Maria", "Bo; the 2nd"], seed=1)
    assert Game.from_position(names.position()).players == ("Anna Maria", "Bo; the 2nd")


SAMPLES = sorted(p for p in (ROOT / "replays").rglob("*.dn")
                 if p.parent.name != "illegal" and "expect: valid" in p.read_text("utf-8").split("\n", 3)[0]
                 + p.read_text("utf-8").split("\n", 3)[1])


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: str(p.relative_to(ROOT / "replays")))
def test_adjudicating_a_position_agrees_with_adjudicating_the_record(path):
    record = parse_file(path)
    turns = [t for t in record.turns]
    picked = turns[::max(1, len(turns) // 6)] + turns[-1:]
    for ruleset in list_rulesets():
        for ev in picked:
            (from_record,) = adjudicate(record, str(path), ev.number, [ruleset.id])
            if from_record.legal is None:
                continue  # an earlier turn breaks this ruleset: no position to compare
            before = dataclasses.replace(record, events=record.events[:record.events.index(ev)], reveal=None,
                                         score=None)
            t = judge(before, str(path), rules=ruleset.id)
            state, _, rs = parse_position(format_position(t.state, ruleset))
            move = "pass" if ev.placement is None else format_placement(ev.placement)
            (from_position,) = adjudicate_position(state, [rs], move)
            assert (from_position.legal, from_position.code, from_position.message) == \
                   (from_record.legal, from_record.code, from_record.message), (path.name, ev.number, ruleset.id)
            assert from_position.rules == from_record.rules and from_position.vote == from_record.vote


def test_adjudicate_position_from_the_command_line():
    g = Game.from_dn((ROOT / "replays" / "disputes" / "tie-vote-1-1.dn").read_text("utf-8"),
                     str(ROOT / "replays" / "disputes" / "tie-vote-1-1.dn"))
    while g.turn > 3:
        g.pop()
    runner = CliRunner()
    out = runner.invoke(adjudicate_command, ["--position", g.position(), "--move",
                                             "S1 c2 vote { Anna: JA, Ben: NE }", "--all-rulesets"])
    assert out.exit_code == 0, out.output
    assert "webley-en accepts (the vote is rejected: the tile goes back)" in out.output
    as_json = runner.invoke(adjudicate_command, ["--position", g.position(), "--move", "S1 c2", "--format",
                                                 "json"])
    assert '"code": "B001"' in as_json.output
    bad = runner.invoke(adjudicate_command, ["--position", "dn1 schilda", "--move", "pass"])
    assert bad.exit_code == 1 and "error[P002]" in bad.output and "Traceback" not in bad.output
    usage = runner.invoke(adjudicate_command, ["--position", g.position()])
    assert usage.exit_code == 2
