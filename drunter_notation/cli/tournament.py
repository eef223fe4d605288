"""``drunter tournament``: bots play many games; win rates with 95 % intervals, seat effects."""
from __future__ import annotations

import functools
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import click
from babel.numbers import get_decimal_symbol

from drunter_notation import i18n
from drunter_notation.bots import check_run_work, parse_bots
from drunter_notation.bots.tournament import Match, Rate, lean_game, summarize
from drunter_notation.cli.cluster import dask_option, on_cluster
from drunter_notation.cli.common import SEED, DiagnosticError, pool_size
from drunter_notation.codes import Exit
from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import DEFAULT_RULESET, load_ruleset
from drunter_notation.deal import deal_hands, player_names
from drunter_notation.errors import DnError, fail
from drunter_notation.explain.words import variant_name
from drunter_notation.i18n import N_, _, ngettext, pgettext
from drunter_notation.rules.board import DEFAULT_BOARD
from drunter_notation.rules.state import Variant  # click.Choice gives one of the two

MAX_GAMES = 100_000  # games per run, as for simulate --count
DEFAULT_BOTS = ("greedy", "cautious", "random")  # without --bots: the shipped styles against each other


def _game(match: Match, i: int) -> Any:
    return lean_game(match, i)


# Play N games (--games N) between bots: the help below says how.
@click.command(help=N_(
    "Play N games (--games N) between bots and print each entrant's win rate and each seat's, with 95 % (Wilson) "
    "intervals. The entrants change seats every game (entrant k sits in seat k+i-1 of game i), so over a multiple "
    "of the number of players every entrant plays every seat equally often. A win shared by k players counts 1/k."))
@click.option("--bots", "bots", metavar="NAMES",
              help=N_("One bot per seat, comma-separated (greedy,random,cautious,greedy), or one name for all "
                      "(then --players says how many). Default: greedy,cautious,random, or with --players N "
                      "the first N of greedy,cautious,random,greedy. The bots: random, greedy, cautious, and the "
                      "search bot ismcts, whose budget per decision is set as ismcts:sims=N (default 200) and/or "
                      "ismcts:time=SECONDS, with c=X and policy=NAME as further settings "
                      "(ismcts:sims=400:time=1)."))
@click.option("--players", "n_players", type=click.IntRange(2, 4), default=None, metavar="N",
              help=N_("Number of players when --bots names one bot."))
@click.option("--games", type=click.IntRange(min=1, max=MAX_GAMES), default=400, show_default=True, metavar="N",
              help=N_("Number of games (at most 100,000)."))
@click.option("--seed", type=SEED, default=1, show_default=True, metavar="S",
              help=N_("Game i is dealt as `drunter simulate --seed S` deals it."))
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, metavar="J",
              help=N_("Worker processes (at most 4 per core and one per game)."))
@click.option("--board", "board_ref", default=DEFAULT_BOARD, show_default=True, metavar="ID|PATH")
@click.option("--rules", "rules_id", default=DEFAULT_RULESET, show_default=True, metavar="ID")
@click.option("--variant", type=click.Choice(["base", "expert"]), default="base", show_default=True)
@dask_option
def tournament(bots: str | None, n_players: int | None, games: int, seed: int, jobs: int, board_ref: str,
               rules_id: str, variant: Variant, dask_address: str | None) -> None:
    if bots is None:
        bots = ",".join((DEFAULT_BOTS + DEFAULT_BOTS)[:n_players or len(DEFAULT_BOTS)])
    try:
        n = n_players or (len(bots.split(",")) if "," in bots else 4)
        if not 2 <= n <= 4:
            raise fail("U002", ngettext("--bots names {n} bot, but a game takes 2 to 4 players: give one per seat",
                                        "--bots names {n} bots, but a game takes 2 to 4 players: give one per seat",
                                        n).format(n=n))
        names = parse_bots(bots, n)
        check_run_work(names, games)
        deal_hands(load_board(board_ref), player_names(n), random.Random(0))  # D002 once, before any game is played
        load_ruleset(rules_id)
        if n_players is not None and "," in bots and len(names) != n_players:
            raise fail("U002", ngettext("--bots names {n} bot and --players says {players}",
                                        "--bots names {n} bots and --players says {players}",
                                        len(names)).format(n=len(names), players=n_players))
    except DnError as e:
        raise DiagnosticError(e, "tournament", exit_code=Exit.CANNOT) from None
    match = Match(names, seed, board_ref, rules_id, variant)
    play = functools.partial(_game, match)
    jobs = pool_size(jobs, games)
    if dask_address is not None:
        results = list(on_cluster(dask_address, play, range(1, games + 1), games,
                                  pgettext("progress bar: games per second", "game")))
    elif jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(play, range(1, games + 1), chunksize=max(1, games // (jobs * 8))))
    else:
        results = [play(i) for i in range(1, games + 1)]
    entrants, seats = summarize(names, results)
    click.echo(_("{games}, {players}, {board}, {rules}, {variant}, seed {seed}; seats rotate every game; 95 % "
                 "intervals (Wilson)").format(
        games=ngettext("{n} game", "{n} games", games).format(n=games),
        players=ngettext("{n} player", "{n} players", len(names)).format(n=len(names)),
        board=board_ref, rules=rules_id, variant=variant_name(variant), seed=seed))
    entrant, seat = pgettext("column", "entrant"), pgettext("column", "seat")
    wins, rate = pgettext("column", "wins"), pgettext("column", "win rate")
    interval = pgettext("column", "95 % interval")
    # a bot's settings lengthen its label
    w = max(14, len(entrant), len(seat), *(len(r.label) for r in entrants + seats))
    a, b = max(8, len(wins)), max(9, len(rate))
    c = max(6, *(len(_rate(x)) for r in entrants + seats for x in (r.low, r.high)))
    point = get_decimal_symbol(i18n.language())

    def row(r: Rate) -> str:
        return (f"{r.label:<{w}} {f'{r.wins:.1f}'.replace('.', point):>{a}} {_rate(r.rate):>{b}}  "
                f"{_rate(r.low):>{c}} - {_rate(r.high):>{c}}")
    click.echo(f"{entrant:<{w}} {wins:>{a}} {rate:>{b}}  {interval}")
    for r in entrants:
        click.echo(row(r))
    click.echo(f"{seat:<{w}} {wins:>{a}} {rate:>{b}}  {interval}   " +
               _("(fair share {share})").format(share=_rate(1 / len(names))))
    for r in seats:
        click.echo(row(r))


def _rate(x: float) -> str:
    """A rate as a percentage with one decimal, rounded as Python rounds (``66.7%``),
    written as the language writes it (``66,7 %``)."""
    return i18n.format_percent(float(f"{x * 100:.1f}") / 100, 1)
