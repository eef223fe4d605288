"""Where a track can go on: the one bridge walk (A6) and the one free run (A3, A7).

A gang on square G extends its track in one of the four directions d. The anchor
of the new tile is G+d or, under A6, the square beyond a run of bridge fields that
starts at G+d: one bridge field, or several in a row when ``options.bridge_runs``.
The tile then runs on from its anchor in direction d. A square is *free* when it is
on the board, not a corner and not covered; toilets are free (covering one is legal
and put to a vote by rule B) unless the caller asks for a *dry* run.

Hot paths: plain tuples, sets and dicts; nothing is copied.
"""
from __future__ import annotations

from drunter_notation.notation.model import Square
from drunter_notation.rules.board import DIRECTIONS, Ray
from drunter_notation.rules.grid import Tables
from drunter_notation.rules.state import State

UNLIMITED = 1 << 30  # bridge-run limit standing for "any number"


def bridge_limit(state: State) -> int:
    """A6: how many bridge fields in a row one placement may pass under."""
    return UNLIMITED if state.options.bridge_runs else 1


def past_bridges(state: State, start: Square, d: Square) -> tuple[Square, int]:
    """A6, the one bridge walk: from ``start`` (the square next to a gang, in direction
    ``d``), the first square that is not a bridge field the track may pass under
    (within the ruleset's limit), and how many bridge fields lie between."""
    bridges, limit = state.bridges, bridge_limit(state)
    (c, r), (dc, dr), passed = start, d, 0
    while passed < limit and (c, r) in bridges:
        c, r, passed = c + dc, r + dr, passed + 1
    return (c, r), passed


def bridge_run(tables: Tables, bridge: list[int], gang: int, d: int, limit: int) -> tuple[int, tuple[int, ...]]:
    """A6 on square indices (:mod:`.grid`), for a gang on ``gang`` going on in
    direction ``d`` (its index in DIRECTIONS) when the square next to it is a bridge
    field: how many bridge fields it passes (up to ``limit``) and the (up to three)
    squares beyond them, where the tile would lie."""
    ahead = tables.ahead[gang][d]
    passed = 0
    while passed < limit and passed < len(ahead) and bridge[ahead[passed]]:
        passed += 1
    return passed, ahead[passed:passed + 3]


def bridges_between(gang: Square, direction: Square, passed: int) -> tuple[Square, ...]:
    """The bridge fields a placement passes under: the ``passed`` squares after ``gang``."""
    return tuple((gang[0] + k * direction[0], gang[1] + k * direction[1]) for k in range(1, passed + 1))


_TOWARDS = {(dc, dr): (dc, dr) for dc, dr in DIRECTIONS}  # a step's signs -> the one tuple of that direction
# (columns, rows) from a gang to a square -> (the direction, how many squares lie between), or () when the square
# is not straight ahead in a row or column; filled as met (bounded by the boards' sizes)
_STRAIGHT: dict[tuple[int, int], tuple[Square, int] | tuple[()]] = {}


def _straight(dc: int, dr: int) -> tuple[Square, int] | tuple[()]:
    way: tuple[Square, int] | tuple[()] = ()
    if not (dc and dr) and (dc or dr):  # in one row or column, not the same square
        way = _TOWARDS[(dc > 0) - (dc < 0), (dr > 0) - (dr < 0)], abs(dc + dr) - 1
    if abs(dc) < 256 and abs(dr) < 256:  # boards have at most 99 rows: the table stays small
        _STRAIGHT[dc, dr] = way
    return way


def reaches(state: State, gang: Square, anchor: Square, direction: Square | None) -> list[tuple[Square, int]]:
    """(direction, bridges passed) of every way ``gang`` reaches ``anchor`` through any
    number of bridge fields in a row (the caller applies the ruleset's limit); only
    ``direction`` when given. A gang goes straight on: the one direction from it to
    the anchor, when every square between them is a bridge field."""
    dc, dr = anchor[0] - gang[0], anchor[1] - gang[1]
    way = _STRAIGHT.get((dc, dr))
    if way is None:
        way = _straight(dc, dr)
    if not way:
        return []
    d, passed = way
    if direction is not None and direction != d:
        return []
    if passed:
        bridges, (c, r), (sc, sr) = state.bridges, gang, d
        for k in range(1, passed + 1):
            if (c + k * sc, r + k * sr) not in bridges:
                return []
    return [way]


def free_length(state: State, ray: Ray, cap: int, *, dry: bool = False) -> int:
    """A3/A7, the one free run: how many squares of ``ray`` (a :attr:`Board.rays` entry,
    which already stops at the edge and at corners) are free, up to ``cap``; with
    ``dry`` a toilet ends the run too."""
    covered = state.covered
    toilets = state.board.toilets if dry else ()
    n = 0
    for squares, _ in ray:
        if n == cap or squares[-1] in covered or squares[-1] in toilets:
            break
        n += 1
    return n


def without_way(state: State) -> list[tuple[Square, Square]]:
    """A5: (corner, square it stands on) of every live gang with no free square to go
    on to, counting ways under bridges (within the ruleset's limit), in board corner
    order. Asked after every placement: one call for all gangs, each ending at its first
    free neighbour (mostly the first)."""
    neighbours, covered = state.board.neighbours, state.covered
    out = []
    for corner, gang in state.gangs.items():
        if gang is None:
            continue
        for sq in neighbours[gang]:  # a free square next to it (bridge fields are covered)
            if sq not in covered:
                break
        else:
            if not _way_under_bridges(state, gang):
                out.append((corner, gang))
    return out


def _way_under_bridges(state: State, gang: Square) -> bool:
    """A5, A6: a gang on ``gang``, whose neighbours are all covered, reaches a free
    square past bridge fields."""
    board, covered, bridges = state.board, state.covered, state.bridges
    for d, start, _ in board.exits[gang]:
        if start in bridges:
            ray = board.rays.get((past_bridges(state, start, d)[0], d))
            if ray is not None and ray[0][0][0] not in covered:
                return True
    return False


def longest(state: State, gang: Square, *, dry: bool, cap: int = 3) -> int:
    """The longest tile (up to ``cap``) that fits at a gang on ``gang`` now: the best
    :func:`free_length` over the ways on (:func:`past_bridges`). The hot path of A5,
    Legezwang, the end of the game and X2."""
    board, bridges = state.board, state.bridges
    rays = board.rays
    best = 0
    for d, start, ray in board.exits[gang]:
        if start in bridges:
            ray = rays.get((past_bridges(state, start, d)[0], d))
        if ray is not None:
            n = free_length(state, ray, cap, dry=dry)
            if n > best:
                best = n
                if best == cap:
                    break
    return best
