"""A game to play move by move: the face of the engine for builders, as
``chess.Board`` is python-chess's.

>>> from drunter_notation import Game
>>> g = Game.new(["Anna", "Ben"], seed=7)
>>> g.to_move
'Anna'

Every judgement is the engine's (:func:`rules.turn.play_turn`): an illegal push
raises :class:`~drunter_notation.errors.DnError` with the code and message
``drunter validate`` gives for the same turn, and leaves the game as it was.
``docs/api.md`` has the whole tour.
"""
from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import DEFAULT_RULESET, load_ruleset
from drunter_notation.deal import deal_goals, deal_hands, game_rng
from drunter_notation.errors import Diagnostic, DnError, fail
from drunter_notation.explain.findings import citation, hint, sentence
from drunter_notation.explain.scoring import tie_break
from drunter_notation.explain.words import and_list
from drunter_notation.i18n import _
from drunter_notation.load import judge
from drunter_notation.notation.formatter import format_record
from drunter_notation.notation.model import (BUILDINGS, CARD_NAMES, GOALS, Ballot, Card, Choose, Goals, Hand,
                                             HandTile, Outcome, Placement, Record, Reveal, RevealEntry, Score,
                                             ScoreEntry, Tag, Tile, Turn, Vote)
from drunter_notation.notation.parser import parse_move, parse_text
from drunter_notation.position import board_ref, format_position, parse_position
from drunter_notation.rules import game as rules_game
from drunter_notation.rules import turn
from drunter_notation.rules.board import DEFAULT_BOARD, Board
from drunter_notation.rules.options import Ruleset
from drunter_notation.rules.placement import Move, legal_moves
from drunter_notation.rules.scoring import Standing, rank_players
from drunter_notation.rules.state import State, Violation
from drunter_notation.rules.votes import voting_order

__all__ = ["Game", "Move", "Result"]


@dataclass(frozen=True)
class Result:
    """The end of a game: points per player, the winners, every standing (best first)
    and the tie-breaks in words."""

    scores: dict[str, int]
    winners: tuple[str, ...]
    standings: tuple[Standing, ...]
    explanation: str


def _hand(counts: Mapping) -> Counter:
    """A hand given as ``{"W3": 2, ...}`` or ``{Tile("W", 3): 2, ...}``."""
    if not isinstance(counts, Mapping):
        raise fail("D001", _("a hand maps tile types to counts, e.g. {example}").format(example='{"W3": 2, "S1": 1}'))
    out = Counter()
    for tile, n in counts.items():
        if isinstance(tile, str):
            if len(tile) != 2 or tile[0] not in "WSR" or tile[1] not in "123":
                raise fail("D001", _("'{tile}' is not a tile type like W3, S2 or R1").format(tile=tile))
            tile = Tile(tile[0], int(tile[1]))
        if not isinstance(n, int) or not 0 <= n <= 999:
            raise fail("D001", _("{tile} x{count}: a count is a whole number from 0 to 999").format(
                tile=tile, count=repr(n)))
        out[tile] += n
    return out


