#!/usr/bin/env bash
# Refresh the locks that scripts/setup.sh installs from: every package at its newest
# release that pyproject.toml's ranges allow, with the sha256 of every file PyPI has for
# it, for Python 3.11 to 3.13 on any platform (Linux x86_64 and aarch64 among them).
#   bash scripts/lock.sh        rewrite lock/app.txt (the tool) and lock/test.txt (the tests)
# Made with uv (itself pinned by hash in lock/uv.txt), in a virtual environment of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install -q --disable-pip-version-check --require-hashes -r lock/uv.txt
compile=("$tmp/venv/bin/uv" pip compile --quiet --universal --python-version 3.11 --generate-hashes
         --custom-compile-command "bash scripts/lock.sh" pyproject.toml lock/build.in)
"${compile[@]}" -o lock/app.txt
"${compile[@]}" --extra test -o lock/test.txt
echo "lock: wrote lock/app.txt ($(grep -c '^[a-z]' lock/app.txt) packages) and lock/test.txt ($(grep -c '^[a-z]' lock/test.txt))" >&2
