"""Placement rules A1–A7: judging a placement, the legal placements, laying a tile,
trapped gangs.

Where a track can go on (the bridge walk, the free run) is :mod:`.geometry`'s.
Findings come back as :class:`~drunter_notation.rules.state.Violation` values with
their facts; :mod:`drunter_notation.explain.findings` words them.
"""
from __future__ import annotations

from typing import NamedTuple

from drunter_notation.notation.model import KINDS, Square, Tile, square_name
from drunter_notation.rules.board import DIRECTIONS
from drunter_notation.rules.geometry import bridge_limit, bridges_between, has_way, past_bridges, reaches
from drunter_notation.rules.state import LaidTile, State, Violation, take

ALL_TILES = tuple(Tile(k, n) for k in KINDS for n in (1, 2, 3))
_BY_KIND = tuple((KINDS[k], tuple(Tile(k, n) for n in (1, 2, 3))) for k in KINDS)  # shortest first
_TILES_OF = dict(_BY_KIND)
DIRECTION_NAMES = {(0, 1): "north", (1, 0): "east", (0, -1): "south", (-1, 0): "west"}
_UNIT_STEP = {d: d for d in DIRECTIONS}  # the one tuple per direction, kept by every Move (not one each)


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
    shaped = _shape(tile, anchor, end)
    if isinstance(shaped, Violation):
        return shaped
    squares, direction = shaped
    n = len(squares)
    # the board's ray from the anchor stops at the edge and at corners (a single's: any direction)
    ray = board.rays.get((anchor, direction or DIRECTIONS[0]))
    clear = ray is not None and len(ray) >= n  # so A003 and A005 pass
    if not clear:
        for sq in squares:  # A003
            if not board.on_board(sq):
                return Violation("A003", "A3", "off-board", _facts(tile, squares, square=sq,
                                                                   last=(board.width - 1, board.height - 1)))
    kind = KINDS[tile.kind]
    gangs = state.gangs
    if corner is not None:  # A006: an explicit @corner must name a live track of the tile's kind
        problem = _bad_corner(state, kind, corner)
        if problem is not None:
            return Violation("A006", "A2", problem, _facts(tile, squares, corner=corner, kind=kind,
                                                           corners=tuple(state.track_kind),
                                                           track_kind=state.track_kind.get(corner),
                                                           removed_on=state.removed_on.get(corner)))
    limit = bridge_limit(state)
    fits, too_far = [], None
    for c in board.tracks_of.get(kind, ()):  # A001: a gang of this kind reaches the anchor, running away from it
        if gangs[c] is None:
            continue
        for d, passed in reaches(state, gangs[c], anchor, direction):
            if passed <= limit:
                fits.append((c, d, passed))
            elif corner is None or c == corner:
                too_far = (c, d, passed)
    mine = fits if corner is None else [f for f in fits if f[0] == corner]
    if not mine:
        live = tuple([c for c in board.tracks_of.get(kind, ()) if gangs[c] is not None])
        return _no_fit(state, tile, squares, direction, live if corner is None else (corner,), too_far,
                       [f[0] for f in fits])
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
        return Violation("A006", "A2", "two-tracks", _facts(tile, squares, fits=tuple(c for c, _, _ in mine),
                                                            kinds=tuple(state.track_kind[c] for c, _, _ in mine)))
    c, d, passed = mine[0]
    squares, toilets = ray[n - 1]  # clear here, else A003 or A005 was found; the ray lists the toilets too
    return Move(tile, squares, c, d, toilets, passed, gangs[c], len(fits) > 1,
                bool(toilets) and state.toilet_votes)


def _facts(tile: Tile, squares: tuple[Square, ...], **more) -> dict:
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


def _no_fit(state: State, tile: Tile, squares, direction, candidates, too_far, others_of_kind) -> Violation:
    """The A001/A002 verdict when no candidate gang reaches the anchor properly, most
    telling first: no live track of the kind; a bridge run too long (A6); reversed or
    sideways at the named track's gang (A002; with ``other`` when @corner named a track
    and the other track of the kind takes the tile as written); the other track of the
    kind would take it (a wrong @corner, A001); only a gang of another kind is there
    (A1); else plainly too far from every gang."""
    anchor = squares[0]
    kind = KINDS[tile.kind]
    gangs = state.gangs
    limit = bridge_limit(state)
    facts = {"tile": tile, "squares": squares, "kind": kind}
    if not candidates:
        return Violation("A001", "A2", "no-live-track", facts)
    if too_far is not None:
        c, d, passed = too_far
        return Violation("A001", "A6", "bridge-run", {**facts, "gang": gangs[c], "passed": passed,
                                                       "under": bridges_between(gangs[c], d, passed)})
    # others_of_kind: only when @corner named a track and the other track of this kind takes the tile
    hint = {"other": others_of_kind[0]} if others_of_kind else {}
    if direction is not None:  # the named track's gang touches the tile the wrong way: judged for that track
        back = (-direction[0], -direction[1])
        for c in candidates:
            if any(p <= limit for _, p in reaches(state, gangs[c], squares[-1], back)):
                return Violation("A002", "A3", "reversed", {**facts, "gang": gangs[c], **hint})
        for c in candidates:
            for d, p in reaches(state, gangs[c], anchor, None):
                if p <= limit:
                    return Violation("A002", "A3", "sideways", {**facts, "gang": gangs[c], "direction": direction,
                                                                "expected": d, **hint})
    if others_of_kind:
        return Violation("A001", "A2", "other-track", {**facts, "corner": candidates[0], "other": others_of_kind[0]})
    for c, g in gangs.items():
        if g is not None and state.track_kind[c] != kind \
                and any(p <= limit for _, p in reaches(state, g, anchor, direction)):
            return Violation("A001", "A1", "other-kind", {**facts, "gang": g, "gang_kind": state.track_kind[c]})
    return Violation("A001", "A2", "too-far", {**facts, "gangs": tuple(gangs[c] for c in candidates)})


