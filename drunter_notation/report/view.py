"""What a report shows, computed from a replay :class:`~drunter_notation.replay.Timeline`.

A report is a sequence of *frames* the reader steps through: the start position,
one frame per replayed event (turn or ``choose``), then either the violation that
stopped the replay (the attempted placement marked on the position before it) or,
for a complete record, the end of the game. Everything here is plain data; the
templates and :mod:`.svg` turn it into HTML and SVG.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from markupsafe import Markup

from drunter_notation.errors import Diagnostic
from drunter_notation.explain import steps
from drunter_notation.explain.findings import arithmetic, card_lines
from drunter_notation.explain.words import spell
from drunter_notation.i18n import N_, _
from drunter_notation.notation.formatter import format_item
from drunter_notation.notation.model import (
    BUILDINGS,
    CARD_NAMES,
    KINDS,
    Choose,
    Reveal,
    Square,
    Tile,
    Turn,
    square_name,
)
from drunter_notation.replay import Step, Timeline
from drunter_notation.report import svg
from drunter_notation.report.index import JsonObject
from drunter_notation.rules.board import Board
from drunter_notation.rules.scoring import goal_score, votes_left
from drunter_notation.rules.state import State

# The ruleset's vote outcome option (B5) as the vote panel words it.
VOTE_RULES = {"yes-at-least-no": N_("yes at least no"),
              "yes-over-no-unless-all-abstain": N_("yes over no unless all abstain")}


@dataclass(frozen=True)
class HandRow:
    """One player's stock in a position: tiles and vote cards as text; ``seat`` and
    ``tag`` are their colour and chip on the board; ``marked``: the player the
    frame is about (who moved, or who moves first)."""

    player: str
    tiles: str | None  # None when the record has no hands
    cards: str
    votes: int
    seat: int
    tag: str
    marked: bool = False


@dataclass(frozen=True)
class VoteView:
    lines: tuple[str, ...]  # one per card played, e.g. "Dora: JAA = 2 yes"
    arithmetic: str
    yes: int
    no: int
    accepted: bool
    claim: str | None  # the outcome as the record claims it, e.g. "rejected 2:5"
    rule: str  # the outcome rule and where the ruleset's source says it


@dataclass
class Frame:
    """One position the reader can step to. ``tiles``: how many tiles of the game lie
    on the board; ``gangs``: per gang (board corner order) its centre in board
    pixels and whether it is still in play."""

    index: int
    kind: str  # "start", "turn", "choose", "violation" or "end"
    title: str
    dn: str | None = None
    comments: tuple[str, ...] = ()
    facts: list[str] = field(default_factory=list)
    vote: VoteView | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    hands: list[HandRow] = field(default_factory=list)
    marked: str = ""  # what the ▶ in the hands table says of the marked player, e.g. "Dora played this turn"
    tiles: int = 0
    gangs: list[tuple[float, float, bool]] = field(default_factory=list)
    label: str = ""  # short name on the chart's x axis and the slider


@dataclass(frozen=True)
class ListItem:
    """One line of the turn list: the DN text and the frame it opens (None: not judged)."""

    frame: int | None
    dn: str
    classes: str
    code: str | None = None


@dataclass
class ReportView:
    """Everything the report template needs."""

    title: str
    timeline: Timeline
    frames: list[Frame]
    items: list[ListItem]
    board: object  # Markup of the board SVG, or None when no board could be loaded
    chart: object  # Markup of the points chart, or None
    status: str  # "valid", "partial" or "invalid"
    status_text: str
    general: list[Diagnostic]  # findings not tied to a frame (header, setup, warnings)
    source: list[tuple[int, str, str]]  # (line number, text, css classes)
    tags: list[tuple[str, str]]
    standings: list[JsonObject] = field(default_factory=list)
    seats: list[JsonObject] = field(default_factory=list)  # per seat: its colour and the tag on its chips


def violation(t: Timeline) -> tuple[Turn | Choose, Diagnostic] | None:
    """The event that stopped the replay and its error, or None (the replay reached
    the end, or it stopped before the first turn: in the header or the setup)."""
    events = t.record.events
    if t.errors and t.initial is not None and len(t.steps) < len(events):
        return events[len(t.steps)], t.errors[0]
    return None


def turn_title(number: int, player: str) -> str:
    """A turn's heading: ``Turn 8 — Dora``."""
    return _("Turn {turn} — {player}").format(turn=number, player=player)


def tile_label(number: int, player: str, where: str) -> str:
    """A laid tile's tooltip: ``turn 8 · Dora · W3 a11-a9`` (``where`` is DN)."""
    return _("turn {turn} · {player} · {tile}").format(turn=number, player=player, tile=where)


