"""Verdicts on one turn of a record, under one ruleset or several (issue 4).

:func:`adjudicate` replays a record to just before turn N and judges that turn as
recorded -- or a move that was not played (a *what-if*) -- under each ruleset asked
for. Legality is never decided here: the record is cut after turn N (or has the
what-if turn put in its place) and replayed by :func:`replay.replay`, the same code
``drunter validate`` runs, and the verdict reads the diagnostics of turn N. What
this module adds is the explanation: the position as a text board, whose turn it
is and their hand, each rule applied with its place in that ruleset's source, the
tally of a vote card by card, and the placements the player had instead.

Pure: nothing here prints or writes. Bad input (no turn N, a syntax error in the
what-if move, an unknown ruleset or board) raises :class:`errors.DnError`.
"""
from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass

from drunter_notation.rules import placement as pl
from drunter_notation.rules import votes
from drunter_notation.explain.boardtext import TRACK_LETTER, render_board
from drunter_notation.errors import Diagnostic, DnError, fail
from drunter_notation.notation.formatter import format_item, format_placement
from drunter_notation.notation.model import Choose, Placement, Record, Turn, square_name
from drunter_notation.notation.parser import parse_text
from drunter_notation.replay import DEFAULT_RULES, Step, Timeline, replay
from drunter_notation.rules.options import Ruleset
from drunter_notation.data.rulesets import catalogue, list_rulesets, load_ruleset
from drunter_notation.rules.state import State

ALTERNATIVES_SHOWN = 10  # text output lists the first ten legal alternatives and a count
_PLACEHOLDER = "Who"  # stands for the player to move while a what-if move is parsed

# B5 in words, per value of Options.vote_outcome (an option value, not a ruleset name).
OUTCOME_WORDS = {
    "yes-at-least-no": "accepted when yes >= no: ties stand",
    "yes-over-no-unless-all-abstain": "accepted when yes > no, or when nobody votes yes or no (0:0);"
                                      " a tie with yes votes is rejected",
}
BALLOT_ORDER_WORDS = {
    "placer-first-clockwise": "the placer first, then clockwise",
    "any": "any order, each player once",
}
_CARD_WORDS = "JA/JAA/JAAA count 1/2/3 yes, NE/NEE/NEEE 1/2/3 no, JEIN 2 for the side declared, ? nothing"


@dataclass(frozen=True)
class RuleApplied:
    """One rule as it bore on the turn: its ID and title, the place in the ruleset's
    source (``citation``) and what it meant here (``how``)."""

    rule: str
    title: str
    citation: str
    how: str


@dataclass(frozen=True)
class VoteCount:
    """A vote held on the turn: the card-by-card ``lines`` and the ``arithmetic`` of
    :func:`votes.tally`, the outcome under the ruleset's ``option`` value (B5) and
    that option in words, and the outcome the record claims (None: no claim)."""

    lines: tuple[str, ...]
    arithmetic: str
    yes: int
    no: int
    accepted: bool
    option: str
    outcome_rule: str
    claim: str | None


@dataclass(frozen=True)
class Verdict:
    """The judgement of one turn under one ruleset.

    ``legal`` is None when the turn could not be judged because the replay stopped at
    an earlier violation (``diagnostic`` is that violation, ``earlier`` is True);
    otherwise ``diagnostic`` is turn N's first error, or None for a legal turn.
    ``alternatives`` lists every legal placement the player had (for an illegal
    placement or an illegal pass), written as a record would write them;
    ``forced`` says for a pass whether the player had no legal placement (None:
    not a pass, or hands not recorded). ``removed`` names the tracks whose gangs a
    legal placement trapped and removed (A5)."""

    ruleset: str
    ruleset_name: str
    turn: int
    what_if: bool
    move: str
    player: str | None
    hand: str
    position: str | None
    legal: bool | None
    code: str | None = None
    message: str | None = None
    diagnostic: Diagnostic | None = None
    earlier: bool = False
    rules: tuple[RuleApplied, ...] = ()
    vote: VoteCount | None = None
    alternatives: tuple[str, ...] | None = None
    forced: bool | None = None
    removed: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def status(self) -> str:
        """``LEGAL``, ``ILLEGAL — A004 message`` or ``NOT JUDGED — ...``."""
        if self.legal is None:
            d = self.diagnostic
            where = f"turn {d.turn}" if d and d.turn else "the header or setup"
            return f"NOT JUDGED — the replay stops earlier, at {where}: {d.code} {d.message}"
        if self.legal:
            return "LEGAL"
        return f"ILLEGAL — {self.code} {self.message}"

    def as_json(self) -> dict:
        out = dataclasses.asdict(self)
        out["diagnostic"] = self.diagnostic.as_json() if self.diagnostic else None
        out["status"] = self.status
        return out


