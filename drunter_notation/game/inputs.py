"""The hands and cards a caller gives a game, checked before the engine sees them:
whatever the value, a DnError with a code, never a TypeError."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from drunter_notation.errors import DnError, fail, quoted, shown
from drunter_notation.i18n import _, format_number
from drunter_notation.notation.formatter import writable_text
from drunter_notation.notation.model import BUILDINGS, GOALS, Tag, Tile
from drunter_notation.notation.values import MAX_LINE_CHARS, MAX_LIST_ITEMS, TILES

# The tags a game writes from its own fields (players, board, rules, variant, result): never given as tags=
GAME_TAGS = ("Players", "Board", "Rules", "Variant", "Result")
# A tag line of the longest key and value, every character escaped, still fits in one DN line
_KEY_CHARS, _VALUE_CHARS = 1000, MAX_LINE_CHARS // 2 - 1000


def typed(value: object, types: type | tuple[type, ...], code: str, argument: str, expected: str) -> None:
    """DnError ``code`` unless ``value`` is one of ``types``: a wrong type is told at the
    public door (``argument`` as the caller wrote it, ``expected`` as its annotation says),
    never as a TypeError from deep inside."""
    kind = (type(value), types)
    if kind in _TAKEN:  # an ABC's isinstance is a Python call: a kind taken once is taken again at once
        return
    if not isinstance(value, types):
        raise wrong_type(value, code, argument, expected)
    _TAKEN.add(kind)


_TAKEN: set[tuple[type, type | tuple[type, ...]]] = set()  # (the value's class, the types) isinstance said yes to


def wrong_type(value: object, code: str, argument: str, expected: str) -> DnError:
    """The DnError :func:`typed` raises (for a caller that narrows the type itself)."""
    return fail(code, _("{argument} takes {expected}, not {type}").format(
        argument=argument, expected=expected, type=type(value).__name__))


def game_tags(given: object) -> tuple[Tag, ...]:
    """``tags=`` of :meth:`Game.new` as the record's tags, each one that reads back as
    given (``Game.from_dn(g.to_dn()) == g``). Raises DnError H002 for anything else."""
    if given is None:
        return ()
    from drunter_notation.notation.parser import reads_as_bare_name  # the grammar decides what a tag name is
    from drunter_notation.replay import valid_date  # the reader's own check of a Date

    if not isinstance(given, Mapping):
        raise wrong_type(given, "H002", "tags=", "Mapping[str, str] | None")
    limit = MAX_LIST_ITEMS - len(GAME_TAGS)
    if len(given) > limit:
        raise fail("H002", _("more than {max} tags").format(max=format_number(limit)))
    out = []
    for key, value in given.items():
        typed(key, str, "H002", "tags=", "Mapping[str, str] | None")
        typed(value, str, "H002", "tags=", "Mapping[str, str] | None")
        if key in GAME_TAGS:
            raise fail("H002", _("the game writes the {key} tag itself, from its players, board, rules, variant "
                                 "and result").format(key=key))
        if len(key) > _KEY_CHARS or not reads_as_bare_name(key):
            raise fail("H002", _("{key} is not a tag name a record can read, like Event or Opening-Name").format(
                key=quoted(key)))
        if not writable_text(value) or len(value) > _VALUE_CHARS:
            raise fail("H002", _("the value of the {key} tag must be one line of UTF-8 text without NUL, at most "
                                 "{limit} characters").format(key=key, limit=format_number(_VALUE_CHARS)))
        if key == "Date" and not valid_date(value):
            raise fail("H002", _("Date must be a calendar date written YYYY-MM-DD, not \"{value}\"").format(
                value=shown(value)))
        out.append(Tag(key, value))
    return tuple(out)


def hand(counts: object) -> Counter[Tile]:
    """A hand given as ``{"W3": 2, ...}`` or ``{Tile("W", 3): 2, ...}``. Raises DnError D001."""
    if not isinstance(counts, Mapping):
        raise fail("D001", _("a hand maps tile types to counts, e.g. {example}").format(example='{"W3": 2, "S1": 1}'))
    out: Counter[Tile] = Counter()
    for tile, n in counts.items():
        if not isinstance(tile, (str, Tile)):
            raise fail("D001", _("'{tile}' is not a tile type like W3, S2 or R1").format(tile=shown(repr(tile))))
        if isinstance(tile, str):
            if tile not in TILES:
                raise fail("D001", _("'{tile}' is not a tile type like W3, S2 or R1").format(tile=shown(tile)))
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
