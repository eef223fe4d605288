"""The first room of :class:`~drunter_notation.game.Game`: what it holds, the
position and who holds what, the legal moves, the end and the result."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from drunter_notation.errors import fail
from drunter_notation.explain.scoring import tie_break
from drunter_notation.i18n import _
from drunter_notation.notation.model import CARD_NAMES, Choose, Hand, Square, Tag, Tile, Turn, Vote
from drunter_notation.position import format_position
from drunter_notation.rules import game as rules_game
from drunter_notation.rules import turn
from drunter_notation.rules.board import Board
from drunter_notation.rules.options import Ruleset
from drunter_notation.rules.placement import Move, legal_moves
from drunter_notation.rules.scoring import Standing, rank_players
from drunter_notation.rules.state import State


@dataclass(frozen=True)
class Result:
    """The end of a game: points per player, the winners, every standing (best first)
    and the tie-breaks in words."""

    scores: dict[str, int]
    winners: tuple[str, ...]
    standings: tuple[Standing, ...]
    explanation: str


class LogEntry(NamedTuple):
    """One event played, with what :meth:`~GameHistory.pop` needs to undo it."""

    event: Turn | Choose | None  # as a record writes it; None: a pushed turn, written when first read
    ballots: Vote | None  # the ballots the turn was played with
    decision: turn.Decision | None  # the engine's decision (None for choose): undone with turn.unplay
    snapshot: State | None  # a turn read from a record: the position before, restored as a whole
    due: tuple[Square, int] | None  # the expert choice as it stood before the event
    chosen: bool


class GamePosition:
    """A game's position and what the players hold (see :class:`Game`)."""

    def __init__(self, board: Board, board_ref: str, ruleset: Ruleset, state: State, *,
                 hands: dict[str, Counter[Tile]] | None = None, cards: dict[str, tuple[str, ...]] | None = None,
                 tags: tuple[Tag, ...] = ()) -> None:
        self.board = board
        self.board_ref = board_ref  # the board's id or file path, as given
        self.board_tag = board_ref  # the record's Board tag (a path from the record's folder)
        self.ruleset = ruleset
        self.state = state
        self.dealt = hands  # the hands as dealt (the record's hand lines)
        self._hand_lines: tuple[dict[str, Counter[Tile]] | None, tuple[Hand, ...]] | None = None  # (dealt, its lines)
        self.cards = cards  # building card (base) or the two goal cards (expert), per player
        self.kept: dict[str, str] = {}  # expert: the goal card each player keeps at 'choose' (X2)
        self.tags = tags  # extra tags for the record (Event, Date, ...)
        # One entry per event. A pushed turn's event is written once, when first read (GameHistory._event).
        self._log: list[LogEntry] = []
        self._legal: list[Move] | None = None  # legal_moves() of this position, so a push can trust them

    @property
    def players(self) -> tuple[str, ...]:
        return self.state.players

    @property
    def variant(self) -> str:
        return self.state.variant

    @property
    def to_move(self) -> str:
        """The player whose turn it is."""
        return self.state.to_move

    @property
    def turn(self) -> int:
        """The number of the next turn (1 before the first)."""
        return self.state.number + 1

    @property
    def choice_due(self) -> bool:
        """Expert game: the first track is finished and the choice (``choose``) is due."""
        return self.state.due is not None and not self.state.chosen

    def vote_cards_left(self, player: str) -> dict[str, int]:
        """The vote cards ``player`` still holds, card -> count, in the order of a set
        (``JA`` ... ``?``): played cards are spent, ``?`` comes back (B7). Raises
        DnError H001 for a name that is not a player."""
        held = self.state.cards[self._player(player)]
        return {c: held[c] for c in CARD_NAMES if held[c] > 0}

    def tiles_left(self, player: str) -> dict[str, int] | None:
        """The tiles ``player`` still has to lay, ``"W3"`` -> count, in the order of a
        hand line (walls, streets, rivers; longest first); None when the hands are not
        recorded. Raises DnError H001 for a name that is not a player."""
        who = self._player(player)
        if self.state.hands is None:
            return None
        held = self.state.hands[who]
        return {str(t): held[t] for t in sorted(held, key=lambda t: t.order()) if held[t] > 0}

    def _player(self, name: str) -> str:
        if name not in self.state.players:
            raise fail("H001", _("{name} is not a player of this game; the players are {players}").format(
                name=repr(name), players=", ".join(self.state.players))[:300])
        return name

    def legal_moves(self) -> list[Move]:
        """Every legal placement for the player to move (``str(move)`` is its DN text,
        with ``@corner`` where two tracks could take it; ``move.needs_vote`` when it
        is put to a vote). Empty when the player must pass, or a choice is due."""
        if self._legal is None:
            self._legal = [] if self.choice_due else legal_moves(self.state)
        return self._legal

    def is_over(self) -> bool:
        """No player can place a tile any more (E1)."""
        if self.choice_due:
            return False
        if self.state.hands is not None:
            for m in self.legal_moves():  # a loop, not any(): asked before every move of a game played out
                if not m.toilets:
                    return False  # the mover can place, and such a placement counts in every ruleset
        return rules_game.game_over(self.state)

    def position(self) -> str:
        """The one-line position string (see ``docs/notation.md``)."""
        return format_position(self.state, self.ruleset)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GamePosition) and self.position() == other.position()

    __hash__: ClassVar[None] = None  # type: ignore[assignment]  # mutable, like chess.Board

    def __repr__(self) -> str:
        return f"Game({self.position()!r})"

    def result(self) -> Result | None:
        """Scores and winners once the game is over and every player's card is known
        (in the expert variant, once chosen); None before."""
        cards = self.cards
        if not self.is_over() or cards is None:
            return None
        expert = self.variant == "expert"
        if expert and len(self.kept) != len(self.players):
            return None
        chosen = {p: self.kept[p] if expert else cards[p][0] for p in self.players}
        other = {p: next(c for c in cards[p] if c != self.kept[p]) for p in self.players} if expert else None
        r = rank_players(self.board, self.state.covered, self.players, chosen, self.state.cards, other)
        return Result(scores={s.player: s.score for s in r.standings}, winners=r.winners, standings=r.standings,
                      explanation=tie_break(r))
