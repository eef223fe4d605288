"""The games of a table: each kept in memory as a :class:`~drunter_notation.game.Game`
and made durable after every change through a :class:`Storage` (files on the server,
``web/store.py``; memory or the browser's own storage in a page's worker), so the
storage always holds every acknowledged move.

Nothing here speaks HTTP, starts a thread or touches a file: problems are
:class:`Refused` (a status, a one-line reason and, where a page words it, a stable
``code`` with its ``data``) or the engine's :class:`DnError`; a transport answers both.
A base game's building cards have no line in DN before the reveal, so cards the
app knows early (dealt on screen, or entered at the start) are kept beside the record.
"""
from __future__ import annotations

import contextlib
import json
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from hashlib import sha1
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from drunter_notation.data.boardfile import builtin_boards
from drunter_notation.errors import DnError, fail, printable, quoted
from drunter_notation.files import NotRegularFile, os_reason
from drunter_notation.game import Game
from drunter_notation.i18n import _, language
from drunter_notation.notation.formatter import writable_name
from drunter_notation.notation.parser import parse_text
from drunter_notation.table.hidden import masked_error

if TYPE_CHECKING:  # a table only holds these values
    from drunter_notation.notation.model import Choose, Turn
    from drunter_notation.table.ballots import Choice, Vote

# A JSON object as json.loads gives it (a request's body, a journal line, a view): fields checked where read.
JSONObject = dict[str, Any]
View = TypeVar("View")
# A mutual exclusion as a transport makes it: threading.Lock on a server, nullcontext where one caller runs.
Lock = Callable[[], contextlib.AbstractContextManager[Any]]

# A game's id is its file name without .dn: letters, digits, - and _, so it can never leave the folder.
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
TITLE_LIMIT = 64  # characters in a game's name as typed
QUIET = 1.0  # seconds without a change after which a game's journal is written into its record
JOURNAL_LIMIT = 100  # changes in a journal before the record is written whole at the next one
TILE = re.compile(r"([WSR][123])(?:x([0-9]{1,3}))?")


class Refused(Exception):
    """A request the table will not carry out: an HTTP status and a one-line reason;
    ``code`` and ``data``: what a page words itself (None: the reason is all)."""

    def __init__(self, status: int, reason: str, code: str | None = None, data: JSONObject | None = None):
        reason = printable(reason)  # a name from the request may hold a line break or a bidi control
        super().__init__(reason)
        self.status = status
        self.reason = reason
        self.code = code
        self.data = data or {}

    def as_json(self) -> JSONObject:
        return {"error": self.reason} | ({"code": self.code, "data": self.data} if self.code else {})


def base_of(text: str) -> str:
    """What names a record's text at the head of its journal."""
    return sha1(text.encode("utf-8", errors="replace")).hexdigest()


class Storage(Protocol):
    """Where a table keeps its games, by id. Every write is atomic and durable before it
    returns; a write the storage cannot make raises OSError (nothing changed) or
    :class:`Refused`. ``root``: what the games' paths are under (a record's board file
    is named relative to its record, as records do)."""

    root: Path

    def names(self) -> list[str]: ...  # the games' ids
    def boards(self) -> list[str]: ...  # board files under the root, relative to it
    def exists(self, name: str) -> bool: ...  # anything of that id, even no valid game
    def stamp(self, name: str) -> Hashable | None: ...  # changes with every write; None: no such game
    def read(self, name: str) -> str: ...  # the record's text (DnError: it cannot be read)
    def cards(self, name: str) -> object: ...  # the cards kept beside it (JSON; None: none)
    def journaled(self, name: str, base: str) -> list[JSONObject]: ...  # changes on top of the record ``base``
    def write(self, name: str, text: str, cards: JSONObject | None = None, salt: str | None = None) -> Hashable: ...
    # the new stamp; ``salt``: a new game's seat salt, kept beside it; on failure nothing new stays (cards, salt)
    def salt(self, name: str) -> str: ...  # the game's seat salt ("": a record the table did not make)
    def append(self, name: str, base: str, op: JSONObject, *, first: bool) -> None: ...  # one change journaled
    def clear(self, name: str) -> None: ...  # the journal emptied: the record holds every change
    def replace(self, name: str, text: str) -> None: ...  # a repair: the record as it was kept as a backup
    def keep_original(self, name: str) -> None: ...  # the record as it is, kept before the table first writes it
    def close(self, name: str, *, remove: bool) -> None: ...  # at the end: its journal closed (removed if empty)
    def archive(self, name: str) -> str: ...  # a game ended and deleted: its record (and cards) kept apart, its
    # salt dropped; where
    def secret(self) -> bytes: ...  # the seat key (made on first use, at least 32 bytes)