# -- the entry point -------------------------------------------------------------------

def all_ruleset_ids() -> list[str]:
    """Every shipped ruleset, the default first (what ``--all-rulesets`` judges under)."""
    return [r.id for r in list_rulesets()]


def adjudicate(record: Record, path: str, turn: int, rules: list[str] | None = None,
               move_text: str | None = None) -> list[Verdict]:
    """One :class:`Verdict` per ruleset in ``rules`` (None: the record's own ruleset)
    on turn ``turn`` of ``record`` as recorded, or on the what-if ``move_text``
    (the placement part of a turn, e.g. ``"W3 b1-d1"``, or ``"pass"``) played
    instead at the position before turn ``turn``. A what-if may also be asked for
    the turn after the last one recorded.

    Raises DnError: P001 (exit 1) for a syntax error in ``move_text``; exit 2 for a
    turn the record does not have, an unknown ruleset (H004) or board (H003)."""
    what_if = _parse_move(move_text, turn) if move_text is not None else None
    numbers = [t.number for t in record.turns]
    index = next((i for i, ev in enumerate(record.events) if isinstance(ev, Turn) and ev.number == turn), None)
    if index is None:
        last = max(numbers, default=0)
        if what_if is not None and turn == last + 1 and turn >= 1:
            index = len(record.events)
        else:
            have = f"its turns are numbered {min(numbers)} to {last}" if numbers else "it has no turns"
            extra = f"; a --move may also be asked for turn {last + 1}" if what_if is not None else ""
            raise fail("U001", f"the record has no turn {turn} ({have}{extra})", path=path)
    ids = list(rules) if rules else [_own_ruleset(record)]
    rulesets = []
    for rid in ids:
        try:
            rulesets.append(load_ruleset(rid))
        except DnError as e:
            raise DnError(e.diagnostic, path=path) from None
    return [_judge(record, path, index, turn, r, what_if) for r in rulesets]


def agreement(verdicts: list[Verdict]) -> str:
    """``"The rulesets agree: ..."`` or ``"The rulesets disagree: hig-1991 and
    deskovehry-cz accept, webley-en rejects (B005)"``. Verdicts that are legal but
    whose votes end differently disagree too: the tile stays under one, not the other."""
    groups: dict[tuple, list[str]] = {}
    for v in verdicts:
        groups.setdefault(_ruling(v), []).append(v.ruleset)
    if len(groups) == 1:
        (key, ids), = groups.items()
        if key[0] == "unjudged":
            return "The rulesets agree: none can judge it (the replay stops at an earlier turn)"
        who = ids[0] if len(ids) == 1 else _and(ids) + (" both" if len(ids) == 2 else " all")
        return f"The rulesets agree: {who} {_ruling_words(key, plural=len(ids) > 1)}"
    parts = [f"{_and(ids)} {_ruling_words(key, plural=len(ids) > 1)}" for key, ids in groups.items()]
    return "The rulesets disagree: " + ", ".join(parts)


def _ruling(v: Verdict) -> tuple:
    if v.legal is None:
        return ("unjudged",)
    if not v.legal:
        return ("reject", v.code)
    return ("accept", None if v.vote is None else v.vote.accepted, v.removed)


def _ruling_words(key: tuple, plural: bool) -> str:
    s = "" if plural else "s"
    if key[0] == "unjudged":
        return "cannot judge it (the replay stops at an earlier turn)"
    if key[0] == "reject":
        return f"reject{s} ({key[1]})"
    effects = []
    if key[1] is not None:
        effects.append(f"the vote is {'accepted: the tile stays' if key[1] else 'rejected: the tile goes back'}")
    if key[2]:
        gangs = "gang" if len(key[2]) == 1 else "gangs"
        effects.append(f"the {gangs} of " + _and(f"the {t}" for t in key[2])
                       + (" is" if len(key[2]) == 1 else " are") + " removed")
    return f"accept{s}" + (f" ({'; '.join(effects)})" if effects else "")


