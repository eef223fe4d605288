"""What one seat may know of a :class:`.table.Table`, as a flat tensor and as text.

The layout (``docs/ai.md`` lists it with offsets) is fixed per board: planes of the
board first (``len(PLANES) + corners`` planes of height x width, row 1 first), then
the features of :data:`FEATURES`. Players are listed relative to the observer (the
observer first, then clockwise), padded to 4 so that every player count has the same
size; every entry lies in [0, 1].

Nothing here reads another player's building or goal card, the faces of a ballot
not yet shown, or the goal card another player keeps: the tests change exactly those
and compare.
"""
from __future__ import annotations

from array import array
from typing import NamedTuple
from weakref import WeakKeyDictionary

import numpy as np

from drunter_notation.ai.table import PHASES, Phase, Table
from drunter_notation.explain.boardtext import render_position
from drunter_notation.notation.model import BUILDINGS, CARD_NAMES, GOALS, Square, Tile
from drunter_notation.rules.board import Board
from drunter_notation.rules.playout import TILES
from drunter_notation.rules.state import LaidTile, box_tiles

SEATS = 4  # players are padded to this many
PLANES = ("wall tile", "street tile", "river tile", "bridge field", "toilet (uncovered)",
          *(f"{b} (uncovered; value / highest value)" for b in BUILDINGS),
          *(f"laid by player +{j}" for j in range(SEATS)), "the placement under vote")
# name, size: the features after the planes (gang planes follow PLANES, one per track)
FEATURES = (("own cards (GOALS one-hot)", len(GOALS)), ("goal card kept (expert)", len(GOALS)),
            ("player present", SEATS), ("tiles in hand (per player; count / box count, TILES order)", SEATS * 9),
            ("vote cards spent (per player; CARD_NAMES order)", SEATS * 8), ("to act", SEATS),
            ("whose turn", SEATS), ("phase (place, ballot, jein, keep, over)", len(PHASES)),
            ("cards laid face down in this vote (per player; count / 8)", SEATS),
            ("own cards laid in this vote", 8), ("ballots shown in this vote (per player)", SEATS * 8),
            ("JEIN declared in this vote (per player; yes, no)", SEATS * 2),
            ("last vote's ballots (per player)", SEATS * 8),
            ("last vote's JEIN sides (per player; yes, no)", SEATS * 2),
            ("last vote's outcome (stands, rejected)", 2), ("last vote's placer", SEATS), ("expert variant", 1))
# Only in the information state: the turn each square was covered on (turn / turns played), and per
# voter and placer, the yes and no votes cast so far (/ 8).
HISTORY = (("turn covered (plane)", 1), ("votes cast (voter, placer; yes, no)", SEATS * SEATS * 2))


def size(board: Board, history: bool = False) -> int:
    """The length of the tensors on ``board``."""
    planes = len(PLANES) + len(board.corners) + (1 if history else 0)
    return planes * board.width * board.height + sum(n for _, n in FEATURES) + (SEATS * SEATS * 2 if history else 0)


OFFSETS = {name: sum(k for _, k in FEATURES[:i]) for i, (name, _) in enumerate(FEATURES)}
# the offsets of the features after the planes, in FEATURES order
(OWN_CARDS, KEPT, PRESENT, HANDS, SPENT, TO_ACT, WHOSE_TURN, PHASE, FACE_DOWN, OWN_LAID, SHOWN, JEIN_SIDES,
 LAST_BALLOTS, LAST_SIDES, LAST_OUTCOME, LAST_PLACER, EXPERT) = OFFSETS.values()
# the planes of PLANES by index: tile kinds, then the fields, the buildings, who laid a tile, the vote's placement
KIND_PLANE = {"W": 0, "S": 1, "R": 2}
BRIDGE, TOILET, FIRST_BUILDING = 3, 4, 5
FIRST_LAID_BY = FIRST_BUILDING + len(BUILDINGS)
UNDER_VOTE = len(PLANES) - 1
SPENDABLE = CARD_NAMES[:-1]  # the ? card comes back (B7): it is never spent


