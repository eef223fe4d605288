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
from typing import NamedTuple

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
    Tile,
    Turn,
    near_known_tag,
)
from drunter_notation.rules import game, scoring, turn
from drunter_notation.rules.board import Board
from drunter_notation.rules.options import ExpertDeal, Ruleset
from drunter_notation.rules.placement import Move
from drunter_notation.rules.state import State, Violation, check_deal
from drunter_notation.rules.votes import Tally

_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
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
    def removed(self) -> tuple:
        """Corners whose gangs this event removed (A5)."""
        return () if self.decision is None else tuple(c for c, _ in self.decision.removed)

    @property
    def destroyed(self) -> tuple:
        return () if self.decision is None else self.decision.destroyed


@dataclass
class Timeline:
    """The replay of one record: the steps, the diagnostics and the end of the game."""

    record: Record
    path: str
    board: Board | None = None
    ruleset: Ruleset | None = None
    variant: str = "base"
    players: tuple[str, ...] = ()
    steps: list[Step] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    initial: State | None = None
    state: State | None = None  # the final position reached
    stopped_at: int | None = None  # turn number of the first violation, if any
    scores: dict[str, int] | None = None
    standings: tuple | None = None
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

    def summary(self) -> dict:
        decisions = [s.decision for s in self.steps if s.decision is not None]
        out = {
            "turns": len(decisions),
            "placements": sum(1 for d in decisions if d.stays),
            "passes": sum(1 for d in decisions if d.move is None),
            "votes": sum(1 for d in decisions if d.vote is not None),
            "rejected": sum(1 for d in decisions if d.accepted is False),
            "ruleset": self.ruleset.id if self.ruleset else None,
            "board": self.board.id if self.board else None,
            "variant": self.variant,
            "complete": self.complete,
        }
        if self.scores is not None:
            out["scores"] = self.scores
            out["winners"] = list(self.winners or ())
        return out


class _Stop(Exception):
    """Ends the replay at the first rule violation."""


def _v(code: str, rule: str | None, why: str, **facts) -> Violation:
    return Violation(code, rule or "", why, facts)


