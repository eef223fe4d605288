"""The game as a whole: Legezwang (T2), the end of the game (E1) and finished tracks
(X2). The only home of these questions: the replay, the ``Game`` API, the
simulator and the explanations all ask here.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping

from drunter_notation.notation.model import KIND_LETTER, Square, Tile, TileKind
from drunter_notation.rules.geometry import longest
from drunter_notation.rules.state import State

_TILES_BY_KIND = {letter: tuple(Tile(letter, n) for n in (1, 2, 3)) for letter in KIND_LETTER.values()}


def toilets_count_for_legezwang(state: State) -> bool:
    """T2/E1: whether a placement onto a toilet counts as possible. It does not only
    when the ruleset says so and such a placement would be voted on; without a vote
    a toilet is a plain square."""
    return state.options.toilet_counts_for_legezwang or not state.toilet_votes


def _shortest(hands: Iterable[Mapping[Tile, int]] | None, letter: TileKind) -> int | None:
    """The length of the shortest tile of kind ``letter`` in any of ``hands``, None when
    none holds one; 1 when ``hands`` is None (not recorded: any tile may be held)."""
    if hands is None:
        return 1
    for tile in _TILES_BY_KIND[letter]:
        for hand in hands:
            if hand.get(tile, 0) > 0:
                return tile.length
    return None


def can_extend(state: State, corner: Square, hands: Iterable[Mapping[Tile, int]] | None) -> bool:
    """Some tile in ``hands`` (None: any tile) has a placement at the track from
    ``corner`` that counts for Legezwang."""
    return _extends(state, state.gangs[corner], _shortest(hands, KIND_LETTER[state.track_kind[corner]]),
                    not toilets_count_for_legezwang(state))


def _extends(state: State, gang: Square | None, need: int | None, dry: bool) -> bool:
    """A tile of length ``need`` (None: no tile of the track's kind is held) fits at a gang on ``gang`` (None:
    removed); ``dry``: a toilet does not count (:func:`toilets_count_for_legezwang`)."""
    return gang is not None and need is not None and longest(state, gang, dry=dry, cap=need) >= need


def _some_extends(state: State, hands: Iterable[Mapping[Tile, int]] | None) -> bool:
    """:func:`can_extend` for some track, in board corner order: each kind's shortest tile looked for once."""
    dry = not toilets_count_for_legezwang(state)
    kinds = state.track_kind
    need: dict[str, int | None] = {}
    for corner, gang in state.gangs.items():
        if gang is not None:
            kind = kinds[corner]
            if kind not in need:
                need[kind] = _shortest(hands, KIND_LETTER[kind])
            if _extends(state, gang, need[kind], dry):
                return True
    return False


def must_place(state: State, player: str) -> bool:
    """T2 (Legezwang): ``player`` has a placement that counts, so may not pass. Without
    hands: some tile of some kind has one (any tile may be held). Short-circuits."""
    return _some_extends(state, None if state.hands is None else (state.hands[player],))


def game_over(state: State) -> bool:
    """E1: no player can place (counted as for Legezwang), i.e. no track can be
    extended by a tile any player holds -- one question per track over all hands, as
    a player who can place is one whose shortest tile of a kind fits. Without hands:
    no tile of any kind fits at any live track. The answer is kept until a tile is
    laid or taken back (a run of passes asks once)."""
    if state.over is None:
        state.over = not _some_extends(state, None if state.hands is None else tuple(state.hands.values()))
    return state.over


def track_finished(state: State, corner: Square) -> bool:
    """X2: the track from ``corner`` is finished -- its gang was removed, or no player
    holds a tile of its kind that can be placed there (counted as for Legezwang).
    Without hands only removal counts (the replay warns W001)."""
    if state.hands is None:
        return state.gangs[corner] is None
    return not can_extend(state, corner, tuple(state.hands.values()))


def first_finished(state: State) -> Square | None:
    """X2: the corner of the first finished track in board corner order, or None."""
    for corner in state.gangs:
        if track_finished(state, corner):
            return corner
    return None
