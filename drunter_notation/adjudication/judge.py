"""The entry points: a turn of a record, a what-if or a move at a position given
alone, played by the engine at the position before it and judged per ruleset."""
from __future__ import annotations

import dataclasses

from drunter_notation.adjudication.applied import rule_applied, rules_applied, spell, vote_count
from drunter_notation.adjudication.verdict import RuleApplied, Verdict, VerdictHead
from drunter_notation.data.rulesets import DEFAULT_RULESET, list_rulesets, load_ruleset
from drunter_notation.errors import Diagnostic, DnError, fail
from drunter_notation.explain.boardtext import hand_text, render_position, track_name
from drunter_notation.explain.findings import SENTENCES, citation, hint, sentence
from drunter_notation.i18n import _
from drunter_notation.load import resolve
from drunter_notation.notation.formatter import format_item, format_placement
from drunter_notation.notation.model import Choose, Record, Turn
from drunter_notation.notation.parser import parse_move
from drunter_notation.position import format_position
from drunter_notation.replay import replay
from drunter_notation.rules import turn as turns
from drunter_notation.rules.options import Ruleset
from drunter_notation.rules.placement import legal_moves
from drunter_notation.rules.state import State, Violation


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
    index = turn_index(record, path, turn, "--move" if what_if is not None else None)
    own = record.tag("Rules")
    rulesets = _rulesets(list(rules) if rules else [own.value if own is not None else DEFAULT_RULESET], path)
    board, _problems = resolve(record, path)
    if isinstance(board, Diagnostic):
        raise DnError(board, path=path)
    before = dataclasses.replace(record, events=record.events[:index], reveal=None, score=None)
    recorded = record.events[index] if what_if is None else None
    assert not isinstance(recorded, Choose)  # turn_index finds turns only
    event = what_if if what_if is not None else recorded
    out = []
    for ruleset in rulesets:
        prefix = replay(before, path, board=board, ruleset=ruleset)
        move = _what_if_text(what_if) if what_if is not None else format_item(recorded) if recorded else ""
        if not prefix.valid:
            d = prefix.errors[0]
            out.append(Verdict(ruleset=ruleset.id, ruleset_name=_(ruleset.name), turn=turn, what_if=what_if is not None,
                               move=move, player=None, hand=_("not known"), position=None, position_string=None,
                               legal=None, code=d.code, message=d.message, diagnostic=d, earlier=True))
            continue
        assert prefix.state is not None and event is not None  # a valid replay ends at a position
        out.append(judge_event(prefix.state, ruleset, event, what_if=what_if is not None))
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
    if not numbers:
        raise fail("U001", _("the record has no turn {turn} (it has no turns)").format(turn=turn), path=path)
    if next_too is None:
        raise fail("U001", _("the record has no turn {turn} (its turns are numbered {first} to {last})").format(
            turn=turn, first=min(numbers), last=last), path=path)
    raise fail("U001", _("the record has no turn {turn} (its turns are numbered {first} to {last}; {what} may "
                         "also be asked for turn {next})").format(turn=turn, first=min(numbers), last=last,
                                                                   what=next_too, next=last + 1), path=path)


def adjudicate_position(state: State, rulesets: list[Ruleset], move_text: str) -> list[Verdict]:
    """One :class:`Verdict` per ruleset on ``move_text`` played at ``state`` (a
    position given without a record; its own ruleset's options are replaced by each
    ruleset's in turn)."""
    event = what_if_move(move_text, state.number + 1)
    out = []
    for ruleset in rulesets:
        st = state.copy()
        st.options = ruleset.options
        out.append(judge_event(st, ruleset, event, what_if=True))
    return out


def judge_event(pos: State, ruleset: Ruleset, event: Turn, *, what_if: bool) -> Verdict:
    """Play ``event`` on a copy of ``pos`` under ``ruleset`` (whose options ``pos``
    carries) and put the engine's answer into words. A what-if is played by the
    player to move."""
    mover = pos.to_move
    if what_if:
        event = dataclasses.replace(event, player=mover)
    after = pos.copy()
    decision = turns.play_turn(after, event.number, event.player, event.placement)
    head = VerdictHead(ruleset=ruleset.id, ruleset_name=_(ruleset.name), turn=event.number, what_if=what_if,
                       move=format_item(event), player=mover, hand=hand_text(pos, mover),
                       position=render_position(pos), position_string=format_position(pos, ruleset),
                       notes=(SENTENCES["no-hands"]({}),) if pos.hands is None else ())
    if isinstance(decision, Violation):
        return _illegal(head, decision, pos, event, ruleset)
    if decision.move is None:
        return _legal_pass(head, decision, ruleset)
    return Verdict(**head, legal=True, rules=tuple(rules_applied(decision, pos, ruleset)),
                   vote=vote_count(decision.vote, ruleset), removed=tuple(
                       track_name(pos.track_kind[c], c) for c, _g in decision.removed))


