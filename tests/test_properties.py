"""Property tests on simulated games.

Games come from :func:`simulate.simulate_game` with seeds, player counts, variants,
rulesets and boards drawn by hypothesis. Every invariant is computed here again
from the record and the board, with a small model of its own (:class:`Model`), and
compared with what the replay reached. The mutation tests change one thing in a
legal record and require the validator's verdict to agree with a second judge
(:func:`judge`) that drives the core's move *generator* (``legal_moves``) instead
of the checker the replay uses (``check_placement``, ``check_ballots``), and
scores with this file's own arithmetic: a mutation the validator accepts must be
genuinely legal, one it flags must be genuinely illegal.
"""
from __future__ import annotations

import dataclasses
import random
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import pytest
from click.testing import CliRunner
from conftest import examples
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from drunter_notation.cli.simulate import simulate
from drunter_notation.cli.validate import validate
from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.deal import PLAYER_NAMES
from drunter_notation.load import judge as judge_record
from drunter_notation.notation.formatter import format_record
from drunter_notation.notation.model import BUILDINGS, CARD_NAMES, Card, Choose, Goals, Hand, Placement, Record, Turn
from drunter_notation.notation.parser import parse_text
from drunter_notation.rules import game, turn, votes
from drunter_notation.rules import placement as pl
from drunter_notation.rules.board import Board
from drunter_notation.rules.options import Options, Ruleset
from drunter_notation.rules.state import Violation, new_state
from drunter_notation.simulate import simulate_game

ROOT = Path(__file__).resolve().parent.parent
TINY_PATH = ROOT / "replays" / "boards" / "tiny.toml"
RULESETS = ("hig-1991", "webley-en", "deskovehry-cz", "deskovehry-cz-house")
VOTES = {"JA": ("yes", 1), "JAA": ("yes", 2), "JAAA": ("yes", 3), "NE": ("no", 1), "NEE": ("no", 2),
         "NEEE": ("no", 3), "JEIN": (None, 2), "?": (None, 0)}  # B3/B4, written out again
DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))


class Game(NamedTuple):
    record: Record
    board: Board
    ruleset: Ruleset


class Params(NamedTuple):
    """What a simulated game is made from (hypothesis shows these when a test fails)."""

    seed: int
    players: int
    variant: str
    rules: str
    tiny: bool


def params():
    """2-4 players, base or expert, one of the shipped rulesets, the default board or
    (2 and 4 players: its box splits evenly) the tiny test board."""
    return st.builds(Params, st.integers(0, 2**32), st.sampled_from((2, 3, 4)),
                     st.sampled_from(("base", "expert")),
                     st.sampled_from(RULESETS), st.integers(0, 4).map(lambda k: k == 0)
                     ).map(lambda p: p._replace(tiny=p.tiny and p.players != 3))


def play(p: Params) -> Game:
    """The simulated game of ``p``; on the tiny board its Board tag is the file's absolute path."""
    board = load_board(str(TINY_PATH)) if p.tiny else load_board("schilda")
    ruleset = load_ruleset(p.rules)
    record = simulate_game(board, ruleset, PLAYER_NAMES[:p.players], random.Random(p.seed), p.variant,
                           board_tag=str(TINY_PATH) if p.tiny else None)
    return Game(record, board, ruleset)


# --- an independent model of the position -------------------------------------------

def line(p: Placement) -> tuple:
    """The squares of a placement as written: anchor to end, a straight line of the
    tile's length; None when the squares cannot be such a line."""
    if p.end is None or p.end == p.anchor:
        return (p.anchor,) if p.tile.length == 1 else None
    (ac, ar), (ec, er) = p.anchor, p.end
    if (ac != ec and ar != er) or abs(ec - ac) + abs(er - ar) != p.tile.length - 1:
        return None
    dc, dr = (ec > ac) - (ec < ac), (er > ar) - (er < ar)
    return tuple((ac + k * dc, ar + k * dr) for k in range(p.tile.length))


def accepted(vote, options: Options) -> tuple[bool, int, int]:
    """B5 counted again: (stands, yes, no)."""
    yes = no = 0
    for ballot in vote.ballots:
        for card in ballot.cards:
            side, value = VOTES[card.name]
            side = side or card.declared
            yes += value if side == "yes" else 0
            no += value if side == "no" else 0
    if options.vote_outcome == "yes-at-least-no":
        return yes >= no, yes, no
    return yes > no or yes == no == 0, yes, no


