"""Bots in the empty seats of a table, and the coach.

* A new game names its bots (``"bots": {"Ben": "ismcts:sims=800"}``, each a spec as
  ``drunter tournament --bots`` spells it, read by the same :func:`make_bot`); the
  record keeps them in a ``Bots`` tag, one entry per seat as ``drunter simulate
  --bots`` writes it (``-`` for a person's seat), so a restarted server knows its
  bots again. ``"hints": true`` adds a ``Hints`` tag that counts the hints each
  person took.
* The :class:`Pilot` plays the bots' seats through the same seat actions a
  person's page uses (``table/seat_acts.py``). A bot decides in the transport's
  :class:`Thinker` (:func:`decide`), from the public record and its own cards only; a
  decision whose game changed meanwhile (an undo, a take-back, someone else's
  move) is discarded, and the bots look again.
* :func:`hint_moves`: the best few moves of a seat with their win chances, from the
  analysis engine's playouts over what that seat may know.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

from drunter_notation.analysis.evaluate import candidates, estimate
from drunter_notation.analysis.inference import Model
from drunter_notation.analysis.record import walk
from drunter_notation.bots import canonical_bot, lean_move, make_bot
from drunter_notation.bots.ismcts import SPEC_LIMIT, canonical, spec
from drunter_notation.errors import DnError, printable
from drunter_notation.game import Game
from drunter_notation.i18n import _, format_number
from drunter_notation.load import judge
from drunter_notation.notation.model import Tag
from drunter_notation.notation.parser import parse_text
from drunter_notation.rules.playout import Playout
from drunter_notation.table import seats
from drunter_notation.table.answer import SeatWork
from drunter_notation.table.store import JSONObject, Refused, Table, Tables

log = logging.getLogger(__name__)
T = TypeVar("T")

# The new-game form's three strengths of "the computer"; strong answers in about a second (docs/play.md).
LEVELS = {"easy": "greedy", "medium": "ismcts:sims=200", "strong": "ismcts:sims=800"}
PERSON = "-"  # a person's seat in the Bots tag
FIELDS = frozenset({"name", "players", "board", "rules", "variant", "deal", "bots", "hints"})
DELAY_MS = 600  # default pause before a bot acts, so the table can follow
MAX_DELAY_MS = 10_000
HINT_MOVES = 3  # moves a hint shows
HINT_WIDTH = 6  # moves a hint plays out
HINT_PLAYOUTS = 60  # per move
# A table's budgets: a bot's decision takes at most a few seconds of one core (docs/play.md), and at most
# MAX_LIVE games have bots playing at once (a game paused or over does not count).
TABLE_SIMS = 2000
TABLE_TIME = 2.0
MAX_LIVE = 12
PAUSED = "paused"  # the value of a paused game's Autoplay tag: a restarted server leaves its bots still


# -- the new game's bots and the record's tags -----------------------------------------------

def new_game_tags(body: JSONObject) -> dict[str, str]:
    """The ``Bots`` and ``Hints`` tags of a new game, from its request body; 400 for
    any field the body should not have, a bot for no player or a bad spec (each bot
    kept in its one spelling, :func:`table_bot`)."""
    unknown = sorted(str(k)[:40] for k in body if k not in FIELDS)
    if unknown:
        raise Refused(400, _("unknown field {field}: a new game takes {fields}").format(
            field=unknown[0], fields=", ".join(sorted(FIELDS))))
    players = body.get("players")
    players = players if isinstance(players, list) and all(isinstance(p, str) for p in players) else []  # 400 later
    tags: dict[str, str] = {}
    bots = body.get("bots")
    spelled: dict[str, str] = {}
    if bots is not None and players:  # without a list of names, the players are refused first (Tables.create)
        if not isinstance(bots, dict) or not all(isinstance(v, str) for v in bots.values()):
            raise Refused(400, _("bots: an object of player names to bots, e.g. {\"Ben\": \"ismcts:sims=400\"}"))
        for player, spec in bots.items():
            if player not in players:
                raise Refused(400, _("bots: {player} is no player of this game").format(player=printable(player[:40])))
            spelled[player] = table_bot(player, spec)
        deal = body.get("deal")
        dealt = deal == "random" or (isinstance(deal, dict) and deal.get("hands") is not None
                                     and deal.get("cards") is not None)
        if bots and not dealt:
            raise Refused(400, _("bots: a bot needs its tiles and cards: let the app deal, or enter the hands "
                                 "and the cards"))
        if bots:
            tags["Bots"] = ", ".join(spelled.get(p, PERSON) for p in players)
    hints = body.get("hints", False)
    if not isinstance(hints, bool):
        raise Refused(400, _("hints: true or false"))
    if hints:
        tags["Hints"] = ", ".join(f"{p} 0" for p in players if p not in (bots or {}))
    return tags


def level_spec(spec: str) -> str:
    """The bot spec of a strength of the new-game form (``easy``...), or ``spec`` itself."""
    return LEVELS.get(spec, spec)


def level_of(bot: str) -> str | None:
    """The strength of the new-game form a bot (in its one spelling) is, if it is one."""
    return next((level for level, spec in LEVELS.items() if spec == bot), None)


def table_bot(player: str, spec: str) -> str:
    """The bot ``spec`` (or level) asked for ``player``'s seat, in its one spelling; 400
    naming the player and the spec when it is no bot or over a table's budget."""
    shown = printable(spec[:SPEC_LIMIT])
    try:
        bot = canonical_bot(level_spec(spec))
    except DnError as e:
        raise Refused(400, _("bots: the bot of {player}: {problem}").format(
            player=printable(player[:40]), problem=e.diagnostic.message), "bot-spec",
            {"player": player[:40], "spec": shown}) from None
    if over_budget(bot):
        raise Refused(400, _("bots: the bot of {player}, {spec}, thinks longer than a table allows: at most "
                             "sims={sims} and time={time}").format(player=printable(player[:40]), spec=shown,
                                                                    sims=TABLE_SIMS, time=f"{TABLE_TIME:g}"),
                      "bot-budget", {"player": player[:40], "spec": shown, "sims": TABLE_SIMS, "time": TABLE_TIME})
    return bot


