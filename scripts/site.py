"""The browser edition's build (``bash scripts/site.sh OUT`` runs it; docs/browser.md).

    python scripts/site.py requirements LOCK WHEELS SDISTS
        the browser's packages, with their pinned versions and hashes, taken from
        the lock file LOCK (uv's requirements format) into two requirement files:
        the pure wheels, and the sdists whose pure modules are taken
    python scripts/site.py build OUT DIST PYODIDE
        the static site in OUT from the downloaded distributions in DIST and the
        npm package's folder PYODIDE

The site: the pages in every language (rendered from site/pages/ with the gettext
catalogs), their scripts and styles, Pyodide's runtime, one zip of the Python
packages (unpacked into the browser's site-packages at start) and a service worker
that keeps every file of this version for offline use.
"""
from __future__ import annotations

import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "site" / "pages"
sys.path.insert(0, str(ROOT))

# The packages the engine imports in the browser, as the lock file names them. markupsafe
# publishes no pure wheel: its sdist's modules run without the C speedups (its own fallback).
WHEELS = ("lark", "jinja2", "click", "babel", "graphviz", "segno")  # segno: the table core draws seat links
SDISTS = ("markupsafe",)
PAGE_NAMES = ("check", "replay", "dispute", "play")
BUNDLE = "packages.zip"
# Babel's locale data: the languages of the catalogs and what they fall back on.
BABEL_DATA = re.compile(r"babel/locale-data/(root|en|de|cs)\.dat$")
# Not in the browser: the AI ecosystems (numpy and friends), the table server's app, Babel's
# catalog tools (the catalogs are read by gettext) and the wheels' lists of their files.
SKIPPED = re.compile(r"^(drunter_notation/(ai|web)/|.*__pycache__/|babel/locale-data/|babel/messages/|"
                     r"[^/]+\.dist-info/RECORD$)")
# Python's standard library less what the engine never imports in a page (the REPL,
# debuggers, test frameworks, servers and mail, the codecs of other scripts) ...
STDLIB_SKIPPED = re.compile(
    r"^(_pyrepl|unittest|pydoc_data|xmlrpc|wsgiref|idlelib|tkinter|turtledemo|lib2to3|ensurepip|venv|sqlite3|"
    r"curses|dbm)/|^(pdb|doctest|pydoc|imaplib|mailbox|smtplib|poplib|ftplib|nntplib|turtle|pickletools|"
    r"tabnanny|trace|cProfile|profile|pstats|timeit|webbrowser|telnetlib|xdrlib)\.py$|"
    r"^encodings/(?!__init__|aliases|ascii|charmap|cp437|idna|latin_1|punycode|raw_unicode_escape|"
    r"unicode_escape|utf_8|utf_8_sig|utf_16|utf_16_be|utf_16_le|utf_32|utf_32_be|utf_32_le)[^/]*\.py$")
# ... and, of the rest, only the modules the engine may import (scripts/site_imports.py finds them
# with the first cut in place: what it leaves out is not followed), and the codecs above.
CODECS = re.compile(r"^encodings/(__init__|aliases|ascii|charmap|cp437|idna|latin_1|punycode|raw_unicode_escape|"
                    r"unicode_escape|utf_8|utf_8_sig|utf_16|utf_16_be|utf_16_le|utf_32|utf_32_be|utf_32_le)\.py$")
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide-lock.json")


def requirements(lock: Path, wheels: Path, sdists: Path) -> None:
    """The lock's entries of WHEELS and SDISTS (a name, ``==`` version, its hash lines)."""
    entries: dict[str, str] = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", lock.read_text("utf-8")):
        found = re.match(r"([A-Za-z0-9_.-]+)==(\S+)", block)
        if found:
            name = re.sub(r"[-_.]+", "-", found[1]).lower()
            lines = [line.split("#")[0].rstrip() for line in block.splitlines()]
            entries[name] = "\n".join(line for line in lines if line.strip()).rstrip(" \\") + "\n"
    missing = [n for n in (*WHEELS, *SDISTS) if n not in entries]
    if missing:
        sys.exit(f"site: {lock} pins no {', '.join(missing)}")
    wheels.write_text("".join(entries[n] for n in WHEELS), "utf-8")
    sdists.write_text("".join(entries[n] for n in SDISTS), "utf-8")


def bundle(dist: Path, stripped: dict[str, str] | None = None) -> bytes:
    """One zip of every package's files as they lie in site-packages; a file named in ``stripped``
    as its text there (``scripts/site_strip.py``)."""
    stripped = stripped or {}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for wheel in sorted(dist.glob("*.whl")):
            with zipfile.ZipFile(wheel) as w:
                for info in w.infolist():
                    name = info.filename
                    if info.is_dir() or (SKIPPED.match(name) and not BABEL_DATA.search(name)):
                        continue
                    z.writestr(_entry(name), stripped[name].encode() if name in stripped else w.read(info))
        for sdist in sorted(dist.glob("*.tar.gz")):
            with tarfile.open(sdist) as t:
                for member in t.getmembers():
                    found = re.match(r"[^/]+/src/([a-z_]+/[^/]+\.(py|typed))$", member.name)
                    if member.isfile() and found:
                        name = found[1]
                        data = stripped[name].encode() if name in stripped else t.extractfile(member).read()  # type: ignore[union-attr]
                        z.writestr(_entry(name), data)
    return out.getvalue()


