"""Placement rules A1–A7 (DN-SPEC §1): where a tile may go, laying it, trapped gangs.

Geometry: a gang on square G extends its track in one of the four directions d.
The anchor of the new tile is G+d, or (A6) the square beyond a run of bridge fields
starting at G+d -- one bridge field, or several in a row when
``options.bridge_runs``. The tile then runs on from its anchor in direction d.
A square is *free* when it is on the board, not a corner and not covered; toilets
are free (covering one is legal, and put to a vote by rule B).

Hot paths (:func:`check_placement`, :func:`apply_move`, :func:`has_legal_move`,
:func:`game_over`) use plain tuples, sets and dicts; nothing is copied.
"""
from __future__ import annotations

from typing import NamedTuple

from drunter_notation.rules.board import DIRECTIONS
from drunter_notation.notation.model import KIND_LETTER, KINDS, Square, Tile, square_name
from drunter_notation.rules.state import LENGTH_WORDS, LaidTile, State, Violation, take

ALL_TILES = tuple(Tile(k, n) for k in KINDS for n in (1, 2, 3))
DIRECTION_NAMES = {(0, 1): "north", (1, 0): "east", (0, -1): "south", (-1, 0): "west"}
_UNLIMITED = 1 << 30  # bridge-run limit standing for "any number"


class Move(NamedTuple):
    """A legal placement: ``squares`` anchor first; ``corner`` the track it extends;
    ``direction`` the step from gang to anchor (for a single: the side it was laid
    at); ``toilets`` the toilet squares it covers; ``bridges_passed`` how many bridge
    fields lie between the gang and the anchor (A6)."""

    tile: Tile
    squares: tuple[Square, ...]
    corner: Square
    direction: Square
    toilets: tuple[Square, ...]
    bridges_passed: int


def _bridge_limit(state: State) -> int:
    # A6: how many bridge fields in a row one placement may pass under.
    return _UNLIMITED if state.options.bridge_runs else 1


def _ways(state: State, gang: Square) -> list[tuple[Square, Square, int]]:
    """Per direction d, where a track from ``gang`` could go on: (square, d, passed) with
    ``square`` the first square from ``gang`` in direction d that is not a bridge field
    the track may pass under (A6), and ``passed`` the bridge fields between. The
    square may be off the board or covered (a bridge field at the ruleset's limit)."""
    bridges = state.bridges
    limit = _bridge_limit(state)
    gc, gr = gang
    out = []
    for d in DIRECTIONS:
        dc, dr = d
        c, r, passed = gc + dc, gr + dr, 0
        while passed < limit and (c, r) in bridges:
            c, r, passed = c + dc, r + dr, passed + 1
        out.append(((c, r), d, passed))
    return out


def reachable_anchors(state: State, corner: Square) -> list[tuple[Square, Square, int]]:
    """(anchor, direction, bridges_passed) of every square a tile may start on to
    extend the track from ``corner`` (A2, A6), in DIRECTIONS order, nearest first.

    Geometric only: an anchor may be covered or a corner (a placement there then
    fails A004/A005). Beyond a square that is a bridge field the next square is
    listed too, with ``bridges_passed`` one higher, while the ruleset allows that
    many bridges in a row. Empty for a removed gang."""
    gang = state.gangs[corner]
    if gang is None:
        return []
    out = []
    for (c, r), (dc, dr), passed in _ways(state, gang):
        # the bridge fields passed are anchors too (covered ones: A004 if used)
        out.extend(((gang[0] + k * dc, gang[1] + k * dr), (dc, dr), k - 1) for k in range(1, passed + 1))
        if state.board.on_board((c, r)):
            out.append(((c, r), (dc, dr), passed))
    return out


def _reaches(state: State, gang: Square, anchor: Square, direction: Square | None) -> list[tuple[Square, int]]:
    """(direction, bridges_passed) of every way ``gang`` reaches ``anchor``, any number
    of bridges in a row (the caller applies the ruleset's limit); only ``direction``
    when given. Walks back from the anchor, so it costs O(1) per direction."""
    bridges = state.bridges
    ac, ar = anchor
    out = []
    for d in DIRECTIONS if direction is None else (direction,):
        dc, dr = d
        sq, passed = (ac - dc, ar - dr), 0
        while sq != gang:
            if sq not in bridges:
                break
            sq, passed = (sq[0] - dc, sq[1] - dr), passed + 1
        else:
            out.append((d, passed))
    return out


