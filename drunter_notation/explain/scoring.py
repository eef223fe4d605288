"""The end of the game in words: who won and how every tie on points was broken."""
from __future__ import annotations

from itertools import groupby

from drunter_notation.explain.words import and_list, plural
from drunter_notation.rules.scoring import Ranking


def tie_break(ranking: Ranking) -> str:
    """``"Ben wins with 9 points. Anna and Ben tie on 9 points; votes left: Anna 5, Ben 7."``"""
    standings, winners = ranking.standings, ranking.winners
    top = plural(standings[0].score, "point")
    sentences = [f"{winners[0]} wins with {top}." if len(winners) == 1
                 else f"{and_list(winners)} share the win with {top}."]
    criteria = ([("second card", lambda s: s.second)] if ranking.expert else []) + [
        ("votes left", lambda s: s.votes_left)]
    for score, group in groupby(standings, key=lambda s: s.score):
        pending = [list(group)]
        if len(pending[0]) < 2:
            continue
        text = f"{and_list(s.player for s in pending[0])} tie on {plural(score, 'point')}"
        for label, value in criteria:
            if not pending:
                break
            shown = [s for g in pending for s in g]
            text += f"; {label}: " + ", ".join(f"{s.player} {value(s)}" for s in shown)
            pending = [sub for g in pending for sub in (list(x) for _, x in groupby(g, key=value)) if len(sub) > 1]
        for g in pending:
            text += f"; {and_list(s.player for s in g)} still tie and share " + (
                "the win" if g[0].rank == 1 else f"place {g[0].rank}")
        sentences.append(text + ".")
    return " ".join(sentences)
