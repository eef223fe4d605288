"""The command line's language: ``--lang`` on every command, else the environment.

Click's own words (Usage, Options, Error, ...) and every command's help come from the
project's catalogs too: help texts are written in English in the decorators, marked
with ``N_``, and translated when the help is shown, so one process can show them in
any language. So are the words click keeps untranslated: its types' names (in the
metavars and in "'abc' is not a valid integer range"), the metavars, ``[OPTIONS]``,
``COMMAND [ARGS]...`` and ``--version``'s line.
"""
from __future__ import annotations

import copy
import re
import sys
from collections.abc import Sequence
from functools import cache
from typing import Any

import click

from drunter_notation import i18n
from drunter_notation.errors import printable
from drunter_notation.i18n import N_, _, pgettext

_warned: set[str] = set()


def forget_warnings() -> None:
    """Forget the languages warned about: a page's worker runs many commands in one process."""
    _warned.clear()


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


def type_name(english: str) -> str:
    """A click type's name (``integer range``) in the language in force."""
    words = {
        "text": pgettext("type of a value", "text"),
        "integer": pgettext("type of a value", "integer"),
        "integer range": pgettext("type of a value", "integer range"),
        "float": pgettext("type of a value", "float"),
        "float range": pgettext("type of a value", "float range"),
        "boolean": pgettext("type of a value", "boolean"),
        "choice": pgettext("type of a value", "choice"),
        "filename": pgettext("type of a value", "filename"),
        "uuid": pgettext("type of a value", "uuid"),
        "datetime": pgettext("type of a value", "datetime"),
        "file": pgettext("type of a value", "file"),
        "directory": pgettext("type of a value", "directory"),
        "path": pgettext("type of a value", "path"),
    }
    return words.get(english, english)


def metavar_word(english: str) -> str:
    """A metavar (``FILE``) in the language in force; letters (``N``) and DN examples stay."""
    words = {
        "FILE": pgettext("metavar", "FILE"),
        "FILES": pgettext("metavar", "FILES"),
        "DIR": pgettext("metavar", "DIR"),
        "DIRECTORY": pgettext("metavar", "DIRECTORY"),
        "PATH": pgettext("metavar", "PATH"),
        "ID|PATH": pgettext("metavar", "ID|PATH"),
        "NAME": pgettext("metavar", "NAME"),
        "NAMES": pgettext("metavar", "NAMES"),
        "ADDRESS": pgettext("metavar", "ADDRESS"),
        "LANG": pgettext("metavar", "LANG"),
        "WxH": pgettext("metavar", "WxH"),
    }
    return words.get(english, english)


def _metavar(text: str) -> str:
    """``[FILES]...`` with its word translated and click's marks kept."""
    core = text.removesuffix("...")
    tail = text[len(core):]
    if core.startswith("[") and core.endswith("]"):
        return f"[{metavar_word(core[1:-1])}]{tail}"
    return metavar_word(core) + tail


@cache
def _translated_type(cls: type[click.ParamType[Any]]) -> type[click.ParamType[Any]]:
    """``cls`` with its name said in the language in force (click keeps it in English)."""

    def name(self: click.ParamType[Any]) -> str:
        return type_name(vars(self)["_english"])

    def convert(self: click.ParamType[Any], value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        try:
            if issubclass(cls, click.types.IntParamType) and isinstance(value, str) and not DIGITS.fullmatch(value):
                self.fail(_("{value!r} is not a valid {number_type}.").format(value=value, number_type=self.name),
                          param, ctx)  # int() would take "１２", "٣", " 7", "+7" and "1_000": one spelling only
            return cls.convert(self, value, param, ctx)
        except click.BadParameter:
            if not isinstance(value, str) or len(value) <= ECHOED_CHARACTERS:
                raise
            try:  # the same refusal worded over the value shortened: click echoes it whole, 5,000 digits a screen
                cls.convert(self, shorten(value), param, ctx)
            except click.BadParameter as short:
                raise short from None
            raise

    return type(cls.__name__, (cls,), {"name": property(name), "convert": convert})


ECHOED_CHARACTERS = 40  # of a bad option value, in its usage error
DIGITS = re.compile(r"-?[0-9]+")  # an integer option's value: ASCII digits, a minus where the range allows it


def shorten(value: str) -> str:
    """``value`` as a usage error echoes it: its first characters and an ellipsis when it is long."""
    return value if len(value) <= ECHOED_CHARACTERS else value[:ECHOED_CHARACTERS] + "…"


def _translate_type(param: click.Parameter) -> None:
    """Give ``param`` a copy of its type whose name is translated when said."""
    kind = param.type
    if isinstance(kind, click.Path):  # click words a path's name once, at construction: its English again
        english = "directory" if kind.dir_okay and not kind.file_okay else "file" if not kind.dir_okay else "path"
    elif isinstance(getattr(type(kind), "name", None), str):
        english = type(kind).name
    else:
        return
    kind = copy.copy(kind)
    vars(kind).pop("name", None)
    kind._english = english  # type: ignore[attr-defined]  # read by the translated name
    kind.__class__ = _translated_type(type(param.type))
    param.type = kind


class TranslatedArgument(click.Argument):
    """An argument whose metavar is translated when shown."""

    def make_metavar(self, ctx: click.Context) -> str:
        return _metavar(super().make_metavar(ctx))


class TranslatedOption(click.Option):
    """An option whose help and metavar are translated when shown."""

    def make_metavar(self, ctx: click.Context) -> str:
        return _metavar(super().make_metavar(ctx))

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


    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        pieces: list[str] = super().collect_usage_pieces(ctx)  # type: ignore[misc]  # click.Command's
        words = {"[OPTIONS]": pgettext("usage", "[OPTIONS]"),
                 "COMMAND [ARGS]...": pgettext("usage", "COMMAND [ARGS]...")}
        return [words.get(p, p) for p in pieces]


class TranslatedCommand(_TranslatedHelp, click.Command):
    pass


class TranslatedGroup(_TranslatedHelp, click.Group):
    pass


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        import importlib.metadata  # only here: it loads zipfile and more, start-up time for every command

        click.echo(_("%(prog)s, version %(version)s") % {
            "prog": ctx.find_root().info_name, "version": importlib.metadata.version("drunter-notation")})
        ctx.exit()


def version_option() -> click.Option:
    """``--version``, its line in the language in force (click words it once, at import)."""
    return TranslatedOption(["--version"], is_flag=True, expose_value=False, is_eager=True,
                            callback=_show_version, help=N_("Show the version and exit."))


def localize(command: click.Command) -> click.Command:
    """Give ``command`` (and a group's subcommands) ``--lang`` and help translated when
    shown: applied once to each command as the group loads it."""
    if getattr(command, "_localized", False):
        return command
    for param in command.params:
        if type(param) is click.Option:
            param.__class__ = TranslatedOption
        elif type(param) is click.Argument:
            param.__class__ = TranslatedArgument
        _translate_type(param)
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
