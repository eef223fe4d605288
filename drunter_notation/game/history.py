"""The second room of :class:`~drunter_notation.game.Game`: playing a turn (or the
expert choice) and taking it back, with the log of what was played."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from itertools import repeat
from types import NoneType
from typing import NoReturn

from drunter_notation.errors import Diagnostic, DnError, fail, quoted
from drunter_notation.explain.findings import citation, hint, sentence
from drunter_notation.explain.words import and_list
from drunter_notation.game.inputs import card_sets, typed, wrong_type
from drunter_notation.game.position import GamePosition, LogEntry
from drunter_notation.i18n import _
from drunter_notation.notation.model import CARD_NAMES, Ballot, Card, Choose, Outcome, Placement, Turn, Vote, quick
from drunter_notation.notation.parser import parse_move
from drunter_notation.rules import turn, votes
from drunter_notation.rules.placement import Move
from drunter_notation.rules.state import Violation
from drunter_notation.rules.votes import voting_order

# The values of a vote pushed, made as the reader makes a record's (one vote in five turns of a game played out)
_BALLOT, _VOTE = quick(Ballot), quick(Vote)
# (card, side declared by its player) -> the card laid: a JEIN takes the side, the others are alike on every side
_CARDS = {(c, side): Card(c, side if c == "JEIN" else None) for c in CARD_NAMES for side in (None, "yes", "no")}


class GameHistory(GamePosition):
    """A game's turns: :meth:`push` and :meth:`pop` (see :class:`Game`)."""

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
        placement: Placement | None
        if isinstance(move, str):
            parsed = parse_move(move, "move")
            if isinstance(parsed, Choose):
                self._choose(keep)
                return None
            if parsed is not None and parsed.vote is not None and vote is not None:
                raise fail("P001", _("the move has a vote block and vote= is given too: give one"), path="move")
            placement = parsed
        elif isinstance(move, Move):
            placement = None
        else:
            raise wrong_type(move, "P001", "push(move)", "Move | str")
        if jein is not None:  # mostly none: a push is the API's hot path
            typed(jein, Mapping, "B004", "jein=", "Mapping[str, str] | None")
        ballots = self._ballots(vote, jein) if vote is not None else None
        st = self.state
        due, chosen = st.due, st.chosen
        if isinstance(move, Move) and move in self.legal_moves():  # one of them, or one equal in every fact
            decision = turn.play_move(st, move, ballots)  # legal where it stands: only the vote is judged
        else:
            if isinstance(move, Move):  # a move from elsewhere: judged as its text would be
                placement = _placement(move, ballots, None)
            elif ballots is not None and placement is not None:
                placement = dataclasses.replace(placement, vote=ballots)
            decision = turn.play_turn(st, st.number + 1, st.to_move, placement)
            ballots = None if placement is None else placement.vote
        if isinstance(decision, Violation):
            self._raise(decision)
        # built by tuple.__new__ with its fields in order (the named tuple's own __new__ runs in Python); the
        # event as a record writes it is made when first read (a game played out by a program may never be)
        self._log.append(tuple.__new__(LogEntry, (None, ballots, decision, None, due, chosen)))
        self._legal = None
        return decision

    def _kept(self, keep: Mapping[str, str] | None) -> dict[str, str]:
        """The goal card each player keeps (default their first), each one of their two; X003 else."""
        typed(keep, (Mapping, NoneType), "X003", "keep=", "Mapping[str, str] | None")
        kept = {}
        if self.cards is not None and self.variant == "expert":
            for p in self.players:
                kept[p] = (keep or {}).get(p, self.cards[p][0])
                if kept[p] not in self.cards[p]:
                    raise fail("X003", _("{player} cannot keep {card}: they hold {cards}").format(
                        player=p, card=quoted(kept[p], 40), cards=and_list(self.cards[p])))
        return kept

    def set_kept(self, keep: Mapping[str, str]) -> None:
        """The goal card each player kept at ``choose``, for a game read from a record made before
        the reveal (it does not say: the choice is secret till then). Raises DnError X003."""
        if not self.state.chosen:
            raise fail("X003", _("the goal cards are kept at choose, which this game has not reached"))
        self.kept = self._kept(keep)

    def _choose(self, keep: Mapping[str, str] | None) -> None:
        kept = self._kept(keep)
        due = self.state.due
        problem = turn.play_choose(self.state)
        if problem is not None:
            self._raise(problem)
        self.kept = kept
        self._log.append(LogEntry(event=Choose(), ballots=None, decision=None, snapshot=None, due=due, chosen=False))
        self._legal = None

    @property
    def events(self) -> list[Turn | Choose]:
        """The turns (and ``choose``) played so far, as a record writes them."""
        return [self._event(i) for i in range(len(self._log))]

    def _event(self, i: int) -> Turn | Choose:
        """The event of log entry ``i``, a pushed turn's written (and kept) when first asked for."""
        entry = self._log[i]
        if entry.event is not None:
            return entry.event
        decision = entry.decision
        assert decision is not None  # only a pushed turn waits to be written
        event = Turn(decision.number, decision.player,
                     None if decision.move is None else _placement(decision.move, entry.ballots, decision))
        self._log[i] = entry._replace(event=event)
        return event

    @property
    def decisions(self) -> list[turn.Decision | None]:
        """The engine's decision on each event so far (None for ``choose``)."""
        return [entry.decision for entry in self._log]

    def _raise(self, v: Violation) -> NoReturn:
        raise DnError(Diagnostic("error", v.code, sentence(v), turn=self.state.number + 1, rule=v.rule or None,
                                 citation=citation(v, self.ruleset), hint=hint(v)), path="move")

    def _ballots(self, vote: Mapping[str, Iterable[str]], jein: Mapping[str, str] | None) -> Vote:
        """The ballots in voting order (B2); names that are not players go last, for
        the engine to report."""
        if not isinstance(vote, Mapping):
            raise fail("B002", _("vote= maps each player to the cards they lay, e.g. {example}").format(
                example='{"Anna": ["JA"]}'))
        if jein is not None:
            typed(jein, Mapping, "B004", "jein=", "Mapping[str, str] | None")
        declared = dict(jein or {})
        order = list(filter(vote.__contains__, voting_order(self.state, self.to_move)))
        if len(order) < len(vote):
            order += [p for p in vote if p not in order]
        ballots = []
        for p in order:
            laid = vote[p]
            if not isinstance(laid, (str, list, tuple)):
                raise fail("B002", _("{player}'s ballot is a list of cards like {example}").format(
                    player=str(p)[:40], example='["JA", "?"]'))
            cards = [laid] if isinstance(laid, str) else list(laid)
            for c in cards:
                if c not in CARD_NAMES:
                    raise fail("B003", _("{player} lays '{card}', which is no vote card ({cards})").format(
                        player=p, card=str(c)[:20], cards=", ".join(CARD_NAMES)))
            side = declared.get(p)
            if side not in (None, "yes", "no"):
                raise fail("B004", _("{player}'s JEIN is declared 'yes' or 'no', not {side}").format(
                    player=p, side=repr(side))[:200])
            # each card as laid with the side declared (which only a JEIN keeps), looked up in C
            ballots.append(_BALLOT(p, tuple(map(_CARDS.__getitem__, zip(cards, repeat(side))))))
        return _VOTE(tuple(ballots))

    def ballots(self, vote: Mapping[str, Iterable[str]], jein: Mapping[str, str] | None = None) -> Vote:
        """The ballots ``vote`` and ``jein`` (as :meth:`push` takes them) in voting order
        (B2), as push would lay them; ``rules.votes.tally`` counts them. Raises DnError
        B002-B004 for what is no ballot at all."""
        return self._ballots(vote, jein)

    def check_ballot(self, player: str, cards: Iterable[str]) -> None:
        """The cards ``player`` lays in the vote now due, judged alone, as before the other
        ballots are known: raises DnError B003 for a card no vote card, no longer held or
        laid more often than held (the rest of B2-B4 needs every ballot: :meth:`push`)."""
        typed(player, str, "B002", "check_ballot(player)", "str")  # a key of the vote: a list would be a TypeError
        ballot = self._ballots({player: cards}, None).ballots[0]
        if player in self.players:
            problem = votes.check_cards(self.state, ballot)
            if problem is not None:
                self._raise(problem)

    def set_cards(self, cards: Mapping[str, str | Iterable[str]]) -> None:
        """Give the players' cards later than :meth:`new` (``{"Anna": "museum"}``, expert:
        two goal cards each), e.g. the building cards shown at the reveal; :meth:`result`
        and the record's reveal use them. Raises DnError E001/X001 as ``new`` does."""
        self.cards = card_sets(cards, self.players, self.variant)

    def pop(self) -> Turn | Choose:
        """Undo the last turn (or choose) and return it. Raises DnError U001 when there
        is nothing to undo (a new game, or one made from a position)."""
        if not self._log:
            raise fail("U001", _("there is no turn to undo: the game is at its start, or was made from a position"))
        event = self._event(len(self._log) - 1)
        entry = self._log.pop()
        if entry.snapshot is not None:
            self.state = entry.snapshot.copy()  # copies share the snapshot: never hand it out to be changed
        elif entry.decision is None:  # choose
            self.state.due, self.state.chosen = entry.due, entry.chosen
        else:
            turn.unplay(self.state, entry.decision, entry.ballots, entry.due, entry.chosen)
        if isinstance(event, Choose):
            self.kept = {}
        self._legal = None
        return event


def _placement(move: Move, ballots: Vote | None, decision: turn.Decision | None) -> Placement:
    """The DN placement of ``move`` with its ballots and, once played, the outcome."""
    sq = move.squares
    outcome = None
    if decision is not None and decision.vote is not None:
        t = decision.vote.tally
        outcome = Outcome(decision.vote.accepted, t.yes, t.no)
    return Placement(move.tile, sq[0], sq[-1] if len(sq) > 1 else None, move.corner if move.needs_corner else None,
                     ballots, outcome)
