"""Rule B: voting on a placement that covers a toilet (DN-SPEC §1).

Card values (B3, B4), the tally, the outcome under a ruleset (B5), the ballot
checks (B2, B4, B7) and spending the cards played (B7).
"""
from __future__ import annotations

from dataclasses import dataclass

from drunter_notation.notation.model import Vote
from drunter_notation.rules.placement import Move
from drunter_notation.rules.options import Options
from drunter_notation.rules.state import State, Violation, take

# B3/B4: card -> (side, votes). "declared": the JEIN joker counts 2 for the side its
# player declares after all cards are shown; "abstain": the ? card counts nothing.
CARD_VALUES: dict[str, tuple[str, int]] = {
    "JA": ("yes", 1), "JAA": ("yes", 2), "JAAA": ("yes", 3),
    "NE": ("no", 1), "NEE": ("no", 2), "NEEE": ("no", 3),
    "JEIN": ("declared", 2), "?": ("abstain", 0),
}


@dataclass(frozen=True)
class Tally:
    """The count of one vote: ``lines`` one per card played (``"Dora: JAA = 2 yes"``),
    ``arithmetic`` the sums (``"yes 2+3 = 5, no 2+3+2 = 7"``)."""

    yes: int
    no: int
    lines: tuple[str, ...]
    arithmetic: str


def tally(vote: Vote) -> Tally:
    """Count ``vote``: yes/no cards by value, a declared JEIN 2 for its side, ``?`` 0.
    A bare JEIN counts 0 here (the replay reports it as B004 first)."""
    yes_terms: list[int] = []
    no_terms: list[int] = []
    lines = []
    for ballot in vote.ballots:
        for card in ballot.cards:
            side, value = CARD_VALUES[card.name]
            if side == "declared":
                side = card.declared  # None for a bare JEIN (B004)
            if side == "yes":
                yes_terms.append(value)
                said = f"{value} yes"
            elif side == "no":
                no_terms.append(value)
                said = f"{value} no"
            else:
                said = "0" if side == "abstain" else "0 (not declared)"
            lines.append(f"{ballot.player}: {card} = {said}")
    return Tally(sum(yes_terms), sum(no_terms), tuple(lines),
                 f"yes {_sum(yes_terms)}, no {_sum(no_terms)}")


def _sum(terms: list[int]) -> str:
    """``[2, 3]`` -> ``"2+3 = 5"``; one term or none is written bare."""
    if len(terms) < 2:
        return str(sum(terms))
    return "+".join(map(str, terms)) + f" = {sum(terms)}"


def vote_outcome(t: Tally, options: Options) -> bool:
    """B5: True when the placement stands. ``"yes-at-least-no"``: yes >= no (ties
    stand, HiG 1991); ``"yes-over-no-unless-all-abstain"``: yes > no, or no votes at
    all (Webley). Raises ValueError for any other ``options.vote_outcome`` (the
    ruleset loader admits only these)."""
    if options.vote_outcome == "yes-at-least-no":
        return t.yes >= t.no
    if options.vote_outcome == "yes-over-no-unless-all-abstain":
        return t.yes > t.no or t.yes == t.no == 0
    raise ValueError(f"unknown vote_outcome {options.vote_outcome!r}")


def needs_vote(state: State, move: Move) -> bool:
    """B1/X5: the placement covers a toilet and this game votes on toilets."""
    return bool(move.toilets) and state.toilet_votes


def voting_order(state: State, placer: str) -> tuple[str, ...]:
    """B2 under ``"placer-first-clockwise"``: the placer, then the others in seat order."""
    i = state.players.index(placer)
    return state.players[i:] + state.players[:i]


def check_ballots(state: State, placer: str, vote: Vote) -> Violation | None:
    """The first problem with the ballots, in this order: B002 a ballot from a
    non-player, a player voting twice or not at all, an empty ballot, or (under
    ``"placer-first-clockwise"``) ballots out of voting order; B004 a JEIN not
    declared; B003 a card the player no longer holds (spent in an earlier vote:
    ``other_turn`` is that vote's turn) or lays more often than held (twice in one
    ballot; a set holds one of each card, S2). None when the ballots are in order. Raises ValueError for an unknown
    ``options.ballot_order``."""
    players = state.players
    seen: set[str] = set()
    for ballot in vote.ballots:
        if ballot.player not in players:
            return Violation("B002", "B2", f"{ballot.player} votes but is not a player")
        if ballot.player in seen:
            return Violation("B002", "B2", f"{ballot.player} votes twice; every player votes once")
        if not ballot.cards:
            return Violation("B002", "B2", f"{ballot.player}'s ballot is empty; every player lays at least one card")
        seen.add(ballot.player)
    missing = [p for p in players if p not in seen]
    if missing:
        who = missing[0] if len(missing) == 1 else ", ".join(missing[:-1]) + " and " + missing[-1]
        return Violation("B002", "B2", f"{who} {'does' if len(missing) == 1 else 'do'} not vote; "
                         "every player votes once")
    order = state.options.ballot_order
    if order == "placer-first-clockwise":
        expected = voting_order(state, placer)
        actual = tuple(b.player for b in vote.ballots)
        if actual != expected:
            return Violation("B002", "B2", f"the ballots are in the order {', '.join(actual)}; the voting "
                             f"order is {', '.join(expected)} (the placer first, then clockwise)")
    elif order != "any":
        raise ValueError(f"unknown ballot_order {order!r}")
    for ballot in vote.ballots:
        for card in ballot.cards:
            if card.name == "JEIN" and card.declared is None:
                return Violation("B004", "B4", f"{ballot.player}'s JEIN is not declared; "
                                 "write JEIN=yes or JEIN=no")
    for ballot in vote.ballots:
        held = state.cards[ballot.player]
        laid: dict[str, int] = {}  # card -> times laid; a plain dict, as Counter(...) costs µs per ballot
        for card in ballot.cards:
            laid[card.name] = laid.get(card.name, 0) + 1
        for name, n in laid.items():
            if held[name] == 0:
                spent = state.spent_on.get((ballot.player, name))
                when = f" in the vote on turn {spent}" if spent is not None else ""
                return Violation("B003", "B7", f"{ballot.player} no longer holds {name}: it was spent{when}",
                                 other_turn=spent)
            if n > held[name]:
                times = "twice" if n == 2 else f"{n} times"
                return Violation("B003", "B7", f"{ballot.player} lays {name} {times} in one ballot; "
                                 f"each player has only one {name}")
    return None


def spend_cards(state: State, vote: Vote, turn: int) -> None:
    """B7: every card played except ``?`` leaves its owner's hand for good; the turn is
    kept in ``state.spent_on`` for later B003 messages. Precondition: the ballots
    passed :func:`check_ballots`."""
    for ballot in vote.ballots:
        held = state.cards[ballot.player]
        for card in ballot.cards:
            if card.name != "?":
                take(held, card.name)
                state.spent_on[(ballot.player, card.name)] = turn
