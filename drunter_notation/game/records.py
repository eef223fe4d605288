"""The third room of :class:`Game`: making a game (new, from a record, from a
position string, a copy) and a game as a record and as DN text."""
from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import islice
from pathlib import Path
from types import NoneType

from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import DEFAULT_RULESET, load_ruleset
from drunter_notation.deal import deal_goals, deal_hands, game_rng
from drunter_notation.errors import DnError, fail
from drunter_notation.game.history import GameHistory
from drunter_notation.game.inputs import card_sets, hand, typed, wrong_type
from drunter_notation.game.inputs import game_tags as tags_of
from drunter_notation.game.position import LogEntry
from drunter_notation.i18n import _, format_number
from drunter_notation.load import judge
from drunter_notation.notation.formatter import format_record, quote, writable_name, writable_text
from drunter_notation.notation.model import (
    Choose,
    Goals,
    Hand,
    HandTile,
    Record,
    Reveal,
    RevealEntry,
    Score,
    ScoreEntry,
    Setup,
    Tag,
    Tile,
    Turn,
)
from drunter_notation.notation.parser import parse_text
from drunter_notation.notation.values import MAX_LINE_CHARS
from drunter_notation.position import board_ref, parse_position
from drunter_notation.rules import turn
from drunter_notation.rules.board import DEFAULT_BOARD, Board
from drunter_notation.rules.options import Ruleset
from drunter_notation.rules.state import State


