"""Random complete legal games, written as records.

:func:`simulate_game` plays a game with the engine -- every placement drawn from
:func:`placement.legal_moves` and played by :func:`turn.play_move`, the end found
by :func:`game.game_over` -- and returns it as a :class:`model.Record`
with hands, votes, reveal, score and ``Result``. All randomness comes from the
``rng`` passed in, and nothing depends on set or dict iteration order that could
vary between runs: the same seed gives the same record.
"""
from __future__ import annotations

import random

from drunter_notation.data.rulesets import DEFAULT_RULESET
from drunter_notation.deal import deal_goals, deal_hands
from drunter_notation.errors import fail
from drunter_notation.i18n import _
from drunter_notation.notation.model import (
    CARD_NAMES,
    Ballot,
    Card,
    Choose,
    Goals,
    Hand,
    HandTile,
    Outcome,
    Placement,
    Record,
    Reveal,
    RevealEntry,
    Score,
    ScoreEntry,
    Tag,
    Turn,
    Vote,
)
from drunter_notation.rules import game, turn, votes
from drunter_notation.rules.board import DEFAULT_BOARD, Board
from drunter_notation.rules.options import Ruleset
from drunter_notation.rules.placement import legal_moves
from drunter_notation.rules.scoring import rank_players
from drunter_notation.rules.state import State, Violation


def _ballots(state: State, placer: str, rng: random.Random) -> Vote:
    """B2: in voting order, each player lays one or two random cards still held
    (``?`` always is); a JEIN is declared yes or no at random."""
    ballots: list[Ballot] = []
    for voter in votes.voting_order(state, placer):
        held = [c for c in CARD_NAMES if state.cards[voter][c] > 0]
        laid = sorted(rng.sample(held, rng.randint(1, min(2, len(held)))), key=CARD_NAMES.index)
        ballots.append(Ballot(player=voter, cards=tuple(Card(c, rng.choice(("yes", "no")) if c == "JEIN" else None)
                                                        for c in laid)))
    return Vote(ballots=tuple(ballots))


def _play_turn(state: State, rng: random.Random) -> Turn:
    """One turn for the player to move: a uniformly random legal placement (put to a
    vote when rule B asks for one), or a pass when there is none (T2)."""
    mover, number = state.to_move, state.number + 1
    moves = legal_moves(state, mover)
    if not moves:
        turn.play_turn(state, number, mover, None)
        return Turn(number=number, player=mover, placement=None)
    move = rng.choice(moves)
    vote = _ballots(state, mover, rng) if move.needs_vote else None
    decision = turn.play_move(state, move, vote)
    assert not isinstance(decision, Violation)  # a legal move with ballots from the cards held
    held = decision.vote
    outcome = None if held is None else Outcome(accepted=held.accepted, yes=held.tally.yes, no=held.tally.no)
    squares = move.squares
    return Turn(number=number, player=mover,
                placement=Placement(tile=move.tile, anchor=squares[0], end=squares[-1] if len(squares) > 1 else None,
                                    corner=move.corner if move.needs_corner else None, vote=vote, outcome=outcome))


def simulate_game(board: Board, ruleset: Ruleset, players: tuple[str, ...], rng: random.Random,
                  variant: str = "base", *, board_tag: str | None = None) -> Record:
    """A complete random legal game as a record.

    Deals hands from the board's box and building cards (base) or goal cards
    (expert), then plays turns until :func:`placement.game_over`: a uniformly random
    legal placement, or a pass when the mover has none; ballots of one or two random
    cards each; in the expert variant ``choose`` right after the event that finished
    the first track, each player keeping one of their two cards at random. Ends with
    ``reveal``, ``score`` and the ``Result`` tag of :func:`scoring.rank_players`.

    ``board_tag`` is the ``Board`` tag value (default the board's id, no tag for the
    default board ``schilda``); no ``Rules`` tag for the default ruleset and no
    ``Variant`` tag for the base game. The record is a pure function of the
    arguments and the state of ``rng``. Raises ``DnError`` (exit code 2) for a
    player count other than 2 to 4, duplicate names, or a box that cannot be dealt.
    """
    players = tuple(players)
    if not 2 <= len(players) <= 4 or len(set(players)) != len(players):
        raise fail("H001", _("a game needs 2 to 4 distinct players, not {players}").format(players=", ".join(players))
                   if players else _("a game needs 2 to 4 distinct players, not none"))
    if variant not in ("base", "expert"):
        raise fail("H002", _("Variant must be \"base\" or \"expert\", not {variant}").format(variant=repr(variant)))
    hands = deal_hands(board, players, rng)
    goals = deal_goals(ruleset, players, variant, rng)
    expert = variant == "expert"
    state = turn.new_game(board, ruleset.options, players, hands, "expert" if expert else "base")
    events: list[Turn | Choose] = []
    while True:
        if state.due is not None:  # X2: the choice right after the event that finished the first track
            turn.play_choose(state)
            events.append(Choose())
        if game.game_over(state):
            break
        events.append(_play_turn(state, rng))
    # X2: each player keeps one of their two cards; base games reveal their one card
    kept = {p: tuple(rng.sample(goals[p], 2)) if expert else goals[p] for p in players}
    ranking = rank_players(board, state.covered, players, {p: kept[p][0] for p in players}, state.cards,
                           {p: kept[p][1] for p in players} if expert else None)
    scores = {s.player: s.score for s in ranking.standings}
    tags = [Tag("Event", "simulated"), Tag("Players", ", ".join(players))]
    board_value = board.id if board_tag is None else board_tag
    if board_value != DEFAULT_BOARD:
        tags.append(Tag("Board", board_value))
    if ruleset.id != DEFAULT_RULESET:
        tags.append(Tag("Rules", ruleset.id))
    if expert:
        tags.append(Tag("Variant", "expert"))
    tags.append(Tag("Result", ", ".join(ranking.winners)))
    setup: list[Hand | Goals] = [
        Hand(p, tuple(HandTile(t, n) for t, n in sorted(hands[p].items(), key=lambda item: item[0].order())))
        for p in players]
    if expert:
        setup.extend(Goals(player=p, goals=(goals[p][0], goals[p][1])) for p in players)
    return Record(
        tags=tuple(tags),
        setup=tuple(setup),
        events=tuple(events),
        reveal=Reveal(tuple(RevealEntry(player=p, chosen=kept[p][0], other=kept[p][1] if expert else None)
                            for p in players)),
        score=Score(tuple(ScoreEntry(p, scores[p]) for p in players)),
    )

