"""A turn, judged and played: the one place where the checks of a turn run, in
their fixed order, and where a legal turn changes the position.

:func:`play_turn` is what the replay, the ``Game`` API, the simulator and the
adjudicator call. It returns a :class:`Decision` -- the rules it applied and the
facts each one bore on -- or the first :class:`Violation`, and changes the
position only for a legal turn. Check order: X002 choice missing, T001 turn
number, T002 player, T005 game already over, T004 pass allowed, T003 tile in hand,
the placement (A002, A003, A006, A001, A005, A004, A006), then the vote: B001
present iff needed, B002 ballots, B004 jokers, B003 cards, B005 the claim.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import repeat
from operator import itemgetter
from typing import Any, NamedTuple

from drunter_notation.notation.model import Outcome, Placement, Square, Tile, Vote
from drunter_notation.rules import game, votes
from drunter_notation.rules.board import Board
from drunter_notation.rules.options import BallotOrder, Options, VoteOutcome
from drunter_notation.rules.placement import ALL_TILES, Move, apply_move, check_placement, legal_moves
from drunter_notation.rules.state import State, Variant, Violation, new_state

LAST_TURN = 9_999  # far beyond any real game (the box holds a few hundred tiles); every position after it is writable


class VoteDecision(NamedTuple):
    """A vote held on a placement: the tally card by card, the ruleset's options that
    decided it (B2, B5), the outcome, and the rule that called the vote (B1, or X5 in
    the expert variant). (Tuples, not dataclasses: one is made per turn of a playout.)"""

    tally: votes.Tally
    accepted: bool
    outcome_option: VoteOutcome
    ballot_order: BallotOrder
    called_by: str
    claim: tuple[bool, int | None, int | None] | None  # (accepted, yes, no) as the record claims


class Decision(NamedTuple):
    """One legal turn as the engine judged and played it.

    ``rules`` lists the rule IDs applied, in order; every other field is a fact one
    of them bore on. For a placement: ``move`` (gang, anchor, direction, bridges
    passed, toilets covered), ``near_corners`` (A7), ``vote`` (B1-B7) or
    ``unvoted_toilets`` (X5), and once laid ``destroyed`` buildings (E2/X3),
    ``removed`` gangs (corner, square where it stood; A5), ``stuck`` gangs (A5 with
    the edge not closing a side) and ``finished`` (X2: the first finished track).
    For a pass: ``forced`` (None: hands not recorded), ``hand_empty``,
    ``could_lay`` (a placement that exists when hands are not recorded)."""

    number: int
    player: str
    move: Move | None
    hands_known: bool
    rules: tuple[str, ...]
    vote: VoteDecision | None = None
    unvoted_toilets: bool = False
    near_corners: tuple[Square, ...] = ()
    destroyed: tuple[tuple[Square, str, int], ...] = ()
    removed: tuple[tuple[Square, Square], ...] = ()
    stuck: tuple[tuple[Square, Square], ...] = ()
    finished: Square | None = None
    forced: bool | None = None
    hand_empty: bool = False
    could_lay: Move | None = None
    expert: bool = False

    @property
    def accepted(self) -> bool | None:
        """The vote's outcome; None when no vote was held."""
        return None if self.vote is None else self.vote.accepted

    @property
    def stays(self) -> bool:
        """A placement that is on the board after the turn (not a pass, not rejected)."""
        return self.move is not None and self.accepted is not False


def new_game(board: Board, options: Options, players: Iterable[str],
             hands: Mapping[str, Mapping[Tile, int]] | None = None, variant: Variant = "base") -> State:
    """The opening position (:func:`state.new_state`); in an expert game the choice
    (X2) is due at once when a track is finished from the start."""
    st = new_state(board, options, players, hands, variant)
    if variant == "expert":
        corner = game.first_finished(st)
        if corner is not None:
            st.due = (corner, 0)
    return st


def counting_moves(state: State, player: str) -> list[Move]:
    """The legal placements that count for Legezwang (T2): all of them, less those
    onto toilets when :func:`game.toilets_count_for_legezwang` says they do not."""
    moves = legal_moves(state, player if state.hands is not None else None)
    if game.toilets_count_for_legezwang(state):
        return moves
    return [m for m in moves if not m.toilets]


def check_choose(state: State) -> Violation | None:
    """X2: ``choose`` belongs to an expert game, once, after the first track is finished."""
    if state.variant != "expert":
        return Violation("X002", "X2", "choose-in-base", {})
    if state.chosen:
        return Violation("X002", "X2", "choose-twice", {})
    if state.due is None and state.hands is not None:
        return Violation("X002", "X2", "choose-early", {})
    return None