def _free_run(state: State, anchor: Square, d: Square, cap: int) -> int:
    """How many free squares (up to ``cap``) run from ``anchor`` in direction ``d``."""
    board, covered = state.board, state.covered
    corners, width, height = board.corners, board.width, board.height
    (c, r), (dc, dr) = anchor, d
    n = 0
    while n < cap and 0 <= c < width and 0 <= r < height:
        sq = (c, r)
        if sq in covered or sq in corners:
            break
        n, c, r = n + 1, c + dc, r + dr
    return n


def _longest(state: State, corner: Square, dry: bool, cap: int = 3) -> int:
    """The longest tile (up to ``cap``) that fits at the live track from ``corner`` now.

    With ``dry`` a toilet ends a run (placements onto toilets not counted). The hot
    path of A5, Legezwang, the end of the game and X2: :func:`_ways` and
    :func:`_free_run` fused into one loop, since it runs for every gang on every turn."""
    board, covered, bridges = state.board, state.covered, state.bridges
    corners, width, height = board.corners, board.width, board.height
    toilets = board.toilets if dry else ()
    limit = _bridge_limit(state)
    gc, gr = state.gangs[corner]
    best = 0
    for dc, dr in DIRECTIONS:
        c, r, passed = gc + dc, gr + dr, 0
        while passed < limit and (c, r) in bridges:
            c, r, passed = c + dc, r + dr, passed + 1
        n = 0
        while n < cap and 0 <= c < width and 0 <= r < height:
            sq = (c, r)
            if sq in covered or sq in corners or sq in toilets:
                break
            n, c, r = n + 1, c + dc, r + dr
        if n > best:
            best = n
            if best == cap:
                break
    return best


def _dry(state: State) -> bool:
    # T2/E1: placements onto toilets don't count for Legezwang only when the ruleset
    # says so and a vote would be held on them; without a vote a toilet is a plain square.
    return state.toilet_votes and not state.options.toilet_counts_for_legezwang


def _spell(tile: Tile, squares: tuple[Square, ...]) -> str:
    """``W3 b1-d1`` / ``W1 c7``: a tile as a record writes it."""
    if len(squares) == 1:
        return f"{tile} {square_name(squares[0])}"
    return f"{tile} {square_name(squares[0])}-{square_name(squares[-1])}"


def _track(state: State, corner: Square) -> str:
    return f"the {state.track_kind[corner]} from {square_name(corner)}"


