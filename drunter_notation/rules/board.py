"""The board: size, corners, buildings, toilets and the tile box (docs/boards.md).

Pure values; reading board files lives in :mod:`drunter_notation.boardfile`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from drunter_notation.notation.model import Square

DIRECTIONS: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))  # north, east, south, west
TRACK_KINDS = ("wall", "street", "river")
DEFAULT_BOARD = "schilda"  # the board a record without a Board tag is played on
DEFAULT_BOX = {"wall": (6, 12, 12), "street": (3, 6, 6), "river": (3, 6, 6)}
# A ray: for a tile of length 1, 2, 3 laid from a square, the squares it covers and the toilets among them.
Ray = tuple[tuple[tuple[Square, ...], tuple[Square, ...]], ...]
# An exit: a direction, the next square that way, and the ray from it (None: edge or corner).
Exit = tuple[Square, Square, Ray | None]


@dataclass(frozen=True)
class Board:
    """A W×H board. ``corners`` maps each corner square to its track kind
    ("street", "river" or "wall"); ``buildings`` maps a square to (type, value);
    ``box`` maps a track kind to its (triples, doubles, singles)."""

    id: str
    name: str
    width: int
    height: int
    corners: dict[Square, str]
    buildings: dict[Square, tuple[str, int]]
    toilets: frozenset[Square]
    box: dict[str, tuple[int, int, int]] = field(default_factory=lambda: dict(DEFAULT_BOX))
    note: str = ""
    path: str | None = None  # the file it was read from; None for a built-in board

    @cached_property
    def corners_next_to(self) -> dict[Square, tuple[Square, ...]]:
        """Square -> the corners next to it (A7), for the squares that have any."""
        out: dict[Square, tuple[Square, ...]] = {}
        for c in self.corners:
            for dc, dr in DIRECTIONS:
                sq = (c[0] + dc, c[1] + dr)
                out[sq] = (*out.get(sq, ()), c)
        return out

    @cached_property
    def tracks_of(self) -> dict[str, tuple[Square, ...]]:
        """Track kind -> the corners its tracks start from, in corner order (S4)."""
        out: dict[str, tuple[Square, ...]] = {}
        for corner, kind in self.corners.items():
            out[kind] = (*out.get(kind, ()), corner)
        return out

    @cached_property
    def cells(self) -> tuple[tuple[Square, ...], ...]:
        """The one tuple of each square on the board, by column then row: the rays and exits hold these, so
        a lookup of a gang's square in a table made of them finds the very key, not an equal one to compare."""
        return tuple(tuple((c, r) for r in range(self.height)) for c in range(self.width))

    @cached_property
    def rays(self) -> dict[tuple[Square, Square], Ray]:
        """(square, direction) -> the squares a tile of length 1, 2, 3 laid from there
        would cover, each with the toilets among them; a ray stops at the edge and at
        a corner (A3, A7). The free-run walk of every playout, worked out once per board."""
        out: dict[tuple[Square, Square], Ray] = {}
        width, height, corners, toilets, cells = self.width, self.height, self.corners, self.toilets, self.cells
        for c in range(width):
            for r in range(height):
                for d in DIRECTIONS:
                    prefixes: list[tuple[tuple[Square, ...], tuple[Square, ...]]] = []
                    squares: tuple[Square, ...] = ()
                    wet: tuple[Square, ...] = ()
                    sq = (c, r)
                    # every command's start-up builds this for every square: no call or generator per step
                    while len(squares) < 3 and 0 <= sq[0] < width and 0 <= sq[1] < height and sq not in corners:
                        cell = cells[sq[0]][sq[1]]
                        squares += (cell,)
                        if sq in toilets:
                            wet += (cell,)
                        prefixes.append((squares, wet))
                        sq = (sq[0] + d[0], sq[1] + d[1])
                    if prefixes:
                        out[((c, r), d)] = tuple(prefixes)
        return out

    @cached_property
    def exits(self) -> dict[Square, tuple[Exit, ...]]:
        """Square -> per direction (d, the next square, its :attr:`rays` entry or None):
        where a gang standing there could go on, when no bridge field is in the way."""
        rays, cells, w, h = self.rays, self.cells, self.width, self.height
        return {cells[c][r]: tuple((d, cells[c + d[0]][r + d[1]] if 0 <= c + d[0] < w and 0 <= r + d[1] < h
                                    else (c + d[0], r + d[1]), rays.get(((c + d[0], r + d[1]), d))) for d in DIRECTIONS)
                for c in range(w) for r in range(h)}

    @cached_property
    def neighbours(self) -> dict[Square, tuple[Square, ...]]:
        """Square -> the squares next to it that a tile may cover (on the board, not a
        corner): the first squares of its :attr:`exits` that have a ray."""
        return {sq: tuple([start for _, start, ray in exits if ray is not None]) for sq, exits in self.exits.items()}

    @cached_property
    def memo(self) -> dict[Any, Any]:  # its fillers (placement, state) type what they keep
        """A cache the engine fills with values that depend on this board alone (the
        placements a gang could make from a square, the box by tile type), so a playout
        builds each once."""
        return {}

    def on_board(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height