def play_choose(state: State) -> Violation | None:
    """Make the expert choice (X2), or return why it cannot be made here."""
    problem = check_choose(state)
    if problem is None:
        state.chosen, state.due = True, None
    return problem


def choose_missing(state: State, *, ended: bool = False) -> Violation | None:
    """X002 when the choice is due but was not made (before a turn, or at the reveal).
    ``ended``: the record says the game is over (the reveal), so a track was finished
    at the latest when nobody could place any more: the choice was due even where the
    record, without hands, does not show which track or when (with hands, ``due``
    shows it, or the game was not over: E002)."""
    if ended and state.variant == "expert" and not state.chosen and state.due is None and state.hands is None:
        return Violation("X002", "X2", "choose-never", {})
    if state.due is None or state.chosen:
        return None
    corner, turn = state.due
    return Violation("X002", "X2", "choose-missing", {"kind": state.track_kind[corner], "corner": corner,
                                                      "turn": turn})


def _over(state: State, number: int) -> Violation:
    return Violation("T005", "E1", "game-over", {"number": number, "hands_known": state.hands is not None})


def _past_last(number: int) -> Violation:
    return Violation("T001", "", "past-last", {"number": number, "most": LAST_TURN})


def judge_turn(state: State, number: int, player: str, placement: Placement | None
               ) -> tuple[Move | None, VoteDecision | Violation | None] | Violation:
    """Judge turn ``number`` by ``player`` (``placement`` None: a pass) at ``state``
    without changing it: the judged move and the vote's decision (or its violation:
    the placement itself was legal), or the first violation of the turn."""
    missing = None if state.due is None else choose_missing(state)  # mostly no choice due: no call
    if missing is not None:
        return missing
    expected = state.number + 1
    if number != expected:
        return Violation("T001", "T1", "number", {"number": number, "expected": expected})
    if number > LAST_TURN:
        return _past_last(number)
    mover = state.players[state.seat]  # State.to_move without its property's call: every turn judged asks
    if player != mover:
        return Violation("T002", "T1", "not-a-player" if player not in state.players else "not-your-turn",
                         {"player": player, "mover": mover, "number": number})
    if placement is None:
        if game.game_over(state):
            return _over(state, number)
        if state.hands is not None and game.must_place(state, mover):
            moves = counting_moves(state, mover)
            return Violation("T004", "T2", "must-place", {"player": mover, "move": moves[0],
                                                          "others": len(moves) - 1})
        return None, None
    tile = placement.tile
    if state.hands is not None and state.hands[mover][tile] <= 0:
        problem: Move | Violation = Violation("T003", "T1", "not-in-hand", {"player": mover, "tile": tile})
    else:
        problem = check_placement(state, tile, placement.anchor, placement.end, placement.corner)
    if type(problem) is Violation:
        return _over(state, number) if game.game_over(state) else problem
    return problem, judge_vote(state, mover, problem, placement.vote, placement.outcome)


def judge_vote(state: State, mover: str, move: Move, vote: Vote | None, outcome: Outcome | None = None
               ) -> VoteDecision | Violation | None:
    """B1-B5 for a legal placement ``move``: a vote is held iff it is needed, the
    ballots are in order, the claimed outcome (if any) matches the count. Returns the
    vote's decision, None when no vote is held, or the first violation."""
    if vote is None:
        if move.needs_vote:
            return _vote_mismatch(state, move, "vote-missing")
        if outcome is not None:
            return _vote_mismatch(state, move, "claim-without-vote")
        return None
    if not move.needs_vote:
        return _vote_mismatch(state, move, "no-vote-in-expert" if move.toilets else "no-toilet")
    problem = votes.check_ballots(state, mover, vote)
    if problem is not None:
        return problem
    tally = votes.tally(vote)
    accepted = votes.vote_outcome(tally, state.options)
    claim = None if outcome is None else (outcome.accepted, outcome.yes, outcome.no)
    if outcome is not None and (outcome.accepted != accepted
                                or (outcome.yes is not None and (outcome.yes, outcome.no) != (tally.yes, tally.no))):
        return Violation("B005", "B5", "claim", {"claim": claim, "yes": tally.yes, "no": tally.no,
                                                 "accepted": accepted, "tally": tally})
    # every field in order, through tuple.__new__ (as a Decision: see _lay): one per vote of every replayed turn
    return tuple.__new__(VoteDecision, (tally, accepted, state.options.vote_outcome, state.options.ballot_order,
                                        _called_by(state), claim))


