"""The club's archive: one entry per reported record, kept in a manifest beside the
reports, and the figures of the index page over all of them.

An :class:`IndexEntry` holds everything the index shows of a record, so the index
can be rebuilt from the manifest alone (:func:`entry_to_json` and
:func:`entry_from_json`), whichever run wrote each report. Statistics count valid
complete games only, one group per board, ruleset and variant; partial and invalid
records are listed apart.
"""
from __future__ import annotations

import json
import os
import statistics
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import PurePath, PurePosixPath
from typing import Any

from drunter_notation.errors import Diagnostic, json_safe
from drunter_notation.notation.model import BUILDINGS, Record, Square, Turn
from drunter_notation.replay import Timeline
from drunter_notation.rules.board import Board

MANIFEST_VERSION = 1
# Ties are told apart because the rulesets settle them differently.
JsonObject = dict[str, Any]  # a JSON object as json.loads gives it
VOTE_OUTCOMES = ("accepted, more yes", "accepted on a tie", "rejected on a tie", "rejected, more no")


@dataclass(frozen=True)
class IndexEntry:
    """What the index knows of one record. ``href`` is its report, relative to the
    index page; ``record`` the record's absolute path; ``status`` "valid"
    (complete), "partial" or "invalid"; ``winner_seats`` the winners' seats
    (0-based); ``winning_cards`` the cards they scored with; ``vote_outcomes`` a
    count per :data:`VOTE_OUTCOMES` entry; ``covered`` the squares covered in the
    last position reached (empty when the record was not replayed)."""

    href: str
    record: str
    status: str
    title: str | None = None
    date: str | None = None
    site: str | None = None
    players: tuple[str, ...] = ()
    error: Diagnostic | None = None
    turns: int = 0
    votes: int = 0
    rejected: int = 0
    scores: dict[str, int] | None = None
    winners: tuple[str, ...] = ()
    winner_seats: tuple[int, ...] = ()
    winning_cards: tuple[str, ...] = ()
    vote_outcomes: tuple[int, ...] = (0, 0, 0, 0)
    board: Board | None = None
    ruleset: str | None = None
    variant: str = "base"
    covered: frozenset[Square] = frozenset()


def _outcome(yes: int, no: int, accepted: bool) -> int:
    if accepted:
        return 1 if yes == no else 0
    return 2 if yes == no else 3


def index_entry(t: Timeline, href: str, record: str) -> IndexEntry:
    """The index entry of a replayed record read from the file ``record``."""
    rec = t.record
    s = t.summary()
    status = "invalid" if t.errors else "valid" if t.scores is not None else "partial"
    players = t.players or rec.players
    cards: tuple[str, ...] = ()
    if t.winners and rec.reveal is not None:
        chosen = {e.player: e.chosen for e in rec.reveal.entries}
        cards = tuple(chosen[w] for w in t.winners)
    outcomes = Counter(_outcome(st.tally.yes, st.tally.no, bool(st.accepted)) for st in t.steps
                       if isinstance(st.event, Turn) and st.tally is not None)
    return IndexEntry(
        href=href, record=os.path.abspath(record), status=status, title=_tag(rec, "Event"), date=_tag(rec, "Date"),
        site=_tag(rec, "Site"), players=players, error=t.errors[0] if t.errors else None, turns=s["turns"],
        votes=s["votes"], rejected=s["rejected"], scores=t.scores, winners=tuple(t.winners or ()),
        winner_seats=tuple(players.index(w) for w in t.winners or ()), winning_cards=cards,
        vote_outcomes=tuple(outcomes[k] for k in range(len(VOTE_OUTCOMES))), board=t.board, ruleset=s["ruleset"],
        variant=t.variant, covered=frozenset(t.state.covered) if t.state is not None else frozenset())


def failed_entry(href: str, record: str, error: Diagnostic) -> IndexEntry:
    """The index entry of a record that could not be parsed."""
    return IndexEntry(href=href, record=os.path.abspath(record), status="invalid", error=error)


def _tag(rec: Record, key: str) -> str | None:
    tag = rec.tag(key)
    return tag.value if tag else None


# -- the manifest ------------------------------------------------------------

