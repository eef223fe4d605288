"""Verdicts on one turn, under one ruleset or several, in words.

:func:`adjudicate` judges turn N of a record as recorded -- or a move that was not
played (a *what-if*) -- at the position before it; :func:`adjudicate_position`
does the same for a position given without a record. Legality is never decided
here: the position comes from the same replay as ``drunter validate``, the turn is
played by :func:`rules.turn.play_turn`, and every sentence is rendered from the
:class:`~drunter_notation.rules.turn.Decision` or
:class:`~drunter_notation.rules.state.Violation` the engine returned. What this
module adds is the words: the position as a text board, each rule applied with its
place in that ruleset's source, a vote card by card, the alternatives.

Pure: nothing here prints or writes. Bad input (no turn N, a syntax error in the
what-if move, an unknown ruleset or board) raises :class:`errors.DnError`.
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass

from drunter_notation.data.rulesets import DEFAULT_RULESET, catalogue, cite, list_rulesets, load_ruleset
from drunter_notation.errors import Diagnostic, DnError, fail
from drunter_notation.i18n import N_, _, ngettext, pgettext
from drunter_notation.explain.boardtext import TRACK_LETTER, render_board
from drunter_notation.explain.findings import SENTENCES, arithmetic, card_lines, citation, hint, sentence
from drunter_notation.explain.words import and_list, building_name, direction, names
from drunter_notation.load import resolve
from drunter_notation.position import format_position
from drunter_notation.notation.formatter import format_item, format_placement
from drunter_notation.notation.model import CARD_NAMES, Choose, Record, Square, Turn, square_name
from drunter_notation.notation.parser import parse_move
from drunter_notation.replay import replay
from drunter_notation.rules import turn as turns
from drunter_notation.rules.options import BallotOrder, Ruleset, VoteOutcome
from drunter_notation.rules.placement import DIRECTION_NAMES, Move, legal_moves
from drunter_notation.rules.state import State, Violation

ALTERNATIVES_SHOWN = 10  # text output lists the first ten legal alternatives and a count

# B5 and B2 in words, per option value (not per ruleset).
OUTCOME_WORDS = {
    VoteOutcome.YES_AT_LEAST_NO: N_("accepted when yes >= no: ties stand"),
    VoteOutcome.YES_OVER_NO_UNLESS_ALL_ABSTAIN: N_("accepted when yes > no, or when nobody votes yes or no (0:0);"
                                                   " a tie with yes votes is rejected"),
}
BALLOT_ORDER_WORDS = {
    BallotOrder.PLACER_FIRST_CLOCKWISE: N_("the placer first, then clockwise"),
    BallotOrder.ANY: N_("any order, each player once"),
}
_CARD_WORDS = N_("JA/JAA/JAAA count 1/2/3 yes, NE/NEE/NEEE 1/2/3 no, JEIN 2 for the side declared, ? nothing")
# A track by its kind and start corner, one whole phrase per kind (German and Czech
# inflect the kind): "wall from a1".
_TRACKS = {"wall": N_("wall from {corner}"), "street": N_("street from {corner}"), "river": N_("river from {corner}")}
# A1 as one sentence per kind: the kind stands twice in it.
_SAME_KIND = {"wall": N_("a wall tile extends the wall from {corner}"),
              "street": N_("a street tile extends the street from {corner}"),
              "river": N_("a river tile extends the river from {corner}")}


def track_name(kind: str, corner: Square) -> str:
    """``"wall from a1"`` in the language in force."""
    return _(_TRACKS[kind]).format(corner=square_name(corner))


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
    """A vote held on the turn: the card-by-card ``lines`` and the ``arithmetic``,
    the outcome under the ruleset's ``option`` value (B5) and that option in words,
    and the outcome the record claims (None: no claim)."""

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
    otherwise ``diagnostic`` is the turn's violation, or None for a legal turn.
    ``alternatives`` lists every legal placement the player had (for an illegal
    placement or an illegal pass); ``forced`` says for a pass whether the player had
    no legal placement (None: not a pass, or hands not recorded). ``removed`` names
    the tracks whose gangs a legal placement trapped and removed (A5)."""

    ruleset: str
    ruleset_name: str
    turn: int
    what_if: bool
    move: str
    player: str | None
    hand: str
    position: str | None
    position_string: str | None  # the position before the turn as a ``dn1 ...`` string (docs/notation.md)
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
            if d and d.turn:
                return _("NOT JUDGED — the replay stops earlier, at turn {turn}: {code} {message}").format(
                    turn=d.turn, code=d.code, message=d.message)
            return _("NOT JUDGED — the replay stops earlier, at the header or setup: {code} {message}").format(
                code=d.code if d else "", message=d.message if d else "")
        if self.legal:
            return _("LEGAL")
        return _("ILLEGAL — {code} {message}").format(code=self.code, message=self.message)

    def as_json(self) -> dict:
        out = dataclasses.asdict(self)
        out["diagnostic"] = self.diagnostic.as_json() if self.diagnostic else None
        out["status"] = self.status
        return out