class Layout(NamedTuple):
    """What :func:`tensor` needs of one board, worked out once per board."""

    board: Board
    blank: array[float]  # zeros, the size of a tensor
    start: array[float]  # the first planes (to FIRST_LAID_BY) of the empty board: toilets and buildings uncovered
    static_at: dict[Square, tuple[int, ...]]  # per toilet or building square, its indices in start
    box: tuple[tuple[Tile, int], ...]  # the tiles of TILES with their box count
    cells: int  # width x height
    features: int  # the index of the first feature
    age: int  # with history: the index of the plane of the turns covered
    votes_cast: int  # with history: the index of the votes cast


_LAYOUTS: dict[tuple[int, bool], Layout] = {}


def layout(board: Board, history: bool) -> Layout:
    """The layout of ``board``'s tensors, from a small cache: a board file is read anew for each game."""
    hit = _LAYOUTS.get((id(board), history))
    if hit is not None and hit.board is board:
        return hit
    if len(_LAYOUTS) >= 16:
        _LAYOUTS.clear()
    w, hw = board.width, board.width * board.height
    top = max((v for _, v in board.buildings.values()), default=1) or 1
    start = array("f", bytes(4 * FIRST_LAID_BY * hw))  # array's item assignment is faster than numpy's
    static_at: dict[Square, tuple[int, ...]] = {}
    for c, r in board.toilets:
        i = TOILET * hw + r * w + c
        start[i], static_at[(c, r)] = 1.0, (i,)
    for (c, r), (kind, value) in board.buildings.items():
        if kind in BUILDINGS:
            i = (FIRST_BUILDING + BUILDINGS.index(kind)) * hw + r * w + c
            start[i], static_at[(c, r)] = value / top, (*static_at.get((c, r), ()), i)
    box = box_tiles(board)
    planes = len(PLANES) + len(board.corners) + (1 if history else 0)
    hit = _LAYOUTS[(id(board), history)] = Layout(
        board=board, blank=array("f", bytes(4 * size(board, history))), start=start, static_at=static_at,
        cells=hw, box=tuple((t, box[t]) for t in TILES),
        features=planes * hw, age=(planes - 1) * hw, votes_cast=planes * hw + sum(n for _, n in FEATURES))
    return hit


class Seen:
    """What :func:`tensor` keeps of one table between calls, by seat (not yet relative
    to the observer): the first planes (the tiles laid by kind, the toilets and
    buildings still uncovered; bridges are drawn per call), then who laid the tiles,
    a plane per seat; and per player the row of the tiles in hand and the row of the
    vote cards spent."""

    __slots__ = ("count", "last", "planes", "rows", "turn")

    def __init__(self, planes: array[float]):
        self.count = 0  # the tiles drawn in so far
        self.last: LaidTile | None = None  # the last of them: a changed list starts anew
        self.planes = planes
        self.turn = -1  # the rows are of the position after this many turns
        self.rows: list[tuple[array[float], array[float]]] = []


_SEEN: WeakKeyDictionary[Table, Seen] = WeakKeyDictionary()


def seen(table: Table, lay: Layout) -> Seen:
    """:class:`Seen` of ``table``, brought up to date: tiles are only ever added, so each
    is drawn in once; hands and vote cards change only by a turn played (the table
    plays each through :meth:`Game.push`)."""
    st = table.game.state
    tiles = st.tiles
    seen = _SEEN.get(table)
    if seen is None or len(tiles) < seen.count or (seen.count and tiles[seen.count - 1] is not seen.last):
        seen = _SEEN[table] = Seen(lay.start + array("f", bytes(4 * table.n * lay.cells)))
    if seen.count < len(tiles):
        w, hw, planes, static_at = lay.board.width, lay.cells, seen.planes, lay.static_at
        by = {name: (FIRST_LAID_BY + s) * hw for s, name in enumerate(table.game.players)}
        for k in range(seen.count, len(tiles)):
            laid = tiles[k]
            kind, who = KIND_PLANE[laid.tile.kind] * hw, by[laid.player]
            for c, r in laid.squares:
                planes[kind + r * w + c] = planes[who + r * w + c] = 1.0
                for i in static_at.get((c, r), ()):
                    planes[i] = 0.0  # covered
        seen.count, seen.last = len(tiles), tiles[-1]
    if seen.turn != st.number:
        seen.turn, seen.rows = st.number, _player_rows(table, lay.box)
    return seen