def goal_points(board: Board, covered, goal: str) -> int:
    """E2/X4 from the board: the uncovered buildings a goal card counts."""
    standing = [(kind, value) for sq, (kind, value) in board.buildings.items() if sq not in covered]
    if goal in BUILDINGS:
        return sum(v for k, v in standing if k == goal)
    if goal in ("all-threes", "all-fours"):
        face = 3 if goal == "all-threes" else 4
        return sum(v for _, v in standing if v == face)
    if goal == "one-each":
        return len(standing)
    lowest = {}
    for k, v in standing:
        lowest[k] = min(v, lowest.get(k, v))
    return sum(lowest.values())


def is_expert(record: Record) -> bool:
    variant = record.tag("Variant")
    return variant is not None and variant.value == "expert"


def results(record: Record, board: Board, covered, cards: dict[str, Counter]) -> tuple[dict, list]:
    """Scores of the revealed cards and the winners (E3/X3 tie-breaks), from scratch."""
    expert = is_expert(record)
    entries = {e.player: e for e in record.reveal.entries}
    scores = {p: goal_points(board, covered, entries[p].chosen) for p in entries}

    def key(p):
        left = sum(VOTES[c][1] * n for c, n in cards[p].items())
        return (scores[p], goal_points(board, covered, entries[p].other) if expert else 0, left)

    best = max(key(p) for p in record.players)
    return scores, [p for p in record.players if key(p) == best]


class Model:
    """Tiles, gangs and cards tracked from the record alone (rules A2, A4-A6, B7)."""

    def __init__(self, board: Board, options: Options, players):
        self.board, self.options = board, options
        self.gangs = {c: c for c in board.corners}
        self.covered: dict = {}
        self.bridges: set = set()
        self.laid = {p: Counter() for p in players}
        self.cards = {p: Counter(CARD_NAMES) for p in players}

    def free(self, sq) -> bool:
        return self.board.on_board(sq) and sq not in self.board.corners and sq not in self.covered

    def way(self, gang, d):
        """The first square from ``gang`` in direction ``d`` past the bridge fields a
        track may pass under (one, or a run when the ruleset allows)."""
        limit = 99 if self.options.bridge_runs else 1
        sq, passed = (gang[0] + d[0], gang[1] + d[1]), 0
        while sq in self.bridges and passed < limit:
            sq, passed = (sq[0] + d[0], sq[1] + d[1]), passed + 1
        return sq

    def trapped(self, gang) -> bool:
        edge = gang[0] in (0, self.board.width - 1) or gang[1] in (0, self.board.height - 1)
        if edge and not self.options.trap_counts_edge:
            return False
        return not any(self.free(self.way(gang, d)) for d in DIRS)

    def track(self, p: Placement, squares) -> tuple[int, int]:
        """The one live track of the tile's kind whose gang reaches the anchor."""
        ds = DIRS if len(squares) == 1 else [(squares[1][0] - squares[0][0], squares[1][1] - squares[0][1])]
        fits = [c for c, g in self.gangs.items()
                if g is not None and self.board.corners[c][0].upper() == p.tile.kind
                and (p.corner is None or p.corner == c) and any(self.way(g, d) == squares[0] for d in ds)]
        assert len(fits) == 1, f"{p}: tracks {fits}"
        return fits[0]

    def place(self, p: Placement, player: str) -> None:
        squares = line(p)
        corner = self.track(p, squares)
        assert all(self.free(sq) for sq in squares), f"{p} covers a covered square or a corner"
        for sq in squares:
            self.covered[sq] = player
        if len(squares) == 3:
            self.bridges.add(squares[1])
        self.gangs[corner] = squares[-1]
        self.laid[player][p.tile] += 1
        for c, g in self.gangs.items():
            if g is not None and self.trapped(g):
                self.gangs[c] = None

    def vote(self, vote) -> None:
        for ballot in vote.ballots:
            for card in ballot.cards:
                if card.name != "?":
                    self.cards[ballot.player][card.name] -= 1
                    assert self.cards[ballot.player][card.name] == 0, f"{card} spent twice"


def dealt(record: Record) -> dict[str, Counter]:
    return {h.player: Counter({t.tile: t.count for t in h.tiles}) for h in record.setup if isinstance(h, Hand)}


# --- simulated games: validity and invariants --------------------------------------

