"""A lean playout path: whole games played fast, with no records, decisions or copies.

What a tournament, a win-chance estimate or a benchmark needs is thousands of
complete games per second, not a judgement of each turn. :class:`Playout` plays by
the same rules as :mod:`.turn` -- the same legal placements in the same order as
:func:`.placement.legal_moves`, votes counted as :mod:`.votes` counts them, gangs
removed as A5 removes them, the end of the game as E1 finds it -- on a position
made for speed:

* squares are integers (``row * width + column``); per board, tables built once
  hold every square's neighbours in each direction, its building and its toilet;
* covered squares (corners count as covered) and bridge fields are lists of 0 and 1
  (not bytearrays: compiled, a list is indexed in C, a bytearray through the generic protocol);
* per track, the free run from its gang in each direction (up to three squares,
  the anchor first) is kept, and after a placement only the tracks whose runs it
  touched are walked again.

It judges nothing: the moves it offers are legal, and the caller (a bot from
:mod:`drunter_notation.bots`) picks one. ``tests/test_bots_playout.py`` checks it
against the Game API position by position.

A move is a tuple ``(track, direction, length, squares)``: the track's index in
board corner order, the direction's index in :data:`.board.DIRECTIONS`, the tile's
length and the squares it covers, anchor first. Its tile is
``TILES[kind * 3 + length - 1]`` with ``kind`` the track's kind index in ``"WSR"``.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from drunter_notation.notation.model import BUILDINGS, CARD_NAMES, Tile
from drunter_notation.rules.board import DIRECTIONS
from drunter_notation.rules.geometry import bridge_run
from drunter_notation.rules.grid import BUILDING_INDEX, KIND_ORDER
from drunter_notation.rules.options import VoteOutcome
from drunter_notation.rules.placement import Move
from drunter_notation.rules.scoring import goal_score
from drunter_notation.rules.state import State
from drunter_notation.rules.votes import CARD_VALUES

TILES = tuple(Tile(k, n) for k in KIND_ORDER for n in (1, 2, 3))  # index: kind * 3 + length - 1
CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
# Per vote card (CARD_NAMES order): +votes for yes, -votes for no, 0 for ``?``; JEIN is declared (None).
CARD_SIGNED = tuple(None if side == "declared" else value if side == "yes" else -value if side == "no" else 0
                    for side, value in (CARD_VALUES[c] for c in CARD_NAMES))
CARD_VOTES = tuple(CARD_VALUES[c][1] for c in CARD_NAMES)  # E3: votes a card is worth at the end
JEIN, ABSTAIN = CARD_INDEX["JEIN"], CARD_INDEX["?"]
_UNLIMITED = 1 << 30
_EMPTY: frozenset[int] = frozenset()
LeanMove = tuple[int, int, int, tuple[int, ...]]  # (track, direction, length, squares): see the module's doc
_Run = tuple[int, tuple[int, ...]]  # a direction's run from a gang: (bridge fields passed, the free squares)
_NO_RUNS: tuple[_Run, ...] = ()  # a removed gang's


class Playout:
    """A position to play fast. Build it from the engine's position with
    ``Playout(state)`` or :meth:`from_state` (hands must be known); play with :meth:`legal`,
    :meth:`needs_vote`, :meth:`play` and :meth:`pass_turn` until :meth:`over`.

    ``hands[seat]`` counts tiles by tile index, ``cards[seat]`` vote cards by their
    index in CARD_NAMES; ``seat`` is the player to move, ``number`` the turns played."""

    __slots__ = ("blocked", "bridge", "cards", "cells", "dry", "due", "edge_traps", "expert", "gang", "goal_deal",
                 "hands", "limit", "number", "offers", "players", "reach", "runs", "seat", "tables", "ties_stand",
                 "voting")

    def __init__(self, state: State | None = None) -> None:
        """The lean copy of ``state`` (whose position it does not change; it may make the
        state's :meth:`~.state.State.grid`); without one, an empty position for :meth:`copy`
        and unpickling to fill (a compiled class is made by its ``__init__`` even then)."""
        if state is None:
            return
        hands = state.hands
        if hands is None:
            raise ValueError("a playout needs the players' hands")
        grid = state.grid()
        t = grid.tables
        self.tables, self.players = t, state.players
        self.blocked, self.bridge = grid.blocked.copy(), grid.bridge.copy()
        corner_order = list(state.board.corners)
        self.gang = [-1 if (g := state.gangs[c]) is None else t.index(g) for c in corner_order]
        self.hands = [[hands[pl].get(tile, 0) for tile in TILES] for pl in state.players]  # get: no __missing__ call
        self.cards = [[state.cards[pl].get(c, 0) for c in CARD_NAMES] for pl in state.players]
        self.seat, self.number = state.seat, state.number
        o = state.options
        self.limit = _UNLIMITED if o.bridge_runs else 1
        self.voting = state.toilet_votes
        self.ties_stand = o.vote_outcome is VoteOutcome.YES_AT_LEAST_NO
        self.dry = not (o.toilet_counts_for_legezwang or not self.voting)  # toilets end a run for Legezwang
        self.edge_traps = o.trap_counts_edge
        self.expert = state.variant == "expert"
        self.goal_deal = o.expert_deal  # X1: which goal cards a player may hold (for a search bot's guesses)
        self.due = state.chosen  # once made; a choice due but not made is found again by choice_due()
        self.runs: list[Sequence[_Run]] = [_NO_RUNS] * len(self.gang)
        self.reach = [0] * len(self.gang)
        self.cells = [_EMPTY] * len(self.gang)
        self.offers: list[list[LeanMove]] = [[] for _ in self.gang]
        for ci in range(len(self.gang)):
            if self.gang[ci] >= 0:
                self._walk(ci)

    @classmethod
    def from_state(cls, state: State) -> Playout:
        """``Playout(state)``, by the name its callers read best."""
        return cls(state)

    def copy(self) -> Playout:
        p = Playout()  # empty: a copy per search step, so its fields are copied, not rebuilt
        p.tables, p.players, p.seat, p.number, p.limit, p.voting = self.tables, self.players, self.seat, self.number, \
            self.limit, self.voting
        p.ties_stand, p.dry, p.edge_traps, p.expert, p.due, p.goal_deal = self.ties_stand, self.dry, \
            self.edge_traps, self.expert, self.due, self.goal_deal
        p.blocked, p.bridge, p.gang = self.blocked.copy(), self.bridge.copy(), self.gang.copy()
        p.runs, p.reach, p.cells, p.offers = self.runs.copy(), self.reach.copy(), self.cells.copy(), self.offers.copy()
        p.hands = [h.copy() for h in self.hands]
        p.cards = [c.copy() for c in self.cards]
        return p

    # -- the runs of each track ------------------------------------------------------------
    def _walk(self, ci: int) -> None:
        """Walk the four runs of track ``ci`` from its gang again: the A6 bridge walk,
        then up to three free squares."""
        g = self.gang[ci]
        if g < 0:
            self.runs[ci], self.reach[ci], self.cells[ci], self.offers[ci] = _NO_RUNS, 0, _EMPTY, []
            return
        blocked, bridge = self.blocked, self.bridge
        runs: list[_Run] = []
        cells: list[int] = []
        offers: list[LeanMove] = []
        best = 0
        for d, ray in enumerate(self.tables.ahead3[g]):
            if ray and bridge[ray[0]]:  # under a bridge field: on from its far side (rare)
                passed, ray = bridge_run(self.tables, bridge, g, d, self.limit)
            else:
                passed = 0
            n = 0
            for s in ray:
                if blocked[s]:
                    break
                n += 1
            line = ray if n == len(ray) else ray[:n]
            runs.append((passed, line))
            cells += line
            if n > best:
                best = n
            if n:
                offers.append((ci, d, 1, line[:1]))
                if n > 1:
                    offers.append((ci, d, 2, line[:2]))
                    if n > 2:
                        offers.append((ci, d, 3, line))
        self.runs[ci], self.reach[ci], self.cells[ci], self.offers[ci] = runs, best, frozenset(cells), offers

    def _dry_reach(self, ci: int) -> int:
        toilet = self.tables.toilet
        best = 0
        for _, line in self.runs[ci]:
            n = 0
            for s in line:
                if toilet[s]:
                    break
                n += 1
            best = max(best, n)
        return best

    # -- moves -----------------------------------------------------------------------------
    def legal(self, seat: int | None = None) -> list[LeanMove]:
        """The legal placements of the player at ``seat`` (default: to move), in the
        order of :func:`.placement.legal_moves`."""
        hand = self.hands[self.seat if seat is None else seat]
        kinds, offers = self.tables.kinds, self.offers
        moves = []
        for ci, g in enumerate(self.gang):
            if g < 0:
                continue
            k3 = kinds[ci] * 3
            h1, h2, h3 = hand[k3], hand[k3 + 1], hand[k3 + 2]
            if h1 and h2 and h3:
                moves += offers[ci]
            elif h1 or h2 or h3:
                moves += [m for m in offers[ci] if hand[k3 + m[2] - 1]]
        return moves

    def needs_vote(self, move: LeanMove) -> bool:
        """B1/X5: the move covers a toilet and toilet placements are voted on."""
        if not self.voting:
            return False
        toilet = self.tables.toilet
        for s in move[3]:
            if toilet[s]:
                return True
        return False

    def tile(self, move: LeanMove) -> Tile:
        return TILES[self.tables.kinds[move[0]] * 3 + move[2] - 1]

    def can_place(self, seat: int) -> bool:
        """T2: the player at ``seat`` has a placement that counts (Legezwang)."""
        hand, kinds, reach = self.hands[seat], self.tables.kinds, self.reach
        for ci, g in enumerate(self.gang):
            if g < 0:
                continue
            k3 = kinds[ci] * 3
            need = 1 if hand[k3] else 2 if hand[k3 + 1] else 3 if hand[k3 + 2] else 0
            if need and (self._dry_reach(ci) if self.dry else reach[ci]) >= need:
                return True
        return False

    def over(self) -> bool:
        """E1: no player can place a tile any more (the player to move asked first)."""
        n = len(self.players)
        for k in range(n):
            if self.can_place((self.seat + k) % n):
                return False
        return True

    # -- playing ---------------------------------------------------------------------------
    def tally(self, ballots: Sequence[Sequence[int]], jein_yes: Sequence[bool]) -> bool:
        """B3-B5: whether the placement stands, given each voter's cards (by seat order
        of voting: the placer first) and each voter's JEIN side; spends the cards (B7)."""
        yes = no = 0
        for laid, side in zip(ballots, jein_yes, strict=False):  # a side for each ballot (extra sides unread)
            for c in laid:
                v = CARD_SIGNED[c]
                if v is None:
                    v = 2 if side else -2
                if v > 0:
                    yes += v
                else:
                    no -= v
        n = len(self.players)
        for k, laid in enumerate(ballots):
            held = self.cards[(self.seat + k) % n]
            for c in laid:
                if c != ABSTAIN:
                    held[c] -= 1
        return yes >= no if self.ties_stand else (yes > no or yes == no == 0)

    def play(self, move: LeanMove, stands: bool = True) -> None:
        """Play ``move`` (from :meth:`legal`) for the player to move: lay it unless a
        vote rejected it (``stands`` False: B6, the tile stays in hand), remove trapped
        gangs (A5), pass the turn on."""
        if stands:
            ci, _, length, squares = move
            blocked = self.blocked
            for s in squares:
                blocked[s] = 1
            if length == 3:
                self.bridge[squares[1]] = 1
            gang = self.gang
            gang[ci] = squares[-1]
            self.hands[self.seat][self.tables.kinds[ci] * 3 + length - 1] -= 1
            for cj, cells in enumerate(self.cells):  # the runs this tile cut short (and its own track)
                if cj == ci or (gang[cj] >= 0 and not cells.isdisjoint(squares)):
                    self._walk(cj)
                    if not self.reach[cj] and (self.edge_traps or not self.tables.edge[self.gang[cj]]):
                        self.gang[cj] = -1  # A5: trapped
                        self._walk(cj)
        self.number += 1
        self.seat = (self.seat + 1) % len(self.players)

    def pass_turn(self) -> None:
        """T2: the player to move has no placement and passes."""
        self.number += 1
        self.seat = (self.seat + 1) % len(self.players)

    def choice_due(self) -> bool:
        """X2 (expert): the first track is finished and no choice was made yet; marks
        the choice as made, so it is True once per game."""
        if not self.expert or self.due:
            return False
        kinds = self.tables.kinds
        for ci, g in enumerate(self.gang):
            if g < 0:
                self.due = True
                return True
            k3 = kinds[ci] * 3
            reach = self._dry_reach(ci) if self.dry else self.reach[ci]
            if not any(reach >= need for hand in self.hands for need in
                       (1 if hand[k3] else 2 if hand[k3 + 1] else 3 if hand[k3 + 2] else 99,)):
                self.due = True
                return True
        return False

    # -- the end ---------------------------------------------------------------------------
    def standing(self) -> tuple[int, ...]:
        """Per building type (BUILDINGS order), the points of its uncovered buildings."""
        sums = [0] * len(BUILDINGS)
        blocked = self.blocked
        for i, kind, value in self.tables.buildings:
            if not blocked[i] and kind >= 0:
                sums[kind] += value
        return tuple(sums)

    def winners(self, goals: Sequence[Sequence[str]]) -> tuple[int, ...]:
        """E2/E3 (X3): the seats that win, each player scoring ``goals[seat][0]`` (and
        in an expert game, with ``goals[seat][1]`` as the second card for ties)."""
        sums, covered = self.standing(), None
        keys = []
        for seat, goal in enumerate(goals):
            votes = 0
            for c, n in enumerate(self.cards[seat]):
                votes += CARD_VOTES[c] * n
            points = []
            for g in goal:
                kind = BUILDING_INDEX.get(g)
                if kind is None:  # a special goal card (X4): scored by the engine's own rule
                    if covered is None:
                        covered = {self.tables.square(i) for i, b in enumerate(self.blocked) if b}
                    points.append(goal_score(self.tables.board, covered, g))
                else:
                    points.append(sums[kind])
            keys.append((*points, votes))
        best = max(keys)
        return tuple(seat for seat, k in enumerate(keys) if k == best)

    # -- back to the engine's terms -----------------------------------------------------------
    def to_move(self, move: LeanMove) -> Move:
        """The engine's :class:`Move` for a lean ``move`` of the player to move."""
        t = self.tables
        ci, d, length, squares = move
        passed = self.runs[ci][d][0]
        direction = DIRECTIONS[d]
        sq = tuple(t.square(s) for s in squares)
        toilets = tuple(x for x, s in zip(sq, squares, strict=True) if t.toilet[s])
        twin = any(cj != ci and t.kinds[cj] == t.kinds[ci] and self.gang[cj] >= 0
                   and any(line[:length] == squares for _, line in self.runs[cj]) for cj in range(len(self.gang)))
        corner = list(t.board.corners)[ci]
        return Move(self.tile(move), sq, corner, direction, toilets, passed, t.square(self.gang[ci]), twin,
                    self.voting and bool(toilets))


