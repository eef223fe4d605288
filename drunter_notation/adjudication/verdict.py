"""The values of an adjudication: a verdict on one turn under one ruleset, the
rules it applied and the vote it held, each already in words."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TypedDict

from drunter_notation.errors import Diagnostic
from drunter_notation.i18n import _


@dataclass(frozen=True)
class RuleApplied:
    """One rule as it bore on the turn: its ID and title, the place in the ruleset's
    source (``citation``) and what it meant here (``how``)."""

    rule: str
    title: str
    citation: str
    how: str


@dataclass(frozen=True)
class VoteCount:
    """A vote held on the turn: the card-by-card ``lines`` and the ``arithmetic``,
    the outcome under the ruleset's ``option`` value (B5) and that option in words,
    and the outcome the record claims (None: no claim)."""

    lines: tuple[str, ...]
    arithmetic: str
    yes: int
    no: int
    accepted: bool
    option: str
    outcome_rule: str
    claim: str | None


class VerdictHead(TypedDict):
    """What every verdict on a turn that was judged starts with (:class:`Verdict`'s first fields)."""

    ruleset: str
    ruleset_name: str
    turn: int
    what_if: bool
    move: str
    player: str | None
    hand: str
    position: str | None
    position_string: str | None
    notes: tuple[str, ...]


@dataclass(frozen=True)
class Verdict:
    """The judgement of one turn under one ruleset.

    ``legal`` is None when the turn could not be judged because the replay stopped at
    an earlier violation (``diagnostic`` is that violation, ``earlier`` is True);
    otherwise ``diagnostic`` is the turn's violation, or None for a legal turn.
    ``alternatives`` lists every legal placement the player had (for an illegal
    placement or an illegal pass); ``forced`` says for a pass whether the player had
    no legal placement (None: not a pass, or hands not recorded). ``removed`` names
    the tracks whose gangs a legal placement trapped and removed (A5)."""

    ruleset: str
    ruleset_name: str
    turn: int
    what_if: bool
    move: str
    player: str | None
    hand: str
    position: str | None
    position_string: str | None  # the position before the turn as a ``dn1 ...`` string (docs/notation.md)
    legal: bool | None
    code: str | None = None
    message: str | None = None
    diagnostic: Diagnostic | None = None
    earlier: bool = False
    rules: tuple[RuleApplied, ...] = ()
    vote: VoteCount | None = None
    alternatives: tuple[str, ...] | None = None
    forced: bool | None = None
    removed: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def status(self) -> str:
        """``LEGAL``, ``ILLEGAL — A004 message`` or ``NOT JUDGED — ...``."""
        if self.legal is None:
            d = self.diagnostic
            if d and d.turn:
                return _("NOT JUDGED — the replay stops earlier, at turn {turn}: {code} {message}").format(
                    turn=d.turn, code=d.code, message=d.message)
            return _("NOT JUDGED — the replay stops earlier, at the header or setup: {code} {message}").format(
                code=d.code if d else "", message=d.message if d else "")
        if self.legal:
            return _("LEGAL")
        return _("ILLEGAL — {code} {message}").format(code=self.code, message=self.message)

    def as_json(self) -> dict[str, object]:
        out = dataclasses.asdict(self)
        out["diagnostic"] = self.diagnostic.as_json() if self.diagnostic else None
        out["status"] = self.status
        return out
