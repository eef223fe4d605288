"""Rulesets as data (DN-SPEC §5): one TOML file per ruleset in this folder.

The engine reads every choice on which the sources differ from
:class:`Options`; it never tests a ruleset's id.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Options:
    """The ruleset's choices. Each field is one point where the sources differ."""

    # B5: "yes-at-least-no" (ties stand) or "yes-over-no-unless-all-abstain"
    # (accepted iff yes > no, or yes == no == 0)
    vote_outcome: str = "yes-at-least-no"
    # B2: "placer-first-clockwise" or "any" (each player once, any order)
    ballot_order: str = "placer-first-clockwise"
    # A6: may one placement pass a run of several consecutive bridge fields?
    bridge_runs: bool = False
    # X5: are toilet placements voted on in the expert variant?
    expert_voting: bool = True
    # T2/E1: does a placement onto a toilet count as a legal placement for
    # Legezwang and for the end of the game?
    toilet_counts_for_legezwang: bool = True
    # A5: does the board edge count as a closed side of a gang's square?
    trap_counts_edge: bool = True
    # X1: "any-two" or "one-special-one-building" (Czech translator's house rule)
    expert_deal: str = "any-two"
    # B4: order in which several jokers are declared: "clockwise-from-placer" or "unspecified"
    joker_order: str = "unspecified"


@dataclass(frozen=True)
class Ruleset:
    """A ruleset: its options and, per rule ID, the section of its source to cite."""

    id: str
    name: str
    source: str  # file name in shared/rules-sources, e.g. "de-hig-1991-a.txt"
    label: str  # short source name used in citations, e.g. "HiG 1991"
    options: Options
    sections: dict[str, str] = field(default_factory=dict)  # rule ID -> "Spielregel A.3"

    def cite(self, rule: str) -> str:
        """``"HiG 1991, Spielregel A.3"`` for rule ``"A3"``."""
        return f"{self.label}, {self.sections.get(rule, 'no section')}"
