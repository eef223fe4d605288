"""The players' languages: every word a user reads goes through these functions.

English is the source language; German (``de``) and Czech (``cs``) come from the
gettext catalogs in ``locale/`` (``drunter.po``, compiled to ``drunter.mo``; one
catalog set for the CLI, the reports and the table app's pages). A process has one
language (:func:`set_language`, from ``--lang`` or the environment); a web request
may speak another for its own duration (:func:`using`), so each phone at the table
reads its own. DN text never goes through here: a record's bytes do not depend on
the language.

Messages are whole sentences with named placeholders, filled after translation:
``_("{player} passes").format(player=name)``; counts use :func:`ngettext`, since
Czech has three plural forms.
"""
from __future__ import annotations

import gettext
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Final

DOMAIN: Final = "drunter"
LOCALE_DIR: Final = Path(__file__).parent / "locale"
SOURCE: Final = "en"
LANGUAGES: Final = ("en", "de", "cs")  # English first: the source and the fallback
NAMES: Final = {"en": "English", "de": "Deutsch", "cs": "Čeština"}  # each in its own language

_process_language = SOURCE
_request_language: ContextVar[str | None] = ContextVar("drunter_language", default=None)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog of ``lang``, loaded once, on first use (English needs none)."""
    if lang == SOURCE or lang not in LANGUAGES:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])


def language() -> str:
    """The language in force: the request's, else the process's."""
    return _request_language.get() or _process_language


def set_language(lang: str) -> None:
    """Make ``lang`` (one of :data:`LANGUAGES`) the process's language."""
    global _process_language
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    _process_language = lang


@contextmanager
def using(lang: str) -> Iterator[None]:
    """Speak ``lang`` in this context only (a web request, a test), then as before."""
    token = _request_language.set(lang if lang in LANGUAGES else SOURCE)
    try:
        yield
    finally:
        _request_language.reset(token)


@contextmanager
def as_a_process() -> Iterator[None]:
    """Run a command inside a request (the browser's ``cli()``) as a process runs it: no
    request's language over its ``--lang``, and the process's language as before afterwards."""
    global _process_language
    saved = _process_language
    token = _request_language.set(None)
    try:
        yield
    finally:
        _request_language.reset(token)
        _process_language = saved


def _(message: str) -> str:
    """``message`` in the language in force. A msgid that is also the singular of a
    plural entry (``"player"``) has one entry in the catalog: its singular form."""
    lang = language()
    if lang == SOURCE:
        return message
    catalog = translations(lang)
    text = catalog.gettext(message)
    # Python before 3.12 does not look in the plural entries (Debian 12's 3.11 among them)
    return catalog.ngettext(message, message, 1) if text is message else text


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for the count ``n`` in the language in force (Czech has three)."""
    lang = language()
    if lang == SOURCE:
        return singular if n == 1 else plural
    return translations(lang).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` as meant in ``context`` (one English word, two senses)."""
    lang = language()
    if lang == SOURCE:
        return message
    return translations(lang).pgettext(context, message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs without translating it now (module-level
    tables): translate it with :func:`_` where it is shown."""
    return message


_TAG = re.compile(r"^([A-Za-z]{2,3})(?:[_-][A-Za-z0-9]+)?(?:\.[^@]*)?(?:@.*)?$")


def parse_tag(text: str) -> str | None:
    """The project language a locale name or language tag means (``de_DE.UTF-8``,
    ``cs-CZ``, ``de``; ``C`` and ``POSIX`` mean English), or None for any other."""
    text = text.strip()
    if text in ("C", "POSIX") or text.startswith(("C.", "POSIX.")):
        return SOURCE
    match = _TAG.match(text)
    if match is None:
        return None
    lang = match.group(1).lower()
    return lang if lang in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language as gettext reads the environment: the first of ``LANGUAGE``,
    ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set; ``LANGUAGE`` may list several
    (``fr:de``), the first one we speak wins. Anything else means English."""
    env = os.environ if environ is None else environ
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if not value:
            continue
        for item in value.split(":") if name == "LANGUAGE" else [value]:
            lang = parse_tag(item) if item else None
            if lang is not None:
                return lang
        if name != "LANGUAGE":
            return SOURCE  # gettext stops at the first of these that is set
    return SOURCE


def from_accept_language(header: str | None) -> str:
    """The language a browser asks for in its ``Accept-Language`` header: the one of
    highest weight that we speak (``de-DE,de;q=0.9,en;q=0.8`` gives ``de``), else English."""
    if not header:
        return SOURCE
    best, best_q = SOURCE, -1.0
    for item in header[:1000].split(",")[:50]:
        tag, _sep, params = item.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _eq, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        lang = parse_tag(tag)
        if lang is None or not 0 < q <= 1:
            continue
        if q > best_q:  # ties keep the earlier entry
            best, best_q = lang, q
    return best


def format_number(value: float, digits: int = 0) -> str:
    """``value`` with ``digits`` decimals, written as the language in force writes
    numbers (``12,5`` in German and Czech)."""
    from babel.numbers import format_decimal  # only where a number is shown

    pattern = "#,##0" + ("." + "0" * digits if digits > 0 else "")
    return format_decimal(value, format=pattern, locale=language())


def format_percent(fraction: float, digits: int = 0) -> str:
    """``fraction`` (0.125) as a percentage in the language in force: ``12.5%`` in
    English, ``12,5 %`` in German and Czech."""
    from babel import Locale
    from babel.numbers import format_percent as babel_percent

    pattern = Locale.parse(language()).percent_formats[None].pattern
    if digits > 0:
        pattern = pattern.replace("#,##0", "#,##0." + "0" * digits, 1)
    return babel_percent(fraction, format=pattern, locale=language())
