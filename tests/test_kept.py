"""kept.KeptByIdentity: made once per value, never answered for an equal but other value."""
from __future__ import annotations

from pathlib import Path

from drunter_notation.kept import KeptByIdentity


def test_made_once_per_value_and_never_for_an_equal_other():
    made: list[tuple[int, ...]] = []

    def make(value: tuple[int, ...]) -> str:
        made.append(value)
        return ",".join(map(str, value))

    kept = KeptByIdentity(make, limit=3)
    a, b = (1, 2), tuple([1, 2])  # equal, not the same object
    assert a == b and a is not b
    assert kept(a) == kept(a) == "1,2" and len(made) == 1
    assert kept(b) == "1,2" and len(made) == 2  # equality is not identity
    c, d = (3,), (4,)
    assert (kept(c), kept(d)) == ("3", "4") and len(kept.kept) <= 3  # past the limit: all dropped, kept anew
    kept(a)
    assert len(made) == 5  # a was dropped with the rest, so made again


def test_a_boards_tables_are_kept_with_the_board_and_go_with_it():
    import gc
    import weakref

    from drunter_notation import Game
    from drunter_notation.rules import grid

    path = Path(__file__).resolve().parent.parent / "replays" / "boards" / "tiny.toml"
    g = Game.new(["Anna", "Ben"], board=str(path), seed=1)  # a program reads a board file anew for each game
    g.push(g.legal_moves()[0])
    b = g.board
    assert grid.tables(b) is grid.tables(b) and grid.tables(b).board is b
    gone = weakref.ref(b)
    del g, b
    gc.collect()
    assert gone() is None  # once held for good by the deal's box listing, and among the last 64 by the tables