# -- the entry points ------------------------------------------------------------------

def all_ruleset_ids() -> list[str]:
    """Every shipped ruleset, the default first (what ``--all-rulesets`` judges under)."""
    return [r.id for r in list_rulesets()]


def _rulesets(ids: list[str], path: str) -> list[Ruleset]:
    out = []
    for rid in ids:
        try:
            out.append(load_ruleset(rid))
        except DnError as e:
            raise DnError(e.diagnostic, path=path) from None
    return out


def what_if_move(move_text: str, number: int) -> Turn:
    """The what-if ``move_text`` (a placement with its vote, or ``pass``) as a turn
    numbered ``number``; the player is filled in when judged. P001 in the move text."""
    parsed = parse_move(move_text, "--move")
    if isinstance(parsed, Choose):
        raise fail("P001", "a what-if move is a placement or 'pass', not 'choose'", path="--move", line=1,
                   column=1, context=move_text)
    return Turn(number, "", parsed)


def adjudicate(record: Record, path: str, turn: int, rules: list[str] | None = None,
               move_text: str | None = None) -> list[Verdict]:
    """One :class:`Verdict` per ruleset in ``rules`` (None: the record's own ruleset)
    on turn ``turn`` of ``record`` as recorded, or on the what-if ``move_text``
    played instead at the position before turn ``turn``. A what-if may also be asked
    for the turn after the last one recorded. The record is replayed up to turn
    ``turn`` once per ruleset, never further.

    Raises DnError: P001 for a syntax error in ``move_text``; U001 for a turn the
    record does not have; H004/H003 for an unknown ruleset or board."""
    what_if = what_if_move(move_text, turn) if move_text is not None else None
    index = turn_index(record, path, turn, "a --move" if what_if is not None else None)
    own = record.tag("Rules")
    rulesets = _rulesets(list(rules) if rules else [own.value if own is not None else DEFAULT_RULESET], path)
    board, _problems = resolve(record, path)
    if isinstance(board, Diagnostic):
        raise DnError(board, path=path)
    before = dataclasses.replace(record, events=record.events[:index], reveal=None, score=None)
    event = what_if if what_if is not None else record.events[index]
    out = []
    for ruleset in rulesets:
        prefix = replay(before, path, board=board, ruleset=ruleset)
        move = _what_if_text(what_if) if what_if is not None else format_item(event)
        if not prefix.valid:
            d = prefix.errors[0]
            out.append(Verdict(ruleset.id, _(ruleset.name), turn, what_if is not None, move, None, _("not known"), None,
                               None, None, d.code, d.message, d, earlier=True))
            continue
        out.append(judge_event(prefix.state, ruleset, event, what_if is not None))
    return out


def turn_index(record: Record, path: str, turn: int, next_too: str | None = None) -> int:
    """The index in ``record.events`` of turn ``turn``; ``next_too`` (what may ask for
    it, e.g. ``"a --move"``): the turn after the last one is allowed too (its index is
    the number of events). Raises DnError U001 for any other turn."""
    numbers = [t.number for t in record.turns]
    index = next((i for i, ev in enumerate(record.events) if isinstance(ev, Turn) and ev.number == turn), None)
    if index is not None:
        return index
    last = max(numbers, default=0)
    if next_too is not None and turn == last + 1 and turn >= 1:
        return len(record.events)
    have = f"its turns are numbered {min(numbers)} to {last}" if numbers else "it has no turns"
    extra = f"; {next_too} may also be asked for turn {last + 1}" if next_too is not None else ""
    raise fail("U001", f"the record has no turn {turn} ({have}{extra})", path=path)