def _entry(name: str) -> zipfile.ZipInfo:
    """A zip entry with a fixed date, so the same inputs make the same bytes."""
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def in_pyodide(out: Path, *scripts: str) -> list[Any]:
    """The values of ``scripts/NAME.py`` for each NAME of ``scripts``, run in turn by the site's own
    Pyodide in Node, in one session."""
    code = [(ROOT / "scripts" / f"{name}.py").read_text("utf-8") for name in scripts]
    calls = "".join(json.dumps({"name": "python", "args": {"code": text}}) + "\n" for text in code)
    answer = subprocess.run(["node", str(ROOT / "site" / "node-run.mjs"), str(out)], input=calls, text=True,
                            capture_output=True, check=True, timeout=600).stdout.splitlines()
    values = [json.loads(line) for line in answer[-len(scripts):]]
    for name, value in zip(scripts, values, strict=True):
        if "value" not in value:
            sys.exit(f"site: scripts/{name}.py failed in Pyodide: {value.get('failed')}")
    return [value["value"] for value in values]


def stdlib(source: Path, keep: set[str] | None = None, stripped: dict[str, str] | None = None) -> bytes:
    """The standard library's zip less STDLIB_SKIPPED; with ``keep``, only its modules and the
    codecs besides (other files stay); a file named in ``stripped`` as its text there."""
    stripped = stripped or {}
    out = io.BytesIO()
    with zipfile.ZipFile(source) as z, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as new:
        for info in z.infolist():
            name = info.filename
            if STDLIB_SKIPPED.search(name):
                continue
            if keep is None or not name.endswith(".py") or name in keep or CODECS.match(name):
                new.writestr(_entry(name), stripped[name].encode() if name in stripped else z.read(info))
    return out.getvalue()


def render_pages(out: Path) -> None:
    """Every page in every language, with the words its scripts need."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    from drunter_notation import i18n
    from drunter_notation.web import language

    env = Environment(loader=FileSystemLoader(PAGES), autoescape=select_autoescape(["html"]),
                      extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(i18n._, i18n.ngettext, newstyle=True)  # type: ignore[attr-defined]
    for lang in i18n.LANGUAGES:
        (out / lang).mkdir(parents=True, exist_ok=True)
        with i18n.using(lang):
            words = language.words(lang, PAGES)
            for name in PAGE_NAMES:
                html = env.get_template(f"{name}.html").render(lang=lang, names=i18n.NAMES, words=words, page=name,
                                                               pages=PAGE_NAMES)
                (out / lang / f"{name}.html").write_text(html, "utf-8")
    (out / "index.html").write_text(env.get_template("index.html").render(names=i18n.NAMES), "utf-8")


def build(out: Path, dist: Path, pyodide: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    (out / "pyodide").mkdir(parents=True)
    (out / "assets").mkdir()
    for name in PYODIDE_FILES:
        shutil.copyfile(pyodide / name, out / "pyodide" / name)
    (out / "pyodide" / "python_stdlib.zip").write_bytes(stdlib(pyodide / "python_stdlib.zip"))
    (out / BUNDLE).write_bytes(bundle(dist))
    for path in sorted(PAGES.iterdir()):
        if path.suffix in (".js", ".css") and path.name != "sw.js":
            shutil.copyfile(path, out / "assets" / path.name)
    # the engine started once on the first cut, to find what it may import of it and to strip the sources
    keep, stripped = in_pyodide(out, "site_imports", "site_strip")
    (out / "pyodide" / "python_stdlib.zip").write_bytes(stdlib(pyodide / "python_stdlib.zip", set(keep),
                                                               stripped["stdlib"]))
    (out / BUNDLE).write_bytes(bundle(dist, stripped["packages"]))
    for name in ("board.css", "report.js"):  # the report's board symbols and stepping, shared
        shutil.copyfile(ROOT / "drunter_notation" / "report" / "templates" / name, out / "assets" / name)
    shutil.copyfile(PAGES / "view.html", out / "view.html")
    render_pages(out)
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    digest = hashlib.sha256()
    for name in files:
        digest.update(name.encode() + b"\0" + (out / name).read_bytes())
    version = digest.hexdigest()[:12]
    (out / "version.json").write_text(json.dumps({"version": version}) + "\n", "utf-8")
    sw = (PAGES / "sw.js").read_text("utf-8")
    sw = sw.replace('"__VERSION__"', json.dumps(version)).replace("__FILES__", json.dumps(["./", *files]))
    (out / "sw.js").write_text(sw, "utf-8")
    print(f"site: {out} (version {version}, {len(files) + 2} files)")


def main(argv: list[str]) -> None:
    if argv[:1] == ["requirements"] and len(argv) == 4:
        requirements(Path(argv[1]), Path(argv[2]), Path(argv[3]))
    elif argv[:1] == ["build"] and len(argv) == 4:
        build(Path(argv[1]), Path(argv[2]), Path(argv[3]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
