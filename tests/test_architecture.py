"""docs/architecture.md's layers hold: every module imports only from layers above
its own (or from its own package), read from the source with ast."""
from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "drunter_notation"

# Module prefix -> layer, as docs/architecture.md's table lists them (longest prefix wins).
LAYERS = {
    "errors": 0, "codes": 0, "files": 0, "i18n": 0, "kept": 0,
    "notation": 1,
    "rules": 2,
    "explain": 3,
    "replay": 4,
    "data": 5, "deal": 5,
    "load": 6, "position": 6,
    "game": 7, "adjudication": 7, "simulate": 7,
    "bots": 8,
    "report": 9, "analysis": 9, "ai": 9,
    "table": 10,
    "web": 11, "cli": 12,
}


def layer(module: str) -> tuple[int, str]:
    """(layer, the prefix that placed it) of a module name without the package prefix."""
    best = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len, default=None)
    assert best is not None, f"drunter_notation.{module} is in no layer of docs/architecture.md"
    return LAYERS[best], best


def imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("drunter_notation."):
            out.add(node.module.removeprefix("drunter_notation."))
            out.update(f"{node.module.removeprefix('drunter_notation.')}.{a.name}" for a in node.names
                       if (PACKAGE / node.module.removeprefix("drunter_notation.").replace(".", "/")
                           / f"{a.name}.py").exists())
        elif isinstance(node, ast.Import):
            out.update(a.name.removeprefix("drunter_notation.") for a in node.names
                       if a.name.startswith("drunter_notation."))
    return out


def modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts == ("__init__",):
            continue  # the package's lazy exports sit on top of everything
        yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


def test_every_import_goes_up_the_layers():
    wrong = []
    for module, path in modules():
        own, own_prefix = layer(module)
        for target in imports(path):
            if target in ("rules", "explain", "data", "notation"):
                continue  # a package's empty __init__
            theirs, their_prefix = layer(target)
            same_package = target.split(".")[0] == module.split(".")[0]
            base = {own_prefix, their_prefix} <= {"errors", "codes", "files", "i18n"}  # the base layer's own modules
            if theirs > own or (theirs == own and not same_package and not base):
                wrong.append(f"{module} (layer {own}) imports {target} (layer {theirs})")
    assert not wrong, "\n".join(wrong)


def test_the_engine_words_nothing_and_reads_no_files():
    """rules/ builds no sentences and touches no files; replay.py opens nothing."""
    for path in [*sorted((PACKAGE / "rules").glob("*.py")), PACKAGE / "replay.py"]:
        text = path.read_text("utf-8")
        for word in ("open(", "read_text", "read_bytes", "Path(", "print(", "sys.exit", "click"):
            assert word not in text, f"{path.name} uses {word}"
    for path in sorted((PACKAGE / "rules").glob("*.py")):
        tree = ast.parse(path.read_text("utf-8"))
        raised = {id(n) for r in ast.walk(tree) if isinstance(r, ast.Raise) for n in ast.walk(r)}  # a bug's text
        sentences = [n for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) and id(n) not in raised
                     and sum(len(v.value.split()) for v in n.values if isinstance(v, ast.Constant)) >= 3]
        assert not sentences, f"{path.name} builds a sentence at line {sentences[0].lineno}"


def test_no_code_reads_a_message_to_decide():
    """Decisions travel as values: nothing compares or searches a diagnostic's message."""
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text("utf-8")
        for pattern in (".message.startswith", ".message ==", "in d.message", "in e.diagnostic.message",
                        ".message.replace", "message.split"):
            assert pattern not in text, f"{path.relative_to(PACKAGE)}: {pattern}"


SERVER_MODULES = ("starlette", "uvicorn", "threading", "multiprocessing", "concurrent", "asyncio", "subprocess",
                  "socket", "os")


def test_the_table_core_has_no_server_thread_process_or_file_in_it():
    """table/ runs behind the server and in a page's worker under Pyodide alike: it imports
    no server, starts no thread or process and touches no file itself (its storage does)."""
    for path in sorted((PACKAGE / "table").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                assert name.split(".")[0] not in SERVER_MODULES, f"table/{path.name} imports {name}"
        text = path.read_text("utf-8")
        for word in ("open(", "read_text", "write_text", "Thread(", "time.sleep("):
            assert not re.search(r"(?<![\w.])" + re.escape(word), text), f"table/{path.name} uses {word}"
