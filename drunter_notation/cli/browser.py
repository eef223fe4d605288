"""The browser edition's engine side (docs/browser.md): what the pages' Web Worker
calls under Pyodide, one JSON text in and one out (:func:`call`).

``cli``: ``drunter`` itself, run in a working folder of its own that holds the given
files, its output captured as the command writes it. The rest are a game's typed
calls over the :class:`~drunter_notation.game.Game` API and the shipped bots, for
the pages that play: new game, legal moves, push, undo, position, record, verdict,
a bot's or the coach's move. Nothing here decides a rule: the engine does.
"""
from __future__ import annotations

import base64
import io
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, TextIO, cast

from drunter_notation import i18n
from drunter_notation.errors import DnError, fail, printable
from drunter_notation.i18n import _, using

if TYPE_CHECKING:  # imported where used: the page's engine is ready before it needs them
    from drunter_notation.bots import Bot
    from drunter_notation.game import Game

JSON = dict[str, Any]
MAX_FILES = 2_000  # files one cli() call may lay out (a folder of records)
MAX_TOTAL_CHARS = 64_000_000  # and their text in all: each file up to beyond the CLI's own limit (16 MiB)
MAX_GAMES = 32  # games kept open in one worker
# The strengths of the table app's new-game form (docs/play.md), by the same bot specs.
LEVELS = {"easy": "greedy", "medium": "ismcts:sims=200", "strong": "ismcts:sims=800"}
HINT_BOT = "ismcts:sims=200"


def call(name: str, payload: str) -> str:
    """``name``'s answer to the JSON arguments ``payload``, as JSON: the call's value,
    or ``{"error": {"code", "message"}}`` for what the engine refuses, in the call's
    language (``lang``; cli() takes it as the default of its ``--lang``)."""
    try:
        args = json.loads(payload)
    except ValueError as e:
        return json.dumps({"error": {"code": "U002", "message": f"{name}: {type(e).__name__}: {e}"[:300]}})
    lang = args.pop("lang", None) if isinstance(args, dict) else None
    # the whole call in its own language, its error worded too: nothing of it outlives the call
    with using(str(lang)) if lang is not None else nullcontext():
        try:
            handler = CALLS.get(name)
            if handler is None or not isinstance(args, dict):
                raise fail("U002", _("no such call: {name}").format(name=repr(name)[:80]))
            value = handler(**args)
        except DnError as e:
            value = {"error": {"code": e.diagnostic.code, "message": e.format()}}
        except (TypeError, ValueError, KeyError, AttributeError, IndexError) as e:  # arguments of the wrong shape
            value = {"error": {"code": "U002", "message": f"{name}: {type(e).__name__}: {e}"[:300]}}
    return json.dumps(value, ensure_ascii=False)


# -- drunter itself ------------------------------------------------------------------------------