def adjudicate_position(state: State, rulesets: list[Ruleset], move_text: str) -> list[Verdict]:
    """One :class:`Verdict` per ruleset on ``move_text`` played at ``state`` (a
    position given without a record; its own ruleset's options are replaced by each
    ruleset's in turn)."""
    event = what_if_move(move_text, state.number + 1)
    out = []
    for ruleset in rulesets:
        st = state.copy()
        st.options = ruleset.options
        out.append(judge_event(st, ruleset, event, True))
    return out


def judge_event(pos: State, ruleset: Ruleset, event: Turn, what_if: bool) -> Verdict:
    """Play ``event`` on a copy of ``pos`` under ``ruleset`` (whose options ``pos``
    carries) and put the engine's answer into words. A what-if is played by the
    player to move."""
    mover = pos.to_move
    if what_if:
        event = dataclasses.replace(event, player=mover)
    after = pos.copy()
    decision = turns.play_turn(after, event.number, event.player, event.placement)
    head = dict(ruleset=ruleset.id, ruleset_name=_(ruleset.name), turn=event.number, what_if=what_if,
                move=format_item(event), player=mover, hand=_hand_text(pos, mover), position=render_position(pos),
                position_string=format_position(pos, ruleset),
                notes=(SENTENCES["no-hands"]({}),) if pos.hands is None else ())
    if isinstance(decision, Violation):
        return _illegal(head, decision, pos, event, ruleset)
    if decision.move is None:
        return _legal_pass(head, decision, ruleset)
    return Verdict(**head, legal=True, rules=tuple(_rules_applied(decision, pos, ruleset)),
                   vote=_vote_count(decision.vote, ruleset), removed=tuple(
                       track_name(pos.track_kind[c], c) for c, _g in decision.removed))


def _what_if_text(ev: Turn) -> str:
    action = "pass" if ev.placement is None else format_placement(ev.placement)
    return _("{number}. (player to move) {action}").format(number=ev.number, action=action)


# -- the rules, in words ---------------------------------------------------------------

def _rule(ruleset: Ruleset, rule: str, how: str) -> RuleApplied:
    entry = catalogue().get(rule)
    return RuleApplied(rule, _(entry.title) if entry else rule, cite(ruleset, rule), how)


def _rules_applied(d: turns.Decision, pos: State, ruleset: Ruleset) -> list[RuleApplied]:
    """Every rule the engine applied to the legal placement ``d``, in its order, in words."""
    move, mover = d.move, d.player
    words = {
        "T1": lambda: [_("{player} is on turn and lays {tile} from their own stock").format(player=mover, tile=move.tile)
                       if d.hands_known else
                       _("{player} is on turn (hands not recorded: the tile in hand is not checked)").format(
                           player=mover)],
        "A1": lambda: [_(_SAME_KIND[pos.track_kind[move.corner]]).format(corner=square_name(move.corner))],
        "A2": lambda: [_a2(move)],
        "A6": lambda: [ngettext("the track passes under the bridge field {squares}",
                                "the track passes under the bridge fields {squares} (a run of bridge fields, which"
                                " this ruleset allows)", move.bridges_passed).format(squares=names(move.bridges))],
        "A3": lambda: [_a3(move)],
        "A7": lambda: [_("the corner {squares} next to it stays uncovered; no tile may ever cover a corner").format(
            squares=names(d.near_corners))],
        "A4": lambda: [_("the gang moves to {square}").format(square=square_name(move.squares[-1]))],
        "A5": lambda: [_("the gang of the {track} on {square} has no free square left to go on to: it is removed"
                         " and the track is finished").format(track=track_name(pos.track_kind[c], c),
                                                              square=square_name(g)) for c, g in d.removed]
                      + [_("the gang of the {track} on {square} has no free square left to go on to, but it stays"
                           " on the board: under this ruleset the board edge does not close a side"
                           " (trap_counts_edge = false); no tile can extend its track").format(
                               track=track_name(pos.track_kind[c], c), square=square_name(g)) for c, g in d.stuck],
        "E2": lambda: _destroyed(d),
        "X3": lambda: _destroyed(d),
        "X2": lambda: [_("the {track} is now finished: every player chooses their counting goal card ('choose'"
                         " follows)").format(track=track_name(pos.track_kind[d.finished], d.finished))],
    }
    out = []
    for rule in d.rules:
        if rule in ("B1", "X5") and d.vote is not None:
            lines = [(_("it covers the toilet at {squares}, so it is put to a vote; in the expert variant {ruleset}"
                        " still votes on toilets") if rule == "X5" else
                      _("it covers the toilet at {squares}, so it is put to a vote")).format(
                          squares=names(move.toilets), ruleset=ruleset.id)]
        elif rule == "X5":
            lines = [_("it covers the toilet at {squares}; in the expert variant {ruleset} covers toilets without a"
                       " vote").format(squares=names(move.toilets), ruleset=ruleset.id)]
        elif rule[0] == "B":
            lines = [_vote_rule(rule, d.vote, mover, move)]
        else:
            lines = words[rule]()
        out += [_rule(ruleset, rule, how) for how in lines]
    return out


