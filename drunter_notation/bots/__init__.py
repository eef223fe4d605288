"""Players for games without people: the :class:`Player` protocol builders
implement, the shipped bots (``random``, ``greedy``, ``cautious``, and the search
bot ``ismcts``), and the drivers
that play a game with them (:func:`play_game` through the Game API, :func:`play_out`
on the lean playout path). ``docs/analysis.md`` describes the styles."""
from __future__ import annotations

import random

from drunter_notation.bots.ismcts import SIMS, IsmctsBot, canonical, spec
from drunter_notation.bots.player import Bot, Player, lean_move, play_game
from drunter_notation.bots.styles import BOTS as STYLES
from drunter_notation.bots.styles import CautiousBot, GreedyBot, RandomBot
from drunter_notation.errors import fail
from drunter_notation.i18n import _, format_number, ngettext
from drunter_notation.rules.playout import play_out, play_turn

BOTS: dict[str, type[Bot]] = {**STYLES, IsmctsBot.name: IsmctsBot}

__all__ = ["BOTS", "STYLES", "Bot", "CautiousBot", "GreedyBot", "IsmctsBot", "Player", "RandomBot", "canonical_bot",
           "check_run_work", "lean_move", "make_bot", "parse_bots", "play_game", "play_out", "play_turn",
           "sims_per_decision"]

# A run's search work: its games times the simulations its most searching bot runs per decision (a style runs 1,
# ismcts:sims=N runs N), bounded in total so that neither cap alone lets both be asked at their most.
MAX_RUN_WORK = 10_000_000


def make_bot(name: str, seed: int | str | random.Random | None = None) -> Bot:
    """A new shipped bot by name, with its settings if any (``ismcts:sims=400``);
    raises DnError (U002) for an unknown name or a bad setting."""
    base, params = spec(name)
    if base not in BOTS:
        raise fail("U002", _("no bot named {name}; the bots are {bots}").format(name=repr(base), bots=", ".join(BOTS)))
    return BOTS[base](seed, **params)


def canonical_bot(name: str) -> str:
    """The one spelling of a bot (``ismcts:c=0.50:sims=0400`` is ``ismcts:sims=400:c=0.5``);
    raises DnError (U002) as :func:`make_bot` does."""
    make_bot(name)
    return canonical(*spec(name))


def parse_bots(text: str, players: int) -> tuple[str, ...]:
    """``--bots`` as given: one name for every seat, or one per seat separated by
    commas. Raises DnError (U002)."""
    names = tuple(n.strip() for n in text.split(","))
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise fail("U002", ngettext("--bots names {n} bot for {players} players: give one per seat, or one for all",
                                    "--bots names {n} bots for {players} players: give one per seat, or one for all",
                                    len(names)).format(n=len(names), players=players))
    return tuple(canonical_bot(n) for n in names)  # each checked, in its one spelling


def sims_per_decision(name: str) -> int:
    """The simulations the bot ``name`` (a canonical spelling) runs per decision: a style 1, ismcts its ``sims``."""
    base, params = spec(name)
    return int(params.get("sims", SIMS)) if base == IsmctsBot.name else 1


def check_run_work(names: tuple[str, ...], games: int) -> None:
    """Refuse (U002) a run of ``games`` games between the bots ``names`` (canonical
    spellings) whose games times the most simulations a decision runs exceeds
    :data:`MAX_RUN_WORK`, before any game is played."""
    sims = max(map(sims_per_decision, names), default=1)
    if games * sims > MAX_RUN_WORK:
        raise fail("U002", ngettext(
            "{games} game times sims={sims} for each decision in it is {work}, more than the {most} a run allows; "
            "give fewer games or fewer sims",
            "{games} games times sims={sims} for each decision in them is {work}, more than the {most} a run allows; "
            "give fewer games or fewer sims", games).format(
            games=format_number(games), sims=sims, work=format_number(games * sims), most=format_number(MAX_RUN_WORK)))
