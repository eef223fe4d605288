"""The glossary: docs/glossary.toml is the data (one word per concept and language, the
words the catalogs must not use, the form of address), docs/glossary.md is made from it.

    python scripts/glossary.py write    write docs/glossary.md from docs/glossary.toml
    python scripts/glossary.py check    exit 1 if docs/glossary.md is not what write makes

tests/test_i18n_glossary.py runs ``check`` and holds the catalogs to the data.
"""
from __future__ import annotations

import sys
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "docs" / "glossary.toml"
PAGE = ROOT / "docs" / "glossary.md"
SOURCES = ("project (English)", "German booklet", "Czech page", "English translation", "our German", "our Czech")
OWN = ("project (English)", "our German", "our Czech")


def load() -> dict[str, Any]:
    with open(DATA, "rb") as f:
        return tomllib.load(f)


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"


def _table(head: tuple[str, ...], rows: list[list[str]]) -> list[str]:
    return [_row(list(head)), "|" + "---|" * len(head), *(_row(r) for r in rows)]


def _avoided(patterns: list[str]) -> str:
    return ", ".join(f"`{p}`" for p in patterns) or "-"


def render(data: dict[str, Any]) -> str:
    out = [f"# {data['title']}", "", data["intro"].strip(), ""]
    for section in data["section"]:
        out += [f"## {section['title']}", ""]
        if "text" in section:
            out += [section["text"].strip(), ""]
        sourced = "hig" in section["term"][0]
        keys = ("en", "hig", "cz", "webley", "de", "cs") if sourced else ("en", "de", "cs")
        out += [*_table(SOURCES if sourced else OWN, [[t[k] for k in keys] for t in section["term"]]), ""]
    address = data["address"]
    out += [f"## {address['title']}", "", address["text"].strip(), "",
            *_table(("language", "form", "patterns no message may contain"),
                    [["German", address["de"], _avoided(address["avoid_de"])],
                     ["Czech", address["cs"], _avoided(address["avoid_cs"])]]), ""]
    avoided = [[t["en"], t.get("when", "") and f"`{t['when']}`", _avoided(t.get("avoid_de", [])),
                _avoided(t.get("avoid_cs", []))]
               for s in data["section"] for t in s["term"] if "avoid_de" in t or "avoid_cs" in t]
    out += ["## Words the catalogs do not use", "",
            "A second word for a concept (one the catalogs used before, or one a translator reaches for) is",
            "kept out: `tests/test_i18n_glossary.py` fails when a German or Czech message contains one of these",
            "patterns (Python regular expressions), among the messages whose English matches the pattern in",
            "the second column (all messages where it is empty).",
            "This page is made from [glossary.toml](glossary.toml) by `python scripts/glossary.py write`.", "",
            *_table(("concept", "in messages matching", "German: not", "Czech: not"), avoided)]
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    text = render(load())
    if argv == ["write"]:
        PAGE.write_text(text, encoding="utf-8")
        return 0
    if argv == ["check"]:
        if PAGE.read_text(encoding="utf-8") != text:
            print(f"{PAGE.relative_to(ROOT)} is out of date: run python scripts/glossary.py write")
            return 1
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
