"""Replay a record against the rules.

:func:`replay` drives the engine over a :class:`~drunter_notation.notation.model.Record`
with a board and ruleset already loaded (:mod:`drunter_notation.load` resolves the
record's tags to them) and returns a :class:`Timeline`: one :class:`Step` per event
with the engine's :class:`~drunter_notation.rules.turn.Decision`, and the
diagnostics. Findings are collected, never raised (as python-chess collects errors
on the game). The replay stops at the first rule violation; later turns are not
judged. Each turn is judged by :func:`rules.turn.play_turn`, in its fixed order.
"""
from __future__ import annotations

import datetime
import re
from collections import Counter
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Literal, NamedTuple, NoReturn, NotRequired, TypedDict

from drunter_notation.errors import Diagnostic
from drunter_notation.explain.findings import citation, hint, sentence
from drunter_notation.explain.scoring import tie_break
from drunter_notation.notation.model import (
    BUILDINGS,
    SPECIAL_GOALS,
    Choose,
    Goals,
    Hand,
    Record,
    Reveal,
    Square,
    Tile,
    Turn,
    near_known_tag,
)
from drunter_notation.rules import game, scoring, turn
from drunter_notation.rules.board import Board
from drunter_notation.rules.options import ExpertDeal, Ruleset
from drunter_notation.rules.placement import Move
from drunter_notation.rules.state import State, Variant, Violation, check_deal
from drunter_notation.rules.votes import Tally

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_ONCE = ("Players", "Board", "Rules", "Variant", "Result", "Date")  # tags that may stand only once


class Step(NamedTuple):
    """What one event did: the engine's ``decision`` (None for ``choose``) and the
    position after it (``state``, kept only on request). (A tuple, not a dataclass:
    one is made per turn.)"""

    event: Turn | Choose
    decision: turn.Decision | None = None
    state: State | None = None

    @property
    def player(self) -> str | None:
        return None if self.decision is None else self.decision.player

    @property
    def move(self) -> Move | None:
        return None if self.decision is None else self.decision.move

    @property
    def tally(self) -> Tally | None:
        d = self.decision
        return None if d is None or d.vote is None else d.vote.tally

    @property
    def accepted(self) -> bool | None:
        return None if self.decision is None else self.decision.accepted

    @property
    def removed(self) -> tuple[Square, ...]:
        """Corners whose gangs this event removed (A5)."""
        return () if self.decision is None else tuple(c for c, _ in self.decision.removed)

    @property
    def destroyed(self) -> tuple[tuple[Square, str, int], ...]:
        return () if self.decision is None else self.decision.destroyed


class Summary(TypedDict):
    """A timeline in figures (``drunter validate --json``); scores and winners once the game is scored."""

    turns: int
    placements: int
    passes: int
    votes: int
    rejected: int
    ruleset: str | None
    board: str | None
    variant: Variant
    complete: bool
    scores: NotRequired[dict[str, int]]
    winners: NotRequired[list[str]]


@dataclass
class Timeline:
    """The replay of one record: the steps, the diagnostics and the end of the game."""

    record: Record
    path: str
    board: Board | None = None
    ruleset: Ruleset | None = None
    variant: Variant = "base"
    players: tuple[str, ...] = ()
    steps: list[Step] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    initial: State | None = None
    state: State | None = None  # the final position reached
    stopped_at: int | None = None  # turn number of the first violation, if any
    scores: dict[str, int] | None = None
    standings: tuple[scoring.Standing, ...] | None = None
    winners: tuple[str, ...] | None = None
    ranking: scoring.Ranking | None = None

    @property
    def tie_break(self) -> str | None:
        """Who won and how every tie was broken, in words: rendered only when read."""
        return None if self.ranking is None else tie_break(self.ranking)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def complete(self) -> bool:
        return self.record.reveal is not None

    def _played(self) -> tuple[list[turn.Decision], list[turn.VoteDecision]]:
        """Each turn's decision and each vote held, in order."""
        # read in C, not by a loop: every file validated asks (a Decision and a VoteDecision are never empty)
        decisions = list(filter(None, map(_DECISION, self.steps)))
        return decisions, list(filter(None, map(_VOTE, decisions)))

    def counts(self) -> tuple[int, int]:
        """The turns played and the votes held: the figures of :meth:`summary` a file's line of text shows."""
        decisions, held = self._played()
        return len(decisions), len(held)

    def summary(self) -> Summary:
        decisions, held = self._played()
        turns, passes, votes = len(decisions), list(map(_MOVE, decisions)).count(None), len(held)
        rejected = list(map(_ACCEPTED, held)).count(False)
        out: Summary = {
            "turns": turns,
            "placements": turns - passes - rejected,  # Decision.stays: a tile voted down does not stay
            "passes": passes,
            "votes": votes,
            "rejected": rejected,
            "ruleset": self.ruleset.id if self.ruleset else None,
            "board": self.board.id if self.board else None,
            "variant": self.variant,
            "complete": self.complete,
        }
        if self.scores is not None:
            out["scores"] = self.scores
            out["winners"] = list(self.winners or ())
        return out