class MemoryStorage:
    """A :class:`Storage` in memory: for a page's worker (which keeps it in the browser's
    storage itself) and for tests."""

    def __init__(self, root: str | Path = "/games", boards: tuple[str, ...] = ()):
        self.root = Path(root)
        self.files: dict[str, str] = {}
        self.kept_cards: dict[str, JSONObject] = {}
        self.salts: dict[str, str] = {}
        self.journals: dict[str, list[JSONObject]] = {}
        self.board_files = list(boards)
        self.key = secrets.token_hex(32).encode()
        self._stamps: dict[str, int] = {}

    def names(self) -> list[str]:
        return sorted(self.files)

    def boards(self) -> list[str]:
        return list(self.board_files)

    def exists(self, name: str) -> bool:
        return name in self.files

    def stamp(self, name: str) -> Hashable | None:
        return self._stamps.get(name) if name in self.files else None

    def read(self, name: str) -> str:
        return self.files[name]

    def cards(self, name: str) -> object:
        return self.kept_cards.get(name)

    def journaled(self, name: str, base: str) -> list[JSONObject]:
        ops = self.journals.get(name, [])
        return list(ops[1:]) if ops and ops[0].get("base") == base else []

    def write(self, name: str, text: str, cards: JSONObject | None = None, salt: str | None = None) -> Hashable:
        if cards is not None:
            self.kept_cards[name] = cards
        if salt is not None:
            self.salts[name] = salt
        self.files[name] = text
        self._stamps[name] = self._stamps.get(name, 0) + 1
        self.journals.pop(name, None)
        return self._stamps[name]

    def append(self, name: str, base: str, op: JSONObject, *, first: bool) -> None:
        if first:
            self.journals[name] = [{"base": base}]
        self.journals[name].append(json.loads(json.dumps(op)))

    def clear(self, name: str) -> None:
        self.journals.pop(name, None)

    def replace(self, name: str, text: str) -> None:
        self.files[f"{name}.bak"] = self.files[name]
        self.write(name, text)

    def keep_original(self, name: str) -> None:
        self.files[f"{name}.orig"] = self.files[name]

    def close(self, name: str, *, remove: bool) -> None:
        """Nothing to close in memory."""

    def archive(self, name: str) -> str:
        kept = f"archive/{name}"
        n = 1
        while kept in self.files:
            n += 1
            kept = f"archive/{name}-{n}"
        self.files[kept] = self.files.pop(name)
        self.journals.pop(name, None)
        self.salts.pop(name, None)
        self._stamps.pop(name, None)
        return f"{kept}.dn"

    def salt(self, name: str) -> str:
        return self.salts.get(name, "")

    def secret(self) -> bytes:
        return self.key