@settings(max_examples=examples(300), deadline=None)
@given(params())
def test_simulated_games_are_legal_and_keep_the_invariants(p):
    record, board, ruleset = play(p)
    text = format_record(record)
    assert parse_text(text) == record  # format -> parse round trip
    assert format_record(parse_text(text)) == text
    t = judge_record(record, keep_states=True)
    assert t.diagnostics == [], [d.format("sim") for d in t.diagnostics]
    model = Model(board, ruleset.options, record.players)
    turns = [s for s in t.steps if isinstance(s.event, Turn)]
    assert [s.event for s in turns] == list(record.turns)
    for step in turns:
        p, st_ = step.event.placement, step.state
        if p is not None:
            stands = True
            if p.vote is not None:
                stands, yes, no = accepted(p.vote, ruleset.options)
                assert (p.outcome.accepted, p.outcome.yes, p.outcome.no) == (stands, yes, no)
                model.vote(p.vote)
            if stands:
                model.place(p, step.event.player)
        # each gang on its track's last end square or its corner, or removed exactly when trapped
        assert st_.gangs == model.gangs, f"turn {step.event.number}"
        assert st_.covered.keys() == model.covered.keys()
        assert sum(len(lt.squares) for lt in st_.tiles) == len(st_.covered)  # no square covered twice
    final = t.state
    for player, hand in dealt(record).items():
        assert model.laid[player] + final.hands[player] == hand  # tiles placed + in hand = dealt
        assert final.cards[player] == +model.cards[player]
        assert final.cards[player]["?"] == 1  # ? is never spent
        spent = Counter(c.name for s in turns if s.event.placement and s.event.placement.vote
                        for b in s.event.placement.vote.ballots if b.player == player for c in b.cards
                        if c.name != "?")
        assert final.cards[player] + spent == Counter(CARD_NAMES)  # the 8 cards: in hand + spent
    scores, winners = results(record, board, model.covered, model.cards)
    assert scores == t.scores == {e.player: e.points for e in record.score.entries}
    assert sorted(winners) == sorted(t.winners) == sorted(n.strip() for n in record.tag("Result").value.split(","))


@settings(max_examples=examples(30), deadline=None)
@given(st.integers(0, 2**32), st.sampled_from((2, 3, 4)), st.sampled_from(("base", "expert")))
def test_same_seed_same_bytes(seed, n, variant):
    board, rules = load_board("schilda"), load_ruleset("hig-1991")
    a, b = (format_record(simulate_game(board, rules, PLAYER_NAMES[:n], random.Random(seed), variant))
            for _ in range(2))
    assert a == b


# --- a second judge for mutated records ------------------------------------------

def judge(record: Record, board: Board, ruleset: Ruleset) -> str | None:
    """Why ``record`` breaks a rule, or None when it is legal -- judged by driving the
    core: a placement is legal when ``legal_moves`` offers exactly it, a pass when it
    offers nothing; ballots, claims, ``choose``, the end and the scores are checked
    here. Header and setup lines are taken as given (mutations leave them alone)."""
    players, expert = record.players, is_expert(record)
    hands = dealt(record)
    goals = {g.player: set(g.goals) for g in record.setup if isinstance(g, Goals)}
    state = new_state(board, ruleset.options, players, hands, "expert" if expert else "base")

    def finished():
        return expert and any(game.track_finished(state, c) for c in state.gangs)

    due, chosen, number = finished(), False, 0
    for ev in record.events:
        if isinstance(ev, Choose):
            if not due or chosen:
                return "choose out of place"
            chosen = True
            continue
        if due and not chosen:
            return "choose missing"
        number += 1
        if ev.number != number or ev.player != state.to_move:
            return "turn number or player"
        if game.game_over(state):
            return "turn after the end"
        p = ev.placement
        if p is None:
            if game.must_place(state, ev.player):
                return "pass under Legezwang"
        else:
            squares = line(p)
            fits = [m for m in pl.legal_moves(state, ev.player) if (m.tile, m.squares) == (p.tile, squares)
                    and p.corner in (None, m.corner)]
            if len(fits) != 1:
                return f"{len(fits)} legal placements match"
            move, stands = fits[0], True
            if (p.vote is not None) != move.needs_vote or (p.outcome and not p.vote):
                return "vote held or missing wrongly"
            if p.vote is not None:
                voters = [b.player for b in p.vote.ballots]
                order = list(votes.voting_order(state, ev.player))
                if (voters != order if ruleset.options.ballot_order != "any" else sorted(voters) != sorted(order)):
                    return "ballot order"
                for b in p.vote.ballots:
                    laid = Counter(c.name for c in b.cards)
                    if not b.cards or any(c.name == "JEIN" and c.declared is None for c in b.cards) \
                            or any(n > state.cards[b.player][c] for c, n in laid.items()):
                        return "ballot"
                stands, yes, no = accepted(p.vote, ruleset.options)
                o = p.outcome
                if o is not None and (o.accepted != stands or (o.yes is not None and (o.yes, o.no) != (yes, no))):
                    return "claimed outcome"
                votes.spend_cards(state, p.vote, ev.number)
            if stands:
                pl.apply_move(state, move, ev.number, ev.player)
        state.seat = (state.seat + 1) % len(players)
        due = due or finished()
    if record.reveal is None:
        return None
    if not game.game_over(state) or (due and not chosen):
        return "not over, or choose missing"
    entries = {e.player: e for e in record.reveal.entries}
    cards = [c for e in record.reveal.entries for c in (e.chosen, e.other) if c is not None]
    if sorted(entries) != sorted(players) or len(record.reveal.entries) != len(players) or \
            len(set(cards)) != len(cards):
        return "reveal"
    for p, e in entries.items():
        if (expert and {e.chosen, e.other} != goals[p]) or (not expert and (e.other or e.chosen not in BUILDINGS)):
            return "revealed card"
    scores, winners = results(record, board, state.covered, state.cards)
    if record.score and {e.player: e.points for e in record.score.entries} != scores:
        return "score claim"
    if sorted(winners) != sorted(n.strip() for n in record.tag("Result").value.split(",")):
        return "Result"
    return None