def _called_by(state: State) -> str:
    """The rule that puts a placement to a vote: B1, or X5 in the expert variant."""
    return "X5" if state.variant == "expert" else "B1"


def _vote_mismatch(state: State, move: Move, why: str) -> Violation:
    """B001: a vote held or missing against what the placement needs (B1, X5)."""
    return Violation("B001", _called_by(state), why, {"tile": move.tile, "squares": move.squares,
                                                      "toilets": move.toilets})


def play_turn(state: State, number: int, player: str, placement: Placement | None) -> Decision | Violation:
    """Judge turn ``number`` and, when it is legal, play it: spend the cards voted
    (B7), lay the tile unless the vote rejects it (B6), remove trapped gangs (A5),
    note the first finished track (X2), pass the turn on (T1). A violation leaves
    ``state`` as it was."""
    judged = judge_turn(state, number, player, placement)
    # type(), not isinstance(): an isinstance that is false also looks up __class__, and every legal turn asks
    if type(judged) is Violation:
        return judged
    move, vote = judged
    if type(vote) is Violation:
        return vote
    return _play(state, number, player, move, vote, None if placement is None else placement.vote)


def play_move(state: State, move: Move, vote: Vote | None = None) -> Decision | Violation:
    """Play ``move``, a placement :func:`placement.legal_moves` gave for the player to
    move at this very position (so only the vote is judged), with the ballots
    ``vote``; or the violation, leaving ``state`` unchanged."""
    missing = None if state.due is None else choose_missing(state)
    if missing is not None:
        return missing
    if state.number >= LAST_TURN:
        return _past_last(state.number + 1)
    judged = judge_vote(state, state.to_move, move, vote)
    if type(judged) is Violation:  # as in play_turn
        return judged
    return _play(state, state.number + 1, state.to_move, move, judged, vote)


def _play(state: State, number: int, player: str, move: Move | None, vote: VoteDecision | None,
          ballots: Vote | None) -> Decision:
    hands_known = state.hands is not None
    expert = state.variant == "expert"
    if move is None:
        decision = _pass_decision(state, number, player)
    else:
        decision = _lay(state, number, player, move, vote, ballots, hands_known, expert)
    state.number = number
    state.seat = (state.seat + 1) % len(state.players)
    if expert and not state.chosen and state.due is None:
        corner = game.first_finished(state)
        if corner is not None:
            state.due = (corner, number)
            if decision.move is not None:
                decision = _with(decision, finished=corner, rule="X2")
    return decision


def unplay(state: State, decision: Decision, ballots: Vote | None, due: tuple[Square, int] | None,
           chosen: bool) -> None:
    """Take back the turn ``decision`` that :func:`play_turn` or :func:`play_move` just
    played with ``ballots``; ``due`` and ``chosen`` are the expert choice state before
    it. The exact inverse, so an undo costs what the turn cost, not a copy."""
    state.number = decision.number - 1
    state.seat = (state.seat - 1) % len(state.players)
    state.due, state.chosen = due, chosen
    state.example = state.over = None
    move = decision.move
    if move is not None and decision.stays:
        for corner, square in decision.removed:
            state.gangs[corner] = square
            del state.removed_on[corner]
        state.tiles.pop()
        for sq in move.squares:
            del state.covered[sq]
        if len(move.squares) == 3:
            state.bridges.discard(move.squares[1])
        if state.squares is not None:
            state.squares.mark(move.squares, 0)
        state.gangs[move.corner] = move.gang
        if state.hands is not None:
            hand = state.hands[decision.player]
            hand[move.tile] = hand.get(move.tile, 0) + 1
    if ballots is not None and decision.vote is not None:
        for ballot in ballots.ballots:
            held = state.cards[ballot.player]
            for card in ballot.cards:
                if card.name != "?":  # a card is spent once, so it had no earlier turn of spending
                    held[card.name] = held.get(card.name, 0) + 1
                    del state.spent_on[(ballot.player, card.name)]


def _with(decision: Decision, rule: str, **facts: Any) -> Decision:
    return decision._replace(rules=(*decision.rules, rule), **facts)


def _pass_decision(state: State, number: int, player: str) -> Decision:
    hands = state.hands
    if hands is None:
        example = state.example
        if example is None:  # a run of passes asks once: a pass changes no square
            some = legal_moves(state, None)
            example = state.example = (some[0] if some else None,)
        return Decision(number=number, player=player, move=None, hands_known=False, rules=("T2",),
                        could_lay=example[0])
    return Decision(number=number, player=player, move=None, hands_known=True, rules=("T2",), forced=True,
                    hand_empty=not any(hands[player].values()))


