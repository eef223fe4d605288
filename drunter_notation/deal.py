"""Dealing (rules S1, S3, X1): the tiles of the box, building and goal cards, from a
seeded random generator, so the same seed deals the same game everywhere."""
from __future__ import annotations

import random
from collections import Counter

from drunter_notation.errors import fail
from drunter_notation.i18n import _, ngettext
from drunter_notation.notation.model import BUILDINGS, GOALS, SPECIAL_GOALS, Tile
from drunter_notation.rules.board import Board
from drunter_notation.rules.options import ExpertDeal, Ruleset
from drunter_notation.rules.state import LENGTHS, box_tiles, deal_for


def game_rng(seed: int | str, i: int = 1) -> random.Random:
    """The generator of game ``i`` (1-based) of a run with ``seed``: string-seeded, so the
    same seed and index give the same game on every platform and Python version."""
    return random.Random(f"{seed}-{i}")


PLAYER_NAMES = ("Anna", "Ben", "Cleo", "Dora")  # the usual example names, in seat order


def player_names(n: int) -> tuple[str, ...]:
    """The first ``n`` default player names (``n`` from 2 to 4)."""
    if not 2 <= n <= len(PLAYER_NAMES):
        raise fail("H001", _("the game needs 2 to 4 players, not {n}").format(n=n))
    return PLAYER_NAMES[:n]


def deal_hands(board: Board, players: tuple[str, ...], rng: random.Random) -> dict[str, Counter[Tile]]:
    """S1: shuffle the board's box and deal each player, in seat order, the number of
    triples, doubles and singles :func:`state.deal_for` fixes. Raises ``DnError`` D002
    (exit code 2) when the box cannot be dealt evenly to this many players."""
    deal = deal_for(board, len(players))
    if deal is None:
        raise fail("D002", ngettext("the box of board {board} cannot be dealt evenly to {n} player",
                                    "the box of board {board} cannot be dealt evenly to {n} players",
                                    len(players)).format(board=repr(board.id), n=len(players)),
                   hint=_("choose another number of players or another board"))
    if not any(deal.values()):  # a hand line needs at least one tile
        raise fail("D002", ngettext("the box of board {board} deals no tiles to {n} player",
                                    "the box of board {board} deals no tiles to {n} players",
                                    len(players)).format(board=repr(board.id), n=len(players)),
                   hint=_("give the board file a box with tiles in it"))
    box = _box(board)
    rng.shuffle(box)
    piles: dict[int, list[Tile]] = {length: [] for length in LENGTHS}
    for t in box:
        piles[t[1]].append(t)  # t[1]: its length, indexed (a pass over the box per length cost 3x)
    # each hand counted once, triples first, then doubles, then singles (its tile types in that order)
    return {p: Counter([t for length in LENGTHS for t in piles[length][i * deal[length]:(i + 1) * deal[length]]])
            for i, p in enumerate(players)}


_BOX = "deal-box"  # Board.memo's key of the box listing


def _box(board: Board) -> list[Tile]:
    """The board's box, tile by tile in the order of a box listing, before the
    shuffle (worked out once per board object, kept in its memo so that it goes with
    the board: a dict by board held every board ever dealt from, with its memo)."""
    listing: tuple[Tile, ...] | None = board.memo.get(_BOX)
    if listing is None:
        listing = board.memo[_BOX] = tuple(t for t, n in sorted(box_tiles(board).items(),
                                                                key=lambda item: item[0].order()) for _ in range(n))
    return list(listing)


def deal_goals(ruleset: Ruleset, players: tuple[str, ...], variant: str,
               rng: random.Random) -> dict[str, tuple[str, ...]]:
    """S3/X1: one distinct building card each (base), or two distinct goal cards each
    from the ten, no card dealt twice (expert; one special and one building card each
    under ``expert_deal = "one-special-one-building"``)."""
    n = len(players)
    if variant == "base":
        return {p: (card,) for p, card in zip(players, rng.sample(BUILDINGS, n), strict=True)}
    if ruleset.options.expert_deal is ExpertDeal.ONE_SPECIAL_ONE_BUILDING:
        pairs = zip(rng.sample(SPECIAL_GOALS, n), rng.sample(BUILDINGS, n), strict=True)
        return {p: tuple(rng.sample(pair, 2)) for p, pair in zip(players, pairs, strict=True)}
    cards = rng.sample(GOALS, 2 * n)
    return {p: (cards[2 * i], cards[2 * i + 1]) for i, p in enumerate(players)}


def deal_unseen(known: tuple[str, ...], others: int, variant: str, expert_deal: ExpertDeal,
                rng: random.Random) -> list[tuple[str, ...]]:
    """The cards of ``others`` players dealt at random as :func:`deal_goals` deals,
    given that one player holds ``known``: what a player may believe of the others'
    hidden cards before any evidence (a search bot's determinization)."""
    if variant == "base":
        return [(card,) for card in rng.sample([b for b in BUILDINGS if b not in known], others)]
    if expert_deal is ExpertDeal.ONE_SPECIAL_ONE_BUILDING:
        pairs = zip(rng.sample([g for g in SPECIAL_GOALS if g not in known], others),
                    rng.sample([b for b in BUILDINGS if b not in known], others), strict=True)
        return [tuple(rng.sample(pair, 2)) for pair in pairs]
    cards = rng.sample([g for g in GOALS if g not in known], 2 * others)
    return [(cards[2 * i], cards[2 * i + 1]) for i in range(others)]
