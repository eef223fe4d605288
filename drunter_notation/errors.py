"""Diagnostics and the project's one error type.

A :class:`Diagnostic` is a finding about a record or board (docs/diagnostics.md). A
:class:`DnError` carries one diagnostic out of code that cannot go on (a syntax
error, an unreadable file, an unknown board). Nothing else is ever raised for bad
input: the CLI turns a ``DnError`` into one line, never a traceback.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass

from drunter_notation.codes import CODES


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding. ``line``/``column`` are 1-based, 0 when the finding has no place."""

    severity: str  # "error" or "warning"
    code: str  # stable code of codes.CODES (P001, A004, W001, ...)
    message: str
    line: int = 0
    column: int = 0
    turn: int | None = None
    rule: str | None = None  # rule ID, e.g. "A3"
    citation: str | None = None  # place in the ruleset's source, e.g. "HiG 1991, Spielregel A.3"
    hint: str | None = None  # what to do about it
    context: str | None = None  # the offending source line, for syntax errors

    def format(self, path: str) -> str:
        """The compiler-style line ``path:line:col: severity[CODE]: message — rule (citation)``."""
        where = f"{path}:{self.line}:{self.column}" if self.line else path
        text = f"{where}: {self.severity}[{self.code}]: {self.message}"
        if self.rule and self.citation:
            text += f" — rule {self.rule} ({self.citation})"
        elif self.citation:
            text += f" ({self.citation})"
        if self.hint:
            text += f"; {self.hint}"
        return text

    def caret(self) -> str | None:
        """The offending line with a caret under the column, or None without context."""
        if self.context is None or not self.column:
            return None
        line = self.context.replace("\t", " ")
        return f"    {line}\n    {' ' * (self.column - 1)}^"

    def as_json(self) -> dict:
        return {
            "severity": self.severity,
            "code": self.code,
            "line": self.line,
            "column": self.column,
            "turn": self.turn,
            "message": self.message,
            "rule": self.rule,
            "citation": self.citation,
        }


class DnError(Exception):
    """The project's own error: one diagnostic that stops the work at hand.

    Its exit status is the code's exit class in :data:`codes.CODES`.
    """

    def __init__(self, diagnostic: Diagnostic, path: str | None = None):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic
        self.path = path

    @property
    def exit_code(self) -> int:
        return int(CODES[self.diagnostic.code].exit)

    def format(self, path: str | None = None) -> str:
        return self.diagnostic.format(path or self.path or "<input>")

    def __str__(self) -> str:
        return self.format()


def fail(code: str, message: str, *, path: str | None = None, line: int = 0, column: int = 0,
         hint: str | None = None, context: str | None = None) -> DnError:
    """Build a :class:`DnError` for one error-severity diagnostic (``raise fail(...)``)."""
    return DnError(Diagnostic("error", code, message, line, column, hint=hint, context=context),
                   path=path)


def did_you_mean(word: str, known) -> str:
    """``" (did you mean 'hig-1991'?)"`` for the closest of ``known``, or ``""``."""
    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
