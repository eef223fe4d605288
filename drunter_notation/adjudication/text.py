"""The verdicts as text and as JSON, and whether the rulesets agree."""
from __future__ import annotations

from typing import Literal, NamedTuple

from drunter_notation.adjudication.verdict import Verdict
from drunter_notation.errors import printable, said_citation
from drunter_notation.explain.words import and_list
from drunter_notation.i18n import _, ngettext

ALTERNATIVES_SHOWN = 10  # text output lists the first ten legal alternatives and a count


class Ruling(NamedTuple):
    """What a ruleset rules on the turn; rulesets with equal rulings agree."""

    kind: Literal["unjudged", "reject", "accept"]
    code: str | None = None  # reject: the code broken
    vote_accepted: bool | None = None  # accept: the vote's outcome (None: no vote)
    removed: tuple[str, ...] = ()  # accept: the tracks whose gangs were removed


def agreement(verdicts: list[Verdict]) -> str:
    """``"The rulesets agree: ..."`` or ``"The rulesets disagree: hig-1991 and
    deskovehry-cz accept, webley-en rejects (B005)"``. Verdicts that are legal but
    whose votes end differently disagree too: the tile stays under one, not the other."""
    groups: dict[Ruling, list[str]] = {}
    for v in verdicts:
        groups.setdefault(_ruling(v), []).append(v.ruleset)
    if len(groups) == 1:
        (key, ids), = groups.items()
        if key.kind == "unjudged":
            return _("The rulesets agree: none can judge it (the replay stops at an earlier turn)")
        ruling = _ruling_words(key, len(ids))
        if len(ids) == 1:
            return _("The rulesets agree: {rulesets} {ruling}").format(rulesets=ids[0], ruling=ruling)
        agree = (_("The rulesets agree: {rulesets} both {ruling}") if len(ids) == 2
                 else _("The rulesets agree: {rulesets} all {ruling}"))
        return agree.format(rulesets=and_list(ids), ruling=ruling)
    parts = [f"{and_list(ids)} {_ruling_words(key, len(ids))}" for key, ids in groups.items()]
    return _("The rulesets disagree: {parts}").format(parts=", ".join(parts))


def _ruling(v: Verdict) -> Ruling:
    if v.legal is None:
        return Ruling("unjudged")
    if not v.legal:
        return Ruling("reject", code=v.code)
    return Ruling("accept", vote_accepted=None if v.vote is None else v.vote.accepted, removed=v.removed)


def _ruling_words(key: Ruling, n: int) -> str:
    """What ``n`` rulesets rule (the verb agrees with their number)."""
    if key.kind == "unjudged":
        return ngettext("cannot judge it (the replay stops at an earlier turn)",
                        "cannot judge it (the replay stops at an earlier turn)", n)
    if key.kind == "reject":
        return ngettext("rejects ({code})", "reject ({code})", n).format(code=key.code)
    effects = []
    if key.vote_accepted is not None:
        effects.append(_("the vote is accepted: the tile stays") if key.vote_accepted
                       else _("the vote is rejected: the tile goes back"))
    if key.removed:
        tracks = and_list(_("the {track}").format(track=t) for t in key.removed)
        effects.append(ngettext("the gang of {tracks} is removed", "the gangs of {tracks} are removed",
                                len(key.removed)).format(tracks=tracks))
    if not effects:
        return ngettext("accepts", "accept", n)
    return ngettext("accepts ({effects})", "accept ({effects})", n).format(effects="; ".join(effects))


def as_json(path: str, turn: int, move_text: str | None, verdicts: list[Verdict],
            all_rulesets: bool) -> dict[str, object]:
    """The verdicts as one JSON object (the same content as the text)."""
    return {
        "file": path,
        "turn": turn,
        "what_if": move_text is not None,
        "move": verdicts[0].move if verdicts else None,
        "verdicts": [v.as_json() for v in verdicts],
        "agreement": agreement(verdicts) if all_rulesets or len(verdicts) > 1 else None,
    }


