"""The corpus index: one row per report and the figures over all games."""
from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field

from drunter_notation.rules.board import Board
from drunter_notation.errors import Diagnostic
from drunter_notation.notation.model import BUILDINGS, Square
from drunter_notation.replay import Timeline


@dataclass(frozen=True)
class IndexEntry:
    """What the index knows of one record. ``href`` is its report, relative to the
    index page; ``status`` is "valid", "partial" or "invalid"; ``winning_cards`` the
    cards the winners scored with; ``covered`` the squares covered in the last
    position reached (empty when the record was not replayed)."""

    href: str
    name: str
    status: str
    title: str | None = None
    date: str | None = None
    players: tuple[str, ...] = ()
    error: Diagnostic | None = None
    turns: int = 0
    votes: int = 0
    rejected: int = 0
    scores: dict[str, int] | None = None
    winners: tuple[str, ...] = ()
    winning_cards: tuple[str, ...] = ()
    board: Board | None = None
    covered: frozenset[Square] = frozenset()


def index_entry(t: Timeline, href: str, name: str) -> IndexEntry:
    """The index row of a replayed record."""
    rec = t.record
    s = t.summary()
    status = "invalid" if t.errors else "valid" if t.scores is not None else "partial"
    cards = ()
    if t.winners and rec.reveal is not None:
        chosen = {e.player: e.chosen for e in rec.reveal.entries}
        cards = tuple(chosen[w] for w in t.winners)
    return IndexEntry(href, name, status, _tag(rec, "Event"), _tag(rec, "Date"), t.players or rec.players,
                      t.errors[0] if t.errors else None, s["turns"], s["votes"], s["rejected"], t.scores,
                      tuple(t.winners or ()), cards, t.board,
                      frozenset(t.state.covered) if t.state is not None else frozenset())


def failed_entry(href: str, name: str, error: Diagnostic) -> IndexEntry:
    """The index row of a record that could not be parsed."""
    return IndexEntry(href, name, "invalid", error=error)


def _tag(rec, key: str) -> str | None:
    tag = rec.tag(key)
    return tag.value if tag else None


@dataclass
class Heat:
    board: Board
    games: int = 0
    counts: Counter = field(default_factory=Counter)


@dataclass
class Summary:
    """Figures over all entries. Scores and winners count complete, valid games only."""

    games: int
    statuses: Counter
    player_counts: Counter
    players: list[dict]  # name, games, wins, mean score
    wins_by_card: list[tuple[str, int]]
    scores: dict | None  # mean, spread (population standard deviation), min, max, mean winning score
    votes: int
    rejected: int
    heat: list[Heat]


def summarize(entries: list[IndexEntry]) -> Summary:
    done = [e for e in entries if e.status == "valid"]
    per_player: dict[str, dict] = {}
    for e in entries:
        for p in e.players:
            row = per_player.setdefault(p, {"name": p, "games": 0, "wins": 0, "points": []})
            row["games"] += 1
            row["wins"] += p in e.winners and e.status == "valid"
            if e.scores and e.status == "valid":
                row["points"].append(e.scores[p])
    players = sorted(per_player.values(), key=lambda r: (-r["games"], -r["wins"], r["name"]))
    for r in players:
        points = r.pop("points")
        r["mean"] = statistics.fmean(points) if points else None
    cards = Counter(c for e in done for c in e.winning_cards)
    wins_by_card = [(b, cards[b]) for b in BUILDINGS] + sorted((c, n) for c, n in cards.items() if c not in BUILDINGS)
    all_scores = [v for e in done for v in e.scores.values()]
    scores = None
    if all_scores:
        scores = {"mean": statistics.fmean(all_scores), "spread": statistics.pstdev(all_scores),
                  "min": min(all_scores), "max": max(all_scores),
                  "winning": statistics.fmean(e.scores[e.winners[0]] for e in done)}
    heat: dict[tuple, Heat] = {}
    for e in entries:
        if e.board is None:
            continue
        b = e.board  # the same board read from different paths is one heatmap
        key = (b.id, b.width, b.height, frozenset(b.corners.items()), frozenset(b.buildings.items()), b.toilets)
        h = heat.setdefault(key, Heat(b))
        h.games += 1
        h.counts.update(e.covered)
    return Summary(len(entries), Counter(e.status for e in entries), Counter(len(e.players) for e in entries
                                                                              if e.players),
                   players, wins_by_card, scores, sum(e.votes for e in entries), sum(e.rejected for e in entries),
                   list(heat.values()))