def _board_to_json(b: Board) -> JsonObject:
    return {"id": b.id, "name": b.name, "width": b.width, "height": b.height,
            "corners": sorted([c, r, kind] for (c, r), kind in b.corners.items()),
            "buildings": sorted([c, r, t, v] for (c, r), (t, v) in b.buildings.items()),
            "toilets": sorted([c, r] for c, r in b.toilets), "box": {k: list(v) for k, v in b.box.items()},
            "note": b.note, "path": b.path}


def _board_from_json(d: JsonObject) -> Board:
    return Board(id=d["id"], name=d["name"], width=d["width"], height=d["height"],
                 corners={(c, r): k for c, r, k in d["corners"]},
                 buildings={(c, r): (t, v) for c, r, t, v in d["buildings"]},
                 toilets=frozenset((c, r) for c, r in d["toilets"]), box={k: tuple(v) for k, v in d["box"].items()},
                 note=d["note"], path=d["path"])


def entry_to_json(e: IndexEntry) -> JsonObject:
    """``e`` as plain JSON data (the manifest's form of it)."""
    d = asdict(e)
    d["error"] = None if e.error is None else asdict(e.error)
    d["board"] = None if e.board is None else _board_to_json(e.board)
    d["covered"] = sorted(list(sq) for sq in e.covered)
    return d


def entry_from_json(d: object) -> IndexEntry:
    """The entry :func:`entry_to_json` wrote. Raises KeyError, TypeError or
    ValueError for data that is not such an entry."""
    known = {f for f in IndexEntry.__dataclass_fields__}
    if not isinstance(d, dict) or not {"href", "record", "status"} <= d.keys() or d.keys() - known:
        raise ValueError("an entry is not a report entry")
    if d["status"] not in ("valid", "partial", "invalid"):
        raise ValueError(f"unknown status {d['status']!r}")
    href = d["href"]
    # a page is written where the manifest says: only below the folder, never through '..'
    if not isinstance(href, str) or not href.endswith(".html") or href.startswith("/") or "\\" in href \
            or ".." in PurePosixPath(href).parts or "\x00" in href:
        raise ValueError("a report's page lies outside the report folder")
    d = dict(d)
    for key in ("players", "winners", "winner_seats", "winning_cards", "vote_outcomes"):
        if key in d:
            d[key] = tuple(d[key])
    if d.get("error") is not None:
        d["error"] = Diagnostic(**d["error"])
    if d.get("board") is not None:
        d["board"] = _board_from_json(d["board"])
    d["covered"] = frozenset((c, r) for c, r in d.get("covered", ()))
    return IndexEntry(**d)


def manifest_text(entries: list[IndexEntry]) -> str:
    """The manifest file's text: JSON with one line per report, sorted by page, so it diffs well."""
    # json_safe: a file name that is not UTF-8 (its bytes as lone surrogates) is kept as a \udcff escape
    lines = [json_safe(json.dumps(entry_to_json(e), ensure_ascii=False)) for e in sorted(entries, key=lambda e: e.href)]
    return f'{{"version": {MANIFEST_VERSION}, "reports": [\n' + ",\n".join(lines) + "\n]}\n"


def entries_from_manifest(data: object) -> list[IndexEntry]:
    """The entries of a manifest's JSON data. Raises ValueError (or KeyError,
    TypeError) when it is not a manifest this version can read."""
    if not isinstance(data, dict) or data.get("version") != MANIFEST_VERSION or not isinstance(
            data.get("reports"), list):
        raise ValueError(f"not a version-{MANIFEST_VERSION} report manifest")
    return [entry_from_json(d) for d in data["reports"]]


def merge(archive: list[IndexEntry], new: list[IndexEntry]) -> list[IndexEntry]:
    """The archive after this run: each new entry replaces any entry of the same
    report or the same record."""
    hrefs, records = {e.href for e in new}, {e.record for e in new}
    return [e for e in archive if e.href not in hrefs and e.record not in records] + list(new)


def display_names(entries: list[IndexEntry]) -> dict[str, str]:
    """Per record path, its name relative to the folder common to all records:
    distinct paths give distinct names."""
    paths = sorted({e.record for e in entries})
    if not paths:
        return {}
    try:
        root = os.path.commonpath([os.path.dirname(p) for p in paths])
    except ValueError:  # different drives: no common folder, keep the whole paths
        return {p: p for p in paths}
    return {p: PurePath(os.path.relpath(p, root)).as_posix() for p in paths}


# -- figures -------------------------------------------------------------------