def as_text(path: str, turn: int, move_text: str | None, verdicts: list[Verdict], all_rulesets: bool) -> str:
    out = []
    kind = _("what-if, not played") if move_text is not None else _("as recorded")
    # a file's name may hold a line feed, which the text's line-by-line escape cannot see
    out.append(_("{path}, turn {turn} ({kind})").format(path=printable(path), turn=turn, kind=kind))
    positions = {v.position for v in verdicts if v.position is not None}
    shared = len(positions) == 1 and len({(v.player, v.hand) for v in verdicts if v.position}) == 1
    if shared:
        v = next(v for v in verdicts if v.position is not None)
        head = (_("Position before turn {turn} (the same under every ruleset judged):") if len(verdicts) > 1
                else _("Position before turn {turn}:"))
        out += ["", head.format(turn=turn), next(iter(positions)).rstrip("\n"), "",
                _("On turn: {player}; hand: {hand}").format(player=v.player, hand=v.hand)]
    elif len(positions) > 1:
        out += ["", _("The position before turn {turn} differs between the rulesets (earlier turns ended"
                      " differently under them); each verdict shows its own.").format(turn=turn)]
    out.append(_("Move ({kind}): {move}").format(kind=kind, move=verdicts[0].move))
    for v in verdicts:
        out += ["", *_block(v, turn, show_position=not shared)]
    if all_rulesets or len(verdicts) > 1:
        out += ["", agreement(verdicts)]
    return "\n".join(out) + "\n"


def _block(v: Verdict, turn: int, *, show_position: bool) -> list[str]:
    out = [f"{v.ruleset} ({v.ruleset_name}): {v.status}"]
    if show_position and v.position is not None:
        out += ["  " + _("Position before turn {turn} under {ruleset}:").format(turn=turn, ruleset=v.ruleset)]
        out += ["    " + line if line else "" for line in v.position.rstrip("\n").split("\n")]
        out += ["  " + _("On turn: {player}; hand: {hand}").format(player=v.player, hand=v.hand)]
    if v.rules:
        out.append("  " + _("Rules applied:"))
        for r in v.rules:
            out.append(f"    {r.rule} {r.title} ({said_citation(r.citation)}): {r.how}")
    if v.vote is not None:
        c = v.vote
        out.append("  " + _("Vote, card by card:"))
        out += [f"    {line}" for line in c.lines]
        total = (_("{arithmetic} -> {yes}:{no}, accepted (vote_outcome = {option})") if c.accepted
                 else _("{arithmetic} -> {yes}:{no}, rejected (vote_outcome = {option})"))
        out.append("    " + total.format(arithmetic=c.arithmetic, yes=c.yes, no=c.no, option=c.option))
        if c.claim is not None:
            if c.claim.split()[0] == ("accepted" if c.accepted else "rejected"):  # the claim is DN text
                claims = _("the record claims: {claim}")
            else:
                claims = (_("the record claims: {claim} (but it is accepted)") if c.accepted
                          else _("the record claims: {claim} (but it is rejected)"))
            out.append("    " + claims.format(claim=c.claim))
    if v.forced is not None or (v.legal is not None and v.move.endswith(" pass")):
        if v.forced is True:
            out.append("  " + _("The pass was forced: {player} had no legal placement.").format(player=v.player))
        elif v.forced is False:
            n = len(v.alternatives or ())
            out.append("  " + ngettext("The pass was not forced: {player} had {n} legal placement.",
                                       "The pass was not forced: {player} had {n} legal placements.", n).format(
                                           player=v.player, n=n))
        else:
            out.append("  " + _("Whether the pass was forced cannot be checked: the hands are not recorded."))
    if v.alternatives is not None and v.forced is not True:
        alts = v.alternatives
        if not alts:
            out.append("  " + _("Legal alternatives for {player}: none").format(player=v.player))
        else:
            head = (_("Legal alternatives for {player} ({n}, every tile type tried: hands not recorded):")
                    if v.hand == _("not recorded") else _("Legal alternatives for {player} ({n}):"))
            out.append("  " + head.format(player=v.player, n=len(alts)))
            out += [f"    {a}" for a in alts[:ALTERNATIVES_SHOWN]]
            if len(alts) > ALTERNATIVES_SHOWN:
                more = len(alts) - ALTERNATIVES_SHOWN
                out.append("    " + ngettext("... and {n} more (--format json lists them all)",
                                             "... and {n} more (--format json lists them all)", more).format(n=more))
    for note in v.notes:
        out.append("  " + _("Note: {note}").format(note=note))
    return out
