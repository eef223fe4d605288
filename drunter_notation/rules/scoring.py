"""Rules E and X: scoring at the end of the game, goal cards, winners and tie-breaks."""
from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from drunter_notation.notation.model import BUILDING_ALIASES, BUILDINGS, Square
from drunter_notation.rules.board import Board
from drunter_notation.rules.votes import CARD_VALUES


def uncovered_buildings(board: Board, covered: Container[Square]) -> list[tuple[Square, str, int]]:
    """(square, type, value) of every building no tile covers, in board order.
    ``covered`` is any container of squares (``State.covered`` works)."""
    return [b for b in _buildings(board) if b[0] not in covered]


_BUILDINGS = "buildings"  # Board.memo's key of _buildings


def _buildings(board: Board) -> list[tuple[Square, str, int]]:
    """(square, type, value) of every building in board order, made once per board (kept in ``Board.memo``):
    every game scored reads them."""
    made: list[tuple[Square, str, int]] | None = board.memo.get(_BUILDINGS)
    if made is None:
        made = board.memo[_BUILDINGS] = [(sq, kind, value) for sq, (kind, value) in board.buildings.items()]
    return made


def goal_score(board: Board, covered: Container[Square], goal: str) -> int:
    """E2/X4: the points ``goal`` earns. A building type (German aliases accepted):
    the sum of its uncovered buildings' values. ``all-threes``/``all-fours``: 3 per
    uncovered building of value 3 / 4 per one of value 4. ``lowest-of-each``: per
    type its lowest-valued uncovered building (a type with none left adds 0).
    ``one-each``: 1 per uncovered building. Toilets are not buildings and score
    nothing. Raises ValueError for an unknown goal (the replay reports E001 first)."""
    return _score(uncovered_buildings(board, covered), goal)


def _score(standing: list[tuple[Square, str, int]], goal: str) -> int:
    """:func:`goal_score` over the ``standing`` (uncovered) buildings."""
    goal = BUILDING_ALIASES.get(goal, goal)
    total = 0  # loops, not sum() of a generator: every player of every game scored asks (a generator's step costs 3x)
    if goal in BUILDINGS:
        for _, kind, value in standing:
            if kind == goal:
                total += value
        return total
    if goal == "all-threes" or goal == "all-fours":
        counted = 3 if goal == "all-threes" else 4
        for _, _, value in standing:
            if value == counted:
                total += value
        return total
    if goal == "lowest-of-each":
        lowest: dict[str, int] = {}
        for _, kind, value in standing:
            lowest[kind] = min(value, lowest.get(kind, value))
        return sum(lowest.values())
    if goal == "one-each":
        return len(standing)
    raise ValueError(f"unknown goal card {goal!r}")


def votes_left(cards: Mapping[str, int]) -> int:
    """E3: the votes in the cards still held, yes and no together (JEIN 2, ``?`` 0)."""
    left = 0
    for name, n in cards.items():  # a loop, as in _score
        left += CARD_VALUES[name][1] * n
    return left


@dataclass(frozen=True)
class Standing:
    """One player's result. ``second``: the other goal card's score (expert game),
    else None. ``rank``: 1 for the winner(s); tied players share a rank and the next
    rank skips (1, 1, 3)."""

    player: str
    score: int
    second: int | None
    votes_left: int
    rank: int


class Ranking(NamedTuple):
    """Standings best first (seat order among equals) and the winners; ``expert``
    tells which tie-break applied (X3: second card, then votes; E3: votes)."""

    standings: tuple[Standing, ...]
    winners: tuple[str, ...]
    expert: bool


def rank_players(board: Board, covered: Container[Square], players: Iterable[str], chosen: Mapping[str, str],
                 cards: Mapping[str, Mapping[str, int]], other: Mapping[str, str] | None = None) -> Ranking:
    """E2/E3 (X3 with ``other``): score each player's ``chosen`` card; the highest
    score wins. Ties: with ``other`` (the expert game: each player's second card) by
    the second card's score, then by votes left; without, by votes left; still tied
    -> shared. Precondition: ``chosen`` (and ``other``) name a valid goal for every
    player in ``players``."""
    standing = uncovered_buildings(board, covered)  # the same for every player's cards
    # (player, score, second, votes left) rows, each made a Standing once its rank is known
    rows: list[_Row] = [(p, _score(standing, chosen[p]), None if other is None else _score(standing, other[p]),
             votes_left(cards[p])) for p in players]
    key = _key_of(expert=other is not None)
    rows.sort(key=key, reverse=True)  # stable: seat order among equals
    standings: list[Standing] = []
    for i, row in enumerate(rows):
        tied = i > 0 and key(rows[i - 1]) == key(row)
        player, score, second, votes = row
        # positional: the frozen dataclass binds keywords for more (one per player of every game scored)
        standings.append(Standing(player, score, second, votes, standings[-1].rank if tied else i + 1))
    winners = tuple(s.player for s in standings if s.rank == 1)
    return Ranking(tuple(standings), winners, other is not None)


_Row = tuple[str, int, int | None, int]  # (player, score, second, votes left)


def _key_of(*, expert: bool) -> Callable[[_Row], Any]:  # Any: a tuple of ints (the second score is set when expert)
    # The tie-break order of (player, score, second, votes left) rows: X3 (second card, then votes) or E3 (votes).
    if expert:
        return lambda row: (row[1], row[2], row[3])
    return lambda row: (row[1], row[3])