# read by position: a named tuple's field read by name is a descriptor's call, by position a plain index
_DECISION = itemgetter(Step._fields.index("decision"))
_MOVE, _VOTE = itemgetter(turn.Decision._fields.index("move")), itemgetter(turn.Decision._fields.index("vote"))
_ACCEPTED = itemgetter(turn.VoteDecision._fields.index("accepted"))


class _Stop(Exception):
    """Ends the replay at the first rule violation."""


def _finding(code: str, rule: str | None, why: str, **facts: Any) -> Violation:
    """A replay's own finding (header, setup, end): ``rule`` None for a header or warning code."""
    return Violation(code, rule or "", why, facts)


class _Replayer:
    def __init__(self, record: Record, path: str, board: Board | Diagnostic, ruleset: Ruleset | Diagnostic,
                 keep_states: bool):
        self.record = record
        self.keep = keep_states
        self.timeline = Timeline(record, path)
        self.board = board
        self.ruleset = ruleset
        self.goals: dict[str, Goals] = {}  # the expert goal cards dealt, by player (setup)

    # -- reporting ---------------------------------------------------------
    def _diagnostic(self, severity: Literal["error", "warning"], v: Violation, line: int, column: int,
                    turn_no: int | None) -> Diagnostic:
        return Diagnostic(severity=severity, code=v.code, message=sentence(v), line=line, column=column, turn=turn_no,
                          rule=v.rule or None, citation=citation(v, self.timeline.ruleset), hint=hint(v))

    def error(self, v: Violation, line: int, column: int, turn_no: int | None = None) -> NoReturn:
        self.timeline.diagnostics.append(self._diagnostic("error", v, line, column, turn_no))
        self.timeline.stopped_at = turn_no
        raise _Stop

    def warn(self, v: Violation, line: int = 0, column: int = 0) -> None:
        self.timeline.diagnostics.append(self._diagnostic("warning", v, line, column, None))

    # -- header and setup --------------------------------------------------
    def header(self) -> tuple[Board, Ruleset]:
        """The header's checks (H001, H002, W004); then the board and ruleset loaded,
        or the H003/H004 diagnostic their loading gave, which ends the replay."""
        rec, timeline = self.record, self.timeline
        for tag in rec.tags:  # before the checks that may stop: a slip like [players] explains them
            near = near_known_tag(tag.key)
            if near:
                self.warn(_finding("W004", None, "tag-slip", key=tag.key, known=near), tag.line, tag.column)
        players_tag = rec.tag("Players")
        if players_tag is None:
            self.error(_finding("H001", None, "players-missing"), 1, 1)
        names = rec.players
        if not 2 <= len(names) <= 4:
            self.error(_finding("H001", None, "players-count", n=len(names)), players_tag.line, players_tag.column)
        # mostly no name twice: a set tells, the Counter is made only to name the first one twice
        dup = [n for n, c in Counter(names).items() if c > 1] if len(set(names)) < len(names) else []
        if dup:
            self.error(_finding("H001", None, "player-twice", player=dup[0]), players_tag.line, players_tag.column)
        timeline.players = names
        seen = set()
        for tag in rec.tags:
            if tag.key in seen and tag.key in _ONCE:
                self.error(_finding("H002", None, "tag-twice", key=tag.key), tag.line, tag.column)
            seen.add(tag.key)
        variant = rec.tag("Variant")
        if variant is not None and variant.value not in ("base", "expert"):
            self.error(_finding("H002", None, "variant", value=variant.value), variant.line, variant.column)
        timeline.variant = "expert" if variant is not None and variant.value == "expert" else "base"
        date = rec.tag("Date")
        if date is not None and not valid_date(date.value):
            self.error(_finding("H002", None, "date", value=date.value), date.line, date.column)
        result = rec.tag("Result")
        if result is not None and result.value.strip() != "*":
            for name in (n.strip() for n in result.value.split(",")):
                if name not in names:
                    self.error(_finding("H002", None, "result-not-player", player=name), result.line, result.column)
        ruleset, board = self.ruleset, self.board
        if isinstance(ruleset, Diagnostic):  # an unknown ruleset or board, found while loading
            self._stop_with(ruleset)
        timeline.ruleset = ruleset
        if isinstance(board, Diagnostic):
            self._stop_with(board)
        timeline.board = board
        return board, ruleset

    def _stop_with(self, loading: Diagnostic) -> NoReturn:
        self.timeline.diagnostics.append(loading)
        raise _Stop

    def setup(self, board: Board, ruleset: Ruleset) -> State:
        rec, names, variant = self.record, self.timeline.players, self.timeline.variant
        hands: dict[str, dict[Tile, int]] = {}  # plain dicts: check_deal reads them, new_game copies them
        goals = self.goals
        for item in rec.setup:
            if isinstance(item, Hand):
                if item.player not in names:
                    self.error(_finding("D001", "S1", "hand-not-player", player=item.player), item.line, item.column)
                if item.player in hands:
                    self.error(_finding("D001", "S1", "hand-twice", player=item.player), item.line, item.column)
                held: dict[Tile, int] = {}
                for ht in item.tiles:
                    held[ht.tile] = held.get(ht.tile, 0) + ht.count
                hands[item.player] = held
            else:
                if variant != "expert":
                    self.error(_finding("X001", "X1", "goals-in-base"), item.line, item.column)
                if item.player not in names or item.player in goals:
                    why = "goals-not-player" if item.player not in names else "goals-twice"
                    self.error(_finding("X001", "X1", why, player=item.player), item.line, item.column)
                goals[item.player] = item
        if hands:
            self.check_hands(board, hands)
        else:
            first = next(iter(rec.events), None) or rec.tags[0]
            self.warn(_finding("W001", None, "no-hands"), first.line, first.column)
        if goals:
            self.check_goals(ruleset, goals)
        return turn.new_game(board, ruleset.options, names, hands or None, variant)

    def check_hands(self, board: Board, hands: dict[str, dict[Tile, int]]) -> None:
        """D001 a hand missing, then the deal (S1: D002, D003), at the hand concerned."""
        rec, names = self.record, self.timeline.players
        first_hand = next(s for s in rec.setup if isinstance(s, Hand))
        if len(hands) != len(names):
            missing = tuple(n for n in names if n not in hands)
            self.error(_finding("D001", "S1", "hands-missing", missing=missing), first_hand.line, first_hand.column)
        for who, v in check_deal(board, hands):
            at = next((s for s in rec.setup if isinstance(s, Hand) and s.player == who), first_hand)
            self.error(v, at.line, at.column)

    def check_goals(self, ruleset: Ruleset, goals: dict[str, Goals]) -> None:
        names = self.timeline.players
        first = next(iter(goals.values()))
        if len(goals) != len(names):
            missing = tuple(n for n in names if n not in goals)
            self.error(_finding("X001", "X1", "goals-missing", missing=missing), first.line, first.column)
        dealt: Counter[str] = Counter()
        for g in goals.values():
            a, b = g.goals
            if a == b:
                self.error(_finding("X001", "X1", "goal-same", player=g.player, card=a), g.line, g.column)
            dealt.update(g.goals)
            if ruleset.options.expert_deal is ExpertDeal.ONE_SPECIAL_ONE_BUILDING \
                    and (a in SPECIAL_GOALS) == (b in SPECIAL_GOALS):
                self.error(_finding("X001", "X1", "goal-mix", player=g.player, ruleset=ruleset.id), g.line, g.column)
        twice = [c for c, n in dealt.items() if n > 1]
        if twice:
            g = next(g for g in goals.values() if twice[0] in g.goals)
            self.error(_finding("X001", "X1", "goal-dealt-twice", card=twice[0]), g.line, g.column)

    # -- the game ----------------------------------------------------------
    def run(self) -> Timeline:
        timeline = self.timeline
        try:
            board, ruleset = self.header()
            st = self.setup(board, ruleset)
            timeline.initial = st.copy() if self.keep else None
            timeline.state = st
            self.events(st)
            if self.record.reveal is not None:
                self.end_of_game(st, self.record.reveal)
            else:
                self.partial()
        except _Stop:
            pass
        return timeline

    def events(self, st: State) -> None:
        steps, keep = self.timeline.steps, self.keep
        for ev in self.record.events:
            if isinstance(ev, Turn):  # mostly: a true isinstance is quick, a false one looks __class__ up too
                d = turn.play_turn(st, ev.number, ev.player, ev.placement)
                if type(d) is Violation:  # type(), for the same reason
                    claim = None if ev.placement is None else ev.placement.outcome
                    at = claim if d.code == "B005" and claim is not None else ev  # a claim's error stands there
                    self.error(d, at.line, at.column, ev.number)
                # every field, through tuple.__new__: one per turn, and the named tuple's __new__ is a Python function
                steps.append(tuple.__new__(Step, (ev, d, st.copy() if keep else None)))
                continue
            v = turn.play_choose(st)
            if v is not None:
                self.error(v, ev.line, ev.column)
            steps.append(Step(ev, None, st.copy() if keep else None))

    # -- the end -----------------------------------------------------------
    def end_of_game(self, st: State, reveal: Reveal) -> None:
        """The reveal's checks, the scores, then the record's score and result claims."""
        self.check_over(st, reveal)
        chosen, other = self.check_reveal(st, reveal)
        self.score(st, chosen, other)
        self.check_score(chosen)
        self.check_result()

    def check_over(self, st: State, reveal: Reveal) -> None:
        """At the reveal: X002 the expert choice not made, E002 the game not over (W001
        when the record has no hands to tell)."""
        here = (reveal.line, reveal.column)
        missing = turn.choose_missing(st, ended=True)
        if missing is not None:
            self.error(Violation(missing.code, missing.rule, missing.why, {**missing.facts, "at_reveal": True}), *here)
        if st.hands is not None:  # an ended game (E1, kept from the last pass) has nobody who must place
            who = None if game.game_over(st) else next((p for p in st.players if game.must_place(st, p)), None)
            if who is not None:
                self.error(_finding("E002", "E1", "not-over", player=who), *here)
        elif not game.game_over(st):
            self.warn(_finding("W001", "E1", "end-unchecked"), *here)

    def check_reveal(self, st: State, reveal: Reveal) -> tuple[dict[str, str], dict[str, str] | None]:
        """E001, X001, X003: one entry per player with the cards dealt (S3, X1, X3);
        returns each player's chosen card and, in an expert game, the other one."""
        expert = self.timeline.variant == "expert"
        here = (reveal.line, reveal.column)
        seen: dict[str, str] = {}
        others: dict[str, str] = {}
        cards_seen: dict[str, int] = {}  # a plain dict: a Counter's missing key is a Python call
        for e in reveal.entries:
            if e.player not in st.players:
                self.error(_finding("E001", "E2", "reveal-not-player", player=e.player), *here)
            if e.player in seen:
                self.error(_finding("E001", "E2", "reveal-twice", player=e.player), *here)
            seen[e.player] = e.chosen
            if not expert:
                if e.other is not None or e.chosen not in BUILDINGS:
                    shown = e.chosen + ("/" + e.other if e.other else "")
                    self.error(_finding("E001", "S3", "reveal-base", player=e.player, shown=shown), *here)
                cards_seen[e.chosen] = cards_seen.get(e.chosen, 0) + 1
                continue
            if e.other is None:
                self.error(_finding("E001", "X3", "reveal-pair", player=e.player), *here)
            g = self.goals.get(e.player)
            if g is not None and sorted((e.chosen, e.other)) != sorted(g.goals):
                self.error(_finding("X003", "X3", "not-dealt", player=e.player, chosen=e.chosen, other=e.other,
                                    dealt=g.goals), *here)
            if e.chosen == e.other:
                self.error(_finding("X001", "X1", "reveal-same", player=e.player, card=e.chosen), *here)
            others[e.player] = e.other
            for card in (e.chosen, e.other):
                cards_seen[card] = cards_seen.get(card, 0) + 1
        if len(seen) < len(st.players):  # seen holds players only, each once
            missing_players = tuple([p for p in st.players if p not in seen])
            self.error(_finding("E001", "E2", "reveal-missing", missing=missing_players), *here)
        twice = [c for c, k in cards_seen.items() if k > 1]
        if twice:
            self.error(_finding("X001", "X1", "card-twice", card=twice[0]) if expert
                       else _finding("E001", "E2", "card-twice", card=twice[0]), *here)
        return {p: seen[p] for p in st.players}, {p: others[p] for p in st.players} if expert else None

    def score(self, st: State, chosen: dict[str, str], other: dict[str, str] | None) -> None:
        """E2/E3 (X3): the scores, standings and winners, kept on the timeline."""
        timeline = self.timeline
        ranking = scoring.rank_players(st.board, st.covered, st.players, chosen, st.cards, other)
        timeline.standings = ranking.standings
        timeline.winners = ranking.winners
        timeline.ranking = ranking
        timeline.scores = {s.player: s.score for s in ranking.standings}

    def check_score(self, chosen: dict[str, str]) -> None:
        """E003: the record's ``score`` line against the scores."""
        score, scores = self.record.score, self.timeline.scores
        if score is None or scores is None:
            return
        score_rule = "X3" if self.timeline.variant == "expert" else "E2"
        for e in score.entries:
            if e.player not in scores:
                self.error(_finding("E003", score_rule, "score-not-player", player=e.player), e.line, e.column)
            if scores[e.player] != e.points:
                self.error(_finding("E003", score_rule, "score", player=e.player, claimed=e.points,
                                    score=scores[e.player], goal=chosen[e.player]), e.line, e.column)

    def check_result(self) -> None:
        """E004: the Result tag against the winners."""
        timeline = self.timeline
        result = self.record.tag("Result")
        if result is None or timeline.winners is None:
            return
        claimed = sorted(n.strip() for n in result.value.split(",")) if result.value.strip() != "*" else None
        if claimed != sorted(timeline.winners):
            self.error(_finding("E004", "X3" if timeline.variant == "expert" else "E3", "result",
                                claimed=result.value, winners=timeline.winners, tie_break=timeline.tie_break),
                       result.line, result.column)

    def partial(self) -> None:
        rec = self.record
        self.warn(_finding("W002", None, "partial"), rec.end_line, rec.end_column)
        result = rec.tag("Result")
        if result is not None and result.value.strip() != "*":
            self.warn(_finding("W003", None, "result-unchecked"), result.line, result.column)
        if rec.score is not None:
            self.warn(_finding("W003", None, "score-unchecked"), rec.score.line, rec.score.column)


def valid_date(text: str) -> bool:
    """``text`` is a Date tag's value: a calendar date written YYYY-MM-DD."""
    if not _DATE.fullmatch(text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def replay(record: Record, path: str = "<input>", *, board: Board | Diagnostic, ruleset: Ruleset | Diagnostic,
           keep_states: bool = False) -> Timeline:
    """Replay ``record`` on ``board`` under ``ruleset`` and return its :class:`Timeline`.

    ``board`` or ``ruleset`` may be the H003/H004 diagnostic their loading gave; it is
    reported in its place among the header checks. With ``keep_states`` every step
    carries a copy of the position after it (for reports). Never raises for a bad
    record: findings are diagnostics.
    """
    return _Replayer(record, path, board, ruleset, keep_states).run()