def over_budget(bot: str) -> bool:
    """Whether the bot (in its one spelling) may search longer than a table allows."""
    name, params = spec(bot)
    sims, seconds = params.get("sims", 0), params.get("time", 0.0)
    return name == "ismcts" and (not isinstance(sims, int) or sims > TABLE_SIMS or not isinstance(seconds, float)
                                 or seconds > TABLE_TIME)


def _tag(game: Game, name: str) -> str | None:
    return next((t.value for t in game.tags if t.key == name), None)


def bots_of(game: Game) -> dict[str, str]:
    """The bot of each bot seat, from the record's ``Bots`` tag (an entry that is no
    bot, e.g. after a hand edit, is a person's seat; one over a table's budget is
    held to it)."""
    value = _tag(game, "Bots")
    if value is None:
        return {}
    out = {}
    for player, entry in zip(game.players, value.split(", "), strict=False):  # a hand edit may cut or add
        try:
            bot = canonical_bot(entry)
        except DnError:
            continue
        out[player] = _within_budget(bot)
    return out


def _within_budget(bot: str) -> str:
    if not over_budget(bot):
        return bot
    name, params = spec(bot)
    held = dict(params, sims=min(int(params.get("sims", TABLE_SIMS)), TABLE_SIMS))
    if "time" in params:
        held["time"] = min(float(params["time"]), TABLE_TIME)
    return canonical(name, held)


def paused_of(game: Game) -> bool:
    """Whether the game's bots are paused (its ``Autoplay`` tag): kept in the record, so a restart keeps them so."""
    return _tag(game, "Autoplay") == PAUSED


def set_paused(game: Game, paused: bool) -> None:
    others = tuple(t for t in game.tags if t.key != "Autoplay")
    game.tags = (*others, Tag("Autoplay", PAUSED)) if paused else others


