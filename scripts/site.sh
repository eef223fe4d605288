#!/usr/bin/env bash
# The browser edition: bash scripts/site.sh OUT writes a static site into OUT (docs/browser.md).
# Pyodide from the npm lock (site/package-lock.json), the Python packages by the versions and
# hashes of lock/app.txt, the project's own wheel built from this checkout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?usage: bash scripts/site.sh OUT}
python=${PYTHON:-$root/.venv/bin/python}
lock=${DRUNTER_LOCK:-$root/lock/app.txt}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

(cd "$root/site" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
"$python" "$root/scripts/site.py" requirements "$lock" "$work/wheels.txt" "$work/sdists.txt"
"$python" -m pip download -q --no-deps --require-hashes --only-binary :all: -r "$work/wheels.txt" -d "$work/dist"
"$python" -m pip download -q --no-deps --require-hashes --no-binary :all: --no-build-isolation \
  -r "$work/sdists.txt" -d "$work/dist"
# The pure wheel, from a copy of the sources: no build folder of a compiled build can slip in.
mkdir "$work/src"
cp -r "$root/pyproject.toml" "$root/setup.py" "$root/README.md" "$work/src/"
(cd "$root" && tar --exclude=__pycache__ --exclude='*.so' -cf - drunter_notation) | tar -xf - -C "$work/src"
(cd "$work/src" && env -u DRUNTER_COMPILE "$python" -m pip wheel -q --no-deps --no-build-isolation -w "$work/dist" .)
"$python" "$root/scripts/site.py" build "$out" "$work/dist" "$root/site/node_modules/pyodide"