def legal_moves(state: State, player: str | None = None, tiles=None) -> list[Move]:
    """Every legal placement for ``player`` (default: the player to move), by track
    (board corner order), direction, anchor, tile (kind, length). ``tiles``: the tile
    types to try; default the player's hand when hands are known, else every tile
    type. Includes placements covering toilets (legal, subject to the vote); a
    single reachable from two wall gangs appears once per track, both with
    ``needs_corner``. Does not check whose turn it is.

    The hot path of every playout: the bridge walk and free run of :mod:`.geometry`
    are fused into one loop here, with no call per direction."""
    if tiles is None and state.hands is not None:
        hand = state.hands[player or state.to_move]
        by_kind = {}
        for kind, group in _BY_KIND:
            mine = [t for t in group if hand.get(t, 0) > 0]
            if mine:
                by_kind[kind] = mine
    else:
        chosen = ALL_TILES if tiles is None else set(tiles)
        by_kind = {kind: [t for t in group if t in chosen] for kind, group in _BY_KIND}
    rays, exits, memo = state.board.rays, state.board.exits, state.board.memo
    bridges, gangs, covered = state.bridges, state.gangs, state.covered
    votes = state.toilet_votes
    moves = []
    append = moves.append
    live: dict[str, int] = {}
    for corner, kind in state.track_kind.items():
        if gangs[corner] is not None:
            live[kind] = live.get(kind, 0) + 1
    # A006: a single's square may fit two tracks of one kind (a longer tile cannot: the
    # square behind its anchor holds one gang, never a bridge field another gang passes)
    singles: dict[tuple, int] = {}
    twins: list[int] = []
    for corner, kind in state.track_kind.items():
        mine = by_kind.get(kind)
        gang = gangs[corner]
        if not mine or gang is None:
            continue
        most = mine[-1].length  # shortest first within a kind
        shared = live[kind] > 1
        key = (corner, gang, votes)
        ways = memo.get(key)
        if ways is None:  # the placements a gang standing here could make, when no bridge is in the way
            ways = memo[key] = [(d, start, ray, ray and [
                Move(t, squares, corner, d, wet, 0, gang, False, votes and bool(wet))
                for t, (squares, wet) in zip(_TILES_OF[kind], ray)]) for d, start, ray in exits[gang]]
        for d, start, ray, protos in ways:
            if start in bridges:  # A6: the track may pass under, up to the ruleset's limit
                square, passed = past_bridges(state, start, d)
                ray = rays.get((square, d))
                if ray is None:
                    continue
                protos = [Move(t, squares, corner, d, wet, passed, gang, False, votes and bool(wet))
                          for t, (squares, wet) in zip(_TILES_OF[kind], ray)]
            elif ray is None:
                continue
            run = 0  # geometry.free_length, inlined: this loop runs for every gang and direction
            for squares, _ in ray:
                if run == most or squares[-1] in covered:
                    break
                run += 1
            for t in mine:
                n = t.length
                if n > run:
                    break
                if n == 1 and shared:
                    i = singles.setdefault((t, ray[0][0]), len(moves))
                    if i != len(moves):
                        twins += (i, len(moves))
                append(protos[n - 1])
    for i in twins:
        moves[i] = moves[i]._replace(needs_corner=True)
    return moves


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
    state.tiles.append(LaidTile(move.tile, squares, move.corner, turn, player))
    covered = state.covered
    for sq in squares:
        covered[sq] = index
    if len(squares) == 3:
        state.bridges.add(squares[1])
    state.gangs[move.corner] = squares[-1]
    if state.hands is not None:
        take(state.hands[player], move.tile)
    return a5_remove_trapped_gangs(state, turn)


def a5_remove_trapped_gangs(state: State, turn: int) -> list[tuple[Square, Square]]:
    """A5: remove every live gang (not only the one just moved) with no free square
    to go on to, counting ways under bridges (A6, within the ruleset's bridge runs).
    With ``options.trap_counts_edge`` off (the literal reading of Webley: a gang goes
    only when the squares around it are covered *with tiles*) a gang on an edge square
    is never removed: it stays, stuck, with no legal placement. Records the turn in
    ``removed_on``; returns the gangs removed as (corner, square it stood on), in board
    corner order."""
    board = state.board
    removed = []
    for corner, gang in state.gangs.items():
        if gang is None or has_way(state, gang):
            continue
        if not state.options.trap_counts_edge and (gang[0] in (0, board.width - 1) or gang[1] in (0, board.height - 1)):
            continue
        removed.append((corner, gang))
    for corner, _ in removed:
        state.gangs[corner] = None
        state.removed_on[corner] = turn
    return removed
