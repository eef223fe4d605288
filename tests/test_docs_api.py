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


def test_readme_python_examples_run(monkeypatch, capsys):
    """The README's Python blocks run as written (with the repository as working folder)."""
    monkeypatch.chdir(ROOT)
    text = (ROOT / "README.md").read_text("utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    assert capsys.readouterr().out.startswith("T004\ndn1 schilda hig-1991 base Anna,Ben 1 ")
