"""kept.KeptByIdentity: made once per value, never answered for an equal but other value."""
from __future__ import annotations

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