def outcome_text(accepted: bool, yes: int | None, no: int | None) -> str:
    """A vote's outcome in words: ``accepted 5:2``, ``rejected`` (no count given)."""
    if yes is None:
        return _("accepted") if accepted else _("rejected")
    return (_("accepted {yes}:{no}") if accepted else _("rejected {yes}:{no}")).format(yes=yes, no=no)


def short_dn(event: Turn | Choose) -> str:
    """The event's DN without its vote and claimed outcome: ``8. Dora W3 a11-a9``."""
    if isinstance(event, Turn) and event.placement is not None:
        event = replace(event, placement=replace(event.placement, vote=None, outcome=None))
    return format_item(event)


def attempted_squares(event: Turn | Choose, board: Board | None) -> tuple[Square, ...]:
    """The on-board squares a violating placement names: the straight line from its
    anchor to its end, or just those two squares when they are not in line."""
    p = event.placement if isinstance(event, Turn) else None
    if p is None or board is None:
        return ()
    (ac, ar), (ec, er) = p.anchor, p.last
    if ac == ec or ar == er:
        n = max(abs(ec - ac), abs(er - ar))
        sc, sr = (ec > ac) - (ec < ac), (er > ar) - (er < ar)
        line = tuple((ac + k * sc, ar + k * sr) for k in range(n + 1))
    else:
        line = (p.anchor, p.last)
    return tuple(sq for sq in line if board.on_board(sq))


def gang_square(state: State, corner: Square) -> Square:
    """Where the gang of ``corner`` stands, or for a removed gang its last square:
    the end of the last tile laid on its track (the corner when none was)."""
    here = state.gangs[corner]
    if here is not None:
        return here
    return next((t.end for t in reversed(state.tiles) if t.corner == corner), corner)


def _tile_text(counter: Counter[Tile]) -> str:
    order = sorted(counter.items(), key=lambda kv: ("WSR".index(kv[0].kind), -kv[0].length))
    return " ".join(f"{t}×{n}" if n > 1 else str(t) for t, n in order if n > 0) or "–"


def owner_tags(players: Sequence[str]) -> dict[str, str]:
    """The shortest prefix (one or two characters) that tells each player apart on a tile's chip."""
    tags: dict[str, str] = {}
    for p in players:
        others = [q for q in players if q != p]
        tags[p] = next((p[:k] for k in (1, 2) if not any(q[:k].casefold() == p[:k].casefold() for q in others)),
                       str(players.index(p) + 1))
    return tags


def hand_rows(state: State, marked: str | None = None) -> list[HandRow]:
    """The hands table of a position; ``marked`` is the player the frame is about."""
    tags = owner_tags(state.players)
    rows = []
    for i, p in enumerate(state.players):
        cards = state.cards[p]
        tiles = None if state.hands is None else _tile_text(state.hands[p])
        held = " ".join(n for n in CARD_NAMES if cards.get(n)) or "–"
        rows.append(HandRow(p, tiles, held, votes_left(cards), i, tags[p], p == marked))
    return rows


def _comments(event: Turn | Choose | Reveal) -> tuple[str, ...]:
    return tuple(event.comments) + ((event.note,) if event.note else ())