# -- parsing a what-if move ----------------------------------------------------------

_TURN_PREFIX = re.compile(r"^\s*\d+\s*\.")


def _parse_move(move_text: str, turn: int) -> Turn:
    """The what-if ``move_text`` as a :class:`Turn` numbered ``turn`` (the player is
    filled in later). Syntax errors are P001 placed in ``move_text`` itself."""
    def bad(message: str, column: int = 1, hint: str | None = None) -> DnError:
        return DnError(Diagnostic("error", "P001", message, 1, column, hint=hint, context=move_text),
                       path="--move")

    example = "give the placement part of a turn, e.g. --move \"W3 b1-d1\" or --move pass"
    if not move_text.strip():
        raise bad("the move is empty", hint=example)
    if "\n" in move_text or "\r" in move_text:
        raise bad("the move must be one line", hint=example)
    if _TURN_PREFIX.match(move_text):
        raise bad("write the move without turn number and player", hint=example)
    prefix = f"{turn}. {_PLACEHOLDER} "
    try:
        rec = parse_text(prefix + move_text, "--move")
    except DnError as e:
        d = e.diagnostic
        column = d.column - len(prefix) if d.line == 1 and d.column > len(prefix) else 1
        message = d.message.replace(f"after '{_PLACEHOLDER}'", "at the start of the move")
        raise DnError(Diagnostic("error", "P001", message, 1, column, hint=d.hint or example,
                                 context=move_text), path="--move") from None
    if rec.tags or rec.setup or rec.reveal or rec.score or len(rec.events) != 1 \
            or not isinstance(rec.events[0], Turn):
        raise bad("the move must be a single placement or 'pass', not more", hint=example)
    ev = rec.events[0]
    return dataclasses.replace(ev, line=0, column=0)


# -- judging one turn under one ruleset -----------------------------------------------

def _own_ruleset(record: Record) -> str:
    tag = record.tag("Rules")
    return tag.value if tag is not None else DEFAULT_RULES


def _fatal(t: Timeline, path: str) -> None:
    """An unknown board or ruleset in the record itself: exit 2, as for validate."""
    for d in t.errors:
        if d.code in ("H003", "H004"):
            raise DnError(d, path=path)


def _judge(record: Record, path: str, index: int, number: int, ruleset: Ruleset,
           what_if: Turn | None) -> Verdict:
    before = dataclasses.replace(record, events=record.events[:index], reveal=None, score=None)
    prefix = replay(before, path, rules=ruleset.id)
    _fatal(prefix, path)
    head = dict(ruleset=ruleset.id, ruleset_name=ruleset.name, turn=number, what_if=what_if is not None)
    if not prefix.valid:
        d = prefix.errors[0]
        move = _what_if_text(what_if) if what_if is not None else format_item(record.events[index])
        return Verdict(**head, move=move, player=None, hand="not known", position=None,
                       legal=None, code=d.code, message=d.message, diagnostic=d, earlier=True)
    pos: State = prefix.state
    mover = pos.to_move
    if what_if is not None:
        judged = dataclasses.replace(what_if, player=mover)
    else:
        judged = record.events[index]
    cut = dataclasses.replace(record, events=record.events[:index] + (judged,), reveal=None, score=None)
    full = replay(cut, path, rules=ruleset.id)
    _fatal(full, path)
    notes = tuple(d.message for d in full.diagnostics if d.severity == "warning" and d.code == "W001")
    head.update(move=format_item(judged), player=mover, hand=_hand_text(pos, mover),
                position=render_position(pos))
    expert_chosen = any(isinstance(ev, Choose) for ev in record.events[:index])
    if not full.valid:
        d = full.errors[0]
        if d.turn != number and d.turn is not None:  # cannot happen: the prefix replayed cleanly
            return Verdict(**head, legal=None, code=d.code, message=d.message, diagnostic=d, earlier=True)
        return _illegal(head, d, pos, judged, ruleset, notes)
    step = full.steps[-1]
    if judged.placement is None:
        return _legal_pass(head, pos, mover, ruleset, notes)
    return _legal_placement(head, pos, judged, step, full.state, ruleset, notes, expert_chosen)


