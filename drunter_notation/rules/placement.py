"""Placement rules A1–A7: judging a placement, the legal placements, laying a tile,
trapped gangs.

Where a track can go on (the bridge walk, the free run) is :mod:`.geometry`'s.
Findings come back as :class:`~drunter_notation.rules.state.Violation` values with
their facts; :mod:`drunter_notation.explain.findings` words them.
"""
from __future__ import annotations

from collections.abc import Iterable
from itertools import repeat
from operator import itemgetter
from typing import Any, NamedTuple

from drunter_notation.notation.model import KINDS, Square, Tile, square_name
from drunter_notation.rules.board import DIRECTIONS, Ray
from drunter_notation.rules.geometry import bridge_limit, bridge_run, bridges_between, reaches, without_way
from drunter_notation.rules.grid import Tables
from drunter_notation.rules.state import LaidTile, State, Violation, take

ALL_TILES = tuple(Tile(k, n) for k in KINDS for n in (1, 2, 3))
_BY_KIND = tuple((KINDS[k], tuple(Tile(k, n) for n in (1, 2, 3))) for k in KINDS)  # shortest first
_TILES_OF = dict(_BY_KIND)
DIRECTION_NAMES = {(0, 1): "north", (1, 0): "east", (0, -1): "south", (-1, 0): "west"}
_UNIT_STEP = {d: d for d in DIRECTIONS}  # the one tuple per direction, kept by every Move (not one each)
# A corner's track, its gang, the direction from gang to anchor and the bridge fields passed: one way a track fits.
_Fit = tuple[Square, Square, Square, int]


class Move(NamedTuple):
    """A legal placement and the facts it was judged on: ``squares`` anchor first;
    ``corner`` the track it extends; ``gang`` where that track's gang stood;
    ``direction`` the step from gang to anchor; ``toilets`` the toilet squares it
    covers; ``bridges_passed`` the bridge fields between gang and anchor (A6);
    ``needs_corner`` whether its DN text must name the corner (the squares alone fit
    two tracks, A006); ``needs_vote`` whether it is put to a vote (B1, X5).

    ``str(move)`` is its DN text, e.g. ``W3 b1-d1`` or ``W1 n2 @o1``."""

    tile: Tile
    squares: tuple[Square, ...]
    corner: Square
    direction: Square
    toilets: tuple[Square, ...]
    bridges_passed: int
    gang: Square
    needs_corner: bool = False
    needs_vote: bool = False

    def __str__(self) -> str:
        sq = self.squares
        text = f"{self.tile} {square_name(sq[0])}" + ("" if len(sq) == 1 else f"-{square_name(sq[-1])}")
        return text + f" @{square_name(self.corner)}" if self.needs_corner else text

    def __repr__(self) -> str:
        return f"<Move {self}>"

    @property
    def bridges(self) -> tuple[Square, ...]:
        """The bridge fields this placement passes under (A6)."""
        return bridges_between(self.gang, self.direction, self.bridges_passed)


def _shape(tile: Tile, anchor: Square, end: Square | None) -> tuple[tuple[Square, ...], Square | None] | Violation:
    """A002: the squares of a straight line of the tile's length from ``anchor`` to
    ``end`` and its direction (None for a single), or the violation."""
    length = tile.length
    if length == 1:
        if end is not None and end != anchor:
            return Violation("A002", "A3", "single-two-squares", {"tile": tile, "anchor": anchor, "end": end})
        return (anchor,), None
    if end is None or end == anchor:
        return Violation("A002", "A3", "one-square", {"tile": tile, "anchor": anchor})
    dc, dr = end[0] - anchor[0], end[1] - anchor[1]
    if (dc and dr) or abs(dc + dr) != length - 1:
        return Violation("A002", "A3", "not-straight", {"tile": tile, "anchor": anchor, "end": end})
    direction = _UNIT_STEP[(dc > 0) - (dc < 0), (dr > 0) - (dr < 0)]
    if length == 2:
        return (anchor, end), direction
    return (anchor, (anchor[0] + direction[0], anchor[1] + direction[1]), end), direction