@dataclass
class Table:
    """One game in play: its file, the game (None while the file is no valid
    record: ``error``), and ``rev``, which changes with every change of the file."""

    name: str
    path: Path
    game: Game | None = None
    error: DnError | None = None
    error_lang: str = ""  # the language ``error`` is worded in: read again for a reader of another
    rev: str = ""
    text: str = ""  # the record as last read or written
    stamp: Hashable | None = None  # the storage's stamp of the record as last read or written
    base: str = ""  # base_of the record's text: the record its journal continues
    pending: int = 0  # changes in the journal, not yet in the file
    last_change: float = 0.0  # time.monotonic() of the last change journaled
    taken_back: list[JSONObject] = field(default_factory=list)  # ops of the turns last taken back, to replay them
    by_hand: bool = False  # the record is not as the table writes it (comments, a layout): kept before it is
    lock: contextlib.AbstractContextManager[Any] = field(default_factory=contextlib.nullcontext)
    # its seats' actions that end in a move (the last ballot laid, ...) one at a time, taken before ``lock``;
    # a game's own: a long one at one table holds up no other
    actions: contextlib.AbstractContextManager[Any] = field(default_factory=contextlib.nullcontext)
    vote: Vote | None = None  # table.seats: the secret ballot in progress (in memory only)
    choice: Choice | None = None  # table.seats: the expert choice in progress (in memory only)
    # table.views: the last public views (by language) and what they were made from
    view: tuple[tuple[str, Vote | None, Choice | None], dict[str, JSONObject]] | None = None
    events_json: list[tuple[Turn | Choose, JSONObject]] = field(default_factory=list)  # table.views: of the last view

    @property
    def played(self) -> Game:
        """The game, where it is known to be a valid record (after :meth:`Tables.playable`, the lock held)."""
        assert self.game is not None, "the table's record was checked first"
        return self.game