def _what_if_text(ev: Turn) -> str:
    action = "pass" if ev.placement is None else format_placement(ev.placement)
    return f"{ev.number}. (player to move) {action}"


def _rule(ruleset: Ruleset, rule: str, how: str) -> RuleApplied:
    entry = catalogue().get(rule)
    return RuleApplied(rule, entry.title if entry else rule, ruleset.cite(rule), how)


def _illegal(head: dict, d: Diagnostic, pos: State, judged: Turn, ruleset: Ruleset,
             notes: tuple[str, ...]) -> Verdict:
    """Turn N breaks a rule: the rule broken with its citation; for a placement or a
    pass that breaks a laying rule, every placement the player had instead."""
    mover = pos.to_move
    applied: list[RuleApplied] = []
    p = judged.placement
    move = None
    if p is not None and d.code.startswith("B"):
        judgedp = pl.check_placement(pos, p.tile, p.anchor, p.end, p.corner)
        move = judgedp if isinstance(judgedp, pl.Move) else None
    vote = _vote_count(pos, move, p, ruleset) if move is not None else None
    if move is not None:  # the placement itself was fine; the vote was not
        applied += [_turn_rule(pos, move, ruleset)] + _placement_rules(pos, move, ruleset)
    if vote is not None and d.code == "B005":  # the vote was held properly; only the claim is wrong
        for r in _vote_rules(pos, move, p, vote, ruleset):
            if r.rule == "B5":
                r = dataclasses.replace(r, how=f"{r.how}; the record claims '{vote.claim}': broken ({d.code})")
            applied.append(r)
    elif d.rule:
        applied.append(RuleApplied(d.rule, catalogue()[d.rule].title if d.rule in catalogue() else d.rule,
                                   d.citation or ruleset.cite(d.rule), f"broken: {d.message}"))
    alternatives = None
    forced = None
    if d.code.startswith("A") or d.code in ("T003", "T004"):
        alternatives = tuple(_alternatives(pos, mover, for_pass=p is None))
        if p is None:
            forced = False
    return Verdict(**head, legal=False, code=d.code, message=d.message, diagnostic=d,
                   rules=tuple(applied), vote=vote, alternatives=alternatives, forced=forced, notes=notes)


def _legal_pass(head: dict, pos: State, mover: str, ruleset: Ruleset, notes: tuple[str, ...]) -> Verdict:
    if pos.hands is None:
        some = pl.legal_moves(pos, None)
        how = (f"the hands are not recorded, so whether {mover} could place cannot be checked"
               + (f" (with some tile a placement would exist, e.g. {_spell(pos, some[0])})" if some else ""))
        return Verdict(**head, legal=True, rules=(_rule(ruleset, "T2", how),), forced=None, notes=notes)
    how = f"{mover} holds no tile that has a legal placement, so the pass is forced"
    if not any(pos.hands[mover].values()):
        how = f"{mover} has no tiles left, so the pass is forced"
    return Verdict(**head, legal=True, rules=(_rule(ruleset, "T2", how),), alternatives=(), forced=True,
                   notes=notes)