def check_placement(state: State, tile: Tile, anchor: Square, end: Square | None = None,
                    corner: Square | None = None) -> Move | Violation:
    """Judge laying ``tile`` from ``anchor`` to ``end`` (None for a single), optionally
    on the track from ``corner``. Returns the :class:`Move`, or the first
    :class:`Violation` in this order: A002 shape, A003 board edge, A006 bad
    ``corner``, A001 no gang reaches it (A002 for a reversed or sideways tile; rule A6
    when only a longer bridge run than allowed would reach; rule A1 when only a gang
    of another kind would), A005 corner covered, A004 overlap, A006 two tracks fit.
    Does not look at hands or votes. A single ``c7-c7`` is accepted as ``c7``."""
    board = state.board
    # a shape judged before whose squares are on the board and no corner: its ray, length and direction, and the
    # tracks of the tile's kind, kept
    kept: tuple[Ray, int, Square | None, tuple[Square, ...]] | None = board.memo.get((tile, anchor, end))
    ray: Ray | None
    if kept is not None:
        ray, n, direction, tracks = kept
        squares, clear = ray[n - 1][0], True
    else:
        shaped = _shape(tile, anchor, end)
        if isinstance(shaped, Violation):
            return shaped
        squares, direction = shaped
        n = len(squares)
        # the board's ray from the anchor stops at the edge and at corners (a single's: any direction)
        ray = board.rays.get((anchor, direction or DIRECTIONS[0]))
        clear = ray is not None and len(ray) >= n  # so A003 and A005 pass
        tracks = board.tracks_of.get(KINDS[tile.kind], ())
        if ray is not None and clear:
            board.memo[tile, anchor, end] = ray, n, direction, tracks
    if not clear:
        for sq in squares:  # A003
            if not board.on_board(sq):
                return Violation("A003", "A3", "off-board", _facts(tile, squares, square=sq,
                                                                   last=(board.width - 1, board.height - 1)))
    gangs = state.gangs
    if corner is not None:  # A006: an explicit @corner must name a live track of the tile's kind
        kind = KINDS[tile.kind]
        problem = _bad_corner(state, kind, corner)
        if problem is not None:
            return Violation("A006", "A2", problem, _facts(tile, squares, corner=corner, kind=kind,
                                                           corners=tuple(state.track_kind),
                                                           track_kind=state.track_kind.get(corner),
                                                           removed_on=state.removed_on.get(corner)))
    fits: list[_Fit] = []
    too_far: _Fit | None = None
    for c in tracks:  # A001: a gang of this kind reaches the anchor, running away from it
        gang = gangs[c]
        if gang is None:
            continue
        for d, passed in reaches(state, gang, anchor, direction):
            if not passed or passed <= bridge_limit(state):  # mostly no bridge field passed: the limit not asked
                fits.append((c, gang, d, passed))
            elif corner is None or c == corner:
                too_far = (c, gang, d, passed)
    mine = fits if corner is None else [f for f in fits if f[0] == corner]
    if not mine:
        # (corner, gang) of the kind's live tracks (only the one named by @corner): made for a finding only
        candidates = [(c, g) for c in tracks if (g := gangs[c]) is not None and (corner is None or c == corner)]
        return _no_fit(state, tile, squares, direction, candidates, too_far, [f[0] for f in fits])
    if not clear:
        for sq in squares:  # A005 (rule A7): corners are never covered
            if sq in board.corners:
                return Violation("A005", "A7", "corner", _facts(tile, squares, square=sq))
    covered = state.covered
    for sq in squares:  # A004: no overlap
        if sq in covered:
            laid = state.tiles[covered[sq]]
            return Violation("A004", "A3", "overlap", _facts(tile, squares, square=sq, laid=laid))
    if len(mine) > 1:  # A006: only one track may fit (two wall gangs can both touch a single's square)
        return Violation("A006", "A2", "two-tracks", _facts(tile, squares, fits=tuple(f[0] for f in mine),
                                                            kinds=tuple(state.track_kind[f[0]] for f in mine)))
    c, gang, d, passed = mine[0]
    assert ray is not None  # clear here, else A003 or A005 was found
    squares, toilets = ray[n - 1]  # the ray lists the toilets too
    # every field in order, through tuple.__new__: one per judged turn, and the named tuple's own __new__ is a
    # Python function (keywords cost 1.8x more)
    return tuple.__new__(Move, (tile, squares, c, d, toilets, passed, gang, len(fits) > 1,
                                bool(toilets) and state.toilet_votes))


def _facts(tile: Tile, squares: tuple[Square, ...], **more: Any) -> dict[str, Any]:
    """A placement finding's facts: the tile, its squares and what else the finding names."""
    return {"tile": tile, "squares": squares, **more}