def _names(squares) -> str:
    names = [square_name(s) for s in squares]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def check_placement(state: State, tile: Tile, anchor: Square, end: Square | None = None,
                    corner: Square | None = None) -> Move | Violation:
    """Judge laying ``tile`` from ``anchor`` to ``end`` (None for a single), optionally
    on the track from ``corner``. Returns the :class:`Move`, or the first
    :class:`Violation` in DN-SPEC §3 order: A002 shape, A003 board edge, A006 bad
    ``corner``, A001 no gang reaches it (A002 for a reversed or sideways tile; rule A6
    when only a longer bridge run than allowed would reach; rule A1 when only a gang
    of another kind would), A005 corner covered, A004 overlap, A006 two tracks fit.
    Does not look at hands or votes. A single ``c7-c7`` is accepted as ``c7``."""
    board = state.board
    length = tile.length
    # A002: a straight line of the tile's length, written anchor first.
    if length == 1:
        if end is not None and end != anchor:
            return Violation("A002", "A3", f"{tile} covers one square, but {square_name(anchor)}-"
                             f"{square_name(end)} names two; write {tile} {square_name(anchor)}")
        squares, direction = (anchor,), None
    else:
        if end is None or end == anchor:
            return Violation("A002", "A3", f"{tile} {square_name(anchor)} names one square, but a "
                             f"{LENGTH_WORDS[length][0]} covers {length} squares: write its anchor and end "
                             f"square, {tile} {square_name(anchor)}-…")
        dc, dr = end[0] - anchor[0], end[1] - anchor[1]
        if (dc and dr) or abs(dc + dr) != length - 1:
            return Violation("A002", "A3", f"{tile} {square_name(anchor)}-{square_name(end)} is not a "
                             f"straight line of {length} squares")
        direction = ((dc > 0) - (dc < 0), (dr > 0) - (dr < 0))
        if length == 2:
            squares = (anchor, end)
        else:
            squares = (anchor, (anchor[0] + direction[0], anchor[1] + direction[1]), end)
    # A003: on the board.
    for sq in squares:
        if not board.on_board(sq):
            last = square_name((board.width - 1, board.height - 1))
            return Violation("A003", "A3", f"{_spell(tile, squares)} runs off the board at "
                             f"{square_name(sq)}; the board spans a1 to {last}", square=sq)
    # A006: an explicit @corner must name a live track of the tile's kind.
    kind = KINDS[tile.kind]
    gangs = state.gangs
    if corner is not None:
        problem = _bad_corner(state, kind, corner)
        if problem is not None:
            return Violation("A006", "A2", f"{_spell(tile, squares)} @{square_name(corner)}: {problem}",
                             square=corner)
        candidates = (corner,)
    else:
        # (list comprehensions, not generators, on this per-turn path: no frame resumed per item)
        candidates = tuple([c for c, k in state.track_kind.items() if k == kind and gangs[c] is not None])
    # A001: a gang of this kind reaches the anchor, the tile running away from it.
    limit = _bridge_limit(state)
    fits, too_far = [], None
    for c in candidates:
        for d, passed in _reaches(state, gangs[c], anchor, direction):
            if passed <= limit:
                fits.append((c, d, passed))
            else:
                too_far = (c, d, passed)
    if not fits:
        return _no_fit(state, tile, squares, direction, candidates, too_far)
    # A005 (rule A7): corners are never covered.
    for sq in squares:
        if sq in board.corners:
            return Violation("A005", "A7", f"{_spell(tile, squares)} would cover the corner "
                             f"{square_name(sq)}; corners are never built over", square=sq)
    # A004: no overlap.
    covered = state.covered
    for sq in squares:
        if sq in covered:
            laid = state.tiles[covered[sq]]
            return Violation("A004", "A3", f"{_spell(tile, squares)} overlaps the {laid.tile.kind_name} "
                             f"tile laid on turn {laid.turn} at {square_name(sq)}",
                             other_turn=laid.turn, square=sq)
    # A006: only one track may fit (two wall gangs can both touch a single's square).
    if len(fits) > 1:
        spelled, corners = _spell(tile, squares), [square_name(c) for c, _, _ in fits]
        tracks = " and ".join(_track(state, c) for c, _, _ in fits)
        return Violation("A006", "A2", f"{spelled} fits both {tracks}; write @{' or @'.join(corners)}",
                         square=anchor)
    c, d, passed = fits[0]
    toilets = board.toilets
    return Move(tile, squares, c, d, tuple([sq for sq in squares if sq in toilets]), passed)


def _bad_corner(state: State, kind: str, corner: Square) -> str | None:
    """Why ``@corner`` cannot take a tile of ``kind``, or None."""
    if corner not in state.track_kind:
        return f"{square_name(corner)} is not a corner; tracks start at {_names(state.track_kind)}"
    if state.track_kind[corner] != kind:
        return f"{square_name(corner)} starts the {state.track_kind[corner]}, not a {kind}"
    if state.gangs[corner] is None:
        return f"{_track(state, corner)} is finished: its gang was removed on turn {state.removed_on[corner]}"
    return None