def live(game: Game) -> bool:
    """Whether the game's bots play now: it has bots, is not over and not paused."""
    return bool(bots_of(game)) and not game.is_over() and not paused_of(game)


def hints_of(game: Game) -> dict[str, int] | None:
    """Hints taken per person, from the ``Hints`` tag; None when the game has no coach."""
    value = _tag(game, "Hints")
    if value is None:
        return None
    out = {}
    for entry in value.split(", "):
        player, _sep, count = entry.rpartition(" ")
        if player in game.players and count.isdigit():
            out[player] = int(count)
    return out


def _with_hint(game: Game, player: str) -> None:
    taken = hints_of(game) or {}
    taken[player] = taken.get(player, 0) + 1
    value = ", ".join(f"{p} {taken[p]}" for p in game.players if p in taken)
    game.tags = tuple(Tag("Hints", value) if t.key == "Hints" else t for t in game.tags)


# -- a decision, in a worker process ---------------------------------------------------------

Kind = Literal["move", "lay", "jein", "choose"]  # the decisions a bot makes


@dataclass(frozen=True)
class Job:
    """What one bot decision needs, and no more: the public record, the bot's own
    cards (its kept goal first), which decision. Picklable, for the worker. A
    decision is carried out only while the table still waits for this same job."""

    game: str
    kind: Kind
    player: str
    spec: str
    text: str  # the record as anyone may read it (seats.public_dn)
    path: str  # the record's path: a board file is named relative to it
    cards: tuple[str, ...]
    turn: int
    move: str | None = None  # the move voted on (lay, jein)
    ballots: tuple[tuple[str, tuple[str, ...]], ...] = ()  # the ballots shown (jein)

    @property
    def seed(self) -> str:  # public: the same table asks the same bot the same
        return f"{self.game}-{self.turn}-{self.player}-{self.kind}"


def decide(job: Job) -> JSONObject:
    """The bot's answer: ``{"move": ..., "vote": bool}``, ``{"cards": [...]}``,
    ``{"side": ...}`` or ``{"keep": ...}``."""
    game = Game.from_dn(job.text, job.path)
    bot = make_bot(job.spec, job.seed)
    bot.start(game, job.player, job.cards)
    if job.kind == "choose":
        return {"keep": bot.choose_goal(game, (job.cards[0], job.cards[1]))}
    moves = game.legal_moves()
    if job.kind == "move":
        if not moves:
            return {"move": "pass", "vote": False}
        move = bot.choose_move(game, moves)
        return {"move": str(move), "vote": move.needs_vote}
    voted = next(m for m in moves if str(m) == job.move)
    if job.kind == "lay":
        return {"cards": list(bot.cast_ballot(game, voted))}
    return {"side": bot.declare_joker(game, voted, {p: list(c) for p, c in job.ballots})}


@dataclass(frozen=True)
class HintJob:
    text: str
    path: str
    player: str
    cards: tuple[str, ...]
    turn: int
    game: str = ""  # the table's id: the server shares its workers among the tables by it


def hint_moves(job: HintJob) -> list[JSONObject]:
    """The seat's best few moves with their win chances: the analysis engine's
    playouts (:func:`.evaluate.estimate`) from the position, the others' cards drawn
    from what the public record tells of them (its inference), the seat's own known."""
    t = judge(parse_text(job.text, job.path), job.path, keep_states=True)
    if not t.valid or t.state is None:
        raise Refused(409, _("the coach needs a valid record"))
    w = walk(t, Model())
    post = w.posteriors[-1]
    mine = next((c for c in post.cards if set(c.split("+")) == set(job.cards)), None)
    given = {job.player: mine} if mine is not None else None
    seat = t.players.index(job.player)
    pl = Playout.from_state(t.state)
    if not pl.legal():
        win = estimate(t.state, post, HINT_PLAYOUTS, f"hint-{job.turn}", None, given).win[seat]
        return [{"move": "pass", "win": round(win, 3)}]
    moves = candidates(t.state, job.cards, None, HINT_WIDTH)
    game = Game.from_dn(job.text, job.path)
    names = {lean_move(pl, m): str(m) for m in game.legal_moves()}
    rated = [(estimate(t.state, post, HINT_PLAYOUTS, f"hint-{job.turn}", m, given).win[seat], names[m])
             for m in moves]
    rated.sort(key=lambda r: -r[0])
    return [{"move": text, "win": round(win, 3)} for win, text in rated[:HINT_MOVES]]