def _bad_corner(state: State, kind: str, corner: Square) -> str | None:
    """Why ``@corner`` cannot take a tile of ``kind`` (a ``why`` key), or None."""
    if corner not in state.track_kind:
        return "not-a-corner"
    if state.track_kind[corner] != kind:
        return "corner-other-kind"
    if state.gangs[corner] is None:
        return "corner-finished"
    return None


def _no_fit(state: State, tile: Tile, squares: tuple[Square, ...], direction: Square | None,
            candidates: list[tuple[Square, Square]], too_far: _Fit | None, others_of_kind: list[Square]) -> Violation:
    """The A001/A002 verdict when no candidate gang reaches the anchor properly, most
    telling first (``candidates``: the (corner, gang) of the live tracks in question):
    no live track of the kind; a bridge run too long (A6); reversed or
    sideways at the named track's gang (A002; with ``other`` when @corner named a track
    and the other track of the kind takes the tile as written); the other track of the
    kind would take it (a wrong @corner, A001); only a gang of another kind is there
    (A1); else plainly too far from every gang."""
    anchor = squares[0]
    kind = KINDS[tile.kind]
    gangs = state.gangs
    limit = bridge_limit(state)
    facts: dict[str, Any] = {"tile": tile, "squares": squares, "kind": kind}
    if not candidates:
        return Violation("A001", "A2", "no-live-track", facts)
    if too_far is not None:
        _, far, d, passed = too_far
        return Violation("A001", "A6", "bridge-run", {**facts, "gang": far, "passed": passed,
                                                       "under": bridges_between(far, d, passed)})
    # others_of_kind: only when @corner named a track and the other track of this kind takes the tile
    hint = {"other": others_of_kind[0]} if others_of_kind else {}
    if direction is not None:  # the named track's gang touches the tile the wrong way: judged for that track
        back = (-direction[0], -direction[1])
        for _, g in candidates:
            if any(p <= limit for _, p in reaches(state, g, squares[-1], back)):
                return Violation("A002", "A3", "reversed", {**facts, "gang": g, **hint})
        for _, g in candidates:
            for d, p in reaches(state, g, anchor, None):
                if p <= limit:
                    return Violation("A002", "A3", "sideways", {**facts, "gang": g, "direction": direction,
                                                                "expected": d, **hint})
    if others_of_kind:
        return Violation("A001", "A2", "other-track", {**facts, "corner": candidates[0][0],
                                                       "other": others_of_kind[0]})
    for c, stands in gangs.items():
        if stands is not None and state.track_kind[c] != kind \
                and any(p <= limit for _, p in reaches(state, stands, anchor, direction)):
            return Violation("A001", "A1", "other-kind", {**facts, "gang": stands, "gang_kind": state.track_kind[c]})
    return Violation("A001", "A2", "too-far", {**facts, "gangs": tuple(g for _, g in candidates)})


def legal_moves(state: State, player: str | None = None, tiles: Iterable[Tile] | None = None) -> list[Move]:
    """Every legal placement for ``player`` (default: the player to move), by track
    (board corner order), direction, anchor, tile (kind, length). ``tiles``: the tile
    types to try; default the player's hand when hands are known, else every tile
    type. Includes placements covering toilets (legal, subject to the vote); a
    single reachable from two wall gangs appears once per track, both with
    ``needs_corner``. Does not check whose turn it is.

    The hot path of every playout: on square indices (:meth:`State.grid`), the
    bridge walk and free run of :mod:`.geometry` in one loop, with no call per track
    or direction; the placements from each gang square (and past each run of bridge
    fields) are built once per board."""
    by_kind = _lengths_to_try(state, player, tiles)
    grid = state.squares or state.grid()  # made once, then kept in step
    t, blocked, bridge = grid.tables, grid.blocked, grid.bridge
    w, size, memo = t.width, len(blocked), state.board.memo
    gangs = state.gangs
    votes = state.toilet_votes
    moves: list[Move] = []
    singles: list[int] = []  # where a single's placement stands in moves, on kinds with two tracks or more
    for corner, kind, track, twinned in t.tracks:
        gang = gangs[corner]
        lengths = by_kind.get(kind)
        if lengths is None or gang is None:
            continue
        single, taken = lengths
        singles_too = single and twinned
        g = gang[1] * w + gang[0]
        key = ((g * size + track) << 1) + votes  # an int: hashed at once, where a key of squares is hashed anew
        # typed as kept (the memo holds Any): compiled, the loop below then runs on lists, not generic objects
        ways: list[_Way] | None = memo.get(key)
        if ways is None:
            ways = memo[key] = _gang_ways(state, t, corner, kind, gang, votes=votes)
        for s, s1, s2, d, protos in ways:
            if not blocked[s]:
                if singles_too:
                    singles.append(len(moves))
                # geometry.free_length, unrolled: the first square is free; a run ends at a blocked square (corners
                # are blocked, and a way shorter than three squares names a corner for the squares it lacks)
                moves += protos[taken[1 if blocked[s1] else 2 if blocked[s2] else 3]]
                continue
            if not bridge[s]:  # covered, or a corner; A6: the track may pass under a bridge field, within the limit
                continue
            passed, ray = bridge_run(t, bridge, g, d, bridge_limit(state))
            if not ray or blocked[ray[0]]:
                continue
            far = (g, track, d, passed, votes)  # the placements past these bridge fields, kept too
            past: list[Move] | None = memo.get(far)
            if past is None:
                past = memo[far] = _placements_past(state, kind, corner, gang, d, passed, t.square(ray[0]),
                                                    votes=votes)
            n = len(ray)  # the free run as above, on the squares past the bridge fields
            run = 1 if n == 1 or blocked[ray[1]] else 2 if n == 2 or blocked[ray[2]] else 3
            if singles_too:
                singles.append(len(moves))
            moves += past[taken[run]]
    if singles and moves[singles[0]].corner != moves[singles[-1]].corner:  # twins come from two tracks, in turn
        _mark_twins(moves, singles)
    return moves