class Tables:
    """The games of one ``storage``; ``lock`` makes each table's lock (and the one over
    all of them): a server's threads each hold one while they look at or change a game."""

    def __init__(self, storage: Storage, lock: Lock = contextlib.nullcontext):
        self.storage = storage
        self.root = storage.root
        self.new_lock = lock
        self._tables: dict[str, Table] = {}
        self._lock = lock()  # guards _tables; each table has its own lock for its game
        # a game made, or bots set going: the limit counted and the act done as one, taken before any table's lock
        self.admitting = lock()

    # -- finding games -----------------------------------------------------------------
    def names(self) -> list[str]:
        return sorted(n for n in self.storage.names() if NAME.fullmatch(n))

    def boards(self) -> list[str]:
        """The built-in boards, then the board files below the folder (paths relative to it)."""
        return builtin_boards() + self.storage.boards()

    def path(self, name: object) -> Path:
        return self.root / f"{game_id(name)}.dn"

    def table(self, name: str | None) -> Table:
        """The game ``name`` as its storage now says (read again when someone else changed it)."""
        name = game_id(name)
        with self._lock:
            table = self._tables.get(name)
            if table is None:
                if not self.storage.exists(name):
                    raise self._missing(name)
                table = self._tables[name] = Table(name, self.root / f"{name}.dn", lock=self.new_lock(),
                                                   actions=self.new_lock())
        return table

    def _missing(self, name: str) -> Refused:
        return Refused(404, _("no game '{name}' in {folder}").format(name=name, folder=self.root))

    def fresh(self, table: Table) -> Table:
        """Read the table's record when it is new to us or changed in its storage. Call with
        the table's lock held. A record that cannot be read (too large, not a regular file)
        is kept as ``error``, as one that is no valid record; read again for a reader of
        another language, so the error is worded in each reader's."""
        stamp = self.storage.stamp(table.name)
        if stamp is None:
            with self._lock:
                self._tables.pop(table.name, None)
            raise self._missing(table.name)
        if stamp == table.stamp and (table.error is None or table.error_lang == language()):
            return table
        text = ""
        ops: list[JSONObject] = []
        try:
            text = self.storage.read(table.name)
            game = self.reading(table, text)
            ops = self.storage.journaled(table.name, base_of(text))
            table.game, table.error = game, None
            table.by_hand = text != game.to_dn()
        except DnError as e:  # kept as anyone may read it: it is shown on the host page
            table.game, table.error = None, masked_error(e, text)
        table.stamp, table.rev, table.text, table.base = stamp, _rev(text, table.game), text, base_of(text)
        table.error_lang = language()
        table.pending = 0
        if ops and table.game is not None:  # changes acknowledged after the record was last written: a crash came
            table.game = _replay(table.game, ops)
            table.text = table.game.to_dn()
            table.rev = _rev(table.text, table.game)
            try:
                self.save(table)
            except (OSError, Refused):  # written later; till then the journal holds them, and goes on from them
                table.pending = len(ops)
        return table

    def reading(self, table: Table, text: str) -> Game:
        """The game ``text`` is as the table's record: on a board of the table's (:meth:`_own_board`), with
        what the record keeps secret read from beside it (base: the building cards; expert: the goal cards
        kept at choose). Raises DnError as :meth:`Game.from_dn` does, D001 for a hand-edited cards file."""
        path = str(table.path)
        self._own_board(text, path)
        game = Game.from_dn(text, path)
        if game.cards is not None and not (game.state.chosen and not game.kept):
            return game
        try:
            cards = self.storage.cards(table.name)
            if cards is not None and game.cards is None:
                game.set_cards(cards)  # type: ignore[arg-type]  # checked by set_cards (hand-edited: caught below)
            elif cards is not None:
                game.set_kept(cards)  # type: ignore[arg-type]  # checked by set_kept, as above
        except (DnError, ValueError, TypeError, AttributeError):  # DnError's words would name the secret cards
            raise fail("D001", _("{file} does not give each player a card").format(
                file=f"{table.name}.cards.json")) from None
        return game

    def _own_board(self, text: str, path: str) -> None:
        """H003 unless the record plays a built-in board or a board file of the games folder: a
        record's path to a board elsewhere (``../x.toml``, ``/etc/x.toml``) is never read."""
        tag = parse_text(text, path).tag("Board")
        if tag is not None and tag.value.endswith(".toml") and tag.value not in self.storage.boards():
            raise fail("H003", _("the board file {board} is not in the games folder; a game here plays a built-in "
                                 "board or one of {boards}").format(board=quoted(tag.value, 60),
                                                                    boards=", ".join(self.boards())),
                       path=path, line=tag.line, column=tag.column)

    # -- changing games ----------------------------------------------------------------
    def create(self, spec: JSONObject, tags: dict[str, str] | None = None) -> Table:
        """A new game from a request body (see docs/play.md); its record written before it is returned.
        ``tags``: more tags for its record (the bots', table/bots.py).
        Its ``name`` may be any printable text: the record is named by :func:`file_id`, and a
        name that is not that id is kept as the record's ``Event`` tag."""
        title = spec.get("name")
        if not isinstance(title, str) or not 0 < len(title.strip()) <= TITLE_LIMIT or not _printable(title):
            raise Refused(400, _("name: 1 to {limit} printable characters, e.g. \"Spieleabend 21.11.\"").format(
                limit=TITLE_LIMIT))
        title = title.strip()
        name = file_id(title)
        path = self.path(name)
        players = spec.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) and 0 < len(p) <= 40 and _printable(p)
                                                    and writable_name(p) for p in players):
            raise Refused(400, _("players: a list of 2 to 4 names of 1 to 40 printable characters, without a comma "
                                 "or spaces around them, in seat order"))
        board = spec.get("board", "schilda")
        if board not in self.boards():
            raise Refused(400, _("board: one of {boards}").format(boards=", ".join(self.boards())))
        options: dict[str, Any] = {k: spec[k] for k in ("rules", "variant") if k in spec}  # Game.new's keywords
        if not all(isinstance(v, str) for v in options.values()):
            raise Refused(400, _("rules and variant are names, e.g. \"hig-1991\" and \"base\""))
        deal = spec.get("deal")
        if deal == "random":
            options["seed"] = secrets.randbelow(2 ** 63)
        elif isinstance(deal, dict):
            if deal.get("hands") is not None:
                options["hands"] = _hands(deal["hands"])
            if deal.get("cards") is not None:
                if not isinstance(deal["cards"], dict):
                    raise Refused(400, _("deal.cards maps each player to their card(s)"))
                options["cards"] = deal["cards"]
        elif deal is not None:
            raise Refused(400, _("deal: \"random\", or {example} as dealt at the table").format(
                example='{"hands": {...}, "cards": {...}}'))
        located = board.endswith(".toml")
        if title != name or tags:
            options["tags"] = ({"Event": title} if title != name else {}) | (tags or {})
        game = Game.new(players, board=str(self.root / board) if located else board, **options)
        if located:  # the record names the board file relative to its own folder, as records do
            game.board_ref = game.board_tag = board
        Game.from_dn(game.to_dn(), str(path))  # what we write must read back: e.g. names the grammar cannot hold
        with self._lock:
            if name in self._tables or self.storage.exists(name):
                raise Refused(409, _("a game '{title}' exists already ({file}); choose another name or open "
                                     "it").format(title=printable(title), file=path.name))
            table = self._tables[name] = Table(name, path, game, lock=self.new_lock(),
                                                 actions=self.new_lock())  # the name is taken from here on
        try:
            with table.lock:
                self.save(table, cards=True, new=True)
        except (OSError, Refused) as e:  # nothing of it stays: not the name, not a file
            with self._lock:
                self._tables.pop(name, None)
            if isinstance(e, Refused):
                raise
            raise _unwritten(e, path, _("no game was created")) from None
        return table

    def change(self, table: Table, turn: object, act: Callable[[Game], object], view: Callable[[Table], View], *,
               cards: bool = False, op: JSONObject | None = None, taken_back: list[JSONObject] | None = None) -> View:
        """Run ``act`` on the table's game, record it and return ``view(table)``, or
        change nothing: when ``turn`` (the turn the caller saw, None: not checked) is
        no longer the game's turn (409), ``act`` raises, or it cannot be recorded.
        ``op``: what ``act`` did, as :func:`apply` replays it: it is appended to the
        journal (see :meth:`record`); without it the file is written whole.
        ``cards``: ``act`` may have made the cards known (see :meth:`save`).
        ``taken_back``: what a take-back took back (any other change forgets it)."""
        with table.lock:
            game = self.playable(table)
            if turn is not None and turn != game.turn:
                raise Refused(409, _("turn {turn} is not the turn to play: the game is at turn {now} (someone else "
                                     "moved first); reload and try again").format(turn=turn, now=game.turn))
            before = game.copy()
            try:
                act(game)
            except BaseException:
                table.game = before  # the engine leaves a game as it was; this keeps any other slip out too
                raise
            try:  # the goal cards kept at choose are secret till the reveal: not in the record, so beside it
                self.record(table, op, cards=cards or game.kept != before.kept)
            except BaseException as e:
                table.game = before  # not recorded, so not made, whatever stopped it
                if isinstance(e, OSError):
                    raise _unwritten(e, table.path, _("nothing was changed")) from None
                raise
            table.taken_back = taken_back or []
            # a ballot or choice in progress is void once the game has moved: back at its turn, it is not reopened
            table.vote = table.choice = None
            return view(table)

    def record(self, table: Table, op: JSONObject | None, *, cards: bool = False) -> None:
        """Make the table's change durable: appended to the journal (one fsync) when it is
        an ``op`` and the journal is short; written whole (and the journal emptied) when
        not, or when the game is over (so a finished game's record is complete at once)."""
        game = table.played
        if op is None or cards or table.pending >= JOURNAL_LIMIT or game.is_over():
            self.save(table, cards=cards)
            return
        self.storage.append(table.name, table.base, op, first=not table.pending)
        table.pending += 1
        table.last_change = time.monotonic()
        table.text = game.to_dn()
        table.rev = _rev(table.text, game)
        self.journaled()

    def journaled(self) -> None:
        """A change waits in a journal: a server compacts it after QUIET seconds (:meth:`compact`)."""

    def waiting(self) -> bool:
        """Whether any journal holds a change not yet in its record."""
        with self._lock:
            return any(t.pending for t in self._tables.values())

    def compact(self, quiet: float = 0.0) -> None:
        """Write the record of every game with journaled changes (quiet for ``quiet`` seconds)
        whole; a write that fails is tried again next time, the journal keeps the changes."""
        with self._lock:
            tables = [t for t in self._tables.values() if t.pending]
        for table in tables:
            with table.lock:
                if table.pending and table.game is not None and time.monotonic() - table.last_change >= quiet:
                    with contextlib.suppress(OSError, Refused):
                        self.save(table)

    def close(self) -> None:
        """At the end: every journal compacted into its record, and removed."""
        self.compact()
        with self._lock:
            tables = list(self._tables.values())
        for table in tables:
            with table.lock:
                with contextlib.suppress(OSError):
                    self.storage.close(table.name, remove=not table.pending)

    def playable(self, table: Table) -> Game:
        self.fresh(table)
        if table.game is None:
            assert table.error is not None  # fresh() keeps either a game or its error
            raise table.error
        return table.game

    def save(self, table: Table, *, cards: bool = False, new: bool = False) -> None:
        """Write the game's record atomically and durably, and with ``cards`` its
        early-known base cards (they change only at the start or the reveal); ``new``:
        a game just made, given its seat salt. Call with the lock held."""
        game = table.played
        known: JSONObject | None = None
        if cards and game.cards is not None:  # base: the building cards; expert: the goal card each kept
            known = {p: c[0] for p, c in game.cards.items()} if game.variant == "base" else dict(game.kept) or None
        text = game.to_dn()
        if table.by_hand:  # its comments and layout are the user's: kept (NAME.dn.orig) before the table's text
            self.storage.keep_original(table.name)
            table.by_hand = False
        # A new salt for every game made: the seat links of a game deleted before it open nothing here.
        table.stamp = self.storage.write(table.name, text, known, secrets.token_hex(16) if new else None)
        table.rev, table.text, table.base = _rev(text, game), text, base_of(text)
        table.pending = 0

    def delete(self, table: Table) -> str:
        """End and delete a game: every change written into its record, which the storage
        then keeps apart (a folder's ``archive/``), never lost; where it went. Call without the lock."""
        with table.lock:
            self.fresh(table)
            if table.pending and table.game is not None:
                self.save(table)
            with contextlib.suppress(OSError):
                self.storage.close(table.name, remove=True)
            try:
                kept = self.storage.archive(table.name)
            except OSError as e:
                raise _unwritten(e, table.path, _("the game is still there")) from None
            with self._lock:
                self._tables.pop(table.name, None)
            table.stamp = None
        return kept

    def rewrite(self, table: Table, text: str) -> None:
        """Replace a record by ``text`` (a repair), the record as it was kept as a backup
        (NAME.dn.bak on a disk). Call with the table's lock held."""
        try:
            self.storage.replace(table.name, text)
        except DnError as e:
            raise Refused(409, e.format(table.path.name)) from None
        except OSError as e:
            raise _unwritten(e, table.path, _("the file is as it was")) from None
        table.stamp, table.pending, table.taken_back = None, 0, []
        table.vote = table.choice = None
        self.fresh(table)

