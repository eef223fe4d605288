"""The evidence of the hidden-card inference in words: what a player covered, spared
and voted when the choice was theirs, how sure the analysis is, and the turning
points (``drunter analyze``). The analysis's JSON carries the data (kinds, buildings,
squares, numbers); every reader words it here, in its own language."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from drunter_notation.explain.words import and_list, goal_name
from drunter_notation.i18n import N_, _, ngettext

_TIMES = {1: N_("once"), 2: N_("twice"), 3: N_("three times"), 4: N_("four times"), 5: N_("five times")}

# A building as the object of a sentence: one phrase per kind, since German and Czech decline its name
_AT = {
    "museum": N_("the museum at {square} (worth {value})"),
    "tavern": N_("the tavern at {square} (worth {value})"),
    "school": N_("the school at {square} (worth {value})"),
    "townhall": N_("the townhall at {square} (worth {value})"),
    "firehouse": N_("the firehouse at {square} (worth {value})"),
    "church": N_("the church at {square} (worth {value})"),
}
# A building card named in a verdict; pairs of goal cards keep DN's ids
_CARD = {"museum": N_("the museum"), "tavern": N_("the tavern"), "school": N_("the school"),
         "townhall": N_("the townhall"), "firehouse": N_("the firehouse"), "church": N_("the church")}
# The styles of the inference (analysis.inference.STYLES) as a reader sees them; JSON keeps the ids
STYLE_NAMES = {"random": N_("random"), "purposeful": N_("purposeful"), "bluffer": N_("bluffer"),
               "decoy": N_("decoy"), "builder": N_("builder"), "soft": N_("soft")}


def times(n: int) -> str:
    return _(_TIMES[n]) if n in _TIMES else ngettext("{n} time", "{n} times", n).format(n=n)


def building(kind: str, square: str, value: int) -> str:
    return _(_AT[kind]).format(square=square, value=value)


def spared(player: str, kind: str, square: str, value: int, turns: Sequence[int]) -> str:
    """``Cleo spared the church at f7 (worth 3) three times when a legal move would
    have covered it (turns 4, 9 and 12)``."""
    return ngettext("{player} spared {building} {times} when a legal move would have covered it (turn {turns})",
                    "{player} spared {building} {times} when a legal move would have covered it (turns {turns})",
                    len(turns)).format(player=player, building=building(kind, square, value), times=times(len(turns)),
                                       turns=and_list(map(str, turns)))


def covered(player: str, kind: str, square: str, value: int, turn: int) -> str:
    return _("{player} covered {building} on turn {turn}").format(player=player,
                                                                 building=building(kind, square, value), turn=turn)


_VOTED = {
    "yes": N_("{voter} voted yes ({cards}) on turn {turn} on {placer}'s tile that would cover {buildings}"),
    "no": N_("{voter} voted no ({cards}) on turn {turn} on {placer}'s tile that would cover {buildings}"),
    "neither": N_("{voter} voted neither way ({cards}) on turn {turn} on {placer}'s tile that would cover "
                  "{buildings}"),
}


def voted(voter: str, side: str, cards: str, turn: int, placer: str, targets: Sequence[tuple[str, str, int]]) -> str:
    """``Ben voted no (NEE) on turn 14 on Anna's tile that would cover the tavern at j9 (worth 5)``."""
    what = and_list([building(k, sq, v) for k, sq, v in targets])
    return _(_VOTED[side]).format(voter=voter, cards=cards, turn=turn, placer=placer, buildings=what)


def said(player: str, item: Mapping[str, Any]) -> str | None:
    """One item of an analysis's evidence (its JSON's data: ``{"kind": "spared",
    "building": "school", "square": "g3", "value": 2, "turns": [21, 23]}``) in words;
    None for an item this release cannot read (another release's, or a hand-edited file)."""
    try:
        kind, value = item["kind"], int(item.get("value", 0))
        if kind == "covered":
            return covered(player, item["building"], str(item["square"]), value, int(item["turn"]))
        if kind == "spared":
            return spared(player, item["building"], str(item["square"]), value, [int(t) for t in item["turns"]])
        if kind == "voted" and item["side"] in _VOTED:
            targets = [(t["building"], str(t["square"]), int(t["value"])) for t in item["buildings"]]
            return voted(player, item["side"], str(item["cards"]), int(item["turn"]), str(item["placer"]), targets)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    return None


