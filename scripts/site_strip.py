"""The browser edition's Python sources without their docstrings and comments: run by
``scripts/site.py`` inside the site's own Pyodide (through ``site/node-run.mjs``), so each
file is parsed by the very Python that will run it.

A docstring goes as ``python -OO`` drops it (the object's ``__doc__`` is ``None``), a comment
to the end of its line; the lines stay where they were, so a line number means the same. The
engine's own modules keep theirs (its commands' help is their docstrings). Run in Pyodide,
the answer, as JSON: per file of the standard library (unpacked by ``scripts/site_imports.py``
in the same session) and of the packages but the engine's own, its text stripped.
"""
import ast
import io
import json
import os
import re
import tokenize

CODING = re.compile(r"^[ \t\f]*#.*?coding[:=]")  # an encoding declaration stays (lines 1 and 2)
SCOPES = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def without_docs(source: str) -> str:
    """``source`` without docstrings and comments, every line where it was."""
    source = source.replace("\r\n", "\n").replace("\r", "\n")  # the line ends the parser counts, alone
    lines = io.StringIO(source).readlines()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, SCOPES) or not node.body:
            continue
        doc = node.body[0]
        if not (isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant) and isinstance(doc.value.value, str)):
            continue
        first, last = doc.lineno - 1, (doc.end_lineno or doc.lineno) - 1
        # the columns count UTF-8 bytes
        head = lines[first].encode()[:doc.col_offset].decode()
        tail = lines[last].encode()[doc.end_col_offset or 0:].decode().strip()
        if head.strip() or (tail and not tail.startswith("#")):
            continue  # shares its line with code: left as it is
        for k in range(first, last + 1):
            lines[k] = "\n"
        if len(node.body) == 1 and not isinstance(node, ast.Module):
            lines[first] = head + "pass\n"  # a body of nothing but its docstring
    text = "".join(lines)
    cut = {}
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT and not (token.start[0] <= 2 and CODING.match(token.line)):
            cut[token.start[0] - 1] = token.start[1]
    lines = io.StringIO(text).readlines()
    for k, column in cut.items():
        lines[k] = lines[k][:column].rstrip() + "\n"
    text = "".join(lines)
    compile(text, "<stripped>", "exec")  # a mistake here stops the build, not a page
    return text


def stripped(root: str, skip: tuple[str, ...] = ()) -> dict[str, str]:
    """Every ``.py`` file under ``root`` but those under ``skip``, stripped, by its path from ``root``."""
    out = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, root).replace(os.sep, "/")
            if name.endswith(".py") and not relative.startswith(skip):
                with open(path, encoding="utf-8") as f:
                    out[relative] = without_docs(f.read())
    return out


ENGINE = ("drunter_notation/",)
json.dumps({"stdlib": stripped("/tmp/stdlib"), "packages": stripped("/drunter/site-packages", ENGINE)}) \
    if __name__ == "__main__" else None
