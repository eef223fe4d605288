"""The game in the AI ecosystems: a PettingZoo environment (:mod:`.pettingzoo`) and an
OpenSpiel game (:mod:`.openspiel`), both over one decision-step machine (:mod:`.table`)
that drives the public :class:`~drunter_notation.game.Game` API, so every rule is the
engine's own. ``docs/ai.md`` describes the encodings.

These modules need the optional ``ai`` extra (pettingzoo, open-spiel, numpy);
:func:`need` imports one of them or says so in one line.
"""
from __future__ import annotations

import importlib
from types import ModuleType

EXTRA_HINT = "drunter: the AI environments need the 'ai' extra: pip install 'drunter-notation[ai]'"


class MissingExtra(ImportError):
    """An optional library of the ``ai`` extra is not installed."""


def need(module: str) -> ModuleType:
    """``module`` imported, or :class:`MissingExtra` with the one-line hint."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(f"{EXTRA_HINT} ({module} is missing)") from None