_TILE_SQUARES = itemgetter(0, 1)  # a Move's (tile, squares), read in C


def _mark_twins(moves: list[Move], singles: list[int]) -> None:
    """A006: a single's square may fit two tracks of one kind (a longer tile cannot: the
    square behind its anchor holds one gang, never a bridge field another gang passes);
    both placements there need their corner named. ``singles``: where in ``moves`` the
    singles placed on a kind with more than one live track stand."""
    keys: list[tuple[Tile, tuple[Square, ...]]] = list(map(_TILE_SQUARES, map(moves.__getitem__, singles)))
    if len(set(keys)) == len(keys):  # mostly: no two alike
        return
    first: dict[tuple[Tile, tuple[Square, ...]], int] = {}
    for key, i in zip(keys, singles, strict=True):
        j = first.setdefault(key, i)
        if j != i:
            moves[i] = moves[i]._replace(needs_corner=True)
            moves[j] = moves[j]._replace(needs_corner=True)


# The tile lengths of one kind legal_moves tries: whether a single is among them, and per free run (0 to 3 squares)
# the slice of a way's placements (one per length, shortest first) that fit: every set of lengths is one. A plain
# tuple, unpacked where it is read.
_Lengths = tuple[bool, tuple[slice, ...]]


def _lengths(lengths: tuple[int, ...]) -> _Lengths:
    taken = []
    for run in range(4):
        fit = [n - 1 for n in lengths if n <= run]
        step = fit[1] - fit[0] if len(fit) > 1 else 1  # {0, 2} is the one set with gaps: every second
        taken.append(slice(fit[0], fit[-1] + 1, step) if fit else slice(0, 0))
    return lengths[0] == 1, tuple(taken)


_LENGTHS: dict[tuple[int, ...], _Lengths] = {held: _lengths(held) for held in
                                             ((1,), (2,), (3,), (1, 2), (1, 3), (2, 3), (1, 2, 3))}
_BIT = {t: 1 << i for i, t in enumerate(ALL_TILES)}
# The tile types held, as a set of _BIT -> what legal_moves tries per kind: a hand is read in one pass.
_BY_HELD = [{kind: _LENGTHS[lengths] for kind, group in _BY_KIND
             if (lengths := tuple(t.length for t in group if held & _BIT[t]))}
            for held in range(1 << len(ALL_TILES))]


def _lengths_to_try(state: State, player: str | None, tiles: Iterable[Tile] | None) -> dict[str, _Lengths]:
    """Track kind -> the lengths of the tiles :func:`legal_moves` tries: those in
    ``player``'s hand when hands are known and ``tiles`` is None, else of ``tiles``
    (default: every tile type); no entry for a kind with none."""
    held = 0
    if tiles is None and state.hands is not None:
        hand = state.hands[player or state.to_move]
        if hand and min(hand.values()) > 0:  # mostly: every tile type listed is held, so its bits add up in C
            return _BY_HELD[sum(map(_BIT.get, hand, repeat(0)))]
        for t, n in hand.items():
            if n > 0:
                held |= _BIT.get(t, 0)
    else:
        for t in ALL_TILES if tiles is None else set(tiles):
            held |= _BIT.get(t, 0)
    return _BY_HELD[held]


