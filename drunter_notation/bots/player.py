"""The ``Player`` protocol, the base of the shipped bots, and the two drivers.

A :class:`Player` answers the four questions a game asks: which legal move, which
vote cards, which side a JEIN counts for, which goal card to keep. Builders
implement it on the public :class:`~drunter_notation.game.Game` API;
:func:`play_game` drives any mix of players through a game and returns it (a
complete record: ``game.to_dn()``).

The shipped bots (:class:`Bot` subclasses in :mod:`.styles`) decide on the lean
position of :mod:`drunter_notation.rules.playout`, so that the same decisions serve
a DN record through the Game API and thousands of playouts a second
(:func:`~drunter_notation.rules.playout.play_out`). Given the same seed a bot makes the same choices on either
path (``tests/test_bots_playout.py``).
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from drunter_notation.game import Game, Move
from drunter_notation.notation.model import CARD_NAMES
from drunter_notation.rules.playout import Playout
from drunter_notation.rules.votes import voting_order

if TYPE_CHECKING:
    from drunter_notation.rules.playout import LeanMove


@runtime_checkable
class Player(Protocol):
    """A player for :func:`play_game`. Every method gets the game as it stands
    before the decision; the game must not be changed."""

    def start(self, game: Game, name: str, cards: tuple[str, ...]) -> None:
        """The game begins; ``name`` is this player's seat, ``cards`` their secret
        building card (base, one) or goal cards (expert, two)."""

    def choose_move(self, game: Game, moves: list[Move]) -> Move:
        """One of ``moves`` (the legal placements, never empty) to play."""

    def cast_ballot(self, game: Game, move: Move) -> list[str]:
        """The vote cards (names as in DN: ``JA``, ``NEE``, ``JEIN``, ``?``...) laid on
        ``move``, which covers a toilet (rule B); only cards still held."""

    def declare_joker(self, game: Game, move: Move, ballots: Mapping[str, list[str]]) -> str:
        """``"yes"`` or ``"no"``: the side this player's JEIN counts for, once all
        ``ballots`` are shown (B4)."""

    def choose_goal(self, game: Game, cards: tuple[str, str]) -> str:
        """Expert game: the goal card kept of the two (X2)."""


class Bot:
    """A shipped bot: its decisions are made on a lean :class:`Playout`; the Player
    methods translate. ``seed`` makes its random choices (ties, random cards)
    reproducible (a ``random.Random`` is used as it is: bots may share one).
    Subclasses override :meth:`pick`, :meth:`lay`, :meth:`side`, :meth:`keep`."""

    name = "bot"

    def __init__(self, seed: int | str | random.Random | None = None):
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.seat = 0
        self.goals: tuple[str, ...] = ()

    def begin(self, seat: int, goals: Sequence[str]) -> None:
        """A game begins: this bot sits at ``seat`` and holds ``goals``."""
        self.seat, self.goals = seat, tuple(goals)

    # -- the decisions, on the lean position -----------------------------------------------
    def pick(self, pl: Playout, moves: list[LeanMove]) -> int:
        """The index in ``moves`` (:meth:`Playout.legal`) of the move to play."""
        raise NotImplementedError

    def lay(self, pl: Playout, move: LeanMove) -> tuple[int, ...]:
        """The vote cards (indices in CARD_NAMES, held) laid on ``move`` of the player to move."""
        raise NotImplementedError

    def side(self, pl: Playout, move: LeanMove, ballots: Sequence[tuple[int, ...]]) -> bool:
        """True when this bot's JEIN counts yes."""
        raise NotImplementedError

    def keep(self, pl: Playout, goals: Sequence[str]) -> str:
        raise NotImplementedError

    # -- the Player protocol -----------------------------------------------------------------
    def start(self, game: Game, name: str, cards: tuple[str, ...]) -> None:
        self.begin(game.players.index(name), cards)

    def choose_move(self, game: Game, moves: list[Move]) -> Move:
        pl = Playout.from_state(game.state)
        return moves[self.pick(pl, pl.legal())]

    def cast_ballot(self, game: Game, move: Move) -> list[str]:
        pl = Playout.from_state(game.state)
        return [CARD_NAMES[c] for c in self.lay(pl, lean_move(pl, move))]

    def declare_joker(self, game: Game, move: Move, ballots: Mapping[str, list[str]]) -> str:
        pl = Playout.from_state(game.state)
        order = voting_order(game.state, game.to_move)
        laid = [tuple(CARD_NAMES.index(c) for c in ballots[p]) for p in order]
        return "yes" if self.side(pl, lean_move(pl, move), laid) else "no"

    def choose_goal(self, game: Game, cards: tuple[str, str]) -> str:
        return self.keep(Playout.from_state(game.state), cards)


def lean_move(pl: Playout, move: Move) -> LeanMove:
    """The lean move of the player to move that is ``move``."""
    corner = list(pl.tables.board.corners).index(move.corner)
    squares = tuple(pl.tables.index(s) for s in move.squares)
    for m in pl.legal():
        if m[0] == corner and m[3] == squares:
            return m
    raise ValueError(f"{move} is not a legal move here")


def play_game(game: Game, players: Mapping[str, Player]) -> Game:
    """Play ``game`` to its end, each seat's decisions by ``players[name]``; returns
    the game. Hands and cards must be known (``Game.new(..., seed=...)``). A player
    whose answer is illegal raises the game's DnError."""
    cards = game.cards
    if cards is None:
        raise ValueError("play_game needs a game whose cards are dealt (Game.new(..., seed=...))")
    for name in game.players:
        players[name].start(game, name, cards[name])
    while not game.is_over():
        if game.choice_due:  # expert: each holds two goal cards
            kept = {p: players[p].choose_goal(game, (cards[p][0], cards[p][1])) for p in game.players}
            game.push("choose", keep=kept)
            continue
        moves = game.legal_moves()
        if not moves:
            game.push("pass")
            continue
        mover = game.to_move
        move = players[mover].choose_move(game, moves)
        vote = jein = None
        if move.needs_vote:
            order = voting_order(game.state, mover)
            vote = {p: list(players[p].cast_ballot(game, move)) for p in order}
            jein = {p: players[p].declare_joker(game, move, vote) for p in order if "JEIN" in vote[p]}
        game.push(move, vote=vote, jein=jein)
    return game