# --- mutations: each changes one thing ------------------------------------------

def _events_where(record, test):
    return [i for i, e in enumerate(record.events) if isinstance(e, Turn) and test(e)]


def _set_event(record, i, event):
    return dataclasses.replace(record, events=(*record.events[:i], event, *record.events[i + 1:]))


def _set_placement(record, i, **changes):
    e = record.events[i]
    return _set_event(record, i, dataclasses.replace(e, placement=dataclasses.replace(e.placement, **changes)))


def mutate_square(record, draw):
    i = draw(st.sampled_from(_events_where(record, lambda e: e.placement is not None)))
    p = record.events[i].placement
    dc, dr = draw(st.sampled_from(DIRS))
    which = draw(st.sampled_from(("anchor", "end", "both") if p.end else ("anchor",)))
    move = lambda sq: (sq[0] + dc, sq[1] + dr)
    anchor = move(p.anchor) if which != "end" else p.anchor
    end = move(p.end) if which != "anchor" and p.end else p.end
    if min(anchor + (end or anchor)) < 0:
        return None  # a square left of column a or below row 1 cannot be written
    return _set_placement(record, i, anchor=anchor, end=end)


def mutate_player(record, draw):
    i = draw(st.sampled_from(_events_where(record, lambda e: True)))
    e = record.events[i]
    return _set_event(record, i, dataclasses.replace(
        e, player=draw(st.sampled_from([p for p in record.players if p != e.player]))))


def _votes(record):
    return _events_where(record, lambda e: e.placement is not None and e.placement.vote is not None)


def mutate_card(record, draw):
    i = draw(st.sampled_from(_votes(record) or [None]))
    if i is None:
        return None
    vote = record.events[i].placement.vote
    b = draw(st.integers(0, len(vote.ballots) - 1))
    ballot = vote.ballots[b]
    k = draw(st.integers(0, len(ballot.cards) - 1))
    name = draw(st.sampled_from([c for c in CARD_NAMES if c != ballot.cards[k].name]))
    card = Card(name, draw(st.sampled_from(("yes", "no"))) if name == "JEIN" else None)
    ballot = dataclasses.replace(ballot, cards=(*ballot.cards[:k], card, *ballot.cards[k + 1:]))
    return _set_placement(record, i, vote=dataclasses.replace(
        vote, ballots=(*vote.ballots[:b], ballot, *vote.ballots[b + 1:])))


