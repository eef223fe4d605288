"""The report's step-by-step account in words, rendered from the engine's decisions,
in the language in force."""
from __future__ import annotations

from drunter_notation.explain.words import building_name, names, spell
from drunter_notation.i18n import _, ngettext, pgettext
from drunter_notation.notation.model import Square, square_name
from drunter_notation.rules.state import State
from drunter_notation.rules.turn import Decision


def track_ends(kind: str, corner: Square) -> str:
    """A track that ends (A5), as the game-flow diagram says it: ``wall from a1 ends``."""
    return {"wall": _("wall from {corner} ends"), "street": _("street from {corner} ends"),
            "river": _("river from {corner} ends")}[kind].format(corner=square_name(corner))


def stopped() -> str:
    return _("The replay stops here; later turns are not judged.")


def chosen() -> str:
    return _("The first track is finished: every player now chooses which of their two goal cards counts (X2).")


def start(first: str) -> list[str]:
    return [_("{player} starts; the four gangs stand on their corners.").format(player=first)]



def _direction(step: Square) -> str:
    # the direction a tile runs in, as the sentences of :func:`_extends` use it
    return {(0, 1): pgettext("running", "north"), (1, 0): pgettext("running", "east"),
            (0, -1): pgettext("running", "south"), (-1, 0): pgettext("running", "west")}[step]


def _extends(kind: str, bridges: int) -> str:
    """The sentence of a tile laid on a track of ``kind``, under ``bridges`` bridge fields."""
    if bridges == 0:
        return {"wall": _("{tile} extends the wall from {corner}, running {direction}."),
                "street": _("{tile} extends the street from {corner}, running {direction}."),
                "river": _("{tile} extends the river from {corner}, running {direction}.")}[kind]
    if kind == "wall":
        return ngettext("{tile} extends the wall from {corner}, running {direction}, under {n} bridge field.",
                        "{tile} extends the wall from {corner}, running {direction}, under {n} bridge fields.",
                        bridges)
    if kind == "street":
        return ngettext("{tile} extends the street from {corner}, running {direction}, under {n} bridge field.",
                        "{tile} extends the street from {corner}, running {direction}, under {n} bridge fields.",
                        bridges)
    return ngettext("{tile} extends the river from {corner}, running {direction}, under {n} bridge field.",
                    "{tile} extends the river from {corner}, running {direction}, under {n} bridge fields.",
                    bridges)


def _removed(kind: str) -> str:
    return {"wall": _("The gang of the wall from {corner} cannot go on: removed at {square}, its track is "
                      "finished (A5)."),
            "street": _("The gang of the street from {corner} cannot go on: removed at {square}, its track is "
                        "finished (A5)."),
            "river": _("The gang of the river from {corner} cannot go on: removed at {square}, its track is "
                       "finished (A5).")}[kind]


def turn_facts(d: Decision, before: State) -> list[str]:
    """What a legal turn did, one sentence per fact the engine decided on."""
    if d.move is None:
        if d.hands_known:
            return [_("{player} passes: no legal placement.").format(player=d.player)]
        return [_("{player} passes (no hands recorded: whether a placement was possible cannot be checked).")
                .format(player=d.player)]
    m = d.move
    out = [_extends(before.track_kind[m.corner], m.bridges_passed).format(
        tile=spell(m.tile, m.squares), corner=square_name(m.corner), direction=_direction(m.direction),
        n=m.bridges_passed)]
    if m.toilets:
        n = len(m.toilets)
        if d.vote is not None:
            covers = ngettext("It covers the toilet at {squares}: the placement is put to the vote.",
                              "It covers the toilets at {squares}: the placement is put to the vote.", n)
        else:
            covers = ngettext("It covers the toilet at {squares}.", "It covers the toilets at {squares}.", n)
        out.append(covers.format(squares=names(m.toilets)))
    if d.accepted is False:
        out.append(_("The vote rejects it: the tile goes back to {player}'s hand and the gang stays where it is "
                     "(B6).").format(player=d.player))
        return out
    out += [_("Destroys the {building} at {square} ({points}).").format(
        building=building_name(btype), square=square_name(sq),
        points=ngettext("{n} point", "{n} points", value).format(n=value)) for sq, btype, value in d.destroyed]
    out += [_removed(before.track_kind[c]).format(corner=square_name(c), square=square_name(sq))
            for c, sq in d.removed]
    return out
