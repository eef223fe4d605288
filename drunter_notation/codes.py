"""Every diagnostic code as data: its rule, severity, exit class and meaning.

Codes are stable: new ones are added, none is ever reused. The CLI's exit status,
``docs/diagnostics.md`` and the tests all read :data:`CODES`; nothing else decides
what a code means.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from drunter_notation.i18n import N_


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


class Exit(IntEnum):
    """The CLI's exit status for a finding of this code."""

    OK = 0  # warnings only
    INVALID = 1  # the input breaks the notation or a rule
    CANNOT = 2  # cannot work on it: unreadable, unknown board or ruleset, bad usage


@dataclass(frozen=True)
class Code:
    code: str
    severity: Severity
    exit: Exit
    rule: str | None  # the rule ID it enforces (docs/architecture.md), None for notation and files
    meaning: str  # English, as docs/diagnostics.md lists it; marked for the catalogs: show it as _(meaning)


def _table(*rows: tuple[str, str | None, str]) -> dict[str, Code]:
    out = {}
    for code, rule, meaning in rows:
        severity = Severity.WARNING if code[0] == "W" else Severity.ERROR
        exit_ = Exit.OK if severity is Severity.WARNING else (Exit.CANNOT if code in _CANNOT else Exit.INVALID)
        out[code] = Code(code, severity, exit_, rule, meaning)
    return out


_CANNOT = {"I001", "I002", "I003", "I005", "H003", "H004", "U001", "U002", "U003", "U004"}

CODES: dict[str, Code] = _table(
    ("P001", None, N_("syntax error: the text is not DN")),
    ("P002", None, N_("a position string that is malformed or describes an impossible position")),
    ("I001", None, N_("the file cannot be read: missing, a directory, a special file, or no permission")),
    ("I002", None, N_("the file is not UTF-8 text")),
    ("I003", None, N_("the file is binary, not a DN record")),
    ("I004", None, N_("the record is empty")),
    ("I005", None, N_("an output file or folder cannot be written")),
    ("U001", None, N_("the record has no such turn (adjudicate)")),
    ("U002", None, N_("an unknown bot or policy name, or --bots naming a bot per seat for another number of seats "
                "or for more than 4")),
    ("U003", None, N_("the record cannot be analysed: its hands are not recorded")),
    ("U004", None, N_("report --analysis: the file is not the JSON Lines output of drunter analyze")),
    ("H001", "S1", N_("the Players tag is missing, names fewer than 2 or more than 4 players, or a name twice")),
    ("H002", None, N_("a tag value is wrong (Variant, Date, Result) or a tag is given twice")),
    ("H003", None, N_("unknown board, or a board file that cannot be read or is invalid")),
    ("H004", None, N_("unknown ruleset")),
    ("D001", "S1", N_("hands are given for some players only, twice, or for someone who is not a player")),
    ("D002", "S1", N_("a hand does not match the deal for this number of players")),
    ("D003", "S1", N_("the hands together do not match the board's box")),
    ("T001", "T1", N_("turn number out of sequence")),
    ("T002", "T1", N_("not this player's turn")),
    ("T003", "T1", N_("the tile is not in the player's hand")),
    ("T004", "T2", N_("a pass although a legal placement exists (Legezwang)")),
    ("T005", "E1", N_("a turn after the game is over")),
    ("A001", "A2", N_("no live track of the tile's kind can take it there")),
    ("A002", "A3", N_("wrong shape or orientation: not a straight line of the tile's length running away from "
                      "the gang")),
    ("A003", "A3", N_("the tile runs off the board")),
    ("A004", "A3", N_("the tile overlaps a tile already laid")),
    ("A005", "A7", N_("the tile covers a corner")),
    ("A006", "A2", N_("two tracks fit (write @corner), or @corner names no live track of the tile's kind")),
    ("B001", "B1", N_("a vote is missing where one must be held, or held where none is")),
    ("B002", "B2", N_("the ballots are not one per player in voting order, or one is empty")),
    ("B003", "B7", N_("a card the player no longer holds (spent earlier, or laid twice in one ballot)")),
    ("B004", "B4", N_("a JEIN without =yes or =no")),
    ("B005", "B5", N_("the claimed outcome or tally differs from the count")),
    ("E001", "E2", N_("the reveal names a player twice, misses one, or names an unknown or duplicate card")),
    ("E002", "E1", N_("a reveal although some player can still place a tile")),
    ("E003", "E2", N_("a claimed score differs from the computed score")),
    ("E004", "E3", N_("the Result tag differs from the computed winner(s)")),
    ("X001", "X1", N_("expert goals: not two different cards each, or one card dealt twice")),
    ("X002", "X2", N_("choose is missing, misplaced, or in a base game")),
    ("X003", "X3", N_("the chosen card in the reveal is not one of the player's goals")),
    ("W001", None, N_("hands are not recorded: some checks cannot be made")),
    ("W002", None, N_("partial record (no reveal): the end of the game is not checked")),
    ("W003", None, N_("a claim (Result tag, score line) cannot be checked without a reveal")),
    ("W004", None, N_("an unknown tag that looks like a slip of a known one (players, Rule): it is not used")),
    ("W005", None, N_("a report page shows only the first turns of a very long record (validate judges all)")),
)


def exit_status(codes: Iterable[str]) -> int:
    """The CLI's exit status for a run that found ``codes`` (any iterable of code strings)."""
    return max((CODES[c].exit for c in codes), default=Exit.OK)


def markdown_table() -> str:
    """The table of docs/diagnostics.md, made from :data:`CODES` (``python -m drunter_notation.codes``)."""
    exits = {Exit.OK: "0", Exit.INVALID: "1", Exit.CANNOT: "2"}
    rows = ["| code | severity | exit status | rule | meaning |", "|---|---|---|---|---|"]
    rows += [f"| {c.code} | {c.severity} | {exits[c.exit]} | {c.rule or '—'} | {c.meaning} |" for c in CODES.values()]
    return "\n".join(rows)


if __name__ == "__main__":
    print(markdown_table())
