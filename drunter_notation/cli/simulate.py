"""``drunter simulate``: write complete random legal games as canonical DN."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from drunter_notation.bots import check_run_work, parse_bots
from drunter_notation.bots.tournament import bot_game
from drunter_notation.cli.cluster import dask_option, on_cluster
from drunter_notation.cli.common import SEED, DiagnosticError
from drunter_notation.codes import Exit
from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import DEFAULT_RULESET, load_ruleset
from drunter_notation.deal import game_rng, player_names
from drunter_notation.errors import DnError, fail, printable
from drunter_notation.files import os_reason, write_atomic
from drunter_notation.i18n import N_, _, ngettext, pgettext
from drunter_notation.notation.formatter import format_record, writable_text
from drunter_notation.rules.board import DEFAULT_BOARD
from drunter_notation.rules.state import Variant  # click.Choice gives one of the two
from drunter_notation.simulate import simulate_game

MAX_COUNT = 100_000  # games per run: every file name is checked before the first is written


def _board_tag(board_ref: str, out: str | None) -> str:
    """The Board tag for ``--board``: an id as given; a board file's path relative to
    the folder the records go to (a record's Board path is relative to its folder), or as given when they go to
    stdout."""
    if not board_ref.endswith(".toml") or out is None:
        return board_ref
    return Path(os.path.relpath(Path(board_ref).resolve(), Path(out).resolve())).as_posix()


def _targets(out: str, seed: int, count: int, force: bool) -> list[Path]:
    """The files to write, checked before any is written: the folder is created, an
    existing file is an error unless ``force``."""
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise fail("I005", _("cannot create the output folder: {reason}").format(reason=os_reason(e)),
                   path=out) from None
    paths = [folder / f"game-{seed}-{i}.dn" for i in range(1, count + 1)]
    existing = [p for p in paths if os.path.exists(p)]
    if existing and not force:
        more = len(existing) - 1
        message = (ngettext("already exists (and {n} more); nothing was written",
                            "already exists (and {n} more); nothing was written", more).format(n=more) if more
                   else _("already exists; nothing was written"))
        raise fail("I005", message, path=str(existing[0]), hint=_("use --force to overwrite"))
    return paths


# Play random legal games and write them as DN: the help below says how.
@click.command(help=N_(
    "Play complete random legal games and write them as canonical DN records.\n\n"
    "Every placement is drawn at random from the legal ones (a player passes only when forced), every voter lays "
    "one or two random cards, and each record ends with hands, reveal, score and Result. The same options give "
    "the same bytes. With --bots, bots play instead (the record's Bots tag names them, seat by seat)."))
@click.option("--players", "n_players", type=int, required=True, metavar="N", help=N_("Number of players, 2 to 4."))
@click.option("--seed", type=SEED, required=True, metavar="S",
              help=N_("Seed: game i (from 1) is played with random.Random(\"S-i\")."))
@click.option("--count", type=click.IntRange(min=1, max=MAX_COUNT), default=1, show_default=True, metavar="K",
              help=N_("Number of games (at most 100,000)."))
@click.option("--out", metavar="DIR", help=N_("Folder to write game-S-i.dn files to (created if missing); without "
                                              "it the one game goes to stdout."))
@click.option("--board", "board_ref", default=DEFAULT_BOARD, show_default=True, metavar="ID|PATH",
              help=N_("Built-in board id or board file ending in .toml."))
@click.option("--rules", "rules_id", default=DEFAULT_RULESET, show_default=True, metavar="ID",
              help=N_("Ruleset id."))
@click.option("--variant", type=click.Choice(["base", "expert"]), default="base", show_default=True,
              help=N_("base: one secret goal card each; expert: two goal cards each, one of them chosen during the "
                      "game (the record's Variant tag)."))
@click.option("--force", is_flag=True, help=N_("Overwrite existing files."))
@click.option("--bots", "bots", metavar="NAMES", help=N_(
    "Play with bots instead of random moves: one per seat (greedy,random,cautious,greedy) or one name for all: "
    "random, greedy, cautious, or the search bot ismcts (ismcts:sims=N sets its budget per decision); see "
    "`drunter tournament`."))
@dask_option
def simulate(n_players: int, seed: int, count: int, out: str | None, board_ref: str, rules_id: str, variant: Variant,
             force: bool, bots: str | None, dask_address: str | None) -> None:
    try:
        players = player_names(n_players)
        names = None if bots is None else parse_bots(bots, n_players)
        if names is not None:
            check_run_work(names, count if out is not None else 1)
        board = load_board(board_ref)
        ruleset = load_ruleset(rules_id)
        if out is None and count > 1:
            raise fail("I005", ngettext("--count {n} writes {n} game: give --out DIR",
                                        "--count {n} writes {n} games: give --out DIR", count).format(n=count))
        tag = _board_tag(board_ref, out)
        if not writable_text(tag):  # the record names the board in a tag: one line of UTF-8 text
            raise click.BadParameter(_("{path}: a record names its board file in a tag, which cannot hold a line "
                                       "break or a NUL; rename the file").format(path=printable(tag)),
                                     param_hint="'--board'")

        def text(i: int) -> str:
            if names is None:
                return format_record(simulate_game(board, ruleset, players, game_rng(seed, i), variant, board_tag=tag))
            g = bot_game(players, names, seed, i, board_ref, rules_id, variant,
                         {"Event": "simulated", "Bots": ", ".join(names)})
            g.board_ref = tag
            return g.to_dn()
        games = range(1, 2 if out is None else count + 1)  # without --out, one game, to standard output
        records = map(text, games) if dask_address is None else on_cluster(
            dask_address, text, games, len(games), pgettext("progress bar: games per second", "game"))
        if out is None:
            sys.stdout.write(next(iter(records)))  # on the cluster too when one is named: it must be reachable
            return
        paths = _targets(out, seed, count, force)
        for path, record in zip(paths, records, strict=True):
            try:
                write_atomic(path, record)
            except OSError as e:
                raise fail("I005", _("cannot write the file: {reason}").format(reason=os_reason(e)),
                           path=str(path)) from None
    except DnError as e:  # every error here is about what the options named
        raise DiagnosticError(e, e.path or "simulate", exit_code=Exit.CANNOT) from None
    click.echo(printable(ngettext("wrote {n} game to {folder}", "wrote {n} games to {folder}", count).format(
        n=count, folder=out)), err=True)