_SURE = ((0.9, N_("{player}: almost surely {card} ({p})")), (0.7, N_("{player}: very likely {card} ({p})")),
         (0.5, N_("{player}: probably {card} ({p})")), (0.0, N_("{player}: perhaps {card} ({p})")))


def whole_percent(p: float) -> int:
    """``0.834`` -> ``83``; never 100 or 0 for what is not certain."""
    x = round(p * 100)
    return 99 if x == 100 and p < 1 else 1 if x == 0 and p > 0 else x


def percent(p: float) -> str:
    """``0.834`` -> ``83 %`` (:func:`whole_percent`), as the language writes a percentage."""
    return _("{p} %").format(p=whole_percent(p))


def card_name(card: str) -> str:
    """A card key in a sentence: ``the museum``; a pair of goal cards by their names."""
    return _(_CARD[card]) if card in _CARD else goal_name(card)


def style_name(style: str) -> str:
    """A style of the inference (``purposeful``) as a reader sees it."""
    return _(STYLE_NAMES[style]) if style in STYLE_NAMES else style


def summary(player: str, beliefs: Mapping[str, float], styles: Mapping[str, float], favourite: str | None) -> str:
    """How sure the analysis is of ``player``'s card, from its data (the beliefs and
    styles after the last turn, the card that stands out or None): ``Tobias: very
    likely the church (84 %); plays like: purposeful 74 %, decoy 26 %`` (the styles of
    at least 10 %, likeliest first) or, when no card stands out, ``Jana: no card stands
    out (the likeliest, the tavern, 34 %)``."""
    likeliest = max(beliefs.items(), key=lambda kv: kv[1])
    ranked = [(s, p) for s, p in sorted(styles.items(), key=lambda kv: -kv[1]) if p >= 0.1]
    return _summary(player, None if favourite is None else (favourite, beliefs[favourite]), likeliest, ranked)


def _summary(player: str, favourite: tuple[str, float] | None, likeliest: tuple[str, float],
             styles: Sequence[tuple[str, float]]) -> str:
    if favourite is None:
        head = _("{player}: no card stands out (the likeliest, {card}, {p})").format(
            player=player, card=card_name(likeliest[0]), p=percent(likeliest[1]))
    else:
        sentence = next(s for floor, s in _SURE if favourite[1] >= floor)
        head = _(sentence).format(player=player, card=card_name(favourite[0]), p=percent(favourite[1]))
    mix = ", ".join(f"{style_name(name)} {percent(p)}" for name, p in styles)
    return _("{verdict}; plays like: {styles}").format(verdict=head, styles=mix)


def _points(x: float) -> int:
    """A chance in whole percentage points, as shown: a change is the difference of the figures shown."""
    return int(f"{x * 100:.0f}")


def _chance(x: float, se: float) -> str:
    return _("{p} ± {se}%").format(p=f"{x * 100:.0f}", se=f"{se * 100:.0f}")


def _change(n: int, se: float) -> str:
    return _("{change} ± {se}").format(change=f"{n:+d}", se=f"{se * 100:.0f}")


def turning_point(tp: Mapping[str, Any], arrow: str = "→") -> str:
    """One turning point of ``analysis.record`` in words; each change is the difference
    of the figures shown."""
    b = tp["better"]
    facts = {"player": tp["player"], "move": tp["move"], "arrow": arrow,
             "before": _chance(tp["before"], tp["before_se"]), "after": _chance(tp["after"], tp["after_se"]),
             "change": _change(_points(tp["after"]) - _points(tp["before"]), tp["change_se"])}
    if tp["kind"] == "mistake":
        head = _("{player} {move}: mistake, {before} with the move their style would play {arrow} {after} with the "
                 "move played ({change})").format(**facts)
    else:
        head = _("{player} {move}: gain, {before} with the move their style would play {arrow} {after} with the "
                 "move played ({change})").format(**facts)
    if b is None:
        return _("{turning_point}; no clearly better move found").format(turning_point=head)
    return _("{turning_point}; better: {move}, {chance} ({gain} over the move played)").format(
        turning_point=head, move=b["move"], chance=_chance(b["win"], b["se"]),
        gain=_change(_points(b["win"]) - _points(tp["after"]), b["gain_se"]))
