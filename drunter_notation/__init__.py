"""drunter-notation: the DN game-record notation for Drunter & Drüber, its replay
engine and rules checker, referee and reports.

The public API (``docs/api.md``)::

    from drunter_notation import Game, DnError

Layers (``docs/architecture.md``): ``notation`` (text and records), ``rules`` (the
pure engine), ``data`` (the shipped boards and rulesets), ``replay`` and ``load``
(judging a record), ``explain`` (every sentence), ``game`` (the API), then
``report`` and ``cli``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the checker sees the exports' types; at run time __getattr__ loads them
    from drunter_notation.errors import Diagnostic, DnError
    from drunter_notation.game import Game, Move, Result

__version__ = "0.1.0"

__all__ = ["Diagnostic", "DnError", "Game", "Move", "Result", "__version__"]

_HOME = {"Diagnostic": "errors", "DnError": "errors", "Game": "game", "Move": "game", "Result": "game"}


def __getattr__(name: str) -> object:
    # Lazy, so that `drunter --version` and a plain import do not load the parser and engine.
    if name in _HOME:
        import importlib
        return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
