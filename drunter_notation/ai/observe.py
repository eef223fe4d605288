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

import numpy as np

from drunter_notation.ai.table import JEIN_PHASE, PHASES, LastVote, Table
from drunter_notation.explain.boardtext import render_position
from drunter_notation.game import Move
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
PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
# zeros to clear a part with (kept: slicing a longer array makes a new one each time)
NO_GOALS, NO_DECISION, NO_LAST_VOTE = (array("f", bytes(4 * n)) for n in (len(GOALS), LAST_BALLOTS - TO_ACT,
                                                                         EXPERT - LAST_BALLOTS))


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
    history: bool


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
        features=planes * hw, age=(planes - 1) * hw, votes_cast=planes * hw + sum(n for _, n in FEATURES),
        history=history)
    return hit


class View:
    """What :func:`tensor` keeps of one table for one observer between calls: the whole
    tensor, brought up to date part by part. Tiles are only ever added (a changed list
    starts anew), so each is drawn in once; hands, vote cards, gangs, the history and
    the last vote change only by a turn played (the table plays each through
    :meth:`Game.push`); what changes with every decision is written anew each call."""

    __slots__ = ("bridges", "by", "count", "gangs", "kept", "last", "last_vote", "lay", "move", "own", "rel", "rows",
                 "seat", "turn", "under_vote", "v")

    def __init__(self, table: Table, seat: int, lay: Layout):
        self.lay, self.seat = lay, seat
        self.rel = tuple((s - seat) % table.n for s in range(table.n))  # seat -> position relative to the observer
        self.by = {name: (FIRST_LAID_BY + self.rel[s]) * lay.cells for s, name in enumerate(table.game.players)}
        self.v = lay.blank
        self.count = self.bridges = 0
        self.last: LaidTile | None = None  # the last tile drawn in
        self.turn = -1  # the parts that change by turns are of the position after this many
        self.gangs: list[int] = []  # the entries of the gangs drawn
        self.under_vote: list[int] = []  # the entries of the placement under vote drawn
        self.move: Move | None = None
        self.last_vote: LastVote | None = None
        self.kept: str | None = None
        self.own: tuple[str, ...] | None = None  # the observer's cards drawn in
        self.rows: list[int] = []
        self._start(table)

    def _start(self, table: Table) -> None:
        """The empty board's planes, the players present and the variant."""
        lay = self.lay
        v = self.v = lay.blank[:]
        v[:FIRST_LAID_BY * lay.cells] = lay.start
        at = lay.features
        for j in self.rel:
            v[at + PRESENT + j] = 1.0
        v[at + EXPERT] = float(table.game.variant == "expert")
        self.count = self.bridges = 0
        self.last, self.turn, self.gangs, self.under_vote, self.move, self.last_vote, self.kept, self.own = (
            None, -1, [], [], None, None, None, None)
        self.rows = [0] * table.n  # per seat, the stamp of the row copied in (Turned.stamps)

    def update(self, table: Table) -> array[float]:
        """The tensor of the table as it stands, a copy of the one kept."""
        st = table.game.state
        tiles = st.tiles
        if self.turn != st.number or (tiles and tiles[-1] is not self.last):  # a turn was played (or taken back)
            self._catch_up(table)
        lay, v, rel = self.lay, self.v, self.rel
        w, hw, at = lay.board.width, lay.cells, lay.features
        if table.last_vote is not self.last_vote:
            self._last_vote(table.last_vote)
        if table.move is not self.move:
            for i in self.under_vote:
                v[i] = 0.0
            self.move = table.move
            self.under_vote = [] if table.move is None else [UNDER_VOTE * hw + r * w + c
                                                              for c, r in table.move.squares]
            for i in self.under_vote:
                v[i] = 1.0
        kept = table.keepers.get(self.seat)
        if kept != self.kept:
            v[at + KEPT:at + KEPT + len(GOALS)] = NO_GOALS
            if kept is not None:
                v[at + KEPT + GOALS.index(kept)] = 1.0
            self.kept = kept
        # the decision: who acts, whose turn, the phase, the vote under way
        v[at + TO_ACT:at + LAST_BALLOTS] = NO_DECISION
        actor = table.current()
        if actor is not None:
            v[at + TO_ACT + rel[actor]] = 1.0
        v[at + WHOSE_TURN + rel[st.seat]] = 1.0
        v[at + PHASE + PHASE_INDEX[table.phase]] = 1.0
        if table.voters or table.sides:  # the sides stay until the next vote
            self._current_vote(table)
        return v[:]

    def _catch_up(self, table: Table) -> None:
        """What a turn changes: the tiles laid, the bridges, the rest by :meth:`_turn_played`."""
        st = table.game.state
        tiles, bridges = st.tiles, st.bridges
        count = self.count
        if len(tiles) < count or (count and tiles[count - 1] is not self.last) or len(bridges) < self.bridges:
            self._start(table)
        if self.count < len(tiles):
            self._draw_tiles(tiles)
        if len(bridges) != self.bridges:  # bridges come with tiles, so they only grow while these do
            v, w, hw = self.v, self.lay.board.width, self.lay.cells
            for c, r in bridges:
                v[BRIDGE * hw + r * w + c] = 1.0
            self.bridges = len(bridges)
        self._turn_played(table)

    def _draw_tiles(self, tiles: list[LaidTile]) -> None:
        """The tiles laid since the last call: kind, who laid it (relative), toilets and buildings covered."""
        lay, v, by = self.lay, self.v, self.by
        w, hw, static_at = lay.board.width, lay.cells, lay.static_at
        for k in range(self.count, len(tiles)):
            laid = tiles[k]
            kind, who = KIND_PLANE[laid.tile.kind] * hw, by[laid.player]
            for c, r in laid.squares:
                v[kind + r * w + c] = v[who + r * w + c] = 1.0
                for i in static_at.get((c, r), ()):
                    v[i] = 0.0  # covered
        self.count, self.last = len(tiles), tiles[-1]

    def _turn_played(self, table: Table) -> None:
        """What changes by a turn: the gangs, the own cards, the hands and vote cards spent,
        and with the history the turns covered and the votes cast."""
        lay, v, rel = self.lay, self.v, self.rel
        st, w, at = table.game.state, lay.board.width, lay.features
        shared = turned(table, lay)
        if shared.gangs != self.gangs:
            for i in self.gangs:
                v[i] = 0.0
            for i in shared.gangs:
                v[i] = 1.0
            self.gangs = shared.gangs
        own = table.cards[table.game.players[self.seat]]
        if own is not self.own:
            v[at + OWN_CARDS:at + OWN_CARDS + len(GOALS)] = NO_GOALS
            for card in own:
                v[at + OWN_CARDS + GOALS.index(card)] = 1.0
            self.own = own
        copied = self.rows
        for s, stamp in enumerate(shared.stamps):
            if stamp != copied[s]:  # only the rows worked out again since the last copy
                hand, spent = shared.rows[s]
                row = at + HANDS + rel[s] * len(TILES)
                v[row:row + len(TILES)] = hand
                row = at + SPENT + rel[s] * len(CARD_NAMES)  # a slot per card; the ? card's stays 0
                v[row:row + len(SPENDABLE)] = spent
                copied[s] = stamp
        if lay.history:  # the history: the turn each square was covered on, / the turns played
            played = max(1, st.number)
            for laid in st.tiles:
                for c, r in laid.squares:
                    v[lay.age + r * w + c] = laid.turn / played
            v[lay.votes_cast:] = array("f", _votes_cast(table, rel))
        self.turn = st.number

    def _last_vote(self, last: LastVote | None) -> None:
        v, rel, at = self.v, self.rel, self.lay.features
        v[at + LAST_BALLOTS:at + EXPERT] = NO_LAST_VOTE
        self.last_vote = last
        if last is None:
            return
        for voter, cards in last.ballots.items():
            for c in cards:
                v[at + LAST_BALLOTS + rel[voter] * 8 + c] = 1.0
        for voter, yes in last.sides.items():
            v[at + LAST_SIDES + rel[voter] * 2 + (0 if yes else 1)] = 1.0
        v[at + LAST_OUTCOME + (0 if last.accepted else 1)] = 1.0
        v[at + LAST_PLACER + rel[last.placer]] = 1.0

    def _current_vote(self, table: Table) -> None:
        """The vote under way: how many cards each voter laid face down, the observer's own
        cards, every face once all are shown (JEIN), the JEIN sides declared."""
        v, rel, at, seat = self.v, self.rel, self.lay.features, self.seat
        shown = table.phase is JEIN_PHASE
        for voter, cards in zip(table.voters, table.laid, strict=False):  # laid: the ballots so far
            v[at + FACE_DOWN + rel[voter]] = len(cards) / 8
            for c in cards:
                if voter == seat:
                    v[at + OWN_LAID + c] = 1.0
                if shown:
                    v[at + SHOWN + rel[voter] * 8 + c] = 1.0
        for voter, yes in table.sides.items():
            v[at + JEIN_SIDES + rel[voter] * 2 + (0 if yes else 1)] = 1.0


