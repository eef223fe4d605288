"""Record -> canonical DN text.

The canonical form: known tags in a fixed order (then unknown tags in input
order), one per line; a blank line; hand and goals lines; a blank line; one event
per line; a blank line; reveal and score. Single spaces between tokens, German
building aliases written in English, names quoted only where a bare name would
read as something else. Comments stay with the item they belong to: whole-line
comments above it, a same-line comment after it. ``format_record`` is idempotent
and ``parse_text(format_record(r)) == r``.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from drunter_notation.kept import KeptByIdentity
from drunter_notation.notation.model import (
    Ballot,
    Choose,
    Goals,
    Hand,
    Item,
    Placement,
    Record,
    Reveal,
    Score,
    Tag,
    Turn,
    square_name,
)

TAG_ORDER = ("Event", "Site", "Date", "Round", "Annotator", "Players", "Board", "Rules", "Variant", "Result")


def quote(text: str) -> str:
    """A double-quoted DN string with ``\\"`` and ``\\\\`` escapes."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@lru_cache(maxsize=4096)
def needs_quotes(name: str) -> bool:
    """True unless ``name`` reads back as exactly one bare player name."""
    from drunter_notation.notation.parser import reads_as_bare_name  # the grammar decides what a bare name is

    return not reads_as_bare_name(name)


def writable_name(name: str) -> bool:
    """``name`` can be a player's in a record: the Players tag parts names at commas and drops
    the spaces around them, and a record is UTF-8 text of lines, without NUL."""
    return bool(name) and name.strip() == name and not any(c in name for c in ",\n\x00") and _utf8(name)


def writable_text(text: str) -> bool:
    """``text`` can be a quoted value in a record (a tag's): one line (no line feed, no
    carriage return, which a text-mode reader takes for one), no NUL, UTF-8."""
    return not any(c in text for c in "\n\r\x00") and _utf8(text)


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, as JSON may carry
        return False
    return True


def player(name: str) -> str:
    return quote(name) if needs_quotes(name) else name


def format_placement(p: Placement) -> str:
    """``W3 b1-d1 @a1 vote { ... } -> accepted 3:1`` (the part after the player)."""
    parts = [str(p.tile), square_name(p.anchor) + ("" if p.end is None else "-" + square_name(p.end))]
    if p.corner is not None:
        parts.append("@" + square_name(p.corner))
    if p.vote is not None:
        parts.append("vote { " + ", ".join(format_ballot(b) for b in p.vote.ballots) + " }")
    if p.outcome is not None:
        o = p.outcome
        parts.append("-> " + ("accepted" if o.accepted else "rejected")
                     + ("" if o.yes is None else f" {o.yes}:{o.no}"))
    return " ".join(parts)


def format_ballot(b: Ballot) -> str:
    return f"{player(b.player)}: " + " ".join(str(c) for c in b.cards)


def format_item(item: Item) -> str:
    """One top-level item on one line, without its comments."""
    if isinstance(item, Turn | Hand):
        return _kept_line(item)
    if isinstance(item, Tag):
        return f"[{item.key} {quote(item.value)}]"
    if isinstance(item, Goals):
        return f"goals {player(item.player)}: {item.goals[0]}, {item.goals[1]}"
    if isinstance(item, Choose):
        return "choose"
    if isinstance(item, Reveal):
        return "reveal " + ", ".join(
            f"{player(e.player)}: {e.chosen}" + ("" if e.other is None else f"/{e.other}") for e in item.entries)
    if isinstance(item, Score):
        return "score " + ", ".join(f"{player(e.player)}: {e.points}" for e in item.entries)
    raise TypeError(f"not a record item: {item!r}")


def _line(item: Turn | Hand) -> str:
    if isinstance(item, Turn):
        action = "pass" if item.placement is None else format_placement(item.placement)
        return f"{item.number}. {player(item.player)} {action}"
    tiles = " ".join(f"{t.tile}x{t.count}" if t.count != 1 else str(t.tile) for t in item.tiles)
    return f"hand {player(item.player)}: {tiles}"


_kept_line = KeptByIdentity(_line)  # a live game's record is written anew after every move


def _comment(text: str) -> str:
    return "#" + text


def _lines(item: Item) -> list[str]:
    out = [_comment(c) for c in item.comments]
    line = format_item(item)
    if item.note is not None:
        line += "  " + _comment(item.note)
    out.append(line)
    return out


def ordered_tags(tags: Iterable[Tag]) -> list[Tag]:
    """Known tags in TAG_ORDER, then the others in input order."""
    rank = {k: i for i, k in enumerate(TAG_ORDER)}
    return sorted(tags, key=lambda t: rank.get(t.key, len(TAG_ORDER)))


def format_record(record: Record) -> str:
    """The canonical DN text of a record, ending in one newline."""
    sections: list[Sequence[Item]] = [
        ordered_tags(record.tags),
        list(record.setup),
        list(record.events),
        [x for x in (record.reveal, record.score) if x is not None],
    ]
    blocks: list[str] = []
    for items in sections:
        if items:
            blocks.append("\n".join(line for it in items for line in _lines(it)))
    if record.final_comments:
        blocks.append("\n".join(_comment(c) for c in record.final_comments))
    return "\n\n".join(blocks) + "\n"