def _player_rows(table: Table, box: tuple[tuple[Tile, int], ...]) -> list[tuple[array[float], array[float]]]:
    """Per seat: the tiles in hand (count / box count, TILES order), the vote cards spent."""
    st = table.game.state
    hands = st.hands
    assert hands is not None  # a table's game is dealt
    return [(array("f", [hands[name].get(tile, 0) / count if count else 0.0 for tile, count in box]),
             array("f", [float(st.cards[name][card] == 0) for card in SPENDABLE])) for name in table.game.players]


def tensor(table: Table, seat: int, history: bool = False) -> np.ndarray[tuple[int], np.dtype[np.float32]]:
    """What ``seat`` knows, as float32 in [0, 1]; with ``history`` also the summary of
    the past (:data:`HISTORY`) the information state adds."""
    board = table.game.board
    lay = layout(board, history)
    v = lay.blank[:]
    n = table.n
    rel = tuple((s - seat) % n for s in range(n))  # seat -> position relative to the observer
    kept = seen(table, lay)
    _board_planes(v, table, rel, lay, kept.planes)
    if history:
        _turns_covered(v, table, lay)
    at = lay.features
    _own_cards(v, at, table, seat)
    _players(v, at, rel, kept.rows)
    _turn(v, at, table, rel)
    _current_vote(v, at, table, seat, rel)
    _last_vote(v, at, table, rel)
    v[at + EXPERT] = float(table.game.variant == "expert")
    if history:
        v[lay.votes_cast:] = array("f", _votes_cast(table, rel))
    return np.frombuffer(v, np.float32)


def _board_planes(v: array[float], table: Table, rel: tuple[int, ...], lay: Layout, laid: array[float]) -> None:
    """The planes: the tiles laid (``laid``: :attr:`Seen.planes`; kind and who, relative), bridges, the toilets and
    buildings still uncovered, the placement under vote and the gangs."""
    st, w, hw = table.game.state, lay.board.width, lay.cells
    first = FIRST_LAID_BY * hw
    v[:first] = laid[:first]
    for s, j in enumerate(rel):
        mine, into = first + s * hw, (FIRST_LAID_BY + j) * hw
        v[into:into + hw] = laid[mine:mine + hw]
    for c, r in st.bridges:
        v[BRIDGE * hw + r * w + c] = 1.0
    if table.move is not None:
        for c, r in table.move.squares:
            v[UNDER_VOTE * hw + r * w + c] = 1.0
    for i, corner in enumerate(table.corners):
        gang = st.gangs[corner]
        if gang is not None:
            v[(len(PLANES) + i) * hw + gang[1] * w + gang[0]] = 1.0


def _turns_covered(v: array[float], table: Table, lay: Layout) -> None:
    """History: the turn each square was covered on, / the turns played."""
    st, w = table.game.state, lay.board.width
    played = max(1, st.number)
    for laid in st.tiles:
        for c, r in laid.squares:
            v[lay.age + r * w + c] = laid.turn / played


def _own_cards(v: array[float], at: int, table: Table, seat: int) -> None:
    for card in table.cards[table.game.players[seat]]:
        v[at + OWN_CARDS + GOALS.index(card)] = 1.0
    if seat in table.keepers:
        v[at + KEPT + GOALS.index(table.keepers[seat])] = 1.0


def _players(v: array[float], at: int, rel: tuple[int, ...], rows: list[tuple[array[float], array[float]]]) -> None:
    """Per player (public): present, the tiles in hand, the vote cards spent."""
    for s, (hand, spent) in enumerate(rows):
        j = rel[s]
        v[at + PRESENT + j] = 1.0
        row = at + HANDS + j * len(TILES)
        v[row:row + len(TILES)] = hand
        row = at + SPENT + j * len(CARD_NAMES)  # a slot per card; the ? card's stays 0
        v[row:row + len(SPENDABLE)] = spent


def _turn(v: array[float], at: int, table: Table, rel: tuple[int, ...]) -> None:
    """Who is to act, whose turn it is, the phase."""
    actor = table.current()
    if actor is not None:
        v[at + TO_ACT + rel[actor]] = 1.0
    v[at + WHOSE_TURN + rel[table.game.state.seat]] = 1.0
    v[at + PHASE + PHASES.index(table.phase)] = 1.0


