"""The evidence of the hidden-card inference in words: what a player covered, spared
and voted when the choice was theirs (``drunter analyze``)."""
from __future__ import annotations

from collections.abc import Sequence

from drunter_notation.explain.words import and_list
from drunter_notation.notation.model import Square, square_name

_TIMES = {1: "once", 2: "twice", 3: "three times", 4: "four times", 5: "five times"}


def times(n: int) -> str:
    return _TIMES.get(n, f"{n} times")


def building(kind: str, sq: Square, value: int) -> str:
    return f"the {kind} at {square_name(sq)} (worth {value})"


def spared(player: str, kind: str, sq: Square, value: int, turns: Sequence[int]) -> str:
    """``Cleo spared the church at f7 (worth 3) three times when a legal move would
    have covered it (turns 4, 9 and 12)``."""
    return (f"{player} spared {building(kind, sq, value)} {times(len(turns))} when a legal move "
            f"would have covered it (turn{'s' if len(turns) > 1 else ''} {and_list(map(str, turns))})")


def covered(player: str, kind: str, sq: Square, value: int, turn: int) -> str:
    return f"{player} covered {building(kind, sq, value)} on turn {turn}"


def voted(voter: str, side: str, cards: str, turn: int, placer: str, targets: Sequence[tuple[str, Square, int]]) -> str:
    """``Ben voted no (NEE) on turn 14 on Anna's tile that would cover the tavern at j9 (worth 5)``."""
    what = and_list([building(k, sq, v) for k, sq, v in targets])
    how = "neither way" if side == "neither" else side
    return f"{voter} voted {how} ({cards}) on turn {turn} on {placer}'s tile that would cover {what}"


_SURE = ((0.9, "almost surely"), (0.7, "very likely"), (0.5, "probably"), (0.0, "perhaps"))


def percent(p: float) -> str:
    """``0.834`` -> ``83 %``; never ``100 %`` or ``0 %`` for what is not certain."""
    x = round(p * 100)
    return f"{99 if x == 100 and p < 1 else 1 if x == 0 and p > 0 else x} %"


def _card(card: str) -> str:
    return card if "+" in card else f"the {card}"


def summary(player: str, favourite: tuple[str, float] | None, likeliest: tuple[str, float],
            styles: Sequence[tuple[str, float]]) -> str:
    """How sure the analysis is of ``player``'s card: ``Tobias: very likely the church
    (84 %); plays like: purposeful 74 %, decoy 26 %`` or, when no card stands out,
    ``Jana: no card stands out (the likeliest, the tavern, 34 %)``."""
    if favourite is None:
        head = f"{player}: no card stands out (the likeliest, {_card(likeliest[0])}, {percent(likeliest[1])})"
    else:
        word = next(w for floor, w in _SURE if favourite[1] >= floor)
        head = f"{player}: {word} {_card(favourite[0])} ({percent(favourite[1])})"
    return head + "; plays like: " + ", ".join(f"{name} {percent(p)}" for name, p in styles)
