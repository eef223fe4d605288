"""Replay a record against the rules (DN-SPEC §1, §3).

:func:`replay` drives the pure core over a :class:`model.Record` and returns a
:class:`Timeline`: one :class:`Step` per event plus the diagnostics. Findings are
collected, never raised (as python-chess collects errors on the game). The replay
stops at the first rule violation; later turns are not judged.

Each turn is checked in the order DN-SPEC §3 fixes: T001 turn number, T002 player,
T005 game already over, T004 pass allowed, T003 tile in hand; then the placement
(A002, A003, A006 corner, A001, A005, A004, A006 ambiguity, by
:func:`placement.check_placement`); then the vote (B001, B002, B004, B003, B005).
"""
from __future__ import annotations

import datetime
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from drunter_notation.rules import placement as pl
from drunter_notation.rules import scoring, votes
from drunter_notation.rules.board import DEFAULT_BOARD, Board
from drunter_notation.data.boardfile import load_board
from drunter_notation.errors import Diagnostic, DnError
from drunter_notation.notation.model import (BUILDINGS, SPECIAL_GOALS, Choose, Goals, Hand, Record, Turn, square_name)
from drunter_notation.rules.options import Ruleset
from drunter_notation.data.rulesets import load_ruleset
from drunter_notation.rules.state import State, check_deal, new_state

