"""Squares as integers: a board's tables by square index, and a position's covered
squares and bridge fields as lists of 0 and 1.

A square ``(column, row)`` is the index ``row * width + column``. The lean playout
path (:mod:`.playout`) and the legal moves (:func:`.placement.legal_moves`) walk the
board on these; everything else speaks squares as tuples. Lists, not dicts of
tuples: compiled, a list is indexed in C, where a tuple key is boxed and hashed anew
for every lookup.
"""
from __future__ import annotations

from collections.abc import Callable

from drunter_notation.kept import KeptByIdentity
from drunter_notation.notation.model import BUILDINGS, KIND_LETTER, Square, TileKind
from drunter_notation.rules.board import DIRECTIONS, Board

KIND_ORDER: tuple[TileKind, ...] = ("W", "S", "R")
BUILDING_INDEX = {b: i for i, b in enumerate(BUILDINGS)}


class Tables:
    """Per board, built once: the squares ahead of each square per direction, and
    per square its building (type index, value; -1, 0 for none) and toilet; per
    track, in corner order, its corner, kind, the corner's index and whether
    another track has its kind."""

    __slots__ = ("ahead", "ahead3", "board", "btype", "buildings", "bvalue", "corners", "edge", "kinds",
                 "start_blocked", "toilet", "tracks", "width")
    board: Board
    width: int
    corners: tuple[int, ...]
    kinds: tuple[int, ...]
    tracks: tuple[tuple[Square, str, int, bool], ...]
    ahead: list[tuple[tuple[int, ...], ...]]
    ahead3: list[tuple[tuple[int, ...], ...]]
    toilet: list[int]
    btype: list[int]
    bvalue: list[int]
    buildings: list[tuple[int, int, int]]
    start_blocked: list[int]
    edge: list[int]

    def __init__(self, board: Board):
        w, h = board.width, board.height
        self.board, self.width = board, w
        self.corners = tuple(r * w + c for c, r in board.corners)
        self.kinds = tuple(KIND_ORDER.index(KIND_LETTER[k]) for k in board.corners.values())
        kinds = list(board.corners.values())
        self.tracks = tuple((corner, kind, i, kinds.count(kind) > 1)
                            for (corner, kind), i in zip(board.corners.items(), self.corners, strict=True))
        self.ahead = []
        for i in range(w * h):
            c0, r0 = i % w, i // w
            rays = []
            for dc, dr in DIRECTIONS:
                ray: list[int] = []
                c, r = c0 + dc, r0 + dr
                while 0 <= c < w and 0 <= r < h:
                    ray.append(r * w + c)
                    c, r = c + dc, r + dr
                rays.append(tuple(ray))
            self.ahead.append(tuple(rays))
        self.ahead3 = [tuple(ray[:3] for ray in rays) for rays in self.ahead]
        self.toilet = [0] * (w * h)
        for c, r in board.toilets:
            self.toilet[r * w + c] = 1
        self.btype, self.bvalue = [-1] * (w * h), [0] * (w * h)
        self.buildings = []
        for (c, r), (kind, value) in board.buildings.items():
            i = r * w + c
            self.btype[i], self.bvalue[i] = BUILDING_INDEX.get(kind, -1), value
            self.buildings.append((i, self.btype[i], value))
        self.start_blocked = [0] * (w * h)
        for i in self.corners:
            self.start_blocked[i] = 1
        self.edge = [1 if i % w in (0, w - 1) or i // w in (0, h - 1) else 0 for i in range(w * h)]

    def __reduce__(self) -> tuple[Callable[[Board], Tables], tuple[Board]]:
        """Pickled as its board: the receiving process builds (or has) the board's tables."""
        return tables, (self.board,)

    def square(self, i: int) -> Square:
        return (i % self.width, i // self.width)

    def index(self, sq: Square) -> int:
        return sq[1] * self.width + sq[0]


# Bounded: a long-running server or a folder of records reads a board file anew for each game.
_TABLES: KeptByIdentity[Board, Tables] = KeptByIdentity(Tables, limit=64)


def tables(board: Board) -> Tables:
    """The tables of ``board``, built once per board object (of the last 64 asked for)."""
    return _TABLES(board)


class Grid:
    """A position's squares by index: ``blocked`` 1 for a covered square or a corner
    (no tile may go there), ``bridge`` 1 for a bridge field (A6). Made from the
    position by :meth:`.state.State.grid`, then kept in step with it by
    :func:`.placement.apply_move` and :func:`.turn.unplay`."""

    __slots__ = ("blocked", "bridge", "tables")

    def __init__(self, tables: Tables, blocked: list[int], bridge: list[int]) -> None:
        self.tables, self.blocked, self.bridge = tables, blocked, bridge

    def copy(self) -> Grid:
        return Grid(self.tables, self.blocked.copy(), self.bridge.copy())

    def mark(self, squares: tuple[Square, ...], on: int) -> None:
        """A tile laid on ``squares`` (anchor first; ``on`` 1) -- they are covered, a
        triple's middle square is a bridge field -- or taken back (``on`` 0)."""
        w, blocked = self.tables.width, self.blocked
        for c, r in squares:
            blocked[r * w + c] = on
        if len(squares) == 3:
            c, r = squares[1]
            self.bridge[r * w + c] = on