def _a2(move: Move) -> str:
    anchor, gang = square_name(move.squares[0]), square_name(move.gang)
    if move.bridges_passed:
        return ngettext("its anchor {anchor} lies beyond the bridge field {bridges} next to the gang on {gang}",
                        "its anchor {anchor} lies beyond the bridge fields {bridges} next to the gang on {gang}",
                        move.bridges_passed).format(anchor=anchor, bridges=names(move.bridges), gang=gang)
    return _("its anchor {anchor} is next to the gang on {gang}").format(anchor=anchor, gang=gang)


def _a3(move: Move) -> str:
    anchor = square_name(move.squares[0])
    if len(move.squares) == 1:
        return _("a single may lie either way; {anchor} is free and on the board").format(anchor=anchor)
    return _("it runs {direction} from {anchor} to {end}, its marked anchor side against the gang, onto free"
             " squares inside the board").format(direction=direction(DIRECTION_NAMES[move.direction]),
                                                 anchor=anchor, end=square_name(move.squares[-1]))


def _destroyed(d: turns.Decision) -> list[str]:
    return [_("the {building} at {square} (value {value}) is covered and scores nothing at the end").format(
        building=building_name(btype), square=square_name(sq), value=value) for sq, btype, value in d.destroyed]


def _vote_rule(rule: str, vote: turns.VoteDecision, mover: str, move: Move) -> str:
    t = vote.tally
    if rule == "B2":
        order = []
        for c in t.cards:
            if c.player not in order:
                order.append(c.player)
        return _("every player votes once: {players} ({order})").format(
            players=", ".join(order), order=_(BALLOT_ORDER_WORDS[vote.ballot_order]))
    if rule == "B3":
        return _(_CARD_WORDS)
    if rule == "B4":
        jokers = [f"{c.player} {c.card}" for c in t.cards if c.card.startswith("JEIN")]
        return _("the joker counts 2 for the side its owner declares after all cards are shown: {jokers}").format(
            jokers=", ".join(jokers))
    if rule == "B5":
        outcome = (_("{yes}:{no}, so the placement is accepted ({rule})") if vote.accepted
                   else _("{yes}:{no}, so the placement is rejected ({rule})"))
        return outcome.format(yes=t.yes, no=t.no, rule=_(OUTCOME_WORDS[vote.outcome_option]))
    if rule == "B6":
        return _("the {tile} goes back to {player}'s hand, the gang does not move, and the turn is over").format(
            tile=move.tile, player=mover)
    return _("every card played is spent for the game, except ? which goes back")


def _claim_text(claim) -> str | None:
    """The outcome the record claims, as the record writes it (DN: ``accepted 1:1``)."""
    if claim is None:
        return None
    accepted, yes, no = claim
    return ("accepted" if accepted else "rejected") + ("" if yes is None else f" {yes}:{no}")


def _vote_count(vote: turns.VoteDecision | None, ruleset: Ruleset) -> VoteCount | None:
    if vote is None:
        return None
    t = vote.tally
    return VoteCount(card_lines(t), arithmetic(t), t.yes, t.no, vote.accepted, str(vote.outcome_option),
                     _(OUTCOME_WORDS[vote.outcome_option]), _claim_text(vote.claim))