# -- the pilot: the bots' seats played ------------------------------------------------------

class Task(Protocol):
    """A coroutine running on its own, as the transport's :meth:`Runtime.spawn` starts it."""

    def cancel(self) -> bool: ...
    def done(self) -> bool: ...


class Signal(Protocol):
    """An event one coroutine waits for and another sets (the transport's, e.g. asyncio's)."""

    def set(self) -> None: ...
    def is_set(self) -> bool: ...
    async def wait(self) -> Any: ...


class Runtime(Protocol):
    """What the table asks of the transport that drives it: ``blocking`` runs a call
    that takes the lock of the game ``table`` (a server: in a worker thread, off its event
    loop; a page's worker: at once); ``sleep``; ``signal`` makes an event to wait for;
    ``spawn`` starts a coroutine on its own; ``notify`` tells a game's open pages it
    changed; ``present``: the seats of a game with a page open now."""

    async def blocking(self, work: Callable[[], T], table: str | None = None) -> T: ...
    async def sleep(self, seconds: float) -> None: ...
    def signal(self) -> Signal: ...
    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> Task: ...
    def notify(self, name: str) -> None: ...
    def present(self, name: str) -> set[str]: ...


class Thinker(Protocol):
    """Where bots decide and the coach plays out: a server's worker processes, or the
    caller itself (:class:`InlineThinker`). ``running``: False once closed (a decision
    asked then is refused, 503)."""

    @property
    def running(self) -> bool: ...

    async def decide(self, job: Job) -> JSONObject: ...
    async def hint(self, job: HintJob) -> list[JSONObject]: ...


class InlineThinker:
    """Thinks in the caller: where there are no processes (a page's worker)."""

    running = True

    async def decide(self, job: Job) -> JSONObject:
        return decide(job)

    async def hint(self, job: HintJob) -> list[JSONObject]:
        return hint_moves(job)


@dataclass
class Autoplay:
    paused: bool = False
    delay_ms: int = DELAY_MS


