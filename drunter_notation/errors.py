"""Diagnostics and the project's one error type.

A :class:`Diagnostic` is a finding about a record or board (docs/diagnostics.md). A
:class:`DnError` carries one diagnostic out of code that cannot go on (a syntax
error, an unreadable file, an unknown board). Nothing else is ever raised for bad
input: the CLI turns a ``DnError`` into one line, never a traceback.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from drunter_notation.codes import CODES
from drunter_notation.i18n import _, pgettext

CARET_WIDTH = 100  # characters of the offending line shown around the caret
SHOWN = 60  # characters of the input a message quotes at most: a 99,000-character token must not make the line


def shown(text: str, limit: int = SHOWN) -> str:
    """``text`` as a message quotes a piece of the input: at most ``limit`` characters,
    the rest cut to an ellipsis. The real characters are kept (the text output escapes
    them, JSON keeps them as its own escapes)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def quoted(value: object, limit: int = SHOWN) -> str:
    """``value`` quoted in a message (``'W2ZZ…'``): a string as :func:`shown` between
    single quotes, not ``repr``'s backslash escapes (which JSON would escape once more);
    anything else as its ``repr``, cut alike."""
    return f"'{shown(value, limit)}'" if isinstance(value, str) else shown(repr(value), limit)


def printable(text: str, limit: int | None = None) -> str:
    """``text`` safe to print as part of one terminal line: every character that is
    not printable -- control characters, bidi controls (U+200E/F, U+202A-E,
    U+2066-9), line and paragraph separators, CR, LF, TAB, unassigned code points --
    is written as its escape (``\\u202e``), so input can neither split a line nor
    reorder what the terminal shows. Printable text (and no-break spaces) comes back
    unchanged. ``limit``: at most that many characters, cut between whole characters
    or escapes, never inside an escape."""
    if text.isprintable():
        return text if limit is None else text[:limit]
    pieces = [c if c.isprintable() or c in _NO_BREAK else _escape(c) for c in text]
    if limit is None:
        return "".join(pieces)
    kept, used = [], 0
    for piece in pieces:
        if used + len(piece) > limit:
            break
        kept.append(piece)
        used += len(piece)
    return "".join(kept)


# No-break spaces split no line and reorder nothing: the languages write them in numbers ("12,5\u00a0%")
_NO_BREAK = frozenset("\u00a0\u202f")


def printable_lines(text: str) -> str:
    """:func:`printable` for multi-line output: each ``\\n``-separated line made safe,
    the line breaks themselves kept."""
    return "\n".join(printable(line) for line in text.split("\n"))


def printable_text(text: str) -> str:
    """:func:`printable_lines` for text shown in a page (the reports): the zero-width
    joiner and non-joiner are kept too, as parts of an emoji sequence (woman + ZWJ + laptop) or of
    a Persian or Indic word; they join or part letters and reorder nothing. Every other
    control and format character (a bidi override) is its escape, as on the terminal."""
    return "\u200d".join("\u200c".join(printable_lines(part) for part in piece.split("\u200c"))
                         for piece in text.split("\u200d"))


def _escape(c: str) -> str:
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def json_safe(text: str) -> str:
    """JSON text (from ``json.dumps(..., ensure_ascii=False)``) with every non-printable
    character written as a JSON ``\\uXXXX`` escape: the same JSON value. No-break spaces
    stay, as :func:`printable` keeps them (a Czech ``100\u00a0002`` reads the same in the
    text and in the JSON). Line breaks are kept: outside strings they are indentation
    (inside, JSON already escaped them)."""
    def safe(c: str) -> str:
        return c if c.isprintable() or c in _NO_BREAK else _json_escape(c)

    return "\n".join(line if line.isprintable() else "".join(map(safe, line)) for line in text.split("\n"))


def _json_escape(c: str) -> str:
    n = ord(c)
    if n < 0x10000:
        return f"\\u{n:04x}"
    n -= 0x10000  # a UTF-16 surrogate pair, as JSON writes characters beyond the BMP
    return f"\\u{0xd800 + (n >> 10):04x}\\u{0xdc00 + (n & 0x3ff):04x}"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding. ``line``/``column`` are 1-based, 0 when the finding has no place."""

    severity: Literal["error", "warning"]
    code: str  # stable code of codes.CODES (P001, A004, W001, ...)
    message: str
    line: int = 0
    column: int = 0
    turn: int | None = None
    rule: str | None = None  # rule ID, e.g. "A3"
    citation: str | None = None  # place in the source, "HiG 1991, Spielregel A.3": data, said by said_citation
    hint: str | None = None  # what to do about it
    context: str | None = None  # the offending source line, for syntax errors

    def format(self, path: str) -> str:
        """The compiler-style line ``path:line:col: severity[CODE]: message — rule (citation)``,
        always one line with every non-printable character escaped (:func:`printable`)."""
        where = f"{path}:{self.line}:{self.column}" if self.line else path
        text = f"{where}: {severity_word(self.severity)}[{self.code}]: {self.message}"
        if self.rule and self.citation:
            text += " — " + _("rule {rule} ({citation})").format(rule=self.rule, citation=said_citation(self.citation))
        elif self.citation:
            text += f" ({said_citation(self.citation)})"
        if self.hint:
            text += f"; {self.hint}"
        return printable(text)

    def caret(self) -> str | None:
        """The offending line (at most :data:`CARET_WIDTH` characters around the column,
        escaped like :meth:`format`) with a caret under the column, or None without context."""
        if self.context is None or not self.column:
            return None
        start = max(0, min(self.column - 1 - CARET_WIDTH // 2, len(self.context) - CARET_WIDTH))
        shown = self.context[start:start + CARET_WIDTH].replace("\t", " ")
        before = printable(shown[:self.column - 1 - start])
        line = before + printable(shown[self.column - 1 - start:])
        cut = ("…" if start else "", "…" if start + CARET_WIDTH < len(self.context) else "")
        return f"    {cut[0]}{line}{cut[1]}\n    {' ' * (len(cut[0]) + len(before))}^"

    def as_json(self) -> dict[str, str | int | None]:
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


def said_citation(citation: str) -> str:
    """A citation as data writes it (``"HiG 1991, not stated (taken from the German
    Spielregel A.7)"``: the ruleset's label, its place, maybe a note after ``"; "``) in
    the language in force: the place as the source names it, the project's words around
    it and the note translated. JSON keeps the citation as data, the same in every language."""
    label, sep, rest = citation.partition(", ")
    if not sep:
        return citation
    said = _(rest)
    if said == rest and "; " in rest:
        place, note = rest.rsplit("; ", 1)
        said = f"{_(place)}; {_(note)}"
    return f"{label}, {said}"


def severity_word(severity: str) -> str:
    """"error" or "warning" in the language in force, as compilers word it (Fehler, chyba)."""
    return pgettext("severity", "warning") if severity == "warning" else pgettext("severity", "error")


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


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """``" (did you mean 'hig-1991'?)"`` for the closest of ``known``, or ``""``."""
    import difflib  # here: only a name not known pays for its import

    close = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return " " + _("(did you mean {name}?)").format(name=quoted(close[0])) if close else ""