def _illegal(head: dict, v: Violation, pos: State, event: Turn, ruleset: Ruleset) -> Verdict:
    """The turn breaks a rule: the rule broken with its citation; for a vote that went
    wrong on a legal placement, the placement's rules too; for a placement or a pass
    that breaks a laying rule, every placement the player had instead."""
    message = sentence(v)
    line, column = (event.line, event.column)
    if v.code == "B005" and event.placement.outcome is not None:
        line, column = event.placement.outcome.line, event.placement.outcome.column
    d = Diagnostic("error", v.code, message, line, column, event.number, v.rule, citation(v, ruleset), hint(v))
    applied: list[RuleApplied] = []
    vote = None
    p = event.placement
    if v.code[0] == "B":  # the placement itself was fine; the vote was not
        judged = turns.judge_turn(pos, event.number, event.player, dataclasses.replace(p, vote=None, outcome=None))
        move = judged[0] if not isinstance(judged, Violation) else None
        decided = None
        if v.code == "B005":  # the vote was held properly; only the claim is wrong
            decided = turns.VoteDecision(v.facts["tally"], v.facts["accepted"], ruleset.options.vote_outcome,
                                         ruleset.options.ballot_order, "X5" if pos.variant == "expert" else "B1",
                                         v.facts["claim"])
            vote = _vote_count(decided, ruleset)
        if move is not None:
            rules, near = turns.placement_rules(pos, move)
            if decided is not None:
                rules += turns.vote_rules(decided)
            placed = turns.Decision(event.number, event.player, move, pos.hands is not None, tuple(rules),
                                    vote=decided, near_corners=near)
            for r in _rules_applied(placed, pos, ruleset):
                if r.rule == "B5":
                    r = dataclasses.replace(r, how=_("{how}; the record claims '{claim}': broken ({code})").format(
                        how=r.how, claim=vote.claim, code=v.code))
                applied.append(r)
    if v.code != "B005" and v.rule:
        applied.append(_rule(ruleset, v.rule, _("broken: {message}").format(message=message)))
    alternatives = forced = None
    if v.code[0] == "A" or v.code in ("T003", "T004"):
        moves = turns.counting_moves(pos, pos.to_move) if p is None else \
            legal_moves(pos, pos.to_move if pos.hands is not None else None)
        alternatives = tuple(_spell(m) for m in moves)
        forced = False if p is None else None
    return Verdict(**head, legal=False, code=v.code, message=message, diagnostic=d, rules=tuple(applied),
                   vote=vote, alternatives=alternatives, forced=forced)


def _legal_pass(head: dict, d: turns.Decision, ruleset: Ruleset) -> Verdict:
    mover = d.player
    if not d.hands_known:
        how = (_("the hands are not recorded, so whether {player} could place cannot be checked (with some tile a"
                 " placement would exist, e.g. {move})") if d.could_lay else
               _("the hands are not recorded, so whether {player} could place cannot be checked"))
        how = how.format(player=mover, move=_spell(d.could_lay) if d.could_lay else "")
        return Verdict(**head, legal=True, rules=(_rule(ruleset, "T2", how),), forced=None)
    how = (_("{player} has no tiles left, so the pass is forced") if d.hand_empty
           else _("{player} holds no tile that has a legal placement, so the pass is forced")).format(player=mover)
    return Verdict(**head, legal=True, rules=(_rule(ruleset, "T2", how),), alternatives=(), forced=True)


def _spell(m: Move) -> str:
    """The move's DN text with a note on a bridge passed or a toilet covered."""
    notes = []
    if m.bridges_passed:
        notes.append(_("under a bridge"))
    if m.toilets:
        notes.append((_("covers the toilet at {squares}: put to a vote") if m.needs_vote
                      else _("covers the toilet at {squares}")).format(squares=names(m.toilets)))
    return str(m) + (f" ({'; '.join(notes)})" if notes else "")


# -- agreement -------------------------------------------------------------------------

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
            return _("The rulesets agree: none can judge it (the replay stops at an earlier turn)")
        ruling = _ruling_words(key, len(ids))
        if len(ids) == 1:
            return _("The rulesets agree: {rulesets} {ruling}").format(rulesets=ids[0], ruling=ruling)
        agree = (_("The rulesets agree: {rulesets} both {ruling}") if len(ids) == 2
                 else _("The rulesets agree: {rulesets} all {ruling}"))
        return agree.format(rulesets=and_list(ids), ruling=ruling)
    parts = [f"{and_list(ids)} {_ruling_words(key, len(ids))}" for key, ids in groups.items()]
    return _("The rulesets disagree: {parts}").format(parts=", ".join(parts))


def _ruling(v: Verdict) -> tuple:
    if v.legal is None:
        return ("unjudged",)
    if not v.legal:
        return ("reject", v.code)
    return ("accept", None if v.vote is None else v.vote.accepted, v.removed)


