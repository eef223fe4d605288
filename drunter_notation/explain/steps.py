"""The report's step-by-step account in words, rendered from the engine's decisions."""
from __future__ import annotations

from drunter_notation.explain.words import names, plural, spell, track
from drunter_notation.notation.model import square_name
from drunter_notation.rules.placement import DIRECTION_NAMES
from drunter_notation.rules.state import State
from drunter_notation.rules.turn import Decision

STOPPED = "The replay stops here; later turns are not judged."
CHOSEN = "The first track is finished: every player now chooses which of their two goal cards counts (X2)."


def start(first: str) -> list[str]:
    return [f"{first} starts; the four gangs stand on their corners."]


def turn_facts(d: Decision, before: State) -> list[str]:
    """What a legal turn did, one sentence per fact the engine decided on."""
    if d.move is None:
        if d.hands_known:
            return [f"{d.player} passes: no legal placement."]
        return [f"{d.player} passes (no hands recorded: whether a placement was possible cannot be checked)."]
    m = d.move
    fact = f"{spell(m.tile, m.squares)} extends the {track(before.track_kind[m.corner], m.corner)}, running " \
           f"{DIRECTION_NAMES[m.direction]}"
    if m.bridges_passed:
        fact += f", under {plural(m.bridges_passed, 'bridge field')}"
    out = [fact + "."]
    if m.toilets:
        out.append(f"It covers the toilet{'s' if len(m.toilets) > 1 else ''} at {names(m.toilets)}"
                   + (": the placement is put to the vote." if d.vote is not None else "."))
    if d.accepted is False:
        out.append(f"The vote rejects it: the tile goes back to {d.player}'s hand and the gang stays where it is (B6).")
        return out
    out += [f"Destroys the {btype} at {square_name(sq)} ({plural(value, 'point')})." for sq, btype, value in d.destroyed]
    out += [f"The gang of the {track(before.track_kind[c], c)} cannot go on: removed at {square_name(sq)}, its track"
            " is finished (A5)." for c, sq in d.removed]
    return out
