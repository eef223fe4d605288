"""The game as a sequence of single decisions, each by the seat that makes it: the
step machine both AI environments wrap.

Every decision is one integer action of a fixed encoding (:class:`Encoding`): a
placement or a pass, one vote card laid (a ballot is laid card by card, in the
order of ``CARD_NAMES``, then ended), a JEIN declared, a goal card kept. The
rules are the engine's: the legal placements are :meth:`Game.legal_moves`, a pass
is legal when :func:`rules.game.must_place` says the mover need not place, the
cards a voter may lay are the ones the position says they hold, and a finished
vote, pass or choice is played with :meth:`Game.push`, which judges it.

What each seat may know (hidden: the building or goal cards of the others, the
faces of ballots not yet shown, the goal card another player keeps) is kept apart
here so that the observations of :mod:`.observe` can leave it out.
"""
from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from drunter_notation.game import Game, Move
from drunter_notation.notation.model import CARD_NAMES, GOALS, KIND_LETTER, Square, square_name
from drunter_notation.rules.board import DIRECTIONS, Board
from drunter_notation.rules.game import must_place
from drunter_notation.rules.votes import voting_order

JEIN = CARD_NAMES.index("JEIN")


class Phase(Enum):
    """Which kind of decision is due."""

    PLACE = "place"  # the player to move lays a tile or passes (T1, T2)
    BALLOT = "ballot"  # a voter lays vote cards face down (B2)
    JEIN = "jein"  # a voter who laid JEIN declares its side, once all cards are shown (B4)
    KEEP = "keep"  # expert: each player keeps one goal card (X2)
    OVER = "over"  # no player can place (E1)

    __hash__ = object.__hash__  # members are singletons: hashed by identity, not by Enum's Python-level hash


PHASES = tuple(Phase)
# The members under plain names, for the step machine that reads them at every step: read through its class, an
# Enum member costs a Python-level call in CPython 3.11.
PLACE_PHASE, BALLOT_PHASE, JEIN_PHASE, KEEP_PHASE, OVER_PHASE = PHASES


class Encoding:
    """The fixed action numbers of a board with ``corners`` tracks: first
    ``corners * 12`` placements, ``(track * 4 + direction) * 3 + length - 1`` with the
    track in board corner order and the direction in ``DIRECTIONS`` order (north,
    east, south, west); then pass, the 8 vote cards, end of ballot, JEIN yes, JEIN no,
    and the 10 goal cards to keep. (The numbers are worked out once: they are read at every step.)

    ``lay`` is the action of laying ``CARD_NAMES[0]`` (card ``c`` is ``lay + c``), ``keep``
    that of keeping ``GOALS[0]`` (goal ``g`` is ``keep + g``); ``words`` the actions from
    pass on in words, which no board changes (``words[action - passing]``)."""

    def __init__(self, corners: int) -> None:
        self.corners = corners
        self.passing = corners * 12
        self.lay = self.passing + 1
        self.end_ballot = self.lay + len(CARD_NAMES)
        self.jein_yes = self.end_ballot + 1
        self.jein_no = self.end_ballot + 2
        self.keep = self.end_ballot + 3
        self.size = self.keep + len(GOALS)
        self.words: tuple[str, ...] = ("pass", *(f"lay {card}" for card in CARD_NAMES), "end ballot", "JEIN yes",
                                       "JEIN no", *(f"keep {goal}" for goal in GOALS))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Encoding) and other.corners == self.corners

    def __hash__(self) -> int:
        return hash(self.corners)

    def __repr__(self) -> str:
        return f"Encoding(corners={self.corners})"

    def placement(self, track: int, direction: int, length: int) -> int:
        return (track * len(DIRECTIONS) + direction) * 3 + length - 1

    def describe(self, action: int, board: Board) -> str:
        """The action in words: ``"S2 from a1 north"``, ``"pass"``, ``"lay JA"``, ``"end ballot"``,
        ``"JEIN yes"``, ``"keep museum"``."""
        if not 0 <= action < self.size:
            return f"no action ({action})"
        if action < self.passing:
            track, rest = divmod(action, len(DIRECTIONS) * 3)
            direction, length = divmod(rest, 3)
            corner = list(board.corners)[track]
            return (f"{KIND_LETTER[board.corners[corner]]}{length + 1} from {square_name(corner)} "
                    f"{('north', 'east', 'south', 'west')[direction]}")
        return self.words[action - self.passing]