def _ruling_words(key: tuple, n: int) -> str:
    """What ``n`` rulesets rule (the verb agrees with their number)."""
    if key[0] == "unjudged":
        return ngettext("cannot judge it (the replay stops at an earlier turn)",
                        "cannot judge it (the replay stops at an earlier turn)", n)
    if key[0] == "reject":
        return ngettext("rejects ({code})", "reject ({code})", n).format(code=key[1])
    effects = []
    if key[1] is not None:
        effects.append(_("the vote is accepted: the tile stays") if key[1]
                       else _("the vote is rejected: the tile goes back"))
    if key[2]:
        tracks = and_list(_("the {track}").format(track=t) for t in key[2])
        effects.append(ngettext("the gang of {tracks} is removed", "the gangs of {tracks} are removed",
                                len(key[2])).format(tracks=tracks))
    if not effects:
        return ngettext("accepts", "accept", n)
    return ngettext("accepts ({effects})", "accept ({effects})", n).format(effects="; ".join(effects))


# -- the verdicts as text and JSON ---------------------------------------------------

def as_json(path: str, turn: int, move_text: str | None, verdicts: list[Verdict], all_rulesets: bool) -> dict:
    """The verdicts as one JSON object (the same content as the text)."""
    return {
        "file": path,
        "turn": turn,
        "what_if": move_text is not None,
        "move": verdicts[0].move if verdicts else None,
        "verdicts": [v.as_json() for v in verdicts],
        "agreement": agreement(verdicts) if all_rulesets or len(verdicts) > 1 else None,
    }


def as_text(path: str, turn: int, move_text: str | None, verdicts: list[Verdict], all_rulesets: bool) -> str:
    out = []
    kind = _("what-if, not played") if move_text is not None else _("as recorded")
    out.append(_("{path}, turn {turn} ({kind})").format(path=path, turn=turn, kind=kind))
    positions = {v.position for v in verdicts if v.position is not None}
    shared = len(positions) == 1 and len({(v.player, v.hand) for v in verdicts if v.position}) == 1
    if shared:
        v = next(v for v in verdicts if v.position is not None)
        head = (_("Position before turn {turn} (the same under every ruleset judged):") if len(verdicts) > 1
                else _("Position before turn {turn}:"))
        out += ["", head.format(turn=turn), v.position.rstrip("\n"), "",
                _("On turn: {player}; hand: {hand}").format(player=v.player, hand=v.hand)]
    elif len(positions) > 1:
        out += ["", _("The position before turn {turn} differs between the rulesets (earlier turns ended"
                      " differently under them); each verdict shows its own.").format(turn=turn)]
    out.append(_("Move ({kind}): {move}").format(kind=kind, move=verdicts[0].move))
    for v in verdicts:
        out += [""] + _block(v, turn, show_position=not shared)
    if all_rulesets or len(verdicts) > 1:
        out += ["", agreement(verdicts)]
    return "\n".join(out) + "\n"


