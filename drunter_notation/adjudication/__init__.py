"""Verdicts on one turn, under one ruleset or several, in words.

:func:`adjudicate` judges turn N of a record as recorded -- or a move that was not
played (a *what-if*) -- at the position before it; :func:`adjudicate_position`
does the same for a position given without a record. Legality is never decided
here: the position comes from the same replay as ``drunter validate``, the turn is
played by :func:`rules.turn.play_turn`, and every sentence is rendered from the
:class:`~drunter_notation.rules.turn.Decision` or
:class:`~drunter_notation.rules.state.Violation` the engine returned. What this
package adds is the words: each rule applied with its place in that ruleset's
source (:mod:`.applied`), a vote card by card, the alternatives, the verdicts as
text and JSON (:mod:`.text`); :mod:`.judge` holds the entry points, :mod:`.verdict`
the values.

Pure: nothing here prints or writes. Bad input (no turn N, a syntax error in the
what-if move, an unknown ruleset or board) raises :class:`errors.DnError`.
"""
from __future__ import annotations

from drunter_notation.adjudication.judge import (
                                                 adjudicate,
                                                 adjudicate_position,
                                                 all_ruleset_ids,
                                                 judge_event,
                                                 turn_index,
                                                 what_if_move,
)
from drunter_notation.adjudication.text import agreement, as_json, as_text
from drunter_notation.adjudication.verdict import RuleApplied, Verdict, VoteCount

__all__ = ["RuleApplied", "Verdict", "VoteCount", "adjudicate", "adjudicate_position", "agreement",
           "all_ruleset_ids", "as_json", "as_text", "judge_event", "turn_index", "what_if_move"]