def _legal_placement(head: dict, pos: State, judged: Turn, step: Step, after: State, ruleset: Ruleset,
                     notes: tuple[str, ...], expert_chosen: bool) -> Verdict:
    move, p = step.move, judged.placement
    applied = [_turn_rule(pos, move, ruleset)] + _placement_rules(pos, move, ruleset)
    vote = _vote_count(pos, move, p, ruleset)
    if vote is not None:
        applied += _vote_rules(pos, move, p, vote, ruleset)
    elif move.toilets:  # a toilet covered without a vote (expert variant, X5)
        applied.append(_rule(ruleset, "X5", f"it covers the toilet at {_names(move.toilets)}; in the expert"
                                            f" variant {ruleset.id} covers toilets without a vote"))
    stays = step.accepted is not False
    if stays:
        applied.append(_rule(ruleset, "A4", f"the gang moves to {square_name(move.squares[-1])}"))
        for corner in step.removed:
            applied.append(_rule(ruleset, "A5", f"the gang of the {_track(pos, corner)} on "
                                                f"{square_name(_gang_before(pos, move, corner))}"
                                                " has no free square left to go on to: it is removed and the"
                                                " track is finished"))
        for corner in (_newly_stuck(pos, after) if not ruleset.options.trap_counts_edge else ()):
            applied.append(_rule(ruleset, "A5", f"the gang of the {_track(pos, corner)} on "
                                                f"{square_name(after.gangs[corner])} has no free square left to go"
                                                " on to, but it stays on the board: under this ruleset the board"
                                                " edge does not close a side (trap_counts_edge = false); no tile"
                                                " can extend its track"))
        scoring_rule = "X3" if pos.variant == "expert" else "E2"
        for sq, btype, value in step.destroyed:
            applied.append(_rule(ruleset, scoring_rule, f"the {btype} at {square_name(sq)} (value {value}) is"
                                                        " covered and scores nothing at the end"))
        if pos.variant == "expert" and not expert_chosen:
            done = [c for c in after.gangs if pl.track_finished(after, c)]
            if done and not any(pl.track_finished(pos, c) for c in pos.gangs):
                applied.append(_rule(ruleset, "X2", f"the {_track(pos, done[0])} is now finished: every player"
                                                    " chooses their counting goal card ('choose' follows)"))
    removed = tuple(_track(pos, c) for c in step.removed) if stays else ()
    return Verdict(**head, legal=True, rules=tuple(applied), vote=vote, removed=removed, notes=notes)


def _newly_stuck(pos: State, after: State) -> list:
    """Corners of live gangs that this placement left with no way on (any tile type),
    yet were not removed (A5 under a ruleset where the board edge does not count)."""
    def stuck(st: State) -> set:
        open_ = {m.corner for m in pl.legal_moves(st, None, tiles=pl.ALL_TILES)}
        return {c for c, g in st.gangs.items() if g is not None and c not in open_}
    return sorted(stuck(after) - stuck(pos), key=lambda c: (c[1], c[0]))


def _turn_rule(pos: State, move: pl.Move, ruleset: Ruleset) -> RuleApplied:
    mover = pos.to_move
    if pos.hands is not None:
        return _rule(ruleset, "T1", f"{mover} is on turn and lays {move.tile} from their own stock")
    return _rule(ruleset, "T1", f"{mover} is on turn (hands not recorded: the tile in hand is not checked)")


def _gang_before(pos: State, move: pl.Move, corner) -> tuple:
    """Where the gang of ``corner`` stood when it was removed after ``move``."""
    return move.squares[-1] if corner == move.corner else pos.gangs[corner]


def _placement_rules(pos: State, move: pl.Move, ruleset: Ruleset) -> list[RuleApplied]:
    """A1, A2, A6, A3 and A7 as they bore on a legal placement ``move`` at ``pos``."""
    kind = move.tile.kind_name
    gang = pos.gangs[move.corner]
    anchor, end = move.squares[0], move.squares[-1]
    out = [_rule(ruleset, "A1", f"a {kind} tile extends the {_track(pos, move.corner)}")]
    if move.bridges_passed:
        under = [(gang[0] + k * move.direction[0], gang[1] + k * move.direction[1])
                 for k in range(1, move.bridges_passed + 1)]
        out.append(_rule(ruleset, "A2", f"its anchor {square_name(anchor)} lies beyond the bridge field"
                                        f"{'s' if len(under) > 1 else ''} {_names(under)} next to the gang on "
                                        f"{square_name(gang)}"))
        out.append(_rule(ruleset, "A6", f"the track passes under the bridge field{'s' if len(under) > 1 else ''}"
                                        f" {_names(under)}" + ("" if len(under) == 1 else
                                                               " (a run of bridge fields, which this ruleset allows)")))
    else:
        out.append(_rule(ruleset, "A2", f"its anchor {square_name(anchor)} is next to the gang on "
                                        f"{square_name(gang)}"))
    where = "onto free squares inside the board"
    if len(move.squares) == 1:
        out.append(_rule(ruleset, "A3", f"a single may lie either way; {square_name(anchor)} is free and on"
                                        " the board"))
    else:
        out.append(_rule(ruleset, "A3", f"it runs {pl.DIRECTION_NAMES[move.direction]} from "
                                        f"{square_name(anchor)} to {square_name(end)}, its marked anchor side"
                                        f" against the gang, {where}"))
    near = sorted({c for sq in move.squares for c in pos.board.corners
                   if abs(c[0] - sq[0]) + abs(c[1] - sq[1]) == 1 and c != gang}, key=lambda c: (c[1], c[0]))
    if near:
        out.append(_rule(ruleset, "A7", f"the corner {_names(near)} next to it stays uncovered; no tile may"
                                        " ever cover a corner"))
    return out


