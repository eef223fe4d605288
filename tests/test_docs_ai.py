"""docs/ai.md's examples are doctests (a random-agent loop, OpenSpiel's ISMCTS bot):
run here, so the page cannot drift."""
from __future__ import annotations

import doctest
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")  # the 'ai' extra; the test extra installs it
pytest.importorskip("pyspiel")

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_ai_doc_examples(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(ROOT / "docs" / "ai.md"), module_relative=False, report=True,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 15
    assert result.failed == 0, f"{result.failed} example(s) of docs/ai.md failed (printed above)"
