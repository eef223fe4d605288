"""From a record to its judgement: resolve the record's ``Board`` and ``Rules`` tags
(or the caller's overrides) to loaded values, then replay.

The one place between the pure replay and the data files: the replay itself never
opens a file.
"""
from __future__ import annotations

import os
from dataclasses import replace

from drunter_notation.data.boardfile import load_board
from drunter_notation.data.rulesets import DEFAULT_RULESET, load_ruleset
from drunter_notation.errors import Diagnostic, DnError
from drunter_notation.notation.model import Record, Tag
from drunter_notation.replay import Timeline, replay
from drunter_notation.rules.board import DEFAULT_BOARD, Board
from drunter_notation.rules.options import Ruleset


def _located(e: DnError, tag: Tag | None, *, overridden: bool) -> Diagnostic:
    """The loading error, placed at the tag that named the board or ruleset."""
    line, column = (tag.line, tag.column) if (tag is not None and not overridden) else (0, 0)
    return replace(e.diagnostic, line=line, column=column)


def resolve(record: Record, path: str = "<input>", *, rules: str | None = None,
            board: str | None = None) -> tuple[Board | Diagnostic, Ruleset | Diagnostic]:
    """The board and ruleset a record is judged on, or the H003/H004 diagnostic.

    ``rules`` overrides the ``Rules`` tag; ``board`` (an id or a ``.toml`` path,
    relative to the working directory) overrides the ``Board`` tag, whose paths are
    relative to the record's folder (taken from ``path``)."""
    rules_tag, board_tag = record.tag("Rules"), record.tag("Board")
    try:
        ruleset: Ruleset | Diagnostic = load_ruleset(rules or (rules_tag.value if rules_tag else DEFAULT_RULESET))
    except DnError as e:
        ruleset = _located(e, rules_tag, overridden=rules is not None)
    ref = board or (board_tag.value if board_tag else DEFAULT_BOARD)
    # the folder as text, only for a board file's path (load_board reads it for no other): a Path costs microseconds
    base = (None if (board is not None or not path or path.startswith("<") or not ref.endswith(".toml"))
            else os.path.dirname(path))
    try:
        loaded: Board | Diagnostic = load_board(ref, base)
    except DnError as e:
        loaded = _located(e, board_tag, overridden=board is not None)
    return loaded, ruleset


def judge(record: Record, path: str = "<input>", *, rules: str | None = None, board: str | None = None,
          keep_states: bool = False) -> Timeline:
    """Resolve the record's board and ruleset (:func:`resolve`) and replay it. Never
    raises for a bad record: findings, an unknown board or ruleset among them, are
    the timeline's diagnostics."""
    loaded_board, ruleset = resolve(record, path, rules=rules, board=board)
    return replay(record, path, board=loaded_board, ruleset=ruleset, keep_states=keep_states)