# A direction a gang could go on in when no bridge field is in the way: the three squares ahead by index (a
# corner, always blocked, for each square beyond the edge), its index in DIRECTIONS, and a Move per tile length
# the board's ray from the first of them holds.
_Way = tuple[int, int, int, int, list[Move]]


def _gang_ways(state: State, t: Tables, corner: Square, kind: str, gang: Square, *, votes: bool) -> list[_Way]:
    """The :data:`_Way` of each direction (DIRECTIONS order) that has a square ahead,
    for the track from ``corner`` with its gang on ``gang``: worked out once per
    board, kept in ``Board.memo``."""
    ahead, edge, ways = t.ahead3[t.index(gang)], t.corners[0], []
    for d, (step, _, ray) in enumerate(state.board.exits[gang]):
        if ahead[d]:
            s, s1, s2 = (*ahead[d], edge, edge)[:3]
            ways.append((s, s1, s2, d, [] if ray is None else _placements(kind, ray, corner, step, 0, gang,
                                                                            votes=votes)))
    return ways


def _placements_past(state: State, kind: str, corner: Square, gang: Square, d: int, passed: int, start: Square, *,
                     votes: bool) -> list[Move]:
    """The placements of the track from ``corner`` past ``passed`` bridge fields in
    direction ``d`` (its index), laid from ``start``."""
    step = DIRECTIONS[d]
    ray = state.board.rays.get((start, step))
    return [] if ray is None else _placements(kind, ray, corner, step, passed, gang, votes=votes)


def _placements(kind: str, ray: Ray, corner: Square, d: Square, passed: int, gang: Square, *,
                votes: bool) -> list[Move]:
    """A :class:`Move` per tile of ``kind`` laid along ``ray`` (length 1 up to the ray's)."""
    return [Move(tile=t, squares=squares, corner=corner, direction=d, toilets=wet, bridges_passed=passed, gang=gang,
                 needs_vote=votes and bool(wet))
            for t, (squares, wet) in zip(_TILES_OF[kind], ray, strict=False)]  # the ray may be shorter


def apply_move(state: State, move: Move, turn: int, player: str) -> list[tuple[Square, Square]]:
    """Lay ``move`` on turn ``turn`` for ``player``: cover its squares, record its
    bridge field (A6), move the gang to the end square (A4), take the tile from the
    player's hand (when hands are known), then remove trapped gangs (A5). Returns the
    gangs removed, as (corner, square it stood on). Precondition: ``move`` came from
    :func:`check_placement` or :func:`legal_moves` on this position and the player
    holds the tile. Does not advance the seat."""
    squares = move.squares
    index = len(state.tiles)
    state.example = state.over = None
    state.tiles.append(tuple.__new__(LaidTile, (move.tile, squares, move.corner, turn, player)))  # its fields in order
    covered = state.covered
    for sq in squares:
        covered[sq] = index
    if len(squares) == 3:
        state.bridges.add(squares[1])
    grid = state.squares
    if grid is not None:
        grid.mark(squares, 1)
    state.gangs[move.corner] = squares[-1]
    if state.hands is not None:
        take(state.hands[player], move.tile)
    return remove_trapped_gangs(state, turn)


def remove_trapped_gangs(state: State, turn: int) -> list[tuple[Square, Square]]:
    """A5: remove every live gang (not only the one just moved) with no free square
    to go on to, counting ways under bridges (A6, within the ruleset's bridge runs).
    With ``options.trap_counts_edge`` off (the literal reading of Webley: a gang goes
    only when the squares around it are covered *with tiles*) a gang on an edge square
    is never removed: it stays, stuck, with no legal placement. Records the turn in
    ``removed_on``; returns the gangs removed as (corner, square it stood on), in board
    corner order."""
    removed = without_way(state)
    if removed and not state.options.trap_counts_edge:  # mostly none is trapped: the option is read only then
        w, h = state.board.width - 1, state.board.height - 1
        removed = [(c, gang) for c, gang in removed if gang[0] not in (0, w) and gang[1] not in (0, h)]
    for corner, _ in removed:
        state.gangs[corner] = None
        state.removed_on[corner] = turn
    return removed
