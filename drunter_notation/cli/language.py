"""The command line's language: ``--lang`` on every command, else the environment.

Click's own words (Usage, Options, Error, ...) and every command's help come from the
project's catalogs too: help texts are written in English in the decorators, marked
with ``N_``, and translated when the help is shown, so one process can show them in
any language.
"""
from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from drunter_notation import i18n
from drunter_notation.errors import printable
from drunter_notation.i18n import N_, _

_warned: set[str] = set()


def choose(value: str) -> str:
    """The language ``--lang value`` asks for; an unknown one is said once, on stderr,
    and gives English."""
    lang = i18n.parse_tag(value)
    if lang is None:
        if value not in _warned:
            _warned.add(value)
            known = ", ".join(i18n.LANGUAGES)
            click.echo(printable(_("drunter: warning: unknown language '{lang}' (known: {known}); "
                                   "using English").format(lang=value, known=known)), err=True)
        return i18n.SOURCE
    return lang


def from_argv(argv: Sequence[str]) -> str | None:
    """The value of the last ``--lang`` in ``argv`` (before a ``--``), or None: read
    before click parses, so that ``--help`` anywhere on the line is in that language."""
    value = None
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        elif arg.startswith("--lang="):
            value = arg.split("=", 1)[1]
    return value


def start(argv: Sequence[str]) -> None:
    """Set the process's language from the command line, else from the environment."""
    value = from_argv(argv)
    i18n.set_language(choose(value) if value is not None else i18n.from_environment())
    install_click_words()


def _set_from_option(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        i18n.set_language(choose(value))


LANG_HELP = N_("Language of the output: en, de or cs (default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG).")


HELP_HELP = N_("Show this message and exit.")  # click's own words for --help


def lang_option() -> click.Option:
    return TranslatedOption(["--lang"], metavar="LANG", expose_value=False, is_eager=True,
                            callback=_set_from_option, help=LANG_HELP)


class TranslatedOption(click.Option):
    """An option whose help is translated when shown."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        original = self.help
        self.help = _(original) if original else original
        try:
            return super().get_help_record(ctx)
        finally:
            self.help = original


class _TranslatedHelp:
    """A command's help and short help translated when shown (mixed into click's classes)."""

    help: str | None
    short_help: str | None

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        original = self.help
        self.help = _(original) if original else original
        try:
            super().format_help_text(ctx, formatter)  # type: ignore[misc]  # click.Command's, by the MRO
        finally:
            self.help = original

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        option: click.Option | None = super().get_help_option(ctx)  # type: ignore[misc]  # click.Command's
        if option is not None and type(option) is click.Option:  # click words it once and keeps it
            option.__class__ = TranslatedOption
            option.help = HELP_HELP
        return option

    def get_short_help_str(self, limit: int = 45) -> str:
        original = self.short_help, self.help
        self.short_help = _(self.short_help) if self.short_help else self.short_help
        self.help = _(self.help) if self.help else self.help
        try:
            text: str = super().get_short_help_str(limit)  # type: ignore[misc]  # click.Command's
            return text
        finally:
            self.short_help, self.help = original


class TranslatedCommand(_TranslatedHelp, click.Command):
    pass


class TranslatedGroup(_TranslatedHelp, click.Group):
    pass


def localize(command: click.Command) -> click.Command:
    """Give ``command`` (and a group's subcommands) ``--lang`` and help translated when
    shown: applied once to each command as the group loads it."""
    if getattr(command, "_localized", False):
        return command
    for param in command.params:
        if type(param) is click.Option:
            param.__class__ = TranslatedOption
    if not any(p.name == "lang" for p in command.params):
        command.params.append(lang_option())
    if type(command) is click.Command:
        command.__class__ = TranslatedCommand
    elif type(command) is click.Group:
        command.__class__ = TranslatedGroup
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            localize(sub)
    command._localized = True  # type: ignore[attr-defined]  # a marker on click's object
    return command


_CLICK_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "termui", "types", "utils",
                  "shell_completion")


def install_click_words() -> None:
    """Click's own words (Usage, Options, Error, Show this message and exit, ...) from
    the project's catalogs: its modules call gettext's functions, bound at import."""
    for name in _CLICK_MODULES:
        module: Any = sys.modules.get(f"click.{name}") or __import__(f"click.{name}", fromlist=["_"])
        if hasattr(module, "_"):
            module._ = i18n._
        if hasattr(module, "ngettext"):
            module.ngettext = i18n.ngettext
