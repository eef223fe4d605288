"""Typed records of the DN notation (docs/notation.md).

Pure values: frozen dataclasses that know nothing of files or rules. Every item
carries the line and column of its first token (1-based); positions and the
source path are left out of equality so that ``parse(format(r)) == r`` holds.
Comments are kept on the top-level item they belong to: ``comments`` are whole
comment lines standing before the item, ``note`` is a comment on its own line
after it.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, ParamSpec, TypeVar, cast, dataclass_transform

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Square = tuple[int, int]  # (column, row), both 0-based: a1 == (0, 0)

TileKind = Literal["W", "S", "R"]  # wall, street, river: the letter DN writes
KINDS: dict[TileKind, str] = {"W": "wall", "S": "street", "R": "river"}
KIND_LETTER: dict[str, TileKind] = {v: k for k, v in KINDS.items()}
BUILDINGS = ("museum", "tavern", "school", "townhall", "firehouse", "church")
BUILDING_ALIASES = {
    "wirtshaus": "tavern",
    "schule": "school",
    "rathaus": "townhall",
    "feuerwache": "firehouse",
    "kirche": "church",
}
SPECIAL_GOALS = ("all-threes", "all-fours", "lowest-of-each", "one-each")

# Tags the notation gives a meaning to; any other key is kept but not used.
KNOWN_TAGS = ("Event", "Site", "Date", "Round", "Annotator", "Players", "Board", "Rules", "Variant", "Result")


def near_known_tag(key: str) -> str | None:
    """The known tag an unknown ``key`` looks like a slip of (``players``, ``Rule``), or None."""
    if key in KNOWN_TAGS:
        return None
    import difflib  # here: only a tag not known pays for its import

    by_lower = {k.lower(): k for k in KNOWN_TAGS}
    close = difflib.get_close_matches(key.lower(), list(by_lower), n=1, cutoff=0.75)
    return by_lower[close[0]] if close else None
GOALS = BUILDINGS + SPECIAL_GOALS
CARD_NAMES = ("JA", "JAA", "JAAA", "NE", "NEE", "NEEE", "JEIN", "?")


def square_name(sq: Square) -> str:
    """``(2, 6)`` -> ``"c7"``."""
    return f"{chr(ord('a') + sq[0])}{sq[1] + 1}"


def parse_square(text: str) -> Square:
    """``"c7"`` -> ``(2, 6)``; the text must already match the SQUARE token."""
    return (ord(text[0]) - ord("a"), int(text[1:]) - 1)


class Tile(NamedTuple):
    """A tile type: kind letter ``W``/``S``/``R`` and length 1..3."""

    kind: TileKind
    length: int

    def __str__(self) -> str:
        return f"{self.kind}{self.length}"

    @property
    def kind_name(self) -> str:
        return KINDS[self.kind]

    def order(self) -> tuple[int, int]:
        """Sort key of hand lines and box listings: walls, streets, rivers; longest first."""
        return ("WSR".index(self.kind), -self.length)


class Card(NamedTuple):
    """A vote card as played; ``declared`` is ``"yes"``/``"no"`` for a JEIN, else None."""

    name: str
    declared: str | None = None

    def __str__(self) -> str:
        return f"{self.name}={self.declared}" if self.declared else self.name


def _pos() -> int:
    return field(default=0, compare=False, repr=False)


_T = TypeVar("_T")
_P = ParamSpec("_P")
_QUICK: dict[type, Callable[..., object]] = {}  # each value class -> its quick maker (see quick)


@dataclass_transform(frozen_default=True)
def _value(cls: type[_T]) -> type[_T]:
    """``@dataclass(frozen=True, slots=True)`` with a faster ``__init__`` of the same
    signature and effect: it sets each slot through the slot's descriptor, where the
    generated one looks up and calls ``object.__setattr__`` per field (a Turn: 0.55
    against 0.95 us; the parser builds some 240 of these values per record). Only this
    ``__init__`` and the maker :func:`quick` hands out are compiled (each compile costs
    every command's start-up about 0.1 ms: both are made by one)."""
    cls = dataclass(frozen=True, slots=True, init=False)(cls)
    spec = fields(cast("type[DataclassInstance]", cls))
    if any(f.default_factory is not MISSING or not f.init or f.kw_only is True for f in spec):
        raise TypeError(f"{cls.__name__}: only plain fields with plain defaults are handled")
    names = [f.name for f in spec]
    defaults = {f.name: f.default for f in spec if f.default is not MISSING}
    params = ", ".join(f"{n}=_default_{n}" if n in defaults else n for n in names)
    sets = "".join(f"\n        _set_{n}(self, {n})" for n in names)
    stores = "".join(f"\n        _self.{n} = {n}" for n in names)
    outer = ", ".join([f"_set_{n}" for n in names] + [f"_default_{n}" for n in defaults] + ["_parts", "_cls"])
    namespace: dict[str, Callable[..., tuple[Callable[..., None], Callable[..., object]]]] = {}
    source = (f"def make({outer}):\n    def __init__(self, {params}):{sets}\n"
              f"    def quick({params}):\n        _self = _parts(){stores}\n        _self.__class__ = _cls\n"
              f"        return _self\n    return __init__, quick")
    exec(source, {"__name__": cls.__module__}, namespace)
    # the same slots on a plain class: its instance takes the fields as plain stores, then becomes a cls
    parts = type(f"_{cls.__name__}Parts", (), {"__slots__": cast("Any", cls).__slots__, "__module__": cls.__module__})
    init, _QUICK[cls] = namespace["make"](*(getattr(cls, n).__set__ for n in names), *defaults.values(), parts, cls)
    init.__qualname__, init.__annotations__ = f"{cls.__qualname__}.__init__", {
        **{f.name: f.type for f in spec}, "return": None}
    cls.__init__ = init  # type: ignore[method-assign]  # the generated __init__ of the same signature
    return cls


def quick(cls: Callable[_P, _T]) -> Callable[_P, _T]:
    """A maker of ``cls`` (a value class of this module) with the signature and effect of
    ``cls(...)`` in a third of its time, for the parser's hot path: it fills an instance of
    a plain class with the same slots, then makes it a ``cls`` (``__class__`` assigned;
    CPython allows it between classes of one layout), where ``cls``'s ``__init__`` must
    call a slot's descriptor per field, the frozen class refusing plain stores."""
    return cast("Callable[_P, _T]", _QUICK[cast("type", cls)])


@_value
class Tag:
    """A tag line: ``[Key "value"]``."""

    key: str
    value: str
    line: int = _pos()
    column: int = _pos()
    comments: tuple[str, ...] = ()
    note: str | None = None


@_value
class HandTile:
    """A tile type in a hand line and how many of it: ``W2x4``."""

    tile: Tile
    count: int = 1


@_value
class Hand:
    """``hand Anna: W3 S2x2 ...``: the tiles dealt to a player."""

    player: str
    tiles: tuple[HandTile, ...]
    line: int = _pos()
    column: int = _pos()
    comments: tuple[str, ...] = ()
    note: str | None = None


@_value
class Goals:
    """``goals Anna: museum, one-each``: a player's two goal cards (expert)."""

    player: str
    goals: tuple[str, str]
    line: int = _pos()
    column: int = _pos()
    comments: tuple[str, ...] = ()
    note: str | None = None


@_value
class Ballot:
    """One player's cards in a vote: ``Anna: JA NE``."""

    player: str
    cards: tuple[Card, ...]
    line: int = _pos()
    column: int = _pos()


@_value
class Vote:
    """``vote { Anna: JA, Ben: NE }``: the ballots, in voting order."""

    ballots: tuple[Ballot, ...]
    line: int = _pos()
    column: int = _pos()


@_value
class Outcome:
    """A claimed vote result, optionally with the claimed tally ``yes:no``."""

    accepted: bool
    yes: int | None = None
    no: int | None = None
    line: int = _pos()
    column: int = _pos()


@_value
class Placement:
    """``tile anchor[-end] [@corner] [vote {...}] [-> outcome]``; ``end`` is None for a single square."""

    tile: Tile
    anchor: Square
    end: Square | None = None
    corner: Square | None = None
    vote: Vote | None = None
    outcome: Outcome | None = None
    line: int = _pos()
    column: int = _pos()

    @property
    def last(self) -> Square:
        return self.anchor if self.end is None else self.end


@_value
class Turn:
    """A numbered turn; ``placement`` is None for ``pass``."""

    number: int
    player: str
    placement: Placement | None
    line: int = _pos()
    column: int = _pos()
    comments: tuple[str, ...] = ()
    note: str | None = None


@_value
class Choose:
    """``choose``: the counting card is chosen now (expert)."""

    line: int = _pos()
    column: int = _pos()
    comments: tuple[str, ...] = ()
    note: str | None = None


@_value
class RevealEntry:
    """``player: goal`` (base) or ``player: chosen/other`` (expert)."""

    player: str
    chosen: str
    other: str | None = None
    line: int = _pos()
    column: int = _pos()


@_value
class Reveal:
    """``reveal Anna: museum, ...``: the building (or goal) cards shown at the end."""

    entries: tuple[RevealEntry, ...]
    line: int = _pos()
    column: int = _pos()
    comments: tuple[str, ...] = ()
    note: str | None = None


@_value
class ScoreEntry:
    """``Anna: 12``: a player's claimed score."""

    player: str
    points: int
    line: int = _pos()
    column: int = _pos()


@_value
class Score:
    """``score Anna: 12, ...``: the claimed scores."""

    entries: tuple[ScoreEntry, ...]
    line: int = _pos()
    column: int = _pos()
    comments: tuple[str, ...] = ()
    note: str | None = None


Setup = Hand | Goals
Event = Turn | Choose


@_value
class Record:
    """One game record. ``end_line``/``end_column`` point just past its last token."""

    tags: tuple[Tag, ...] = ()
    setup: tuple[Setup, ...] = ()
    events: tuple[Event, ...] = ()
    reveal: Reveal | None = None
    score: Score | None = None
    final_comments: tuple[str, ...] = ()
    end_line: int = _pos()
    end_column: int = _pos()

    def tag(self, key: str) -> Tag | None:
        """The first tag with this key, or None."""
        for t in self.tags:
            if t.key == key:
                return t
        return None

    @property
    def turns(self) -> tuple[Turn, ...]:
        return tuple(e for e in self.events if isinstance(e, Turn))

    @property
    def players(self) -> tuple[str, ...]:
        """Names of the ``Players`` tag, trimmed; empty when the tag is missing."""
        t = self.tag("Players")
        if t is None:
            return ()
        return tuple(n.strip() for n in t.value.split(",") if n.strip())


Item = Tag | Setup | Event | Reveal | Score  # a record's top-level item: a line of its own, with its comments
