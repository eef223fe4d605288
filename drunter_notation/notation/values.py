"""Token texts -> the model's values, and the largest number each place may hold.

Both readers of DN text (the line reader in :mod:`lines`, Lark's builder in
:mod:`parser`) turn tokens into values here, so that both build the same values.
"""
from __future__ import annotations

from drunter_notation.notation.model import (
    BUILDING_ALIASES,
    CARD_NAMES,
    KINDS,
    Card,
    HandTile,
    Square,
    Tile,
    parse_square,
)


def unquote(text: str) -> str:
    return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")


# Tiles, squares and cards repeat in every record: each text is turned into its value
# once and the (immutable) value shared, which spares a NamedTuple or tuple per token.
TILES = {f"{kind}{length}": Tile(kind, length) for kind in KINDS for length in (1, 2, 3)}
_CARDS = {**{name: Card(name) for name in CARD_NAMES}, "JEIN=yes": Card("JEIN", "yes"), "JEIN=no": Card("JEIN", "no")}
SQUARES: dict[str, tuple[int, int]] = {}  # at most 26 x 99 entries: the SQUARE terminal allows no more
HAND_TILES: dict[str, HandTile] = {}  # a hand line's TILE text -> its value (HandTile has no position)


# The largest number each place in a record may hold: bounded where it is read, so a
# 5,000-digit number is a located P001, never a Python ValueError or a huge value.
MAX_TURN = 999_999
MAX_TILE_COUNT = 99
MAX_TALLY = 999
MAX_SCORE = 99_999
MAX_LINE_CHARS = 100_000
MAX_LIST_ITEMS = 1000  # tags, tiles in a hand line, cards in a ballot ... (_LIST_WORDS)
# What is kept from one line for later ones at most: short texts, a few thousand of each kind (2 MB at most each).
KEPT_TEXT, KEPT_ITEMS = 64, 4096


def bounded(digits: str, limit: int) -> int | None:
    """``digits`` as an int if it is at most ``limit``, else None (never a 5,000-digit int)."""
    digits = digits.lstrip("0") or "0"
    if len(digits) > 6:  # every limit has at most six digits
        return None
    number = int(digits)
    return number if number <= limit else None


def read_square(text: str) -> Square:
    sq = SQUARES.get(text)
    if sq is None:
        sq = SQUARES[text] = parse_square(text)
    return sq


def hand_tile(text: str) -> HandTile | None:
    """A TILE of a hand line (``W2x4``) as a HandTile, kept in :data:`HAND_TILES`; None if
    its count is over the limit."""
    tile = HAND_TILES.get(text)
    if tile is None:
        if "x" not in text:
            tile = HandTile(TILES[text], 1)
        else:
            count = bounded(text[3:], MAX_TILE_COUNT)
            if count is None:
                return None
            tile = HandTile(TILES[text[:2]], count)
        if len(text) <= KEPT_TEXT and len(HAND_TILES) < KEPT_ITEMS:
            HAND_TILES[text] = tile
    return tile


def read_card(text: str) -> Card:
    card = _CARDS.get(text)
    if card is not None:
        return card
    if text.startswith("JEIN") and "=" in text:  # spaced: "JEIN = yes"
        return Card("JEIN", text.split("=")[1].strip())
    return Card(text)


def read_tally(text: str) -> tuple[int | None, int | None]:
    yes, no = text.split(":")
    return bounded(yes.strip(), MAX_TALLY), bounded(no.strip(), MAX_TALLY)


def turn_number_text(text: str) -> str:
    return text.rstrip(". \t\r\n")  # TURNNO: "12.", "12 ." or "12\n."


def read_goal(text: str) -> str:
    return BUILDING_ALIASES.get(text, text)