def cli(args: list[str], files: dict[str, object] | None = None) -> JSON:
    """``drunter ARGS`` run in a new folder holding ``files`` (relative path: text, or
    ``{"base64": ...}`` for bytes that are no UTF-8 text):
    ``{"status", "stdout", "stderr", "files"}``, the last the files the command wrote
    or changed there. The same bytes as the command run in such a folder, its standard
    input empty, with the language in force as its environment's (``LANGUAGE``): the
    default of ``--lang``. A file too large for the command is the command's to refuse."""
    from drunter_notation.cli import main
    from drunter_notation.cli.language import forget_warnings

    given = files if files is not None else {}
    contents = {n: _content(t) for n, t in given.items()} if isinstance(given, dict) and len(given) <= MAX_FILES else {}
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args) or not isinstance(given, dict) \
            or len(given) > MAX_FILES or not all(isinstance(n, str) and c is not None for n, c in contents.items()) \
            or sum(len(c or b"") for c in contents.values()) > MAX_TOTAL_CHARS:
        raise fail("U002", _("cli() takes a list of texts as its arguments, and at most {n} files, "
                             "{mb} MB in all").format(n=MAX_FILES, mb=MAX_TOTAL_CHARS // 1_000_000))
    default = i18n.language()  # the page's language, as a LANGUAGE the command finds set
    folder = Path(tempfile.mkdtemp(prefix="drunter-"))
    try:
        before = _lay_out(folder, {n: c for n, c in contents.items() if c is not None})
        out, err = io.BytesIO(), io.BytesIO()
        saved = sys.argv, sys.stdin, sys.stdout, sys.stderr, os.getcwd(), os.environ.get("LANGUAGE")
        forget_warnings()
        sys.argv = ["drunter", *args]
        # held here: a wrapper let go closes its buffer; standard input empty, as with </dev/null
        streams = _stream(io.BytesIO()), _stream(out), _stream(err)
        sys.stdin, sys.stdout, sys.stderr = streams
        os.environ["LANGUAGE"] = default
        try:
            os.chdir(folder)
            with i18n.as_a_process():
                try:
                    main()
                    status = 0
                except SystemExit as e:
                    status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
            for stream in streams:
                stream.flush()
            written = {p.relative_to(folder).as_posix(): p.read_bytes().decode("utf-8", "replace")
                       for p in sorted(folder.rglob("*")) if p.is_file()}
        finally:
            sys.argv, sys.stdin, sys.stdout, sys.stderr = saved[0], saved[1], saved[2], saved[3]
            os.chdir(saved[4])
            if saved[5] is None:
                os.environ.pop("LANGUAGE", None)
            else:
                os.environ["LANGUAGE"] = saved[5]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {"status": status, "stdout": out.getvalue().decode("utf-8", "replace"),
            "stderr": err.getvalue().decode("utf-8", "replace"),
            "files": {p: t for p, t in written.items() if before.get(p) != t}}


def _content(given: object) -> bytes | None:
    """A file's bytes as cli() is given them: its text, or ``{"base64": ...}`` for bytes that are
    no UTF-8 text (a page hands a file over as it is, for the command to judge); None for neither."""
    if isinstance(given, str):
        return given.encode("utf-8", "surrogatepass")
    if isinstance(given, dict) and set(given) == {"base64"} and isinstance(given["base64"], str):
        try:
            return base64.b64decode(given["base64"], validate=True)
        except ValueError:
            return None
    return None


def _lay_out(folder: Path, given: dict[str, bytes]) -> dict[str, str]:
    """The files written into ``folder``: each one's text by its relative path."""
    before: dict[str, str] = {}
    for name, data in given.items():
        path = PurePosixPath(name)
        if path.is_absolute() or ".." in path.parts or not path.parts:
            raise fail("U002", _("{name}: a file is given by a relative path inside the folder").format(
                name=repr(name)[:200]))
        try:
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_bytes(data)
        except (OSError, ValueError):  # a file where a folder must be, a NUL in the name ...
            raise fail("U002", _("{name}: the file cannot be laid out in the folder beside the other files "
                                 "given").format(name=repr(name)[:200])) from None
        before[path.as_posix()] = data.decode("utf-8", "replace")  # as the files written are read back
    return before


def _stream(buffer: io.BytesIO) -> TextIO:
    """A standard stream as a pipe gives it to ``drunter``: UTF-8, not a terminal."""
    return io.TextIOWrapper(buffer, encoding="utf-8", errors="strict", newline="\n", write_through=True)


# -- a game ---------------------------------------------------------------------------------------

@dataclass
class Table:
    """A game being played in the page, and the bot of each bot seat."""

    game: Game
    bots: dict[str, str] = field(default_factory=dict)  # seat -> bot spec


TABLES: dict[int, Table] = {}


def _table(game: int) -> Table:
    if game not in TABLES:
        raise fail("U002", _("no such game: {game}").format(game=repr(game)[:40]))
    return TABLES[game]


def new_game(players: list[str], board: str | None = None, rules: str | None = None, variant: str = "base",
             seed: int | None = None, bots: dict[str, str] | None = None, dn: str | None = None,
             cards: dict[str, list[str]] | None = None) -> JSON:
    """A new game (dealt from ``seed``), or the game of the record ``dn`` going on
    (``cards``: the secret cards, which a record shows only at the end); ``bots``
    names the bot (a strength or a spec) of each bot seat."""
    from drunter_notation.bots import make_bot
    from drunter_notation.data.rulesets import DEFAULT_RULESET
    from drunter_notation.game import Game
    from drunter_notation.rules.board import DEFAULT_BOARD

    if dn is not None:
        game = Game.from_dn(dn, "game.dn")
        if cards is not None and game.cards is None:
            game.cards = {p: tuple(cards[p]) for p in game.players}
    else:
        game = Game.new(players, board or DEFAULT_BOARD, rules or DEFAULT_RULESET, variant, seed=seed)
    specs = {p: LEVELS.get(s, s) for p, s in (bots or {}).items() if p in game.players}
    for spec in specs.values():
        make_bot(spec)  # an unknown bot is refused now, not at its turn
    if len(TABLES) >= MAX_GAMES:
        del TABLES[min(TABLES)]  # the oldest open game gives way
    number = max(TABLES, default=0) + 1
    TABLES[number] = Table(game, specs)
    return state(number)


def close_game(game: int) -> JSON:
    TABLES.pop(game, None)
    return {}


def state(game: int) -> JSON:
    """What the page shows of a game: the position, every seat's public holdings and
    secret cards (the page shows a card only to its seat), the legal moves, the result."""
    from drunter_notation.report.view import position_board
    from drunter_notation.rules.votes import voting_order

    t = _table(game)
    g = t.game
    result = g.result()
    return {
        "game": game, "players": list(g.players), "to_move": g.to_move, "turn": g.turn, "variant": g.variant,
        "over": g.is_over(), "choice_due": g.choice_due, "bots": t.bots,
        "legal": [{"move": str(m), "vote": m.needs_vote} for m in g.legal_moves()],
        "tiles": {p: g.tiles_left(p) for p in g.players},
        "votes": {p: g.vote_cards_left(p) for p in g.players},
        "cards": {p: list(c) for p, c in (g.cards or {}).items()},
        "voters": list(voting_order(g.state, g.to_move)),
        "position": g.position(), "record": g.to_dn(), "board": str(position_board(g.state)),
        "result": None if result is None else {"scores": result.scores, "winners": list(result.winners),
                                               "explanation": result.explanation},
    }


def legal_moves(game: int) -> list[str]:
    return [str(m) for m in _table(game).game.legal_moves()]


def push(game: int, move: str, vote: dict[str, list[str]] | None = None, jein: dict[str, str] | None = None,
         keep: dict[str, str] | None = None) -> JSON:
    """The next turn played (DN text, ``vote`` the ballots, ``jein`` the jokers'
    sides, ``keep`` the goal cards kept at ``choose``); the engine's refusal as an error."""
    _table(game).game.push(move, vote=vote, jein=jein, keep=keep)
    return state(game)


def undo(game: int) -> JSON:
    g = _table(game).game
    if g.turn > 1 or g.choice_due:
        g.pop()
    return state(game)


def position(game: int) -> str:
    return _table(game).game.position()


def record(game: int) -> str:
    return _table(game).game.to_dn()


def verdict(move: str, game: int | None = None, position: str | None = None, rules: str | None = None) -> JSON:
    """``drunter adjudicate --position ... --move MOVE [--rules ID | --all-rulesets]
    --format json`` at a game's position or a position string; ``rules="all"`` for every ruleset."""
    from drunter_notation.adjudication import adjudicate_position, all_ruleset_ids, as_json
    from drunter_notation.data.rulesets import load_ruleset
    from drunter_notation.position import parse_position

    text = _table(game).game.position() if game is not None else (position or "")
    st, _rules, own = parse_position(text)
    every = rules == "all"
    rulesets = [load_ruleset(r) for r in all_ruleset_ids()] if every else [load_ruleset(rules) if rules else own]
    return cast(JSON, json.loads(json.dumps(as_json("position", st.number + 1, move,
                                                    adjudicate_position(st, rulesets, move), all_rulesets=every))))


def rulesets() -> list[JSON]:
    """Every shipped ruleset, the default first: its id and its name in the language in force."""
    from drunter_notation.data.rulesets import DEFAULT_RULESET, list_rulesets

    return [{"id": r.id, "name": _(r.name), "default": r.id == DEFAULT_RULESET} for r in list_rulesets()]


def decide(game: int, player: str | None = None, kind: str = "move", move: str | None = None,
           ballots: dict[str, list[str]] | None = None, spec: str | None = None) -> JSON:
    """A bot's decision for ``player`` (default the player to move; its seat's bot, or
    ``spec``, e.g. the coach's): ``{"move", "vote"}``, ``{"cards"}`` (``kind="lay"``
    on ``move``), ``{"side"}`` (``"jein"``, the ``ballots`` shown) or ``{"keep"}``
    (``"choose"``). The bot sees the seat's own cards only, as at the table."""
    t = _table(game)
    g = t.game
    seat = player or g.to_move
    bot = _bot(t, seat, spec)
    if kind == "choose":
        cards = tuple((g.cards or {}).get(seat, ()))
        if len(cards) != 2:  # a base game, or goal cards not known
            raise fail("U002", _("decide(kind: choose) is for a player who holds two goal cards (the expert game)"))
        return {"keep": bot.choose_goal(g, (cards[0], cards[1]))}
    moves = g.legal_moves()
    if kind == "move":
        if not moves:
            return {"move": "pass", "vote": False}
        chosen = bot.choose_move(g, moves)
        return {"move": str(chosen), "vote": chosen.needs_vote}
    voted = next((m for m in moves if str(m) == move), None)
    if voted is None:
        raise fail("U002", _("{move} is not a legal move here").format(move=repr(move)[:80]))
    if kind == "lay":
        return {"cards": list(bot.cast_ballot(g, voted))}
    return {"side": bot.declare_joker(g, voted, ballots or {})}


def _bot(t: Table, seat: str, spec: str | None) -> Bot:
    from drunter_notation.bots import make_bot

    which = spec or t.bots.get(seat) or HINT_BOT
    bot = make_bot(LEVELS.get(which, which), f"{seat}-{t.game.turn}")
    bot.start(t.game, seat, tuple((t.game.cards or {}).get(seat, ())))
    return bot


SHOWN_LINES = 5_000  # lines of a record a page lists, line by line: more would hold up the page for seconds


def shown_lines(text: str) -> JSON:
    """The first SHOWN_LINES lines of ``text`` as a page lists them, each made safe to show as
    the terminal shows it (a control or bidi character as its escape), and how many more there are."""
    if not isinstance(text, str) or len(text) > MAX_TOTAL_CHARS:
        raise fail("U002", _("shown_lines() takes a text of at most {mb} MB").format(mb=MAX_TOTAL_CHARS // 1_000_000))
    lines = text.split("\n", SHOWN_LINES)
    more = lines.pop().count("\n") + 1 if len(lines) > SHOWN_LINES else 0
    return {"lines": [printable(line) for line in lines], "more": more}


CALLS: dict[str, Callable[..., object]] = {
    "cli": cli, "new_game": new_game, "close_game": close_game, "state": state, "legal_moves": legal_moves,
    "push": push, "undo": undo, "position": position, "record": record, "verdict": verdict, "decide": decide,
    "rulesets": rulesets, "shown_lines": shown_lines,
}
