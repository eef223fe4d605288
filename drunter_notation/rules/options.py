"""A ruleset as the engine sees it: typed options and the places to cite.

Each :class:`Options` field is one point on which the rule texts differ; the
engine reads these fields and never a ruleset's id. Reading the shipped TOML files
into these values is :mod:`drunter_notation.data.rulesets`' job.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class VoteOutcome(StrEnum):
    """B5: when a vote lets the tile stand."""

    YES_AT_LEAST_NO = "yes-at-least-no"  # ties stand (HiG 1991)
    YES_OVER_NO_UNLESS_ALL_ABSTAIN = "yes-over-no-unless-all-abstain"  # Webley


class BallotOrder(StrEnum):
    """B2: the order in which the ballots are cast."""

    PLACER_FIRST_CLOCKWISE = "placer-first-clockwise"
    ANY = "any"


class ExpertDeal(StrEnum):
    """X1: which two goal cards a player may be dealt."""

    ANY_TWO = "any-two"
    ONE_SPECIAL_ONE_BUILDING = "one-special-one-building"  # Czech translator's house rule


@dataclass(frozen=True)
class Options:
    """The ruleset's choices. Each field is one point where the sources differ."""

    vote_outcome: VoteOutcome = VoteOutcome.YES_AT_LEAST_NO
    ballot_order: BallotOrder = BallotOrder.PLACER_FIRST_CLOCKWISE
    # A6: may one placement pass a run of several consecutive bridge fields?
    bridge_runs: bool = False
    # X5: are toilet placements voted on in the expert variant?
    expert_voting: bool = True
    # T2/E1: does a placement onto a toilet count as possible for Legezwang and the end?
    toilet_counts_for_legezwang: bool = True
    # A5: does the board edge close a side of a gang's square?
    trap_counts_edge: bool = True
    expert_deal: ExpertDeal = ExpertDeal.ANY_TWO


@dataclass(frozen=True)
class Ruleset:
    """A ruleset: its options and, per rule ID, the section of its source to cite.

    ``wording`` maps each topic id of the catalogue to what this ruleset's source
    says on it (the project's paraphrase); ``topic_sections`` maps each topic id to
    the place in the source. ``extends`` is the id of the ruleset this one was
    derived from, if any.
    """

    id: str
    name: str
    source: str  # the source text this ruleset follows, e.g. "de-hig-1991-a.txt"
    label: str  # short source name used in citations, e.g. "HiG 1991"
    options: Options
    sections: dict[str, str] = field(default_factory=dict)  # rule ID -> "Spielregel A.3"
    wording: dict[str, str] = field(default_factory=dict)  # topic id -> paraphrase of the source
    topic_sections: dict[str, str] = field(default_factory=dict)  # topic id -> place in the source
    extends: str | None = None

    def cite(self, rule: str) -> str:
        """``"HiG 1991, Spielregel A.3"`` for rule ``"A3"``; the source alone for a rule
        it does not place (no word of any language here)."""
        return _cite(self.label, self.sections.get(rule))

    def cite_topic(self, topic: str) -> str:
        """``"HiG 1991, Spielregel B, Abs. 11"`` for topic ``"revote"``."""
        return _cite(self.label, self.topic_sections.get(topic))


def _cite(label: str, section: str | None) -> str:
    return f"{label}, {section}" if section else label