class Game:
    """A game of Drunter & Drüber: the position, the turns played, and what the
    players hold. Make one with :meth:`new`, :meth:`from_dn` or :meth:`from_position`.

    Two games are equal when their positions are (:meth:`position`)."""

    def __init__(self, board: Board, board_ref: str, ruleset: Ruleset, state: State, *,
                 hands: dict[str, Counter] | None = None, cards: dict[str, tuple[str, ...]] | None = None,
                 tags: tuple[Tag, ...] = ()):
        self.board = board
        self.board_ref = board_ref  # the board's id or file path, as given
        self.board_tag = board_ref  # the record's Board tag (a path from the record's folder)
        self.ruleset = ruleset
        self.state = state
        self.dealt = hands  # the hands as dealt (the record's hand lines)
        self._hand_lines: tuple | None = None  # (dealt, its hand lines)
        self.cards = cards  # building card (base) or the two goal cards (expert), per player
        self.kept: dict[str, str] = {}  # expert: the goal card each player keeps at 'choose' (X2)
        self.tags = tags  # extra tags for the record (Event, Date, ...)
        # One entry per event: (event, ballots, decision, snapshot, due, chosen). The event is written
        # once, when pushed (events is read after every move); pop() undoes with the decision, or
        # restores the snapshot of the position before (turns read from a record).
        self._log: list[tuple] = []
        self._legal: list[Move] | None = None  # legal_moves() of this position, so a push can trust them

    # -- making one ------------------------------------------------------------------------
    @classmethod
    def new(cls, players: Iterable[str], board: str = DEFAULT_BOARD, rules: str = DEFAULT_RULESET,
            variant: str = "base", seed: int | str | None = None, hands: Mapping | None = None,
            cards: Mapping | None = None, tags: Mapping[str, str] | None = None) -> Game:
        """A new game. ``seed`` deals the hands and cards as ``drunter simulate`` does;
        ``hands`` (``{"Anna": {"W3": 2, ...}}``) and ``cards`` (``{"Anna": "museum"}``,
        expert: ``{"Anna": ("museum", "one-each")}``) give them instead. Without either,
        hands are not recorded (some checks are then not made, as for such a record).
        ``board`` is a built-in id or a board file path. Raises DnError (H001, H002,
        H003, H004, D001-D003, X001) for what cannot start a game."""
        players = tuple(players)
        if not 2 <= len(players) <= 4 or len(set(players)) != len(players) \
                or not all(isinstance(p, str) and p.strip() == p and p for p in players):
            raise fail("H001", _("a game needs 2 to 4 different players, not {players}").format(
                players=repr(list(players)))[:300])
        if variant not in ("base", "expert"):
            raise fail("H002", _("Variant must be \"base\" or \"expert\", not {variant}").format(
                variant=repr(variant))[:200])
        loaded_board, ruleset = load_board(board), load_ruleset(rules)
        rng = None if seed is None else game_rng(seed)
        if hands is not None and set(hands) != set(players):
            raise fail("D001", _("hands= gives a hand to each player and no one else: {players}").format(
                players=", ".join(players))[:300])
        dealt = {p: _hand(h) for p, h in hands.items()} if hands is not None else (
            deal_hands(loaded_board, players, rng) if rng else None)
        if cards is not None:
            goals = {p: (c,) if isinstance(c, str) else tuple(c) if isinstance(c, (list, tuple)) else ()
                     for p, c in cards.items()}  # any other value is refused by _check_cards
            _check_cards(goals, players, variant)
        else:
            goals = deal_goals(ruleset, players, variant, rng) if rng else None
        game_tags = tuple(Tag(k, v) for k, v in (tags or {}).items())
        start = cls(loaded_board, board, ruleset, turn.new_game(loaded_board, ruleset.options, players, dealt,
                                                                  variant), hands=dealt, cards=goals,
                    tags=game_tags)
        if hands is not None or cards is not None:  # judged as validate would judge the record's start
            t = judge(start.to_record(reveal=False), rules=ruleset.id, board=board)
            if not t.valid:
                raise DnError(t.errors[0])
        return start

    @classmethod
    def from_dn(cls, text: str, path: str = "<input>") -> Game:
        """The game a DN record describes, replayed turn by turn. Raises DnError with
        the first error ``drunter validate`` finds (P001, H003, A004, ...)."""
        record = parse_text(text, path)
        t = judge(record, path, keep_states=True)
        if not t.valid:
            raise DnError(t.errors[0], path=path)
        board_tag = record.tag("Board")
        hands = {h.player: Counter({ht.tile: ht.count for ht in h.tiles}) for h in record.setup
                 if isinstance(h, Hand)} or None
        cards = {g.player: g.goals for g in record.setup if isinstance(g, Goals)} or None
        if record.reveal is not None:
            cards = {e.player: (e.chosen,) if e.other is None else (e.chosen, e.other) for e in record.reveal.entries}
        known = ("Players", "Board", "Rules", "Variant", "Result")
        g = cls(t.board, board_ref(t.board), t.ruleset, t.initial.copy(), hands=hands,
                cards=cards, tags=tuple(Tag(x.key, x.value) for x in record.tags if x.key not in known))
        g.board_tag = board_tag.value if board_tag else DEFAULT_BOARD
        before = t.initial
        for step in t.steps:
            g._log.append((_bare(step.event), None, step.decision, before, None, False))
            before = step.state
        g.state = t.state
        if record.reveal is not None and t.variant == "expert":
            g.kept = {e.player: e.chosen for e in record.reveal.entries}
        return g

    @classmethod
    def from_position(cls, text: str, base_dir: str | Path | None = None) -> Game:
        """The game at the position a position string describes (no turns behind it:
        :meth:`pop` has nothing to undo). Raises DnError P002, H003 or H004."""
        state, board_ref, ruleset = parse_position(text, base_dir)
        return cls(state.board, board_ref, ruleset, state, hands=None if state.hands is None else {
            p: Counter(h) for p, h in state.hands.items()})

    def copy(self) -> Game:
        """An independent copy (the position, the turns and the cards)."""
        g = Game(self.board, self.board_ref, self.ruleset, self.state.copy(), hands=self.dealt,
                 cards=self.cards, tags=self.tags)
        g.kept = dict(self.kept)
        g.board_tag = self.board_tag
        g._log = list(self._log)
        return g

    # -- the position ----------------------------------------------------------------------
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
        if self.state.hands is not None and any(not m.toilets for m in self.legal_moves()):
            return False  # the mover can place, and such a placement counts in every ruleset
        return rules_game.game_over(self.state)

    def position(self) -> str:
        """The one-line position string (see ``docs/notation.md``)."""
        return format_position(self.state, self.ruleset)

    def __eq__(self, other) -> bool:
        return isinstance(other, Game) and self.position() == other.position()

    __hash__ = None  # mutable, like chess.Board

    def __repr__(self) -> str:
        return f"Game({self.position()!r})"

    # -- playing ---------------------------------------------------------------------------
    def push(self, move: Move | str, vote: Mapping[str, Iterable[str]] | None = None,
             jein: Mapping[str, str] | None = None, keep: Mapping[str, str] | None = None) -> turn.Decision | None:
        """Play the next turn: a :class:`Move` from :meth:`legal_moves`, or DN text --
        a placement (``"S2 b1-c1"``, ``"W1 n2 @o1"``, with its own ``vote {...}`` if
        you like), ``"pass"`` (only when no placement is legal) or ``"choose"`` (the
        expert choice; ``keep`` names the goal card each player keeps, default their
        first). ``vote`` gives each player's cards (``{"Anna": ["JA"], "Ben": ["NE",
        "?"]}``; the ballots are put in voting order), ``jein`` the side each joker is
        declared for (``{"Ben": "no"}``). Returns the engine's decision (None for
        choose). Raises DnError -- the code and message validate would give -- and
        changes nothing when the turn is illegal."""
        if isinstance(move, str):
            parsed = parse_move(move, "move")
            if isinstance(parsed, Choose):
                return self._choose(keep)
            if parsed is not None and parsed.vote is not None and vote is not None:
                raise fail("P001", _("the move has a vote block and vote= is given too: give one"), path="move")
            placement = parsed
        elif isinstance(move, Move):
            placement = None
        else:
            raise TypeError(f"push() takes a Move or DN text, not {type(move).__name__}")
        ballots = self._ballots(vote, jein) if vote is not None else None
        st = self.state
        due, chosen = st.due, st.chosen
        if isinstance(move, Move) and any(m is move for m in self.legal_moves()):
            decision = turn.play_move(st, move, ballots)  # legal where it stands: only the vote is judged
        else:
            if isinstance(move, Move):  # a move from elsewhere: judged as its text would be
                placement = _placement(move, ballots, None)
            elif ballots is not None and placement is not None:
                placement = dataclasses.replace(placement, vote=ballots)
            decision = turn.play_turn(st, st.number + 1, st.to_move, placement)
            ballots = placement and placement.vote
        if isinstance(decision, Violation):
            self._raise(decision)
        event = Turn(decision.number, decision.player,
                     None if decision.move is None else _placement(decision.move, ballots, decision))
        self._log.append((event, ballots, decision, None, due, chosen))
        self._legal = None
        return decision

    def _choose(self, keep: Mapping[str, str] | None) -> None:
        kept = {}
        if self.cards is not None and self.variant == "expert":
            for p in self.players:
                kept[p] = (keep or {}).get(p, self.cards[p][0])
                if kept[p] not in self.cards[p]:
                    raise fail("X003", _("{player} cannot keep {card}: they hold {cards}").format(
                        player=p, card=kept[p], cards=and_list(self.cards[p])))
        due = self.state.due
        problem = turn.play_choose(self.state)
        if problem is not None:
            self._raise(problem)
        self.kept = kept
        self._log.append((Choose(), None, None, None, due, False))
        self._legal = None

    @property
    def events(self) -> list[Turn | Choose]:
        """The turns (and ``choose``) played so far, as a record writes them."""
        return [entry[0] for entry in self._log]

    @property
    def decisions(self) -> list[turn.Decision | None]:
        """The engine's decision on each event so far (None for ``choose``)."""
        return [entry[2] for entry in self._log]

    def _raise(self, v: Violation) -> None:
        raise DnError(Diagnostic("error", v.code, sentence(v), 0, 0, self.state.number + 1, v.rule or None,
                                 citation(v, self.ruleset), hint(v)), path="move")

    def _ballots(self, vote: Mapping[str, Iterable[str]], jein: Mapping[str, str] | None) -> Vote:
        """The ballots in voting order (B2); names that are not players go last, for
        the engine to report."""
        if not isinstance(vote, Mapping):
            raise fail("B002", _("vote= maps each player to the cards they lay, e.g. {example}").format(
                example='{"Anna": ["JA"]}'))
        jein = dict(jein or {})
        order = [p for p in voting_order(self.state, self.to_move) if p in vote]
        order += [p for p in vote if p not in order]
        ballots = []
        for p in order:
            if not isinstance(vote[p], (str, list, tuple)):
                raise fail("B002", _("{player}'s ballot is a list of cards like {example}").format(
                    player=str(p)[:40], example='["JA", "?"]'))
            cards = [vote[p]] if isinstance(vote[p], str) else list(vote[p])
            bad = [c for c in cards if c not in CARD_NAMES]
            if bad:
                raise fail("B003", _("{player} lays '{card}', which is no vote card ({cards})").format(
                    player=p, card=str(bad[0])[:20], cards=", ".join(CARD_NAMES)))
            side = jein.get(p)
            if side not in (None, "yes", "no"):
                raise fail("B004", _("{player}'s JEIN is declared 'yes' or 'no', not {side}").format(
                    player=p, side=repr(side))[:200])
            ballots.append(Ballot(p, tuple(Card(c, side if c == "JEIN" else None) for c in cards)))
        return Vote(tuple(ballots))

    def ballots(self, vote: Mapping[str, Iterable[str]], jein: Mapping[str, str] | None = None) -> Vote:
        """The ballots ``vote`` and ``jein`` (as :meth:`push` takes them) in voting order
        (B2), as push would lay them; ``rules.votes.tally`` counts them. Raises DnError
        B002-B004 for what is no ballot at all."""
        return self._ballots(vote, jein)

    def set_cards(self, cards: Mapping) -> None:
        """Give the players' cards later than :meth:`new` (``{"Anna": "museum"}``, expert:
        two goal cards each), e.g. the building cards shown at the reveal; :meth:`result`
        and the record's reveal use them. Raises DnError E001/X001 as ``new`` does."""
        goals = {p: (c,) if isinstance(c, str) else tuple(c) for p, c in cards.items()}
        _check_cards(goals, self.players, self.variant)
        self.cards = goals

    def pop(self) -> Turn | Choose:
        """Undo the last turn (or choose) and return it. Raises IndexError when there
        is nothing to undo."""
        if not self._log:
            raise IndexError("pop from a game with no turns behind it")
        event, ballots, decision, snapshot, due, chosen = self._log.pop()
        if snapshot is not None:
            self.state = snapshot.copy()  # copies share the snapshot: never hand it out to be changed
        elif decision is None:  # choose
            self.state.due, self.state.chosen = due, chosen
        else:
            turn.unplay(self.state, decision, ballots, due, chosen)
        if isinstance(event, Choose):
            self.kept = {}
        self._legal = None
        return event

    # -- the end ---------------------------------------------------------------------------
    def result(self) -> Result | None:
        """Scores and winners once the game is over and every player's card is known
        (in the expert variant, once chosen); None before."""
        if not self.is_over() or self.cards is None:
            return None
        expert = self.variant == "expert"
        if expert and len(self.kept) != len(self.players):
            return None
        chosen = {p: self.kept[p] if expert else self.cards[p][0] for p in self.players}
        other = {p: next(c for c in self.cards[p] if c != self.kept[p]) for p in self.players} if expert else None
        r = rank_players(self.board, self.state.covered, self.players, chosen, self.state.cards, other)
        return Result({s.player: s.score for s in r.standings}, r.winners, r.standings, tie_break(r))

    # -- the record ------------------------------------------------------------------------
    def to_record(self, reveal: bool = True) -> Record:
        """The game as a record: tags, hands, goals, every turn, and (when over and the
        cards are known) the reveal, scores and Result."""
        expert = self.variant == "expert"
        tags = list(self.tags) + [Tag("Players", ", ".join(self.players))]
        if self.board_tag != DEFAULT_BOARD:
            tags.append(Tag("Board", self.board_tag))
        if self.ruleset.id != DEFAULT_RULESET:
            tags.append(Tag("Rules", self.ruleset.id))
        if expert:
            tags.append(Tag("Variant", "expert"))
        setup: list = list(self._hands())
        if expert and self.cards is not None:
            setup += [Goals(p, tuple(self.cards[p])) for p in self.players]
        result = self.result() if reveal else None
        if result is None:
            return Record(tuple(tags), tuple(setup), tuple(self.events))
        tags.append(Tag("Result", ", ".join(result.winners)))
        entries = tuple(RevealEntry(p, self.kept[p], next(c for c in self.cards[p] if c != self.kept[p]))
                        if expert else RevealEntry(p, self.cards[p][0]) for p in self.players)
        return Record(tuple(tags), tuple(setup), tuple(self.events), Reveal(entries),
                      Score(tuple(ScoreEntry(p, result.scores[p]) for p in self.players)))

    def _hands(self) -> tuple[Hand, ...]:
        """The record's hand lines, made once per ``dealt`` (a live game's record is written after every move)."""
        if self._hand_lines is None or self._hand_lines[0] is not self.dealt:
            self._hand_lines = (self.dealt, () if self.dealt is None else tuple(
                Hand(p, tuple(HandTile(t, n) for t, n in sorted(self.dealt[p].items(), key=lambda i: i[0].order())
                              if n > 0)) for p in self.players))
        return self._hand_lines[1]

    def to_dn(self) -> str:
        """The canonical DN record of the game so far; ``Game.from_dn(g.to_dn()) == g``."""
        return format_record(self.to_record())