class Game(GameHistory):
    """A game of Drunter & Drüber: the position, the turns played, and what the
    players hold. Make one with :meth:`new`, :meth:`from_dn` or :meth:`from_position`.

    Two games are equal when their positions are (:meth:`position`)."""

    # -- making one ------------------------------------------------------------------------
    @classmethod
    def new(cls, players: Iterable[str], board: str = DEFAULT_BOARD, rules: str = DEFAULT_RULESET,
            variant: str = "base", seed: int | str | None = None,
            hands: Mapping[str, Mapping[str, int] | Mapping[Tile, int]] | None = None,
            cards: Mapping[str, str | Sequence[str]] | None = None, tags: Mapping[str, str] | None = None) -> Game:
        """A new game. ``seed`` deals the hands and cards as ``drunter simulate`` does;
        ``hands`` (``{"Anna": {"W3": 2, ...}}``) and ``cards`` (``{"Anna": "museum"}``,
        expert: ``{"Anna": ("museum", "one-each")}``) give them instead. Without either,
        hands are not recorded (some checks are then not made, as for such a record).
        ``board`` is a built-in id or a board file path. ``tags`` adds tags that read back
        as given (not the ones the game writes itself: Players, Board, Rules, Variant,
        Result). Raises DnError (H001, H002, H003, H004, D001-D003, E001, X001) for what
        cannot start a game, a value of the wrong type included."""
        typed(players, Iterable, "H001", "players", "Iterable[str]")
        typed(board, (str, os.PathLike), "H003", "board=", "str")
        typed(rules, str, "H004", "rules=", "str")
        typed(seed, (int, str, NoneType), "D001", "seed=", "int | str | None")
        typed(hands, (Mapping, NoneType), "D001", "hands=", "Mapping[str, Mapping[str, int]] | None")
        if isinstance(players, (str, bytes)):  # iterable, but a name's letters are no players
            raise wrong_type(players, "H001", "players", "Iterable[str]")
        game_tags = tags_of(tags)
        players = tuple(islice(players, 5))  # one more than a game takes: an endless iterable is not read to its end
        if not 2 <= len(players) <= 4 or not all(isinstance(p, str) and p.strip() == p and p for p in players) \
                or len(set(players)) != len(players):
            raise fail("H001", _("a game needs 2 to 4 different players, not {players}").format(
                players=repr(list(players)))[:300])
        for p in players:
            if not writable_name(p):
                raise fail("H001", _("a player's name cannot hold a comma, a line break or NUL, which a record "
                                     "cannot keep in a name: {name}").format(name=repr(p)[:100]))
        if len(quote(", ".join(players))) + len('[Players ]') > MAX_LINE_CHARS:  # the record's line of them
            raise fail("H001", _("the players' names are too long together: a record writes them on one line of "
                                 "at most {most} characters").format(most=format_number(MAX_LINE_CHARS)))
        if variant not in ("base", "expert"):
            raise fail("H002", _("Variant must be \"base\" or \"expert\", not {variant}").format(
                variant=repr(variant))[:200])
        board = os.fspath(board)
        typed(board, str, "H003", "board=", "str")  # a path of bytes
        if not writable_text(board):  # the record names it in its Board tag: one line of UTF-8 text
            raise fail("H003", _("a record names its board file in a tag, which cannot hold a line break or a NUL: "
                                 "{path}").format(path=repr(board)[:200]))
        loaded_board, ruleset = load_board(board), load_ruleset(rules)
        rng = None if seed is None else game_rng(seed)
        if hands is not None and set(hands) != set(players):
            raise fail("D001", _("hands= gives a hand to each player and no one else: {players}").format(
                players=", ".join(players))[:300])
        dealt = {p: hand(h) for p, h in hands.items()} if hands is not None else (
            deal_hands(loaded_board, players, rng) if rng else None)
        if cards is not None:
            goals: dict[str, tuple[str, ...]] | None = card_sets(cards, players, variant)
        else:
            goals = deal_goals(ruleset, players, variant, rng) if rng else None
        # dict(...): the engine takes dict[str, dict[Tile, int]] (a dict of Counters is not one to the checker)
        opening = turn.new_game(loaded_board, ruleset.options, players, None if dealt is None else dict(dealt.items()),
                                "expert" if variant == "expert" else "base")  # checked above: one of the two
        start = cls(loaded_board, board, ruleset, opening, hands=dealt, cards=goals, tags=game_tags)
        if hands is not None or cards is not None:  # judged as validate would judge the record's start
            t = judge(start.to_record(reveal=False), rules=ruleset.id, board=board)
            if not t.valid:
                raise DnError(t.errors[0])
        return start

    @classmethod
    def from_dn(cls, text: str, path: str = "<input>") -> Game:
        """The game a DN record describes, replayed turn by turn. Raises DnError with
        the first error ``drunter validate`` finds (P001, H003, A004, ...)."""
        typed(text, str, "P001", "Game.from_dn(text)", "str")
        typed(path, str, "P001", "Game.from_dn(path)", "str")
        record = parse_text(text, path)
        t = judge(record, path, keep_states=True)
        if not t.valid:
            raise DnError(t.errors[0], path=path)
        assert t.board is not None and t.ruleset is not None and t.initial is not None and t.state is not None
        board_tag = record.tag("Board")
        hands = {h.player: Counter({ht.tile: ht.count for ht in h.tiles}) for h in record.setup
                 if isinstance(h, Hand)} or None
        cards: dict[str, tuple[str, ...]] | None = {
            g.player: g.goals for g in record.setup if isinstance(g, Goals)} or None
        if record.reveal is not None:
            cards = {e.player: (e.chosen,) if e.other is None else (e.chosen, e.other) for e in record.reveal.entries}
        known = ("Players", "Board", "Rules", "Variant", "Result")
        g = cls(t.board, board_ref(t.board), t.ruleset, t.initial.copy(), hands=hands,
                cards=cards, tags=tuple(Tag(x.key, x.value) for x in record.tags if x.key not in known))
        g.board_tag = board_tag.value if board_tag else DEFAULT_BOARD
        before: State | None = t.initial
        for step in t.steps:
            g._log.append(LogEntry(event=_bare(step.event), ballots=None, decision=step.decision, snapshot=before,
                                   due=None, chosen=False))
            before = step.state
        g.state = t.state
        if record.reveal is not None and t.variant == "expert":
            g.kept = {e.player: e.chosen for e in record.reveal.entries}
        return g

    @classmethod
    def from_position(cls, text: str, base_dir: str | Path | None = None) -> Game:
        """The game at the position a position string describes (no turns behind it:
        :meth:`pop` has nothing to undo). Raises DnError P002, H003 or H004."""
        typed(text, str, "P002", "Game.from_position(text)", "str")
        typed(base_dir, (str, os.PathLike, NoneType), "H003", "base_dir=", "str | Path | None")
        state, ref, ruleset = parse_position(text, None if base_dir is None else Path(os.fspath(base_dir)))
        return cls(state.board, ref, ruleset, state, hands=None if state.hands is None else {
            p: Counter(h) for p, h in state.hands.items()})

    def copy(self) -> Game:
        """An independent copy (the position, the turns and the cards)."""
        g = Game(self.board, self.board_ref, self.ruleset, self.state.copy(), hands=self.dealt,
                 cards=self.cards, tags=self.tags)
        g.kept = dict(self.kept)
        g.board_tag = self.board_tag
        g._log = list(self._log)
        return g

    def __reduce__(self) -> tuple[Callable[..., Game], tuple[object, ...]]:
        """Pickled by its fields, remade as :meth:`copy` makes it (a compiled class is
        made by its ``__init__`` even when unpickled)."""
        return _unpickle, (self.board, self.board_ref, self.ruleset, self.state, self.dealt, self.cards, self.tags,
                           self.kept, self.board_tag, self._log)

    # -- the record ------------------------------------------------------------------------
    def to_record(self, *, reveal: bool = True) -> Record:
        """The game as a record: tags, hands, goals, every turn, and (when over and the
        cards are known) the reveal, scores and Result."""
        expert = self.variant == "expert"
        tags = [*self.tags, Tag("Players", ", ".join(self.players))]
        if self.board_tag != DEFAULT_BOARD:
            tags.append(Tag("Board", self.board_tag))
        if self.ruleset.id != DEFAULT_RULESET:
            tags.append(Tag("Rules", self.ruleset.id))
        if expert:
            tags.append(Tag("Variant", "expert"))
        setup: list[Setup] = list(self._hands())
        cards = self.cards
        if expert and cards is not None:
            setup += [Goals(p, (cards[p][0], cards[p][1])) for p in self.players]
        result = self.result() if reveal else None
        if result is None or cards is None:
            return Record(tuple(tags), tuple(setup), tuple(self.events))
        tags.append(Tag("Result", ", ".join(result.winners)))
        entries = tuple(RevealEntry(p, self.kept[p], next(c for c in cards[p] if c != self.kept[p]))
                        if expert else RevealEntry(p, cards[p][0]) for p in self.players)
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


def _bare(event: Turn | Choose) -> Turn | Choose:
    """An event without its place in the file it came from (for a record written anew)."""
    if isinstance(event, Choose):
        return Choose()
    return Turn(event.number, event.player, event.placement)


def _unpickle(board: Board, board_ref: str, ruleset: Ruleset, state: State, dealt: dict[str, Counter[Tile]] | None,
              cards: dict[str, tuple[str, ...]] | None, tags: tuple[Tag, ...], kept: dict[str, str], board_tag: str,
              log: list[LogEntry]) -> Game:
    g = Game(board, board_ref, ruleset, state, hands=dealt, cards=cards, tags=tags)
    g.kept, g.board_tag, g._log = kept, board_tag, log
    return g
