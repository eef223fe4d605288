"""The small words every sentence shares: squares, lists, tiles, tracks, plurals."""
from __future__ import annotations

from collections.abc import Iterable

from drunter_notation.notation.model import Square, Tile, square_name

LENGTH_WORDS = {3: ("triple", "triples"), 2: ("double", "doubles"), 1: ("single", "singles")}


def and_list(items: Iterable) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    items = [str(i) for i in items]
    if not items:
        return ""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def names(squares: Iterable[Square]) -> str:
    """Squares as ``"c1, c2 and c3"``."""
    return and_list(square_name(s) for s in squares)


def spell(tile: Tile, squares: tuple[Square, ...]) -> str:
    """``W3 b1-d1`` / ``W1 c7``: a tile as a record writes it."""
    if len(squares) == 1:
        return f"{tile} {square_name(squares[0])}"
    return f"{tile} {square_name(squares[0])}-{square_name(squares[-1])}"


def track(kind: str, corner: Square) -> str:
    """``"wall from a1"``."""
    return f"{kind} from {square_name(corner)}"


def plural(n: int, one: str, many: str | None = None) -> str:
    """``plural(1, "point")`` -> ``"1 point"``; ``plural(2, "point")`` -> ``"2 points"``."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def count_words(counts: dict[int, int]) -> str:
    """``{3: 4, 2: 5}`` -> ``"4 triples and 5 doubles"``."""
    return and_list(f"{n} {LENGTH_WORDS[length][n != 1]}" for length, n in counts.items())
