"""What the table holds in memory only, never in a record, while it is collected: a
secret ballot (rule B2: every player lays face down; all turn over together) and the
expert choice (X2). :mod:`.seats` changes them; a :class:`~.store.Table` holds them."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Refusal:
    """A turn-over the engine refused, kept as its ballots: each reader gets the
    engine's answer in their own language (a text kept would stay in the first's)."""

    laid: dict[str, tuple[str, ...]]
    jein: dict[str, str]
    path: str  # the record's name, as the answer starts with it


@dataclass(frozen=True)
class Vote:
    """A secret ballot in progress on one turn's placement."""

    turn: int
    move: str  # the legal move's DN text
    order: tuple[str, ...]  # voting order, the placer first (B2)
    laid: dict[str, tuple[str, ...]] = field(default_factory=dict)
    jein: dict[str, str] = field(default_factory=dict)
    refused: Refusal | None = None  # the last turn-over, when the engine refused it

    @property
    def shown(self) -> bool:
        return len(self.laid) == len(self.order)

    @property
    def jein_due(self) -> tuple[str, ...]:
        return tuple(p for p in self.order if "JEIN" in self.laid.get(p, ()) and p not in self.jein)


@dataclass(frozen=True)
class Choice:
    """The expert choice (X2) in progress: the goal card each player keeps, secret until the reveal."""

    turn: int
    keep: dict[str, str] = field(default_factory=dict)