_RULES: dict[tuple[str, ...], tuple[str, ...]] = {}  # each combination of rules applied, shared by its decisions
_PLACED = ("T1", "A1", "A2", "A3")
_UNDER_A_BRIDGE = ("T1", "A1", "A2", "A6", "A3")


def placement_rules(state: State, move: Move) -> tuple[tuple[str, ...], tuple[Square, ...]]:
    """The rules a legal placement applies before any vote -- T1, A1, A2, A6 when it
    passes under a bridge, A3, A7 when a corner lies next to it -- and those corners."""
    rules = _UNDER_A_BRIDGE if move.bridges_passed else _PLACED
    next_to = state.board.corners_next_to
    for sq in move.squares:  # a loop, not keys().isdisjoint: compiled, a dict lookup each and no view made
        if sq in next_to:
            break
    else:  # mostly: most squares have no corner next to them
        return rules, ()
    # the corners near a placement's squares but its own track's, worked out once per board (kept in Board.memo)
    key = (_NEAR, move.squares, move.gang)
    memo = state.board.memo
    near: tuple[Square, ...] | None = memo.get(key)
    if near is None:
        near = memo[key] = tuple(sorted({c for sq in move.squares for c in next_to.get(sq, ()) if c != move.gang},
                                        key=lambda c: (c[1], c[0])))
    return ((*rules, "A7") if near else rules), near


_NEAR = "near"  # Board.memo's key of placement_rules' corners


_CARD = itemgetter(votes.Counted._fields.index("card"))  # a counted card's text, read in C


def vote_rules(vote: VoteDecision) -> tuple[str, ...]:
    """The rules a vote held applies, in order: what called it (B1, X5), B2, B3, B4 when
    a joker was played, B5, B6 when the tile is rejected, B7."""
    rules: tuple[str, ...] = (vote.called_by, "B2", "B3")
    if any(map(str.startswith, map(_CARD, vote.tally.cards), repeat("JEIN"))):  # in C: every vote replayed asks
        rules += ("B4",)
    return rules + (("B5", "B7") if vote.accepted else ("B5", "B6", "B7"))


def _lay(state: State, number: int, player: str, move: Move, vote: VoteDecision | None, ballots: Vote | None,
         hands_known: bool, expert: bool) -> Decision:
    rules, near = placement_rules(state, move)
    unvoted = vote is None and bool(move.toilets)
    if vote is not None:
        rules += vote_rules(vote)
        assert ballots is not None  # a vote decided comes with its ballots
        votes.spend_cards(state, ballots, number)
        if not vote.accepted:
            return Decision(number, player, move, hands_known, rules, vote, unvoted, near, expert=expert)
    elif unvoted:
        rules += ("X5",)
    buildings = state.board.buildings
    destroyed: tuple[tuple[Square, str, int], ...] = ()
    for sq in move.squares:  # mostly none or one: a loop, as in placement_rules
        if sq in buildings:
            destroyed += ((sq, *buildings[sq]),)
    stuck_before = _stuck(state) if not state.options.trap_counts_edge else None
    removed = tuple(apply_move(state, move, number, player))
    rules += ("A4", "A5") if removed else ("A4",)
    stuck: tuple[tuple[Square, Square], ...] = ()
    if stuck_before is not None:  # the stuck gangs are live: the walrus only tells the checker
        stuck = tuple((c, gang) for c in sorted(_stuck(state) - stuck_before, key=lambda c: (c[1], c[0]))
                      if (gang := state.gangs[c]) is not None)
        if stuck and not removed:
            rules += ("A5",)
    if destroyed:
        rules += ("X3",) if expert else ("E2",)
    rules = _RULES.setdefault(rules, rules)  # one tuple per combination: fewer objects for the GC to walk
    # every field in order, through tuple.__new__: one per placement of every turn played, and the named
    # tuple's own __new__ is a Python function binding 16 arguments (four times the cost)
    return tuple.__new__(Decision, (number, player, move, hands_known, rules, vote, unvoted, near, destroyed, removed,
                                    stuck, None, None, False, None, expert))


def _stuck(state: State) -> set[Square]:
    """Corners of live gangs with no way on for any tile (kept on the board only when
    the edge does not close a side)."""
    open_ = {m.corner for m in legal_moves(state, None, tiles=ALL_TILES)}
    return {c for c, g in state.gangs.items() if g is not None and c not in open_}
