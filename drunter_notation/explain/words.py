"""The small words every sentence shares: squares, lists, tiles, tracks, plurals.

The translated ones are noun phrases a whole sentence takes as a placeholder in a
form that does not change with the sentence: a kind as the first part of a German
compound (``Mauer``-Bautrupp) or a Czech genitive (zedník ``hradby``), a building's
name, a direction. Every sentence itself is one message of its own.
"""
from __future__ import annotations

from collections.abc import Iterable

from drunter_notation.i18n import _, ngettext, pgettext
from drunter_notation.notation.model import Square, Tile, square_name


def and_list(items: Iterable[object]) -> str:
    """``["a", "b", "c"]`` -> ``"a, b and c"``."""
    texts = [str(i) for i in items]
    if not texts:
        return ""
    if len(texts) == 1:
        return texts[0]
    # TRANSLATORS: the end of a list of names, squares or counts: "a, b and c"
    return _("{items} and {last}").format(items=", ".join(texts[:-1]), last=texts[-1])


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
    """``{3: 4, 2: 5}`` -> ``"4 triples and 5 doubles"``: the tiles one holds or is dealt
    (Czech: in the accusative, as the object of the sentence)."""
    return and_list(_count(length, n) for length, n in counts.items())


def _count(length: int, n: int) -> str:
    if length == 3:
        return ngettext("{n} triple", "{n} triples", n).format(n=n)
    if length == 2:
        return ngettext("{n} double", "{n} doubles", n).format(n=n)
    return ngettext("{n} single", "{n} singles", n).format(n=n)


def kind_of(kind: str) -> str:
    """A track's kind (``"wall"``) in the one form the sentences put it in: English
    ``wall``, German the first part of a compound (``Mauer``, ``Straßen``, ``Fluss``),
    Czech the genitive (``hradby``, ``ulice``, ``řeky``)."""
    words = {
        # TRANSLATORS: a kind of track inside a noun phrase: German the first part of a compound
        # ("Mauer" in "Mauer-Bautrupp", "Mauerplättchen", "Mauerstrecke"), Czech the genitive ("hradby")
        "wall": pgettext("kind of track", "wall"),
        "street": pgettext("kind of track", "street"),
        "river": pgettext("kind of track", "river"),
    }
    return words.get(kind, kind)


def building_name(building: str) -> str:
    """A building card's name in prose (its DN id, ``firehouse``, stays in DN text)."""
    words = {
        "museum": pgettext("building", "museum"),
        "tavern": pgettext("building", "tavern"),
        "school": pgettext("building", "school"),
        "townhall": pgettext("building", "townhall"),
        "firehouse": pgettext("building", "firehouse"),
        "church": pgettext("building", "church"),
    }
    return words.get(building, building)


def goal_name(goal: str) -> str:
    """A goal card as a reader calls it: a building (``Schule``), a special card of the
    expert variant (``all-threes``: ``alle Dreier``), a pair of them (``museum+one-each``)
    joined by ``+`` as DN joins them; its DN id stays in DN text and JSON."""
    specials = {"all-threes": _("all-threes"), "all-fours": _("all-fours"), "lowest-of-each": _("lowest-of-each"),
                "one-each": _("one-each")}
    return "+".join(specials.get(part) or building_name(part) for part in goal.split("+"))


def direction(name: str) -> str:
    """``"north"`` as a tile runs: ``nach Norden``, ``na sever``."""
    words = {
        "north": pgettext("a tile runs", "north"),
        "east": pgettext("a tile runs", "east"),
        "south": pgettext("a tile runs", "south"),
        "west": pgettext("a tile runs", "west"),
    }
    return words.get(name, name)


def variant_name(variant: str) -> str:
    """The record's Variant as a reader reads it (``base``: ``Grundspiel``); the DN value stays."""
    words = {"base": _("base"), "expert": _("expert")}
    return words.get(variant, variant)