def mutate_tally(record, draw):
    i = draw(st.sampled_from(_votes(record) or [None]))
    if i is None:
        return None
    o = record.events[i].placement.outcome
    field = draw(st.sampled_from(("accepted", "yes", "no")))
    if field == "accepted":
        o = dataclasses.replace(o, accepted=not o.accepted)
    else:
        value = getattr(o, field) + draw(st.sampled_from((-2, -1, 1, 2)))
        if value < 0:
            return None
        o = dataclasses.replace(o, **{field: value})
    return _set_placement(record, i, outcome=o)


def mutate_drop_turn(record, draw):
    i = draw(st.sampled_from(_events_where(record, lambda e: True)))
    events = record.events[:i] + record.events[i + 1:]
    if draw(st.booleans()):  # renumber the turns after it, so that only the seats are off
        events = events[:i] + tuple(dataclasses.replace(e, number=e.number - 1) if isinstance(e, Turn) else e
                                    for e in events[i:])
    return dataclasses.replace(record, events=events)


def mutate_drop_vote(record, draw):
    i = draw(st.sampled_from(_votes(record) or [None]))
    if i is None:
        return None
    keep_outcome = draw(st.booleans())
    return _set_placement(record, i, vote=None,
                          outcome=record.events[i].placement.outcome if keep_outcome else None)


def mutate_score(record, draw):
    k = draw(st.integers(0, len(record.score.entries) - 1))
    e = record.score.entries[k]
    points = e.points + draw(st.sampled_from((-3, -1, 1, 2)))
    if points < 0:
        return None
    entries = (*record.score.entries[:k], dataclasses.replace(e, points=points), *record.score.entries[k + 1:])
    return dataclasses.replace(record, score=dataclasses.replace(record.score, entries=entries))


def mutate_reveal(record, draw):
    entries = list(record.reveal.entries)
    a = draw(st.integers(0, len(entries) - 1))
    if entries[a].other is not None and draw(st.booleans()):  # expert: the other card counts
        entries[a] = dataclasses.replace(entries[a], chosen=entries[a].other, other=entries[a].chosen)
    else:  # two players swap their (chosen) cards
        b = draw(st.sampled_from([k for k in range(len(entries)) if k != a]))
        entries[a], entries[b] = (dataclasses.replace(entries[a], chosen=entries[b].chosen),
                                  dataclasses.replace(entries[b], chosen=entries[a].chosen))
    return dataclasses.replace(record, reveal=dataclasses.replace(record.reveal, entries=tuple(entries)))


def mutate_choose(record, draw):
    at = next((i for i, e in enumerate(record.events) if isinstance(e, Choose)), None)
    if at is None:
        return None
    events = record.events[:at] + record.events[at + 1:]
    to = draw(st.integers(-1, len(events)))  # -1: dropped
    if to >= 0:
        events = (*events[:to], record.events[at], *events[to:])
    return dataclasses.replace(record, events=events)


MUTATIONS = {
    "square": mutate_square, "player": mutate_player, "card": mutate_card, "tally": mutate_tally,
    "drop-turn": mutate_drop_turn, "drop-vote": mutate_drop_vote, "score": mutate_score,
    "reveal": mutate_reveal, "choose": mutate_choose,
}
ALWAYS_ILLEGAL = {"player", "tally", "drop-turn", "drop-vote", "score"}  # no way for these to stay legal


@pytest.mark.parametrize("kind", MUTATIONS)
@settings(max_examples=examples(40), deadline=None)
@given(p=params(), data=st.data())
def test_a_mutation_is_flagged_or_genuinely_legal(kind, p, data):
    game = play(p._replace(variant="expert") if kind == "choose" else p)
    mutated = MUTATIONS[kind](game.record, data.draw)
    assume(mutated is not None and mutated != game.record)
    mutated = parse_text(format_record(mutated))  # a record that can really be written down
    t = judge_record(mutated)
    why = judge(mutated, game.board, game.ruleset)
    if t.valid:  # accepted: the second judge must find it genuinely legal
        assert why is None and kind not in ALWAYS_ILLEGAL, f"accepted, but {why}:\n{format_record(mutated)}"
    else:  # flagged: and genuinely illegal
        assert why is not None, f"flagged {[d.format('m') for d in t.errors]}, but legal:\n{format_record(mutated)}"


def test_judge_accepts_the_simulated_games():
    # the second judge agrees with the validator on unchanged records, so its verdicts above mean something
    board, rules = load_board("schilda"), load_ruleset("deskovehry-cz")
    for seed in range(10):
        for variant in ("base", "expert"):
            record = simulate_game(board, rules, PLAYER_NAMES, random.Random(seed), variant)
            assert judge(record, board, rules) is None


