"""Babel extractor for the shipped ruleset and catalogue files: every rule title and
wording, each topic title and each ruleset's wording of a topic, whitespace collapsed
as the loader collapses it, so the msgid is the text shown."""
from __future__ import annotations

import tomllib
from collections.abc import Iterator
from typing import IO, Any

TEXT_KEYS = {"title", "wording", "name"}


def _texts(value: Any, key: str | None = None) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _texts(v, k)
    elif isinstance(value, str) and key is not None and key in TEXT_KEYS:
        yield " ".join(value.split())


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
            ) -> Iterator[tuple[int, str, str, list[str]]]:
    data = tomllib.loads(fileobj.read().decode("utf-8"))
    for section, value in data.items():
        if section == "wording" and isinstance(value, dict):  # a ruleset's words on each topic
            for text in value.values():
                if isinstance(text, str):
                    yield 0, "_", " ".join(text.split()), []
        else:
            for text in _texts(value, section if isinstance(value, str) else None):
                yield 0, "_", text, []
