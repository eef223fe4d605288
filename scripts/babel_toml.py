"""Babel extractor for the shipped ruleset and catalogue files (babel.cfg names it).

Extracted, each with whitespace collapsed exactly as ``data/rulesets.py`` collapses it,
so the msgid is the text shown: every rule's title and wording and every topic's title
(``catalogue.toml``); the note of each shipped board; each ruleset's name, its wording of every topic and its places
in the source (``[sections]``, ``[topic_sections]``: the place stays as the source
names it, only the project's words around it are translated). Option values, ids,
labels and source file names are data and are never extracted.
"""
from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from typing import IO, Any

_HEADER = re.compile(r"^\s*\[([A-Za-z0-9_.\-]+)\]")
_KEY = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*=")
_CATALOGUE_KEYS = ("title", "wording")  # [rules.X] and [topics.x]; "rule" and "option" are ids
_PLACE = ("TRANSLATORS: a place in the rule source: keep the source's own headings and numbers as "
          "written; translate only our words around them.")
_RULESET_TABLES = {"wording": None, "sections": _PLACE, "topic_sections": _PLACE}


def _lines(source: str) -> dict[tuple[str, str], int]:
    """The line of every ``key =`` under its table header: (table, key) -> line number."""
    table, out = "", {}
    for number, line in enumerate(source.splitlines(), 1):
        header = _HEADER.match(line)
        if header:
            table = header.group(1)
            continue
        key = _KEY.match(line)
        if key:
            out.setdefault((table, key.group(1)), number)
    return out


def _collapsed(value: Any) -> str | None:
    return " ".join(value.split()) if isinstance(value, str) and value.strip() else None


def _texts(data: dict[str, Any]) -> Iterator[tuple[str, str, str | None]]:
    """(table, key, text) of every text shown to a reader, in file order."""
    board = str(data.get("format", "")).startswith("drunter-board/")
    for name, value in data.items():
        if name == "note" and board:  # a shipped board's note; its name is a name
            yield "", name, value
        elif name == "name" and not board:
            yield "", name, value
        elif name in _RULESET_TABLES and isinstance(value, dict):
            for key, text in value.items():
                yield name, key, text
        elif name in ("rules", "topics") and isinstance(value, dict):
            for entry_id, entry in value.items():
                if isinstance(entry, dict):
                    for key in _CATALOGUE_KEYS:
                        if key in entry:
                            yield f"{name}.{entry_id}", key, entry[key]


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
            ) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel's extractor interface: (line, funcname, message, comments) per text."""
    source = fileobj.read().decode("utf-8")
    lines = _lines(source)
    for table, key, value in _texts(tomllib.loads(source)):
        text = _collapsed(value)
        if text is None:
            continue
        comment = _RULESET_TABLES.get(table)
        yield lines.get((table, key), 0), "_", text, [comment] if comment else []