class LastVote(NamedTuple):
    """The vote of the last turn that had one, as every player saw it once shown."""

    ballots: dict[int, tuple[int, ...]]  # seat -> the cards laid (CARD_NAMES indices, ascending)
    sides: dict[int, bool]  # seat -> JEIN declared yes
    accepted: bool
    placer: int


_ENCODINGS: dict[int, Encoding] = {}  # by the number of corners: a few values, each made once


def encoding(board: Board) -> Encoding:
    """The encoding of ``board``'s actions, shared by every table (it is never changed): a table is made per game
    and per copy, and the encoding's words need not be made again each time."""
    corners = len(board.corners)
    enc = _ENCODINGS.get(corners)
    if enc is None:
        enc = _ENCODINGS[corners] = Encoding(corners)
    return enc


class Table:
    """A game being played decision by decision. Build it from a :class:`Game` whose
    hands and cards are known and on which no decision is pending; play with
    :meth:`legal_actions` and :meth:`apply` until :attr:`phase` is OVER.

    ``seat`` numbers are indices into ``game.players``."""

    game: Game
    enc: Encoding
    corners: list[Square]
    _singles: dict[tuple[Square, Square], int]  # (corner, direction) -> the action of laying a single there
    n: int
    move: Move | None  # the placement put to the vote
    voters: tuple[int, ...]  # voting order (B2)
    laid: list[list[int]]  # per voter so far, the cards laid (CARD_NAMES indices, ascending)
    sides: dict[int, bool]  # seat -> JEIN declared yes
    declarers: tuple[int, ...]
    keepers: dict[int, str]  # expert: seat -> the goal card kept
    last_vote: LastVote | None
    # Per decision: (seat, action, hidden from the others, in words). A vote card's face is hidden
    # until every ballot of the vote is laid; the goal card another keeps, to the end.
    log: list[tuple[int, int, bool, str]]
    vote_start: int  # the log index of the placement under vote
    phase: Phase
    _legal: list[int] | None  # legal_actions() of this decision, once asked
    _moves: tuple[list[Move], list[int]]  # with _legal: the legal placements and their actions
    _held: list[int]  # in a ballot: the cards the voter holds (CARD_NAMES indices)
    _due: int | None  # current(), asked many times a step: kept
    views: dict[object, object]  # what the observations of this table keep between calls

    def __init__(self, game: Game, *, under_way: dict[str, object] | None = None) -> None:
        """``under_way``: the decisions under way and the log of a table whose game so far ``game``
        is (:meth:`copy` and pickling pass them)."""
        if game.dealt is None or game.cards is None:
            raise ValueError("a table needs a game with its hands and cards dealt")
        self.game, self.views = game, {}
        self.enc = encoding(game.board)
        self.corners = list(game.board.corners)
        self._singles = {(corner, d): self.enc.placement(i, j, 1)  # action_of, for every legal move
                         for i, corner in enumerate(self.corners) for j, d in enumerate(DIRECTIONS)}
        self.n = len(game.players)
        if under_way is not None:
            for name, value in under_way.items():  # by name: a compiled Table has no __dict__ to fill
                setattr(self, name, value)
            return
        self.move, self.voters, self.laid, self.sides, self.declarers = None, (), [], {}, ()
        self.keepers, self.last_vote, self.log, self.vote_start = {}, None, [], 0
        self.phase, self._legal, self._moves, self._held = PLACE_PHASE, None, ([], []), []
        self._advance()
        self._due = self._whose_decision()

    def _under_way(self) -> dict[str, object]:
        """What a table has beside its game, its lists and dicts copied: :meth:`__init__`'s ``under_way``."""
        return {"move": self.move, "voters": self.voters, "laid": [list(cards) for cards in self.laid],
                "sides": dict(self.sides), "declarers": self.declarers, "keepers": dict(self.keepers),
                "last_vote": self.last_vote, "log": list(self.log), "vote_start": self.vote_start,
                "phase": self.phase, "_legal": self._legal, "_moves": self._moves, "_held": self._held,
                "_due": self._due}

    def copy(self) -> Table:
        return Table(self.game.copy(), under_way=self._under_way())  # views: the copy's own start afresh

    def __reduce__(self) -> tuple[object, tuple[Game, dict[str, object]]]:
        return _unpickle, (self.game, self._under_way())  # a compiled class is made by its __init__ when unpickled

    def __deepcopy__(self, memo: dict[int, object]) -> Table:
        return self.copy()  # the board and ruleset are shared values, never copied

    # -- whose decision ----------------------------------------------------------------------
    def current(self) -> int | None:
        """The seat whose decision is due; None once the game is over."""
        return self._due

    def _whose_decision(self) -> int | None:
        if self.phase is PLACE_PHASE:
            return self.game.state.seat
        if self.phase is BALLOT_PHASE:
            return self.voters[len(self.laid) - 1]
        if self.phase is JEIN_PHASE:
            return self.declarers[len(self.sides)]
        if self.phase is KEEP_PHASE:
            return len(self.keepers)
        return None

    @property
    def cards(self) -> dict[str, tuple[str, ...]]:
        """Each player's building or goal cards (a table's game is dealt)."""
        cards = self.game.cards
        assert cards is not None
        return cards

    def under_vote(self) -> Move:
        """The placement put to the vote (phases BALLOT and JEIN)."""
        if self.move is None:
            raise ValueError("no vote is open")
        return self.move

    def actor(self) -> int:
        """:meth:`current` where a decision is due."""
        seat = self.current()
        if seat is None:
            raise ValueError("the game is over: no one is to act")
        return seat

    @property
    def placer(self) -> int:
        """The seat whose turn it is (who placed the tile under vote)."""
        return self.game.state.seat

    def legal_actions(self) -> list[int]:
        """The legal actions of :meth:`current`, ascending; empty once over."""
        return list(self._legal_now())

    def _legal_now(self) -> list[int]:
        """The legal actions, found once per decision (not to be changed)."""
        if self._legal is None:
            self._legal = self._find_legal()
        return self._legal

    def _find_legal(self) -> list[int]:
        enc, game = self.enc, self.game
        if self.phase is PLACE_PHASE:
            moves = game.legal_moves()
            singles = self._singles
            actions = [singles[m.corner, m.direction] + m.tile.length - 1 for m in moves]  # action_of, inlined
            self._moves = (moves, actions)
            out = sorted(actions)
            if not moves or (all(m.toilets for m in moves) and not must_place(game.state, game.to_move)):
                out.append(enc.passing)  # T2: nothing that counts for Legezwang
            return out
        if self.phase is BALLOT_PHASE:
            laid = self.laid[-1]
            if not laid:  # the voter's first card: the cards they hold, which stay as they are until the vote is played
                held = game.state.cards[game.players[self.actor()]]
                self._held = [c for c, card in enumerate(CARD_NAMES) if held.get(card, 0) > 0]
                return [enc.lay + c for c in self._held]
            after = laid[-1]
            return [*(enc.lay + c for c in self._held if c > after), enc.end_ballot]
        if self.phase is JEIN_PHASE:
            return [enc.jein_yes, enc.jein_no]
        if self.phase is KEEP_PHASE:
            return sorted(enc.keep + GOALS.index(g) for g in self.cards[game.players[self.actor()]])
        return []

    def action_of(self, move: Move) -> int:
        """The action number of the placement ``move``."""
        return self._singles[move.corner, move.direction] + move.tile.length - 1

    # -- playing -----------------------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Play ``action`` for :meth:`current`. Raises ValueError for an action that is not legal."""
        if action not in self._legal_now():
            raise ValueError(f"action {action} ({self.enc.describe(action, self.game.board)}) is not legal here")
        self._legal = None
        seat, enc, game = self.actor(), self.enc, self.game
        phase = self.phase
        if phase is BALLOT_PHASE and action != enc.end_ballot:  # the commonest step: one card laid, the voter goes on
            self.laid[-1].append(action - enc.lay)
            self.log.append((seat, action, True, enc.words[action - enc.passing]))  # face down until all are laid (B2)
            return
        hidden = played = False
        if phase is PLACE_PHASE:
            played = True
            if action == enc.passing:
                words = "pass"
                game.push("pass")
            else:
                moves, actions = self._moves
                move = moves[actions.index(action)]  # the first of the moves one action stands for
                words = str(move)
                if move.needs_vote:
                    self.vote_start = len(self.log)
                    self.move, self.voters = move, tuple(game.players.index(p) for p in voting_order(game.state,
                                                                                                  game.to_move))
                    self.laid, self.sides = [[]], {}
                    self.phase, played = BALLOT_PHASE, False
                else:
                    game.push(move)
        else:
            words = enc.words[action - enc.passing]
        if phase is BALLOT_PHASE:  # the ballot ended
            if len(self.laid) < len(self.voters):
                self.laid.append([])
            else:
                self.declarers = tuple(v for v, cards in zip(self.voters, self.laid, strict=True) if JEIN in cards)
                self.phase = JEIN_PHASE
                self.log[self.vote_start:] = [(s, a, False, w) for s, a, _, w in self.log[self.vote_start:]]
        elif phase is JEIN_PHASE:
            self.sides[seat] = action == enc.jein_yes
        elif phase is KEEP_PHASE:
            self.keepers[seat] = GOALS[action - enc.keep]
            hidden = True
        self.log.append((seat, action, hidden, words))
        if self.phase is JEIN_PHASE and len(self.sides) == len(self.declarers):
            self._vote()
            played = True
        elif self.phase is KEEP_PHASE and len(self.keepers) == self.n:
            game.push("choose", keep={game.players[s]: g for s, g in self.keepers.items()})
            played = True
        if played:
            self._advance()
        self._due = self._whose_decision()

    def _vote(self) -> None:
        """Every ballot is laid and every JEIN declared: the turn is played (and judged)."""
        game, names, placer, move = self.game, self.game.players, self.placer, self.under_vote()
        ballots = {v: tuple(cards) for v, cards in zip(self.voters, self.laid, strict=True)}
        decision = game.push(move, vote={names[v]: [CARD_NAMES[c] for c in cards] for v, cards in ballots.items()},
                             jein={names[v]: "yes" if yes else "no" for v, yes in self.sides.items()})
        assert decision is not None  # a placement is a decision
        self.last_vote = LastVote(ballots=ballots, sides=dict(self.sides), accepted=bool(decision.accepted),
                                  placer=placer)
        self.move, self.voters, self.laid, self.declarers = None, (), [], ()

    def _advance(self) -> None:
        """The phase after a decision was played through :meth:`Game.push`."""
        if self.game.choice_due:
            self.phase, self.keepers = KEEP_PHASE, {}
        elif self.game.is_over():
            self.phase = OVER_PHASE
        else:
            self.phase = PLACE_PHASE

    # -- the end -----------------------------------------------------------------------------
    def returns(self) -> list[float]:
        """Per seat: 0 until the game is over; then, with ``k`` of ``n`` players winning
        (after the tie-breaks, E3/X3), ``(n / k - 1) / (n - 1)`` for a winner and
        ``-1 / (n - 1)`` for the others: +1 and -1/(n-1) for a single winner, the sum always 0."""
        if self.phase is not OVER_PHASE:
            return [0.0] * self.n
        result = self.game.result()
        assert result is not None  # the game is over
        winners = result.winners
        k, n = len(winners), self.n
        return [((n / k if p in winners else 0.0) - 1) / (n - 1) for p in self.game.players]


def _unpickle(game: Game, under_way: dict[str, object]) -> Table:
    return Table(game, under_way=under_way)