def _printable(text: str) -> bool:
    """Printable, the zero-width joiner of an emoji sequence (👩‍💻) too; other format characters (a bidi
    override) are not."""
    return text.replace("\u200d", "").isprintable()


def _replay(game: Game, ops: list[JSONObject]) -> Game:
    """``game`` with the journaled ``ops`` replayed, up to the first this game cannot take."""
    game = game.copy()
    for op in ops:
        try:
            apply(game, op)
        except (DnError, IndexError, TypeError, ValueError):
            break
    return game


def apply(game: Game, op: JSONObject) -> None:
    """Replay one journaled change: ``{"op": "push", "move": ..., "vote": ..., "jein": ..., "keep": ...}``,
    ``{"op": "pop"}``, ``{"op": "takeback", "keep": K}`` (back to the first K events) or
    ``{"op": "batch", "ops": [...]}``."""
    if op.get("op") == "pop":
        game.pop()
    elif op.get("op") == "takeback" and isinstance(op.get("keep"), int):
        for _step in range(len(game.events) - max(op["keep"], 0)):  # counted once: linear in the turns taken back
            game.pop()
    elif op.get("op") == "batch" and isinstance(op.get("ops"), list):
        for each in op["ops"]:
            apply(game, each)
    elif op.get("op") == "push" and isinstance(op.get("move"), str):
        game.push(op["move"], vote=op.get("vote"), jein=op.get("jein"), keep=op.get("keep"))
    else:
        raise fail("D001", f"a journal line this version does not know: {str(op)[:80]}")