def _block(v: Verdict, turn: int, show_position: bool) -> list[str]:
    out = [f"{v.ruleset} ({v.ruleset_name}): {v.status}"]
    if show_position and v.position is not None:
        out += ["  " + _("Position before turn {turn} under {ruleset}:").format(turn=turn, ruleset=v.ruleset)]
        out += ["    " + line if line else "" for line in v.position.rstrip("\n").split("\n")]
        out += ["  " + _("On turn: {player}; hand: {hand}").format(player=v.player, hand=v.hand)]
    if v.rules:
        out.append("  " + _("Rules applied:"))
        for r in v.rules:
            out.append(f"    {r.rule} {r.title} ({r.citation}): {r.how}")
    if v.vote is not None:
        c = v.vote
        out.append("  " + _("Vote, card by card:"))
        out += [f"    {line}" for line in c.lines]
        total = (_("{arithmetic} -> {yes}:{no}, accepted (vote_outcome = {option})") if c.accepted
                 else _("{arithmetic} -> {yes}:{no}, rejected (vote_outcome = {option})"))
        out.append("    " + total.format(arithmetic=c.arithmetic, yes=c.yes, no=c.no, option=c.option))
        if c.claim is not None:
            if c.claim.split()[0] == ("accepted" if c.accepted else "rejected"):  # the claim is DN text
                claims = _("the record claims: {claim}")
            else:
                claims = (_("the record claims: {claim} (but it is accepted)") if c.accepted
                          else _("the record claims: {claim} (but it is rejected)"))
            out.append("    " + claims.format(claim=c.claim))
    if v.forced is not None or (v.legal is not None and v.move.endswith(" pass")):
        if v.forced is True:
            out.append("  " + _("The pass was forced: {player} had no legal placement.").format(player=v.player))
        elif v.forced is False:
            n = len(v.alternatives or ())
            out.append("  " + ngettext("The pass was not forced: {player} had {n} legal placement.",
                                       "The pass was not forced: {player} had {n} legal placements.", n).format(
                                           player=v.player, n=n))
        else:
            out.append("  " + _("Whether the pass was forced cannot be checked: the hands are not recorded."))
    if v.alternatives is not None and not (v.forced is True):
        alts = v.alternatives
        if not alts:
            out.append("  " + _("Legal alternatives for {player}: none").format(player=v.player))
        else:
            head = (_("Legal alternatives for {player} ({n}, every tile type tried: hands not recorded):")
                    if v.hand == _("not recorded") else _("Legal alternatives for {player} ({n}):"))
            out.append("  " + head.format(player=v.player, n=len(alts)))
            out += [f"    {a}" for a in alts[:ALTERNATIVES_SHOWN]]
            if len(alts) > ALTERNATIVES_SHOWN:
                more = len(alts) - ALTERNATIVES_SHOWN
                out.append("    " + ngettext("... and {n} more (--format json lists them all)",
                                             "... and {n} more (--format json lists them all)", more).format(n=more))
    for note in v.notes:
        out.append("  " + _("Note: {note}").format(note=note))
    return out


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
             _("Marks: w s r a wall/street/river tile, w= s= r= its bridge field, @W @S @R a gang"),
             _("Tracks:")]
    for corner, kind in sorted(st.track_kind.items(), key=lambda item: (item[0][1], item[0][0])):
        n = sum(1 for t in st.tiles if t.corner == corner)
        tiles = ngettext("{n} tile", "{n} tiles", n).format(n=n)
        g = st.gangs[corner]
        if g is None:
            state = _("finished, gang removed on turn {turn}").format(turn=st.removed_on.get(corner, "?"))
        elif g == corner:
            state = _("gang on its corner")
        else:
            state = _("gang on {square}").format(square=square_name(g))
        lines.append(f"  {track_name(kind, corner)}: {state} ({tiles})")
    gone_b = [(sq, board.buildings[sq]) for sq in sorted(st.covered, key=lambda s: (s[1], s[0]))
              if sq in board.buildings]
    gone_t = [sq for sq in sorted(st.covered, key=lambda s: (s[1], s[0])) if sq in board.toilets]
    turn_of = {sq: st.tiles[i].turn for sq, i in st.covered.items()}
    buildings = ", ".join(_("{building} {square}={value} (turn {turn})").format(
        building=building_name(t), square=square_name(sq), value=v, turn=turn_of[sq]) for sq, (t, v) in gone_b)
    toilets = ", ".join(_("{square} (turn {turn})").format(square=square_name(sq), turn=turn_of[sq])
                        for sq in gone_t)
    lines.append(_("Covered buildings: {list}").format(list=buildings or _("none")))
    lines.append(_("Covered toilets: {list}").format(list=toilets or _("none")))
    lines.append(_("Vote cards left: {list}").format(
        list="; ".join(f"{p} {_cards_text(st.cards[p])}" for p in st.players)))
    if st.hands is not None:
        lines.append(_("Hands: {list}").format(list="; ".join(f"{p} {_tiles_text(st.hands[p])}" for p in st.players)))
    else:
        lines.append(_("Hands: not recorded"))
    return "\n".join(lines) + "\n"


def _hand_text(st: State, player: str) -> str:
    return _("not recorded") if st.hands is None else _tiles_text(st.hands[player])


def _tiles_text(hand: Counter) -> str:
    tiles = sorted((t for t, n in hand.items() if n > 0), key=lambda t: ("WSR".index(t.kind), -t.length))
    return " ".join(f"{t}x{hand[t]}" if hand[t] != 1 else str(t) for t in tiles) or _("(no tiles left)")


def _cards_text(cards: Counter) -> str:
    return " ".join(c for c in CARD_NAMES for _c in range(cards.get(c, 0))) or _("(none)")
