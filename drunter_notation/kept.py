"""Texts and JSON made once from immutable values that come back again and again.

A live game's record, position string and legal moves are written anew after every
move, mostly from the same values (its turns, its laid tiles, the engine's moves): what
each value gives is kept by the value's identity -- hashing a turn, its placement and
its vote costs more than formatting it again -- with the value itself, so that an id
reused by a later object never matches.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class KeptByIdentity(Generic[K, V]):
    """``make(value)``, made once per value while at most ``limit`` are kept (then all are
    dropped at once: a table sized for a few games' worth). ``make`` must depend on
    nothing but the value, and the value must never change; what it returns is shared."""

    def __init__(self, make: Callable[[K], V], limit: int = 4096) -> None:
        self.make, self.limit = make, limit
        self.kept: dict[int, tuple[K, V]] = {}

    def __call__(self, value: K) -> V:
        kept = self.kept.get(id(value))
        if kept is not None and kept[0] is value:
            return kept[1]
        made = self.make(value)
        if len(self.kept) >= self.limit:
            self.kept.clear()
        self.kept[id(value)] = (value, made)
        return made