def _current_vote(v: array[float], at: int, table: Table, seat: int, rel: tuple[int, ...]) -> None:
    """The vote under way: how many cards each voter laid face down, the observer's own
    cards, every face once all are shown (JEIN), the JEIN sides declared."""
    shown = table.phase is Phase.JEIN
    for voter, cards in zip(table.voters, table.laid, strict=False):  # laid: the ballots so far
        v[at + FACE_DOWN + rel[voter]] = len(cards) / 8
        for c in cards:
            if voter == seat:
                v[at + OWN_LAID + c] = 1.0
            if shown:
                v[at + SHOWN + rel[voter] * 8 + c] = 1.0
    for voter, yes in table.sides.items():
        v[at + JEIN_SIDES + rel[voter] * 2 + (0 if yes else 1)] = 1.0


def _last_vote(v: array[float], at: int, table: Table, rel: tuple[int, ...]) -> None:
    last = table.last_vote
    if last is None:
        return
    for voter, cards in last.ballots.items():
        for c in cards:
            v[at + LAST_BALLOTS + rel[voter] * 8 + c] = 1.0
    for voter, yes in last.sides.items():
        v[at + LAST_SIDES + rel[voter] * 2 + (0 if yes else 1)] = 1.0
    v[at + LAST_OUTCOME + (0 if last.accepted else 1)] = 1.0
    v[at + LAST_PLACER + rel[last.placer]] = 1.0


def _votes_cast(table: Table, rel: tuple[int, ...]) -> list[float]:
    """History: per voter and placer, the yes and no votes cast so far (/ 8)."""
    names = table.game.players
    cast = [0.0] * (SEATS * SEATS * 2)
    for d in table.game.decisions:
        if d is not None and d.vote is not None:
            placer = rel[names.index(d.player)]
            for counted in d.vote.tally.cards:
                if counted.side in ("yes", "no"):
                    voter = rel[names.index(counted.player)]
                    cast[(voter * SEATS + placer) * 2 + (counted.side == "no")] += counted.value / 8
    return cast


def text(table: Table, seat: int | None = None) -> str:
    """What ``seat`` knows now (None: what every player knows), in words, then the
    board as ``drunter adjudicate`` prints it."""
    game = table.game
    names, st = game.players, game.state
    lines = [] if seat is None else [f"{names[seat]} holds {' and '.join(table.cards[names[seat]])}"
                                     + (f", keeps {table.keepers[seat]}" if seat in table.keepers else "")]
    actor = table.current()
    lines.append(f"{table.phase.value}: " + ("the game is over" if actor is None else f"{names[actor]} to act"))
    if table.move is not None:
        ballots = []
        for voter, cards in zip(table.voters, table.laid, strict=False):  # laid: the ballots so far
            if voter == seat or table.phase is Phase.JEIN:
                ballots.append(f"{names[voter]} {' '.join(CARD_NAMES[c] for c in cards) or '-'}")
            else:
                ballots.append(f"{names[voter]} {len(cards)} face down")
        sides = [f"{names[voter]} {'yes' if yes else 'no'}" for voter, yes in table.sides.items()]
        lines.append(f"vote on {table.move}: {', '.join(ballots)}" + (f"; JEIN {', '.join(sides)}" if sides else ""))
    return "\n".join(lines) + "\n" + render_position(st)


def history_text(table: Table, seat: int) -> str:
    """Everything ``seat`` has seen, in order (perfect recall): the hands dealt (public,
    S1), its own cards, then every decision -- a face-down vote card or another's kept
    goal card as just that, its face shown once every ballot of the vote is laid."""
    game = table.game
    names, hands = game.players, game.dealt
    assert hands is not None  # a table's game is dealt
    dealt = "; ".join(f"{p} " + " ".join(f"{t}x{k}" for t, k in sorted(hands[p].items(),
                                                                          key=lambda i: i[0].order()) if k)
                      for p in names)
    lines = [f"{game.board.id} {game.ruleset.id} {game.variant} {','.join(names)}; dealt {dealt}",
             f"{names[seat]} holds {' and '.join(table.cards[names[seat]])}"]
    for who, _, hidden, words in table.log:
        if hidden and who != seat:
            words = "lay a card face down" if words.startswith("lay") else "keep a goal card"
        lines.append(f"{names[who]}: {words}")
    return "\n".join(lines)
