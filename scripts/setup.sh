#!/usr/bin/env bash
# Install drunter-notation into the project's virtual environment .venv, made here with
# python3 (>= 3.11) unless it exists; inside an already active virtual environment, into
# that one (then .venv links to it). Needs no root: system programs are a separate step,
# scripts/system-packages.sh, and what is missing of them is said at the end.
# Every package comes from a lock, exact versions checked against their sha256 hashes
# (lock/app.txt, with --test lock/test.txt; bash scripts/lock.sh refreshes them).
#   bash scripts/setup.sh          the tool:            .venv/bin/drunter
#   bash scripts/setup.sh --test   also the test tools: .venv/bin/python -m pytest
set -euo pipefail
cd "$(dirname "$0")/.."
want_test=0
case "${1:-}" in
  --test) want_test=1 ;;
  "") ;;
  *) echo "usage: bash scripts/setup.sh [--test]" >&2; exit 2 ;;
esac
say() { echo "setup: $*" >&2; }

if [ -e .venv ]; then
  say "using the project's virtual environment .venv"
elif [ -n "${VIRTUAL_ENV:-}" ] && [ -x "$VIRTUAL_ENV/bin/python" ]; then
  ln -s "$VIRTUAL_ENV" .venv
  say "using the active virtual environment $VIRTUAL_ENV (linked as .venv)"
else
  py=$(command -v python3 || true)
  if [ -z "$py" ] || ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    say "needs python3 3.11 or newer on the PATH (found: ${py:-none}${py:+, $("$py" --version 2>&1)})"
    exit 1
  fi
  if ! "$py" -c 'import ensurepip, venv' 2>/dev/null; then
    say "$py cannot make virtual environments: the package python3-venv is missing."
    say "install it (as root: bash scripts/system-packages.sh, or apt-get install python3-venv), then run this again"
    exit 1
  fi
  say "making the virtual environment .venv with $py ($("$py" --version 2>&1))"
  "$py" -m venv .venv
fi
# uv (itself locked by hash, installed by pip) installs the locks: about 3 s where pip takes 25 s.
# --compile-bytecode for the tool: where PYTHONDONTWRITEBYTECODE is set, every start would compile its modules anew
# (the tests write bytecode as they import, whatever the environment says: tests/conftest.py).
.venv/bin/python -m pip install -q --disable-pip-version-check --no-compile --require-hashes -r lock/uv.txt
uv=(.venv/bin/uv pip install -q --native-tls --python .venv/bin/python)
# The locked packages first (setuptools among them), then the project alone, built with them.
if [ "$want_test" = 1 ]; then
  "${uv[@]}" --require-hashes -r lock/test.txt
  "${uv[@]}" --no-deps --no-build-isolation -e .
else
  "${uv[@]}" --compile-bytecode --require-hashes -r lock/app.txt
  "${uv[@]}" --compile-bytecode --no-deps --no-build-isolation .
fi
say "done: $(.venv/bin/drunter --version); run it as .venv/bin/drunter, or after 'source .venv/bin/activate' as drunter"

missing=$(bash scripts/system-packages.sh --check $([ "$want_test" = 1 ] && echo --test) 2>&1) || true
[ -z "$missing" ] || echo "$missing" >&2
