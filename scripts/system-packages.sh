#!/usr/bin/env bash
# The system programs drunter-notation uses besides Python, installed with apt (root):
#   python3-venv  lets scripts/setup.sh make its virtual environment (Debian, Ubuntu)
#   graphviz      the 'dot' program: game-flow diagrams in HTML reports (left out without it)
#   chromium      with --test: the browser tests (skipped without it), and bench/browser.py
#   chromium-headless-shell  with --test: the same engine without a window, which the tests run (half the CPU)
#   bash scripts/system-packages.sh [--test]            install what is missing (as root)
#   bash scripts/system-packages.sh --check [--test]    only say what is missing (exit 1 if anything)
set -euo pipefail
check=0 test=0
for arg in "$@"; do
  case "$arg" in
    --check) check=1 ;;
    --test) test=1 ;;
    *) echo "usage: bash scripts/system-packages.sh [--check] [--test]" >&2; exit 2 ;;
  esac
done

missing=() why=()
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
  missing+=(python3-venv) why+=("python3-venv: scripts/setup.sh cannot make .venv")
fi
if ! command -v dot >/dev/null 2>&1; then
  missing+=(graphviz) why+=("graphviz: reports have no game-flow diagram")
fi
if [ "$test" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  missing+=(chromium) why+=("chromium: the browser tests are skipped")
fi
if [ "$test" = 1 ] && [ ! -x /usr/bin/chromium-headless-shell ]; then
  missing+=(chromium-headless-shell) why+=("chromium-headless-shell: the browser tests run in the full chromium, twice as slow")
fi
[ "${#missing[@]}" = 0 ] && exit 0

if [ "$check" = 1 ] || [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "system packages missing:" >&2
  printf '  %s\n' "${why[@]}" >&2
  echo "install them with: sudo bash scripts/system-packages.sh$([ "$test" = 1 ] && echo ' --test')" \
       "(Debian/Ubuntu; elsewhere use your system's packages)" >&2
  exit 1
fi
echo "system-packages: installing ${missing[*]} (apt-get)" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
echo "system-packages: installed ${missing[*]}" >&2