class _Replayer:
    def __init__(self, record: Record, path: str, board: Board | Diagnostic, ruleset: Ruleset | Diagnostic,
                 keep_states: bool):
        self.record = record
        self.keep = keep_states
        self.t = Timeline(record, path)
        self.board = board
        self.ruleset = ruleset

    # -- reporting ---------------------------------------------------------
    def _diagnostic(self, severity: str, v: Violation, line: int, column: int, turn_no: int | None) -> Diagnostic:
        return Diagnostic(severity, v.code, sentence(v), line, column, turn_no, v.rule or None,
                          citation(v, self.t.ruleset), hint(v))

    def error(self, v: Violation, line: int, column: int, turn_no: int | None = None):
        self.t.diagnostics.append(self._diagnostic("error", v, line, column, turn_no))
        self.t.stopped_at = turn_no
        raise _Stop

    def warn(self, v: Violation, line: int = 0, column: int = 0):
        self.t.diagnostics.append(self._diagnostic("warning", v, line, column, None))

    # -- header and setup --------------------------------------------------
    def header(self):
        rec = self.record
        for tag in rec.tags:  # before the checks that may stop: a slip like [players] explains them
            near = near_known_tag(tag.key)
            if near:
                self.warn(_v("W004", None, "tag-slip", key=tag.key, known=near), tag.line, tag.column)
        players_tag = rec.tag("Players")
        if players_tag is None:
            self.error(_v("H001", None, "players-missing"), 1, 1)
        names = rec.players
        if not 2 <= len(names) <= 4:
            self.error(_v("H001", None, "players-count", n=len(names)), players_tag.line, players_tag.column)
        dup = [n for n, c in Counter(names).items() if c > 1]
        if dup:
            self.error(_v("H001", None, "player-twice", player=dup[0]), players_tag.line, players_tag.column)
        self.t.players = names
        seen = set()
        for tag in rec.tags:
            if tag.key in seen and tag.key in _ONCE:
                self.error(_v("H002", None, "tag-twice", key=tag.key), tag.line, tag.column)
            seen.add(tag.key)
        variant = rec.tag("Variant")
        if variant is not None and variant.value not in ("base", "expert"):
            self.error(_v("H002", None, "variant", value=variant.value), variant.line, variant.column)
        self.t.variant = variant.value if variant is not None else "base"
        date = rec.tag("Date")
        if date is not None and not _valid_date(date.value):
            self.error(_v("H002", None, "date", value=date.value), date.line, date.column)
        result = rec.tag("Result")
        if result is not None and result.value.strip() != "*":
            for name in (n.strip() for n in result.value.split(",")):
                if name not in names:
                    self.error(_v("H002", None, "result-not-player", player=name), result.line, result.column)
        for loaded, attr in ((self.ruleset, "ruleset"), (self.board, "board")):
            if isinstance(loaded, Diagnostic):  # an unknown ruleset or board, found while loading
                self.t.diagnostics.append(loaded)
                raise _Stop
            setattr(self.t, attr, loaded)

    def setup(self) -> State:
        rec, names = self.record, self.t.players
        hands: dict[str, dict[Tile, int]] = {}  # plain dicts: check_deal reads them, new_game copies them
        goals: dict[str, Goals] = {}
        for item in rec.setup:
            if isinstance(item, Hand):
                if item.player not in names:
                    self.error(_v("D001", "S1", "hand-not-player", player=item.player), item.line, item.column)
                if item.player in hands:
                    self.error(_v("D001", "S1", "hand-twice", player=item.player), item.line, item.column)
                held: dict[Tile, int] = {}
                for ht in item.tiles:
                    held[ht.tile] = held.get(ht.tile, 0) + ht.count
                hands[item.player] = held
            else:
                if self.t.variant != "expert":
                    self.error(_v("X001", "X1", "goals-in-base"), item.line, item.column)
                if item.player not in names or item.player in goals:
                    why = "goals-not-player" if item.player not in names else "goals-twice"
                    self.error(_v("X001", "X1", why, player=item.player), item.line, item.column)
                goals[item.player] = item
        first_hand = next((s for s in rec.setup if isinstance(s, Hand)), None)
        if hands and len(hands) != len(names):
            missing = tuple(n for n in names if n not in hands)
            self.error(_v("D001", "S1", "hands-missing", missing=missing), first_hand.line, first_hand.column)
        if hands:
            for who, v in check_deal(self.t.board, hands):
                at = next((s for s in rec.setup if isinstance(s, Hand) and s.player == who), first_hand)
                self.error(v, at.line, at.column)
        else:
            first = next(iter(rec.events), None) or rec.tags[0]
            self.warn(_v("W001", None, "no-hands"), first.line, first.column)
        self.goals = goals
        if goals:
            self.check_goals(goals)
        return turn.new_game(self.t.board, self.t.ruleset.options, names, hands or None, self.t.variant)

    def check_goals(self, goals: dict[str, Goals]):
        names = self.t.players
        first = next(iter(goals.values()))
        if len(goals) != len(names):
            missing = tuple(n for n in names if n not in goals)
            self.error(_v("X001", "X1", "goals-missing", missing=missing), first.line, first.column)
        dealt = Counter()
        for g in goals.values():
            a, b = g.goals
            if a == b:
                self.error(_v("X001", "X1", "goal-same", player=g.player, card=a), g.line, g.column)
            dealt.update(g.goals)
            if self.t.ruleset.options.expert_deal is ExpertDeal.ONE_SPECIAL_ONE_BUILDING \
                    and (a in SPECIAL_GOALS) == (b in SPECIAL_GOALS):
                self.error(_v("X001", "X1", "goal-mix", player=g.player, ruleset=self.t.ruleset.id),
                           g.line, g.column)
        twice = [c for c, n in dealt.items() if n > 1]
        if twice:
            g = next(g for g in goals.values() if twice[0] in g.goals)
            self.error(_v("X001", "X1", "goal-dealt-twice", card=twice[0]), g.line, g.column)

    # -- the game ----------------------------------------------------------
    def run(self) -> Timeline:
        t = self.t
        try:
            self.header()
            st = self.setup()
            t.initial = st.copy() if self.keep else None
            t.state = st
            self.events(st)
            if self.record.reveal is not None:
                self.end_of_game(st)
            else:
                self.partial()
        except _Stop:
            pass
        return t

    def events(self, st: State):
        steps, keep = self.t.steps, self.keep
        for ev in self.record.events:
            if isinstance(ev, Choose):
                v = turn.play_choose(st)
                if v is not None:
                    self.error(v, ev.line, ev.column)
                steps.append(Step(ev, None, st.copy() if keep else None))
                continue
            d = turn.play_turn(st, ev.number, ev.player, ev.placement)
            if isinstance(d, Violation):
                at = ev.placement.outcome if d.code == "B005" else ev  # a claim's error stands at the claim
                self.error(d, at.line, at.column, ev.number)
            steps.append(Step(ev, d, st.copy() if keep else None))

    # -- the end -----------------------------------------------------------
    def end_of_game(self, st: State):
        rec, t = self.record, self.t
        rv = rec.reveal
        expert = t.variant == "expert"
        here = (rv.line, rv.column)
        missing = turn.choose_missing(st, ended=True)
        if missing is not None:
            self.error(Violation(missing.code, missing.rule, missing.why, {**missing.facts, "at_reveal": True}), *here)
        if st.hands is not None:  # an ended game (E1, kept from the last pass) has nobody who must place
            who = None if game.game_over(st) else next((p for p in st.players if game.must_place(st, p)), None)
            if who is not None:
                self.error(_v("E002", "E1", "not-over", player=who), *here)
        elif not game.game_over(st):
            self.warn(_v("W001", "E1", "end-unchecked"), *here)
        seen: dict[str, str] = {}
        cards_seen = Counter()
        for e in rv.entries:
            if e.player not in st.players:
                self.error(_v("E001", "E2", "reveal-not-player", player=e.player), *here)
            if e.player in seen:
                self.error(_v("E001", "E2", "reveal-twice", player=e.player), *here)
            seen[e.player] = e.chosen
            if not expert:
                if e.other is not None or e.chosen not in BUILDINGS:
                    shown = e.chosen + ("/" + e.other if e.other else "")
                    self.error(_v("E001", "S3", "reveal-base", player=e.player, shown=shown), *here)
                cards_seen[e.chosen] += 1
                continue
            if e.other is None:
                self.error(_v("E001", "X3", "reveal-pair", player=e.player), *here)
            g = self.goals.get(e.player)
            if g is not None and sorted((e.chosen, e.other)) != sorted(g.goals):
                self.error(_v("X003", "X3", "not-dealt", player=e.player, chosen=e.chosen, other=e.other,
                              dealt=g.goals), *here)
            if e.chosen == e.other:
                self.error(_v("X001", "X1", "reveal-same", player=e.player, card=e.chosen), *here)
            cards_seen.update((e.chosen, e.other))
        missing_players = tuple(p for p in st.players if p not in seen)
        if missing_players:
            self.error(_v("E001", "E2", "reveal-missing", missing=missing_players), *here)
        twice = [c for c, k in cards_seen.items() if k > 1]
        if twice:
            self.error(_v("X001", "X1", "card-twice", card=twice[0]) if expert
                       else _v("E001", "E2", "card-twice", card=twice[0]), *here)
        entries = {e.player: e for e in rv.entries}
        chosen = {p: entries[p].chosen for p in st.players}
        other = {p: entries[p].other for p in st.players} if expert else None
        ranking = scoring.rank_players(st.board, st.covered, st.players, chosen, st.cards, other)
        t.standings = ranking.standings
        t.winners = ranking.winners
        t.ranking = ranking
        t.scores = {s.player: s.score for s in ranking.standings}
        score_rule = "X3" if expert else "E2"
        if rec.score is not None:
            for e in rec.score.entries:
                if e.player not in t.scores:
                    self.error(_v("E003", score_rule, "score-not-player", player=e.player), e.line, e.column)
                if t.scores[e.player] != e.points:
                    self.error(_v("E003", score_rule, "score", player=e.player, claimed=e.points,
                                  score=t.scores[e.player], goal=chosen[e.player]), e.line, e.column)
        result = rec.tag("Result")
        if result is not None:
            claimed = sorted(n.strip() for n in result.value.split(",")) if result.value.strip() != "*" else None
            if claimed != sorted(t.winners):
                self.error(_v("E004", "X3" if expert else "E3", "result", claimed=result.value,
                              winners=t.winners, tie_break=t.tie_break), result.line, result.column)

    def partial(self):
        rec = self.record
        self.warn(_v("W002", None, "partial"), rec.end_line, rec.end_column)
        result = rec.tag("Result")
        if result is not None and result.value.strip() != "*":
            self.warn(_v("W003", None, "result-unchecked"), result.line, result.column)
        if rec.score is not None:
            self.warn(_v("W003", None, "score-unchecked"), rec.score.line, rec.score.column)


def _valid_date(text: str) -> bool:
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
