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


def test_a_boards_tables_are_kept_for_a_bounded_number_of_boards():
    from drunter_notation.data.boardfile import load_board_file
    from drunter_notation.rules import grid

    path = Path(__file__).resolve().parent.parent / "drunter_notation" / "data" / "boards" / "schilda.toml"
    boards = [load_board_file(path) for _ in range(100)]  # a server reads a board file anew for each game
    for b in boards:
        assert grid.tables(b) is grid.tables(b) and grid.tables(b).board is b
    assert len(grid._TABLES.kept) <= 64


def test_a_board_dealt_from_is_not_kept_for_good():
    import gc
    import weakref

    from drunter_notation import Game
    from drunter_notation.data.boardfile import load_board_file
    from drunter_notation.rules import grid

    path = Path(__file__).resolve().parent.parent / "replays" / "boards" / "tiny.toml"
    g = Game.new(["Anna", "Ben"], board=str(path), seed=1)  # a program reads a board file anew for each game
    g.push(g.legal_moves()[0])
    gone = weakref.ref(g.board)
    del g
    for _ in range(65):  # past the tables' bound: the last 64 boards' tables are kept, then dropped
        grid.tables(load_board_file(path))
    gc.collect()
    assert gone() is None  # once held for good, with all its games filled its memo with, by the deal's box listing
