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

import numpy as np

from drunter_notation.ai.table import PHASES, Phase, Table
from drunter_notation.explain.boardtext import render_position
from drunter_notation.notation.model import BUILDINGS, CARD_NAMES, GOALS
from drunter_notation.rules.board import Board
from drunter_notation.rules.playout import TILES
from drunter_notation.rules.state import box_tiles

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
            ("last vote's ballots (per player)", SEATS * 8), ("last vote's JEIN sides (per player; yes, no)", SEATS * 2),
            ("last vote's outcome (stands, rejected)", 2), ("last vote's placer", SEATS), ("expert variant", 1))
# Only in the information state: the turn each square was covered on (turn / turns played), and per
# voter and placer, the yes and no votes cast so far (/ 8).
HISTORY = (("turn covered (plane)", 1), ("votes cast (voter, placer; yes, no)", SEATS * SEATS * 2))


def size(board: Board, history: bool = False) -> int:
    """The length of the tensors on ``board``."""
    planes = len(PLANES) + len(board.corners) + (1 if history else 0)
    return planes * board.width * board.height + sum(n for _, n in FEATURES) + (SEATS * SEATS * 2 if history else 0)


_STATIC: dict[int, tuple] = {}


def _static(board: Board) -> tuple:
    """Per board, once: (toilets as (square, flat index)), (buildings as (square, flat index,
    value / highest value)), the box count per tile of TILES."""
    hit = _STATIC.get(id(board))
    if hit is None or hit[0] is not board:
        if len(_STATIC) >= 16:  # a board file is read anew for each game: keep the cache bounded
            _STATIC.clear()
        w, hw = board.width, board.width * board.height
        top = max((v for _, v in board.buildings.values()), default=1) or 1
        toilets = tuple(((c, r), 4 * hw + r * w + c) for c, r in sorted(board.toilets))
        buildings = tuple(((c, r), (5 + BUILDINGS.index(kind)) * hw + r * w + c, value / top)
                          for (c, r), (kind, value) in board.buildings.items() if kind in BUILDINGS)
        box = box_tiles(board)
        hit = _STATIC[id(board)] = (board, toilets, buildings, tuple(box[t] for t in TILES))
    return hit[1:]


OFFSETS = {name: sum(k for _, k in FEATURES[:i]) for i, (name, _) in enumerate(FEATURES)}
_KIND_PLANE = {"W": 0, "S": 1, "R": 2}


