"""The browser edition's sources without docstrings and comments (scripts/site_strip.py): the same
program on the same lines, checked on a corpus of real modules and on the cases that could go wrong."""
from __future__ import annotations

import ast
import importlib.util
import io
import sysconfig
import tokenize
from pathlib import Path

import pytest
from conftest import LONG_RUN

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("site_strip", ROOT / "scripts" / "site_strip.py")
site_strip = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
spec.loader.exec_module(site_strip)  # type: ignore[union-attr]

PURE = Path(sysconfig.get_paths()["purelib"])
CORPUS = sorted([*(PURE / "jinja2").rglob("*.py"), *(PURE / "lark").rglob("*.py"), *(PURE / "click").rglob("*.py"),
                 *(Path(sysconfig.get_paths()["stdlib"]) / "json").rglob("*.py"), ROOT / "scripts" / "site.py"])


def undocumented(tree: ast.AST) -> ast.AST:
    """``tree`` as ``python -OO`` compiles it, but for a docstring on its header's line or its next
    statement's: no docstrings; a body left empty holds ``pass``."""
    for node in ast.walk(tree):
        if isinstance(node, site_strip.SCOPES) and node.body:
            first, rest = node.body[0], node.body[1:]
            alone = getattr(node, "lineno", 0) < first.lineno and not (rest and rest[0].lineno == first.end_lineno)
            if alone and isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                node.body = node.body[1:] or ([] if isinstance(node, ast.Module) else [ast.Pass()])
    return tree


def statement_lines(tree: ast.AST) -> list[tuple[str, int]]:
    return [(type(n).__name__, n.lineno) for n in ast.walk(tree) if isinstance(n, ast.stmt) and not isinstance(n, ast.Pass)]


def comments(source: str) -> list[str]:
    return [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type == tokenize.COMMENT]


def assert_same_program(source: str, stripped: str) -> None:
    before, after = undocumented(ast.parse(source)), ast.parse(stripped)
    assert ast.dump(after) == ast.dump(before)
    assert statement_lines(after) == statement_lines(before)  # every statement on its line
    assert stripped.count("\n") == source.replace("\r\n", "\n").count("\n")


def test_the_corpus_keeps_its_program_and_lines_and_loses_docstrings_and_comments():
    assert len(CORPUS) > 70
    for path in CORPUS if LONG_RUN else CORPUS[::4]:  # a quarter outside CI's long pass, as the property tests draw
        source = path.read_text("utf-8")
        stripped = site_strip.without_docs(source)
        assert_same_program(source, stripped)
        assert all(site_strip.CODING.match(c) for c in comments(stripped)), path
        assert len(stripped) <= len(source)


SAMPLE = '''# -*- coding: utf-8 -*-
"""The module's docstring,
on two lines."""
from __future__ import annotations

import re  # said after code

HASH = "# not a comment"


class Empty:
    """Nothing but a docstring."""


class Documented:
    """A docstring, then code."""  # and a comment

    x = 1


def one_line(): """shares its line: stays"""


def shared_tail():
    """ünïcödé ünïcödé ünïcödé ünïcödé, then code on its line: stays"""; return 2


def later():
    x = 1
    """a string that is not a docstring: stays"""
    return x  # gone
'''


def test_every_case_of_the_sample():
    stripped = site_strip.without_docs(SAMPLE)
    assert_same_program(SAMPLE, stripped)
    namespace: dict[str, object] = {}
    exec(compile(stripped, "sample", "exec"), namespace)
    assert "__doc__" not in namespace and namespace["Empty"].__doc__ is None  # type: ignore[attr-defined]
    assert namespace["HASH"] == "# not a comment" and namespace["later"]() == 1  # type: ignore[operator]
    assert namespace["one_line"].__doc__ == "shares its line: stays"  # type: ignore[attr-defined]
    assert namespace["shared_tail"]() == 2  # type: ignore[operator]
    assert stripped.startswith("# -*- coding: utf-8 -*-\n")
    assert "said after" not in stripped and "# gone" not in stripped and "Nothing but" not in stripped
    assert "not a docstring: stays" in stripped
    assert "    pass\n" in stripped


def test_windows_line_ends_are_counted_as_the_parser_counts_them():
    source = SAMPLE.replace("\n", "\r\n")
    assert_same_program(source, site_strip.without_docs(source))


def test_a_mistake_stops_the_build():
    with pytest.raises(SyntaxError):
        site_strip.without_docs("def f(:\n    pass\n")