def _no_fit(state: State, tile: Tile, squares, direction, candidates, too_far) -> Violation:
    """The A001/A002 verdict when no candidate gang reaches the anchor properly, most
    telling first: no live track of the kind; a bridge run too long (A6); the other
    track of the kind would take it (a wrong @corner); reversed or sideways (A002);
    only a gang of another kind is there (A1); else plainly too far from every gang."""
    spelled = _spell(tile, squares)
    anchor = squares[0]
    kind = KINDS[tile.kind]
    gangs = state.gangs
    limit = _bridge_limit(state)
    if not candidates:
        return Violation("A001", "A2", f"{spelled}: no {kind} track is live any more "
                         f"(every {kind} gang has been removed)", square=anchor)
    if too_far is not None:
        c, d, passed = too_far
        under = [(gangs[c][0] + k * d[0], gangs[c][1] + k * d[1]) for k in range(1, passed + 1)]
        return Violation("A001", "A6", f"{spelled} would pass under {passed} bridge fields in a row "
                         f"({_names(under)}) from the {kind} gang on {square_name(gangs[c])}; under this "
                         "ruleset a track passes under one bridge field at a time", square=anchor)
    others = [(c, g) for c, g in gangs.items()
              if g is not None and c not in candidates
              and any(p <= limit for _, p in _reaches(state, g, anchor, direction))]
    for c, _ in others:
        if state.track_kind[c] == kind:  # only when @corner named the other track of this kind
            return Violation("A001", "A2", f"{_track(state, candidates[0])} cannot take {spelled}; "
                             f"{_track(state, c)} can: write @{square_name(c)}", square=anchor)
    if direction is not None:
        back = (-direction[0], -direction[1])
        for c in candidates:
            if any(p <= limit for _, p in _reaches(state, gangs[c], squares[-1], back)):
                return Violation("A002", "A3", f"{spelled} is reversed: its anchor square must touch "
                                 f"the gang on {square_name(gangs[c])}; write "
                                 f"{_spell(tile, squares[::-1])}", square=anchor)
        for c in candidates:
            for d, p in _reaches(state, gangs[c], anchor, None):
                if p <= limit:
                    return Violation("A002", "A3", f"{spelled} runs {DIRECTION_NAMES[direction]} from "
                                     f"{square_name(anchor)}, but a tile laid there runs "
                                     f"{DIRECTION_NAMES[d]}, away from the gang on {square_name(gangs[c])}",
                                     square=anchor)
    if others:
        c, g = others[0]
        return Violation("A001", "A1", f"{spelled}: {square_name(anchor)} is at the {state.track_kind[c]} "
                         f"gang on {square_name(g)}, but a {kind} tile only extends a {kind}", square=anchor)
    at = _names(gangs[c] for c in candidates)
    return Violation("A001", "A2", f"{spelled}: no {kind} gang reaches {square_name(anchor)}; "
                     f"a {kind} tile must start next to a {kind} gang, and the {kind} "
                     f"{'gang stands' if len(candidates) == 1 else 'gangs stand'} on {at}", square=anchor)


def legal_moves(state: State, player: str | None = None, tiles=None) -> list[Move]:
    """Every legal placement for ``player`` (default: the player to move), by track
    (board corner order), direction, anchor, tile (kind, length). ``tiles``: the tile
    types to try; default the player's hand when hands are known, else every tile
    type. Includes placements covering toilets (legal, subject to the vote); a
    single reachable from both wall gangs appears once per track. Does not check
    whose turn it is."""
    if tiles is None:
        if state.hands is not None:
            tiles = [t for t, n in state.hands[player or state.to_move].items() if n > 0]
        else:
            tiles = ALL_TILES
    by_kind: dict[str, list[Tile]] = {}
    for t in sorted(set(tiles)):
        by_kind.setdefault(KINDS[t.kind], []).append(t)
    toilets = state.board.toilets
    moves = []
    for corner, kind in state.track_kind.items():
        mine = by_kind.get(kind)
        if not mine or state.gangs[corner] is None:
            continue
        longest = max(t.length for t in mine)
        # only the first square past the bridges can start a tile: the others are covered
        for anchor, (dc, dr), passed in _ways(state, state.gangs[corner]):
            run = _free_run(state, anchor, (dc, dr), longest)
            if not run:
                continue
            line = tuple((anchor[0] + k * dc, anchor[1] + k * dr) for k in range(run))
            for t in mine:
                if t.length <= run:
                    squares = line[:t.length]
                    moves.append(Move(t, squares, corner, (dc, dr),
                                      tuple(sq for sq in squares if sq in toilets), passed))
    return moves


