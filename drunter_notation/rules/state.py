"""The game position and the deal of tiles (rule S1).

A :class:`State` is the mutable position the replay, the simulator and the
adjudicator step through: tiles laid, gangs, hands, vote cards and the seat to
move. Everything else here is a pure value. Nothing in the core prints, parses or
raises for bad input; rule breaches come back as :class:`Violation` values.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar, final

from drunter_notation.notation.model import CARD_NAMES, KIND_LETTER, Square, Tile
from drunter_notation.rules.board import Board
from drunter_notation.rules.grid import Grid, tables
from drunter_notation.rules.options import Options

if TYPE_CHECKING:  # placement imports this module: its Move is named here for the checker only
    from drunter_notation.rules.placement import Move

K = TypeVar("K")
Variant = Literal["base", "expert"]  # the base game, or the expert variant (rules X)

LENGTHS = (3, 2, 1)  # the order of board.box entries: triples, doubles, singles
_ONE_SET = Counter(CARD_NAMES)  # S2: the vote cards each player starts with (copied, never handed out)


class LaidTile(NamedTuple):
    """A tile on the board. ``squares`` run anchor first; ``corner`` names its track.

    A NamedTuple, not a dataclass: one is built per placement in the hot path.
    """

    tile: Tile
    squares: tuple[Square, ...]
    corner: Square
    turn: int
    player: str

    @property
    def anchor(self) -> Square:
        return self.squares[0]

    @property
    def end(self) -> Square:
        return self.squares[-1]

    @property
    def bridge(self) -> Square | None:
        """The bridge field (middle square of a triple, rule A6), or None."""
        return self.squares[1] if len(self.squares) == 3 else None


@final  # so ``type(x) is Violation`` tells the checker all (see turn.play_turn)
@dataclass(frozen=True)
class Violation:
    """A rule breach found by the engine: the diagnostic ``code``, the rule ID it
    breaks, ``why`` (which case of that code, a key of the sentences in
    :mod:`drunter_notation.explain.findings`) and the ``facts`` those sentences are
    made of (tiles, squares, names, turns). The engine never words a finding."""

    code: str
    rule: str
    why: str
    facts: dict[str, Any] = field(default_factory=dict)


class State:
    """The position. Mutable: :mod:`drunter_notation.rules.turn` changes it in place;
    :meth:`copy` snapshots it.

    * ``tiles``: laid tiles in order; ``covered`` maps a square to its index there.
    * ``bridges``: bridge fields of laid triples (A6).
    * ``gangs``: corner -> the gang's square, None once removed (A5); initially the
      corner itself. ``removed_on``: corner -> turn of removal.
    * ``track_kind``: corner -> "wall"/"street"/"river": the board's corners (never
      changes, shared by copies; ``Board.tracks_of`` groups them by kind).
    * ``hands``: player -> tiles held, or None when the record has no hands.
    * ``cards``: player -> vote cards held (entries at 0 are deleted);
      ``spent_on``: (player, card) -> turn of the vote it was spent in.
    * ``seat``: index into ``players`` of the player to move; ``number``: the number
      of the last turn played (0 before the first).
    * ``due``: (corner, turn) once the first track is finished in an expert game and
      the choice (X2) is not made yet (turn 0: finished from the start);
      ``chosen``: the choice was made.
    * ``squares``: ``covered`` and ``bridges`` by square index (:meth:`grid`), made
      when first asked for; code that changes them other than by laying a tile
      (:func:`.placement.apply_move`) or taking it back (:func:`.turn.unplay`)
      sets it to None.
    """

    __slots__ = ("board", "bridges", "cards", "chosen", "covered", "due", "example", "gangs", "hands", "number",
                 "options", "over", "players", "removed_on", "seat", "spent_on", "squares", "tiles", "track_kind",
                 "variant")

    def __init__(self, board: Board, options: Options, players: tuple[str, ...], variant: Variant,
                 tiles: list[LaidTile], covered: dict[Square, int], bridges: set[Square],
                 gangs: dict[Square, Square | None], track_kind: dict[Square, str],
                 hands: dict[str, Counter[Tile]] | None, cards: dict[str, Counter[str]], seat: int,
                 removed_on: dict[Square, int], spent_on: dict[tuple[str, str], int],
                 number: int = 0, due: tuple[Square, int] | None = None, chosen: bool = False):
        self.board = board
        self.options = options
        self.players = players
        self.variant = variant
        self.tiles = tiles
        self.covered = covered
        self.bridges = bridges
        self.gangs = gangs
        self.track_kind = track_kind
        self.hands = hands
        self.cards = cards
        self.seat = seat
        self.removed_on = removed_on
        self.spent_on = spent_on
        self.number = number
        self.due = due
        self.chosen = chosen
        # (a placement some tile could make,), kept while no tile is laid or taken back
        self.example: tuple[Move | None] | None = None
        self.over: bool | None = None  # E1 (game.game_over), kept as long as example
        self.squares: Grid | None = None

    def copy(self) -> State:
        """An independent snapshot: shallow copies of every mutable container
        (laid tiles are immutable, so the list shares them)."""
        hands = None if self.hands is None else {p: _copy_counter(h) for p, h in self.hands.items()}
        # positional, in __init__'s order: a copy per step of a kept replay or a search, keywords cost 1.8x
        new = State(self.board, self.options, self.players, self.variant, self.tiles.copy(),
                    self.covered.copy(), self.bridges.copy(), self.gangs.copy(), self.track_kind,
                    hands, {p: _copy_counter(c) for p, c in self.cards.items()}, self.seat,
                    self.removed_on.copy(), self.spent_on.copy(), self.number, self.due, self.chosen)
        if self.squares is not None:
            new.squares = self.squares.copy()
        return new

    def grid(self) -> Grid:
        """The covered squares (corners too) and bridge fields by square index, made
        once and then kept in step (see ``squares``)."""
        grid = self.squares
        if grid is None:
            t = tables(self.board)
            w = t.width
            blocked, bridge = t.start_blocked.copy(), [0] * len(t.start_blocked)
            for c, r in self.covered:
                blocked[r * w + c] = 1
            for c, r in self.bridges:
                bridge[r * w + c] = 1
            grid = self.squares = Grid(t, blocked, bridge)
        return grid

    def __reduce__(self) -> tuple[type[State], tuple[Any, ...]]:
        """Pickled by its fields (not the kept answers), so the compiled class, which
        cannot be made without its ``__init__``, pickles as the pure one does."""
        return State, (self.board, self.options, self.players, self.variant, self.tiles, self.covered, self.bridges,
                       self.gangs, self.track_kind, self.hands, self.cards, self.seat, self.removed_on, self.spent_on,
                       self.number, self.due, self.chosen)

    @property
    def to_move(self) -> str:
        """The name of the player whose turn it is."""
        return self.players[self.seat]

    @property
    def toilet_votes(self) -> bool:
        """True when covering a toilet is put to a vote in this game (B1; X5 in the expert variant)."""
        return self.variant == "base" or self.options.expert_voting


def _copy_counter(c: Mapping[K, int]) -> Counter[K]:
    # Counter's __init__ only calls update(), which goes through the Mapping ABC check;
    # an empty instance filled by dict.update is the same Counter, four times faster.
    new: Counter[K] = _NEW(Counter)
    _FILL(new, c)
    return new


_NEW, _FILL = Counter.__new__, dict.update  # looked up once: a class's attribute is looked up anew at each read


def take(counter: Counter[K], key: K) -> None:
    """Remove one ``key`` from ``counter``, deleting the entry when it reaches 0.
    Precondition: ``counter[key] >= 1``."""
    n = counter[key] - 1
    if n:
        counter[key] = n
    else:  # the key is there (it held 1): dict's own pop, not Counter's Python-level delete (nor dict's looked up)
        counter.pop(key)


def new_state(board: Board, options: Options, players: Iterable[str],
              hands: Mapping[str, Mapping[Tile, int]] | None = None, variant: Variant = "base") -> State:
    """The opening position: gangs on their corners (S4), one set of vote cards
    each (S2), ``players[0]`` to move. ``hands`` are copied (the caller's counters
    are never changed); None means the record has no hands."""
    own_hands = None if hands is None else {p: _copy_counter({t: n for t, n in h.items() if n > 0})
                                            for p, h in hands.items()}
    seats = tuple(players)
    # positional, in __init__'s order (as State.copy): one per record replayed, and keywords cost 1.8x
    return State(board, options, seats, variant, [], {}, set(), {c: c for c in board.corners},
                 dict(board.corners), own_hands, {p: _copy_counter(_ONE_SET) for p in seats}, 0, {}, {})


def box_tiles(board: Board) -> Counter[Tile]:
    """The tiles in the board's box, per tile type (``Tile("W", 3): 6`` ...)."""
    return Counter(_box(board))