def _what_if_text(ev: Turn) -> str:
    action = "pass" if ev.placement is None else format_placement(ev.placement)
    return _("{number}. (player to move) {action}").format(number=ev.number, action=action)


def _illegal(head: VerdictHead, v: Violation, pos: State, event: Turn, ruleset: Ruleset) -> Verdict:
    """The turn breaks a rule: the rule broken with its citation; for a vote that went
    wrong on a legal placement, the placement's rules too; for a placement or a pass
    that breaks a laying rule, every placement the player had instead."""
    message = sentence(v)
    p = event.placement
    line, column = (event.line, event.column)
    if v.code == "B005" and p is not None and p.outcome is not None:
        line, column = p.outcome.line, p.outcome.column
    d = Diagnostic("error", v.code, message, line=line, column=column, turn=event.number, rule=v.rule,
                   citation=citation(v, ruleset), hint=hint(v))
    applied: list[RuleApplied] = []
    vote = None
    if v.code[0] == "B" and p is not None:  # the placement itself was fine; the vote was not
        judged = turns.judge_turn(pos, event.number, event.player, dataclasses.replace(p, vote=None, outcome=None))
        move = judged[0] if not isinstance(judged, Violation) else None
        decided = None
        if v.code == "B005":  # the vote was held properly; only the claim is wrong
            decided = turns.VoteDecision(tally=v.facts["tally"], accepted=v.facts["accepted"],
                                         outcome_option=ruleset.options.vote_outcome,
                                         ballot_order=ruleset.options.ballot_order,
                                         called_by="X5" if pos.variant == "expert" else "B1", claim=v.facts["claim"])
            vote = vote_count(decided, ruleset)
        if move is not None:
            rules, near = turns.placement_rules(pos, move)
            if decided is not None:
                rules += turns.vote_rules(decided)
            placed = turns.Decision(number=event.number, player=event.player, move=move,
                                    hands_known=pos.hands is not None, rules=tuple(rules), vote=decided,
                                    near_corners=near)
            for r in rules_applied(placed, pos, ruleset):
                if r.rule == "B5" and vote is not None:  # B5 is applied to a vote held (B005)
                    r = dataclasses.replace(r, how=_("{how}; the record claims '{claim}': broken ({code})").format(
                        how=r.how, claim=vote.claim, code=v.code))
                applied.append(r)
    if v.code != "B005" and v.rule:
        applied.append(rule_applied(ruleset, v.rule, _("broken: {message}").format(message=message)))
    alternatives: tuple[str, ...] | None = None
    forced: bool | None = None
    if v.code[0] == "A" or v.code in ("T003", "T004"):
        moves = turns.counting_moves(pos, pos.to_move) if p is None else \
            legal_moves(pos, pos.to_move if pos.hands is not None else None)
        alternatives = tuple(spell(m) for m in moves)
        forced = False if p is None else None
    return Verdict(**head, legal=False, code=v.code, message=message, diagnostic=d, rules=tuple(applied),
                   vote=vote, alternatives=alternatives, forced=forced)


def _legal_pass(head: VerdictHead, d: turns.Decision, ruleset: Ruleset) -> Verdict:
    mover = d.player
    if not d.hands_known:
        how = (_("the hands are not recorded, so whether {player} could place cannot be checked (with some tile a"
                 " placement would exist, e.g. {move})") if d.could_lay else
               _("the hands are not recorded, so whether {player} could place cannot be checked"))
        how = how.format(player=mover, move=spell(d.could_lay) if d.could_lay else "")
        return Verdict(**head, legal=True, rules=(rule_applied(ruleset, "T2", how),), forced=None)
    how = (_("{player} has no tiles left, so the pass is forced") if d.hand_empty
           else _("{player} holds no tile that has a legal placement, so the pass is forced")).format(player=mover)
    return Verdict(**head, legal=True, rules=(rule_applied(ruleset, "T2", how),), alternatives=(), forced=True)