class Seat(Protocol):
    """Who decides for a seat of a playout: the shipped bots (``drunter_notation.bots``)."""

    def pick(self, pl: Playout, moves: list[LeanMove]) -> int:
        """The index in ``moves`` (:meth:`Playout.legal`) of the move to play."""

    def lay(self, pl: Playout, move: LeanMove) -> tuple[int, ...]:
        """The vote cards (indices in CARD_NAMES, held) laid on ``move`` of the player to move."""

    def side(self, pl: Playout, move: LeanMove, ballots: Sequence[tuple[int, ...]]) -> bool:
        """True when this seat's JEIN counts yes."""

    def keep(self, pl: Playout, goals: Sequence[str]) -> str:
        """Expert game: the goal card kept of ``goals`` (X2)."""


# The two drivers live here, not with the bots, so that the compiled build runs their loop in C too.
def play_turn(pl: Playout, bots: Sequence[Seat], move: LeanMove) -> None:
    """Play ``move`` for the player to move, the vote (if one is held) cast by ``bots``."""
    stands = True
    if pl.needs_vote(move):
        n, seat = len(bots), pl.seat
        order = [(seat + k) % n for k in range(n)]
        ballots = [bots[v].lay(pl, move) for v in order]
        sides = [JEIN in laid and bots[v].side(pl, move, ballots) for v, laid in zip(order, ballots, strict=True)]
        stands = pl.tally(ballots, sides)
    pl.play(move, stands)


def play_out(pl: Playout, bots: Sequence[Seat], goals: Sequence[Sequence[str]]) -> tuple[int, ...]:
    """Play the lean position ``pl`` to its end with ``bots`` (one per seat, already
    begun) and return the winning seats; ``goals[seat]`` are the cards each holds
    (the first scores; in the expert game the kept card is asked for at the choice)."""
    held = [tuple(g) for g in goals]
    while True:
        if pl.expert and pl.choice_due():
            for seat, bot in enumerate(bots):
                kept = bot.keep(pl, held[seat])
                held[seat] = (kept, *tuple(g for g in held[seat] if g != kept))
        moves = pl.legal()
        if (not moves or pl.dry) and pl.over():  # a mover with a move that counts: not over
            break
        if not moves:
            pl.pass_turn()
            continue
        play_turn(pl, bots, moves[bots[pl.seat].pick(pl, moves)])
    return pl.winners(held)
