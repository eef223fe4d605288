"""The end of the game in words: who won and how every tie on points was broken."""
from __future__ import annotations

from collections.abc import Callable
from itertools import groupby

from drunter_notation.explain.words import and_list
from drunter_notation.i18n import N_, _, ngettext
from drunter_notation.rules.scoring import Ranking, Standing

_CRITERIA = {"second": N_("second card: {values}"), "votes": N_("votes left: {values}")}


def tie_break(ranking: Ranking) -> str:
    """``"Ben wins with 9 points. Anna and Ben tie on 9 points; votes left: Anna 5, Ben 7."``"""
    standings, winners = ranking.standings, ranking.winners
    top = standings[0].score
    sentences = [ngettext("{player} wins with {n} point.", "{player} wins with {n} points.", top).format(
        player=winners[0], n=top) if len(winners) == 1
        else ngettext("{players} share the win with {n} point.", "{players} share the win with {n} points.",
                      top).format(players=and_list(winners), n=top)]
    criteria: list[tuple[str, Callable[[Standing], int | None]]] = [("votes", lambda s: s.votes_left)]
    if ranking.expert:
        criteria.insert(0, ("second", lambda s: s.second))
    for score, group in groupby(standings, key=lambda s: s.score):
        pending = [list(group)]
        if len(pending[0]) < 2:
            continue
        clauses = [ngettext("{players} tie on {n} point", "{players} tie on {n} points", score).format(
            players=and_list(s.player for s in pending[0]), n=score)]
        for label, value in criteria:
            if not pending:
                break
            shown = [s for g in pending for s in g]
            clauses.append(_(_CRITERIA[label]).format(values=", ".join(f"{s.player} {value(s)}" for s in shown)))
            pending = [sub for g in pending for sub in (list(x) for _k, x in groupby(g, key=value)) if len(sub) > 1]
        for g in pending:
            players = and_list(s.player for s in g)
            clauses.append(_("{players} still tie and share the win").format(players=players) if g[0].rank == 1
                           else _("{players} still tie and share place {rank}").format(players=players,
                                                                                       rank=g[0].rank))
        sentences.append("; ".join(clauses) + ".")
    return " ".join(sentences)
