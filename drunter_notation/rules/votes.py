"""Rule B: voting on a placement that covers a toilet.

Card values (B3, B4), the tally, the outcome under a ruleset (B5), the ballot
checks (B2, B4, B7) and spending the cards played (B7).
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from drunter_notation.notation.model import Ballot, Card, Vote
from drunter_notation.rules.options import BallotOrder, Options, VoteOutcome
from drunter_notation.rules.state import State, Violation, take

# B3/B4: card -> (side, votes). "declared": the JEIN joker counts 2 for the side its
# player declares after all cards are shown; "abstain": the ? card counts nothing.
CARD_VALUES: dict[str, tuple[str, int]] = {
    "JA": ("yes", 1), "JAA": ("yes", 2), "JAAA": ("yes", 3),
    "NE": ("no", 1), "NEE": ("no", 2), "NEEE": ("no", 3),
    "JEIN": ("declared", 2), "?": ("abstain", 0),
}


class Counted(NamedTuple):
    """One card as counted: ``side`` is "yes", "no", "abstain" or None (a bare JEIN)."""

    player: str
    card: str
    side: str | None
    value: int


class Tally(NamedTuple):
    """The count of one vote, card by card in ballot order. (A tuple, not a dataclass:
    one is made per vote.)"""

    yes: int
    no: int
    cards: tuple[Counted, ...]


def tally(vote: Vote) -> Tally:
    """Count ``vote``: yes/no cards by value, a declared JEIN 2 for its side, ``?`` 0.
    A bare JEIN counts 0 here (the replay reports it as B004 first)."""
    yes = no = 0
    cards: list[Counted] = []
    for ballot in vote.ballots:
        ballot_yes, ballot_no, counted = _count(ballot.player, ballot.cards)
        yes += ballot_yes
        no += ballot_no
        cards += counted
    return tuple.__new__(Tally, (yes, no, tuple(cards)))  # its fields in order: the named tuple's __new__ is Python


@lru_cache(maxsize=1024)  # a game's players lay the same few ballots again and again: each is counted once
def _count(player: str, cards: tuple[Card, ...]) -> tuple[int, int, tuple[Counted, ...]]:
    """``player``'s ballot of ``cards`` as counted: its yes and no votes, and each card's side and votes (0
    unless yes or no)."""
    yes = no = 0
    counted = []
    for card in cards:
        printed, value = CARD_VALUES[card.name]
        side = card.declared if printed == "declared" else printed  # None for a bare JEIN (B004)
        if side == "yes":
            yes += value
        elif side == "no":
            no += value
        else:
            value = 0
        counted.append(Counted(player, str(card), side, value))
    return yes, no, tuple(counted)


# the options' members read once: a class's attribute is looked up anew at each read (one per vote)
_YES_AT_LEAST_NO, _PLACER_FIRST_CLOCKWISE = VoteOutcome.YES_AT_LEAST_NO, BallotOrder.PLACER_FIRST_CLOCKWISE


def vote_outcome(t: Tally, options: Options) -> bool:
    """B5: True when the placement stands, by ``options.vote_outcome``."""
    if options.vote_outcome is _YES_AT_LEAST_NO:
        return t.yes >= t.no
    return t.yes > t.no or t.yes == t.no == 0


def voting_order(state: State, placer: str) -> tuple[str, ...]:
    """B2: the placer, then the others clockwise (seat order)."""
    i = state.players.index(placer)
    return state.players[i:] + state.players[:i]


_BARE_JEIN = Card("JEIN")  # a JEIN not declared yes or no


def check_ballots(state: State, placer: str, vote: Vote) -> Violation | None:
    """The first problem with the ballots, in this order: B002 a ballot from a
    non-player, a player voting twice or not at all, an empty ballot, or (under
    ``placer-first-clockwise``) ballots out of voting order; B004 a JEIN not
    declared; B003 a card the player no longer holds (spent in an earlier vote) or
    lays more often than held (twice in one ballot; a set holds one of each card,
    S2). None when the ballots are in order."""
    players = state.players
    voters: list[str] = []  # a list, not a set: four at most, and the voting order compares it as it is
    for ballot in vote.ballots:
        voter = ballot.player
        if voter not in players:
            return Violation("B002", "B2", "voter-not-a-player", {"player": voter})
        if voter in voters:
            return Violation("B002", "B2", "votes-twice", {"player": voter})
        if not ballot.cards:
            return Violation("B002", "B2", "empty-ballot", {"player": voter})
        voters.append(voter)
    if len(voters) < len(players):  # voters holds players only, each once
        return Violation("B002", "B2", "missing-voter", {"missing": tuple([p for p in players if p not in voters])})
    if state.options.ballot_order is _PLACER_FIRST_CLOCKWISE:
        expected = voting_order(state, placer)
        actual = tuple(voters)
        if actual != expected:
            return Violation("B002", "B2", "order", {"actual": actual, "expected": expected})
    for ballot in vote.ballots:
        if _BARE_JEIN in ballot.cards:
            return Violation("B004", "B4", "bare-jein", {"player": ballot.player})
    for ballot in vote.ballots:
        problem = check_cards(state, ballot)
        if problem is not None:
            return problem
    return None


def check_cards(state: State, ballot: Ballot) -> Violation | None:
    """B003 for one ballot of a player of the game, alone: a card the player no longer
    holds (spent in an earlier vote) or lays more often than held. None when held."""
    held, cards = state.cards[ballot.player], ballot.cards
    names = _names(cards) if len(cards) > 1 else None  # one card alone is never laid more often than held
    for card in cards:  # each card in the order first laid (a card laid again is judged again, alike)
        name = card.name
        has = held.get(name, 0)
        if has == 0:
            return Violation("B003", "B7", "spent", {"player": ballot.player, "card": name,
                                                     "turn": state.spent_on.get((ballot.player, name))})
        if names is not None:
            n = names.count(name)
            if n > has:
                return Violation("B003", "B7", "laid-twice", {"player": ballot.player, "card": name, "times": n})
    return None


@lru_cache(maxsize=1024)  # as _count: a game's players lay the same few ballots again and again
def _names(cards: tuple[Card, ...]) -> tuple[str, ...]:
    """The names of the ``cards`` of a ballot, in order."""
    return tuple([c.name for c in cards])


def spend_cards(state: State, vote: Vote, turn: int) -> None:
    """B7: every card played except ``?`` leaves its owner's hand for good; the turn is
    kept in ``state.spent_on`` for later B003 findings. Precondition: the ballots
    passed :func:`check_ballots`."""
    spent_on = state.spent_on
    for ballot in vote.ballots:
        player = ballot.player
        held = state.cards[player]
        for card in ballot.cards:
            name = card.name
            if name != "?":
                take(held, name)
                spent_on[player, name] = turn