_BOX = "box"  # Board.memo's key of _box


def _box(board: Board) -> dict[Tile, int]:
    """:func:`box_tiles` as a plain dict, worked out once per board (kept in ``Board.memo``):
    every record's deal is checked against it."""
    box: dict[Tile, int] | None = board.memo.get(_BOX)
    if box is None:
        box = board.memo[_BOX] = {Tile(KIND_LETTER[kind], length): n for kind, counts in board.box.items()
                                  for length, n in zip(LENGTHS, counts, strict=True) if n}
    return box


def deal_for(board: Board, n_players: int) -> dict[int, int] | None:
    """The deal per player (S1) as length -> count, e.g. ``{3: 3, 2: 6, 1: 6}`` for 4
    players and the default box. Keyed by length, not tile type: the deal fixes only
    how many triples, doubles and singles each player draws; their kinds are luck.
    Each player gets the box's total of a length divided by ``n_players``; None when
    a total does not divide evenly (all tiles are dealt, so such a box cannot be)."""
    if n_players < 1:
        return None
    totals = {length: sum(counts[i] for counts in board.box.values()) for i, length in enumerate(LENGTHS)}
    if any(n % n_players for n in totals.values()):
        return None
    return {length: n // n_players for length, n in totals.items()}


def _deal(board: Board, n_players: int) -> dict[int, int] | None:
    """:func:`deal_for`, worked out once per board and player count (kept in ``Board.memo``): every record's
    deal is checked against it."""
    deals: dict[int, dict[int, int] | None] | None = board.memo.get(_DEALS)
    if deals is None:
        deals = board.memo[_DEALS] = {}
    if n_players in deals:
        return deals[n_players]
    deal = deal_for(board, n_players)
    if len(deals) < 8:  # a record lists 2 to 4 hands: bounded all the same, for any other caller
        deals[n_players] = deal
    return deal


_DEALS = "deals"  # Board.memo's key of _deal


def check_deal(board: Board, hands: Mapping[str, Mapping[Tile, int]]) -> list[tuple[str | None, Violation]]:
    """S1: problems with the recorded hands, each with the player it concerns (None
    for the hands as a whole): D002 per player whose counts per length differ from
    :func:`deal_for` (or once when the box cannot be dealt evenly); D003 per tile type
    of which the hands together hold more or fewer than the box."""
    problems: list[tuple[str | None, Violation]] = []
    n = len(hands)
    deal = _deal(board, n)
    if deal is None:
        problems.append((None, Violation("D002", "S1", "uneven-box", {"players": n})))
    total: dict[Tile, int] = {}
    for player, hand in hands.items():  # one pass: each hand's counts per length, and the hands' per tile type
        held: dict[int, int] = {}  # plain dicts here: a Counter costs µs per hand
        for tile, k in hand.items():
            length = tile.length
            held[length] = held.get(length, 0) + k
            total[tile] = total.get(tile, 0) + k
        if deal is not None and held != deal:  # mostly the deal itself: the lengths compared one by one only if not
            wrong = [length for length in LENGTHS if held.get(length, 0) != deal[length]]
            if wrong:
                problems.append((player, Violation("D002", "S1", "wrong-deal", {
                    "player": player, "players": n, "held": {k: held.get(k, 0) for k in wrong},
                    "deal": {k: deal[k] for k in wrong}})))
    box = _box(board)
    if total == box:  # mostly: the whole box dealt; else each tile type is compared, in the box's order
        return problems
    for tile in sorted(box.keys() | total.keys(), key=Tile.order):
        if total.get(tile, 0) != box.get(tile, 0):
            problems.append((None, Violation("D003", "S1", "box-mismatch",
                                             {"tile": tile, "held": total.get(tile, 0), "box": box.get(tile, 0)})))
    return problems