class _Builder:
    """Walks the timeline once, collecting frames, turn-list items, tiles and marks."""

    def __init__(self, t: Timeline, source_text: str):
        if t.state is not None and t.initial is None:
            raise ValueError("render_report needs a timeline replayed with keep_states=True")
        self.timeline = t
        self.source_text = source_text
        self.geom = svg.Geometry.of(t.board) if t.board is not None else None
        self.frames: list[Frame] = []
        self.items: list[ListItem] = []
        self.tiles: list[svg.TileDrawing] = []
        self.marks: list[str] = []
        self.states: list[State] = []
        self.tags = owner_tags(t.players)

    # -- frames ------------------------------------------------------------
    def add(self, frame: Frame, state: State, covered: tuple[Square, ...] = (), rejected: tuple[Square, ...] = (),
            bad: tuple[Square, ...] = (), marked: str | None = None) -> None:
        geom = self.geom
        assert geom is not None  # frames come with positions, so the board was loaded
        frame.tiles = len(state.tiles)
        frame.gangs = [(*geom.centre(gang_square(state, c)), state.gangs[c] is not None) for c in state.gangs]
        frame.hands = hand_rows(state, marked)
        self.frames.append(frame)
        self.marks.append(svg.marks_svg(geom, frame.index, covered, rejected, bad))

    def build(self) -> ReportView:
        t = self.timeline
        if t.initial is not None:
            self.add(Frame(0, "start", _("Before turn 1"), label="0",
                           marked=_("{player} moves first").format(player=t.players[0]),
                           facts=steps.start(t.players[0])), t.initial,
                     marked=t.players[0])
            self.items.append(ListItem(0, _("start"), "start"))  # the only entry that is not DN: said in words
            self.states.append(t.initial)
            prev = t.initial
            for step in t.steps:
                self.step(step, prev)
                prev = _kept(step)
            stop = violation(t)
            if stop is not None:
                self.stopped(*stop, prev)
            elif t.record.reveal is not None:
                self.end(prev)
        self.not_judged()
        return self.view()

    def step(self, step: Step, before: State) -> None:
        ev, st = step.event, _kept(step)
        i = len(self.frames)
        self.states.append(st)
        if isinstance(ev, Choose):
            self.add(Frame(i, "choose", _("choose"), format_item(ev), comments=_comments(ev), label="ch",
                           facts=[steps.chosen()]), st)
            self.items.append(ListItem(i, format_item(ev), "choose"))
            return
        frame = Frame(i, "turn", turn_title(ev.number, ev.player), format_item(ev), comments=_comments(ev),
                      label=str(ev.number), marked=_("{player} played this turn").format(player=ev.player))
        classes = ["turn"]
        covered: tuple[Square, ...] = ()
        rejected: tuple[Square, ...] = ()
        assert step.decision is not None  # a turn is a decision
        frame.facts += steps.turn_facts(step.decision, before)
        if step.move is None:
            classes.append("pass")
        else:
            m = step.move
            if step.tally is not None:
                frame.vote = self.vote_view(ev, step)
                classes.append("vote")
            if step.accepted is False:
                rejected = m.squares
                classes.append("rejected")
            else:
                covered = m.squares
                self.tiles.append(svg.TileDrawing(
                    KINDS[m.tile.kind], m.squares, m.direction,
                    tile_label(ev.number, ev.player, spell(m.tile, m.squares)),
                    before.players.index(ev.player), self.tags[ev.player], tuple(step.destroyed), tuple(m.toilets)))
        if step.removed:
            classes.append("ending")
        self.add(frame, st, covered=covered, rejected=rejected, marked=ev.player)
        self.items.append(ListItem(i, format_item(ev), " ".join(classes)))

    def vote_view(self, ev: Turn, step: Step) -> VoteView:
        tally, placement, rs = step.tally, ev.placement, self.timeline.ruleset
        assert tally is not None and placement is not None and rs is not None  # a vote was judged
        o = placement.outcome
        claim = None if o is None else outcome_text(o.accepted, o.yes, o.no)
        how = rs.options.vote_outcome
        said = _(VOTE_RULES[how]) if how in VOTE_RULES else how.replace("-", " ")
        rule = f"{said} — {rs.cite('B5')}"
        return VoteView(card_lines(tally), arithmetic(tally), tally.yes, tally.no, bool(step.accepted), claim, rule)

    def stopped(self, event: Turn | Choose, diag: Diagnostic, before: State) -> None:
        i = len(self.frames)
        title = turn_title(event.number, event.player) if isinstance(event, Turn) else _("choose")
        player = event.player if isinstance(event, Turn) else None
        frame = Frame(i, "violation", title + f" — {diag.code}", format_item(event), comments=_comments(event),
                      diagnostics=[diag], label="✗",
                      marked=_("{player} tried this turn").format(player=player) if player else "",
                      facts=[steps.stopped()])
        self.add(frame, before, bad=attempted_squares(event, self.timeline.board), marked=player)
        self.items.append(ListItem(i, format_item(event), "violation", diag.code))

    def end(self, final: State) -> None:
        t, reveal = self.timeline, self.timeline.record.reveal
        assert reveal is not None  # the end is shown for a record with a reveal
        i, score = len(self.frames), t.record.score
        lines = [format_item(reveal)] + ([format_item(score)] if score is not None else [])
        frame = Frame(i, "end", _("End of the game"), "\n".join(lines), comments=_comments(reveal),
                      diagnostics=list(t.errors), label="end")
        if t.tie_break:
            frame.facts.append(t.tie_break)
        self.add(frame, final)
        self.items.append(ListItem(i, lines[0], "end" + (" violation" if t.errors else ""),
                                   t.errors[0].code if t.errors else None))

    def not_judged(self) -> None:
        rec = self.timeline.record
        judged = len(self.timeline.steps) + (violation(self.timeline) is not None)
        for ev in rec.events[judged:]:
            self.items.append(ListItem(None, format_item(ev), "unjudged"))
        if rec.reveal is not None and not any(f.kind == "end" for f in self.frames):
            self.items.append(ListItem(None, format_item(rec.reveal), "unjudged"))

    # -- the page ----------------------------------------------------------
    def view(self) -> ReportView:
        t = self.timeline
        rec = t.record
        in_frames = {id(d) for f in self.frames for d in f.diagnostics}
        general = [d for d in t.diagnostics if id(d) not in in_frames]
        board = chart = None
        if t.board is not None:
            gangs = [(kind, corner) for corner, kind in t.board.corners.items()]
            board = svg.board_svg(t.board, self.tiles, self.marks, gangs)
        if self.states and t.board is not None:
            series = {b: [goal_score(t.board, s.covered, b) for s in self.states] for b in BUILDINGS}
            chart = svg.points_chart(series, [f.label for f in self.frames[:len(self.states)]])
        event = rec.tag("Event")
        title = event.value if event else t.path.rsplit("/", 1)[-1]
        seats = [{"colour": svg.SEAT_COLOUR[i % len(svg.SEAT_COLOUR)], "tag": self.tags[p]}
                 for i, p in enumerate(t.players)]
        status, status_text = self.status()
        return ReportView(title=title, timeline=t, frames=self.frames, items=self.items, board=board, chart=chart,
                          status=status, status_text=status_text, general=general, source=self.source_lines(),
                          tags=[(tag.key, tag.value) for tag in rec.tags], standings=self.standings(), seats=seats)

    def status(self) -> tuple[str, str]:
        t = self.timeline
        if t.errors:
            d = t.errors[0]
            if d.turn:
                return "invalid", _("Invalid: {code} at turn {turn} — {message}").format(
                    code=d.code, turn=d.turn, message=d.message)
            return "invalid", _("Invalid: {code} — {message}").format(code=d.code, message=d.message)
        if t.scores is None:
            return "partial", _("Valid partial record (no reveal): every turn in it is legal.")
        return "valid", _("Valid complete game.")  # who won is one tap away (the header's Result), not here

    def standings(self) -> list[JsonObject]:
        t, rec = self.timeline, self.timeline.record
        if not t.standings or rec.reveal is None:  # standings come from a reveal
            return []
        revealed = {e.player: e for e in rec.reveal.entries}
        claimed = {e.player: e.points for e in rec.score.entries} if rec.score is not None else {}
        return [{"player": s.player, "rank": s.rank, "score": s.score, "second": s.second,
                 "votes_left": s.votes_left, "claimed": claimed.get(s.player),
                 "card": revealed[s.player].chosen, "other": revealed[s.player].other} for s in t.standings]

    def source_lines(self) -> list[tuple[int, str, str]]:
        bad = {d.line for d in self.timeline.errors}
        return [(n, text, "bad" if n in bad else "") for n, text in enumerate(self.source_text.splitlines(), 1)]