_TILES_BY_KIND = {letter: tuple(Tile(letter, n) for n in (1, 2, 3)) for letter in KINDS}


def _shortest(hands, letter: str) -> int | None:
    """The length of the shortest tile of kind ``letter`` in any of ``hands``, None when
    none holds one; 1 when ``hands`` is None (hands not recorded: any tile may be held)."""
    if hands is None:
        return 1
    for tile in _TILES_BY_KIND[letter]:
        for hand in hands:
            if hand.get(tile, 0) > 0:
                return tile.length
    return None


def _can_extend(state: State, corner: Square, hands, dry: bool) -> bool:
    """Some tile in ``hands`` (None: any tile) has a legal placement at the track from ``corner``."""
    if state.gangs[corner] is None:
        return False
    need = _shortest(hands, KIND_LETTER[state.track_kind[corner]])
    return need is not None and _longest(state, corner, dry, need) >= need


def has_legal_move(state: State, player: str, for_legezwang: bool = True) -> bool:
    """Whether ``player`` has any legal placement (any tile type when hands are not
    known). With ``for_legezwang`` (T2/E1), placements that cover a toilet do not
    count when ``options.toilet_counts_for_legezwang`` is off and such a placement
    would be voted on. Short-circuits; no Move is built."""
    dry = for_legezwang and _dry(state)
    hands = None if state.hands is None else (state.hands[player],)
    return any(_can_extend(state, corner, hands, dry) for corner in state.gangs)


def game_over(state: State) -> bool:
    """E1: no player has a legal placement (counted as for Legezwang). Without hands:
    no tile of any kind fits at any live track."""
    players = state.players if state.hands is not None else state.players[:1]
    return not any(has_legal_move(state, p) for p in players)


def track_finished(state: State, corner: Square) -> bool:
    """X2: the track from ``corner`` is finished -- its gang was removed, or no player
    holds a tile of its kind that has a legal placement there (counted as for
    Legezwang). Without hands only removal counts (the replay warns W001)."""
    if state.hands is None:
        return state.gangs[corner] is None
    return not _can_extend(state, corner, tuple(state.hands.values()), _dry(state))


def apply_move(state: State, move: Move, turn: int, player: str) -> list[Square]:
    """Lay ``move`` on turn ``turn`` for ``player``: cover its squares, record its
    bridge field (A6), move the gang to the end square (A4), take the tile from the
    player's hand (when hands are known), then remove trapped gangs (A5). Returns the
    corners whose gangs were removed. Precondition: ``move`` came from
    :func:`check_placement` or :func:`legal_moves` on this position and the player
    holds the tile. Does not advance the seat."""
    squares = move.squares
    index = len(state.tiles)
    state.tiles.append(LaidTile(move.tile, squares, move.corner, turn, player))
    covered = state.covered
    for sq in squares:
        covered[sq] = index
    if len(squares) == 3:
        state.bridges.add(squares[1])
    state.gangs[move.corner] = squares[-1]
    if state.hands is not None:
        take(state.hands[player], move.tile)
    return a5_remove_trapped_gangs(state, turn)


def a5_remove_trapped_gangs(state: State, turn: int) -> list[Square]:
    """A5: remove every live gang (not only the one just moved) with no free square
    to go on to, counting ways under bridges (A6, within the ruleset's bridge runs).
    With ``options.trap_counts_edge`` off (Webley: a gang goes only when the squares
    around it are covered *with tiles*) a gang on an edge square is never removed:
    it stays, stuck, with no legal placement. Records the turn in ``removed_on``;
    returns the corners whose gangs were removed, in board corner order."""
    board = state.board
    last_col, last_row = board.width - 1, board.height - 1
    removed = []
    for corner, gang in state.gangs.items():
        if gang is None or _longest(state, corner, False, 1):
            continue
        if not state.options.trap_counts_edge and (gang[0] in (0, last_col) or gang[1] in (0, last_row)):
            continue
        removed.append(corner)
    for corner in removed:
        state.gangs[corner] = None
        state.removed_on[corner] = turn
    return removed