class Turned:
    """What the views of a table share, worked out once per turn played (``turn``: the
    turns played then): per seat the row of the tiles in hand and the row of the vote
    cards spent, each worked out again only when the hand or the cards differ and then
    given a new stamp, so that each view copies in only the rows that changed; and the
    entries of the gangs in the gang planes."""

    __slots__ = ("gangs", "held", "rows", "stamps", "turn")

    def __init__(self, n: int) -> None:
        self.turn = -1
        self.held: list[tuple[dict[Tile, int], dict[str, int]] | None] = [None] * n  # the hand and cards of a row
        self.rows: list[tuple[array[float], array[float]]] = [(array("f"), array("f"))] * n
        self.stamps = [0] * n  # 0: not worked out yet
        self.gangs: list[int] = []


def turned(table: Table, lay: Layout) -> Turned:
    """:class:`Turned` of ``table``, brought up to date."""
    st = table.game.state
    kept = table.views.get("turned")
    if not isinstance(kept, Turned):
        kept = table.views["turned"] = Turned(table.n)
    if kept.turn == st.number:
        return kept
    hands, cards, box, same = st.hands, st.cards, lay.box, dict.__eq__  # dict's own ==: Counter's is Python's
    assert hands is not None  # a table's game is dealt
    for s, name in enumerate(table.game.players):
        hand, held, was = hands[name], cards[name], kept.held[s]
        if was is None or same(was[0], hand) is not True or same(was[1], held) is not True:
            kept.held[s] = (dict(hand), dict(held))
            kept.rows[s] = (array("f", [hand.get(tile, 0) / count if count else 0.0 for tile, count in box]),
                            array("f", [0.0 if held.get(card) else 1.0 for card in SPENDABLE]))
            kept.stamps[s] = max(kept.stamps) + 1
    w, hw = lay.board.width, lay.cells
    gangs = [st.gangs[corner] for corner in table.corners]
    kept.gangs = [(len(PLANES) + t) * hw + gang[1] * w + gang[0] for t, gang in enumerate(gangs) if gang is not None]
    kept.turn = st.number
    return kept


def tensor(table: Table, seat: int, history: bool = False) -> np.ndarray[tuple[int], np.dtype[np.float32]]:
    """What ``seat`` knows, as float32 in [0, 1]; with ``history`` also the summary of
    the past (:data:`HISTORY`) the information state adds."""
    view = table.views.get((seat, history))
    if not isinstance(view, View):
        view = table.views[(seat, history)] = View(table, seat, layout(table.game.board, history))
    return np.frombuffer(view.update(table), np.float32)


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
            if voter == seat or table.phase is JEIN_PHASE:
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