def _vote_count(pos: State, move: pl.Move | None, p: Placement | None, ruleset: Ruleset) -> VoteCount | None:
    """The tally of the vote held on ``p`` when one is held (the placement covers a
    toilet, this game votes on toilets, and the record has the ballots)."""
    if move is None or p is None or p.vote is None or not votes.needs_vote(pos, move):
        return None
    t = votes.tally(p.vote)
    option = ruleset.options.vote_outcome
    claim = None
    if p.outcome is not None:
        o = p.outcome
        claim = ("accepted" if o.accepted else "rejected") + ("" if o.yes is None else f" {o.yes}:{o.no}")
    return VoteCount(t.lines, t.arithmetic, t.yes, t.no, votes.vote_outcome(t, ruleset.options), option,
                     OUTCOME_WORDS.get(option, option), claim)


def _vote_rules(pos: State, move: pl.Move, p: Placement, vote: VoteCount, ruleset: Ruleset) -> list[RuleApplied]:
    mover = pos.to_move
    rule = "X5" if pos.variant == "expert" else "B1"
    extra = (f"; in the expert variant {ruleset.id} still votes on toilets" if rule == "X5" else "")
    out = [_rule(ruleset, rule, f"it covers the toilet at {_names(move.toilets)}, so it is put to a vote{extra}")]
    order = ruleset.options.ballot_order
    actual = ", ".join(b.player for b in p.vote.ballots)
    out.append(_rule(ruleset, "B2", f"every player votes once: {actual} "
                                    f"({BALLOT_ORDER_WORDS.get(order, order)})"))
    out.append(_rule(ruleset, "B3", _CARD_WORDS))
    jokers = [f"{b.player} JEIN={c.declared}" for b in p.vote.ballots for c in b.cards if c.name == "JEIN"]
    if jokers:
        out.append(_rule(ruleset, "B4", "the joker counts 2 for the side its owner declares after all cards"
                                        f" are shown: {', '.join(jokers)}"))
    outcome = "accepted" if vote.accepted else "rejected"
    out.append(_rule(ruleset, "B5", f"{vote.yes}:{vote.no}, so the placement is {outcome} ({vote.outcome_rule})"))
    if not vote.accepted:
        out.append(_rule(ruleset, "B6", f"the {move.tile} goes back to {mover}'s hand, the gang does not move,"
                                        " and the turn is over"))
    out.append(_rule(ruleset, "B7", "every card played is spent for the game, except ? which goes back"))
    return out


def _alternatives(pos: State, mover: str, for_pass: bool) -> list[str]:
    """Every legal placement ``mover`` had at ``pos``, as a record writes them (for a
    pass: those that count for Legezwang under the ruleset)."""
    moves = pl.legal_moves(pos, mover if pos.hands is not None else None)
    if for_pass and not pos.options.toilet_counts_for_legezwang and pos.toilet_votes:
        moves = [m for m in moves if not m.toilets]
    return [_spell(pos, m) for m in moves]