def tensor(table: Table, seat: int, history: bool = False) -> np.ndarray:
    """What ``seat`` knows, as float32 in [0, 1]; with ``history`` also the summary of
    the past (:data:`HISTORY`) the information state adds."""
    game, board, n = table.game, table.game.board, table.n
    st, names = game.state, game.players
    w, hw = board.width, board.width * board.height
    toilets, buildings, box = _static(board)
    rel = {(seat + j) % n: j for j in range(n)}  # seat -> position relative to the observer
    n_planes = len(PLANES) + len(table.corners) + (1 if history else 0)
    v = array("f", bytes(4 * (n_planes * hw + sum(k for _, k in FEATURES))))  # numpy's item assignment is slower
    covered = st.covered
    age = hw * (n_planes - 1)
    for laid in st.tiles:
        kind, who = _KIND_PLANE[laid.tile.kind] * hw, (11 + rel[names.index(laid.player)]) * hw
        for c, r in laid.squares:
            v[kind + r * w + c] = v[who + r * w + c] = 1.0
            if history:
                v[age + r * w + c] = laid.turn / max(1, st.number)
    for c, r in st.bridges:
        v[3 * hw + r * w + c] = 1.0
    for sq, i in toilets:
        if sq not in covered:
            v[i] = 1.0
    for sq, i, value in buildings:
        if sq not in covered:
            v[i] = value
    if table.move is not None:
        for c, r in table.move.squares:
            v[(len(PLANES) - 1) * hw + r * w + c] = 1.0
    for i, corner in enumerate(table.corners):
        g = st.gangs[corner]
        if g is not None:
            v[(len(PLANES) + i) * hw + g[1] * w + g[0]] = 1.0

    o = {name: n_planes * hw + off for name, off in OFFSETS.items()}
    f = [o[name] for name, _ in FEATURES]
    for card in game.cards[names[seat]]:
        v[f[0] + GOALS.index(card)] = 1.0
    if seat in table.keepers:
        v[f[1] + GOALS.index(table.keepers[seat])] = 1.0
    for s, j in rel.items():
        v[f[2] + j] = 1.0
        hand = st.hands[names[s]]
        for t, tile in enumerate(TILES):
            if box[t]:
                v[f[3] + j * 9 + t] = hand.get(tile, 0) / box[t]
        held = st.cards[names[s]]
        for c, card in enumerate(CARD_NAMES[:-1]):  # the ? card comes back (B7)
            v[f[4] + j * 8 + c] = float(held[card] == 0)
    actor = table.current()
    if actor is not None:
        v[f[5] + rel[actor]] = 1.0
    v[f[6] + rel[st.seat]] = 1.0
    v[f[7] + PHASES.index(table.phase)] = 1.0
    shown = table.phase is Phase.JEIN
    for voter, cards in zip(table.voters, table.laid):
        v[f[8] + rel[voter]] = len(cards) / 8
        for c in cards:
            if voter == seat:
                v[f[9] + c] = 1.0
            if shown:
                v[f[10] + rel[voter] * 8 + c] = 1.0
    for voter, yes in table.sides.items():
        v[f[11] + rel[voter] * 2 + (0 if yes else 1)] = 1.0
    if table.last_vote is not None:
        ballots, sides, accepted, placer = table.last_vote
        for voter, cards in ballots.items():
            for c in cards:
                v[f[12] + rel[voter] * 8 + c] = 1.0
        for voter, yes in sides.items():
            v[f[13] + rel[voter] * 2 + (0 if yes else 1)] = 1.0
        v[f[14] + (0 if accepted else 1)] = 1.0
        v[f[15] + rel[placer]] = 1.0
    v[f[16]] = float(game.variant == "expert")
    if history:
        cast = [0.0] * (SEATS * SEATS * 2)
        for d in game.decisions:
            if d is not None and d.vote is not None:
                placer = rel[names.index(d.player)]
                for counted in d.vote.tally.cards:
                    if counted.side in ("yes", "no"):
                        cast[(rel[names.index(counted.player)] * SEATS + placer) * 2 + (counted.side == "no")] += \
                            counted.value / 8
        v.extend(cast)
    return np.frombuffer(v, np.float32)


def text(table: Table, seat: int | None = None) -> str:
    """What ``seat`` knows now (None: what every player knows), in words, then the
    board as ``drunter adjudicate`` prints it."""
    game = table.game
    names, st = game.players, game.state
    lines = [] if seat is None else [f"{names[seat]} holds {' and '.join(game.cards[names[seat]])}"
                                     + (f", keeps {table.keepers[seat]}" if seat in table.keepers else "")]
    actor = table.current()
    lines.append(f"{table.phase.value}: " + ("the game is over" if actor is None else f"{names[actor]} to act"))
    if table.move is not None:
        ballots = []
        for v, cards in zip(table.voters, table.laid):
            if v == seat or table.phase is Phase.JEIN:
                ballots.append(f"{names[v]} {' '.join(CARD_NAMES[c] for c in cards) or '-'}")
            else:
                ballots.append(f"{names[v]} {len(cards)} face down")
        sides = [f"{names[v]} {'yes' if yes else 'no'}" for v, yes in table.sides.items()]
        lines.append(f"vote on {table.move}: {', '.join(ballots)}" + (f"; JEIN {', '.join(sides)}" if sides else ""))
    return "\n".join(lines) + "\n" + render_position(st)


def history_text(table: Table, seat: int) -> str:
    """Everything ``seat`` has seen, in order (perfect recall): the hands dealt (public,
    S1), its own cards, then every decision -- a face-down vote card or another's kept
    goal card as just that, its face shown once every ballot of the vote is laid."""
    game = table.game
    names = game.players
    dealt = "; ".join(f"{p} " + " ".join(f"{t}x{k}" for t, k in sorted(game.dealt[p].items(),
                                                                          key=lambda i: i[0].order()) if k)
                      for p in names)
    lines = [f"{game.board.id} {game.ruleset.id} {game.variant} {','.join(names)}; dealt {dealt}",
             f"{names[seat]} holds {' and '.join(game.cards[names[seat]])}"]
    for who, _, hidden, words in table.log:
        if hidden and who != seat:
            words = "lay a card face down" if words.startswith("lay") else "keep a goal card"
        lines.append(f"{names[who]}: {words}")
    return "\n".join(lines)
