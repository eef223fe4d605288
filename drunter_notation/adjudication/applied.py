"""Each rule the engine applied to a turn, in words, with its place in the
ruleset's source; the vote card by card; a legal move with its notes."""
from __future__ import annotations

from drunter_notation.adjudication.verdict import RuleApplied, VoteCount
from drunter_notation.data.rulesets import catalogue
from drunter_notation.explain.boardtext import track_name
from drunter_notation.explain.findings import arithmetic, card_lines
from drunter_notation.explain.words import building_name, direction, names
from drunter_notation.i18n import N_, _, ngettext
from drunter_notation.notation.model import square_name
from drunter_notation.rules import turn as turns
from drunter_notation.rules.options import BallotOrder, Ruleset, VoteOutcome
from drunter_notation.rules.placement import DIRECTION_NAMES, Move
from drunter_notation.rules.state import State

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

# A1 as one sentence per kind: the kind stands twice in it.
_SAME_KIND = {"wall": N_("a wall tile extends the wall from {corner}"),
              "street": N_("a street tile extends the street from {corner}"),
              "river": N_("a river tile extends the river from {corner}")}


def rule_applied(ruleset: Ruleset, rule: str, how: str) -> RuleApplied:
    entry = catalogue().get(rule)
    return RuleApplied(rule=rule, title=_(entry.title) if entry else rule, citation=ruleset.cite(rule), how=how)


def rules_applied(d: turns.Decision, pos: State, ruleset: Ruleset) -> list[RuleApplied]:
    """Every rule the engine applied to the legal placement ``d``, in its order, in words."""
    move, mover, vote = d.move, d.player, d.vote
    assert move is not None  # a pass has its own words (T2)
    words = {
        "T1": lambda: [_("{player} is on turn and lays {tile} from their own stock").format(
                           player=mover, tile=move.tile) if d.hands_known else
                       _("{player} is on turn (hands not recorded: the tile in hand is not checked)").format(
                           player=mover)],
        "A1": lambda: [_(_SAME_KIND[pos.track_kind[move.corner]]).format(corner=square_name(move.corner))],
        "A2": lambda: [_anchor_next_to_gang(move)],
        "A6": lambda: [ngettext("the track passes under the bridge field {squares}",
                                "the track passes under the bridge fields {squares} (a run of bridge fields, which"
                                " this ruleset allows)", move.bridges_passed).format(squares=names(move.bridges))],
        "A3": lambda: [_lie_of_the_tile(move)],
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
        "X2": lambda: _finished(d, pos),
    }
    out = []
    for rule in d.rules:
        if rule in ("B1", "X5") and vote is not None:
            lines = [(_("it covers the toilet at {squares}, so it is put to a vote; in the expert variant {ruleset}"
                        " still votes on toilets") if rule == "X5" else
                      _("it covers the toilet at {squares}, so it is put to a vote")).format(
                          squares=names(move.toilets), ruleset=ruleset.id)]
        elif rule == "X5":
            lines = [_("it covers the toilet at {squares}; in the expert variant {ruleset} covers toilets without a"
                       " vote").format(squares=names(move.toilets), ruleset=ruleset.id)]
        elif rule[0] == "B":
            assert vote is not None  # B2-B7 are applied to a vote held
            lines = [_vote_rule(rule, vote, mover, move)]
        else:
            lines = words[rule]()
        out += [rule_applied(ruleset, rule, how) for how in lines]
    return out


def _anchor_next_to_gang(move: Move) -> str:
    anchor, gang = square_name(move.squares[0]), square_name(move.gang)
    if move.bridges_passed:
        return ngettext("its anchor {anchor} lies beyond the bridge field {bridges} next to the gang on {gang}",
                        "its anchor {anchor} lies beyond the bridge fields {bridges} next to the gang on {gang}",
                        move.bridges_passed).format(anchor=anchor, bridges=names(move.bridges), gang=gang)
    return _("its anchor {anchor} is next to the gang on {gang}").format(anchor=anchor, gang=gang)


def _lie_of_the_tile(move: Move) -> str:
    anchor = square_name(move.squares[0])
    if len(move.squares) == 1:
        return _("a single may lie either way; {anchor} is free and on the board").format(anchor=anchor)
    return _("it runs {direction} from {anchor} to {end}, its marked anchor side against the gang, onto free"
             " squares inside the board").format(direction=direction(DIRECTION_NAMES[move.direction]),
                                                 anchor=anchor, end=square_name(move.squares[-1]))


def _destroyed(d: turns.Decision) -> list[str]:
    return [_("the {building} at {square} (value {value}) is covered and scores nothing at the end").format(
        building=building_name(btype), square=square_name(sq), value=value) for sq, btype, value in d.destroyed]


def _finished(d: turns.Decision, pos: State) -> list[str]:
    corner = d.finished
    assert corner is not None  # X2 is applied when a track is finished
    return [_("the {track} is now finished: every player chooses their counting goal card ('choose'"
              " follows)").format(track=track_name(pos.track_kind[corner], corner))]


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


def _claim_text(claim: tuple[bool, int | None, int | None] | None) -> str | None:
    """The outcome the record claims, as the record writes it (DN: ``accepted 1:1``)."""
    if claim is None:
        return None
    accepted, yes, no = claim
    return ("accepted" if accepted else "rejected") + ("" if yes is None else f" {yes}:{no}")


def vote_count(vote: turns.VoteDecision | None, ruleset: Ruleset) -> VoteCount | None:
    if vote is None:
        return None
    t = vote.tally
    return VoteCount(lines=card_lines(t), arithmetic=arithmetic(t), yes=t.yes, no=t.no, accepted=vote.accepted,
                     option=str(vote.outcome_option), outcome_rule=_(OUTCOME_WORDS[vote.outcome_option]),
                     claim=_claim_text(vote.claim))


def spell(m: Move) -> str:
    """The move's DN text with a note on a bridge passed or a toilet covered."""
    notes = []
    if m.bridges_passed:
        notes.append(_("under a bridge"))
    if m.toilets:
        notes.append((_("covers the toilet at {squares}: put to a vote") if m.needs_vote
                      else _("covers the toilet at {squares}")).format(squares=names(m.toilets)))
    return str(m) + (f" ({'; '.join(notes)})" if notes else "")