@dataclass
class Pilot:
    """Plays every bot seat of every game, through the same seat actions a person's
    page uses (``actions``: :attr:`.seat_acts.Seats.actions`); its coroutines run on the
    transport's ``runtime``, its bots think in ``thinker``."""

    store: Tables
    keys: seats.Keys
    runtime: Runtime
    thinker: Thinker
    actions: Mapping[str, SeatWork]
    delay_ms: int = DELAY_MS
    tasks: dict[str, Task] = field(default_factory=dict)
    autoplay: dict[str, Autoplay] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    again: set[str] = field(default_factory=set)  # games changed while their bots were looking
    thinking: dict[str, Job] = field(default_factory=dict)  # the decision each game waits for now
    discarded: int = 0  # decisions thrown away because their game changed meanwhile
    running: bool = False
    _runs: dict[str, object] = field(default_factory=dict)  # the run each game's task is

    def start(self) -> None:
        """The bots resumed: a game whose turn is a bot's goes on (after a restart too)."""
        self.running = True
        for name in self.store.names():
            self.kick(name)

    def close(self) -> None:
        self.running = False
        for task in self.tasks.values():
            task.cancel()
        self.tasks.clear()

    def settings(self, name: str) -> Autoplay:
        return self.autoplay.setdefault(name, Autoplay(delay_ms=self.delay_ms))

    def look(self, name: str) -> None:
        """A game asked for: its bots start if it is new to this table."""
        if name not in self.seen:
            self.kick(name)

    def kick(self, name: str, *, restart: bool = False, idle: bool = False) -> None:
        """The game changed: its bots look at it; ``restart`` drops what they are thinking.
        ``idle``: the change was looked at already (:meth:`idle`) and no bot decision is due."""
        self.seen.add(name)
        task = self.tasks.get(name)
        cancelled = False
        if task is not None and not task.done():
            if not restart:
                self.again.add(name)
                return
            cancelled = task.cancel()
            if name in self.thinking:
                self.discarded += 1
        if not self.running or (idle and not cancelled):  # a cancelled look may have been for a later change
            return
        run = self._runs[name] = object()
        self.tasks[name] = self.runtime.spawn(self._run(name, run))

    def idle(self, name: str) -> bool:
        """Whether no bot decision is due in game ``name`` now (call off the event loop)."""
        return self._due(name) is None

    async def _run(self, name: str, run: object) -> None:
        failed: Job | None = None
        try:
            while self.running and not self.settings(name).paused:
                self.again.discard(name)
                job = await self.runtime.blocking(lambda: self._due(name), name)
                if job is None or job == failed:
                    if name in self.again:  # a change came while looking: look again
                        continue
                    return
                await self.runtime.sleep(self.settings(name).delay_ms / 1000)
                if self.settings(name).paused:
                    return
                self.thinking[name] = job
                try:
                    answer = await self.thinker.decide(job)
                finally:
                    self.thinking.pop(name, None)
                if await self.runtime.blocking(lambda: self._act(job, answer), name):  # noqa: B023  # awaited at once
                    self.runtime.notify(name)
                    failed = None
                else:
                    failed = job
        except Exception as e:  # a bot that cannot go on stops; the table is unharmed
            log.warning("the bots of %s stopped: %s", name, type(e).__name__)
        finally:
            if self._runs.get(name) is run:
                del self._runs[name]
                self.tasks.pop(name, None)

    def _due(self, name: str) -> Job | None:
        """The bot decision the game waits for, if any."""
        try:
            table = self.store.table(name)
            with table.lock:
                g = self.store.playable(table)
                if paused_of(g):  # paused in the record: after a restart too
                    self.settings(name).paused = True
                    return None
                return due(table)
        except (Refused, DnError):
            return None

    def _act(self, job: Job, answer: JSONObject) -> bool:
        """Carry out the bot's answer through its seat, unless the game moved on meanwhile."""
        try:
            table = self.store.table(job.game)
            with table.lock:
                self.store.playable(table)
                now = due(table)
                if now is None or now != job:
                    self.discarded += 1
                    return False
                token = self.keys.token(job.game, table.played.players.index(job.player), job.player)
            act = {"move": "ballot" if answer.get("vote") else "move", "lay": "lay", "jein": "jein",
                   "choose": "choose"}[job.kind]
            body = {k: v for k, v in answer.items() if k != "vote"} | {"turn": job.turn}
            self.actions[act](self.store, job.game, body, token=token)
            return True
        except (Refused, DnError) as e:
            log.warning("a bot of %s was refused: %s", job.game, e)
            return False


def due(table: Table) -> Job | None:
    """The next decision of a bot seat on the table (call with its lock held): its
    ballot, its joker, its expert choice, its turn."""
    g = table.played
    bots = bots_of(g)
    dealt = g.cards
    if not bots or g.is_over() or dealt is None or g.state.hands is None:
        return None

    def job(kind: Kind, player: str, move: str | None = None,
            ballots: tuple[tuple[str, tuple[str, ...]], ...] = ()) -> Job:
        cards = tuple(dealt[player])
        kept = g.kept.get(player)
        if kept is not None:
            cards = (kept, *(c for c in cards if c != kept))
        return Job(table.name, kind, player, bots[player], seats.public_dn(g, table.text), str(table.path),
                   cards, g.turn, move=move, ballots=ballots)
    v = seats.open_vote(table)
    if v is not None:
        if not v.shown:
            waiting = [p for p in v.order if p in bots and p not in v.laid]
            return job("lay", waiting[0], move=v.move) if waiting else None
        joker = [p for p in v.jein_due if p in bots]
        return job("jein", joker[0], move=v.move, ballots=tuple(sorted(v.laid.items()))) if joker else None
    if g.choice_due:
        c = seats.open_choice(table)
        left = [p for p in g.players if p in bots and (c is None or p not in c.keep)]
        return job("choose", left[0]) if left else None
    return job("move", g.to_move) if g.to_move in bots else None


