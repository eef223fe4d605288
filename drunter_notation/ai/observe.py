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

import numpy as np

from drunter_notation.ai.table import JEIN, PHASES, Phase, Table
from drunter_notation.explain.adjudicate import render_position
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


def tensor(table: Table, seat: int, history: bool = False) -> np.ndarray:
    """What ``seat`` knows, as float32 in [0, 1]; with ``history`` also the summary of
    the past (:data:`HISTORY`) the information state adds."""
    game, board, n = table.game, table.game.board, table.n
    st = game.state
    w, h = board.width, board.height
    rel = {(seat + j) % n: j for j in range(n)}  # seat -> position relative to the observer
    n_planes = len(PLANES) + len(table.corners) + (1 if history else 0)
    planes = np.zeros((n_planes, h, w), np.float32)
    kind_plane = {"W": 0, "S": 1, "R": 2}
    names = game.players
    for laid in st.tiles:
        for c, r in laid.squares:
            planes[kind_plane[laid.tile.kind], r, c] = 1
            planes[11 + rel[names.index(laid.player)], r, c] = 1
            if history:
                planes[-1, r, c] = laid.turn / max(1, st.number)
    for c, r in st.bridges:
        planes[3, r, c] = 1
    for c, r in board.toilets:
        planes[4, r, c] = (c, r) not in st.covered
    top = max((v for _, v in board.buildings.values()), default=1) or 1
    for (c, r), (kind, value) in board.buildings.items():
        if (c, r) not in st.covered and kind in BUILDINGS:
            planes[5 + BUILDINGS.index(kind), r, c] = value / top
    if table.move is not None:
        for c, r in table.move.squares:
            planes[len(PLANES) - 1, r, c] = 1
    for i, corner in enumerate(table.corners):
        g = st.gangs[corner]
        if g is not None:
            planes[len(PLANES) + i, g[1], g[0]] = 1

    parts = {name: np.zeros(k, np.float32) for name, k in FEATURES}
    f = [parts[name] for name, _ in FEATURES]
    for card in game.cards[names[seat]]:
        f[0][GOALS.index(card)] = 1
    if seat in table.keepers:
        f[1][GOALS.index(table.keepers[seat])] = 1
    box = box_tiles(board)
    for s, j in rel.items():
        f[2][j] = 1
        hand = st.hands[names[s]]
        for t, tile in enumerate(TILES):
            if box[tile]:
                f[3][j * 9 + t] = hand.get(tile, 0) / box[tile]
        held = st.cards[names[s]]
        for c, card in enumerate(CARD_NAMES[:-1]):  # the ? card comes back (B7)
            f[4][j * 8 + c] = held[card] == 0
    actor = table.current()
    if actor is not None:
        f[5][rel[actor]] = 1
    f[6][rel[st.seat]] = 1
    f[7][PHASES.index(table.phase)] = 1
    shown = table.phase is Phase.JEIN
    for v, cards in zip(table.voters, table.laid):
        f[8][rel[v]] = len(cards) / 8
        for c in cards:
            if v == seat:
                f[9][c] = 1
            if shown:
                f[10][rel[v] * 8 + c] = 1
    for v, yes in table.sides.items():
        f[11][rel[v] * 2 + (0 if yes else 1)] = 1
    if table.last_vote is not None:
        ballots, sides, accepted, placer = table.last_vote
        for v, cards in ballots.items():
            for c in cards:
                f[12][rel[v] * 8 + c] = 1
        for v, yes in sides.items():
            f[13][rel[v] * 2 + (0 if yes else 1)] = 1
        f[14][0 if accepted else 1] = 1
        f[15][rel[placer]] = 1
    f[16][0] = game.variant == "expert"
    out = [planes.reshape(-1), *f]
    if history:
        cast = np.zeros((SEATS, SEATS, 2), np.float32)
        for d in game.decisions:
            if d is not None and d.vote is not None:
                placer = rel[names.index(d.player)]
                for counted in d.vote.tally.cards:
                    if counted.side in ("yes", "no"):
                        cast[rel[names.index(counted.player)], placer, counted.side == "no"] += counted.value / 8
        out.append(cast.reshape(-1))
    return np.concatenate(out)


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
            words = "lays a card face down" if words.startswith("lay") else "keeps a goal card"
        lines.append(f"{names[who]} {words}")
    return "\n".join(lines)
