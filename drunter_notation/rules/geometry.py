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
from drunter_notation.rules.board import DIRECTIONS
from drunter_notation.rules.state import State

UNLIMITED = 1 << 30  # bridge-run limit standing for "any number"


def bridge_limit(state: State) -> int:
    """A6: how many bridge fields in a row one placement may pass under."""
    return UNLIMITED if state.options.bridge_runs else 1


def ways(state: State, gang: Square, limit: int | None = None) -> list[tuple[Square, Square, int]]:
    """Per direction d (DIRECTIONS order), where a track from ``gang`` could go on:
    (square, d, passed) with ``square`` the first square in direction d that is not a
    bridge field the track may pass under, and ``passed`` the bridge fields between.
    The square may be off the board or covered."""
    bridges = state.bridges
    limit = bridge_limit(state) if limit is None else limit
    gc, gr = gang
    out = []
    for d in DIRECTIONS:
        dc, dr = d
        c, r, passed = gc + dc, gr + dr, 0
        while passed < limit and (c, r) in bridges:
            c, r, passed = c + dc, r + dr, passed + 1
        out.append(((c, r), d, passed))
    return out


def bridges_between(gang: Square, direction: Square, passed: int) -> tuple[Square, ...]:
    """The bridge fields a placement passes under: the ``passed`` squares after ``gang``."""
    return tuple((gang[0] + k * direction[0], gang[1] + k * direction[1]) for k in range(1, passed + 1))


def reaches(state: State, gang: Square, anchor: Square, direction: Square | None) -> list[tuple[Square, int]]:
    """(direction, bridges passed) of every way ``gang`` reaches ``anchor`` through any
    number of bridge fields in a row (the caller applies the ruleset's limit); only
    ``direction`` when given. Walks back from the anchor: O(1) per direction."""
    bridges = state.bridges
    ac, ar = anchor
    out = []
    for d in DIRECTIONS if direction is None else (direction,):
        dc, dr = d
        sq, passed = (ac - dc, ar - dr), 0
        while sq != gang:
            if sq not in bridges:
                break
            sq, passed = (sq[0] - dc, sq[1] - dr), passed + 1
        else:
            out.append((d, passed))
    return out


def free_run(state: State, anchor: Square, d: Square, cap: int, dry: bool = False) -> int:
    """How many free squares (up to ``cap``) run from ``anchor`` in direction ``d``;
    with ``dry`` a toilet ends the run too."""
    board, covered = state.board, state.covered
    corners, width, height = board.corners, board.width, board.height
    toilets = board.toilets if dry else ()
    (c, r), (dc, dr) = anchor, d
    n = 0
    while n < cap and 0 <= c < width and 0 <= r < height:
        sq = (c, r)
        if sq in covered or sq in corners or sq in toilets:
            break
        n, c, r = n + 1, c + dc, r + dr
    return n


def longest(state: State, gang: Square, dry: bool, cap: int = 3) -> int:
    """The longest tile (up to ``cap``) that fits at a gang on ``gang`` now: the best
    :func:`free_run` over the :func:`ways` on. The hot path of A5, Legezwang, the end
    of the game and X2, so the two walks are fused into one loop here."""
    board, covered, bridges = state.board, state.covered, state.bridges
    corners, width, height = board.corners, board.width, board.height
    toilets = board.toilets if dry else ()
    limit = bridge_limit(state)
    gc, gr = gang
    best = 0
    for dc, dr in DIRECTIONS:
        c, r, passed = gc + dc, gr + dr, 0
        while passed < limit and (c, r) in bridges:
            c, r, passed = c + dc, r + dr, passed + 1
        n = 0
        while n < cap and 0 <= c < width and 0 <= r < height:
            sq = (c, r)
            if sq in covered or sq in corners or sq in toilets:
                break
            n, c, r = n + 1, c + dc, r + dr
        if n > best:
            best = n
            if best == cap:
                break
    return best