# --- the command ---------------------------------------------------------------

def test_simulate_command_writes_games_the_validator_accepts(tmp_path):
    runner = CliRunner()
    args = ["--players", "4", "--seed", "1", "--count", "20"]
    first, second = tmp_path / "a", tmp_path / "b"
    assert runner.invoke(simulate, [*args, "--out", str(first)]).exit_code == 0
    files = sorted(first.glob("*.dn"))
    assert len(files) == 20
    result = runner.invoke(validate, [str(first)])
    assert result.exit_code == 0, result.output
    assert runner.invoke(simulate, [*args, "--out", str(second)]).exit_code == 0
    assert [f.read_bytes() for f in files] == [(second / f.name).read_bytes() for f in files]  # same seed, same bytes
    alone = runner.invoke(simulate, ["--players", "4", "--seed", "1"])
    assert alone.exit_code == 0 and alone.output.encode() == (first / "game-1-1.dn").read_bytes()


@pytest.mark.parametrize("name", ["legal-2p", "legal-3p", "legal-4p", "legal-expert-4p"])
def test_the_simulated_samples_come_from_their_command(name):
    # each sample's second line names the command that wrote the rest of it
    lines = (ROOT / "replays" / f"{name}.dn").read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[0] == "# expect: valid\n" and lines[1].startswith("# simulated: drunter simulate ")
    result = CliRunner().invoke(simulate, lines[1].split()[4:])
    assert result.exit_code == 0 and result.output == "".join(lines[2:])


def test_simulate_command_refuses_to_overwrite(tmp_path):
    runner = CliRunner()
    args = ["--players", "2", "--seed", "5", "--count", "2", "--out", str(tmp_path)]
    assert runner.invoke(simulate, args).exit_code == 0
    (tmp_path / "game-5-2.dn").write_text("mine")
    refused = runner.invoke(simulate, args)
    assert refused.exit_code == 2 and "error[I005]" in refused.output and len(refused.output.splitlines()) == 1
    assert (tmp_path / "game-5-2.dn").read_text() == "mine"
    assert runner.invoke(simulate, [*args, "--force"]).exit_code == 0
    assert (tmp_path / "game-5-2.dn").read_text().startswith("[Event")


@pytest.mark.parametrize("args, code", [
    (["--players", "5", "--seed", "1"], "H001"),
    (["--players", "3", "--seed", "1", "--board", str(TINY_PATH)], "D002"),
    (["--players", "2", "--seed", "1", "--rules", "nope"], "H004"),
    (["--players", "2", "--seed", "1", "--board", "nope"], "H003"),
    (["--players", "2", "--seed", "1", "--count", "2"], "I005"),
])
def test_simulate_command_errors_are_one_line(args, code):
    result = CliRunner().invoke(simulate, args)
    assert result.exit_code == 2 and f"error[{code}]" in result.output and len(result.output.splitlines()) == 1


def test_a_board_file_is_named_relative_to_the_output_folder(tmp_path):
    out = tmp_path / "games"
    result = CliRunner().invoke(simulate, ["--players", "2", "--seed", "3", "--board", str(TINY_PATH),
                                           "--out", str(out)])
    assert result.exit_code == 0
    record = parse_text((out / "game-3-1.dn").read_text())
    assert (out / record.tag("Board").value).resolve() == TINY_PATH
    assert judge_record(record, str(out / "game-3-1.dn")).diagnostics == []



@settings(max_examples=examples(60), deadline=None)
@given(params(), st.booleans())
def test_game_over_is_no_player_able_to_place_at_every_position(p, with_hands):
    """E1 asked once per track over all hands, and kept across a run of passes, is E1
    asked player by player (T2's must_place) at every position of a simulated game;
    without hands too."""
    g = play(p)
    state = turn.new_game(g.board, g.ruleset.options, g.record.players, dealt(g.record) if with_hands else None,
                          "expert" if is_expert(g.record) else "base")

    def check():
        fresh = state.copy()  # nothing kept
        expected = not any(game.must_place(fresh, q) for q in fresh.players)
        assert game.game_over(state) is expected and game.game_over(fresh) is expected

    for ev in g.record.events:
        check()
        if isinstance(ev, Choose):
            turn.play_choose(state)
        else:
            assert not isinstance(turn.play_turn(state, ev.number, ev.player, ev.placement), Violation)
    check()