# -- the works --------------------------------------------------------------------------------

def autoplay(store: Tables, pilot: Pilot, name: str | None, body: JSONObject) -> JSONObject:
    """``GET``/``POST .../autoplay``: the bots' pause (kept in the record) and their delay."""
    unknown = sorted(str(k)[:40] for k in body if k not in ("paused", "delay_ms"))
    if unknown:
        raise Refused(400, _("unknown field {field}: autoplay takes paused and delay_ms").format(field=unknown[0]))
    paused, delay = body.get("paused"), body.get("delay_ms")
    if paused is not None and not isinstance(paused, bool):
        raise Refused(400, _("paused: true or false"))
    if delay is not None and (not isinstance(delay, int) or isinstance(delay, bool)
                              or not 0 <= delay <= MAX_DELAY_MS):
        raise Refused(400, _("delay_ms: the pause before each bot's action, 0 to {most} ms").format(
            most=format_number(MAX_DELAY_MS)))
    table = store.table(name)
    with table.lock:
        g = store.playable(table)
        was = paused_of(g)
    if paused is not None and paused != was:
        with store.admitting:  # two games resumed at once: the second counts the first
            if not paused and bots_of(g) and not g.is_over():
                room_for_bots(store, but=table.name)
            # a pause keeps the turns taken back, ready to replay
            store.change(table, None, lambda g: set_paused(g, paused), lambda t: None, taken_back=table.taken_back)
    s = pilot.settings(table.name)
    s.paused = was if paused is None else paused
    if delay is not None:
        s.delay_ms = delay
    return {"paused": s.paused, "delay_ms": s.delay_ms}


def room_for_bots(store: Tables, but: str | None = None) -> None:
    """429 when MAX_LIVE games have bots playing already (``but``: not counting that one)."""
    count = 0
    for name in store.names():
        if name == but:
            continue
        try:
            table = store.table(name)
            with table.lock:
                count += live(store.playable(table))
        except (Refused, DnError):
            continue
    if count >= MAX_LIVE:
        raise Refused(429, _("{count} games have bots playing already, the most a table runs at once: pause "
                             "or end one first").format(count=count), "live-bot-tables", {"most": MAX_LIVE})


def hint_job(store: Tables, keys: seats.Keys, name: str, token: str | None) -> tuple[HintJob, tuple[str, ...]]:
    """What the coach needs for the seat ``token`` opens, and what names its question (the
    game, the seat, the turn, the position): 403 in a game without a coach, 409 off its turn."""
    table = seats.seat_table(store, name)
    with table.lock:
        g, player = seats.seat_game(store, table, keys, token)
        if hints_of(g) is None or player in bots_of(g):
            raise Refused(403, _("this game has no coach: it is asked for when the game is made"))
        if g.is_over() or g.choice_due or g.to_move != player or seats.open_vote(table) is not None:
            raise Refused(409, _("a hint is for your own turn, before you place"))
        if g.cards is None or g.state.hands is None:
            raise Refused(409, _("the coach needs the tiles and your card"))
        job = HintJob(seats.public_dn(g, table.text), str(table.path), player, tuple(g.cards[player]), g.turn,
                      table.name)
        return job, (table.name, player, str(g.turn), g.position())


def count_hint(store: Tables, name: str, job: HintJob) -> None:
    """The hint counted in the record's ``Hints`` tag."""
    table = store.table(name)  # a hint keeps the turns taken back, ready to replay
    store.change(table, job.turn, lambda g: _with_hint(g, job.player), lambda t: None, taken_back=table.taken_back)
