"""docs/api.md's examples are doctests: run here, so the page cannot drift."""
from __future__ import annotations

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_api_doc_examples(monkeypatch):
    monkeypatch.chdir(ROOT)  # the examples name the sample records by their path in the repository
    result = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False, report=True,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 20
    assert result.failed == 0, f"{result.failed} example(s) of docs/api.md failed (printed above)"
