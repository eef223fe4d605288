"""The ``drunter`` command line. The only layer that prints or touches files.

Subcommands are imported only when they run (``drunter --version`` and ``--help``
load none of them), so the table below carries each one's line for the help.
"""
from __future__ import annotations

import contextlib
import gc
import importlib
import sys

import click

from drunter_notation.cli.common import UsageLine, run_group
from drunter_notation.cli.language import TranslatedGroup, install_click_words, localize, start, version_option
from drunter_notation.i18n import N_, _

# name -> (module, one line for ``drunter --help``)
COMMANDS = {
    "adjudicate": ("drunter_notation.cli.adjudicate",
                   N_("Judge one turn (or a what-if move) under one or all rulesets.")),
    "analyze": ("drunter_notation.cli.analyze", N_("Who protects which building, win chances and turning points.")),
    "board": ("drunter_notation.cli.board", N_("Show, check or start a board file.")),
    "fmt": ("drunter_notation.cli.fmt", N_("Print, check or rewrite records in the canonical form.")),
    "play": ("drunter_notation.cli.play", N_("Record and referee games at the table, live, in the browser.")),
    "position": ("drunter_notation.cli.position", N_("Print the one-line position string of a record, at any turn.")),
    "report": ("drunter_notation.cli.report", N_("Write an HTML page per record to step through the game.")),
    "rules": ("drunter_notation.cli.rules", N_("List, show and compare the rulesets.")),
    "simulate": ("drunter_notation.cli.simulate", N_("Play random legal games and write them as records.")),
    "tournament": ("drunter_notation.cli.tournament", N_("Bots play many games: win rates, 95 % intervals, seats.")),
    "validate": ("drunter_notation.cli.validate", N_("Check records move by move against the rules.")),
}


class LazyGroup(TranslatedGroup):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        try:
            module = importlib.import_module(COMMANDS[name][0])
        except ImportError as e:  # a Python without what the command needs: a page has no server, no web browser
            raise UsageLine(_("drunter {name} cannot run here: this Python has no module {module}").format(
                name=name, module=e.name or "?"), ctx) from None
        return localize(getattr(module, name))

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section(_("Commands")):
            formatter.write_dl([(name, _(COMMANDS[name][1])) for name in self.list_commands(ctx)])


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    pass


cli.help = N_("drunter: rules checker, replay engine and reports for Drunter & Drueber (DN records).")
cli.params.append(version_option())
localize(cli)  # --lang, and --version's help translated when shown
install_click_words()


# Allocations between two collections of the young generation (CPython's default: 700).
# A command's values are trees that reference counting frees; collecting less often
# spares validate and analyze about 5 % of their time (bench/README.md).
YOUNG_THRESHOLD = 10_000


def main() -> None:
    start(sys.argv[1:])
    gc.disable()  # the modules loaded now live as long as the process: no collection need walk them
    name = next((arg for arg in sys.argv[1:] if not arg.startswith("-")), None)
    if name in COMMANDS:
        with contextlib.suppress(ImportError):  # the group says so in one line (LazyGroup.get_command)
            importlib.import_module(COMMANDS[name][0])
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD)
    gc.enable()
    run_group(cli)
