"""Which files of Python's standard library the browser edition may import: run by
``scripts/site.py`` inside the site's own Pyodide (through ``site/node-run.mjs``), so the
imports are read by the very Python that runs them.

The answer, as JSON: every standard-library file reachable by a static import from the
engine's modules (all of ``drunter_notation`` but the AI environments and the table server),
from the packages they import and from what Pyodide itself imported to start. An import
inside a function or a ``try`` counts too, so a module any path of the engine may import is
kept; only imports by a name built at run time escape it (the codecs, kept by name by
``scripts/site.py``).
"""
import json
import modulefinder
import pkgutil
import shutil
import sys

started = sorted(sys.modules)  # what Pyodide and the engine's start imported, before this script's own
PACKAGES = "/drunter/site-packages"
STDLIB = "/tmp/stdlib"
shutil.unpack_archive(next(p for p in sys.path if p.endswith(".zip")), STDLIB, "zip")

import drunter_notation  # noqa: E402  (on sys.path once the engine has started)

entry = [m.name for m in pkgutil.walk_packages(drunter_notation.__path__, "drunter_notation.")
         if not m.name.startswith(("drunter_notation.ai", "drunter_notation.web"))]
entry += [name for name in started if all(part.isidentifier() for part in name.split("."))]
with open("/tmp/entry.py", "w", encoding="utf-8") as f:
    f.write("".join(f"import {name}\n" for name in entry))
finder = modulefinder.ModuleFinder(path=[STDLIB, PACKAGES], excludes=["drunter_notation.ai", "drunter_notation.web"])
finder.run_script("/tmp/entry.py")
prefix = STDLIB + "/"
paths = [getattr(m, "__file__", None) or "" for m in finder.modules.values()]  # a builtin module has none
json.dumps(sorted(path[len(prefix):] for path in paths if path.startswith(prefix)))