def game_id(name: object) -> str:
    """``name``, when it is a game's id (else 400)."""
    if not isinstance(name, str) or not NAME.fullmatch(name):
        raise Refused(400, _("a game's id (its file's name without .dn) is 1 to 64 letters, digits, '-' or '_'"))
    return name


def file_id(title: str) -> str:
    """The file name (without .dn) of a game named ``title``: the name itself when it is
    already letters, digits, - and _; else its letters and digits in ASCII, joined by -,
    and 6 hex digits of its hash, so different names never share a file."""
    if NAME.fullmatch(title):
        return title
    ascii_ = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    stem = re.sub(r"[^A-Za-z0-9]+", "-", ascii_).strip("-")[:48].rstrip("-") or "game"
    return f"{stem}-{sha1(title.encode()).hexdigest()[:6]}"


def title(game: Game | None, name: str) -> str:
    """What a game is called: the name it was created under (its Event tag), else its file's."""
    event = next((t.value for t in game.tags if t.key == "Event"), None) if game is not None else None
    return event or name


def _unwritten(e: OSError, path: Path, outcome: str) -> Refused:
    """A write the OS refused: 409 when something that is not a file is in the way, else 503."""
    status = 409 if isinstance(e, NotRegularFile) else 503
    return Refused(status, _("could not write {file}: {problem}; {outcome}").format(
        file=path.name, problem=os_reason(e), outcome=outcome))