def _spell(pos: State, m: pl.Move) -> str:
    """``W3 b1-d1`` (``@corner`` only where two tracks could take it), with a note on
    a toilet vote or a bridge passed."""
    a, e = m.squares[0], m.squares[-1]
    text = f"{m.tile} {square_name(a)}" + ("" if len(m.squares) == 1 else f"-{square_name(e)}")
    alone = pl.check_placement(pos, m.tile, a, None if len(m.squares) == 1 else e, None)
    if not isinstance(alone, pl.Move):
        text += f" @{square_name(m.corner)}"
    notes = []
    if m.bridges_passed:
        notes.append("under a bridge")
    if m.toilets:
        notes.append(f"covers the toilet at {_names(m.toilets)}" + (": put to a vote" if pos.toilet_votes else ""))
    return text + (f" ({'; '.join(notes)})" if notes else "")


# -- the position as text -------------------------------------------------------------

def render_position(st: State) -> str:
    """The board with the tiles laid (``w`` ``s`` ``r``, ``w=`` a bridge field), the
    gangs (``@W`` ``@S`` ``@R``), the legend, then the tracks, what is covered and
    the vote cards left. Ends with a newline."""
    board = st.board
    covered: dict = {}
    for laid in st.tiles:
        letter = laid.tile.kind.lower()
        for sq in laid.squares:
            covered[sq] = letter + ("=" if sq == laid.bridge else "")
    marks = {g: "@" + TRACK_LETTER[st.track_kind[c]] for c, g in st.gangs.items() if g is not None}
    lines = [render_board(board, covered=covered, marks=marks).rstrip("\n"),
             "Marks: w s r a wall/street/river tile, w= s= r= its bridge field, @W @S @R a gang",
             "Tracks:"]
    for corner, kind in sorted(st.track_kind.items(), key=lambda item: (item[0][1], item[0][0])):
        n = sum(1 for t in st.tiles if t.corner == corner)
        tiles = f"{n} tile{'s' if n != 1 else ''}"
        g = st.gangs[corner]
        if g is None:
            state = f"finished, gang removed on turn {st.removed_on.get(corner, '?')}"
        elif g == corner:
            state = "gang on its corner"
        else:
            state = f"gang on {square_name(g)}"
        lines.append(f"  {kind} from {square_name(corner)}: {state} ({tiles})")
    gone_b = [(sq, board.buildings[sq]) for sq in sorted(st.covered, key=lambda s: (s[1], s[0]))
              if sq in board.buildings]
    gone_t = [sq for sq in sorted(st.covered, key=lambda s: (s[1], s[0])) if sq in board.toilets]
    turn_of = {sq: st.tiles[i].turn for sq, i in st.covered.items()}
    lines.append("Covered buildings: " + (", ".join(f"{t} {square_name(sq)}={v} (turn {turn_of[sq]})"
                                                    for sq, (t, v) in gone_b) or "none"))
    lines.append("Covered toilets: " + (", ".join(f"{square_name(sq)} (turn {turn_of[sq]})" for sq in gone_t)
                                        or "none"))
    lines.append("Vote cards left: " + "; ".join(f"{p} {_cards_text(st.cards[p])}" for p in st.players))
    if st.hands is not None:
        lines.append("Hands: " + "; ".join(f"{p} {_tiles_text(st.hands[p])}" for p in st.players))
    else:
        lines.append("Hands: not recorded")
    return "\n".join(lines) + "\n"


def _hand_text(st: State, player: str) -> str:
    return "not recorded" if st.hands is None else _tiles_text(st.hands[player])


def _tiles_text(hand: Counter) -> str:
    tiles = sorted((t for t, n in hand.items() if n > 0), key=lambda t: ("WSR".index(t.kind), -t.length))
    return " ".join(f"{t}x{hand[t]}" if hand[t] != 1 else str(t) for t in tiles) or "(no tiles left)"


def _cards_text(cards: Counter) -> str:
    order = ("JA", "JAA", "JAAA", "NE", "NEE", "NEEE", "JEIN", "?")
    return " ".join(c for c in order for _ in range(cards.get(c, 0))) or "(none)"


def _track(st: State, corner) -> str:
    return f"{st.track_kind[corner]} from {square_name(corner)}"


def _names(squares) -> str:
    names = [square_name(s) for s in squares]
    return _and(names)


def _and(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


__all__ = ["ALTERNATIVES_SHOWN", "OUTCOME_WORDS", "RuleApplied", "Verdict", "VoteCount", "adjudicate",
           "agreement", "all_ruleset_ids", "render_position"]
