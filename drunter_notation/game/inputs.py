"""The hands and cards a caller gives a game, checked before the engine sees them:
whatever the value, a DnError with a code, never a TypeError."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from drunter_notation.errors import fail
from drunter_notation.i18n import _
from drunter_notation.notation.model import BUILDINGS, GOALS, Tile
from drunter_notation.notation.values import TILES


def hand(counts: object) -> Counter[Tile]:
    """A hand given as ``{"W3": 2, ...}`` or ``{Tile("W", 3): 2, ...}``. Raises DnError D001."""
    if not isinstance(counts, Mapping):
        raise fail("D001", _("a hand maps tile types to counts, e.g. {example}").format(example='{"W3": 2, "S1": 1}'))
    out: Counter[Tile] = Counter()
    for tile, n in counts.items():
        if isinstance(tile, str):
            if tile not in TILES:
                raise fail("D001", _("'{tile}' is not a tile type like W3, S2 or R1").format(tile=tile))
            tile = TILES[tile]
        if not isinstance(n, int) or not 0 <= n <= 999:
            raise fail("D001", _("{tile} x{count}: a count is a whole number from 0 to 999").format(
                tile=tile, count=repr(n)))
        out[tile] += n
    return out


def card_sets(cards: object, players: tuple[str, ...], variant: str) -> dict[str, tuple[str, ...]]:
    """S3/X1: ``cards`` (``{"Anna": "museum"}``, expert: ``{"Anna": ("museum",
    "one-each")}``) as each player's tuple of cards: one building card each (base) or
    two goal cards each (expert), none twice. Raises DnError E001 (base) or X001
    (expert) for anything else."""
    want, known = (1, BUILDINGS) if variant == "base" else (2, GOALS)
    goals = {p: _card_tuple(c) for p, c in cards.items()} if isinstance(cards, Mapping) else None
    dealt = [] if goals is None else [c for p in players for c in goals.get(p, ())]
    if goals is None or set(goals) != set(players) or any(len(goals[p]) != want for p in players) \
            or any(c not in known for c in dealt) or len(set(dealt)) != len(dealt):
        text = (_("cards= gives each player one building card, no card twice (known: {known})") if want == 1
                else _("cards= gives each player two goal cards, no card twice (known: {known})"))
        raise fail("X001" if want == 2 else "E001", text.format(known=", ".join(known)))
    return goals


def _card_tuple(value: object) -> tuple[str, ...]:
    """A player's card or cards as a tuple; any other value as no cards (refused by the count)."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)) and all(isinstance(c, str) for c in value):
        return tuple(value)
    return ()