def _rev(text: str, game: Game | None) -> str:
    """Changes whenever what a page shows of the game changes: its record, or cards becoming known."""
    known = game is not None and game.cards is not None
    return sha1(f"{known}\n{text}".encode()).hexdigest()[:16]


def _hands(hands: object) -> dict[str, dict[str, int]]:
    """Hands as dealt at the table: ``{"Anna": "W3 W2x2 S1"}`` or ``{"Anna": {"W3": 1, ...}}``."""
    if not isinstance(hands, dict):
        raise Refused(400, _("deal.hands maps each player to their tiles, e.g. {example}").format(
            example='{"Anna": "W3 W2x2 S1"}'))
    out = {}
    for player, tiles in hands.items():
        if isinstance(tiles, dict):
            out[player] = tiles
            continue
        if not isinstance(tiles, str) or len(tiles) > 400:
            raise Refused(400, _("the hand of {player}: tiles like \"W3 W2x2 S1\"").format(player=str(player)[:40]))
        counts: dict[str, int] = {}
        for word in tiles.split():
            m = TILE.fullmatch(word)
            if m is None:
                raise fail("D001", _("'{word}' in the hand of {player} is not a tile like W3 or W2x2").format(
                    word=word[:20], player=str(player)[:40]))
            counts[m[1]] = counts.get(m[1], 0) + int(m[2] or 1)
        out[player] = counts
    return out