def _kept(step: Step) -> State:
    """The position after ``step``, which a report's timeline keeps."""
    if step.state is None:
        raise ValueError("render_report needs a timeline replayed with keep_states=True")
    return step.state


def build_view(t: Timeline, source_text: str) -> ReportView:
    """The report's content for ``t`` (replayed with ``keep_states=True``) and the
    record's text. Raises ValueError for a timeline replayed without states."""
    return _Builder(t, source_text).build()


def position_board(state: State, last: tuple[Square, ...] = ()) -> Markup:
    """The board of one position as the report draws it -- every tile with its
    owner's chip and what it buried, each gang where it stands -- with the tap layer
    (:func:`svg.targets_svg`) and ``last`` (the squares just covered) marked, for
    ``drunter play``."""
    board, tags = state.board, owner_tags(state.players)
    head = {c: c for c in board.corners}  # where each track's gang stood before the next tile
    tiles = []
    for t in state.tiles:
        (ac, ar), (pc, pr) = t.anchor, head[t.corner]
        where = f"{t.tile} {square_name(t.anchor)}" + (f"-{square_name(t.end)}" if len(t.squares) > 1 else "")
        tiles.append(svg.TileDrawing(
            KINDS[t.tile.kind], t.squares, ((ac > pc) - (ac < pc), (ar > pr) - (ar < pr)),
            tile_label(t.turn, t.player, where), state.players.index(t.player), tags[t.player],
            tuple((sq, *board.buildings[sq]) for sq in t.squares if sq in board.buildings),
            tuple(sq for sq in t.squares if sq in board.toilets)))
        head[t.corner] = t.end
    mark = svg.marks_svg(svg.Geometry.of(board), 0, covered=last)
    return svg.board_svg(board, tiles, [mark], [(kind, corner) for corner, kind in board.corners.items()],
                         [(gang_square(state, c), state.gangs[c] is None) for c in board.corners], targets=True)