DEFAULT_RULES = "hig-1991"
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class Step:
    """What one event did. ``state`` is the position after it (kept only on request)."""

    event: Turn | Choose
    player: str | None = None
    move: pl.Move | None = None  # the placement as judged (None for a pass or choose)
    tally: votes.Tally | None = None
    accepted: bool | None = None  # vote outcome; None when no vote was held
    removed: tuple = ()  # corners whose gangs were removed by this event (A5)
    destroyed: tuple = ()  # (square, type, value) of buildings this placement covered
    state: State | None = None


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
    standings: list | None = None
    winners: tuple[str, ...] | None = None
    tie_break: str | None = None

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def valid(self) -> bool:
        return not self.errors

    @property
    def complete(self) -> bool:
        return self.record.reveal is not None

    @property
    def fatal(self) -> bool:
        """True when the record could not be replayed at all (unknown board or ruleset)."""
        return any(d.code in ("H003", "H004") for d in self.errors)

    def summary(self) -> dict:
        turns = [s for s in self.steps if isinstance(s.event, Turn)]
        out = {
            "turns": len(turns),
            "placements": sum(1 for s in turns if s.move is not None and s.accepted is not False),
            "passes": sum(1 for s in turns if s.event.placement is None),
            "votes": sum(1 for s in turns if s.tally is not None),
            "rejected": sum(1 for s in turns if s.accepted is False),
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


class _Replayer:
    def __init__(self, record: Record, path: str, rules: str | None, board: str | None,
                 keep_states: bool):
        self.record = record
        self.keep = keep_states
        self.t = Timeline(record, path)
        self.base_dir = Path(path).parent if path and not path.startswith("<") else None
        self.rules_override = rules
        self.board_override = board

    # -- reporting ---------------------------------------------------------
    def _rule_cite(self, rule: str | None) -> str | None:
        return self.t.ruleset.cite(rule) if (rule and self.t.ruleset) else None

    def error(self, code: str, message: str, line: int, column: int, rule: str | None = None,
              turn: int | None = None, hint: str | None = None):
        self.t.diagnostics.append(Diagnostic("error", code, message, line, column, turn, rule,
                                             self._rule_cite(rule), hint))
        self.t.stopped_at = turn
        raise _Stop

    def warn(self, code: str, message: str, line: int = 0, column: int = 0, rule: str | None = None,
             turn: int | None = None):
        self.t.diagnostics.append(Diagnostic("warning", code, message, line, column, turn, rule,
                                             self._rule_cite(rule)))

    # -- header and setup --------------------------------------------------
    def header(self):
        rec = self.record
        players_tag = rec.tag("Players")
        if players_tag is None:
            self.error("H001", "the [Players \"...\"] tag is missing", 1, 1,
                       hint='add e.g. [Players "Anna, Ben"] naming 2 to 4 players in seat order')
        names = rec.players
        if not 2 <= len(names) <= 4:
            self.error("H001", f"the game needs 2 to 4 players, the Players tag names {len(names)}",
                       players_tag.line, players_tag.column)
        dup = [n for n, c in Counter(names).items() if c > 1]
        if dup:
            self.error("H001", f"player '{dup[0]}' is named twice in the Players tag",
                       players_tag.line, players_tag.column)
        self.t.players = names
        seen = set()
        for tag in rec.tags:
            if tag.key in seen and tag.key in ("Players", "Board", "Rules", "Variant", "Result", "Date"):
                self.error("H002", f"the {tag.key} tag is given twice", tag.line, tag.column)
            seen.add(tag.key)
        variant = rec.tag("Variant")
        if variant is not None and variant.value not in ("base", "expert"):
            self.error("H002", f"Variant must be \"base\" or \"expert\", not \"{variant.value}\"",
                       variant.line, variant.column)
        self.t.variant = variant.value if variant is not None else "base"
        date = rec.tag("Date")
        if date is not None and not _valid_date(date.value):
            self.error("H002", f"Date must be a calendar date written YYYY-MM-DD, not \"{date.value}\"",
                       date.line, date.column)
        result = rec.tag("Result")
        if result is not None and result.value.strip() != "*":
            for name in (n.strip() for n in result.value.split(",")):
                if name not in names:
                    self.error("H002", f"Result names '{name}', who is not a player",
                               result.line, result.column)
        rules_tag = rec.tag("Rules")
        rules_id = self.rules_override or (rules_tag.value if rules_tag else DEFAULT_RULES)
        try:
            self.t.ruleset = load_ruleset(rules_id)
        except DnError as e:
            line, col = (rules_tag.line, rules_tag.column) if (rules_tag and not self.rules_override) else (0, 0)
            self.error("H004", e.diagnostic.message, line, col, hint=e.diagnostic.hint)
        board_tag = rec.tag("Board")
        board_ref = self.board_override or (board_tag.value if board_tag else DEFAULT_BOARD)
        try:
            base = None if self.board_override else self.base_dir
            self.t.board = load_board(board_ref, base)
        except DnError as e:
            line, col = (board_tag.line, board_tag.column) if (board_tag and not self.board_override) else (0, 0)
            self.error("H003", e.diagnostic.message, line, col, hint=e.diagnostic.hint)

    def setup(self) -> State:
        rec, names = self.record, self.t.players
        hands: dict[str, Counter] = {}
        goals: dict[str, Goals] = {}
        for item in rec.setup:
            if isinstance(item, Hand):
                if item.player not in names:
                    self.error("D001", f"hand for '{item.player}', who is not a player", item.line,
                               item.column, "S1")
                if item.player in hands:
                    self.error("D001", f"a second hand line for {item.player}", item.line, item.column, "S1")
                c = Counter()
                for ht in item.tiles:
                    c[ht.tile] += ht.count
                hands[item.player] = c
            else:
                if self.t.variant != "expert":
                    self.error("X001", "goals lines belong to expert games ([Variant \"expert\"])",
                               item.line, item.column, "X1")
                if item.player not in names or item.player in goals:
                    what = "who is not a player" if item.player not in names else "given twice"
                    self.error("X001", f"goals for '{item.player}', {what}", item.line, item.column, "X1")
                goals[item.player] = item
        first_hand = next((s for s in rec.setup if isinstance(s, Hand)), None)
        if hands and len(hands) != len(names):
            missing = ", ".join(n for n in names if n not in hands)
            self.error("D001", f"hands are given for some players only (missing: {missing})",
                       first_hand.line, first_hand.column, "S1",
                       hint="give a hand line for every player, or none at all")
        if hands:
            for code, who, message in check_deal(self.t.board, hands):
                at = next((s for s in rec.setup if isinstance(s, Hand) and s.player == who), first_hand)
                self.error(code, message, at.line, at.column, "S1")
        else:
            first = next(iter(rec.events), None) or rec.tags[0]
            self.warn("W001", "hands are not recorded: tile in hand, Legezwang, the end of the game"
                      " and finished tracks cannot be checked", first.line, first.column)
        self.goals = goals
        if goals or self.t.variant == "expert":
            self.check_goals(goals)
        return new_state(self.t.board, self.t.ruleset.options, names, hands or None, self.t.variant)

    def check_goals(self, goals: dict[str, Goals]):
        names = self.t.players
        if not goals:
            return
        first = next(iter(goals.values()))
        if len(goals) != len(names):
            missing = ", ".join(n for n in names if n not in goals)
            self.error("X001", f"goals are given for some players only (missing: {missing})",
                       first.line, first.column, "X1")
        dealt = Counter()
        for g in goals.values():
            a, b = g.goals
            if a == b:
                self.error("X001", f"{g.player} is dealt {a} twice; each player gets two different cards",
                           g.line, g.column, "X1")
            dealt.update(g.goals)
            if self.t.ruleset.options.expert_deal == "one-special-one-building":
                if (a in SPECIAL_GOALS) == (b in SPECIAL_GOALS):
                    self.error("X001", f"{g.player} must be dealt one special card and one building card"
                               f" under {self.t.ruleset.id}", g.line, g.column, "X1")
        twice = [c for c, n in dealt.items() if n > 1]
        if twice:
            g = next(g for g in goals.values() if twice[0] in g.goals)
            self.error("X001", f"the goal card {twice[0]} is dealt to more than one player (there is one of each)",
                       g.line, g.column, "X1")

    # -- the game ----------------------------------------------------------
    def game_over(self, st: State) -> bool:
        """No player has a legal placement (E1); without hands: no tile of any kind fits anywhere."""
        if st.hands is None:
            return not pl.legal_moves(st, None)
        return pl.game_over(st)

    def first_finished(self, st: State):
        """The corner of a finished track, or None (expert choice, X2)."""
        for corner in st.gangs:
            if pl.track_finished(st, corner):
                return corner
        return None

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
                self.partial(st)
        except _Stop:
            pass
        return t

    def events(self, st: State):
        rec, t = self.record, self.t
        expert = t.variant == "expert"
        chosen = False
        due = None  # (corner, turn) once the first track is finished and no choose yet
        if expert:
            c = self.first_finished(st)
            if c is not None:
                due = (c, 0)
        expected = 1
        for ev in rec.events:
            if isinstance(ev, Choose):
                if not expert:
                    self.error("X002", "'choose' belongs to expert games ([Variant \"expert\"])",
                               ev.line, ev.column, "X2")
                if chosen:
                    self.error("X002", "'choose' stands here a second time", ev.line, ev.column, "X2")
                if due is None and st.hands is not None:
                    self.error("X002", "'choose' is early: no track is finished yet", ev.line, ev.column, "X2")
                chosen, due = True, None
                t.steps.append(Step(ev, state=st.copy() if self.keep else None))
                continue
            if due is not None and not chosen:
                self.error("X002", f"'choose' is missing: the {_track(st, due[0])} was finished"
                           + (f" on turn {due[1]}" if due[1] else " from the start")
                           + "; write 'choose' right after that turn", ev.line, ev.column, "X2", ev.number)
            self.turn(st, ev, expected)
            expected = ev.number + 1
            if expert and not chosen and due is None:
                c = self.first_finished(st)
                if c is not None:
                    due = (c, ev.number)
        self.choose_due = due if not chosen else None

    def turn(self, st: State, ev: Turn, expected: int):
        n, L, C = ev.number, ev.line, ev.column
        if n != expected:
            self.error("T001", f"turn number {n} out of sequence; expected {expected}", L, C, "T1", n)
        mover = st.players[st.seat]
        if ev.player != mover:
            who = f"'{ev.player}' is not a player" if ev.player not in st.players else f"it is not {ev.player}'s turn"
            self.error("T002", f"{who}: turn {n} belongs to {mover}", L, C, "T1", n)
        p = ev.placement
        if p is None:
            self.pass_turn(st, ev)
            return
        tile = p.tile
        problem = None
        if st.hands is not None and st.hands[mover][tile] <= 0:
            problem = ("T003", f"{mover} has no {tile} left in hand", "T1")
        move = None
        if problem is None:
            judged = pl.check_placement(st, tile, p.anchor, p.end, p.corner)
            if isinstance(judged, pl.Move):
                move = judged
            else:
                desc = _describe(p)  # only on the way to a finding: a string per turn is measurable
                problem = (judged.code, f"{desc}: {judged.message}" if not judged.message.startswith(desc)
                           else judged.message, judged.rule)
        if problem is not None:
            if self.game_over(st):  # T005 comes before every other check of the turn
                self.error("T005", "the game is already over: no player has a legal placement", L, C, "E1", n)
            self.error(problem[0], problem[1], L, C, problem[2], n)
        tally = accepted = None
        needed = votes.needs_vote(st, move)
        vote_rule = "X5" if self.t.variant == "expert" else "B1"
        if p.vote is None and needed:
            squares = ", ".join(square_name(s) for s in move.toilets)
            self.error("B001", f"{_describe(p)} covers the toilet at {squares}: a vote must be held", L, C,
                       vote_rule, n)
        if p.vote is not None and not needed:
            why = ("toilets are not voted on in the expert variant under this ruleset"
                   if move.toilets else "it covers no toilet")
            self.error("B001", f"{_describe(p)} is put to a vote, but {why}", L, C, vote_rule, n)
        if p.outcome is not None and p.vote is None:
            self.error("B001", "an outcome is claimed but no vote was held", L, C, vote_rule, n)
        if p.vote is not None:
            v = votes.check_ballots(st, mover, p.vote)
            if v is not None:
                self.error(v.code, v.message, L, C, v.rule, n)
            tally = votes.tally(p.vote)
            accepted = votes.vote_outcome(tally, st.options)
            o = p.outcome
            if o is not None:
                said = "accepted" if o.accepted else "rejected"
                real = "accepted" if accepted else "rejected"
                if o.accepted != accepted or (o.yes is not None and (o.yes, o.no) != (tally.yes, tally.no)):
                    claim = said + ("" if o.yes is None else f" {o.yes}:{o.no}")
                    self.error("B005", f"the vote is claimed '{claim}' but counts {tally.yes}:{tally.no}"
                               f" ({tally.arithmetic}), so it is {real}", o.line, o.column, "B5", n)
            votes.spend_cards(st, p.vote, n)
        removed = destroyed = ()
        if accepted is not False:
            destroyed = tuple((s, *st.board.buildings[s]) for s in move.squares if s in st.board.buildings)
            removed = tuple(pl.apply_move(st, move, n, mover))
        st.seat = (st.seat + 1) % len(st.players)
        self.t.steps.append(Step(ev, mover, move, tally, accepted, removed, destroyed,
                                 st.copy() if self.keep else None))

    def pass_turn(self, st: State, ev: Turn):
        n, mover = ev.number, st.players[st.seat]
        if st.hands is not None:
            if pl.has_legal_move(st, mover):
                moves = pl.legal_moves(st, mover)
                self.error("T004", f"{mover} passes but could lay {_move_text(st, moves[0])}"
                           + (f" (and {len(moves) - 1} other placements)" if len(moves) > 1 else ""),
                           ev.line, ev.column, "T2", n)
            if self.game_over(st):
                self.error("T005", "the game is already over: no player has a legal placement",
                           ev.line, ev.column, "E1", n)
        elif self.game_over(st):
            self.error("T005", "the game is already over: no tile of any kind fits anywhere",
                       ev.line, ev.column, "E1", n)
        st.seat = (st.seat + 1) % len(st.players)
        self.t.steps.append(Step(ev, mover, state=st.copy() if self.keep else None))

    # -- the end -----------------------------------------------------------
    def end_of_game(self, st: State):
        rec, t = self.record, self.t
        rv = rec.reveal
        expert = t.variant == "expert"
        if getattr(self, "choose_due", None) is not None:
            c, turn = self.choose_due
            self.error("X002", f"'choose' is missing: the {_track(st, c)} was finished on turn {turn}",
                       rv.line, rv.column, "X2")
        if st.hands is not None:
            who = next((p for p in st.players if pl.has_legal_move(st, p)), None)
            if who is not None:
                self.error("E002", f"the game is not over: {who} can still place a tile", rv.line, rv.column, "E1")
        elif pl.legal_moves(st, None):
            self.warn("W001", "without hands the end of the game cannot be checked", rv.line, rv.column, "E1")
        seen: dict[str, str] = {}
        cards_seen = Counter()
        for e in rv.entries:
            if e.player not in st.players:
                self.error("E001", f"reveal names '{e.player}', who is not a player", rv.line, rv.column, "E2")
            if e.player in seen:
                self.error("E001", f"reveal names {e.player} twice", rv.line, rv.column, "E2")
            seen[e.player] = e.chosen
            if not expert:
                if e.other is not None or e.chosen not in BUILDINGS:
                    self.error("E001", f"{e.player} reveals '{e.chosen}{'/' + e.other if e.other else ''}';"
                               " in the base game each player holds one building card", rv.line, rv.column, "S3")
                cards_seen[e.chosen] += 1
            else:
                if e.other is None:
                    self.error("E001", f"{e.player} must reveal chosen/other in an expert game",
                               rv.line, rv.column, "X3")
                g = self.goals.get(e.player)
                if g is not None and sorted((e.chosen, e.other)) != sorted(g.goals):
                    self.error("X003", f"{e.player} reveals {e.chosen}/{e.other} but was dealt "
                               f"{g.goals[0]} and {g.goals[1]}", rv.line, rv.column, "X3")
                if e.chosen == e.other:
                    self.error("X001", f"{e.player} reveals {e.chosen} twice", rv.line, rv.column, "X1")
                cards_seen.update((e.chosen, e.other))
        missing = [p for p in st.players if p not in seen]
        if missing:
            self.error("E001", f"reveal misses {', '.join(missing)}", rv.line, rv.column, "E2")
        twice = [c for c, k in cards_seen.items() if k > 1]
        if twice:
            self.error("E001" if not expert else "X001",
                       f"the card {twice[0]} is revealed by more than one player (there is one of each)",
                       rv.line, rv.column, "E2" if not expert else "X1")
        entries = {e.player: e for e in rv.entries}
        chosen = {p: entries[p].chosen for p in st.players}
        other = {p: entries[p].other for p in st.players} if expert else None
        ranking = scoring.rank_players(st.board, st.covered, st.players, chosen, st.cards, other)
        t.standings = ranking.standings
        t.winners = ranking.winners
        t.tie_break = ranking.explanation
        t.scores = {s.player: s.score for s in ranking.standings}
        score_rule = "X3" if expert else "E2"
        if rec.score is not None:
            for e in rec.score.entries:
                if e.player not in t.scores:
                    self.error("E003", f"score names '{e.player}', who is not a player", e.line, e.column, score_rule)
                if t.scores[e.player] != e.points:
                    self.error("E003", f"{e.player} is claimed to score {e.points}, but scores "
                               f"{t.scores[e.player]} ({_score_words(chosen[e.player])})",
                               e.line, e.column, score_rule)
        result = rec.tag("Result")
        if result is not None:
            claimed = sorted(n.strip() for n in result.value.split(",")) if result.value.strip() != "*" else None
            if claimed != sorted(t.winners):
                win = " and ".join(t.winners)
                self.error("E004", f"Result claims {result.value!r}, but the winner is {win}"
                           + (f" ({t.tie_break})" if t.tie_break else ""), result.line, result.column,
                           "X3" if expert else "E3")

    def partial(self, st: State):
        rec = self.record
        self.warn("W002", "partial record (no reveal): every turn in it was checked, the end of the game"
                  " was not", rec.end_line, rec.end_column)
        result = rec.tag("Result")
        if result is not None and result.value.strip() != "*":
            self.warn("W003", "the Result tag cannot be checked without a reveal line",
                      result.line, result.column)
        if rec.score is not None:
            self.warn("W003", "the score line cannot be checked without a reveal line",
                      rec.score.line, rec.score.column)


def _valid_date(text: str) -> bool:
    if not _DATE.fullmatch(text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _track(st: State, corner) -> str:
    return f"{st.track_kind[corner]} track from {square_name(corner)}"


def _describe(p) -> str:
    return f"{p.tile} {square_name(p.anchor)}" + ("" if p.end is None else f"-{square_name(p.end)}")


def _move_text(st: State, m: pl.Move) -> str:
    """The move as a record writes it: ``@corner`` only when another live track of its kind exists."""
    sq = m.squares
    kind = st.track_kind[m.corner]
    twin = any(c != m.corner and k == kind and st.gangs[c] is not None for c, k in st.track_kind.items())
    return f"{m.tile} {square_name(sq[0])}" + ("" if len(sq) == 1 else f"-{square_name(sq[-1])}") \
        + (f" @{square_name(m.corner)}" if twin else "")


def _score_words(goal: str) -> str:
    return f"uncovered {goal}" if goal in BUILDINGS else goal


def replay(record: Record, path: str = "<input>", *, rules: str | None = None, board: str | None = None,
           keep_states: bool = False) -> Timeline:
    """Replay ``record`` and return its :class:`Timeline`.

    ``rules`` overrides the record's ``Rules`` tag; ``board`` (an id or a ``.toml``
    path, relative to the working directory) overrides its ``Board`` tag, whose
    paths are relative to the record's folder (taken from ``path``). With
    ``keep_states`` every step carries a copy of the position after it (for reports
    and adjudication). Never raises for a bad record: findings are diagnostics.
    """
    return _Replayer(record, path, rules, board, keep_states).run()