@dataclass
class Group:
    """The valid complete games played on one board under one ruleset and variant."""

    board: Board
    ruleset: str
    variant: str
    games: list[IndexEntry] = field(default_factory=list)
    player_counts: Counter[int] = field(default_factory=Counter)  # games by number of players
    players: list[JsonObject] = field(default_factory=list)  # name, games, wins, mean score
    seats: list[tuple[int, int, int]] = field(default_factory=list)  # seat (0-based), wins, games with that seat
    wins_by_card: list[tuple[str, int]] = field(default_factory=list)
    lengths: list[tuple[tuple[int, int], int]] = field(default_factory=list)  # a range of turns, games in it
    outcomes: list[tuple[str, int]] = field(default_factory=list)
    scores: dict[str, float] | None = None  # mean, spread (population standard deviation), min, max, mean winning score
    votes: int = 0
    rejected: int = 0
    heat: Counter[Square] = field(default_factory=Counter)


@dataclass
class Summary:
    records: int
    statuses: Counter[str]
    groups: list[Group]
    partial: list[IndexEntry]
    invalid: list[IndexEntry]


def board_key(b: Board) -> tuple[object, ...]:
    # the same board read from different paths is one board
    return (b.id, b.width, b.height, frozenset(b.corners.items()), frozenset(b.buildings.items()), b.toilets)


def length_bins(turns: list[int], width: int = 10) -> list[tuple[tuple[int, int], int]]:
    """Games per range of ``width`` turns (first and last length of the range), from
    the shortest game's range to the longest's."""
    if not turns:
        return []
    counts = Counter(t // width for t in turns)
    return [((k * width, k * width + width - 1), counts[k]) for k in range(min(counts), max(counts) + 1)]


def _group(g: Group) -> Group:
    done = g.games
    per_player: dict[str, JsonObject] = {}
    for e in done:
        assert e.scores is not None  # the groups hold complete games
        for p in e.players:
            row = per_player.setdefault(p, {"name": p, "games": 0, "wins": 0, "points": []})
            row["games"] += 1
            row["wins"] += p in e.winners
            row["points"].append(e.scores[p])
        g.player_counts[len(e.players)] += 1
        g.votes += e.votes
        g.rejected += e.rejected
        g.heat.update(e.covered)
    g.players = sorted(per_player.values(), key=lambda r: (-r["games"], -r["wins"], r["name"]))
    for r in g.players:
        r["mean"] = statistics.fmean(r.pop("points"))
    seat_wins = Counter(s for e in done for s in e.winner_seats)
    seat_games = Counter(s for e in done for s in range(len(e.players)))
    g.seats = [(s, seat_wins[s], seat_games[s]) for s in sorted(seat_games)]
    cards = Counter(c for e in done for c in e.winning_cards)
    g.wins_by_card = [(b, cards[b]) for b in BUILDINGS] + sorted((c, n) for c, n in cards.items()
                                                                 if c not in BUILDINGS)
    g.lengths = length_bins([e.turns for e in done])
    g.outcomes = [(name, sum(e.vote_outcomes[k] for e in done)) for k, name in enumerate(VOTE_OUTCOMES)]
    scores = [e.scores for e in done if e.scores is not None]  # all: the groups hold complete games
    points = [v for s in scores for v in s.values()]
    g.scores = {"mean": statistics.fmean(points), "spread": statistics.pstdev(points), "min": min(points),
                "max": max(points),
                "winning": statistics.fmean(s[e.winners[0]] for e, s in zip(done, scores, strict=True))}
    return g


def summarize(entries: list[IndexEntry]) -> Summary:
    """The index's figures: one :class:`Group` per board, ruleset and variant over
    the valid complete games, and the partial and invalid records apart."""
    groups: dict[tuple[object, ...], Group] = {}
    for e in entries:
        if e.status == "valid" and e.board is not None and e.scores is not None:
            key = (board_key(e.board), e.ruleset, e.variant)
            groups.setdefault(key, Group(e.board, e.ruleset or "", e.variant)).games.append(e)
    ordered = sorted(groups.values(), key=lambda g: (-len(g.games), g.board.name, g.ruleset, g.variant))
    return Summary(len(entries), Counter(e.status for e in entries), [_group(g) for g in ordered],
                   [e for e in entries if e.status == "partial"], [e for e in entries if e.status == "invalid"])
