"""The board: size, corners, buildings, toilets and the tile box (DN-SPEC §1, §4).

Pure values; reading board files lives in :mod:`drunter_notation.boardfile`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from drunter_notation.notation.model import Square

DIRECTIONS: tuple[Square, ...] = ((0, 1), (1, 0), (0, -1), (-1, 0))  # north, east, south, west
TRACK_KINDS = ("wall", "street", "river")
DEFAULT_BOARD = "schilda"  # the board a record without a Board tag is played on
DEFAULT_BOX = {"wall": (6, 12, 12), "street": (3, 6, 6), "river": (3, 6, 6)}


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

    def on_board(self, sq: Square) -> bool:
        return 0 <= sq[0] < self.width and 0 <= sq[1] < self.height