def _check_cards(cards: dict[str, tuple[str, ...]], players: tuple[str, ...], variant: str) -> None:
    """S3/X1: one building card each (base) or two goal cards each (expert), none twice."""
    want, known = (1, BUILDINGS) if variant == "base" else (2, GOALS)
    dealt = [c for p in players for c in cards.get(p, ())]
    if set(cards) != set(players) or any(len(cards[p]) != want for p in players) \
            or any(c not in known for c in dealt) or len(set(dealt)) != len(dealt):
        text = (_("cards= gives each player one building card, no card twice (known: {known})") if want == 1
                else _("cards= gives each player two goal cards, no card twice (known: {known})"))
        raise fail("X001" if want == 2 else "E001", text.format(known=", ".join(known)))


def _bare(event):
    """An event without its place in the file it came from (for a record written anew)."""
    if isinstance(event, Choose):
        return Choose()
    return Turn(event.number, event.player, event.placement)


def _placement(move: Move, ballots: Vote | None, decision) -> Placement:
    """The DN placement of ``move`` with its ballots and, once played, the outcome."""
    sq = move.squares
    outcome = None
    if isinstance(decision, turn.Decision) and decision.vote is not None:
        t = decision.vote.tally
        outcome = Outcome(decision.vote.accepted, t.yes, t.no)
    return Placement(move.tile, sq[0], sq[-1] if len(sq) > 1 else None, move.corner if move.needs_corner else None,
                     ballots, outcome)

